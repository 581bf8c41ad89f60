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
    # a webhook's or a callback's operation (called by the server): "WEBHOOK <name>", "CALLBACK <op> <name>
    # <expression>"; empty for the operations of `paths`
    prefix: str = ""

    @property
    def parts(self) -> Parts:
        return (*self.item.parts, self.method)

    @property
    def ptr(self) -> str:
        return pointer(self.parts)

    @property
    def label(self) -> str:
        if self.prefix:
            return f"{self.prefix} {self.method.upper()}"
        return f"{self.method.upper()} {self.path}"

    @property
    def key(self) -> tuple[str, str]:
        """What identifies the operation on the wire: method and path shape (a webhook: its name)."""
        return self.method.upper(), self.prefix or shape(self.path)

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


def _items(document: dict[str, Any], parent: Parts, items: Any) -> Iterator[PathItem]:
    """The path items of a map (`paths`, `webhooks`, a callback), each read where its `$ref` points."""
    resolver = Resolver(document)
    for name, item in items.items() if isinstance(items, dict) else ():
        written: Parts = (*parent, str(name))
        chased = resolver.chase(item, pointer(written))
        parts = parts_of(chased.where) if chased.node is not item and chased.why is None else None
        if isinstance(chased.node, dict):
            yield PathItem(str(name), chased.node, written if parts is None else parts)


def _methods(item: PathItem, prefix: str) -> list[Operation]:
    return [
        Operation(item.path, method, node, item, prefix)
        for method, node in item.node.items()
        if method in HTTP_METHODS and isinstance(node, dict)
    ]


def webhooks(document: dict[str, Any]) -> list[Operation]:
    """The operations of OpenAPI 3.1 `webhooks` (the API server calls them), in document order."""
    found: list[Operation] = []
    for item in _items(document, ("webhooks",), document.get("webhooks")):
        if not item.path.startswith("x-"):
            found.extend(_methods(item, f"WEBHOOK {item.path}"))
    return found


def callbacks(document: dict[str, Any], operation: Operation) -> list[tuple[str, Operation]]:
    """(callback name, operation) of `operation`'s callbacks (the API server calls them); the
    operation's path is the callback's expression."""
    resolver = Resolver(document)
    found: list[tuple[str, Operation]] = []
    written = operation.node.get("callbacks")
    for name, callback in written.items() if isinstance(written, dict) else ():
        chased = resolver.chase(callback, pointer((*operation.parts, "callbacks", str(name))))
        parts = parts_of(chased.where) if chased.why is None else None
        if parts is None or not isinstance(chased.node, dict):
            continue
        for item in _items(document, parts, chased.node):
            if not item.path.startswith("x-"):
                prefix = f"CALLBACK {operation.label} {name} {item.path}"
                found.extend((str(name), op) for op in _methods(item, prefix))
    return found
