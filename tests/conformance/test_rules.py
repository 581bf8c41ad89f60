"""The rule table (conformance/rules/) against the document and the registered checks (issue 15
item 1): every query parameter of every operation has a parameter row, every writable body field
of every create or update operation a persistence row, and every row names checks that exist."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from csapi.conformance import registry, runner
from csapi.conformance.rules import FAMILIES, PARAMETER, PERSISTENCE, ROWS, Rule
from csapi.openapi import document, resolve

# a token exchange: nothing it is sent is stored, so it has no persistence rule
NOT_STORED = {"auth.authenticate"}


def _operations() -> list[tuple[str, str, dict[str, Any], list[dict[str, Any]]]]:
    """(operationId, method, operation, its parameters with the path's) of the document."""
    doc = document()
    out = []
    for item in doc["paths"].values():
        shared = item.get("parameters", [])
        for method, op in item.items():
            if isinstance(op, dict) and "operationId" in op:
                params = [resolve(p, doc) for p in [*shared, *op.get("parameters", [])]]
                out.append((op["operationId"], method, op, params))
    return out


def _properties(schema: Any, doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The properties of a body schema, through $ref, oneOf, anyOf and allOf."""
    schema = resolve(schema, doc)
    out: dict[str, dict[str, Any]] = {}
    for key in ("oneOf", "anyOf", "allOf"):
        for alternative in schema.get(key, []):
            out.update(_properties(alternative, doc))
    out.update({name: resolve(value, doc) for name, value in schema.get("properties", {}).items()})
    return out


def query_parameters() -> list[tuple[str, str]]:
    return [(op_id, p["name"]) for op_id, _, _, params in _operations() for p in params if p["in"] == "query"]


def writable_fields() -> list[tuple[str, str]]:
    doc = document()
    out = []
    for op_id, method, op, _ in _operations():
        if method not in ("post", "put", "patch") or "requestBody" not in op or op_id in NOT_STORED:
            continue
        fields: set[str] = set()
        for media in resolve(op["requestBody"], doc)["content"].values():
            fields |= {n for n, p in _properties(media["schema"], doc).items() if not p.get("readOnly")}
        out += [(op_id, name) for name in sorted(fields)]
    return out


def _about(row: Rule, name: str) -> bool:
    """A row's subject names the parameter or field, alone or with a value (`include=items`) or a
    note (`collection_id (order)`)."""
    return row.subject == name or row.subject.startswith((f"{name}=", f"{name} "))


def _covered(family: str, operation: str, name: str) -> bool:
    return any(r.family == family and r.operation == operation and _about(r, name) for r in ROWS)


def _by_id() -> dict[str, registry.Check]:
    for layer in runner.LAYERS:  # registers its checks, as run_checks does
        importlib.import_module(f"csapi.conformance.{layer}")
    return registry.by_id()


def test_every_query_parameter_has_a_row() -> None:
    missing = [f"{op} {name}" for op, name in query_parameters() if not _covered(PARAMETER, op, name)]
    assert not missing, "query parameters without a parameter row: " + ", ".join(missing)


def test_every_writable_field_has_a_persistence_row() -> None:
    missing = [f"{op} {name}" for op, name in writable_fields() if not _covered(PERSISTENCE, op, name)]
    assert not missing, "writable fields without a persistence row: " + ", ".join(missing)


def test_the_document_is_read() -> None:
    """The two lists above are not vacuous."""
    assert len(query_parameters()) >= 50 and len(writable_fields()) >= 80


def test_every_row_is_well_formed() -> None:
    operations = {op_id for op_id, *_ in _operations()}
    for row in ROWS:
        assert row.family in FAMILIES, row
        assert row.operation in operations, row
        assert row.subject and row.rule and row.source, row
    keys = [(r.family, r.operation, r.subject) for r in ROWS]
    assert len(keys) == len(set(keys)), "a (family, operation, subject) appears twice"


@pytest.mark.parametrize("row", ROWS, ids=lambda r: f"{r.family}:{r.operation}:{r.subject}")
def test_every_row_names_a_registered_check(row: Rule) -> None:
    assert row.checks, f"no check covers: {row.rule} ({row.source})"
    checks = _by_id()
    unknown = [name for name in row.checks if name not in checks]
    assert not unknown, f"{row.operation} {row.subject}: no registered check {unknown}"
