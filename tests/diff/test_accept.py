"""`csapi diff --accept FILE`: accepted breaks pass the gate with their reason; the file cannot rot."""

from __future__ import annotations

import copy
import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from csapi.cli import main
from csapi.openapi import DOCUMENT_PATH
from csapi.openapi.diff import AcceptError, compare, load_accept
from csapi.openapi.diff.accept import parse_accept
from tests.diff.documents import real

COMMENT = "POST /v1/items/{item_id}/comments"


def _documents(folder: Path) -> tuple[Path, Path]:
    """OLD: the real document; NEW: `lang` added to CommentCreate as a required field (breaking)."""
    old = real()
    new = copy.deepcopy(old)
    schema = new["components"]["schemas"]["CommentCreate"]
    schema["properties"]["lang"] = {"type": "string"}
    schema["required"].append("lang")
    paths = folder / "old.json", folder / "new.json"
    for path, doc in zip(paths, (old, new), strict=True):
        path.write_text(json.dumps(doc), encoding="utf-8")
    return paths


def _accept(folder: Path, entries: list[dict[str, Any]]) -> Path:
    path = folder / "accept.yaml"
    path.write_text(yaml.safe_dump(entries, sort_keys=False), encoding="utf-8")
    return path


def run(*args: str | Path) -> Any:
    return CliRunner().invoke(main, ["diff", *map(str, args), "--no-proof"])


def test_an_accepted_break_is_reported_with_its_reason_and_passes_the_gate(tmp_path: Path) -> None:
    old, new = _documents(tmp_path)
    assert run(old, new).exit_code == 1
    accept = _accept(
        tmp_path,
        [{"operation": COMMENT, "kind": "property-added", "reason": "every client sends lang (PROJ-412)"}],
    )
    result = run(old, new, "--accept", accept)
    assert result.exit_code == 0, result.output
    assert "accepted    /components/schemas/CommentCreate/properties/lang: [property-added]" in result.output
    assert "[accepted: every client sends lang (PROJ-412)]" in result.output
    assert "1 accepted" in result.output.splitlines()[-1]


def test_a_pointer_entry_accepts_the_changes_at_and_below_it(tmp_path: Path) -> None:
    old, new = _documents(tmp_path)
    entry = {"pointer": "/components/schemas/CommentCreate", "kind": "property-added", "reason": "known"}
    result = run(old, new, "--accept", _accept(tmp_path, [entry]), "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert {c["accepted"] for c in report["changes"]} == {"known"}
    assert report["summary"]["breaking"] == 0 and report["summary"]["accepted"] == len(report["changes"])


def test_an_entry_that_matches_nothing_is_reported_but_does_not_fail(tmp_path: Path) -> None:
    old, new = _documents(tmp_path)
    entries = [
        {"operation": COMMENT, "kind": "property-added", "reason": "known"},
        {"operation": "GET /v1/ping", "kind": "required-added", "reason": "stale"},
    ]
    result = run(old, new, "--accept", _accept(tmp_path, entries))
    assert result.exit_code == 0, result.output
    assert "note: accept file: required-added at GET /v1/ping: matches no change: remove it" in result.output


def test_an_expired_entry_accepts_nothing_and_fails_the_gate(tmp_path: Path) -> None:
    old, new = _documents(tmp_path)
    entry = {"operation": COMMENT, "kind": "property-added", "reason": "until v3", "expires": "2020-01-31"}
    result = run(old, new, "--accept", _accept(tmp_path, [entry]), "--fail-on", "none")
    assert result.exit_code == 1, result.output  # even with --fail-on none: the file must be fixed
    assert "error: accept file: property-added at POST" in result.output
    assert "expired on 2020-01-31" in result.output
    assert "[accepted:" not in result.output


def test_an_entry_that_has_not_expired_yet_accepts() -> None:
    acceptance = parse_accept(
        [{"operation": "GET /v1/ping", "kind": "operation-removed", "reason": "r", "expires": "2030-01-01"}],
        today=dt.date(2029, 12, 31),
    )
    old = real()
    new = copy.deepcopy(old)
    del new["paths"]["/v1/ping"]
    report = compare(old, new, proof=False, accept=acceptance)
    assert not report.fails("breaking") and report.accepted == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("- {kind: required-added, reason: r}", "needs an operation"),
        ("- {operation: GET /v1/ping, reason: r}", "needs a kind"),
        ("- {operation: GET /v1/ping, kind: k, reason: r, expires: soon}", "expires must be a date"),
        ("- {operation: GET /v1/ping, kind: k, reason: r, until: 2030-01-01}", "unknown key(s) until"),
        ("- {pointer: components, kind: k, reason: r}", "pointer must be a JSON pointer"),
        ("operation: GET /v1/ping", "must be a list of entries"),
    ],
)
def test_a_malformed_accept_file_is_a_usage_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "accept.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(AcceptError, match="accept.yaml"):
        load_accept(path)
    result = run(DOCUMENT_PATH, DOCUMENT_PATH, "--accept", path)
    assert result.exit_code == 2 and message in result.output, result.output
