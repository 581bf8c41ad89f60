"""`csapi validate`: output formats and exit codes (the rules themselves are tested in test_lint.py)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from csapi.cli import main
from csapi.openapi import DOCUMENT_PATH, lint

WriteDocument = Callable[..., Path]


def run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(main, ["validate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output.splitlines()


def test_project_document_passes() -> None:
    code, lines = run()
    assert lines[-1] == f"OK: {DOCUMENT_PATH} is valid (49 operations)", "\n".join(lines)
    assert code == 0


def test_clean_document_passes(write_document: WriteDocument, spec_shaped_document: dict[str, Any]) -> None:
    path = write_document(spec_shaped_document)
    code, lines = run(str(path))
    assert (code, lines) == (0, [f"OK: {path} is valid (49 operations)"])


def test_problems_are_listed_one_per_line_then_counted(
    write_document: WriteDocument, spec_shaped_document: dict[str, Any]
) -> None:
    del spec_shaped_document["paths"]["/v1/ping"]
    spec_shaped_document["components"]["schemas"]["Orphan"] = {"type": "object"}
    path = write_document(spec_shaped_document)
    code, lines = run(str(path))
    assert code == 1
    assert lines == [
        "/components/schemas/Orphan: [unused-component]"
        " components/schemas/Orphan is not used by any operation",
        "/paths: [inventory] missing operation GET /v1/ping (Ping)",
        f"2 problem(s) in {path}",
    ]


def test_unparsable_document_fails(write_document: WriteDocument) -> None:
    path = write_document("openapi: [3.0.3\n")
    code, lines = run(str(path))
    assert code == 1
    assert lines[0].startswith("(document): [parse] not valid YAML or JSON")
    assert lines[-1] == f"1 problem(s) in {path}"


def test_missing_file_fails(tmp_path: Path) -> None:
    code, lines = run(str(tmp_path / "nope.yaml"))
    assert code == 1
    assert lines[0].startswith("(document): [parse] cannot read")


def test_json_format_on_a_broken_document(
    write_document: WriteDocument, spec_shaped_document: dict[str, Any]
) -> None:
    operation = spec_shaped_document["paths"]["/v1/ping"]["get"]
    del operation["summary"]
    path = write_document(spec_shaped_document)
    code, lines = run(str(path), "--format", "json")
    assert code == 1
    assert json.loads("\n".join(lines)) == {
        "document": str(path),
        "valid": False,
        "problems": [
            {"pointer": "/paths/~1v1~1ping/get", "rule": "summary", "message": "GET /v1/ping has no summary"}
        ],
        "operations": 49,
    }


def test_json_format_on_a_clean_document(
    write_document: WriteDocument, spec_shaped_document: dict[str, Any]
) -> None:
    path = write_document(spec_shaped_document)
    code, lines = run("--format", "json", str(path))
    assert code == 0
    assert json.loads("\n".join(lines)) == {
        "document": str(path),
        "valid": True,
        "problems": [],
        "operations": 49,
    }


def test_json_format_of_the_project_document_matches_the_linter() -> None:
    code, lines = run("--format", "json")
    report = lint.lint(DOCUMENT_PATH)
    assert json.loads("\n".join(lines)) == report.as_dict()
    assert code == (0 if report.valid else 1)


def test_unknown_format_is_a_usage_error() -> None:
    result = CliRunner().invoke(main, ["validate", "--format", "xml"])
    assert result.exit_code == 2


def test_the_fail_on_choices_are_the_diff_modules() -> None:
    from csapi import cli
    from csapi.openapi import diff

    assert cli.FAIL_ON == diff.FAIL_ON


def test_conform_help_documents_the_coverage_json() -> None:
    result = CliRunner().invoke(main, ["conform", "--help"])
    assert result.exit_code == 0
    text = result.output
    assert "--coverage-json FILE" in text and "--report FILE" in text
    assert 'format, version  "csapi-conform-coverage", 1' in text
    for key in ("value_kinds", "totals", "skip_reasons", "failures", "operations", "not_seen", "kinds"):
        assert key in text


def test_conform_help_documents_the_exit_statuses_accept_and_progress() -> None:
    text = CliRunner().invoke(main, ["conform", "--help"]).output
    for line in ("0  every check passed", "1  failures, or an --accept entry", "2  bad usage, in one line"):
        assert line in text
    assert "3  the target cannot be reached, is not the API" in text
    assert "--accept FILE" in text and "[CSAPI_ACCEPT]" in text
    assert "accepted       [{operation_id, check, reason, expires," in text
    assert "Progress goes to stderr" in text
