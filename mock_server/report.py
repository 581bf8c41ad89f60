"""The client's contract report of `serve --report FILE`, written when the server stops.

`Journal.report` (journal.py) gives it as data; here it becomes a file: HTML when FILE ends in
.html (one page for a person: a summary, then every operation of the document by tag, used or
not, with the statuses it answered and the findings of its requests; inline CSS, no script, no
external asset), else JSON. The write is atomic: a temporary file beside FILE, then a rename.
"""

from __future__ import annotations

import json
import os
import tempfile
from html import escape
from pathlib import Path
from typing import Any


def is_html(path: Path) -> bool:
    return path.suffix.lower() in (".html", ".htm")


def write_report(path: Path, report: dict[str, Any]) -> None:
    text = render_html(report) if is_html(path) else json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328;
  margin: 0; background: #f6f8fa; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 22px; margin: 0 0 2px; }
h2 { font-size: 16px; margin: 28px 0 8px; }
.sub { color: #59636e; margin: 0 0 18px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; }
.card { background: #fff; border: 1px solid #d1d9e0; border-radius: 8px; padding: 10px 16px;
  min-width: 140px; }
.card b { display: block; font-size: 24px; line-height: 1.2; }
.card span { color: #59636e; font-size: 12px; text-transform: uppercase; letter-spacing: .04em; }
.card.warn b { color: #9a6700; } .card.bad b { color: #cf222e; } .card.good b { color: #1a7f37; }
.bar { height: 8px; background: #e6eaef; border-radius: 4px; margin: 14px 0 4px; overflow: hidden; }
.bar i { display: block; height: 100%; background: #1a7f37; }
.legend { color: #59636e; font-size: 12px; }
table { width: 100%; border-collapse: collapse; background: #fff; border: 1px solid #d1d9e0;
  border-radius: 8px; overflow: hidden; }
th { text-align: left; font-size: 12px; color: #59636e; font-weight: 600; background: #f6f8fa;
  padding: 6px 10px; border-bottom: 1px solid #d1d9e0; }
td { padding: 7px 10px; border-top: 1px solid #eef1f4; vertical-align: top; }
tr.tag td { background: #f6f8fa; font-weight: 600; border-top: 1px solid #d1d9e0; }
tr.unused td { color: #8c959f; }
.op code { font: 12.5px ui-monospace, SFMono-Regular, Menlo, monospace; }
.m { display: inline-block; min-width: 52px; font: 600 11px ui-monospace, monospace; }
.id { color: #59636e; font-size: 12px; }
.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.chip { display: inline-block; font: 600 11.5px ui-monospace, monospace; border-radius: 10px;
  padding: 1px 7px; margin: 1px 2px 1px 0; white-space: nowrap; }
.s2 { background: #dafbe1; color: #116329; } .s4 { background: #fff1c2; color: #7d4e00; }
.s5, .sx { background: #ffebe9; color: #a40e26; } .s3, .s1 { background: #ddf4ff; color: #0a3069; }
.undoc { outline: 2px solid #cf222e; outline-offset: -2px; }
.unseen { background: #fff; color: #8c959f; border: 1px dashed #c8d1da; padding: 0 6px; }
.state { font-size: 12px; font-weight: 600; white-space: nowrap; }
.state.used { color: #1a7f37; } .state.unused { color: #8c959f; }
ul.f { margin: 0; padding: 0; list-style: none; }
ul.f li { margin: 0 0 3px; font-size: 12.5px; }
.k { display: inline-block; font: 600 11px ui-monospace, monospace; background: #eef1f4;
  color: #1f2328; border-radius: 4px; padding: 0 5px; margin-right: 4px; }
.k.fault, .k.no_such_operation { background: #ffebe9; color: #a40e26; }
.k.missing_header { background: #fff1c2; color: #7d4e00; }
.k.prefer { background: #ddf4ff; color: #0a3069; }
.x { color: #59636e; }
.none { color: #8c959f; }
.kinds { margin: 10px 0 8px; }
.unusedlist { background: #fff; border: 1px solid #d1d9e0; border-radius: 8px; padding: 8px 12px;
  font-size: 12.5px; line-height: 1.9; color: #59636e; }
.unusedlist code { font: 12px ui-monospace, monospace; background: #f6f8fa; border: 1px solid #e6eaef;
  border-radius: 4px; padding: 1px 5px; white-space: nowrap; color: #1f2328; }
"""


def _chip(status: str, count: int | None = None, *, undocumented: bool = False, unseen: bool = False) -> str:
    kind = f"s{status[0]}" if status[:1].isdigit() else "sx"
    classes = "chip unseen" if unseen else f"chip {kind}" + (" undoc" if undocumented else "")
    title = "documented, never answered" if unseen else ("not documented" if undocumented else "")
    label = escape(status) + (f" ×{count}" if count is not None else "")
    return f'<span class="{classes}" title="{title}">{label}</span>'


def _findings(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return '<span class="none">none</span>'
    items = []
    for row in rows:
        kind = escape(str(row["kind"]))
        count = f' <span class="x">×{row["count"]}</span>' if row["count"] > 1 else ""
        items.append(f'<li><span class="k {kind}">{kind}</span>{escape(str(row["message"]))}{count}</li>')
    return f'<ul class="f">{"".join(items)}</ul>'


def _operation_row(op: dict[str, Any]) -> str:
    used = op["used"]
    seen = "".join(
        _chip(status, count, undocumented=status in op["undocumented_statuses"])
        for status, count in op["statuses"].items()
    )
    unseen = "".join(_chip(s, unseen=True) for s in op["documented_statuses"] if s not in op["statuses"])
    state = '<span class="state used">used</span>' if used else '<span class="state unused">not used</span>'
    return (
        f'<tr class="{"used" if used else "unused"}">'
        f"<td>{state}</td>"
        f'<td class="op"><span class="m">{escape(op["method"])}</span><code>{escape(op["path"])}</code>'
        f'<div class="id">{escape(op["operationId"])} · {escape(op["summary"])}</div></td>'
        f'<td class="n">{op["requests"] or ""}</td>'
        f"<td>{seen or ''}{unseen}</td>"
        f"<td>{_findings(op['findings']) if used else ''}</td>"
        "</tr>"
    )


def render_html(report: dict[str, Any]) -> str:
    summary = report["summary"]
    total, used = summary["operations"], summary["used"]
    percent = round(100 * used / total) if total else 0
    cards = [
        ("good" if used == total else "warn", f"{used}/{total}", "operations used"),
        ("", str(summary["requests"]), "requests"),
        ("warn" if summary["findings"] else "good", str(summary["findings"]), "findings"),
        ("warn" if summary["non_2xx"] else "good", str(summary["non_2xx"]), "non-2xx answers"),
        (
            "bad" if summary["no_such_operation"] else "good",
            str(summary["no_such_operation"]),
            "no such operation",
        ),
    ]
    card_html = "".join(
        f'<div class="card {kind}"><b>{escape(value)}</b><span>{escape(label)}</span></div>'
        for kind, value, label in cards
    )
    by_tag: dict[str, list[dict[str, Any]]] = {}  # in the order tags first appear in the document
    for op in report["operations"]:
        by_tag.setdefault(op["tag"] or "untagged", []).append(op)
    rows = []
    for tag, ops in by_tag.items():
        used_here = sum(1 for op in ops if op["used"])
        count = f'<span class="x">{used_here}/{len(ops)} used</span>'
        rows.append(f'<tr class="tag"><td colspan="5">{escape(tag)} {count}</td></tr>')
        rows.extend(_operation_row(op) for op in ops)
    unused = [op for op in report["operations"] if not op["used"]]
    unused_html = (
        "".join(f"<code>{escape(op['operationId'])}</code> " for op in unused)
        if unused
        else '<span class="none">none: every operation was called</span>'
    )
    kinds = summary.get("findings_by_kind", {})
    kinds_html = (
        " ".join(f'<span class="k {escape(k)}">{escape(k)}</span>×{n}' for k, n in kinds.items())
        if kinds
        else '<span class="none">no findings</span>'
    )
    unmatched = report["unmatched"]
    unmatched_html = ""
    if unmatched["requests"]:
        chips = "".join(_chip(s, c, undocumented=True) for s, c in unmatched["statuses"].items())
        unmatched_html = (
            f"<h2>Requests that match no operation ({unmatched['requests']})</h2>"
            f'<table><tr><th>Statuses</th><th>Findings</th></tr><tr><td style="width:22%">{chips}</td>'
            f"<td>{_findings(unmatched['findings'])}</td></tr></table>"
        )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>csapi contract report: {used}/{total} operations used</title>
<style>{_CSS}</style></head>
<body><main>
<h1>Contract report of the client</h1>
<p class="sub">What the client did against the csapi mock from {escape(report["started_at"])}
to {escape(report["generated_at"])}: which operations of the document it called, the statuses
it got and what its requests did that the document does not describe.</p>
<div class="cards">{card_html}</div>
<div class="bar"><i style="width:{percent}%"></i></div>
<p class="legend">{percent}% of the document's operations used.</p>
<p class="kinds"><b>Findings by kind:</b> {kinds_html}</p>
<div class="unusedlist"><b>Never used ({len(unused)}):</b> {unused_html}</div>
<h2>Operations</h2>
<p class="legend">Statuses: <span class="chip s2">2xx</span><span class="chip s4">4xx</span>
<span class="chip s5">5xx</span> answered (×count), <span class="chip s5 undoc">red outline</span>
not documented for the operation, <span class="chip unseen">dashed</span> documented but never
answered.</p>
<table>
<tr><th style="width:70px"></th><th>Operation</th><th class="n">Requests</th>
<th style="width:24%">Statuses</th><th style="width:34%">Findings</th></tr>
{"".join(rows)}
</table>
{unmatched_html}
</main></body></html>
"""
