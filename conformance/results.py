"""Outcomes of checks, and the verdicts made of them: progress, summary, JUnit.

Every check names its layer, the operation it is about (an operationId of the document),
what it checks, and the spec rule it stands for; a failure carries its kind (the failure
class's `kind`) and the exchange that broke it, shown as a curl command and a trimmed
response. A failure an --accept entry matches (accept.py) carries the entry's reason: it is
shown, marked accepted, and fails nothing. The HTML and Markdown report is report.py's, the
coverage coverage.py's.

Progress goes to stderr while the run goes (`Progress`): on a terminal a bar rewritten in place;
piped (CI), a line when a layer starts and ends and at least one every `every` seconds.
"""

from __future__ import annotations

import re
import shutil
import sys
import threading
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
    id: str = ""  # the registry id of the check that recorded it (the contract layer's: "contract")
    accepted: str = ""  # a failure an --accept entry matched: the entry's reason (it fails nothing)
    expires: str = ""  # ... and the entry's expiry date, YYYY-MM-DD, if it has one

    @property
    def failed(self) -> bool:
        """A failure or an error that no --accept entry accepted: it fails the run."""
        return self.status in (FAIL, ERROR) and not self.accepted


@dataclass(frozen=True)
class AcceptNote:
    """An --accept entry that accepted nothing: expired (it fails the run) or unused (it does not)."""

    entry: str
    message: str
    fails: bool


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
    running: str = ""  # the registry id of the check the runner runs now: its outcomes carry it
    accept_notes: list[AcceptNote] = field(default_factory=list)  # --accept entries that matched nothing

    def record(self, outcome: Outcome) -> None:
        if outcome.status == FAIL and not outcome.kind:  # made by a layer that did not say: the base kind
            outcome.kind = CheckFailed.kind
        outcome.id = outcome.id or self.running
        self.outcomes.append(outcome)
        if self.progress is not None:
            self.progress(self)

    def leave_out(self, layer: str, operation: str, check: str, rule: str, reason: str) -> None:
        self.left_out.append(Outcome(layer, operation, check, SKIP, rule, reason))

    @contextmanager
    def checking(
        self, layer: str, operation: str, check: str, rule: str = "", id: str = ""
    ) -> Iterator[None]:
        """Run one check: it passes unless it raises CheckFailed (or CheckSkipped, or breaks)."""
        start = time.monotonic()
        outcome = Outcome(layer, operation, check, PASS, rule, id=id)
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
        """Outcomes of that status; failures and errors an --accept entry accepted are not counted."""
        return sum(o.status == status and not o.accepted for o in self.outcomes)

    @property
    def accepted(self) -> list[Outcome]:
        """The failures and errors --accept entries accepted."""
        return [o for o in self.outcomes if o.accepted]

    @property
    def ok(self) -> bool:
        """No failure or error that was not accepted, and no expired --accept entry."""
        return not any(o.failed for o in self.outcomes) and not any(n.fails for n in self.accept_notes)

    def by_operation(self) -> dict[str, list[Outcome]]:
        grouped: dict[str, list[Outcome]] = {}
        for outcome in self.outcomes:
            grouped.setdefault(outcome.operation, []).append(outcome)
        return dict(sorted(grouped.items()))


# ---------------------------------------------------------------------- live progress
PROGRESS_EVERY = 10.0  # seconds: piped, a line at least this often while the run goes
BAR_WIDTH = 24


def tally(results: Results) -> str:
    """`12 checks: 10 passed, 1 failed, 0 errors, 1 skipped` (and how many failures were accepted)."""
    outcomes = list(results.outcomes)  # a copy: the heartbeat reads while the run records
    counts = Counter(o.status for o in outcomes if not o.accepted)
    accepted = sum(bool(o.accepted) for o in outcomes)
    checks = f"{len(outcomes)} check{'' if len(outcomes) == 1 else 's'}"
    text = f"{checks}: {counts[PASS]} passed, {counts[FAIL]} failed, {counts[ERROR]} errors"
    text += f", {counts[SKIP]} skipped"
    return text + (f", {accepted} accepted" if accepted else "")


class Progress:
    """Where the run is, on `stream` (stderr) while it goes.

    On a terminal, one line rewritten in place: a bar of the checks planned, the counts, the
    current layer and operation and the time taken. Otherwise (piped, as in CI) whole lines: one
    when a layer starts, one when it ends, and while it runs one at least every `every` seconds
    with the counts so far and the current layer and operation (`tick`, which a heartbeat thread
    calls while the run goes: `heartbeat()`). `clock` is injectable, for tests.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        tty: bool | None = None,
        every: float = PROGRESS_EVERY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.tty = _isatty(self.stream) if tty is None else tty
        self.every, self.clock = every, clock
        self.width = max(40, shutil.get_terminal_size((120, 24)).columns - 1)  # no wrap: \r redraws one line
        self.started = self.last_line = clock()
        self.results: Results | None = None
        self.layer = self.operation = ""
        self.planned = 0  # the work the run plans (the bar's 100%; `plan`), 0 when unknown
        self.done_units = 0  # ... and the work done
        self._weight = 0  # the share of the check that runs now
        self._check_outcomes = 0  # outcomes recorded before it started
        self._layer_started = 0.0
        self._layer_outcomes = 0
        self._lock = threading.Lock()

    # -- told by the runner
    def plan(self, results: Results, planned: int) -> None:
        """The run's results, and how much work it plans (the bar's 100%: a check is 1, the contract
        layer one per operation it covers)."""
        self.results, self.planned = results, planned

    def begin_check(self, weight: int = 1) -> None:
        """A check starts; `weight`: its share of the plan (the contract layer: one per operation)."""
        self._weight = weight
        self._check_outcomes = len(self.results.outcomes) if self.results else 0

    def end_check(self) -> None:
        self.done_units += self._weight
        self._weight = 0

    def at(self, layer: str, operation: str) -> None:
        """The check (or request) the run is at now."""
        if operation not in ("", "*"):
            self.operation = operation
        self.layer = layer or self.layer

    def start_layer(self, layer: str) -> None:
        self.layer, self.operation = layer, ""
        self._layer_started = self.clock()
        self._layer_outcomes = len(self.results.outcomes) if self.results else 0
        if not self.tty:
            self._line(f"{layer}: started")

    def finish_layer(self, layer: str) -> None:
        outcomes = list(self.results.outcomes[self._layer_outcomes :]) if self.results else []
        mine = Results(outcomes=outcomes)
        seconds = self.clock() - self._layer_started
        if self.tty:
            self._draw()
        else:
            self._line(f"{layer}: done in {_duration(seconds)}: {tally(mine)}")

    def __call__(self, results: Results) -> None:
        """An outcome was recorded (Results.progress)."""
        self.results = results
        last = results.outcomes[-1] if results.outcomes else None
        if last is not None:
            self.at(last.layer, last.operation)
        if self.tty:
            self._draw()
        else:
            self.tick()

    def tick(self) -> None:
        """Piped: a line with the counts so far when `every` seconds passed since the last line; on a
        terminal, the bar again (its clock moves)."""
        if self.tty:
            self._draw()
        elif self.clock() - self.last_line >= self.every:
            counts = tally(self.results) if self.results else "0 checks"
            where = " ".join(filter(None, (self.layer, self.operation))) or "setting up"
            self._line(f"{counts} so far; now {where}")

    def done(self) -> None:
        """The run is over: the bar leaves the line to what comes next."""
        if self.tty:
            with self._lock:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()

    @contextmanager
    def heartbeat(self, poll: float = 1.0) -> Iterator[None]:
        """While inside, a daemon thread calls `tick` every `poll` seconds (a check may take long
        without recording anything: schemathesis over an operation, a view polled for --settle)."""
        stop = threading.Event()

        def beat() -> None:
            while not stop.wait(poll):
                try:
                    self.tick()
                except Exception:  # noqa: S112  # progress must never break the run
                    continue

        thread = threading.Thread(target=beat, name="csapi-conform-progress", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join(timeout=5)
            self.done()

    # -- output
    def _line(self, text: str) -> None:
        now = self.clock()
        with self._lock:
            self.stream.write(f"[{_duration(now - self.started):>6}] {text}\n")
            self.stream.flush()
            self.last_line = now

    def share(self) -> float:
        """How much of the planned work is done, 0 to 1 (a check of many operations counts its
        operations recorded so far)."""
        if not self.planned:
            return 0.0
        done = self.done_units
        if self._weight > 1 and self.results is not None:
            recorded = {o.operation for o in self.results.outcomes[self._check_outcomes :]}
            done += min(len(recorded), self._weight - 1)
        return min(done / self.planned, 1.0)

    def _draw(self) -> None:
        filled = round(self.share() * BAR_WIDTH)
        bar = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {self.share():4.0%} " if self.planned else ""
        counts = tally(self.results) if self.results else "0 checks"
        where = " ".join(filter(None, (self.layer, self.operation)))
        text = f"{bar}{counts} | {where} {_duration(self.clock() - self.started)}"
        with self._lock:
            self.stream.write("\r" + text[: self.width].ljust(self.width))
            self.stream.flush()


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # closed, or no file behind it
        return False


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60}m{seconds % 60:02d}s" if seconds >= 60 else f"{seconds}s"


# ---------------------------------------------------------------------- verdicts
def summary(results: Results) -> str:
    """The readable verdict: per operation its checks, then every failure in full, then the failures
    --accept accepted (with the reason) and the entries that accepted nothing."""
    lines = []
    for operation, outcomes in results.by_operation().items():
        marks = " ".join(_mark(o) for o in outcomes)
        failed = sum(o.failed for o in outcomes)
        lines.append(f"{'FAIL' if failed else 'ok  '} {operation:<42} {marks}")
    failures = [o for o in results.outcomes if o.failed]
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
        if outcome.operation != outcome.layer:  # not the layer as a whole: an entry can name it
            entry = f"operation: {outcome.operation}, kind: {accept_kind(outcome)}, reason: ..."
            lines.append(f"   to accept it (--accept FILE): - {{{entry}}}")
    accepted = results.accepted
    if accepted:
        lines += ["", f"accepted failures (--accept; they fail nothing): {len(accepted)}"]
        for outcome in accepted:
            until = f", until {outcome.expires}" if outcome.expires else ""
            lines.append(f"  ACCEPTED [{outcome.layer}] {outcome.operation}: {outcome.check}")
            lines.append(f"     accepted: {outcome.accepted}{until}")
            lines.append(f"     {_first_line(outcome.message)}")
    for note in results.accept_notes:
        lines += [
            "",
            f"--accept entry {note.entry}: {note.message}" + (" (fails the run)" if note.fails else ""),
        ]
    skipped = sorted({o.message for o in results.outcomes if o.status == SKIP})
    if skipped:
        lines += ["", "skipped: " + "; ".join(skipped)]
    if results.left_out:
        reasons = Counter(o.message for o in results.left_out).most_common()
        lines += ["", "left out: " + "; ".join(f"{n} checks ({reason})" for reason, n in reasons)]
    if results.lags:
        waits = ", ".join(f"{view} {seconds:.1f} s" for view, seconds in sorted(results.lags.items()))
        lines += ["", f"views that lagged behind writes (longest wait within --settle): {waits}"]
    lines += ["", tally(results)]
    return "\n".join(lines)


_MARK = {PASS: ".", FAIL: "F", ERROR: "E", SKIP: "s"}


def accept_kind(outcome: Outcome) -> str:
    """What an --accept entry gives as `kind` for the outcome's check: its registry id, or the name it
    shows when the id is a whole layer's (the contract layer's schemathesis checks)."""
    return outcome.check if outcome.id in ("", "contract") else outcome.id


def _mark(outcome: Outcome) -> str:
    return "a" if outcome.accepted else _MARK[outcome.status]


def _first_line(text: str, width: int = 200) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= width else line[:width] + "..."


def write_junit(results: Results, path: Path) -> None:
    """One testsuite per layer, one testcase per check, named by operation and check; a failure an
    --accept entry accepted is a skipped testcase with the entry's reason (CI stays green)."""
    root = ET.Element("testsuites", name="csapi conform")
    for layer in sorted({o.layer for o in results.outcomes}):
        outcomes = [o for o in results.outcomes if o.layer == layer]
        suite = ET.SubElement(
            root,
            "testsuite",
            name=layer,
            tests=str(len(outcomes)),
            failures=str(sum(o.status == FAIL and o.failed for o in outcomes)),
            errors=str(sum(o.status == ERROR and o.failed for o in outcomes)),
            skipped=str(sum(o.status == SKIP or bool(o.accepted) for o in outcomes)),
        )
        for o in outcomes:
            case = ET.SubElement(
                suite, "testcase", classname=_xml(o.operation), name=_xml(o.check), time=f"{o.seconds:.3f}"
            )
            if o.accepted:
                until = f" (until {o.expires})" if o.expires else ""
                reason = f"accepted failure: {o.accepted}{until}"
                ET.SubElement(case, "skipped", message=_xml(reason)).text = _xml(o.message)
            elif o.status in (FAIL, ERROR):
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
