"""Outcomes of checks, and the verdicts made of them: progress line, summary, JUnit.

Every check names its layer, the operation it is about (an operationId of the document),
what it checks, and the spec rule it stands for; a failure carries its kind (the failure
class's `kind`) and the exchange that broke it, shown as a curl command and a trimmed
response. The HTML and Markdown report is report.py's, the coverage coverage.py's.
"""

from __future__ import annotations

import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO
from xml.etree import ElementTree as ET

from .failures import CheckFailed, CheckSkipped
from .target import Exchange

PASS, FAIL, SKIP, ERROR = "pass", "fail", "skip", "error"


@dataclass
class Outcome:
    layer: str  # "contract" | "behaviour" | "access"
    operation: str  # operationId, e.g. "items.list_items"
    check: str  # what is checked, in a few words
    status: str  # PASS | FAIL | SKIP | ERROR
    rule: str = ""  # the spec rule, e.g. "spec 8: X-Total-Count is the total before paging"
    message: str = ""  # what failed; for a skip, why
    exchange: Exchange | None = None
    seconds: float = 0.0
    kind: str = ""  # of a failure: the raised class's `kind` (failures.py), e.g. "failure"


@dataclass
class Results:
    outcomes: list[Outcome] = field(default_factory=list)
    progress: Callable[[Results], None] | None = None
    # checks the settings left out (--read-only, not --strict, --include/--exclude), as skips with
    # the reason: coverage shows them; they are not outcomes, so counts and exit status stay as they were
    left_out: list[Outcome] = field(default_factory=list)
    # views derived from writes that lagged (search, activity, counts, tag lists): view -> the
    # longest wait, in seconds, before it showed what the run wrote (http.settled; --settle)
    lags: dict[str, float] = field(default_factory=dict)

    def record(self, outcome: Outcome) -> None:
        if outcome.status == FAIL and not outcome.kind:  # made by a layer that did not say: the base kind
            outcome.kind = CheckFailed.kind
        self.outcomes.append(outcome)
        if self.progress is not None:
            self.progress(self)

    def leave_out(self, layer: str, operation: str, check: str, rule: str, reason: str) -> None:
        self.left_out.append(Outcome(layer, operation, check, SKIP, rule, reason))

    @contextmanager
    def checking(self, layer: str, operation: str, check: str, rule: str = "") -> Iterator[None]:
        """Run one check: it passes unless it raises CheckFailed (or CheckSkipped, or breaks)."""
        start = time.monotonic()
        outcome = Outcome(layer, operation, check, PASS, rule)
        try:
            yield
        except CheckFailed as failure:
            outcome.status, outcome.message, outcome.exchange = FAIL, failure.message, failure.exchange
            outcome.kind = failure.kind
        except CheckSkipped as skipped:
            outcome.status, outcome.message = SKIP, str(skipped)
        except Exception as exc:  # the target answered something the check could not even read
            outcome.status, outcome.message = ERROR, f"{type(exc).__name__}: {exc}"
        outcome.seconds = time.monotonic() - start
        self.record(outcome)

    def lagged(self, view: str, seconds: float) -> None:
        """A derived view showed a write only after `seconds` (kept: the longest per view)."""
        self.lags[view] = max(seconds, self.lags.get(view, 0.0))

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
        if outcome.kind:
            lines.append(f"   kind: {outcome.kind}")
        lines.append(f"   {outcome.message}")
        if outcome.exchange is not None:
            lines.append(f"   request: {outcome.exchange.curl()}")
            lines += ["   " + line for line in outcome.exchange.shown().splitlines()]
    skipped = sorted({o.message for o in results.outcomes if o.status == SKIP})
    if skipped:
        lines += ["", "skipped: " + "; ".join(skipped)]
    if results.left_out:
        reasons = Counter(o.message for o in results.left_out).most_common()
        lines += ["", "left out: " + "; ".join(f"{n} checks ({reason})" for reason, n in reasons)]
    if results.lags:
        waits = ", ".join(f"{view} {seconds:.1f} s" for view, seconds in sorted(results.lags.items()))
        lines += ["", f"views that lagged behind writes (longest wait within --settle): {waits}"]
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
                suite, "testcase", classname=_xml(o.operation), name=_xml(o.check), time=f"{o.seconds:.3f}"
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
                ET.SubElement(case, tag, message=_xml(o.message)).text = _xml(body)
            elif o.status == SKIP:
                ET.SubElement(case, "skipped", message=_xml(o.message))
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


# What XML 1.0 cannot hold at all, not even escaped (ElementTree writes it as is: the file would
# not parse). A server's answer, quoted in a failure, may carry any of it.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml(text: str) -> str:
    """`text` with every character XML cannot hold written as its Python escape."""
    return _NOT_XML.sub(lambda match: match.group().encode("unicode_escape").decode("ascii"), text)
