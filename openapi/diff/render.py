"""The three formats of a report: text (grouped by operation), markdown (a pull-request comment) and
json (`Report.as_dict`: every change with its pointer, class, reason, and the accept file's notes).
"""

from __future__ import annotations

from .model import Change, Report


def text(report: Report) -> str:
    lines: list[str] = []
    for first, changes in report.groups():
        lines.append(heading(first))
        lines.extend(f"  {change}" for change in changes)
        lines.append("")
    for note in report.notes:
        lines.append(f"{'error' if note.fails else 'note'}: {note}")
    if report.notes:
        lines.append("")
    lines.append(report.summary())
    return "\n".join(lines)


def markdown(report: Report) -> str:
    """A pull-request comment: the summary, then a table per operation."""
    lines = [f"### API changes: `{report.old}` → `{report.new}`", ""]
    if not report.changes:
        lines.append("No changes.")
    else:
        counts = " · ".join(f"**{count}** {words}" for count, words in report.counts())
        lines += [f"{len(report.changes)} change(s): {counts}", ""]
    for first, changes in report.groups():
        lines += [f"#### {_md(heading(first))}", "", "| | change | why | where |", "|---|---|---|---|"]
        for change in changes:
            mark = f"**{change.label}**" if change.breaking else change.label
            why = change.reason
            if change.example:
                why += f" (e.g. `{change.example}`)"
            if change.accepted:
                why += f"; accepted: {change.accepted}"
            where = f"`{change.pointer}` via `{change.via}`" if change.via else f"`{change.pointer}`"
            lines.append(f"| {mark} | {_md(change.message)} | {_md(why)} | {where} {change.rule} |")
        lines.append("")
    if report.notes:
        lines += ["#### Accept file", ""]
        lines += [f"- {'**expired**' if note.fails else 'unused'}: {_md(str(note))}" for note in report.notes]
    return "\n".join(lines).rstrip() + "\n"


def heading(change: Change) -> str:
    name = f"{change.summary} ({change.operation})" if change.summary else change.operation
    return f"{name} [{change.operation_id}]" if change.operation_id else name


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
