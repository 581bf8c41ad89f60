"""Proof by payloads: a schema change shown to break someone by one generated payload.

The structural rules of the diff compare keywords; some changes they cannot judge (a `pattern`
replaced, a `not` added, a `oneOf` branch added that a payload valid before now matches twice).
Here hypothesis generates payloads and jsonschema checks them, with the semantics of the document's
version: OpenAPI 3.0 (`nullable`, boolean `exclusiveMinimum`, the `int32`/`int64` formats:
openapi-schema-validator's OAS30Validator, the one the linter uses) or 3.1 (JSON Schema 2020-12:
OAS31Validator; type arrays, `const`, `prefixItems`, numeric exclusive bounds, `$ref` with siblings):

- a **request** schema: payloads valid under OLD (what a client following OLD sends) are checked
  against NEW (what a server following NEW accepts);
- a **response** schema: payloads valid under NEW (what a server following NEW answers) are
  checked against OLD (what a client following OLD reads).

API::

    counterexample(old_schema, new_schema, *, direction, old_doc, new_doc,
                   seed=0, max_examples=MAX_EXAMPLES) -> Counterexample | None

`old_schema` and `new_schema` are OpenAPI 3.0 or 3.1 schema objects whose `$ref`s point into `old_doc`
and `new_doc` (the whole documents); `direction` is "request" or "response". The answer is a
`Counterexample` (the payload, shrunk by hypothesis to a small one, and why the checking side
refuses it) or None when none was found. None is the end of a bounded search, not a proof of
compatibility; a payload, though, is a proof of a break. The payload is wrapped because it may
itself be `null`.

Bounds: the seed is fixed (the same answer every run), at most `max_examples` payloads are tried
per schema pair (fewer for a large schema, down to 20), strings, arrays and `$ref` recursion are
kept short, and answers are memoised per pair of schemas (with `$ref`s inlined), so a schema
reached by many operations is searched once. The whole document, every parameter, body and
response schema searched, takes under 10 s of CPU.
Two schemas that are the same once inlined (a `$ref` refactor, keys reordered, descriptions
edited) are not searched at all.

What "follows OLD" means here: a generated object carries the properties its schema declares
(and, for a map, entries of its `additionalProperties` schema), never undeclared ones. Otherwise
every new optional field would "break" the client that happened to send a field of that name
with another type, while DESIGN.md calls a new optional request field an implementer obligation.
"""

from __future__ import annotations

import json
import math
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from random import Random
from typing import Any, Literal

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable
from jsonschema.exceptions import best_match
from openapi_schema_validator import OAS30Validator, OAS31Validator
from referencing import Registry, Resource

from ..refs import Resolver
from .sides import canon, inline

__all__ = ["MAX_EXAMPLES", "Counterexample", "Direction", "counterexample"]

Direction = Literal["request", "response"]

MAX_EXAMPLES = 50  # per schema pair: the whole document searched stays well under 30 s
# A large schema (an Item with its lists of comments and reactions, inlined: some 17,000
# characters) makes payloads that take long to draw, and each one exercises every required field:
# fewer of them, down to _MIN_EXAMPLES, in proportion past _SIZE_BUDGET characters of inlined text.
# A small one is cheap to draw and its breaking payloads can be rare (an object matching exactly
# one oneOf alternative and carrying one optional field): up to _SMALL_FACTOR times more of them,
# so the answer does not hang on which payloads hypothesis happens to favour.
_SIZE_BUDGET = 2000
_MIN_EXAMPLES = 20
_SMALL_FACTOR = 4
_MAX_TEXT = 12  # characters beyond minLength
_MAX_ITEMS = 2  # array items beyond minItems (at the top; fewer below)
_EDGE_ITEMS = 16  # a list as long as its maxItems is drawn up to this length
_MAX_MAP = 3  # entries of a map (additionalProperties schema, free-form object)
_VOCABULARY = 64  # names and words taken from the checking schema, at most
_MAX_LENGTH = 4096  # a string drawn at a bound of the checking side is at most this long
_SHRINK_BUDGET = 400  # payloads tried while shrinking one that breaks
_MAX_DEPTH = 8  # nested schemas; deeper, a `$ref` cycle: anything, left to the validator to judge
_DOC_URI = "urn:csapi:document"
_INT64 = (-(2**63), 2**63 - 1)
_INT32 = (-(2**31), 2**31 - 1)


@dataclass(frozen=True)
class Counterexample:
    """A payload one side accepts and the other refuses, and the refusing side's reason."""

    payload: Any
    reason: str
    direction: Direction
    path: tuple[str | int, ...] = ()  # where in the payload the refusing side's error is

    def __str__(self) -> str:
        side = "a server following NEW" if self.direction == "request" else "a client following OLD"
        sent = "sent by a client following OLD" if self.direction == "request" else "answered under NEW"
        return f"{json.dumps(self.payload)} ({sent}) is refused by {side}: {self.reason}"


def counterexample(
    old_schema: Any,
    new_schema: Any,
    *,
    direction: Direction,
    old_doc: dict[str, Any],
    new_doc: dict[str, Any],
    seed: int = 0,
    max_examples: int = MAX_EXAMPLES,
    undeclared: bool = False,
) -> Counterexample | None:
    """A payload that breaks across the change (see the module docstring), or None.

    `undeclared`: objects also carry a field their schema does not declare (where it allows one):
    only to confirm a break the rules found (an object closed), never to find one (see above)."""
    old_key = canon(inline(old_schema, Resolver(old_doc)))  # one text per meaning (sides.inline)
    new_key = canon(inline(new_schema, Resolver(new_doc)))
    if old_key == new_key:
        return None
    key = (direction, old_key, new_key, seed, max_examples, _version(old_doc), _version(new_doc), undeclared)
    if key not in _MEMO:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()  # a long-lived process diffing many documents: keep memory bounded
        if direction == "request":
            source, target = (old_schema, old_doc), (new_schema, new_doc)
        else:
            source, target = (new_schema, new_doc), (old_schema, old_doc)
        size = len(new_key if direction == "response" else old_key)  # the generating side's
        examples = max(min(_MIN_EXAMPLES, max_examples), max_examples * _SIZE_BUDGET // max(size, 1))
        count = min(examples, max_examples * _SMALL_FACTOR)
        _MEMO[key] = _search(source, target, direction, seed, count, undeclared)
    return _MEMO[key]


_MEMO: dict[tuple[str, str, str, int, int, str, str, bool], Counterexample | None] = {}
_MEMO_SIZE = 2048


def _search(
    source: tuple[Any, dict[str, Any]],
    target: tuple[Any, dict[str, Any]],
    direction: Direction,
    seed: int,
    max_examples: int,
    undeclared: bool = False,
) -> Counterexample | None:
    generated_by, checked_by = _validator(*source), _validator(*target)
    broken: list[BaseException] = []

    def breaks(payload: Any) -> bool:
        if broken:
            return False
        try:
            return bool(generated_by.is_valid(payload)) and not checked_by.is_valid(payload)
        except Exception as exc:  # a schema jsonschema cannot apply (bad $ref, unknown type): no proof
            broken.append(exc)
            return False

    builder = _Builder(Resolver(source[1]), _version(source[1]) == "3.1", undeclared)
    builder.names, builder.words, builder.lengths, builder.numbers = _vocabulary(
        inline(target[0], Resolver(target[1]))
    )
    strategy = builder.strategy(source[0])
    options = settings(
        max_examples=max_examples,
        database=None,
        deadline=None,
        phases=(Phase.generate,),  # hypothesis' shrinking of a large payload takes seconds: _shrink
        suppress_health_check=list(HealthCheck),
    )
    try:
        payload = find(strategy, breaks, settings=options, random=Random(seed))
    except (NoSuchExample, Unsatisfiable):
        return None
    payload = _shrink(payload, breaks)
    error = best_match(checked_by.iter_errors(payload))
    reason = " ".join((error.message if error else "refused").split())
    if error is not None and error.absolute_path:
        reason = f"at {'/'.join(map(str, error.absolute_path))}: {reason}"
    path = tuple(error.absolute_path) if error is not None else ()
    return Counterexample(payload, reason[:300], direction, path)


def _version(document: dict[str, Any]) -> str:
    """ "3.1" for an OpenAPI 3.1 document (JSON Schema 2020-12), else "3.0"."""
    return "3.1" if str(document.get("openapi", "")).startswith("3.1") else "3.0"


def _shrink(payload: Any, breaks: Callable[[Any], bool], budget: int = _SHRINK_BUDGET) -> Any:
    """A smaller payload that still breaks: fields, items and characters dropped one at a time, values
    made zero or empty, while `budget` tries last (each a validation, a millisecond or so)."""
    tries = 0
    smaller = True
    while smaller and tries < budget:
        smaller = False
        for candidate in _smaller(payload):
            tries += 1
            if breaks(candidate):
                payload, smaller = candidate, True
                break
            if tries >= budget:
                break
    return payload


def _smaller(value: Any) -> Iterator[Any]:
    """Values one step smaller than `value`: the outer steps first."""
    if isinstance(value, dict):
        for key in value:
            yield {k: v for k, v in value.items() if k != key}
        for key, item in value.items():
            for candidate in _smaller(item):
                yield {**value, key: candidate}
    elif isinstance(value, list):
        for index in range(len(value)):
            yield value[:index] + value[index + 1 :]
        for index, item in enumerate(value):
            for candidate in _smaller(item):
                yield [*value[:index], candidate, *value[index + 1 :]]
    elif isinstance(value, bool):
        if value:
            yield False
    elif isinstance(value, int | float):
        if value != 0:
            yield type(value)(0)
        if abs(value) > 1:
            yield type(value)(int(value / 2))
    elif isinstance(value, str) and value:
        yield ""
        if len(value) > 1:
            yield value[: len(value) // 2]


def _validator(schema: Any, document: dict[str, Any]) -> Any:
    """A validator of `schema` by the document's version, its local `$ref`s resolved in `document`."""
    registry: Registry[Any] = Registry().with_resource(_DOC_URI, Resource.opaque(document))
    kind = OAS31Validator if _version(document) == "3.1" else OAS30Validator
    return kind(_absolute(schema), registry=registry, format_checker=kind.FORMAT_CHECKER)


def _absolute(node: Any) -> Any:
    """`node` with its local `$ref`s made absolute: the schema is not itself inside the document."""
    if isinstance(node, dict):
        return {
            key: (
                _DOC_URI + value
                if key == "$ref" and isinstance(value, str) and value.startswith("#")
                else _absolute(value)
                if key not in ("enum", "const", "default", "example", "examples")
                else value
            )
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_absolute(value) for value in node]
    return node


# --------------------------------------------------------------------------------------------------
# Strategies over the subset of OpenAPI 3.0 schemas our documents use. They over-approximate (a
# `not`, a `oneOf`'s exclusivity, an allOf conflict are not built in): `breaks` checks validity
# under the generating side first, so what is generated beyond it is only wasted, never wrong.

_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(-1000, 1000)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.text(max_size=6)
)
_ANY: st.SearchStrategy[Any] = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=4), inner, max_size=2),
    max_leaves=4,
)


def _date_time(value: datetime) -> str:
    return value.replace(microsecond=0).isoformat().replace("+00:00", "Z")


_FORMATS: dict[str, st.SearchStrategy[str]] = {
    "date-time": st.datetimes(datetime(1970, 1, 1), datetime(2100, 1, 1), timezones=st.just(UTC)).map(
        _date_time
    ),
    "date": st.dates().map(lambda value: value.isoformat()),
    "email": st.from_regex(r"\A[a-z0-9]{1,8}@[a-z]{1,8}\.(com|org|example)\Z"),
    "uri": st.from_regex(r"\Ahttps://[a-z]{1,8}\.example\.com/[a-z0-9/]{0,8}\Z"),
    "uuid": st.uuids().map(str),
    "hostname": st.from_regex(r"\A[a-z][a-z0-9]{0,8}(\.[a-z]{2,5}){0,2}\Z"),
}


class _Builder:
    def __init__(self, resolver: Resolver, siblings: bool = False, undeclared: bool = False) -> None:
        self.resolver = resolver
        self.undeclared = undeclared
        # the property names and the strings the checking side names (a `const` in an `if`, a
        # property of a new oneOf branch): drawn too, where a payload that breaks is likely to be
        self.names: list[str] = []
        self.words: list[str] = []
        # the checking side's bounds, just past each: a string length, a number (a bound it adds)
        self.lengths: list[int] = []
        self.numbers: list[int | float] = []
        self.siblings = siblings  # 3.1: the keywords beside a `$ref` apply too (3.0 ignores them)

    def strategy(self, schema: Any, depth: int = 0) -> st.SearchStrategy[Any]:
        if depth > _MAX_DEPTH:
            return _ANY
        flat = self.flatten(schema, frozenset())
        for keyword in ("oneOf", "anyOf"):
            branches = flat.get(keyword)
            if isinstance(branches, list) and branches:
                rest = {key: value for key, value in flat.items() if key != keyword}
                return st.one_of(
                    [
                        self.strategy(_merge(rest, self.flatten(branch, frozenset())), depth + 1)
                        for branch in branches
                    ]
                )
        base = self._typed(flat, depth)
        return st.none() | base if flat.get("nullable") is True else base

    def flatten(self, schema: Any, active: frozenset[str]) -> dict[str, Any]:
        """`schema` with its `$ref` followed and its `allOf` members merged into it."""
        if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            if schema["$ref"] in active:
                return {}  # a recursive schema: anything here, the validator judges
            target = self.resolver.deref(schema)
            flat = self.flatten(target, active | {schema["$ref"]}) if isinstance(target, dict) else {}
            beside = {key: value for key, value in schema.items() if key != "$ref"}
            return _merge(flat, self.flatten(beside, active)) if self.siblings and beside else flat
        if not isinstance(schema, dict):
            return {}
        flat = {key: value for key, value in schema.items() if key != "allOf"}
        for member in schema.get("allOf") or ():
            flat = _merge(flat, self.flatten(member, active))
        return flat

    def _typed(self, flat: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        if "const" in flat:
            return st.just(flat["const"])
        if isinstance(flat.get("enum"), list) and flat["enum"]:
            return st.sampled_from(flat["enum"])
        kind = flat.get("type") or _implied_type(flat)
        if isinstance(kind, list):  # 3.1: one of several types (`["string", "null"]`)
            kinds = [self._kind(str(one), flat, depth) for one in kind]
            return st.one_of(kinds) if kinds else _ANY
        return self._kind(kind, flat, depth)

    def _kind(self, kind: Any, flat: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        if kind == "null":
            return st.none()
        if kind == "string":
            text = _string(flat)
            if self.lengths and "pattern" not in flat and "format" not in flat:
                text |= st.sampled_from(self.lengths).flatmap(lambda n: st.text("ab", min_size=n, max_size=n))
            return text | st.sampled_from(self.words) if self.words and "pattern" not in flat else text
        whole = [n for n in self.numbers if isinstance(n, int)]
        if kind == "integer":
            return _integer(flat) | st.sampled_from(whole) if whole else _integer(flat)
        if kind == "number":
            either = _integer(flat) | _number(flat)
            return either | st.sampled_from(self.numbers) if self.numbers else either
        if kind == "boolean":
            return st.booleans()
        if kind == "array":
            low = _int(flat.get("minItems"), 0)
            # fewer items the deeper the array: lists of objects holding lists grow as a product
            extra = _MAX_ITEMS if depth < 2 else 1 if depth < 4 else 0
            high = min(_int(flat.get("maxItems"), low + extra), low + extra)
            items = self._items(flat.get("items", True), depth)
            unique: Callable[[Any], str] | None = canon if flat.get("uniqueItems") is True else None
            prefix = flat.get("prefixItems")
            if isinstance(prefix, list) and prefix:  # 3.1: the first items by position, `items` the rest
                first = st.tuples(*(self.strategy(schema, depth + 1) for schema in prefix))
                rest = st.lists(items, max_size=extra, unique_by=unique)
                return st.tuples(first, rest).map(lambda pair: [*pair[0], *pair[1]])
            lists = st.lists(items, min_size=low, max_size=max(high, low), unique_by=unique)
            most = _int(flat.get("maxItems"), -1)
            if max(high, low) < most <= _EDGE_ITEMS and depth < 2:
                # as many items as the bound allows: where maxItems moved, that list breaks
                return lists | st.lists(items, min_size=most, max_size=most, unique_by=unique)
            return lists
        if kind == "object":
            return self._object(flat, depth)
        return _ANY

    def _object(self, flat: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
        properties = flat.get("properties") if isinstance(flat.get("properties"), dict) else {}
        required = [name for name in flat.get("required") or () if isinstance(name, str)]
        assert isinstance(properties, dict)
        fixed = {name: self._property(properties.get(name), depth) for name in required}
        optional = {
            name: self._property(schema, depth) for name, schema in properties.items() if name not in fixed
        }
        declared = st.fixed_dictionaries(fixed, optional=optional)
        extra = flat.get("additionalProperties", True)
        if extra is False or (properties and not self.undeclared):
            return declared
        if properties:  # `undeclared`: a field of a name no schema declares, as OLD allowed
            known = [name for name in self.names if name not in properties]
            names = st.text(string.ascii_lowercase, min_size=1, max_size=6).filter(
                lambda n: n not in properties
            )
            names = st.sampled_from(known) | names if known else names
            more = st.dictionaries(names, _SCALARS, min_size=1, max_size=1)
            return st.tuples(declared, more).map(lambda pair: {**pair[1], **pair[0]})
        values = self.strategy(extra, depth + 1) if isinstance(extra, dict) else _ANY
        entries = st.dictionaries(
            st.text(string.ascii_lowercase, min_size=1, max_size=6), values, max_size=_MAX_MAP
        )
        return st.tuples(declared, entries).map(lambda pair: {**pair[1], **pair[0]})

    def _items(self, schema: Any, depth: int) -> st.SearchStrategy[Any]:
        if schema is False:
            return st.nothing()
        return self.strategy(schema, depth + 1) if isinstance(schema, dict) else _ANY

    def _property(self, schema: Any, depth: int) -> st.SearchStrategy[Any]:
        return _ANY if schema is None else self.strategy(schema, depth + 1)


def _vocabulary(schema: Any) -> tuple[list[str], list[str], list[int], list[int | float]]:
    """(property names, string constants, string lengths and numbers just past its bounds) anywhere
    in an inlined schema, sorted (a fixed seed's answer must not depend on set order)."""
    names: set[str] = set()
    words: set[str] = set()
    lengths: set[int] = set()
    numbers: set[int | float] = set()
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, list):
            todo.extend(node)
        elif isinstance(node, dict):
            properties = node.get("properties")
            required, enum = node.get("required"), node.get("enum")
            names.update(str(name) for name in (properties if isinstance(properties, dict) else ()))
            names.update(
                name for name in (required if isinstance(required, list) else ()) if isinstance(name, str)
            )
            values = [node.get("const"), *(enum if isinstance(enum, list) else ())]
            words.update(value for value in values if isinstance(value, str))
            lengths.update(int(n) for n in _past(node.get("maxLength"), 1) | _past(node.get("minLength"), -1))
            for key in ("maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum"):
                numbers.update(_past(node.get(key), 1 if "max" in key.lower() else -1, keep=True))
            todo.extend(value for key, value in node.items() if key not in _LITERALS)
    lengths = {n for n in lengths if 0 <= n <= _MAX_LENGTH}
    return (
        sorted(names)[:_VOCABULARY],
        sorted(words)[:_VOCABULARY],
        sorted(lengths)[:_VOCABULARY],
        sorted(numbers)[:_VOCABULARY],
    )


def _past(bound: Any, step: int, keep: bool = False) -> set[int | float]:
    """The value just past a numeric bound (and the bound itself, for an exclusive one or a number)."""
    if not _is_number(bound):
        return set()
    return {bound + step, bound} if keep else {int(bound) + step}


_LITERALS = ("enum", "const", "default", "example", "examples")


def _implied_type(flat: dict[str, Any]) -> str | None:
    if any(key in flat for key in ("properties", "required", "additionalProperties", "minProperties")):
        return "object"
    if any(key in flat for key in ("items", "minItems", "maxItems", "prefixItems", "contains")):
        return "array"
    if any(key in flat for key in ("pattern", "minLength", "maxLength", "format")):
        return "string"
    if any(key in flat for key in ("minimum", "maximum", "multipleOf")) or any(
        _is_number(flat.get(key)) for key in ("exclusiveMinimum", "exclusiveMaximum")
    ):
        return "number"
    return None


def _merge(first: dict[str, Any], second: dict[str, Any]) -> dict[str, Any]:
    """Two schemas a payload must both satisfy, as one (near enough: the validator has the last word)."""
    merged = dict(first)
    for key, value in second.items():
        if key not in merged:
            merged[key] = value
        elif key == "properties" and isinstance(value, dict):
            properties = dict(merged[key])
            for name, schema in value.items():
                properties[name] = {"allOf": [properties[name], schema]} if name in properties else schema
            merged[key] = properties
        elif key == "required" and isinstance(value, list):
            merged[key] = [*merged[key], *(name for name in value if name not in merged[key])]
        elif key == "enum" and isinstance(value, list):
            merged[key] = [item for item in merged[key] if item in value]
        elif key == "nullable":
            merged[key] = merged[key] is True and value is True  # null must pass every member
        elif key == "type" and {merged[key], value} == {"integer", "number"}:
            merged[key] = "integer"
        elif key in ("minimum", "minLength", "minItems", "minProperties") and _is_number(value):
            merged[key] = max(merged[key], value)
        elif key in ("maximum", "maxLength", "maxItems", "maxProperties") and _is_number(value):
            merged[key] = min(merged[key], value)
    return merged


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _int(value: Any, default: int) -> int:
    return int(value) if _is_number(value) else default


def _string(flat: dict[str, Any]) -> st.SearchStrategy[str]:
    low = _int(flat.get("minLength"), 0)
    high = _int(flat.get("maxLength"), -1)  # -1: no maxLength
    short = low + _MAX_TEXT if high < 0 else min(high, low + _MAX_TEXT)
    pattern = flat.get("pattern")
    base: st.SearchStrategy[str]
    if isinstance(pattern, str):
        try:
            base = st.from_regex(pattern)
        except Exception:  # not a Python regex (an ECMA-only construct): plain text, the validator judges
            base = st.text(min_size=low, max_size=short)
    elif isinstance(flat.get("format"), str) and flat["format"] in _FORMATS:
        base = _FORMATS[flat["format"]]
    else:
        # the lengths at the bounds too: where a bound moved, those are the values that break
        edges = [st.text(min_size=size, max_size=size) for size in {low, high} if size >= 0 and size != short]
        return st.one_of(st.text(min_size=low, max_size=short), *edges)
    return base.filter(lambda text: low <= len(text) and (high < 0 or len(text) <= high))


def _bounds(flat: dict[str, Any]) -> tuple[float | None, bool, float | None, bool]:
    """(low, exclusive?, high, exclusive?): 3.0's boolean exclusive flags or 3.1's numeric bounds."""
    low = float(flat["minimum"]) if _is_number(flat.get("minimum")) else None
    high = float(flat["maximum"]) if _is_number(flat.get("maximum")) else None
    low_open, high_open = flat.get("exclusiveMinimum") is True, flat.get("exclusiveMaximum") is True
    if _is_number(flat.get("exclusiveMinimum")) and (low is None or flat["exclusiveMinimum"] >= low):
        low, low_open = float(flat["exclusiveMinimum"]), True
    if _is_number(flat.get("exclusiveMaximum")) and (high is None or flat["exclusiveMaximum"] <= high):
        high, high_open = float(flat["exclusiveMaximum"]), True
    return low, low_open, high, high_open


def _integer(flat: dict[str, Any]) -> st.SearchStrategy[int]:
    low, low_open, high, high_open = _bounds(flat)
    first = None if low is None else (math.floor(low) + 1 if low_open else math.ceil(low))
    last = None if high is None else (math.ceil(high) - 1 if high_open else math.floor(high))
    fmt = flat.get("format")
    limits = _INT64 if fmt == "int64" else _INT32 if fmt == "int32" else None
    if limits is not None:
        first = limits[0] if first is None else max(first, limits[0])
        last = limits[1] if last is None else min(last, limits[1])
    if first is not None and last is not None and first > last:
        return st.nothing()
    step = flat.get("multipleOf")
    if isinstance(step, int) and not isinstance(step, bool) and step > 0:
        lowest = None if first is None else -(-first // step)
        highest = None if last is None else last // step
        return st.integers(lowest, highest).map(lambda n: n * step)
    edges = sorted({value for value in (first, last) if value is not None} | {0} & _range(first, last))
    edges += [value + step for value, step in ((first, 1), (last, -1)) if value is not None and first != last]
    return st.integers(first, last) | st.sampled_from(edges) if edges else st.integers(first, last)


def _range(first: int | None, last: int | None) -> set[int]:
    """{0} when 0 lies between the bounds: a common edge (a minimum 0 made exclusive)."""
    return {0} if (first is None or first <= 0) and (last is None or last >= 0) else set()


def _number(flat: dict[str, Any]) -> st.SearchStrategy[float]:
    low, low_open, high, high_open = _bounds(flat)
    floats = st.floats(
        min_value=low,
        max_value=high,
        exclude_min=low_open and low is not None,
        exclude_max=high_open and high is not None,
        allow_nan=False,
        allow_infinity=False,
    )
    edges = [
        value for value, open_ in ((low, low_open), (high, high_open)) if value is not None and not open_
    ]
    return floats | st.sampled_from(edges) if edges else floats
