"""One side of the diff: a document with its operations (openapi.walk), `$ref`s (openapi.refs) and
schema views, and which parts of it are unchanged from the other side.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..refs import Resolver, at
from ..walk import Operation, operations

View = tuple[tuple[dict[str, Any], str], ...]  # a schema and its allOf members: (node, pointer) each


def canon(value: Any) -> str:
    """One text per JSON value, whatever the order of its keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def show(values: Iterable[Any]) -> str:
    return ", ".join(json.dumps(value) for value in values)


def dict_(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def list_(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


class Side:
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data if isinstance(data, dict) else {}
        self.resolver = Resolver(self.data)
        self.operations: dict[tuple[str, str], Operation] = {}
        for operation in operations(self.data):
            self.operations.setdefault(operation.key, operation)
        self.by_id = {op.operation_id: op for op in self.operations.values() if op.operation_id}

    def deref(self, node: Any, ptr: str) -> tuple[Any, str]:
        """`node` (found at `ptr`) with its chain of local `$ref`s followed; a loop stops where it closes."""
        chased = self.resolver.chase(node, ptr)
        return chased.node, chased.where

    def view(self, node: Any, ptr: str, seen: frozenset[str] = frozenset()) -> View:
        """The schema at `ptr` with its `allOf` members (recursively), references followed."""
        node, ptr = self.deref(node, ptr)
        if not isinstance(node, dict) or ptr in seen:
            return ()
        parts: list[tuple[dict[str, Any], str]] = [(node, ptr)]
        for index, member in enumerate(list_(node.get("allOf"))):
            parts.extend(self.view(member, f"{ptr}/allOf/{index}", seen | {ptr}))
        return tuple(parts)

    def fingerprint(self, node: Any) -> str:
        """The schema `node` as one text per meaning (`inline`)."""
        return canon(inline(node, self.resolver))

    def security(self, operation: Operation) -> tuple[list[Any], str]:
        """The operation's security requirements and where they are written."""
        if "security" in operation.node:
            return list_(operation.node["security"]), f"{operation.ptr}/security"
        return list_(self.data.get("security")), "/security"


# Keywords that annotate and never change which payloads are valid.
ANNOTATIONS = frozenset(
    {"description", "title", "example", "examples", "externalDocs", "deprecated", "xml", "discriminator"}
)


def inline(schema: Any, resolver: Resolver, active: frozenset[str] = frozenset()) -> Any:
    """The schema with `$ref`s replaced by their targets, annotations and extensions dropped, and
    `required` and `enum` sorted (sets: their order means nothing), for `canon` to compare.

    A `$ref` met again below itself (a recursive schema) stays a `$ref`.
    """
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        if ref in active:
            return {"$ref": ref}
        target = resolver.deref(schema)
        return inline(target, resolver, active | {ref}) if isinstance(target, dict) else schema
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ANNOTATIONS or key.startswith("x-"):
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: inline(sub, resolver, active) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "not"):
            out[key] = inline(value, resolver, active)
        elif key in ("allOf", "oneOf", "anyOf") and isinstance(value, list):
            out[key] = [inline(sub, resolver, active) for sub in value]
        elif key in ("required", "enum") and isinstance(value, list):
            out[key] = sorted(value, key=canon)
        else:
            out[key] = value
    return out


class Stability:
    """Whether the text at a pointer is the same in both documents, and so is all it references.

    Most edits touch a few lines: what they do not reach is skipped without being compared.
    A cycle of references counts as changed (compared in full, which is always right).
    """

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new = old, new
        self.known: dict[str, bool] = {}

    def __call__(self, ptr: str) -> bool:
        if ptr not in self.known:
            self.known[ptr] = False  # while it is being decided: a cycle is not stable
            node = at(self.new.data, ptr)
            self.known[ptr] = (
                node == at(self.old.data, ptr)
                and all(  # absent from both: stable
                    self(ref[1:]) for ref in local_refs(node)
                )
            )
        return self.known[ptr]


def local_refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            yield ref
        for value in node.values():
            yield from local_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from local_refs(value)
