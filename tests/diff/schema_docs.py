"""Small documents for the schema tests: one schema placed in a request body or a response."""

from __future__ import annotations

from typing import Any

from csapi.openapi.diff import Change, diff

V30, V31 = "3.0.3", "3.1.0"


def document(schema: Any, *, where: str = "request", version: str = V31, **schemas: Any) -> dict[str, Any]:
    """A document with one operation whose request body (or 200 response) has `schema`."""
    media = {"application/json": {"schema": schema}}
    operation: dict[str, Any] = {"responses": {"200": {"description": "ok"}}}
    if where == "request":
        operation["requestBody"] = {"required": True, "content": media}
    else:
        operation["responses"]["200"]["content"] = media
    doc: dict[str, Any] = {
        "openapi": version,
        "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"post": operation}},
    }
    if schemas:
        doc["components"] = {"schemas": schemas}
    return doc


def changes(
    old: Any, new: Any, *, where: str = "request", version: str = V31, **schemas: Any
) -> list[Change]:
    """The changes from `old` to `new` (two schemas), both placed `where`."""
    return diff(
        document(old, where=where, version=version, **schemas),
        document(new, where=where, version=version, **schemas),
    )


def verdicts(old: Any, new: Any, **kwargs: Any) -> set[tuple[str, str]]:
    """(rule, class) of each change."""
    return {(change.rule, change.classification.value) for change in changes(old, new, **kwargs)}


def both_ways(old: Any, new: Any, **kwargs: Any) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """The verdicts in a request and in a response."""
    return verdicts(old, new, where="request", **kwargs), verdicts(old, new, where="response", **kwargs)
