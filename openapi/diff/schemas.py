"""Schema rules: what a schema edit does to the values it accepts (tighten, loosen, both, ...).

A schema is read as a view: the schema and its `allOf` members, `$ref`s followed, so a field moved
into a shared component or a component renamed compares equal.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..refs import MISSING, esc
from .model import Effect, Finding, combine, opposite
from .sides import Side, Stability, View, canon, dict_, list_, show


def _first(view: View, keyword: str) -> tuple[Any, str | None]:
    """The first value of `keyword` among the parts, and its pointer."""
    for node, ptr in view:
        if keyword in node:
            return node[keyword], f"{ptr}/{keyword}"
    return None, None


def _at(old: View, new: View, keyword: str) -> str:
    """Where a keyword's change is reported: in the new schema if it has the keyword there."""
    _, where = _first(new, keyword)
    if where is None:
        _, where = _first(old, keyword)
    return where or _node_ptr(new) or _node_ptr(old)


def _node_ptr(view: View) -> str:
    return view[0][1] if view else ""


def _types(view: View) -> set[str] | None:
    value, _ = _first(view, "type")
    if value is None:
        return None
    return {str(v) for v in value} if isinstance(value, list) else {str(value)}


def _accepts(types: set[str], kind: str) -> bool:
    return kind in types or (kind == "integer" and "number" in types)


def _nullable(view: View) -> bool:
    return any(node.get("nullable") is True for node, _ in view)


def _enum(view: View) -> dict[str, Any] | None:
    value, _ = _first(view, "enum")
    if not isinstance(value, list):
        return None
    return {canon(v): v for v in value if v is not None}


def _required(view: View) -> dict[str, str]:
    """Required names -> pointer of the `required` list naming them."""
    names: dict[str, str] = {}
    for node, ptr in view:
        for name in list_(node.get("required")):
            names.setdefault(str(name), f"{ptr}/required")
    return names


def _properties(view: View) -> dict[str, list[tuple[Any, str]]]:
    properties: dict[str, list[tuple[Any, str]]] = {}
    for node, ptr in view:
        for name, schema in dict_(node.get("properties")).items():
            properties.setdefault(str(name), []).append((schema, f"{ptr}/properties/{esc(name)}"))
    return properties


def _additional(view: View) -> tuple[str, Any, str | None]:
    """("closed" | "schema" | "open", the schema, its pointer)."""
    found: tuple[str, Any, str | None] = ("open", None, None)
    for node, ptr in view:
        value = node.get("additionalProperties", MISSING)
        if value is False:
            return "closed", None, f"{ptr}/additionalProperties"
        if isinstance(value, dict) and found[0] == "open":
            found = ("schema", value, f"{ptr}/additionalProperties")
    return found


# (keyword, lower bound?, its exclusive flag, zero means none)
_BOUNDS = (
    ("minimum", True, "exclusiveMinimum", False),
    ("maximum", False, "exclusiveMaximum", False),
    ("minLength", True, None, True),
    ("maxLength", False, None, False),
    ("minItems", True, None, True),
    ("maxItems", False, None, False),
    ("minProperties", True, None, True),
    ("maxProperties", False, None, False),
)


def _bound(view: View, keyword: str, lower: bool, exclusive: str | None, zero_is_none: bool) -> Any:
    """The tightest bound the parts set, as a comparable (value, exclusive) pair; None when unbounded."""
    best = None
    for node, _ in view:
        value = node.get(keyword)
        if isinstance(value, bool) or not isinstance(value, int | float) or (zero_is_none and value == 0):
            continue
        strict = bool(exclusive and node.get(exclusive) is True)
        candidate = (value, strict) if lower else (-value, strict)
        best = candidate if best is None else max(best, candidate)
    return best


def _bound_text(bound: Any, lower: bool) -> str:
    if bound is None:
        return "none"
    value = bound[0] if lower else -bound[0]
    return f"{value} (exclusive)" if bound[1] else str(value)


class Schemas:
    """Compares schema views of the two documents; results are kept per pair of locations."""

    def __init__(self, old: Side, new: Side, stable: Stability) -> None:
        self.old, self.new, self.stable = old, new, stable
        self.memo: dict[tuple[tuple[str, ...], tuple[str, ...]], list[Finding]] = {}
        self.active: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()

    def compare(self, old: View, new: View) -> list[Finding]:
        key = (tuple(ptr for _, ptr in old), tuple(ptr for _, ptr in new))
        if key in self.memo:
            return self.memo[key]
        if key[0] == key[1] and all(map(self.stable, key[1])):
            return []
        if key in self.active:
            return []  # a recursive schema: its changes are reported where the recursion began
        self.active.add(key)
        try:
            findings = list(self._compare(old, new))
        finally:
            self.active.discard(key)
        self.memo[key] = findings
        return findings

    def _compare(self, old: View, new: View) -> Iterator[Finding]:
        yield from self._type(old, new)
        yield from self._nullable(old, new)
        yield from self._enum(old, new)
        yield from self._replaceable(old, new, "format", "format-changed")
        yield from self._replaceable(old, new, "pattern", "pattern-changed")
        yield from self._replaceable(old, new, "multipleOf", "multiple-of")
        yield from self._bounds(old, new)
        yield from self._flag(old, new, "uniqueItems", "unique-items", Effect.TIGHTEN)
        yield from self._flag(old, new, "deprecated", "deprecated", Effect.NEUTRAL)
        yield from self._default(old, new)
        yield from self._properties(old, new)
        yield from self._additional(old, new)
        yield from self._items(old, new)
        for keyword in ("oneOf", "anyOf"):
            yield from self._alternatives(old, new, keyword)
        yield from self._not(old, new)

    def _type(self, old: View, new: View) -> Iterator[Finding]:
        before, after = _types(old), _types(new)
        if before == after:
            return
        where = _at(old, new, "type")
        if before is None:
            yield Finding(
                where, "type-changed", f"type restricted to {show(sorted(after or ()))}", Effect.TIGHTEN
            )
            return
        if after is None:
            yield Finding(
                where, "type-changed", f"type {show(sorted(before))} no longer enforced", Effect.LOOSEN
            )
            return
        widens = all(_accepts(after, kind) for kind in before)
        narrows = all(_accepts(before, kind) for kind in after)
        effect = Effect.LOOSEN if widens else Effect.TIGHTEN if narrows else Effect.BOTH
        message = f"type changed from {show(sorted(before))} to {show(sorted(after))}"
        yield Finding(where, "type-changed", message, effect)

    def _nullable(self, old: View, new: View) -> Iterator[Finding]:
        before, after = _nullable(old), _nullable(new)
        if before != after:
            where = _at(old, new, "nullable")
            if after:
                yield Finding(where, "nullable", "made nullable (null is now allowed)", Effect.LOOSEN)
            else:
                yield Finding(where, "nullable", "no longer nullable (null is now refused)", Effect.TIGHTEN)

    def _enum(self, old: View, new: View) -> Iterator[Finding]:
        before, after = _enum(old), _enum(new)
        if before == after:
            return
        where = _at(old, new, "enum")
        if after is not None and before is None:
            message = f"restricted to the enum {show(after.values())}"
            yield Finding(where, "enum-value-removed", message, Effect.TIGHTEN)
        elif after is None:
            yield Finding(where, "enum-value-added", "enum removed: any value is allowed", Effect.LOOSEN)
        elif before is not None:
            added = [after[key] for key in after if key not in before]
            removed = [before[key] for key in before if key not in after]
            if added:
                yield Finding(where, "enum-value-added", f"enum value(s) added: {show(added)}", Effect.LOOSEN)
            if removed:
                message = f"enum value(s) removed: {show(removed)}"
                yield Finding(where, "enum-value-removed", message, Effect.TIGHTEN)

    def _replaceable(self, old: View, new: View, keyword: str, rule: str) -> Iterator[Finding]:
        before, _ = _first(old, keyword)
        after, _ = _first(new, keyword)
        if before == after:
            return
        where = _at(old, new, keyword)
        if before is None:
            yield Finding(where, rule, f"{keyword} {json.dumps(after)} added", Effect.TIGHTEN)
        elif after is None:
            yield Finding(where, rule, f"{keyword} {json.dumps(before)} removed", Effect.LOOSEN)
        else:
            message = f"{keyword} changed from {json.dumps(before)} to {json.dumps(after)}"
            yield Finding(where, rule, message, Effect.BOTH)

    def _bounds(self, old: View, new: View) -> Iterator[Finding]:
        for keyword, lower, exclusive, zero_is_none in _BOUNDS:
            before = _bound(old, keyword, lower, exclusive, zero_is_none)
            after = _bound(new, keyword, lower, exclusive, zero_is_none)
            if before == after:
                continue
            tighter = before is None or (after is not None and after > before)
            message = f"{keyword} changed from {_bound_text(before, lower)} to {_bound_text(after, lower)}"
            rule, effect = (
                ("bound-tightened", Effect.TIGHTEN) if tighter else ("bound-loosened", Effect.LOOSEN)
            )
            yield Finding(_at(old, new, keyword), rule, message, effect)

    def _flag(self, old: View, new: View, keyword: str, rule: str, when_set: Effect) -> Iterator[Finding]:
        before = any(node.get(keyword) is True for node, _ in old)
        after = any(node.get(keyword) is True for node, _ in new)
        if before != after:
            effect = when_set if after else opposite(when_set)
            yield Finding(_at(old, new, keyword), rule, f"{keyword} {'set' if after else 'unset'}", effect)

    def _default(self, old: View, new: View) -> Iterator[Finding]:
        before, _ = _first(old, "default")
        after, _ = _first(new, "default")
        if before is not None and after is not None and canon(before) != canon(after):
            message = f"default changed from {json.dumps(before)} to {json.dumps(after)}"
            yield Finding(_at(old, new, "default"), "default-changed", message, Effect.MEANING)

    def _properties(self, old: View, new: View) -> Iterator[Finding]:
        old_props, new_props = _properties(old), _properties(new)
        old_required, new_required = _required(old), _required(new)
        old_closed, new_closed = _additional(old)[0] == "closed", _additional(new)[0] == "closed"
        for name in sorted(old_props.keys() | new_props.keys()):
            if name not in old_props:
                site = new_props[name][0][1]
                if name in new_required:
                    message, effect = f"required property `{name}` added", Effect.TIGHTEN
                else:
                    effect = Effect.LOOSEN if old_closed else Effect.OBLIGATION
                    message = f"optional property `{name}` added"
                yield Finding(site, "property-added", message, effect)
            elif name not in new_props:
                site = old_props[name][0][1]
                was_required = name in old_required
                effect = combine(
                    Effect.TIGHTEN if new_closed else Effect.LOOSEN,
                    Effect.LOOSEN if was_required else Effect.NEUTRAL,
                )
                message = f"{'required' if was_required else 'optional'} property `{name}` removed"
                yield Finding(site, "property-removed", message, effect)
            else:
                site = new_props[name][0][1]
                yield from self._required_flip(name, site, old_required, new_required)
                yield from self.compare(
                    self._view(self.old, old_props[name]), self._view(self.new, new_props[name])
                )
        for name in sorted((old_required.keys() ^ new_required.keys()) - old_props.keys() - new_props.keys()):
            where = new_required.get(name) or old_required[name]
            yield from self._required_flip(name, where, old_required, new_required)

    def _required_flip(
        self, name: str, where: str, old_required: dict[str, str], new_required: dict[str, str]
    ) -> Iterator[Finding]:
        if name in new_required and name not in old_required:
            yield Finding(where, "required-added", f"`{name}` is now required", Effect.TIGHTEN, subject=name)
        elif name in old_required and name not in new_required:
            message = f"`{name}` is no longer required"
            yield Finding(where, "required-removed", message, Effect.LOOSEN, subject=name)

    def _view(self, document: Side, entries: list[tuple[Any, str]]) -> View:
        return tuple(part for node, ptr in entries for part in document.view(node, ptr))

    def _sub(self, document: Side, view: View, keyword: str) -> View:
        return self._view(
            document, [(node[keyword], f"{ptr}/{keyword}") for node, ptr in view if keyword in node]
        )

    def _additional(self, old: View, new: View) -> Iterator[Finding]:
        (before, old_schema, old_ptr), (after, new_schema, new_ptr) = _additional(old), _additional(new)
        where = new_ptr or old_ptr or _node_ptr(new)
        if before == after == "schema":
            yield from self.compare(
                self.old.view(old_schema, old_ptr or ""), self.new.view(new_schema, new_ptr or "")
            )
        elif before != after:
            order = {"closed": 0, "schema": 1, "open": 2}
            effect = Effect.TIGHTEN if order[after] < order[before] else Effect.LOOSEN
            message = f"additionalProperties changed from {before} to {after}"
            yield Finding(where, "additional-properties", message, effect)

    def _items(self, old: View, new: View) -> Iterator[Finding]:
        before, after = self._sub(self.old, old, "items"), self._sub(self.new, new, "items")
        if before or after:
            yield from self.compare(before, after)

    def _alternatives(self, old: View, new: View, keyword: str) -> Iterator[Finding]:
        """oneOf/anyOf: the same alternatives in any order are the same; the others are paired in order."""
        before, old_ptr = _first(old, keyword)
        after, new_ptr = _first(new, keyword)
        before, after = list_(before), list_(after)
        new_prints = [self.new.fingerprint(node) for node in after]
        unmatched_new = list(range(len(after)))
        unmatched_old = []
        for index, node in enumerate(before):
            old_print = self.old.fingerprint(node)
            twin = next((j for j in unmatched_new if new_prints[j] == old_print), None)
            if twin is None:
                unmatched_old.append(index)
            else:
                unmatched_new.remove(twin)
        views = [self.new.view(after[j], f"{new_ptr}/{j}") for j in range(len(after))]
        for i, j in zip(unmatched_old, unmatched_new, strict=False):
            yield from self.compare(self.old.view(before[i], f"{old_ptr}/{i}"), views[j])
        for j in unmatched_new[len(unmatched_old) :]:
            yield self._added(keyword, j, f"{new_ptr}/{j}", views)
        for i in unmatched_old[len(unmatched_new) :]:
            message = f"{keyword} alternative {i} removed"
            yield Finding(f"{old_ptr}/{i}", "alternative-removed", message, Effect.TIGHTEN)

    def _added(self, keyword: str, index: int, where: str, views: list[View]) -> Finding:
        message = f"{keyword} alternative {index} added"
        if keyword == "anyOf":
            return Finding(where, "alternative-added", message, Effect.LOOSEN)
        kinds = [_types(view) for view in views]
        mine = kinds[index]
        others = [kind for position, kind in enumerate(kinds) if position != index]
        if mine is not None and all(
            other is not None
            and not any(_accepts(other, k) for k in mine)
            and not any(_accepts(mine, k) for k in other)
            for other in others
        ):
            return Finding(where, "alternative-added", f"{message} (of a type no other has)", Effect.LOOSEN)
        message += ": a payload may now match it and another one, which oneOf refuses"
        return Finding(where, "alternative-added", message, Effect.BOTH, undecided=True)

    def _not(self, old: View, new: View) -> Iterator[Finding]:
        before, _ = _first(old, "not")
        after, _ = _first(new, "not")
        if before is None and after is None:
            return
        if self.old.fingerprint(before) == self.new.fingerprint(after):
            return
        where = _at(old, new, "not")
        if before is None:
            yield Finding(
                where, "not-changed", "`not` added: payloads matching it are refused", Effect.TIGHTEN
            )
        elif after is None:
            yield Finding(where, "not-changed", "`not` removed", Effect.LOOSEN)
        else:
            yield Finding(where, "not-changed", "`not` changed", Effect.BOTH, undecided=True)
