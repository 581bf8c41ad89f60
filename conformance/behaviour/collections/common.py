"""Helpers the collections checks of several families share."""

from __future__ import annotations

from typing import Any

from ...http import Session, ids_of


def collection_ids(s: Session, params: dict[str, Any] | None = None) -> list[Any]:
    return ids_of(s.listing("/v1/collections", params or {}))
