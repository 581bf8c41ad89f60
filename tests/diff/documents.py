"""The project's document for the diff tests: parsed once (`openapi.document`), handed out as fresh copies."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from csapi.openapi import document

Document = dict[str, Any]


@cache
def _text() -> str:
    return json.dumps(document())


def real() -> Document:
    """A fresh copy of the project's document, free to edit."""
    fresh: Document = json.loads(_text())
    return fresh


def reverse_keys(node: Any) -> Any:
    """`node` with the keys of every mapping in reverse order: the same JSON value, written otherwise."""
    if isinstance(node, dict):
        return {key: reverse_keys(node[key]) for key in reversed(list(node))}
    if isinstance(node, list):
        return [reverse_keys(value) for value in node]
    return node
