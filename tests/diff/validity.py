"""Whether a test's document is valid OpenAPI: a case must not pass or fail on an invalid document.

openapi-spec-validator checks the document against its version's schema; for 3.1 it does not look
into Schema Objects, so each is checked against the OAS 3.1 dialect too; and every local `$ref`
must lead somewhere.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import Any

from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate

Document = dict[str, Any]


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _resolve(document: Document, reference: str) -> Any:
    node: Any = document
    for token in reference.removeprefix("#").split("/")[1:]:
        token = _unescape(token)
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def _schemas(node: Any, key: str = "") -> Iterator[Any]:
    """Every value held under a `schema` key, and every component schema (enough for these documents)."""
    if isinstance(node, dict):
        if key == "schema":
            yield node
        if key == "components" and isinstance(node.get("schemas"), dict):
            yield from node["schemas"].values()
        for name, value in node.items():
            yield from _schemas(value, name)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas(value)


def _references(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        if isinstance(node.get("$ref"), str):
            yield node["$ref"]
        for value in node.values():
            yield from _references(value)
    elif isinstance(node, list):
        for value in node:
            yield from _references(value)


@cache
def _validate_text(text: str) -> None:
    document = json.loads(text)
    validate(document)
    if document["openapi"].startswith("3.1"):
        for schema in _schemas(document):
            OAS31Validator.check_schema(schema)
    for reference in _references(document):
        if reference.startswith("#"):
            _resolve(document, reference)  # KeyError: a `$ref` that leads nowhere


def assert_valid(document: Document) -> None:
    _validate_text(json.dumps(document, sort_keys=True))
