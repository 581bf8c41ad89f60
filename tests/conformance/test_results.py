"""Verdicts of csapi conform: outcomes, the summary and JUnit XML (the report: test_report.py), accepted
failures, and the progress a run shows (with a clock the test moves: no test waits)."""

import io
from pathlib import Path
from xml.etree import ElementTree as ET

from csapi.conformance.failures import CheckFailed, CheckSkipped, expect
from csapi.conformance.results import (
    FAIL,
    PASS,
    SKIP,
    AcceptNote,
    Outcome,
    Progress,
    Results,
    summary,
    write_junit,
)
from csapi.conformance.target import Exchange

EXCHANGE = Exchange(
    method="GET",
    url="http://h/v1/items?per_page=2",
    headers={"X-API-Key": "k"},
    body=None,
    status=200,
    response_headers={"x-total-count": "7"},
    response_text='[{"id": 1}]' + " " * 1000,
)


def _results() -> Results:
    results = Results()
    with results.checking(
        "behaviour", "items.list_items", "paging partitions the list", "spec 8: X-Total-Count"
    ):
        expect(False, "page 2 repeats item 1", EXCHANGE)
    with results.checking("access", "collections.get_collection", "stranger cannot read"):
        pass
    with results.checking("access", "teams.update_team", "members are refused"):
        raise CheckSkipped("needs --team-id")
    return results


def test_checking_records_pass_fail_and_skip():
    results = _results()
    assert [o.status for o in results.outcomes] == [FAIL, PASS, SKIP]
    failed = results.outcomes[0]
    assert failed.message == "page 2 repeats item 1" and failed.exchange is EXCHANGE
    assert not results.ok


def test_an_unexpected_exception_in_a_check_is_an_error_not_a_crash():
    results = Results()
    with results.checking("behaviour", "items.get_item", "reads back"):
        raise KeyError("id")
    assert results.outcomes[0].status == "error" and "KeyError" in results.outcomes[0].message
    assert not results.ok


def test_the_summary_groups_by_operation_and_shows_each_failure_in_full():
    text = summary(_results())
    assert "FAIL items.list_items" in text and "ok   collections.get_collection" in text
    assert "rule: spec 8: X-Total-Count" in text
    assert "curl -sS -X GET 'http://h/v1/items?per_page=2' -H 'X-API-Key: k'" in text
    assert "... (1011 characters)" in text  # long bodies are trimmed
    assert "skipped: needs --team-id" in text
    assert "   to accept it (--accept FILE): - {operation: items.list_items, kind: paging" in text
    assert text.endswith("3 checks: 1 passed, 1 failed, 0 errors, 1 skipped")


def test_junit_has_a_suite_per_layer_and_the_failure_with_its_curl(tmp_path: Path):
    path = tmp_path / "out.xml"
    write_junit(_results(), path)
    root = ET.parse(path).getroot()
    suites = {s.get("name"): s for s in root}
    assert set(suites) == {"access", "behaviour"}
    assert suites["behaviour"].get("failures") == "1" and suites["access"].get("skipped") == "1"
    failure = suites["behaviour"].find("testcase/failure")
    assert failure is not None and failure.get("message") == "page 2 repeats item 1"
    assert "curl" in (failure.text or "")


def test_a_failure_keeps_the_kind_of_what_was_raised():
    class Stale(CheckFailed):
        kind = "stale read"

    results = Results()
    with results.checking("behaviour", "items.get_item", "reads back"):
        raise Stale("the old name came back", EXCHANGE)
    with results.checking("behaviour", "items.get_item", "reads back again"):
        expect(False, "wrong")
    assert [o.kind for o in results.outcomes] == ["stale read", CheckFailed.kind]
    assert "kind: stale read" in summary(results)


def test_checks_left_out_by_the_settings_change_no_count():
    results = _results()
    results.leave_out("behaviour", "items.update_item", "an update persists", "spec 4.2", "--read-only")
    results.leave_out("access", "teams.update_team", "members are refused", "", "--read-only")
    assert len(results.outcomes) == 3 and not results.ok  # the one failure, as before
    text = summary(results)
    assert "left out: 2 checks (--read-only)" in text
    assert text.endswith("3 checks: 1 passed, 1 failed, 0 errors, 1 skipped")


def test_check_failed_carries_the_exchange():
    error = CheckFailed("wrong", EXCHANGE)
    assert error.exchange is EXCHANGE and error.message == "wrong"


def test_junit_still_parses_when_the_server_answered_control_characters(tmp_path: Path):
    """A fuzzed server may answer bytes XML cannot hold; CI must still read the file."""
    hostile = Exchange("GET", "http://h/v1/ping", {}, None, 500, {}, 'oops \x00\x1b[31m "\ud800"')
    results = Results()
    with results.checking("contract", "auth.ping", "no server error\x07"):
        expect(False, "answered 500: \x00\x0b", hostile)
    path = tmp_path / "out.xml"
    write_junit(results, path)
    failure = ET.parse(path).getroot().find("testsuite/testcase/failure")
    assert failure is not None and failure.get("message") == "answered 500: \\x00\\x0b"
    assert "\\x1b[31m" in (failure.text or "") and "\\ud800" in (failure.text or "")


# ---------------------------------------------------------------------- progress
class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _piped(every: float = 10.0) -> tuple[Progress, Clock, io.StringIO, Results]:
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, every=every, clock=clock)
    results = Results(progress=progress)
    progress.plan(results, planned=10)
    return progress, clock, stream, results


def test_piped_progress_is_whole_lines_per_layer_and_at_least_every_ten_seconds():
    progress, clock, stream, results = _piped()
    assert not progress.tty  # a StringIO is no terminal: as in CI
    progress.start_layer("contract")
    progress.begin_check(weight=4)
    for second in range(1, 26):  # a check recording now and then, a request to another operation
        clock.now += 1
        progress.at("contract", f"items.op{second}")
        if second % 5 == 0:
            with results.checking("contract", f"items.op{second}", "not_a_server_error"):
                pass
        progress.tick()  # the heartbeat thread's call
    progress.end_check()
    progress.finish_layer("contract")
    lines = stream.getvalue().splitlines()
    assert lines == [
        "[    0s] contract: started",
        "[   10s] 2 checks: 2 passed, 0 failed, 0 errors, 0 skipped so far; now contract items.op10",
        "[   20s] 4 checks: 4 passed, 0 failed, 0 errors, 0 skipped so far; now contract items.op20",
        "[   25s] contract: done in 25s: 5 checks: 5 passed, 0 failed, 0 errors, 0 skipped",
    ]


def test_piped_progress_lines_while_nothing_is_recorded():
    """A long check records nothing for minutes (schemathesis, a view polled for --settle): the
    heartbeat still says where the run is, every ten seconds."""
    progress, clock, stream, results = _piped()
    progress.start_layer("behaviour")
    progress.at("behaviour", "search.search")
    for _ in range(35):
        clock.now += 1
        progress.tick()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4  # started, then at 10, 20 and 30 s
    assert (
        lines[-1]
        == "[   30s] 0 checks: 0 passed, 0 failed, 0 errors, 0 skipped so far; now behaviour search.search"
    )


def test_piped_progress_with_a_short_interval():
    progress, clock, stream, _ = _piped(every=0.5)
    progress.start_layer("access")
    clock.now += 0.5
    progress.tick()
    clock.now += 0.2
    progress.tick()  # not yet
    assert len(stream.getvalue().splitlines()) == 2


def test_terminal_progress_is_one_line_rewritten_with_a_bar():
    clock, stream = Clock(), io.StringIO()
    progress = Progress(stream, tty=True, clock=clock)
    results = Results(progress=progress)
    progress.plan(results, planned=4)
    progress.start_layer("contract")
    progress.begin_check(weight=2)
    with results.checking("contract", "items.list_items", "not_a_server_error"):
        pass
    progress.end_check()
    progress.begin_check()
    clock.now += 75
    with results.checking("behaviour", "items.get_item", "reads back"):
        expect(False, "no")
    progress.end_check()
    progress.done()
    text = stream.getvalue()
    assert "\n" not in text and text.count("\r") >= 3
    frames = [frame.rstrip() for frame in text.split("\r") if frame.strip()]
    assert frames[0].startswith("[") and "0 failed" in frames[0] and "contract items.list_items" in frames[0]
    assert frames[-1] == (
        "[############............]  50% 2 checks: 1 passed, 1 failed, 0 errors, 0 skipped | "
        "behaviour items.get_item 1m15s"
    )  # drawn as the check recorded: two of four units done then
    assert progress.share() == 0.75


def test_progress_share_counts_a_many_operation_check_as_it_goes():
    progress, _, _, results = _piped()
    progress.begin_check(weight=5)  # the contract layer over five operations
    for operation in ("a", "a", "b"):
        results.record(Outcome("contract", operation, "x", PASS))
    assert progress.share() == 0.2  # two of ten units
    progress.end_check()
    assert progress.share() == 0.5


# ---------------------------------------------------------------------- accepted failures
def _accepted() -> Results:
    results = _results()
    results.outcomes[0].accepted, results.outcomes[0].expires = "paging fixed in PROJ-9", "2099-01-31"
    return results


def test_an_accepted_failure_is_shown_with_its_reason_and_fails_nothing():
    results = _accepted()
    assert results.ok and results.count(FAIL) == 0
    text = summary(results)
    assert "\nok   items.list_items                           a\n" in text
    assert "accepted failures (--accept; they fail nothing): 1" in text
    assert "ACCEPTED [behaviour] items.list_items: paging partitions the list" in text
    assert "accepted: paging fixed in PROJ-9, until 2099-01-31" in text
    assert text.endswith("3 checks: 1 passed, 0 failed, 0 errors, 1 skipped, 1 accepted")


def test_an_expired_or_unused_accept_entry_is_in_the_summary():
    results = _accepted()
    results.accept_notes.append(
        AcceptNote("reads_back at items.get_item", "matched no failure: remove it", False)
    )
    assert results.ok
    results.accept_notes.append(AcceptNote("x at y (expires 2020-01-01)", "expired on 2020-01-01", True))
    assert not results.ok
    text = summary(results)
    assert "--accept entry reads_back at items.get_item: matched no failure: remove it\n" in text
    assert "--accept entry x at y (expires 2020-01-01): expired on 2020-01-01 (fails the run)" in text


def test_junit_has_an_accepted_failure_as_skipped_with_the_reason(tmp_path: Path):
    path = tmp_path / "out.xml"
    write_junit(_accepted(), path)
    suite = {s.get("name"): s for s in ET.parse(path).getroot()}["behaviour"]
    assert suite.get("failures") == "0" and suite.get("skipped") == "1"
    skipped = suite.find("testcase/skipped")
    assert skipped is not None
    assert skipped.get("message") == "accepted failure: paging fixed in PROJ-9 (until 2099-01-31)"
    assert skipped.text == "page 2 repeats item 1"
