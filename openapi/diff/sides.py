"""One side of the diff: a document with its operations (openapi.walk), `$ref`s (openapi.refs) and
schema views, and which parts of it are unchanged from the other side.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ..refs import Resolver, at
from ..walk import Operation, operations
from .normalize import (
    BRANCHES,
    LONE,
    NULLABLE,
    ORIGIN,
    PRIVATE,
    SKIP,
    UNIONS,
    WRAPPED,
    boolean,
    is_31,
    normal,
    only_null,
)

View = tuple[tuple[dict[str, Any], str], ...]  # a schema and its allOf members: (node, pointer) each


def canon(value: Any) -> str:
    """One text per JSON value, whatever the order of its keys."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def same(left: Any, right: Any) -> bool:
    """Whether two JSON values are equal as JSON: Python's `==` holds `0 == False` and `1 == 1.0`,
    so equal ones are also compared as text (only then: `==` is the fast, usual refusal)."""
    if left is right:  # one object (or both absent: MISSING)
        return True
    return left == right and canon(left) == canon(right)


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
        self.v31 = is_31(self.data)
        self.operations: dict[tuple[str, str], Operation] = {}
        for operation in operations(self.data):
            self.operations.setdefault(operation.key, operation)
        self.by_id = {op.operation_id: op for op in self.operations.values() if op.operation_id}
        self.memo: dict[str, Any] = {}  # what is computed once per document (op_document.targets)

    def deref(self, node: Any, ptr: str) -> tuple[Any, str]:
        """`node` (found at `ptr`) with its chain of local `$ref`s followed; a loop stops where it closes."""
        chased = self.resolver.chase(node, ptr)
        return chased.node, chased.where

    def view(self, node: Any, ptr: str) -> View:
        """The schema at `ptr` as its parts, each in the normal form (normalize.py): the schema, its
        `allOf` members (recursively), references followed. In 3.1 a `$ref` with sibling keywords is
        the siblings and the target (3.0 ignores the siblings). Branches of `oneOf`/`anyOf` that only
        allow null are the nullable marker; a nullable wrap (`oneOf: [{type: 'null'}, X]`, 3.0
        `nullable: true` with `oneOf: [X]`) is X (and the marker if null is a branch), so it compares
        with X branch by branch.
        """
        parts: list[tuple[dict[str, Any], str]] = []
        self._collect(node, ptr, frozenset(), parts)
        return tuple(parts)

    def _collect(
        self, node: Any, ptr: str, seen: frozenset[str], parts: list[tuple[dict[str, Any], str]]
    ) -> None:
        if isinstance(node, bool) and self.v31:
            parts.append((boolean(node), ptr))
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            if self.v31 and len(node) > 1:
                self._collect({k: v for k, v in node.items() if k != "$ref"}, ptr, seen, parts)
            target, where, why = self.resolver.lookup(node["$ref"])
            if why is not None:  # unresolvable: compared as written
                parts.append((normal({"$ref": node["$ref"]}, self.v31), ptr))
            elif f"$ref {where}" not in seen:  # else a loop of references
                self._collect(target, where, seen | {f"$ref {where}"}, parts)
            return
        if ptr in seen:  # an allOf cycle
            return
        seen = seen | {ptr}
        normalised = normal(node, self.v31)
        parts.append((normalised, ptr))
        for index, member in enumerate(list_(node.get("allOf"))):
            self._collect(member, f"{ptr}/allOf/{index}", seen, parts)
        # 3.0's `nullable: true` beside a union of one branch: the usual wrapper of a `$ref`, which
        # admits null only when its `type` does (normalize.py) but is read as that branch
        wrapper = not self.v31 and node.get(NULLABLE) is True
        for keyword in UNIONS:
            if keyword in node:
                self._union(normalised, keyword, list_(node[keyword]), ptr, seen, parts, wrapper)

    def _union(
        self,
        normalised: dict[str, Any],
        keyword: str,
        branches: list[Any],
        ptr: str,
        seen: frozenset[str],
        parts: list[tuple[dict[str, Any], str]],
        wrapper: bool,
    ) -> None:
        """Null-only branches are the nullable marker (the type's own marker keeps its origin). A
        nullable wrap (one branch left beside null, a nullable type or 3.0's `nullable`) is that
        branch, a member of the view, and with null beside it the parts it adds are noted: they are
        an alternative to null, not a constraint on it (`admits_null`). Other unions keep their
        branches, viewed when asked (a plain `oneOf: [X]` too: its branch is paired with the other
        side's branches, which the top-level rules cannot see)."""
        nulls = [i for i, branch in enumerate(branches) if self._only_null(branch)]
        if nulls:
            normalised[NULLABLE] = True
            normalised.setdefault(ORIGIN, {}).setdefault(NULLABLE, keyword)
            normalised.setdefault(SKIP, {})[keyword] = nulls
        rest = [i for i in range(len(branches)) if i not in nulls]
        if len(rest) == 1 and (wrapper or normalised.get(NULLABLE) is True):
            del normalised[keyword]
            normalised.setdefault(LONE, {})[keyword] = (rest[0], branches[rest[0]])
            start = len(parts)
            self._collect(branches[rest[0]], f"{ptr}/{keyword}/{rest[0]}", seen, parts)
            if nulls:
                ids = frozenset(id(part) for part, _ in parts[start:])
                normalised.setdefault(WRAPPED, {})[keyword] = ids
            return
        where = [(branches[i], f"{ptr}/{keyword}/{i}") for i in rest]
        normalised.setdefault(BRANCHES, {})[keyword] = lambda: [self.view(b, at_) for b, at_ in where]

    def _only_null(self, branch: Any) -> bool:
        node, _ = self.deref(branch, "")
        return isinstance(node, dict) and only_null(normal(node, self.v31))

    def fingerprint(self, node: Any) -> str:
        """The schema `node` as one text per meaning (`inline`)."""
        return canon(inline(node, self.resolver))

    def unions(self, node: dict[str, Any], keyword: str) -> list[int]:
        """The indexes of the branches of a union that are compared as branches (not null-only)."""
        skip = dict_(node.get(SKIP)).get(keyword, [])
        return [i for i in range(len(list_(node.get(keyword)))) if i not in skip]

    def security(self, operation: Operation) -> tuple[list[Any], str]:
        """The operation's security requirements and where they are written."""
        if "security" in operation.node:
            return list_(operation.node["security"]), f"{operation.ptr}/security"
        return list_(self.data.get("security")), "/security"


# Keywords that annotate and never change which payloads are valid.
ANNOTATIONS = frozenset(
    {"description", "title", "examples", "externalDocs", "deprecated", "xml", "discriminator", "$comment"}
)
# Subschema places: one schema, a name -> schema map, a list of schemas (JSON Schema 2020-12 and 3.0).
ONE = ("items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames")
ONE_MORE = ("unevaluatedItems", "unevaluatedProperties", "contentSchema")
MAPS = ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions")
LISTS = ("allOf", "oneOf", "anyOf", "prefixItems")
SETS = ("required", "enum", "type")


def inline(schema: Any, resolver: Resolver, active: frozenset[str] = frozenset()) -> Any:
    """The schema with `$ref`s replaced by their targets, every node in the normal form (normalize.py),
    annotations and extensions dropped, and `required`, `enum` and `type` sorted (sets: their order
    means nothing), for `canon` to compare.

    A `$ref` met again below itself (a recursive schema) stays a `$ref`.
    """
    return _inline(schema, resolver, is_31(resolver.document), active)


def _inline(schema: Any, resolver: Resolver, v31: bool, active: frozenset[str]) -> Any:
    if isinstance(schema, bool) and v31:
        return boolean(schema)
    if not isinstance(schema, dict):
        return schema
    if isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        if ref in active:
            return {"$ref": ref}
        target = resolver.deref({"$ref": ref})
        if not isinstance(target, dict | bool):
            return schema
        inlined = _inline(target, resolver, v31, active | {ref})
        if v31 and len(schema) > 1:
            siblings = _inline({k: v for k, v in schema.items() if k != "$ref"}, resolver, v31, active)
            return {"allOf": [siblings, inlined]}
        return inlined
    out: dict[str, Any] = {}
    for key, value in normal(schema, v31).items():
        if key in ANNOTATIONS or key in PRIVATE or key.startswith("x-"):
            continue
        if key in MAPS and isinstance(value, dict):
            out[key] = {name: _inline(sub, resolver, v31, active) for name, sub in value.items()}
        elif key in ONE or key in ONE_MORE:
            out[key] = _inline(value, resolver, v31, active)
        elif key in LISTS and isinstance(value, list):
            out[key] = [_inline(sub, resolver, v31, active) for sub in value]
        elif key in SETS and isinstance(value, list):
            out[key] = sorted(value, key=canon)
        else:
            out[key] = value
    for keyword in UNIONS:  # null-only branches are the nullable marker; a wrap's one branch is a member
        if keyword not in out:
            continue
        kept = [b for b in out[keyword] if not (isinstance(b, dict) and only_null(b))]
        if len(kept) < len(out[keyword]):
            out[NULLABLE] = True
        out[keyword] = kept
        if len(kept) == 1 and (out.get(NULLABLE) or (not v31 and schema.get(NULLABLE) is True)):
            del out[keyword]
            out["allOf"] = [*list_(out.get("allOf")), *kept]
    return out


class Stability:
    """Whether the text at a pointer is the same in both documents, and so is all it references.

    Most edits touch a few lines: what they do not reach is skipped without being compared.
    A cycle of references counts as changed (compared in full, which is always right).
    """

    def __init__(self, old: Side, new: Side) -> None:
        self.old, self.new = old, new
        self.known: dict[str, bool] = {}
        self.equal: set[str] = set()  # pointers whose text is the same on both sides

    def __call__(self, ptr: str) -> bool:
        if ptr not in self.known:
            self.known[ptr] = False  # while it is being decided: a cycle is not stable
            node = at(self.new.data, ptr)
            self.known[ptr] = (
                self._same_text(ptr, node)
                and all(  # absent from both: stable
                    self(ref[1:]) for ref in local_refs(node)
                )
            )
        return self.known[ptr]

    def _same_text(self, ptr: str, node: Any) -> bool:
        """Whether the text at `ptr` is the same on both sides: known when a node above it is."""
        cut = ptr.rfind("/")
        while cut > 0:
            if ptr[:cut] in self.equal:
                return True
            cut = ptr.rfind("/", 0, cut)
        if not same(node, at(self.old.data, ptr)):
            return False
        self.equal.add(ptr)
        return True


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
