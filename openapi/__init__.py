"""The hand-written OpenAPI document of the Collection-Sharing Service, and a tiny loader.

Everything else in the toolkit is generated from or checked against `openapi.yaml`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
DOCUMENT_PATH = HERE / "openapi.yaml"
INVENTORY_PATH = HERE / "inventory.yaml"


def load_document(path: str | Path = DOCUMENT_PATH) -> dict[str, Any]:
    """Parse an OpenAPI document (YAML or JSON) into plain Python data."""
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@cache
def document() -> dict[str, Any]:
    """The project's own document, parsed once per process. Callers must not mutate it."""
    return load_document(DOCUMENT_PATH)


def load_inventory(path: str | Path = INVENTORY_PATH) -> list[dict[str, str]]:
    """The method+path pairs the spec requires, as [{method, path, name}]."""
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)["operations"]
