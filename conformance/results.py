"""Outcomes of checks, and the verdicts made of them: progress line, summary, JUnit, report.

Every check names its layer, the operation it is about (an operationId of the document),
what it checks, and the spec rule it stands for; a failure carries the exchange that
broke it, shown as a curl command and a trimmed response.
"""

from __future__ import annotations

import html
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO
from xml.etree import ElementTree as ET

from .failures import CheckFailed, CheckSkipped, expect
from .target import Exchange

__all__ = ["CheckFailed", "CheckSkipped", "expect"]  # re-exported for the layer modules

PASS, FAIL, SKIP, ERROR = "pass", "fail", "skip", "error"


@dataclass
class Outcome:
    layer: str  # "contract" | "behaviour" | "access"
    operation: str  # operationId, e.g. "items.list_items"
    check: str  # what is checked, in a few words
    status: str  # PASS | FAIL | SKIP | ERROR
    rule: str = ""  # the spec rule, e.g. "spec 8: X-Total-Count is the total before paging"
    message: str = ""
    exchange: Exchange | None = None
    seconds: float = 0.0


@dataclass
class Results:
    outcomes: list[Outcome] = field(default_factory=list)
    progress: Callable[[Results], None] | None = None

    def record(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)
        if self.progress is not None:
            self.progress(self)

    @contextmanager
    def checking(self, layer: str, operation: str, check: str, rule: str = "") -> Iterator[None]:
        """Run one check: it passes unless it raises CheckFailed (or CheckSkipped, or breaks)."""
        start = time.monotonic()
        outcome = Outcome(layer, operation, check, PASS, rule)
        try:
            yield
        except CheckFailed as failure:
            outcome.status, outcome.message, outcome.exchange = FAIL, failure.message, failure.exchange
        except CheckSkipped as skipped:
            outcome.status, outcome.message = SKIP, str(skipped)
        except Exception as exc:  # the target answered something the check could not even read
            outcome.status, outcome.message = ERROR, f"{type(exc).__name__}: {exc}"
        outcome.seconds = time.monotonic() - start
        self.record(outcome)

    def count(self, status: str) -> int:
        return sum(o.status == status for o in self.outcomes)

    @property
    def ok(self) -> bool:
        return not any(o.status in (FAIL, ERROR) for o in self.outcomes)

    def by_operation(self) -> dict[str, list[Outcome]]:
        grouped: dict[str, list[Outcome]] = {}
        for outcome in self.outcomes:
            grouped.setdefault(outcome.operation, []).append(outcome)
        return dict(sorted(grouped.items()))


# ---------------------------------------------------------------------- live progress
def progress_line(stream: TextIO = sys.stderr) -> Callable[[Results], None]:
    """A single line rewritten in place on a terminal; nothing when the stream is not a tty."""

    def show(results: Results) -> None:
        if not stream.isatty():
            return
        last = results.outcomes[-1]
        text = (
            f"\r{len(results.outcomes)} checks: {results.count(PASS)} passed, {results.count(FAIL)} failed, "
            f"{results.count(SKIP)} skipped | {last.layer} {last.operation}"
        )
        stream.write(text[:120].ljust(120))
        stream.flush()

    return show


# ---------------------------------------------------------------------- verdicts
def summary(results: Results) -> str:
    """The readable verdict: per operation its checks, then every failure in full."""
    lines = []
    for operation, outcomes in results.by_operation().items():
        marks = " ".join(_MARK[o.status] for o in outcomes)
        failed = sum(o.status in (FAIL, ERROR) for o in outcomes)
        lines.append(f"{'FAIL' if failed else 'ok  '} {operation:<42} {marks}")
    failures = [o for o in results.outcomes if o.status in (FAIL, ERROR)]
    for number, outcome in enumerate(failures, start=1):
        lines += ["", f"{number}. [{outcome.layer}] {outcome.operation}: {outcome.check}"]
        if outcome.rule:
            lines.append(f"   rule: {outcome.rule}")
        lines.append(f"   {outcome.message}")
        if outcome.exchange is not None:
            lines.append(f"   request: {outcome.exchange.curl()}")
            lines += ["   " + line for line in outcome.exchange.shown().splitlines()]
    skipped = sorted({o.message for o in results.outcomes if o.status == SKIP})
    if skipped:
        lines += ["", "skipped: " + "; ".join(skipped)]
    lines += [
        "",
        f"{len(results.outcomes)} checks: {results.count(PASS)} passed, {results.count(FAIL)} failed, "
        f"{results.count(ERROR)} errors, {results.count(SKIP)} skipped",
    ]
    return "\n".join(lines)


_MARK = {PASS: ".", FAIL: "F", ERROR: "E", SKIP: "s"}


def write_junit(results: Results, path: Path) -> None:
    """One testsuite per layer, one testcase per check, named by operation and check."""
    root = ET.Element("testsuites", name="csapi conform")
    for layer in sorted({o.layer for o in results.outcomes}):
        outcomes = [o for o in results.outcomes if o.layer == layer]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=layer,
            tests=str(len(outcomes)),
            failures=str(sum(o.status == FAIL for o in outcomes)),
            errors=str(sum(o.status == ERROR for o in outcomes)),
            skipped=str(sum(o.status == SKIP for o in outcomes)),
        )
        for o in outcomes:
            case = ET.SubElement(
                suite, "testcase", classname=o.operation, name=o.check, time=f"{o.seconds:.3f}"
            )
            if o.status in (FAIL, ERROR):
                tag = "failure" if o.status == FAIL else "error"
                body = "\n".join(
                    filter(
                        None,
                        [
                            o.rule,
                            o.exchange.curl() if o.exchange else "",
                            o.exchange.shown() if o.exchange else "",
                        ],
                    )
                )
                ET.SubElement(case, tag, message=o.message).text = body
            elif o.status == SKIP:
                ET.SubElement(case, "skipped", message=o.message)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def write_report(results: Results, path: Path) -> None:
    """A self-contained report: HTML when the file name ends in .html, else Markdown."""
    if path.suffix.lower() in (".html", ".htm"):
        path.write_text(_html(results), encoding="utf-8")
    else:
        path.write_text(_markdown(results), encoding="utf-8")


def _markdown(results: Results) -> str:
    lines = [
        "# csapi conform report",
        "",
        _totals(results),
        "",
        "| operation | layer | check | result |",
        "|---|---|---|---|",
    ]
    for o in results.outcomes:
        lines.append(f"| `{o.operation}` | {o.layer} | {o.check} | {o.status} |")
    for o in (o for o in results.outcomes if o.status in (FAIL, ERROR)):
        lines += [
            "",
            f"## {o.operation}: {o.check}",
            "",
            f"- rule: {o.rule}" if o.rule else "",
            f"- {o.message}",
        ]
        if o.exchange:
            lines += ["", "```sh", o.exchange.curl(), "```", "", "```", o.exchange.shown(), "```"]
    return "\n".join(lines) + "\n"


def _html(results: Results) -> str:
    rows = "".join(
        f"<tr class='{o.status}'><td><code>{html.escape(o.operation)}</code></td><td>{o.layer}</td>"
        f"<td>{html.escape(o.check)}</td><td>{o.status}</td></tr>"
        for o in results.outcomes
    )
    failures = "".join(
        f"<section><h2>{html.escape(o.operation)}: {html.escape(o.check)}</h2>"
        f"<p>{html.escape(o.rule)}</p><p>{html.escape(o.message)}</p>"
        + (
            f"<pre>{html.escape(o.exchange.curl())}</pre><pre>{html.escape(o.exchange.shown())}</pre>"
            if o.exchange
            else ""
        )
        + "</section>"
        for o in results.outcomes
        if o.status in (FAIL, ERROR)
    )
    style = (
        "body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;"
        "padding:2px 6px}.fail,.error{background:#fdd}.skip{color:#888}pre{background:#f6f6f6;padding:6px;"
        "white-space:pre-wrap}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>csapi conform</title><style>{style}</style>"
        f"</head><body><h1>csapi conform report</h1><p>{html.escape(_totals(results))}</p>"
        f"<table><tr><th>operation</th><th>layer</th><th>check</th><th>result</th></tr>{rows}</table>"
        f"{failures}</body></html>\n"
    )


def _totals(results: Results) -> str:
    return (
        f"{len(results.outcomes)} checks: {results.count(PASS)} passed, {results.count(FAIL)} failed, "
        f"{results.count(ERROR)} errors, {results.count(SKIP)} skipped"
    )
