"""Verdicts of csapi conform: outcomes, the summary and JUnit XML (the report: test_report.py)."""

from pathlib import Path
from xml.etree import ElementTree as ET

from csapi.conformance.failures import CheckFailed, CheckSkipped, expect
from csapi.conformance.results import FAIL, PASS, SKIP, Results, summary, write_junit
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
