"""Our document against itself and against its OpenAPI 3.1 migration (issue 23, item 2).

A 3.0 -> 3.1 migration that keeps the meaning (migrate.to_31) must report nothing, both ways,
through the CLI; the same migration with one real edit must report exactly that edit; the
document against itself is "No changes". The migration itself is checked first: valid 3.1, and
every schema of the document accepts the same values before and after (3.0 and 3.1 validators).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from openapi_schema_validator import OAS30Validator, OAS31Validator

from csapi.cli import main
from csapi.openapi import DOCUMENT_PATH
from tests.diff.documents import real
from tests.diff.migrate import to_31
from tests.diff.validity import assert_valid

Document = dict[str, Any]
EDITED = "/components/schemas/CollectionUpdate/properties/view_mode"  # a request-only schema


def _diff(*args: str | Path, proof: bool = False) -> tuple[int, str]:
    flags = [] if proof else ["--no-proof"]
    result = CliRunner().invoke(main, ["diff", *map(str, args), *flags])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.output


def _changes(*args: str | Path, proof: bool = False) -> tuple[int, list[dict[str, Any]], str]:
    code, output = _diff(*args, "--format", "json", proof=proof)
    start = output.find("{")
    report = json.JSONDecoder().raw_decode(output[start:])[0] if start >= 0 else {}
    return code, report.get("changes", []), output


def _write(path: Path, document: Document) -> Path:
    path.write_text(yaml.safe_dump(document, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def migrated() -> Document:
    return to_31(real())


# --------------------------------------------------------------------------------------------------
# The migration: small schemas, then the whole document


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string", "nullable": True}, {"type": ["string", "null"]}),
        ({"type": "string", "nullable": False}, {"type": "string"}),
        ({"nullable": True, "description": "any"}, {"description": "any"}),
        (
            {"type": "string", "nullable": True, "enum": ["a", None]},
            {"type": ["string", "null"], "enum": ["a", None]},
        ),
        (
            {"type": "number", "minimum": 1, "exclusiveMinimum": True},
            {"type": "number", "exclusiveMinimum": 1},
        ),
        ({"type": "number", "maximum": 9, "exclusiveMaximum": False}, {"type": "number", "maximum": 9}),
        ({"type": "string", "example": "x"}, {"type": "string", "examples": ["x"]}),
        (
            {"$ref": "#/components/schemas/S", "description": "ignored by 3.0"},
            {"$ref": "#/components/schemas/S"},
        ),
        (
            {"type": "array", "items": {"type": "integer", "nullable": True}},
            {"type": "array", "items": {"type": ["integer", "null"]}},
        ),
    ],
    ids=[
        "nullable",
        "nullable-false",
        "nullable-untyped",
        "nullable-enum",
        "exclusiveMinimum",
        "exclusiveMaximum-false",
        "example",
        "ref-siblings",
        "nested",
    ],
)
def test_a_schema_migrated(schema: Document, expected: Document) -> None:
    document = {"openapi": "3.0.3", "components": {"schemas": {"S": {"type": "string"}, "T": schema}}}
    assert to_31(document)["components"]["schemas"]["T"] == expected


def test_an_example_outside_a_schema_stays() -> None:
    media = {"schema": {"type": "string", "example": "x"}, "example": "y"}
    document = {
        "openapi": "3.0.3",
        "paths": {"/a": {"get": {"responses": {"200": {"content": {"text/plain": media}}}}}},
    }
    moved = to_31(document)["paths"]["/a"]["get"]["responses"]["200"]["content"]["text/plain"]
    assert moved == {"schema": {"type": "string", "examples": ["x"]}, "example": "y"}


def test_our_document_migrated_is_valid_31(migrated: Document) -> None:
    assert migrated["openapi"] == "3.1.0"
    assert_valid(migrated)
    assert "nullable" not in json.dumps(migrated["components"]["schemas"])


def _schema_pointers(node: Any, pointer: str) -> Iterator[str]:
    """`pointer` and every schema below it (properties, items, allOf/oneOf/anyOf members, not)."""
    if not isinstance(node, dict):
        return
    yield pointer
    for name, member in node.get("properties", {}).items():
        yield from _schema_pointers(member, f"{pointer}/properties/{name}")
    for key in ("items", "not", "additionalProperties"):
        yield from _schema_pointers(node.get(key), f"{pointer}/{key}")
    for key in ("allOf", "oneOf", "anyOf"):
        for index, member in enumerate(node.get(key, [])):
            yield from _schema_pointers(member, f"{pointer}/{key}/{index}")


def _probes(schema: Document) -> list[Any]:
    """Values that tell schemas apart: one of each type, the enum's values, each bound and its neighbours."""
    values: list[Any] = [
        None,
        True,
        0,
        1,
        -1,
        1.5,
        "",
        "x",
        "2024-01-02T03:04:05Z",
        [],
        ["x"],
        [1],
        {},
        {"a": 1},
    ]
    values += schema.get("enum", [])
    for key in ("minimum", "maximum"):
        if isinstance(schema.get(key), int | float):
            values += [schema[key] - 1, schema[key], schema[key] + 1]
    return values


def _at(document: Document, pointer: str) -> Any:
    node: Any = document
    for token in pointer.split("/")[1:]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def test_every_schema_accepts_the_same_values_after_migration(migrated: Document) -> None:
    """Each schema of our document under the 3.0 validator, and migrated under 3.1, on the same probes."""
    before, after = real(), migrated
    disagreements = []
    for name, schema in before["components"]["schemas"].items():
        for pointer in _schema_pointers(schema, f"/components/schemas/{name}"):
            old = OAS30Validator({"components": before["components"], "$ref": f"#{pointer}"})
            new = OAS31Validator({"components": after["components"], "$ref": f"#{pointer}"})
            for value in _probes(_at(before, pointer)):
                if old.is_valid(value) != new.is_valid(value):
                    disagreements.append(
                        f"{pointer}: {value!r} 3.0 {old.is_valid(value)}, 3.1 {new.is_valid(value)}"
                    )
    assert not disagreements, "\n".join(disagreements)


# --------------------------------------------------------------------------------------------------
# csapi diff, through the CLI


def test_our_document_against_itself_is_no_changes() -> None:
    code, output = _diff(DOCUMENT_PATH, DOCUMENT_PATH)
    assert code == 0, output
    assert "No changes" in output, output


@pytest.mark.parametrize("direction", ["3.0-to-3.1", "3.1-to-3.0"])
def test_our_document_against_its_migration_reports_nothing(
    direction: str, migrated: Document, tmp_path: Path
) -> None:
    ours, theirs = (
        _write(tmp_path / "openapi-3.0.yaml", real()),
        _write(tmp_path / "openapi-3.1.yaml", migrated),
    )
    sides = (ours, theirs) if direction == "3.0-to-3.1" else (theirs, ours)
    code, changes, output = _changes(*sides)
    listed = "\n".join(f"{c['classification']} {c['pointer']} [{c['rule']}] {c['message']}" for c in changes)
    assert changes == [], listed or output[-2000:]
    assert code == 0, output[-2000:]


def test_the_payload_proof_finds_nothing_against_the_migration(migrated: Document, tmp_path: Path) -> None:
    """With the proof (3.1 validation of payloads) too: no payload tells the two apart."""
    code, changes, output = _changes(
        DOCUMENT_PATH, _write(tmp_path / "openapi-3.1.yaml", migrated), proof=True
    )
    assert changes == [], [f"{c['pointer']} [{c['rule']}] {c['message']}" for c in changes]
    assert code == 0, output[-2000:]


def test_the_migration_with_an_enum_value_removed_reports_exactly_that(
    migrated: Document, tmp_path: Path
) -> None:
    edited = json.loads(json.dumps(migrated))
    edited["components"]["schemas"]["CollectionUpdate"]["properties"]["view_mode"]["enum"].remove("list")
    code, changes, output = _changes(DOCUMENT_PATH, _write(tmp_path / "openapi-3.1.yaml", edited))
    listed = "\n".join(f"{c['classification']} {c['pointer']} [{c['rule']}] {c['message']}" for c in changes)
    assert code == 1, output[-2000:]
    assert changes, output[-2000:]
    assert all(c["pointer"] == EDITED or c["pointer"].startswith(f"{EDITED}/") for c in changes), listed
    assert all(c["classification"] == "breaking" and '"list"' in c["message"] for c in changes), listed
    assert all(c["direction"] == "request" for c in changes), listed
