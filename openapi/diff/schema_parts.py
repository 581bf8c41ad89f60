"""Reading a schema view (`sides.View`: a schema's parts in the normal form, normalize.py): the value of
a keyword among the parts, where it is written, the types, bounds and properties it sets.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..refs import MISSING, esc
from .model import Effect, Finding, opposite
from .normalize import BRANCHES, NULLABLE, ORIGIN, SKIP, UNIONS, WRAPPED
from .sides import View, canon, dict_, list_

if TYPE_CHECKING:
    from .schemas import Schemas


def first(view: View, keyword: str) -> tuple[Any, str | None]:
    """The first value of `keyword` among the parts, and the pointer of the keyword as written."""
    for node, ptr in view:
        if keyword in node:
            return node[keyword], f"{ptr}/{dict_(node.get(ORIGIN)).get(keyword, keyword)}"
    return None, None


def written(view: View, keyword: str) -> Any:
    """The first value of `keyword` among the parts, `MISSING` when none has it (`null` is a value)."""
    for node, _ in view:
        if keyword in node:
            return node[keyword]
    return MISSING


def values(view: View, keyword: str) -> list[str]:
    """Every value of `keyword` among the parts, as text (for keywords compared as written)."""
    return [canon(node[keyword]) for node, _ in view if keyword in node]


def at(old: View, new: View, *keywords: str) -> str:
    """Where a keyword's change is reported: in the new schema if it has the keyword there."""
    for view in (new, old):
        for keyword in keywords:
            _, where = first(view, keyword)
            if where is not None:
                return where
    return node_ptr(new) or node_ptr(old)


def node_ptr(view: View) -> str:
    return view[0][1] if view else ""


def types(view: View) -> set[str] | None:
    """The types the first `type` allows, "null" aside (it is `nullable`) unless it is all there is."""
    value, _ = first(view, "type")
    if value is None:
        return None
    names = {str(v) for v in list_(value)}
    return names - {"null"} or names


def accepts(kinds: set[str], kind: str) -> bool:
    return kind in kinds or (kind == "integer" and "number" in kinds)


# Types whose values a style-encoded parameter writes as text: `type: string` matches all of them.
TEXTUAL = frozenset({"string", "integer", "number", "boolean"})


def accepts_text(kinds: set[str], kind: str) -> bool:
    """`accepts` for a value written as text (a path, query, header or cookie parameter)."""
    return accepts(kinds, kind) or ("string" in kinds and kind in TEXTUAL)


def overlap(left: set[str], right: set[str]) -> bool:
    return any(accepts(right, kind) for kind in left) or any(accepts(left, kind) for kind in right)


def nullable(view: View) -> bool:
    return any(node.get(NULLABLE) is True for node, _ in view)


def null_in_enum(view: View) -> bool | None:
    """Whether the first `enum` lists null; None when there is no enum."""
    value, _ = first(view, "enum")
    return _null_in(value)


def _null_in(value: Any) -> bool | None:
    return any(v is None for v in value) if isinstance(value, list) else None


def admits_null(view: View, depth: int = 0) -> bool:
    """Whether null is valid: every part admits it (the parts are a conjunction: the schema and its
    allOf members), a part when its `type` is absent or nullable (3.1 `type: [T, "null"]`, 3.0
    `nullable: true` beside a `type`), its `enum` is absent or lists null, and its `anyOf` has a
    branch that admits null (`oneOf`: exactly one). A nullable wrap's branch (`Side.view`) is that
    union's alternative to null, not a part of the conjunction."""
    if depth > _DEPTH:
        return False  # a cycle of unions: read as not nullable
    wrapped: set[int] = set()
    for node, _ in view:
        for ids in dict_(node.get(WRAPPED)).values():
            wrapped |= ids
    return all(_part_admits_null(node, view, depth) for node, _ in view if id(node) not in wrapped)


_DEPTH = 8
_TYPED_NULL = frozenset({"type", NULLABLE})  # where a nullable type came from (normalize.normal)


def _part_admits_null(node: dict[str, Any], view: View, depth: int) -> bool:
    if "type" in node and dict_(node.get(ORIGIN)).get(NULLABLE) not in _TYPED_NULL:
        return False
    if _null_in(node.get("enum")) is False or node.get("not") == {}:
        return False
    for keyword in UNIONS:
        count = len(list_(dict_(node.get(SKIP)).get(keyword)))  # null-only branches
        wrap = dict_(node.get(WRAPPED)).get(keyword)
        branches = dict_(node.get(BRANCHES)).get(keyword)
        if wrap is not None:
            count += admits_null(tuple(part for part in view if id(part[0]) in wrap), depth + 1)
        elif branches is not None:
            count += sum(admits_null(branch, depth + 1) for branch in branches())
        elif keyword not in node:
            continue
        if count == 0 or (keyword == "oneOf" and count > 1):
            return False
    return True


def enum(view: View) -> dict[str, Any] | None:
    value, _ = first(view, "enum")
    if not isinstance(value, list):
        return None
    return {canon(v): v for v in value if v is not None}


def required(view: View) -> dict[str, str]:
    """Required names -> pointer of the `required` list naming them."""
    names: dict[str, str] = {}
    for node, ptr in view:
        for name in list_(node.get("required")):
            names.setdefault(str(name), f"{ptr}/required")
    return names


def properties(view: View) -> dict[str, list[tuple[Any, str]]]:
    found: dict[str, list[tuple[Any, str]]] = {}
    for node, ptr in view:
        for name, schema in dict_(node.get("properties")).items():
            found.setdefault(str(name), []).append((schema, f"{ptr}/properties/{esc(name)}"))
    return found


def additional(view: View, keyword: str = "additionalProperties") -> tuple[str, Any, str | None]:
    """("closed" | "schema" | "open", the schema, its pointer) of additionalProperties or
    unevaluatedProperties/unevaluatedItems (`false` closes; `true` is open)."""
    found: tuple[str, Any, str | None] = ("open", None, None)
    for node, ptr in view:
        value = node.get(keyword, MISSING)
        if value is False:
            return "closed", None, f"{ptr}/{keyword}"
        if isinstance(value, dict) and value != {} and found[0] == "open":
            found = ("schema", value, f"{ptr}/{keyword}")
    return found


def flag(view: View, keyword: str) -> bool:
    return any(node.get(keyword) is True for node, _ in view)


# (keyword as reported, keywords that set it: (name, exclusive), lower bound?, zero means none)
BOUNDS: tuple[tuple[str, tuple[tuple[str, bool], ...], bool, bool], ...] = (
    ("minimum", (("minimum", False), ("exclusiveMinimum", True)), True, False),
    ("maximum", (("maximum", False), ("exclusiveMaximum", True)), False, False),
    ("minLength", (("minLength", False),), True, True),
    ("maxLength", (("maxLength", False),), False, False),
    ("minItems", (("minItems", False),), True, True),
    ("maxItems", (("maxItems", False),), False, False),
    ("minProperties", (("minProperties", False),), True, True),
    ("maxProperties", (("maxProperties", False),), False, False),
)


def bound(view: View, keywords: tuple[tuple[str, bool], ...], lower: bool, zero_is_none: bool) -> Any:
    """The tightest bound the parts set, as a comparable (value, exclusive) pair; None when unbounded."""
    best = None
    for node, _ in view:
        for keyword, strict in keywords:
            value = node.get(keyword)
            if isinstance(value, bool) or not isinstance(value, int | float) or (zero_is_none and value == 0):
                continue
            candidate = (value, strict) if lower else (-value, strict)
            best = candidate if best is None else max(best, candidate)
    return best


def bound_text(value: Any, lower: bool) -> str:
    if value is None:
        return "none"
    number = value[0] if lower else -value[0]
    return f"{number} (exclusive)" if value[1] else str(number)


def replaceable(old: View, new: View, keyword: str, rule: str, before: Any, after: Any) -> Iterator[Finding]:
    """A keyword whose values are not ordered: added tightens, removed loosens, replaced does both."""
    if before == after:
        return
    where = at(old, new, keyword)
    if before is None:
        yield Finding(where, rule, f"{keyword} {json.dumps(after)} added", Effect.TIGHTEN)
    elif after is None:
        yield Finding(where, rule, f"{keyword} {json.dumps(before)} removed", Effect.LOOSEN)
    else:
        message = f"{keyword} changed from {json.dumps(before)} to {json.dumps(after)}"
        yield Finding(where, rule, message, Effect.BOTH)


def flagged(
    old: View, new: View, keyword: str, rule: str, when_set: Effect, **extra: Any
) -> Iterator[Finding]:
    before, after = flag(old, keyword), flag(new, keyword)
    if before != after:
        effect = when_set if after else opposite(when_set)
        yield Finding(
            at(old, new, keyword), rule, f"{keyword} {'set' if after else 'unset'}", effect, **extra
        )


def subschema(s: Schemas, old: View, new: View, keyword: str, rule: str) -> Iterator[Finding]:
    """A keyword holding one schema that only constrains (contains, propertyNames, contentSchema...):
    added tightens, removed loosens, changed is compared inside (with the same sign)."""
    before, after = s.sub(s.old, old, keyword), s.sub(s.new, new, keyword)
    if not before and not after:
        return
    where = at(old, new, keyword)
    if not before:
        yield Finding(where, rule, f"`{keyword}` added", Effect.TIGHTEN)
    elif not after:
        yield Finding(where, rule, f"`{keyword}` removed", Effect.LOOSEN)
    else:
        yield from s.compare(before, after)
