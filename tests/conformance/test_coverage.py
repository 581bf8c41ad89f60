"""Coverage in the verdict: what a run sent to each operation, what came back, which checks ran.

The runs are real (the mock served over HTTP); the classification of values is also checked on
requests made up here, where the kind each value must get is known.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from csapi.cli import main
from csapi.conformance.coverage import FORMAT, KINDS, VERSION, Coverage
from csapi.conformance.results import PASS, SKIP, Results
from csapi.conformance.runner import EXIT_OK, run_checks
from csapi.conformance.settings import Settings, User
from csapi.conformance.target import Exchange, Target
from csapi.openapi import document
from tests.conformance.conftest import API_KEY, Live, live_mock

SETTINGS = Settings("http://h", "k", (User(1, "t"),))


def _sent(method: str, url: str, body: bytes | None = None, ctype: str = "", status: int = 200) -> Exchange:
    headers = {"content-type": ctype} if ctype else {}
    return Exchange(method, url, headers, body, status, {}, "")


def _operation(data: dict[str, Any], operation_id: str) -> dict[str, Any]:
    return next(op for op in data["operations"] if op["operation_id"] == operation_id)


def _kinds(data: dict[str, Any], operation_id: str) -> dict[str, dict[str, int]]:
    return {p["name"]: p["kinds"] for p in _operation(data, operation_id)["parameters"]}


def _observed(*exchanges: Exchange, settings: Settings = SETTINGS) -> dict[str, Any]:
    coverage = Coverage(document(), settings)
    coverage.layer = "behaviour"
    for exchange in exchanges:
        coverage.observe(exchange)
    return coverage.as_dict(Results(), seconds=1.0, started="2026-01-01T00:00:00Z")


# ---------------------------------------------------------------------- values and statuses
def test_query_values_are_classified_by_the_parameters_schema():
    data = _observed(
        _sent("GET", "http://h/v1/items?page=2&per_page=abc&type=bogus&tags=a&tags=b&q="),
        _sent("GET", "http://h/v1/items?per_page=0", status=400),
    )
    kinds = _kinds(data, "items.list_items")
    assert kinds["page"] == {"absent": 1, "valid": 1}  # the text "2" is an integer on the wire
    assert kinds["per_page"] == {"invalid-type": 1, "out-of-range": 1}  # "abc"; 0 below the minimum
    assert kinds["type"] == {"absent": 1, "out-of-range": 1}  # not in the enum
    assert kinds["tags"] == {"absent": 1, "array": 1}
    assert kinds["q"] == {"absent": 1, "empty": 1}
    assert kinds["collection_id"] == {"absent": 2}
    statuses = _operation(data, "items.list_items")["statuses"]
    assert statuses["seen"] == {"200": 1, "400": 1}
    assert "200" not in statuses["not_seen"] and "401" in statuses["not_seen"]
    assert _operation(data, "items.list_items")["requests"] == {"behaviour": 2}


def test_path_and_body_values_json_and_form():
    data = _observed(
        _sent("PUT", "http://h/v1/items/7", b'{"name": "x", "shareable": "yes"}', "application/json"),
        _sent(
            "PUT", "http://h/v1/items/abc", b"name=&shareable=true", "application/x-www-form-urlencoded", 400
        ),
    )
    kinds = _kinds(data, "items.update_item")
    assert kinds["item_id"] == {"valid": 1, "invalid-type": 1}
    assert kinds["name"] == {"valid": 1, "empty": 1}
    assert kinds["shareable"] == {"valid": 1, "invalid-type": 1}  # "true" in a form is the boolean
    assert kinds["description"] == {"absent": 2}


def test_a_request_goes_to_its_operation_by_path_first_then_method():
    data = _observed(
        _sent("GET", "http://h/v1/collections/count"),
        _sent("GET", "http://h/v1/items/copy", status=405),  # a method the path lacks: no Get an item
        _sent("GET", "http://h/v1/nothing", status=404),
    )
    assert _operation(data, "collections.get_collections_count")["exercised"]
    assert not _operation(data, "collections.get_collection")["exercised"]
    assert not _operation(data, "items.get_item")["exercised"]
    assert data["totals"]["requests_outside_the_document"] == 2


def test_a_base_url_with_a_path_prefix():
    settings = Settings("http://h/api", "k", (User(1, "t"),))
    data = _observed(_sent("GET", "http://h/api/v1/ping"), settings=settings)
    assert _operation(data, "auth.ping")["statuses"]["seen"] == {"200": 1}


def test_an_undocumented_status_is_named():
    data = _observed(_sent("GET", "http://h/v1/ping", status=500))
    assert _operation(data, "auth.ping")["statuses"]["undocumented"] == ["500"]


# ---------------------------------------------------------------------- a whole run, from the CLI
@pytest.fixture(scope="module")
def cli_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, dict[str, Any], str, str]]:
    """One --quick run of the whole suite through `csapi conform`, with --coverage-json and --report."""
    out = tmp_path_factory.mktemp("run")
    with live_mock() as live:
        settings = live.settings()
        args = ["conform", "--base-url", live.base_url, "--api-key", API_KEY, "--quick"]
        args += [arg for user in settings.users for arg in ("--user", f"{user.id}:{user.token}")]
        args += ["--team-id", str(settings.team_id), "--coverage-json", str(out / "c.json")]
        args += ["--report", str(out / "r.html")]
        result = CliRunner().invoke(main, args, env={})
    data = json.loads((out / "c.json").read_text(encoding="utf-8"))
    yield result.exit_code, data, (out / "r.html").read_text(encoding="utf-8"), result.output


def test_the_coverage_json_has_its_documented_shape(cli_run: tuple[int, dict[str, Any], str, str]):
    code, data, _, output = cli_run
    assert code == 0, output
    assert data["format"] == FORMAT and data["version"] == VERSION and data["verdict"] == "passed"
    assert set(data["value_kinds"]) == set(KINDS)
    assert data["settings"]["quick"] is True and data["seed"] == 0
    assert len(data["operations"]) == data["totals"]["operations"]["documented"] == 49
    for op in data["operations"]:
        assert set(op) >= {
            "operation_id",
            "method",
            "path",
            "tag",
            "statuses",
            "parameters",
            "layers",
            "checks",
        }
        assert set(op["layers"]) == {"contract", "behaviour", "access"}


def test_every_exercised_operation_lists_the_statuses_seen(cli_run: tuple[int, dict[str, Any], str, str]):
    _, data, _, _ = cli_run
    exercised = [op for op in data["operations"] if op["exercised"]]
    assert (
        len(exercised) == data["totals"]["operations"]["exercised"] >= 45
    )  # the contract layer sends to all
    for op in exercised:
        seen = op["statuses"]["seen"]
        assert seen and sum(seen.values()) == sum(op["requests"].values()), op["operation_id"]
        documented_seen = [
            key for key in op["statuses"]["documented"] if key not in op["statuses"]["not_seen"]
        ]
        assert documented_seen, f"{op['operation_id']}: no documented status seen"
    created = _operation(data, "collections.create_collection")
    assert "201" in created["statuses"]["seen"]
    assert _kinds(data, "collections.create_collection")["name"].get("valid")
    assert data["totals"]["checks"]["passed"] > 400 and data["totals"]["checks"]["failed"] == 0


def test_each_check_of_the_run_is_in_the_coverage_of_its_operation(
    cli_run: tuple[int, dict[str, Any], str, str],
):
    _, data, _, _ = cli_run
    listed = sum(len(op["checks"]) for op in data["operations"]) + len(data["other_checks"])
    checks = data["totals"]["checks"]
    assert (
        listed
        == checks["passed"] + checks["failed"] + checks["errors"] + checks["skipped"] + checks["left_out"]
    )
    strict_only = [
        c for op in data["operations"] for c in op["checks"] if c.get("reason", "").startswith("not --strict")
    ]
    assert len(strict_only) == checks["left_out"] > 0  # the gap choices, left out without --strict
    assert all(c["status"] == SKIP for c in strict_only)


def test_the_report_is_written_from_the_same_run(cli_run: tuple[int, dict[str, Any], str, str]):
    _, data, page, _ = cli_run
    assert "PASSED" in page and "No check failed." in page
    assert page.count("<details class='op'") == len(data["operations"])


# ---------------------------------------------------------------------- what the settings leave out
def _run(live: Live, **overrides: Any) -> tuple[int, Results, dict[str, Any]]:
    settings = live.settings(quick=True, **overrides)
    target = Target(settings)
    try:
        verdict = run_checks(settings, target, layers=("behaviour", "access"))
    finally:
        target.client.close()
    return verdict.exit_status, verdict.results, verdict.coverage


def test_read_only_shows_the_writing_checks_as_skipped_for_read_only(live: Live):
    status, results, data = _run(live, read_only=True)
    assert status == EXIT_OK  # left-out checks are not failures
    read_only = [o for o in results.left_out if o.message == "--read-only"]
    assert len(read_only) > 10
    assert not any(o.message == "--read-only" for o in results.outcomes)  # nor outcomes: same counts
    skipped = [c for op in data["operations"] for c in op["checks"] if c.get("reason") == "--read-only"]
    assert len(skipped) == len(read_only) and all(c["status"] == SKIP for c in skipped)
    assert data["skip_reasons"]["--read-only"] == len(skipped)
    update = _operation(data, "items.update_item")["layers"]["behaviour"]
    assert update["state"] == "skipped" and update["reason"] == "--read-only"


def test_include_leaves_the_other_operations_unexercised_with_the_reason(live: Live):
    status, results, data = _run(live, include=("items.get_item",))
    assert status == EXIT_OK
    kept = _operation(data, "items.get_item")
    assert kept["selected"] and kept["exercised"]
    assert any(c["status"] == PASS for c in kept["checks"])
    other = _operation(data, "teams.update_team")
    assert not other["selected"]
    assert {cell["reason"] for cell in other["layers"].values()} == {"not in --include"}
    assert all(cell["state"] in ("skipped", "not exercised") for cell in other["layers"].values())
    assert {c["reason"] for c in other["checks"]} == {"not in --include"}
    assert all(o.operation != "teams.update_team" for o in results.outcomes)
