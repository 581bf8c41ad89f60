"""The report of a conformance run (`csapi conform --report FILE`): HTML, or Markdown for a .md file.

Rendered from the run's coverage data (coverage.py's documented shape, what --coverage-json
writes), so the page and the JSON never disagree. A person reads it top down: the verdict and
the numbers; a matrix of operations x layers, each cell coloured by what its checks did;
the failures, each with its spec rule, kind, curl line and trimmed response; then, grouped by
tag, what every operation was sent and answered and which checks passed, were skipped (why)
or failed.

The HTML page is self-contained (inline CSS, no script, nothing fetched) and escapes every
text, since responses, messages and even the document's names come from outside.
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape
from pathlib import Path
from typing import Any

from .registry import LAYERS

_STATE_MARK = {"failed": "✗", "accepted": "~", "passed": "✓", "skipped": "–", "not exercised": ""}
_RESULT = {"pass": "passed", "fail": "failed", "error": "error", "skip": "skipped"}
_ORDER = {"fail": 0, "error": 0, "skip": 1, "pass": 2}  # what needs reading first
MAX_REASON = 48  # characters of a reason in a pill; the table of checks has it whole


def write_report(data: dict[str, Any], path: Path) -> None:
    """HTML when the file name ends in .html or .htm, else Markdown."""
    text = html(data) if path.suffix.lower() in (".html", ".htm") else markdown(data)
    path.write_text(text, encoding="utf-8", errors="backslashreplace")  # a lone surrogate stays readable


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _by_tag(operations: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Operations grouped by their first tag, in the document's order."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for op in operations:
        groups.setdefault(op["tag"], []).append(op)
    return groups


def _anchor(operation_id: str) -> str:
    return "op-" + "".join(c if c.isalnum() or c in "._-" else "-" for c in operation_id)


def _totals_line(data: dict[str, Any]) -> str:
    c = data["totals"]["checks"]
    accepted = f", {c['accepted']} failures accepted (--accept)" if c.get("accepted") else ""
    return (
        f"{c['passed']} passed, {c['failed']} failed, {c['errors']} errors, {c['skipped']} skipped, "
        f"{c['left_out']} left out by the settings{accepted}"
    )


def _options(data: dict[str, Any]) -> list[str]:
    s = data["settings"]
    words = [name.replace("_", "-") for name in ("quick", "strict", "read_only") if s[name]]
    words += [f"--include {' '.join(s['include'])}"] if s["include"] else []
    words += [f"--exclude {' '.join(s['exclude'])}"] if s["exclude"] else []
    words.append(f"{s['users']} user{'s' if s['users'] != 1 else ''}")
    words.append(f"team {s['team_id']}" if s["team_id"] else "no --team-id")
    words.append(f"{s['max_examples']} examples per operation")
    return words


def _seen(statuses: dict[str, Any]) -> int:
    """How many of the operation's documented statuses came back."""
    return len(statuses["documented"]) - len(statuses["not_seen"])


def _cell_text(cell: dict[str, Any]) -> str:
    parts = []
    if cell["failed"]:
        parts.append(f"{cell['failed']} failed")
    if cell.get("accepted"):
        parts.append(f"{cell['accepted']} accepted")
    if cell["passed"]:
        parts.append(f"{cell['passed']} passed")
    if cell["skipped"]:
        parts.append(f"{cell['skipped']} skipped")
    return ", ".join(parts)


# ---------------------------------------------------------------------- HTML
_CSS = """
:root{--red:#b42318;--red-bg:#fde8e7;--green:#146c2e;--green-bg:#dcf3e2;--grey:#667085;
--yellow-bg:#fdf3d1;--yellow:#7a5b00;--line:#e4e7ec;--ink:#1d2939;--soft:#f5f6f8}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);margin:0;
background:#fff}
main{max-width:1280px;margin:0 auto;padding:24px 32px 64px}
h1{font-size:24px;margin:0 0 6px}h2{font-size:19px;margin:36px 0 12px;padding-bottom:6px;
border-bottom:2px solid var(--line)}h3{font-size:16px;margin:22px 0 8px}h4{font-size:13px;margin:14px 0 6px;
text-transform:uppercase;letter-spacing:.04em;color:var(--grey)}
code,pre{font:12.5px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:6px 0;
white-space:pre-wrap;word-break:break-all;max-height:360px;overflow:auto}
header.verdict{border-left:8px solid var(--green);padding:10px 16px;background:var(--green-bg);
border-radius:6px}
header.verdict.failed{border-color:var(--red);background:var(--red-bg)}
.badge{display:inline-block;padding:2px 10px;border-radius:999px;font-size:14px;color:#fff;
background:var(--green);vertical-align:middle;margin-left:8px}
.failed .badge{background:var(--red)}
.meta{margin:4px 0 0;color:#344054}
.cards{display:flex;flex-wrap:wrap;gap:12px;margin:16px 0}
.card{flex:1 1 200px;border:1px solid var(--line);border-radius:8px;padding:10px 14px}
.card b{display:block;font-size:22px}.card span{color:var(--grey)}
.reasons{margin:8px 0 0;padding-left:20px;color:#344054}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;vertical-align:top;padding:5px 8px;border-bottom:1px solid var(--line)}
th{font-size:12px;color:var(--grey);font-weight:600;white-space:nowrap}
table.matrix td{padding:4px 8px;white-space:nowrap}
table.matrix td.cell{width:15%;text-align:center;font-weight:600;border:2px solid #fff;font-size:13px}
table.matrix tr.tag th{background:var(--soft);color:var(--ink);font-size:13px;padding-top:8px}
table.matrix td small,.op small{color:var(--grey);font-weight:400}
.cell.passed{background:var(--green-bg);color:var(--green)}
.cell.failed{background:var(--red-bg);color:var(--red)}
.cell.skipped{background:var(--yellow-bg);color:var(--yellow)}
.cell.accepted,.pill.accepted{background:#f0e8ff;color:#5b2a9e}
.cell.not-exercised{background:#fff;color:#98a2b3;font-weight:400}
.legend{display:flex;gap:14px;margin:8px 0;color:var(--grey);font-size:12px}
.legend i{display:inline-block;width:14px;height:14px;border-radius:3px;margin-right:5px;vertical-align:-2px;
border:1px solid #d0d5dd}
a{color:inherit}
article.failure{border:1px solid #f3b4ae;border-left:6px solid var(--red);border-radius:6px;padding:8px 14px;
margin:12px 0}
article.failure h3{margin:4px 0 8px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:3px 12px;margin:6px 0}
dt{color:var(--grey)}dd{margin:0}
.tagname{font-size:12px;color:var(--grey);border:1px solid var(--line);border-radius:4px;padding:0 5px;
margin-right:6px;font-weight:400}
details.op{border:1px solid var(--line);border-radius:6px;margin:6px 0}
details.op>summary{cursor:pointer;padding:6px 10px;display:flex;gap:10px;align-items:center;flex-wrap:wrap}
details.op[open]>summary{border-bottom:1px solid var(--line);background:var(--soft)}
details.op>div{padding:4px 12px 10px}
.pill{display:inline-block;border-radius:4px;padding:0 6px;font-size:12px;margin:1px 2px}
.pill.passed{background:var(--green-bg);color:var(--green)}.pill.failed,.pill.error{background:var(--red-bg);
color:var(--red)}.pill.skipped{background:var(--yellow-bg);color:var(--yellow)}
.pill.not-exercised,.pill.unseen{background:var(--soft);color:var(--grey)}.pill.seen{background:#e0eaff;color:#1d3a8a}
.pill.undocumented{background:var(--red-bg);color:var(--red)}
.cols{display:grid;grid-template-columns:3fr 2fr;gap:24px}
td.rule{color:#475467;font-size:12.5px}
.empty{color:var(--grey);font-style:italic}
footer{margin-top:40px;color:var(--grey);font-size:12px}
.bar{display:inline-block;width:48px;height:7px;background:var(--soft);border:1px solid var(--line);
border-radius:4px;vertical-align:1px;overflow:hidden}.bar span{display:block;height:100%;background:#6b8afd}
details.op>summary::before{content:"▸";color:var(--grey);width:10px}
details.op[open]>summary::before{content:"▾"}
details.op>summary::-webkit-details-marker{display:none}
.facts{margin-left:auto}
article.failure>pre{max-height:220px}
"""


def html(data: dict[str, Any]) -> str:
    verdict = data["verdict"]
    title = f"csapi conform: {verdict} ({data['target']})"
    body = "".join(
        [
            _h_summary(data),
            _h_matrix(data),
            _h_failures(data),
            _h_coverage(data),
            f"<footer>{_e(data['format'])} version {_e(data['version'])}: the same data as "
            "<code>--coverage-json</code></footer>",
        ]
    )
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body><main>{body}</main></body></html>\n"
    )


def _h_summary(data: dict[str, Any]) -> str:
    totals = data["totals"]
    checks, ops, statuses = totals["checks"], totals["operations"], totals["statuses"]
    verdict = data["verdict"]
    meta = " · ".join(
        [
            f"target <code>{_e(data['target'])}</code>",
            f"seed {_e(data['seed'])}",
            f"{data['duration_seconds']:.1f} s",
            f"started {_e(data['started_at'])}",
            *map(_e, _options(data)),
        ]
    )
    cards = [
        (checks["failed"] + checks["errors"], "checks failed", f"{checks['errors']} of them errors"),
        (checks["passed"], "checks passed", f"{checks['skipped']} skipped, {checks['left_out']} left out"),
        (f"{ops['exercised']}/{ops['documented']}", "operations exercised", "sent at least one request"),
        (f"{statuses['seen']}/{statuses['documented']}", "documented statuses seen", "over all operations"),
        (
            totals["requests"],
            "requests sent",
            f"{totals['requests_outside_the_document']} outside the document",
        ),
    ]
    card_html = "".join(
        f"<div class='card'><b>{_e(number)}</b>{_e(label)}<br><span>{_e(note)}</span></div>"
        for number, label, note in cards
    )
    reasons = data["skip_reasons"]
    reason_html = (
        "<h4>Skipped or left out, and why</h4><ul class='reasons'>"
        + "".join(f"<li>{n} × {_e(reason)}</li>" for reason, n in reasons.items())
        + "</ul>"
        if reasons
        else ""
    )
    failures = data["failures"]
    failed_html = (
        "<h4>Failed checks</h4><ol class='reasons'>"
        + "".join(
            f"<li><a href='#failure-{n}'><code>{_e(f['operation_id'])}</code></a> "
            f"<span class='tagname'>{_e(f['layer'])}</span>{_e(f['check'])}</li>"
            for n, f in enumerate(failures, start=1)
        )
        + "</ol>"
        if failures
        else ""
    )
    left = data["left_behind"]
    left_html = "<p><b>Could not remove:</b> " + _e("; ".join(left)) + "</p>" if left else ""
    return (
        f"<header class='verdict {_e(verdict)}'><h1>csapi conform <span class='badge'>{_e(verdict.upper())}"
        f"</span></h1><p class='meta'>{meta}</p></header>"
        f"<div class='cards'>{card_html}</div>{left_html}{failed_html}{_h_accepted(data)}{reason_html}"
    )


def _h_accepted(data: dict[str, Any]) -> str:
    """The failures --accept accepted, each with its reason, and the entries that accepted nothing."""
    accepted, notes = data.get("accepted", []), data.get("accept_notes", [])
    items = "".join(
        f"<li><a href='#{_anchor(a['operation_id'])}'><code>{_e(a['operation_id'])}</code></a> "
        f"<span class='tagname'>{_e(a['layer'])}</span>{_e(a['check'])}: "
        f"<span class='pill accepted'>accepted</span> {_e(a['reason'])}"
        f"{' (until ' + _e(a['expires']) + ')' if a['expires'] else ''}</li>"
        for a in accepted
    )
    items += "".join(
        f"<li><span class='pill {'failed' if n['fails'] else 'skipped'}'>--accept</span> "
        f"{_e(n['entry'])}: {_e(n['message'])}</li>"
        for n in notes
    )
    return f"<h4>Accepted failures (--accept)</h4><ul class='reasons'>{items}</ul>" if items else ""


def _h_cell(cell: dict[str, Any]) -> str:
    state = cell["state"]
    css = state.replace(" ", "-")
    text = _cell_text(cell) or ("not exercised" if state == "not exercised" else state)
    mark = _STATE_MARK[state]
    tip = cell["reason"] or f"{cell['requests']} requests"
    return f"<td class='cell {css}' title='{_e(tip)}'>{mark + ' ' if mark else ''}{_e(text)}</td>"


def _h_bar(seen: int, documented: int) -> str:
    """`seen/documented` with a small bar of the share."""
    share = round(100 * seen / documented) if documented else 0
    return (
        f"<span class='bar' title='{seen} of {documented} documented statuses seen'>"
        f"<span style='width:{share}%'></span></span> {seen}/{documented}"
    )


def _h_matrix(data: dict[str, Any]) -> str:
    rows = []
    for tag, operations in _by_tag(data["operations"]).items():
        rows.append(f"<tr class='tag'><th colspan='5'>{_e(tag)}</th></tr>")
        for op in operations:
            statuses = op["statuses"]
            seen = _seen(statuses)
            cells = "".join(_h_cell(op["layers"][layer]) for layer in LAYERS)
            extra = (
                f" <span class='pill undocumented'>+{_e(', '.join(statuses['undocumented']))}</span>"
                if statuses["undocumented"]
                else ""
            )
            rows.append(
                f"<tr><td><a href='#{_anchor(op['operation_id'])}'><code>{_e(op['operation_id'])}</code></a>"
                f" <small>{_e(op['method'])} {_e(op['path'])}</small></td>{cells}"
                f"<td>{_h_bar(seen, len(statuses['documented']))}{extra}</td></tr>"
            )
    legend = "".join(
        f"<span><i class='cell {css}'></i>{label}</span>"
        for css, label in (
            ("failed", "a check failed"),
            ("accepted", "failures --accept accepts"),
            ("passed", "checks passed"),
            ("skipped", "only skipped (hover: why)"),
            ("not-exercised", "no check ran"),
        )
    )
    head = "".join(f"<th>{layer}</th>" for layer in LAYERS)
    return (
        "<h2>Operations × layers</h2>"
        f"<div class='legend'>{legend}</div>"
        f"<table class='matrix'><thead><tr><th>operation</th>{head}<th>statuses seen</th></tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _h_failures(data: dict[str, Any]) -> str:
    failures = data["failures"]
    if not failures:
        return "<h2>Failures</h2><p class='empty'>No check failed.</p>"
    articles = []
    for number, f in enumerate(failures, start=1):
        fields = [("rule", f["rule"]), ("kind", f.get("kind") or f["status"])]
        dl = "".join(f"<dt>{name}</dt><dd>{_e(value)}</dd>" for name, value in fields if value)
        repro = (
            f"<h4>Reproduce</h4><pre>{_e(f['curl'])}</pre>"
            f"<details open><summary>response (trimmed)</summary><pre>{_e(f['response'])}</pre></details>"
            if f["curl"]
            else ""
        )
        articles.append(
            f"<article class='failure' id='failure-{number}'><h3>{number}. "
            f"<span class='tagname'>{_e(f['layer'])}</span>"
            f"<a href='#{_anchor(f['operation_id'])}'><code>{_e(f['operation_id'])}</code></a>: "
            f"{_e(f['check'])}</h3><dl>{dl}</dl><pre>{_e(f['message'])}</pre>{repro}</article>"
        )
    return f"<h2>Failures ({len(failures)})</h2>{''.join(articles)}"


def _layer_text(layer: str, cell: dict[str, Any]) -> str:
    """What a layer did for an operation, and why it did not when it did not."""
    text = f"{layer}: {_cell_text(cell) or cell['state']}"
    why = cell["reason"] if cell["state"] in ("skipped", "not exercised") else ""
    return f"{text} ({why[:MAX_REASON]}{'…' if len(why) > MAX_REASON else ''})" if why else text


def _h_pills(items: Iterable[tuple[str, str]]) -> str:
    return "".join(f"<span class='pill {css}'>{_e(text)}</span>" for css, text in items)


def _h_result(check: dict[str, Any]) -> str:
    """A check's result and its rule, or why it was skipped, or what failed: two cells of a row."""
    result = "accepted" if check.get("accepted") else _RESULT[check["status"]]
    why = check.get("reason") or check.get("message") or check["rule"]
    if check.get("accepted"):
        why = f"accepted: {check['accepted']} ({why})"
    return f"<td><span class='pill {result}'>{result}</span></td><td class='rule'>{_e(why)}</td>"


def _h_operation(op: dict[str, Any]) -> str:
    layers = op["layers"]
    failed = any(cell["state"] == "failed" for cell in layers.values())
    pills = _h_pills(
        (cell["state"].replace(" ", "-"), _layer_text(name, cell)) for name, cell in layers.items()
    )
    statuses = op["statuses"]
    status_pills = _h_pills(
        [
            ("seen", f"{code} ×{n}")
            for code, n in statuses["seen"].items()
            if code not in statuses["undocumented"]
        ]
        + [
            ("undocumented", f"{code} ×{statuses['seen'][code]} undocumented")
            for code in statuses["undocumented"]
        ]
        + [("unseen", f"{code} not seen") for code in statuses["not_seen"]]
    )
    params = "".join(
        f"<tr><td><code>{_e(p['name'])}</code>{' <small>required</small>' if p['required'] else ''}</td>"
        f"<td>{_e(p['in'])}</td><td>{_h_pills(('seen', f'{k} ×{n}') for k, n in p['kinds'].items())}"
        f"{'' if p['kinds'] else '<span class=empty>never sent</span>'}</td></tr>"
        for p in op["parameters"]
    )
    param_html = (
        f"<table><tr><th>parameter</th><th>in</th><th>sent as</th></tr>{params}</table>"
        if params
        else "<p class='empty'>No parameters.</p>"
    )
    checks = "".join(
        f"<tr><td>{_e(c['layer'])}</td><td>{_e(c['check'])}</td>{_h_result(c)}</tr>"
        for c in sorted(op["checks"], key=lambda c: (_ORDER[c["status"]], LAYERS.index(c["layer"])))
    )
    check_html = (
        "<table><tr><th>layer</th><th>check</th><th>result</th><th>rule, or why skipped</th></tr>"
        f"{checks}</table>"
        if checks
        else "<p class='empty'>No check names this operation.</p>"
    )
    requests = ", ".join(f"{layer} {n}" for layer, n in op["requests"].items()) or "none"
    seen = _seen(statuses)
    sent = sum(1 for p in op["parameters"] if set(p["kinds"]) - {"absent"})
    facts = f"statuses {seen}/{len(statuses['documented'])} · parameters sent {sent}/{len(op['parameters'])}"
    return (
        f"<details class='op' id='{_anchor(op['operation_id'])}'{' open' if failed else ''}><summary>"
        f"<code>{_e(op['operation_id'])}</code><small>{_e(op['method'])} {_e(op['path'])}</small>{pills}"
        f"<small class='facts'>{_e(facts)}</small></summary>"
        f"<div><p><small>{_e(op['summary'])} · requests: {_e(requests)}</small></p>"
        f"<div class='cols'><div><h4>Parameters</h4>{param_html}</div>"
        f"<div><h4>Statuses</h4>{status_pills or '<span class=empty>none documented</span>'}</div></div>"
        f"<h4>Checks</h4>{check_html}</div></details>"
    )


def _h_coverage(data: dict[str, Any]) -> str:
    parts = ["<h2>Coverage per operation</h2>"]
    kinds = ", ".join(f"<b>{_e(k)}</b>: {_e(v)}" for k, v in data["value_kinds"].items())
    parts.append(f"<p><small>Values a parameter was sent with: {kinds}.</small></p>")
    for tag, operations in _by_tag(data["operations"]).items():
        parts.append(f"<h3>{_e(tag)}</h3>")
        parts += [_h_operation(op) for op in operations]
    other = data["other_checks"]
    if other:
        rows = "".join(
            f"<tr><td>{_e(c['layer'])}</td><td><code>{_e(c['operation_id'])}</code></td><td>{_e(c['check'])}</td>"
            f"{_h_result(c)}</tr>"
            for c in other
        )
        parts.append(
            "<h3>Checks of the run as a whole</h3><table><tr><th>layer</th><th>about</th><th>check</th>"
            f"<th>result</th><th>rule, or why skipped</th></tr>{rows}</table>"
        )
    return "".join(parts)


# ---------------------------------------------------------------------- Markdown
def _md(text: Any) -> str:
    """Text in a Markdown table cell: one line, pipes escaped."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def markdown(data: dict[str, Any]) -> str:
    totals = data["totals"]
    lines = [
        f"# csapi conform: {data['verdict'].upper()}",
        "",
        f"Target `{data['target']}`, seed {data['seed']}, {data['duration_seconds']:.1f} s, "
        f"started {data['started_at']}; {', '.join(_options(data))}.",
        "",
        f"- checks: {_totals_line(data)}",
        f"- operations exercised: {totals['operations']['exercised']}/{totals['operations']['documented']}",
        f"- documented statuses seen: {totals['statuses']['seen']}/{totals['statuses']['documented']}",
        f"- requests: {totals['requests']} ({totals['requests_outside_the_document']} outside the document)",
    ]
    lines += [f"- skipped or left out: {n} × {reason}" for reason, n in data["skip_reasons"].items()]
    if data["left_behind"]:
        lines.append("- could not remove: " + "; ".join(data["left_behind"]))
    lines += ["", "## Operations × layers", "", "| operation | " + " | ".join(LAYERS) + " | statuses seen |"]
    lines.append("|---" * (len(LAYERS) + 2) + "|")
    for op in data["operations"]:
        cells = []
        for layer in LAYERS:
            cell = op["layers"][layer]
            mark = {"failed": "FAIL ", "accepted": "ACCEPTED ", "passed": "ok ", "skipped": "skip "}.get(
                cell["state"], ""
            )
            idle = cell["reason"] if cell["reason"] and not cell["reason"].startswith("no ") else "—"
            cells.append(_md(mark + (_cell_text(cell) or idle)))
        statuses = op["statuses"]
        seen = _seen(statuses)
        lines.append(
            f"| `{op['operation_id']}` | " + " | ".join(cells) + f" | {seen}/{len(statuses['documented'])} |"
        )
    lines += ["", f"## Failures ({len(data['failures'])})"]
    for number, f in enumerate(data["failures"], start=1):
        lines += ["", f"### {number}. [{f['layer']}] {f['operation_id']}: {f['check']}", ""]
        lines += [f"- rule: {f['rule']}"] if f["rule"] else []
        lines += [f"- kind: {f.get('kind') or f['status']}", f"- {f['message']}"]
        if f["curl"]:
            lines += ["", "```sh", f["curl"], "```", "", "```", f["response"], "```"]
    accepted = data.get("accepted", [])
    notes = data.get("accept_notes", [])
    if accepted or notes:
        lines += ["", f"## Accepted failures ({len(accepted)})", ""]
        for a in accepted:
            until = f" (until {a['expires']})" if a["expires"] else ""
            lines.append(
                f"- [{a['layer']}] {a['operation_id']}: {a['check']}: accepted: {a['reason']}{until}"
            )
        lines += [f"- --accept entry {n['entry']}: {n['message']}" for n in notes]
    lines += ["", "## Coverage per operation"]
    for tag, operations in _by_tag(data["operations"]).items():
        lines += ["", f"### {tag}"]
        for op in operations:
            statuses = op["statuses"]
            got = ", ".join(f"{code} ×{n}" for code, n in statuses["seen"].items()) or "none"
            lines += ["", f"#### `{op['operation_id']}` {op['method']} {op['path']}", ""]
            lines.append(f"- statuses seen: {got}; not seen: {', '.join(statuses['not_seen']) or 'none'}")
            for p in op["parameters"]:
                kinds = ", ".join(f"{k} ×{n}" for k, n in p["kinds"].items()) or "never sent"
                lines.append(f"- {p['in']} `{p['name']}`: {kinds}")
            for c in op["checks"]:
                why = c.get("reason") or c.get("message") or ""
                result = "accepted" if c.get("accepted") else _RESULT[c["status"]]
                why = f"{c['accepted']}: {why}" if c.get("accepted") else why
                lines.append(f"- {result}: [{c['layer']}] {c['check']}" + (f" ({why})" if why else ""))
    return "\n".join(lines) + "\n"
