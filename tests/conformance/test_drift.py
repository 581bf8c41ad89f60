"""`csapi validate --drift`: the mock on an edited document (mock_server/drift.py), checked against
it by conformance/drift.py.

Each run builds the mock on a document (a few seconds), so the default tests run on a few
operations; the whole real document is the `slow` test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from csapi.cli import main
from csapi.conformance.drift import DriftReport
from csapi.conformance.drift import check_drift as check
from csapi.mock_server.drift import mock_on
from csapi.openapi import DOCUMENT_PATH
from csapi.openapi.loader import loads as parse


def check_drift(document: Path = DOCUMENT_PATH, **options: Any) -> DriftReport:
    """The check as `csapi validate --drift` runs it: on the mock built on the document."""
    return check(document, mock_on, **options)


def _edited(tmp_path: Path, edit: Any) -> Path:
    document = parse(DOCUMENT_PATH.read_text(encoding="utf-8"))
    edit(document)
    path = tmp_path / "openapi.json"  # JSON is YAML too, and much faster to write
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def _require_rating(document: dict[str, Any]) -> None:
    """A field added to the document that the mock does not produce."""
    item = document["components"]["schemas"]["Item"]
    item["properties"]["rating"] = {"type": "integer", "minimum": 0}
    item["required"].append("rating")


def test_a_required_field_the_mock_does_not_produce_is_drift(tmp_path: Path) -> None:
    include = ["items.get_item", "reactions.list_reactions"]
    report = check_drift(_edited(tmp_path, _require_rating), include=include)
    outcomes = {outcome.operation_id: outcome for outcome in report.outcomes}
    assert set(outcomes) == set(include)
    drifted = outcomes["items.get_item"]
    assert (drifted.status, drifted.operation) == ("drifted", "GET /v1/items/{item_id}")
    assert "'rating' is a required property" in drifted.message
    assert drifted.request.startswith("GET ") and drifted.request.endswith("-> 400")
    assert [outcome.operation_id for outcome in report.drifted] == ["items.get_item"]  # no Item in reactions
    assert not report.valid and "1 of 2 operation(s)" in report.summary()


def test_an_operation_without_a_handler_is_reported_for_the_whole_run(tmp_path: Path) -> None:
    def add_unping(document: dict[str, Any]) -> None:
        ping = document["paths"]["/v1/ping"]["get"]
        document["paths"]["/v1/ping"]["delete"] = {**ping, "operationId": "auth.unping"}

    report = check_drift(_edited(tmp_path, add_unping))
    assert not report.valid and report.outcomes == ()
    assert "no handler for auth.unping" in report.error


def test_cli_validate_drift_on_a_few_operations_of_the_real_document() -> None:
    args = ["validate", "--drift", "--include", "auth.ping", "--include", "collections.list_collections"]
    result = CliRunner().invoke(main, [*args, "--format", "json"])
    assert result.exit_code == 0, result.output
    verdict = json.loads(result.output)
    assert verdict["valid"] and verdict["drift"]["valid"]
    assert {o["operation_id"]: o["status"] for o in verdict["drift"]["outcomes"]} == {
        "auth.ping": "ok",
        "collections.list_collections": "ok",
    }
    assert all(outcome["cases"] >= 1 for outcome in verdict["drift"]["outcomes"])


def test_unknown_operations_are_named_before_anything_runs() -> None:
    report = check_drift(include=["items.get_item", "items.no_such_operation"])
    assert not report.valid and report.outcomes == ()
    assert report.error == "no operation is named by items.no_such_operation"
    assert report.seconds < 2  # the mock was not built


@pytest.mark.slow
def test_the_real_document_has_no_drift() -> None:
    report = check_drift()
    assert report.valid, "\n".join(report.lines())
    assert len(report.outcomes) == 49


def test_the_mock_hands_over_what_its_user_owns() -> None:
    """The ids drift puts in requests are user 1's, so valid requests reach real data, not 404s."""
    mock = mock_on(DOCUMENT_PATH)
    assert (mock.user_id, mock.api_key) == (1, "csapi-drift-key")
    store = mock.store
    assert {"collection_id", "item_id", "parent_id", "user_id"} <= set(mock.ids)
    assert all(store.collections[c].owner_id == 1 for c in mock.ids["collection_id"])
    assert all(store.items[i].type == "stack" for i in mock.ids["parent_id"])
