"""The one walk over a document's path items and operations (the linter's rules, the diff)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .refs import Parts, Resolver, parts_of, pointer

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def shape(path: str) -> str:
    """`/v1/items/{item_id}` -> `/v1/items/{}`: the name of a path parameter does not matter."""
    return re.sub(r"\{[^}/]*\}", "{}", path)


@dataclass(frozen=True)
class PathItem:
    path: str
    node: dict[str, Any]
    parts: Parts  # where the item is written: ("paths", path), or the target of its `$ref`


@dataclass(frozen=True)
class Operation:
    path: str
    method: str
    node: dict[str, Any]
    item: PathItem

    @property
    def parts(self) -> Parts:
        return (*self.item.parts, self.method)

    @property
    def ptr(self) -> str:
        return pointer(self.parts)

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the operation on the wire: method and path shape."""
        return self.method.upper(), shape(self.path)

    @property
    def path_names(self) -> list[str]:
        return re.findall(r"\{([^}/]*)\}", self.path)

    @property
    def operation_id(self) -> str:
        return str(self.node.get("operationId", ""))

    @property
    def summary(self) -> str:
        return str(self.node.get("summary", ""))


def path_items(document: dict[str, Any]) -> Iterator[PathItem]:
    """The path items under `paths`; one given by a local `$ref` is read where it points."""
    paths = document.get("paths")
    resolver = Resolver(document)
    for path, item in paths.items() if isinstance(paths, dict) else ():
        written: Parts = ("paths", str(path))
        chased = resolver.chase(item, pointer(written))
        parts = parts_of(chased.where) if chased.node is not item and chased.why is None else None
        if isinstance(chased.node, dict):
            yield PathItem(str(path), chased.node, written if parts is None else parts)


def operations(document: dict[str, Any]) -> list[Operation]:
    """Every operation of the document, in document order."""
    return [
        Operation(item.path, method, node, item)
        for item in path_items(document)
        for method, node in item.node.items()
        if method in HTTP_METHODS and isinstance(node, dict)
    ]
