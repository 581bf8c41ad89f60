"""Every query parameter and every writable body field of the document has a rule with a check
(issue 15 item 1; since issue 22 item 3 the rules are the statements of conformance/statements/):
a statement about the operation and the name (`operations`, `subjects`: a parameter or body row
of section 4, a prose statement through s4_endpoints.SUBJECTS, or a docs/design.md rule of
design.py) that a registered check declares."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from csapi.conformance.statements import STATEMENTS, Statement
from csapi.conformance.statements.design import DESIGN
from csapi.openapi import document, resolve

DESIGN_MD = Path(__file__).resolve().parents[2] / "docs" / "design.md"

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


def _statements_about(operation: str, name: str) -> list[Statement]:
    return [s for s in STATEMENTS if operation in s.operations and name in s.subjects]


def _checked(operation: str, name: str) -> bool:
    """A statement about it that a registered check declares (a contract outcome alone is no rule's
    check: it judges the document, not what the parameter or field does)."""
    return any(c for s in _statements_about(operation, name) for c in s.checks if ":" not in c)


def test_every_query_parameter_has_a_checked_statement() -> None:
    missing = [f"{op} {name}" for op, name in query_parameters() if not _checked(op, name)]
    assert not missing, "query parameters without a statement a check declares: " + ", ".join(missing)


def test_every_writable_field_has_a_checked_statement() -> None:
    missing = [f"{op} {name}" for op, name in writable_fields() if not _checked(op, name)]
    assert not missing, "writable fields without a statement a check declares: " + ", ".join(missing)


def test_the_document_is_read() -> None:
    """The two lists above are not vacuous."""
    assert len(query_parameters()) >= 50 and len(writable_fields()) >= 80


def test_every_statement_about_parameters_names_operations_of_the_document() -> None:
    operations = {op_id for op_id, *_ in _operations()}
    for entry in STATEMENTS:
        assert set(entry.operations) <= operations, entry.id
        assert bool(entry.operations) == bool(entry.subjects), entry.id


def test_every_design_statement_quotes_docs_design_md() -> None:
    """A rule of design.py is docs/design.md's text under its heading (whitespace collapsed)."""
    design = DESIGN_MD.read_text()
    sections = dict(re.findall(r"^#+ (.+)\n((?:(?!^#).*\n?)*)", design, flags=re.M))
    for entry in (s for s in STATEMENTS if s.section == DESIGN):
        assert entry.heading in sections, f"{entry.id}: no heading {entry.heading!r} in docs/design.md"
        assert entry.text in " ".join(sections[entry.heading].split()), f"{entry.id}: not in docs/design.md"
        assert entry.checks, f"{entry.id}: no check declares it"
