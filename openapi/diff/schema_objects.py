"""Schema rules for objects: properties and `required`, readOnly/writeOnly, additionalProperties and
unevaluatedProperties, patternProperties, propertyNames, dependentRequired, dependentSchemas.

readOnly and writeOnly decide which way a property's changes count: everything found in or about a
property that is readOnly (in OLD and NEW, or on the side it exists) concerns responses only, a
writeOnly one requests only (`Finding.only`, judged by `model.judge`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ..refs import esc
from .model import Direction, Effect, Finding, combine
from .schema_parts import additional as _additional
from .schema_parts import at, first, flag, flagged, node_ptr, required, subschema
from .schema_parts import properties as _properties
from .sides import View, dict_, list_, show

if TYPE_CHECKING:
    from .schemas import Schemas


def access(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """readOnly set: clients should no longer send it (requests only); writeOnly set: servers no
    longer answer it (responses only)."""
    yield from flagged(old, new, "readOnly", "read-only", Effect.TIGHTEN, only=Direction.REQUEST)
    if flag(new, "writeOnly") and not flag(old, "writeOnly"):
        message = "writeOnly set"
        yield Finding(
            at(old, new, "writeOnly"), "write-only", message, Effect.LOOSEN, only=Direction.RESPONSE
        )
    elif flag(old, "writeOnly") and not flag(new, "writeOnly"):
        message = "writeOnly unset (servers may now answer it)"
        yield Finding(at(old, new, "writeOnly"), "write-only", message, only=Direction.RESPONSE)


def _only(before: View, after: View) -> Direction | None:
    """Which way a property's findings count: responses for readOnly, requests for writeOnly."""
    views = [view for view in (before, after) if view]
    if views and all(flag(view, "readOnly") for view in views):
        return Direction.RESPONSE
    if views and all(flag(view, "writeOnly") for view in views):
        return Direction.REQUEST
    return None


def _tag(findings: Iterator[Finding] | list[Finding], only: Direction | None) -> Iterator[Finding]:
    for finding in findings:
        yield finding if only is None or finding.only is not None else replace(finding, only=only)


def properties(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    old_props, new_props = _properties(old), _properties(new)
    old_required, new_required = required(old), required(new)
    old_closed, new_closed = _additional(old)[0] == "closed", _additional(new)[0] == "closed"
    for name in sorted(old_props.keys() | new_props.keys()):
        before = s.view(s.old, old_props[name]) if name in old_props else ()
        after = s.view(s.new, new_props[name]) if name in new_props else ()
        only = _only(before, after)
        if name not in old_props:
            site = new_props[name][0][1]
            if name in new_required:
                message, effect = f"required property `{name}` added", Effect.TIGHTEN
            else:
                effect = Effect.LOOSEN if old_closed else Effect.OBLIGATION
                message = f"optional property `{name}` added"
            yield from _tag([Finding(site, "property-added", message, effect)], only)
            if name in old_required and name not in new_required:  # OLD required it without a schema
                yield from _tag(_required_flip(name, old_required[name], old_required, new_required), only)
        elif name not in new_props:
            site = old_props[name][0][1]
            was_required = name in old_required
            effect = combine(
                Effect.TIGHTEN if new_closed else Effect.LOOSEN,
                Effect.LOOSEN if was_required else Effect.NEUTRAL,
            )
            message = f"{'required' if was_required else 'optional'} property `{name}` removed"
            yield from _tag([Finding(site, "property-removed", message, effect)], only)
            if name in new_required and not was_required:  # NEW requires it without a schema
                yield from _tag(_required_flip(name, new_required[name], old_required, new_required), only)
        else:
            site = new_props[name][0][1]
            flips = _access_flips(name, site, before, after, old_required, new_required)
            yield from _tag(flips or _required_flip(name, site, old_required, new_required), only)
            yield from _tag(s.compare(before, after), only)
    for name in sorted((old_required.keys() ^ new_required.keys()) - old_props.keys() - new_props.keys()):
        where = new_required.get(name) or old_required[name]
        yield from _required_flip(name, where, old_required, new_required)


def _required_flip(
    name: str, where: str, old_required: dict[str, str], new_required: dict[str, str]
) -> Iterator[Finding]:
    if name in new_required and name not in old_required:
        yield Finding(where, "required-added", f"`{name}` is now required", Effect.TIGHTEN, subject=name)
    elif name in old_required and name not in new_required:
        message = f"`{name}` is no longer required"
        yield Finding(where, "required-removed", message, Effect.LOOSEN, subject=name)


def _access_flips(
    name: str,
    where: str,
    before: View,
    after: View,
    old_required: dict[str, str],
    new_required: dict[str, str],
) -> list[Finding]:
    """`required` binds a readOnly property in responses only and a writeOnly one in requests only
    (OpenAPI 3.0), so readOnly or writeOnly set or unset on a listed property makes it required, or
    not, one way only: one finding for that way (`only`). Empty when both ways agree (`_required_flip`)."""
    if flag(before, "readOnly") == flag(after, "readOnly") and flag(before, "writeOnly") == flag(
        after, "writeOnly"
    ):
        return []
    ways = {
        way: (
            name in old_required and not flag(before, hidden),
            name in new_required and not flag(after, hidden),
        )
        for way, hidden in ((Direction.REQUEST, "readOnly"), (Direction.RESPONSE, "writeOnly"))
    }
    if ways[Direction.REQUEST] == ways[Direction.RESPONSE]:
        return []
    findings = []
    for way, (was, now) in ways.items():
        if was == now:
            continue
        keyword, side = ("readOnly", "requests") if way is Direction.REQUEST else ("writeOnly", "responses")
        state = "unset" if now else "set"
        if now:
            rule, message, effect = "required-added", f"`{name}` is now required in {side}", Effect.TIGHTEN
        else:
            rule, message, effect = (
                "required-removed",
                f"`{name}` is no longer required in {side}",
                Effect.LOOSEN,
            )
        message += f" ({keyword} {state}: `required` binds a {keyword} property in the other direction only)"
        findings.append(Finding(where, rule, message, effect, subject=name, only=way))
    return findings


def additional(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from _closure(s, old, new, "additionalProperties", "additional-properties")


def unevaluated(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from _closure(s, old, new, "unevaluatedProperties", "additional-properties")


def _closure(s: Schemas, old: View, new: View, keyword: str, rule: str) -> Iterator[Finding]:
    """additionalProperties-like keywords: closed < a schema < open."""
    (before, old_schema, old_ptr), (after, new_schema, new_ptr) = (
        _additional(old, keyword),
        _additional(new, keyword),
    )
    where = new_ptr or old_ptr or node_ptr(new)
    if before == after == "schema":
        yield from s.compare(s.old.view(old_schema, old_ptr or ""), s.new.view(new_schema, new_ptr or ""))
    elif before != after:
        order = {"closed": 0, "schema": 1, "open": 2}
        effect = Effect.TIGHTEN if order[after] < order[before] else Effect.LOOSEN
        yield Finding(where, rule, f"{keyword} changed from {before} to {after}", effect)


def pattern_properties(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """A pattern added constrains the names it matches (or, in a closed object, admits them)."""
    before, old_ptr = first(old, "patternProperties")
    after, new_ptr = first(new, "patternProperties")
    before, after = dict_(before), dict_(after)
    closed = {_additional(view)[0] for view in (old, new)} != {"open"}
    for pattern in sorted(before.keys() | after.keys()):
        # in a closed object a pattern admits the names it matches; it constrains declared ones
        declared = _declared_match(pattern, _properties(old).keys() | _properties(new).keys())
        if pattern not in before:
            effect = (Effect.BOTH if declared else Effect.LOOSEN) if closed else Effect.TIGHTEN
            where = f"{new_ptr}/{esc(pattern)}"
            yield Finding(where, "pattern-properties", f"patternProperties {pattern!r} added", effect)
        elif pattern not in after:
            effect = (Effect.BOTH if declared else Effect.TIGHTEN) if closed else Effect.LOOSEN
            where = f"{old_ptr}/{esc(pattern)}"
            yield Finding(where, "pattern-properties", f"patternProperties {pattern!r} removed", effect)
        else:
            yield from s.compare(
                s.old.view(before[pattern], f"{old_ptr}/{esc(pattern)}"),
                s.new.view(after[pattern], f"{new_ptr}/{esc(pattern)}"),
            )


def _declared_match(pattern: str, names: set[str]) -> bool:
    """Whether the pattern matches a declared property name (or cannot be read: assume it does)."""
    try:
        compiled = re.compile(pattern)
    except re.error:
        return True
    return any(compiled.search(name) for name in names)


def property_names(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from subschema(s, old, new, "propertyNames", "property-names")


def dependent_required(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """`{a: [b]}`: an object with `a` must have `b`; more names tighten, fewer loosen."""
    before, after = dict_(first(old, "dependentRequired")[0]), dict_(first(new, "dependentRequired")[0])
    where = at(old, new, "dependentRequired")
    for name in sorted(before.keys() | after.keys()):
        was, now = set(map(str, list_(before.get(name)))), set(map(str, list_(after.get(name))))
        if now - was:
            message = f"with `{name}`, now also required: {show(sorted(now - was))}"
            yield Finding(f"{where}/{esc(name)}", "dependent-required", message, Effect.TIGHTEN)
        if was - now:
            message = f"with `{name}`, no longer required: {show(sorted(was - now))}"
            yield Finding(f"{where}/{esc(name)}", "dependent-required", message, Effect.LOOSEN)


def dependent_schemas(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    before, old_ptr = first(old, "dependentSchemas")
    after, new_ptr = first(new, "dependentSchemas")
    before, after = dict_(before), dict_(after)
    for name in sorted(before.keys() | after.keys()):
        if name not in before:
            where, message, effect = (
                f"{new_ptr}/{esc(name)}",
                f"dependentSchemas `{name}` added",
                Effect.TIGHTEN,
            )
            yield Finding(where, "dependent-schemas", message, effect)
        elif name not in after:
            where, message, effect = (
                f"{old_ptr}/{esc(name)}",
                f"dependentSchemas `{name}` removed",
                Effect.LOOSEN,
            )
            yield Finding(where, "dependent-schemas", message, effect)
        else:
            yield from s.compare(
                s.old.view(before[name], f"{old_ptr}/{esc(name)}"),
                s.new.view(after[name], f"{new_ptr}/{esc(name)}"),
            )
