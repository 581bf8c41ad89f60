"""Schema rules: what a schema edit does to the values it accepts (tighten, loosen, both, ...).

A schema is read as a view (`Side.view`): the schema and its `allOf` members, `$ref`s followed and
every node in one normal form whatever the OpenAPI version (normalize.py: 3.0 `nullable` and 3.1
`type: [.., "null"]`, boolean and numeric exclusive bounds, `const` and a one-value `enum`), so a
field moved into a shared component, a component renamed or a 3.0 -> 3.1 migration compares equal.

`KEYWORDS` is the one table of the schema keywords of OpenAPI 3.0 and 3.1 (JSON Schema 2020-12),
each with the rule that compares it: core rules here, objects in schema_objects.py, arrays in
schema_arrays.py, unions and conditions in schema_unions.py. Annotations (`description`, `title`,
`examples`, ...) are reported as `documentation-changed` and extensions (`x-`) as `extension-changed`,
both compatible; any other key that differs is `not-compared`: breaking, for a person to judge. So
no keyword is dropped in silence.

Verdicts by meaning: a pattern that matches every string is no pattern; a default changed or
removed has the effect *meaning* (breaking in requests, compatible in responses), a default added
changes nothing; readOnly and writeOnly properties mark their findings as concerning responses or
requests only (`Finding.only`, judged by `model.judge`). Null is valid when the type allows it and
so does the enum beside it (`schema_parts.admits_null`): null dropped from a nullable schema's enum
is "no longer nullable". A parameter encoded by its style travels as text (`Schemas(text=True)`):
a number or boolean type replaced by a free `string` only loosens. Values are compared as JSON
(`false` is not `0`; `default: null` is a default).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

from ..refs import MISSING
from . import regex, schema_arrays, schema_objects, schema_unions
from .model import Classification, Effect, Finding
from .normalize import IGNORED_NULLABLE, PRIVATE
from .schema_parts import (
    BOUNDS,
    accepts,
    accepts_text,
    admits_null,
    at,
    bound,
    bound_text,
    enum,
    first,
    flagged,
    node_ptr,
    null_in_enum,
    nullable,
    replaceable,
    subschema,
    types,
    values,
    written,
)
from .sides import Side, Stability, View, canon, show

NOT_COMPARED = "not-compared"
DOCUMENTATION = ("description", "title", "examples", "example", "externalDocs", "$comment", "xml")
_DOCS_WHY = "documentation only: no request or answer on the wire changes"
_EXTENSION_WHY = (
    "an extension: tools that read it may act otherwise; no request or answer on the wire changes"
)


class Schemas:
    """Compares schema views of the two documents; results are kept per pair of locations."""

    def __init__(
        self, old: Side, new: Side, stable: Stability | Callable[[str], bool], *, text: bool = False
    ) -> None:
        """`text`: the values travel as text (a parameter encoded by its style, not a media type),
        so a number or a boolean is also a string (`_type`)."""
        self.old, self.new, self.stable, self.text = old, new, stable, text
        self.memo: dict[tuple[tuple[str, ...], tuple[str, ...]], list[Finding]] = {}
        self.active: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()
        self.within: dict[int, Schemas] = {}

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

    def same_side(self, side: Side) -> Schemas:
        """A comparer of two schemas of one document (is one a subset of the other?)."""
        if id(side) not in self.within:
            self.within[id(side)] = Schemas(side, side, lambda _: True)
        return self.within[id(side)]

    def _compare(self, old: View, new: View) -> Iterator[Finding]:
        present = {key for node, _ in (*old, *new) for key in node}
        rules = dict.fromkeys(KEYWORDS[key] for key in present if key in KEYWORDS)
        for rule in RULES:  # in the table's order, each rule once
            if rule in rules:
                yield from rule(self, old, new)
        for key in sorted(present - KEYWORDS.keys() - PRIVATE):
            yield from _unknown(old, new, key)

    # -- reading subschemas
    def view(self, side: Side, entries: list[tuple[Any, str]]) -> View:
        return tuple(part for node, ptr in entries for part in side.view(node, ptr))

    def sub(self, side: Side, view: View, keyword: str) -> View:
        """The view of the subschema(s) under `keyword` in the parts (a conjunction, like allOf)."""
        return self.view(side, [(node[keyword], f"{ptr}/{keyword}") for node, ptr in view if keyword in node])


Rule = Callable[[Schemas, View, View], Iterator[Finding]]


def _type(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    before, after = types(old), types(new)
    if before == after:
        return
    where = at(old, new, "type")
    if before is None:
        yield Finding(
            where, "type-changed", f"type restricted to {show(sorted(after or ()))}", Effect.TIGHTEN
        )
        return
    if after is None:
        yield Finding(where, "type-changed", f"type {show(sorted(before))} no longer enforced", Effect.LOOSEN)
        return
    message = f"type changed from {show(sorted(before))} to {show(sorted(after))}"
    widens = all(accepts(after, kind) for kind in before)
    narrows = all(accepts(before, kind) for kind in after)
    if s.text and not widens and all(accepts_text(after, kind) for kind in before) and _free_text(new):
        # `?id=7` is the text "7" on the wire: `type: string` matches it as it matched `integer`
        if all(accepts_text(before, kind) for kind in after):
            yield Finding(where, "type-changed", message, Effect.NEUTRAL, why=f"{TEXT_WHY}, and back")
        else:
            why = f"{TEXT_WHY}: no request valid under OLD is refused; receivers must accept more"
            yield Finding(where, "type-changed", message, Effect.LOOSEN, why=why)
        return
    effect = Effect.LOOSEN if widens else Effect.TIGHTEN if narrows else Effect.BOTH
    yield Finding(where, "type-changed", message, effect)


def _free_text(view: View) -> bool:
    """Whether the new string schema takes any text: no format, enum, length or pattern that a value
    of the old type, written as text, could fail (then the type change is judged as in a body)."""
    pattern = first(view, "pattern")[0]
    limited = any(first(view, k)[1] is not None for k in ("format", "enum", "minLength", "maxLength"))
    return not limited and (pattern is None or (isinstance(pattern, str) and trivial(pattern)))


TEXT_WHY = "the parameter is written as text: every value of the old type is a string the new type accepts"


def _nullable(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """Whether null is valid (`admits_null`): the nullable marker and null in the enum. A change of
    the type alone (added, removed) is the `type` rule's; a marker changed while the enum refuses
    null either way is said, and changes nothing."""
    marked, listed = (nullable(old), nullable(new)), (null_in_enum(old), null_in_enum(new))
    before, after = admits_null(old), admits_null(new)
    if before != after and (marked[0] != marked[1] or listed[0] != listed[1]):
        where = at(old, new, "nullable") if marked[0] != marked[1] else at(old, new, "enum")
        by_enum = "" if marked[0] != marked[1] else " by the enum"
        if after:
            yield Finding(where, "nullable", f"made nullable (null is now allowed{by_enum})", Effect.LOOSEN)
        else:
            message = f"no longer nullable (null is now refused{by_enum})"
            yield Finding(where, "nullable", message, Effect.TIGHTEN)
    elif before != after and (types(old) is None) == (types(new) is None):
        # null admitted or refused through an allOf member or a union's branches
        state = "allowed" if after else "refused"
        effect = Effect.LOOSEN if after else Effect.TIGHTEN
        yield Finding(node_ptr(new) or node_ptr(old), "nullable", f"null is now {state}", effect)
    elif marked[0] != marked[1]:
        state = "made nullable" if marked[1] else "no longer nullable"
        why = f"null is {'allowed' if after else 'refused'} either way: the enum or the type decides"
        message = f"{state} in its type, null still {'allowed' if after else 'refused'}"
        yield Finding(at(old, new, "nullable"), "nullable", message, Effect.NEUTRAL, why=why)


def _enum(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    before, after = enum(old), enum(new)
    if before == after:
        return
    where = at(old, new, "enum")
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


def _format(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from replaceable(
        old, new, "format", "format-changed", first(old, "format")[0], first(new, "format")[0]
    )


def _content(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    for keyword in ("contentEncoding", "contentMediaType"):
        before, after = first(old, keyword)[0], first(new, keyword)[0]
        yield from replaceable(old, new, keyword, "content-changed", before, after)
    yield from subschema(s, old, new, "contentSchema", "content-changed")


# Strings a pattern is tried on when it cannot be read as a language (lookarounds, backreferences):
# one that finds a match in each of them (JSON Schema patterns are not anchored) is taken to match
# every string. Line terminators are among them: ECMA's `.` does not match them.
_PROBES = (
    "",
    *(chr(code) for code in range(32, 127)),
    "\t",
    "\x00",
    "é",
    "😀",
    "null",
    "a b\tc",
    "0" * 257,
    *("a" + end + "b" for end in ("\n", "\r", "\u2028", "\u2029", "\r\n")),
    *("a" + end for end in ("\n", "\r", "\u2028", "\u2029")),
    "\n",
    "\r",
    "\u2028",
)


@functools.cache
def trivial(pattern: str) -> bool:
    """Whether a pattern matches every string, like `.*`, `''` or `[\\s\\S]*` (not `^.*$`: ECMA's
    `.` matches no line terminator)."""
    decided = regex.universal(pattern)
    if decided is not None:
        return decided
    try:
        compiled = re.compile(_ecma(pattern))
    except re.error:
        return False
    return all(compiled.search(probe) for probe in _PROBES)


def _ecma(pattern: str) -> str:
    """`pattern` for Python's re with ECMA's `.` (no line terminator) and `$` (the end only, where
    Python's also matches before a final newline); classes and escapes are copied as they are."""
    out, i, inside = [], 0, False
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[":
            inside = True
        elif char == "]":
            inside = False
        elif not inside and char == ".":
            char = "[^\\n\\r\u2028\u2029]"
        elif not inside and char == "$":
            char = r"\Z"
        out.append(char)
        i += 1
    return "".join(out)


def _pattern(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    written = first(old, "pattern")[0], first(new, "pattern")[0]
    if written[0] == written[1]:  # (before reading them: greenery is loaded only when one changed)
        return
    before, after = (None if isinstance(p, str) and trivial(p) else p for p in written)
    if before == after and written[0] != written[1]:  # reported, but it constrains nothing
        shown = " and ".join(json.dumps(p) for p in written if p is not None)
        message = f"pattern changed from {json.dumps(written[0])} to {json.dumps(written[1])}"
        why = f"{shown} match(es) every string: no value is refused either way"
        yield Finding(at(old, new, "pattern"), "pattern-changed", message, Effect.NEUTRAL, why=why)
        return
    if isinstance(before, str) and isinstance(after, str) and before != after:
        yield _replaced(at(old, new, "pattern"), before, after)
        return
    yield from replaceable(old, new, "pattern", "pattern-changed", before, after)


def _replaced(where: str, before: str, after: str) -> Finding:
    """A pattern replaced by another, judged by the strings each accepts (regex.relation)."""
    message = f"pattern changed from {json.dumps(before)} to {json.dumps(after)}"
    found = regex.relation(before, after)
    if found == "same":
        why = "the pattern is rewritten but accepts the same strings"
        return Finding(where, "pattern-changed", message, Effect.NEUTRAL, why=why)
    if found in ("wider", "narrower"):
        effect = Effect.LOOSEN if found == "wider" else Effect.TIGHTEN
        return Finding(where, "pattern-changed", f"{message} (accepts {_ACCEPTS[found]} strings)", effect)
    return Finding(where, "pattern-changed", message, Effect.BOTH, undecided=found is None)


_ACCEPTS = {"wider": "more", "narrower": "fewer"}


def _multiple_of(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    before, after = first(old, "multipleOf")[0], first(new, "multipleOf")[0]
    if before == after:
        return
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) and v > 0 for v in (before, after))
    if numbers:
        where, message = at(old, new, "multipleOf"), f"multipleOf changed from {before} to {after}"
        if _divides(before, after):  # every multiple of `after` is one of `before`
            yield Finding(where, "multiple-of", message, Effect.TIGHTEN)
            return
        if _divides(after, before):
            yield Finding(where, "multiple-of", message, Effect.LOOSEN)
            return
    yield from replaceable(old, new, "multipleOf", "multiple-of", before, after)


def _divides(small: float, large: float) -> bool:
    ratio = large / small
    return abs(ratio - round(ratio)) < 1e-9


def _bounds(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    for name, keywords, lower, zero_is_none in BOUNDS:
        before = bound(old, keywords, lower, zero_is_none)
        after = bound(new, keywords, lower, zero_is_none)
        if before == after:
            continue
        tighter = before is None or (after is not None and after > before)
        message = f"{name} changed from {bound_text(before, lower)} to {bound_text(after, lower)}"
        rule, effect = ("bound-tightened", Effect.TIGHTEN) if tighter else ("bound-loosened", Effect.LOOSEN)
        yield Finding(at(old, new, *(keyword for keyword, _ in keywords)), rule, message, effect)


def _unique(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from flagged(old, new, "uniqueItems", "unique-items", Effect.TIGHTEN)


def _deprecated(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from flagged(old, new, "deprecated", "deprecated", Effect.NEUTRAL)


def _default(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """A default changed or removed changes what a request that leaves the value out means."""
    before, after = written(old, "default"), written(new, "default")  # `default: null` is a default
    if before is after or (before is not MISSING and after is not MISSING and canon(before) == canon(after)):
        return
    where = at(old, new, "default")
    if before is MISSING:
        yield Finding(where, "default-changed", f"default {json.dumps(after)} added", Effect.NEUTRAL)
    elif after is MISSING:
        yield Finding(where, "default-changed", f"default {json.dumps(before)} removed", Effect.MEANING)
    else:
        message = f"default changed from {json.dumps(before)} to {json.dumps(after)}"
        yield Finding(where, "default-changed", message, Effect.MEANING)


def _identifiers(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """Names for references and definitions: values are compared where a `$ref` uses them."""
    for keyword in ("$id", "$anchor", "$dynamicAnchor", "$defs", "definitions"):
        if values(old, keyword) != values(new, keyword):
            why = f"`{keyword}` only names schemas for references; what they accept is compared where used"
            yield Finding(at(old, new, keyword), "identifier-changed", f"`{keyword}` changed", why=why)


def _dialect(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    for keyword, rule, why in (
        ("$schema", "dialect-changed", "another JSON Schema dialect may read the same keywords otherwise"),
        ("$dynamicRef", "reference-changed", "a dynamic reference is resolved at validation time"),
        ("$ref", "reference-changed", "the reference cannot be resolved, so what it accepts is unknown"),
    ):
        if values(old, keyword) != values(new, keyword):
            message = f"`{keyword}` changed"
            yield Finding(at(old, new, keyword), rule, message, Effect.BOTH, why=why, undecided=True)


def _documentation(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    for keyword in DOCUMENTATION:
        if values(old, keyword) != values(new, keyword):
            message = f"{keyword} changed"
            where = at(old, new, keyword)
            yield Finding(
                where, "documentation-changed", message, fixed=Classification.COMPATIBLE, why=_DOCS_WHY
            )


def _no_effect(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """`nullable` in a 3.1 document: no keyword there (null is allowed by `type: [T, 'null']`), so
    no value changes; said, since its author likely meant null to be allowed or refused."""
    if values(old, IGNORED_NULLABLE) != values(new, IGNORED_NULLABLE):
        where = f"{node_ptr(new) or node_ptr(old)}/nullable"
        why = "`nullable` is no keyword in OpenAPI 3.1: null is allowed by `type: [T, 'null']`"
        message = "`nullable` changed where it has no effect"
        yield Finding(where, "no-effect", message, fixed=Classification.COMPATIBLE, why=why)


def _unknown(old: View, new: View, key: str) -> Iterator[Finding]:
    if values(old, key) == values(new, key):
        return
    where = at(old, new, key)
    if key.startswith("x-"):
        message = f"extension {key} changed"
        yield Finding(
            where, "extension-changed", message, fixed=Classification.COMPATIBLE, why=_EXTENSION_WHY
        )
        return
    why = f"csapi diff does not compare `{key}`: judge this change by hand"
    yield Finding(where, NOT_COMPARED, f"`{key}` changed", fixed=Classification.BREAKING, why=why)


# The schema keywords of OpenAPI 3.0 and 3.1 (JSON Schema 2020-12) and the rule comparing each.
KEYWORDS: dict[str, Rule] = {
    "type": _type,
    "nullable": _nullable,
    "enum": _enum,
    "const": _enum,
    "format": _format,
    "pattern": _pattern,
    "multipleOf": _multiple_of,
    **dict.fromkeys(
        (
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "minLength",
            "maxLength",
            "minItems",
            "maxItems",
            "minProperties",
            "maxProperties",
        ),
        _bounds,
    ),
    "uniqueItems": _unique,
    "deprecated": _deprecated,
    "default": _default,
    "readOnly": schema_objects.access,
    "writeOnly": schema_objects.access,
    "properties": schema_objects.properties,
    "required": schema_objects.properties,
    "additionalProperties": schema_objects.additional,
    "unevaluatedProperties": schema_objects.unevaluated,
    "patternProperties": schema_objects.pattern_properties,
    "propertyNames": schema_objects.property_names,
    "dependentRequired": schema_objects.dependent_required,
    "dependentSchemas": schema_objects.dependent_schemas,
    "items": schema_arrays.items,
    "prefixItems": schema_arrays.items,
    "contains": schema_arrays.contains,
    "minContains": schema_arrays.contains,
    "maxContains": schema_arrays.contains,
    "unevaluatedItems": schema_arrays.unevaluated,
    "allOf": lambda s, old, new: iter(()),  # its members are parts of the view, compared with it
    "oneOf": schema_unions.one_of,
    "anyOf": schema_unions.any_of,
    "not": schema_unions.not_,
    "if": schema_unions.conditional,
    "then": schema_unions.conditional,
    "else": schema_unions.conditional,
    "discriminator": schema_unions.discriminator,
    "contentEncoding": _content,
    "contentMediaType": _content,
    "contentSchema": _content,
    **dict.fromkeys(("$id", "$anchor", "$dynamicAnchor", "$defs", "definitions"), _identifiers),
    **dict.fromkeys(("$schema", "$dynamicRef", "$ref"), _dialect),
    **dict.fromkeys(DOCUMENTATION, _documentation),
    IGNORED_NULLABLE: _no_effect,
}
RULES: tuple[Rule, ...] = tuple(dict.fromkeys(KEYWORDS.values()))
