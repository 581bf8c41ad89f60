"""The hand-written OpenAPI document of the Collection-Sharing Service, and a tiny loader.

Everything else in the toolkit is generated from or checked against `openapi.yaml`.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from .loader import loads
from .refs import Resolver

HERE = Path(__file__).resolve().parent
DOCUMENT_PATH = HERE / "openapi.yaml"
INVENTORY_PATH = HERE / "inventory.yaml"


def load_document(path: str | Path = DOCUMENT_PATH) -> dict[str, Any]:
    """Parse an OpenAPI document (YAML or JSON) into plain Python data (`loader.loads`).

    OSError when the file cannot be read, `loader.DocumentError` when it is not a document.
    """
    return loads(Path(path).read_text(encoding="utf-8"))


@cache
def document() -> dict[str, Any]:
    """The project's own document, parsed once per process. Callers must not mutate it."""
    return load_document(DOCUMENT_PATH)


def load_inventory(path: str | Path = INVENTORY_PATH) -> list[dict[str, str]]:
    """The method+path pairs the spec requires, as [{method, path, name}]."""
    with open(path, encoding="utf-8") as fh:
        operations: list[dict[str, str]] = yaml.safe_load(fh)["operations"]
        return operations


def resolve(node: Any, doc: dict[str, Any] | None = None) -> Any:
    """Follow local `$ref`s (`#/components/...`) until a node that is not a reference."""
    return Resolver(doc if doc is not None else document()).chase(node).node


@cache
def _path_patterns() -> list[tuple[str, re.Pattern[str]]]:
    patterns = [
        (template, re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template)) + "/?$"))
        for template in document()["paths"]
    ]
    return sorted(patterns, key=lambda p: "{" in p[0])  # literal paths first, as routers match


def path_template(path: str) -> str | None:
    """The document's path template that a concrete request path falls under, if any."""
    return next((template for template, pattern in _path_patterns() if pattern.match(path)), None)
