"""`csapi diff`: what changed between two versions of an OpenAPI document, and whom it breaks.

Pure functions over two loaded documents (`compare(old, new)`); `$ref`s are followed (local
ones, with cycle protection) and `allOf` members are read as one schema, so moving a field
into a shared component, renaming a component or reordering keys changes nothing. Operations
are matched by method and path with path parameter names blanked: `/v1/items/{id}` and
`/v1/items/{item_id}` are the same operation, and the rename alone is compatible (the URL on
the wire does not change). Parameters are matched by where they are and their name (path
parameters by position); responses by status; media types, headers and links by name.

Every change is a `Change`: the operation (summary, "METHOD /path", operationId), a JSON
pointer into the NEW document where the changed thing exists there, else into the OLD one,
a rule, a message and a classification:

- ``breaking-client``: a client that worked against servers of the old document may fail
  against servers of the new one: a request it sends is now refused, or an answer it gets
  is one it was not told to expect.
- ``breaking-server``: a server (the mock included) that implemented the old document no
  longer implements the new one: it must now accept something new, or answer something
  it did not have to.
- ``compatible``: neither (documentation, a path parameter rename, an optional response
  field, a new error status, ...).

The model. Most changes make a schema (or a list of parameters, media types, statuses)
accept fewer values (*tighten*), more values (*loosen*), or both (a type or format
replaced). What that means depends on the direction the data travels, and a schema used
in a request and in a response is classified where it is reached:

==========================  =====================  =====================
effect                      in a request           in a response
==========================  =====================  =====================
tighten (fewer values)      breaking-server        breaking-server
loosen (more values)        breaking-server        breaking-client
both                        breaking-server        breaking-client
meaning (a default)         breaking-client        compatible
obligation (a new field)    breaking-server        compatible
neutral                     compatible             compatible
==========================  =====================  =====================

This is the model of issue 8: "breaking for servers/implementers (e.g. a request field made
required, an enum value removed from a request, a new required parameter)", "breaking for
clients (e.g. a response field removed or made nullable, an enum value added to a response,
a status code removed)". A request change moves what every server must accept or refuse,
so implementers must follow (a tightened request also fails clients that send what is now
refused; the report names the side that must change its code to conform). A loosened
response is output clients must now read (breaking-client); a tightened response is a
promise every server must now keep (breaking-server: `csapi validate --drift` then shows
where the mock does not keep it). A changed default changes what clients get when they
leave a field out.

The rules (rule name: effect):

- ``operation-removed``: breaking-client. ``operation-added``: breaking-server (every
  server must now implement it). ``operation-id-changed``: breaking-server (the wire is the
  same, but implementations routed by operationId, like the mock, must follow).
  ``deprecated``: neutral.
- ``parameter-added``: tighten when required, else loosen (servers must honour a new
  optional parameter; strict servers, like the mock, refuse unknown query parameters).
  ``parameter-removed``: tighten (plus loosen when it was required).
  ``parameter-required``: tighten / loosen. ``parameter-style``: both.
  ``path-parameter-renamed``: neutral.
- ``request-body-added``: tighten when required, else loosen. ``request-body-removed``:
  tighten. ``request-body-required``: tighten / loosen.
- ``media-type-added``: loosen. ``media-type-removed``: tighten in a request, both in a
  response (a client reads the body in the type it knows).
- ``response-removed``: breaking-client (the situation it signalled is now answered with
  another status, which clients read as that status' meaning). ``response-added``:
  breaking-client for 1xx-3xx, compatible for 4xx, 5xx and default (RFC 9110 section 15:
  a client treats an unknown status as the x00 of its class).
- ``header-added``: tighten when required, else neutral. ``header-removed``: loosen.
  ``header-required``: tighten / loosen.
- ``link-added``: tighten (a new promise about the response). ``link-removed``: loosen.
  ``link-changed``: both. Link parameters naming path parameters are compared by position.
- ``security-requirement-added``: loosen (a new way in that servers must accept).
  ``security-requirement-removed``: tighten. Schemes are compared by their definition, not
  their component name; a requirement only counts as removed when no requirement of the
  new document asks for a subset of it (and the other way round for added).
- Schemas: ``property-added``: tighten when required; loosen when the object was closed
  (`additionalProperties: false`); else an obligation: an open request object's unknown fields
  are ignored (docs/design.md, request tolerance), so servers must now act on the new one.
  ``property-removed``: tighten when the object is closed (plus loosen when it was
  required); else loosen. ``required-added``: tighten. ``required-removed``: loosen.
  ``type-changed``: tighten / loosen (integer -> number loosens) / both.
  ``format-changed``, ``pattern-changed``, ``multiple-of``: tighten when added, loosen when
  removed, both when replaced. ``nullable``: loosen when made nullable, else tighten.
  ``enum-value-added``: loosen. ``enum-value-removed``: tighten (an enum added or dropped
  as a whole tightens or loosens). ``bound-tightened`` / ``bound-loosened``: minimum,
  maximum (and exclusive), minLength, maxLength, minItems, maxItems, minProperties,
  maxProperties. ``unique-items``: tighten / loosen. ``additional-properties``: closing
  tightens, opening loosens. ``alternative-added`` / ``alternative-removed`` (oneOf and
  anyOf, compared by position): loosen / tighten. ``default-changed``: meaning.
  ``deprecated``: neutral.

Not compared: descriptions, summaries, examples, tags, `servers`, `info`, `not`,
`discriminator`, `readOnly`/`writeOnly`, media type `encoding`, extensions (`x-`), and
components no operation reaches. `null` in an `enum` counts under ``nullable``, not as an
enum value. `allOf` members are merged (properties and `required` united, the tightest bound
kept); conflicting members are not analysed further.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum, StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote

import yaml

from .lint import DocumentError, _JsonLikeLoader, loads, pointer

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
FAIL_ON = ("none", "breaking", "breaking-client", "breaking-server", "any")


class Classification(StrEnum):
    BREAKING_CLIENT = "breaking-client"
    BREAKING_SERVER = "breaking-server"
    COMPATIBLE = "compatible"


# How each classification is said in reports, in the order they are listed.
WORDS = {
    Classification.BREAKING_CLIENT: "breaking for clients",
    Classification.BREAKING_SERVER: "breaking for servers",
    Classification.COMPATIBLE: "compatible",
}


@dataclass(frozen=True)
class Change:
    """One difference between the documents, located and classified."""

    operation: str  # "METHOD /path", the new path when the operation is in both
    operation_id: str
    summary: str
    pointer: str  # into the new document where the changed thing exists there, else the old one
    rule: str
    message: str
    classification: Classification

    @property
    def breaking(self) -> bool:
        return self.classification is not Classification.COMPATIBLE

    def __str__(self) -> str:
        return f"{self.classification.value:<15} {self.pointer}: [{self.rule}] {self.message}"

    def as_dict(self) -> dict[str, str]:
        return {
            "operation": self.operation,
            "operation_id": self.operation_id,
            "summary": self.summary,
            "pointer": self.pointer,
            "rule": self.rule,
            "message": self.message,
            "classification": self.classification.value,
        }


@dataclass(frozen=True)
class Report:
    """All changes from `old` to `new` (labels: a path or `git:REV`), in operation order."""

    old: str
    new: str
    changes: tuple[Change, ...]

    def count(self, classification: Classification) -> int:
        return sum(1 for change in self.changes if change.classification is classification)

    def fails(self, fail_on: str) -> bool:
        """Whether the `--fail-on` condition (one of FAIL_ON) is met."""
        if fail_on == "none":
            return False
        if fail_on == "any":
            return bool(self.changes)
        if fail_on == "breaking":
            return any(change.breaking for change in self.changes)
        return self.count(Classification(fail_on)) > 0

    def groups(self) -> list[tuple[Change, list[Change]]]:
        """(first change, its operation's changes) per operation, in report order."""
        groups: dict[tuple[str, str], list[Change]] = {}
        for change in self.changes:
            groups.setdefault((change.operation, change.operation_id), []).append(change)
        return [(changes[0], changes) for changes in groups.values()]

    def summary(self) -> str:
        if not self.changes:
            return f"No changes between {self.old} and {self.new}."
        counts = ", ".join(f"{self.count(c)} {words}" for c, words in WORDS.items())
        return f"{len(self.changes)} change(s) from {self.old} to {self.new}: {counts}."

    def as_dict(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "summary": {"total": len(self.changes), **{c.value: self.count(c) for c in Classification}},
            "changes": [change.as_dict() for change in self.changes],
        }

    def text(self) -> str:
        lines: list[str] = []
        for first, changes in self.groups():
            lines.append(_heading(first))
            lines.extend(f"  {change}" for change in changes)
            lines.append("")
        lines.append(self.summary())
        return "\n".join(lines)

    def markdown(self) -> str:
        """A pull-request comment: the summary, then a table per operation."""
        lines = [f"### API changes: `{self.old}` → `{self.new}`", ""]
        if not self.changes:
            return "\n".join([*lines, "No changes."])
        counts = " · ".join(f"**{self.count(c)}** {words}" for c, words in WORDS.items())
        lines += [f"{len(self.changes)} change(s): {counts}", ""]
        for first, changes in self.groups():
            lines += [f"#### {_md(_heading(first))}", "", "| | change | where | rule |", "|---|---|---|---|"]
            for change in changes:
                mark = "**" + change.classification.value + "**" if change.breaking else "compatible"
                lines.append(f"| {mark} | {_md(change.message)} | `{change.pointer}` | {change.rule} |")
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"


def _heading(change: Change) -> str:
    name = f"{change.summary} ({change.operation})" if change.summary else change.operation
    return f"{name} [{change.operation_id}]" if change.operation_id else name


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


# --------------------------------------------------------------------------------------------------
# Entry points


class SourceError(Exception):
    """A document side (`git:REV` or a file) cannot be read."""


def compare(
    old: dict[str, Any], new: dict[str, Any], old_label: str = "old", new_label: str = "new"
) -> Report:
    """The report of every change from `old` to `new` (two parsed documents)."""
    return Report(old_label, new_label, tuple(diff(old, new)))


def diff(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """Every change from `old` to `new`, grouped by operation (new document order, removed last)."""
    return _Differ(_Document(old), _Document(new)).run()


def load_source(source: str, reference: str | Path) -> dict[str, Any]:
    """A document from a file path, or `git:REV` for the file at `reference` as of revision REV."""
    if not source.startswith("git:"):
        try:
            return parse(Path(source).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise SourceError(f"cannot read {source}: {' '.join(str(exc).split())}") from exc
        except DocumentError as exc:
            raise SourceError(f"{source}: {exc}") from exc
    revision, reference = source.removeprefix("git:"), Path(reference).absolute()
    command = ["git", "-C", str(reference.parent), "show", f"{revision}:./{reference.name}"]
    try:
        shown = subprocess.run(command, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise SourceError(f"cannot run git: {exc}") from exc
    if shown.returncode != 0:
        why = " ".join(shown.stderr.split()) or f"exit status {shown.returncode}"
        raise SourceError(f"git cannot show {reference.name} at {revision!r}: {why}")
    try:
        return parse(shown.stdout)
    except DocumentError as exc:
        raise SourceError(f"{reference.name} at {revision!r}: {exc}") from exc


if TYPE_CHECKING:
    _YamlLoader = yaml.SafeLoader  # what mypy checks against: CSafeLoader has the same interface
else:
    _YamlLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when PyYAML has it


class _FastLoader(_YamlLoader):
    yaml_implicit_resolvers = _JsonLikeLoader.yaml_implicit_resolvers


def parse(text: str) -> dict[str, Any]:
    """`openapi.lint.loads` (the same JSON-like data), ten times faster with libyaml when PyYAML has it.

    The document is some 3,000 lines: the pure-Python parser takes a second per side. Anything
    libyaml does not take goes to `loads`, for its error message.
    """
    try:
        data = json.loads(json.dumps(yaml.load(text, Loader=_FastLoader)))
    except (yaml.YAMLError, TypeError, ValueError, RecursionError):
        data = None
    return data if isinstance(data, dict) else loads(text)


# --------------------------------------------------------------------------------------------------
# Effects and findings


class Effect(Enum):
    TIGHTEN = "tighten"
    LOOSEN = "loosen"
    BOTH = "both"
    MEANING = "meaning"
    OBLIGATION = "obligation"  # servers must act on what they could ignore; readers lose nothing
    NEUTRAL = "neutral"


class Direction(Enum):
    REQUEST = "request"
    RESPONSE = "response"


def classify(effect: Effect, direction: Direction) -> Classification:
    """The table of the module docstring."""
    if effect is Effect.NEUTRAL or (effect is Effect.MEANING and direction is Direction.RESPONSE):
        return Classification.COMPATIBLE
    if effect is Effect.MEANING:
        return Classification.BREAKING_CLIENT
    if effect is Effect.OBLIGATION:
        return Classification.BREAKING_SERVER if direction is Direction.REQUEST else Classification.COMPATIBLE
    if direction is Direction.REQUEST:  # what servers must accept moved: implementers follow
        return Classification.BREAKING_SERVER
    return Classification.BREAKING_SERVER if effect is Effect.TIGHTEN else Classification.BREAKING_CLIENT


def _combine(*effects: Effect) -> Effect:
    kinds = {effect for effect in effects if effect is not Effect.NEUTRAL}
    if not kinds:
        return Effect.NEUTRAL
    return kinds.pop() if len(kinds) == 1 else Effect.BOTH


@dataclass(frozen=True)
class _Finding:
    """A change before it is placed in an operation: `fixed` overrides the effect's classification."""

    pointer: str
    rule: str
    message: str
    effect: Effect = Effect.NEUTRAL
    fixed: Classification | None = None


View = tuple[tuple[dict[str, Any], str], ...]  # a schema and its allOf members: (node, pointer) each
_MISSING = object()


def _esc(part: str | int) -> str:
    return pointer((part,))


def _key(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _show(values: Iterable[Any]) -> str:
    return ", ".join(json.dumps(value) for value in values)


# --------------------------------------------------------------------------------------------------
# One document, its references and operations


@dataclass
class _Operation:
    method: str
    path: str
    node: dict[str, Any]
    item: dict[str, Any]

    @property
    def ptr(self) -> str:
        return pointer(("paths", self.path, self.method))

    @property
    def label(self) -> str:
        return f"{self.method.upper()} {self.path}"

    @property
    def key(self) -> tuple[str, str]:
        return self.method.upper(), re.sub(r"\{[^}/]*\}", "{}", self.path)

    @property
    def path_names(self) -> list[str]:
        return re.findall(r"\{([^}/]*)\}", self.path)

    @property
    def operation_id(self) -> str:
        return str(self.node.get("operationId", ""))


class _Document:
    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data if isinstance(data, dict) else {}
        self.operations: dict[tuple[str, str], _Operation] = {}
        for path, item in _dict(self.data.get("paths")).items():
            item, _ = self.deref(item, "")
            for method, node in _dict(item).items():
                if method in HTTP_METHODS and isinstance(node, dict):
                    operation = _Operation(method, str(path), node, item)
                    self.operations.setdefault(operation.key, operation)
        self.by_id = {op.operation_id: op for op in self.operations.values() if op.operation_id}

    def deref(self, node: Any, ptr: str) -> tuple[Any, str]:
        """`node` (found at `ptr`) with its chain of local `$ref`s followed; a loop stops where it closes."""
        seen: set[str] = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if not ref.startswith("#") or ref in seen:
                break  # a remote reference or a cycle: compared as written
            seen.add(ref)
            target_ptr = unquote(ref[1:])
            target = _follow(self.data, target_ptr)
            if target is _MISSING:
                break
            node, ptr = target, target_ptr
        return node, ptr

    def view(self, node: Any, ptr: str, seen: frozenset[str] = frozenset()) -> View:
        """The schema at `ptr` with its `allOf` members (recursively), references followed."""
        node, ptr = self.deref(node, ptr)
        if not isinstance(node, dict) or ptr in seen:
            return ()
        parts: list[tuple[dict[str, Any], str]] = [(node, ptr)]
        for index, member in enumerate(_list(node.get("allOf"))):
            parts.extend(self.view(member, f"{ptr}/allOf/{index}", seen | {ptr}))
        return tuple(parts)

    def security(self, operation: _Operation) -> tuple[list[Any], str]:
        """The operation's security requirements and where they are written."""
        if "security" in operation.node:
            return _list(operation.node["security"]), f"{operation.ptr}/security"
        return _list(self.data.get("security")), "/security"


def _follow(node: Any, ptr: str) -> Any:
    if ptr == "":
        return node
    if not ptr.startswith("/"):
        return _MISSING
    for token in ptr[1:].split("/"):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return _MISSING
    return node


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


# --------------------------------------------------------------------------------------------------
# Schemas


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
    return {_key(v): v for v in value if v is not None}


def _required(view: View) -> dict[str, str]:
    """Required names -> pointer of the `required` list naming them."""
    names: dict[str, str] = {}
    for node, ptr in view:
        for name in _list(node.get("required")):
            names.setdefault(str(name), f"{ptr}/required")
    return names


def _properties(view: View) -> dict[str, list[tuple[Any, str]]]:
    properties: dict[str, list[tuple[Any, str]]] = {}
    for node, ptr in view:
        for name, schema in _dict(node.get("properties")).items():
            properties.setdefault(str(name), []).append((schema, f"{ptr}/properties/{_esc(name)[1:]}"))
    return properties


def _additional(view: View) -> tuple[str, Any, str | None]:
    """("closed" | "schema" | "open", the schema, its pointer)."""
    found: tuple[str, Any, str | None] = ("open", None, None)
    for node, ptr in view:
        value = node.get("additionalProperties", _MISSING)
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


class _Stability:
    """Whether the text at a pointer is the same in both documents, and so is all it references.

    Most edits touch a few lines: what they do not reach is skipped without being compared.
    A cycle of references counts as changed (compared in full, which is always right).
    """

    def __init__(self, old: _Document, new: _Document) -> None:
        self.old, self.new = old, new
        self.known: dict[str, bool] = {}

    def __call__(self, ptr: str) -> bool:
        if ptr not in self.known:
            self.known[ptr] = False  # while it is being decided: a cycle is not stable
            node = _follow(self.new.data, ptr)
            self.known[ptr] = (
                node == _follow(self.old.data, ptr)
                and all(  # absent from both: stable
                    self(unquote(ref[1:])) for ref in _local_refs(node)
                )
            )
        return self.known[ptr]


def _local_refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#"):
            yield ref
        for value in node.values():
            yield from _local_refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _local_refs(value)


class _Schemas:
    """Compares schema views of the two documents; results are kept per pair of locations."""

    def __init__(self, old: _Document, new: _Document, stable: _Stability) -> None:
        self.old, self.new, self.stable = old, new, stable
        self.memo: dict[tuple[tuple[str, ...], tuple[str, ...]], list[_Finding]] = {}
        self.active: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()

    def compare(self, old: View, new: View) -> list[_Finding]:
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

    def _compare(self, old: View, new: View) -> Iterator[_Finding]:
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

    def _type(self, old: View, new: View) -> Iterator[_Finding]:
        before, after = _types(old), _types(new)
        if before == after:
            return
        where = _at(old, new, "type")
        if before is None:
            yield _Finding(
                where, "type-changed", f"type restricted to {_show(sorted(after or ()))}", Effect.TIGHTEN
            )
            return
        if after is None:
            yield _Finding(
                where, "type-changed", f"type {_show(sorted(before))} no longer enforced", Effect.LOOSEN
            )
            return
        widens = all(_accepts(after, kind) for kind in before)
        narrows = all(_accepts(before, kind) for kind in after)
        effect = Effect.LOOSEN if widens else Effect.TIGHTEN if narrows else Effect.BOTH
        message = f"type changed from {_show(sorted(before))} to {_show(sorted(after))}"
        yield _Finding(where, "type-changed", message, effect)

    def _nullable(self, old: View, new: View) -> Iterator[_Finding]:
        before, after = _nullable(old), _nullable(new)
        if before != after:
            where = _at(old, new, "nullable")
            if after:
                yield _Finding(where, "nullable", "made nullable (null is now allowed)", Effect.LOOSEN)
            else:
                yield _Finding(where, "nullable", "no longer nullable (null is now refused)", Effect.TIGHTEN)

    def _enum(self, old: View, new: View) -> Iterator[_Finding]:
        before, after = _enum(old), _enum(new)
        if before == after:
            return
        where = _at(old, new, "enum")
        if after is not None and before is None:
            message = f"restricted to the enum {_show(after.values())}"
            yield _Finding(where, "enum-value-removed", message, Effect.TIGHTEN)
        elif after is None:
            yield _Finding(where, "enum-value-added", "enum removed: any value is allowed", Effect.LOOSEN)
        elif before is not None:
            added = [after[key] for key in after if key not in before]
            removed = [before[key] for key in before if key not in after]
            if added:
                yield _Finding(
                    where, "enum-value-added", f"enum value(s) added: {_show(added)}", Effect.LOOSEN
                )
            if removed:
                message = f"enum value(s) removed: {_show(removed)}"
                yield _Finding(where, "enum-value-removed", message, Effect.TIGHTEN)

    def _replaceable(self, old: View, new: View, keyword: str, rule: str) -> Iterator[_Finding]:
        before, _ = _first(old, keyword)
        after, _ = _first(new, keyword)
        if before == after:
            return
        where = _at(old, new, keyword)
        if before is None:
            yield _Finding(where, rule, f"{keyword} {json.dumps(after)} added", Effect.TIGHTEN)
        elif after is None:
            yield _Finding(where, rule, f"{keyword} {json.dumps(before)} removed", Effect.LOOSEN)
        else:
            message = f"{keyword} changed from {json.dumps(before)} to {json.dumps(after)}"
            yield _Finding(where, rule, message, Effect.BOTH)

    def _bounds(self, old: View, new: View) -> Iterator[_Finding]:
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
            yield _Finding(_at(old, new, keyword), rule, message, effect)

    def _flag(self, old: View, new: View, keyword: str, rule: str, when_set: Effect) -> Iterator[_Finding]:
        before = any(node.get(keyword) is True for node, _ in old)
        after = any(node.get(keyword) is True for node, _ in new)
        if before != after:
            effect = when_set if after else _opposite(when_set)
            yield _Finding(_at(old, new, keyword), rule, f"{keyword} {'set' if after else 'unset'}", effect)

    def _default(self, old: View, new: View) -> Iterator[_Finding]:
        before, _ = _first(old, "default")
        after, _ = _first(new, "default")
        if before is not None and after is not None and _key(before) != _key(after):
            message = f"default changed from {json.dumps(before)} to {json.dumps(after)}"
            yield _Finding(_at(old, new, "default"), "default-changed", message, Effect.MEANING)

    def _properties(self, old: View, new: View) -> Iterator[_Finding]:
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
                yield _Finding(site, "property-added", message, effect)
            elif name not in new_props:
                site = old_props[name][0][1]
                was_required = name in old_required
                effect = _combine(
                    Effect.TIGHTEN if new_closed else Effect.LOOSEN,
                    Effect.LOOSEN if was_required else Effect.NEUTRAL,
                )
                message = f"{'required' if was_required else 'optional'} property `{name}` removed"
                yield _Finding(site, "property-removed", message, effect)
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
    ) -> Iterator[_Finding]:
        if name in new_required and name not in old_required:
            yield _Finding(where, "required-added", f"`{name}` is now required", Effect.TIGHTEN)
        elif name in old_required and name not in new_required:
            yield _Finding(where, "required-removed", f"`{name}` is no longer required", Effect.LOOSEN)

    def _view(self, document: _Document, entries: list[tuple[Any, str]]) -> View:
        return tuple(part for node, ptr in entries for part in document.view(node, ptr))

    def _sub(self, document: _Document, view: View, keyword: str) -> View:
        return self._view(
            document, [(node[keyword], f"{ptr}/{keyword}") for node, ptr in view if keyword in node]
        )

    def _additional(self, old: View, new: View) -> Iterator[_Finding]:
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
            yield _Finding(where, "additional-properties", message, effect)

    def _items(self, old: View, new: View) -> Iterator[_Finding]:
        before, after = self._sub(self.old, old, "items"), self._sub(self.new, new, "items")
        if before or after:
            yield from self.compare(before, after)

    def _alternatives(self, old: View, new: View, keyword: str) -> Iterator[_Finding]:
        before, old_ptr = _first(old, keyword)
        after, new_ptr = _first(new, keyword)
        before, after = _list(before), _list(after)
        for index in range(max(len(before), len(after))):
            if index >= len(before):
                where = f"{new_ptr}/{index}"
                yield _Finding(
                    where, "alternative-added", f"{keyword} alternative {index} added", Effect.LOOSEN
                )
            elif index >= len(after):
                where = f"{old_ptr}/{index}"
                yield _Finding(
                    where, "alternative-removed", f"{keyword} alternative {index} removed", Effect.TIGHTEN
                )
            else:
                yield from self.compare(
                    self.old.view(before[index], f"{old_ptr}/{index}"),
                    self.new.view(after[index], f"{new_ptr}/{index}"),
                )


def _opposite(effect: Effect) -> Effect:
    return {Effect.TIGHTEN: Effect.LOOSEN, Effect.LOOSEN: Effect.TIGHTEN}.get(effect, effect)


# --------------------------------------------------------------------------------------------------
# Operations


@dataclass
class _Placed:
    finding: _Finding
    direction: Direction
    context: str


@dataclass
class _Differ:
    old: _Document
    new: _Document
    schemas: _Schemas = field(init=False)
    stable: _Stability = field(init=False)
    same_paths: bool = field(init=False)

    def __post_init__(self) -> None:
        self.stable = _Stability(self.old, self.new)
        self.schemas = _Schemas(self.old, self.new, self.stable)
        # links name their target's path parameters: with a path renamed, no operation is skipped
        labels = [{op.label for op in document.operations.values()} for document in (self.old, self.new)]
        self.same_paths = labels[0] == labels[1] and all(
            map(self.stable, ("/security", "/components/securitySchemes"))
        )

    def run(self) -> list[Change]:
        changes: list[Change] = []
        for key, operation in self.new.operations.items():
            before = self.old.operations.get(key)
            if before is None:
                message = f"operation {operation.label} added: every server must implement it"
                finding = _Finding(
                    operation.ptr, "operation-added", message, fixed=Classification.BREAKING_SERVER
                )
                changes.extend(self._place(operation, [_Placed(finding, Direction.REQUEST, "")]))
            else:
                changes.extend(self._place(operation, list(self._operation(before, operation))))
        for key, operation in self.old.operations.items():
            if key not in self.new.operations:
                message = f"operation {operation.label} removed"
                finding = _Finding(
                    operation.ptr, "operation-removed", message, fixed=Classification.BREAKING_CLIENT
                )
                changes.extend(self._place(operation, [_Placed(finding, Direction.REQUEST, "")]))
        return changes

    def _place(self, operation: _Operation, placed: list[_Placed]) -> list[Change]:
        changes: dict[tuple[str, str, str, Classification], Change] = {}
        for entry in placed:
            finding = entry.finding
            classification = finding.fixed or classify(finding.effect, entry.direction)
            key = (finding.pointer, finding.rule, finding.message, classification)
            message = f"{entry.context}: {finding.message}" if entry.context else finding.message
            changes.setdefault(
                key,
                Change(
                    operation.label,
                    operation.operation_id,
                    str(operation.node.get("summary", "")),
                    finding.pointer,
                    finding.rule,
                    message,
                    classification,
                ),
            )
        return sorted(changes.values(), key=lambda change: (change.pointer, change.rule, change.message))

    def _operation(self, old: _Operation, new: _Operation) -> Iterator[_Placed]:
        request, response = Direction.REQUEST, Direction.RESPONSE
        item_parameters = pointer(("paths", new.path, "parameters"))
        if self.same_paths and old.ptr == new.ptr and self.stable(new.ptr) and self.stable(item_parameters):
            return
        if old.operation_id != new.operation_id:
            message = (
                f"operationId changed from {old.operation_id!r} to {new.operation_id!r}; the wire is the "
                "same, but implementations routed by operationId (the mock's handlers) must follow"
            )
            finding = _Finding(
                f"{new.ptr}/operationId",
                "operation-id-changed",
                message,
                fixed=Classification.BREAKING_SERVER,
            )
            yield _Placed(finding, request, "")
        if bool(old.node.get("deprecated")) != bool(new.node.get("deprecated")):
            state = "deprecated" if new.node.get("deprecated") else "no longer deprecated"
            yield _Placed(_Finding(f"{new.ptr}/deprecated", "deprecated", f"operation {state}"), request, "")
        yield from self._parameters(old, new)
        yield from self._request_body(old, new)
        for finding, context in self._responses(old, new):
            yield _Placed(finding, response, context)
        for finding in self._security(old, new):
            yield _Placed(finding, request, "security")

    # -- parameters
    def _params(
        self, document: _Document, operation: _Operation
    ) -> dict[tuple[str, Any], tuple[dict[str, Any], str, str]]:
        """(in, name or path position) -> (parameter, its pointer, where it is listed)."""
        found: dict[tuple[str, Any], tuple[dict[str, Any], str, str]] = {}
        item_ptr = pointer(("paths", operation.path))
        listed = [(f"{item_ptr}/parameters", operation.item.get("parameters"))]
        listed.append((f"{operation.ptr}/parameters", operation.node.get("parameters")))
        names = operation.path_names
        for base, entries in listed:
            for index, entry in enumerate(_list(entries)):
                site = f"{base}/{index}"
                node, ptr = document.deref(entry, site)
                if not isinstance(node, dict):
                    continue
                name, where = str(node.get("name", "")), str(node.get("in", ""))
                if where == "path" and name in names:
                    key: tuple[str, Any] = ("path", names.index(name))
                else:
                    key = (where, name.lower() if where == "header" else name)
                found[key] = (node, ptr, site)
        return found

    def _parameters(self, old: _Operation, new: _Operation) -> Iterator[_Placed]:
        request = Direction.REQUEST
        before, after = self._params(self.old, old), self._params(self.new, new)
        for key in sorted(before.keys() | after.keys(), key=str):
            if key not in before:
                node, _, site = after[key]
                context = f"{node.get('in')} parameter `{node.get('name')}`"
                required = node.get("required") is True
                effect = Effect.TIGHTEN if required else Effect.LOOSEN
                message = f"new {'required' if required else 'optional'} parameter"
                yield _Placed(_Finding(site, "parameter-added", message, effect), request, context)
                continue
            if key not in after:
                node, _, site = before[key]
                context = f"{node.get('in')} parameter `{node.get('name')}`"
                was_required = node.get("required") is True
                effect = _combine(Effect.TIGHTEN, Effect.LOOSEN if was_required else Effect.NEUTRAL)
                message = f"{'required' if was_required else 'optional'} parameter removed"
                yield _Placed(_Finding(site, "parameter-removed", message, effect), request, context)
                continue
            (old_node, old_ptr, _), (new_node, new_ptr, _) = before[key], after[key]
            context = f"{new_node.get('in')} parameter `{new_node.get('name')}`"
            for finding in self._parameter(old_node, old_ptr, new_node, new_ptr):
                yield _Placed(finding, request, context)

    def _parameter(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[_Finding]:
        if old.get("in") == "path" and old.get("name") != new.get("name"):
            names = f"`{old.get('name')}` to `{new.get('name')}`"
            message = f"path parameter renamed from {names} (the URL is the same)"
            yield _Finding(f"{new_ptr}/name", "path-parameter-renamed", message)
        before, after = old.get("required") is True, new.get("required") is True
        if before != after:
            effect = Effect.TIGHTEN if after else Effect.LOOSEN
            message = "now required" if after else "no longer required"
            yield _Finding(f"{new_ptr}/required", "parameter-required", message, effect)
        for keyword in ("style", "explode"):
            if old.get(keyword) != new.get(keyword):
                message = (
                    f"{keyword} changed from {json.dumps(old.get(keyword))} to {json.dumps(new.get(keyword))}"
                )
                yield _Finding(f"{new_ptr}/{keyword}", "parameter-style", message, Effect.BOTH)
        if bool(old.get("deprecated")) != bool(new.get("deprecated")):
            state = "deprecated" if new.get("deprecated") else "no longer deprecated"
            yield _Finding(f"{new_ptr}/deprecated", "deprecated", f"parameter {state}")
        if "content" in old or "content" in new:
            yield from self._content(old, old_ptr, new, new_ptr, Direction.REQUEST)
        else:
            yield from self.schemas.compare(
                self.old.view(old.get("schema"), f"{old_ptr}/schema"),
                self.new.view(new.get("schema"), f"{new_ptr}/schema"),
            )

    # -- bodies
    def _request_body(self, old: _Operation, new: _Operation) -> Iterator[_Placed]:
        request, context = Direction.REQUEST, "request body"
        before, old_ptr = self.old.deref(old.node.get("requestBody"), f"{old.ptr}/requestBody")
        after, new_ptr = self.new.deref(new.node.get("requestBody"), f"{new.ptr}/requestBody")
        if not isinstance(before, dict) and not isinstance(after, dict):
            return
        if not isinstance(before, dict):
            required = after.get("required") is True
            effect = Effect.TIGHTEN if required else Effect.LOOSEN
            finding = _Finding(
                f"{new.ptr}/requestBody",
                "request-body-added",
                f"{'required' if required else 'optional'} body added",
                effect,
            )
            yield _Placed(finding, request, context)
            return
        if not isinstance(after, dict):
            finding = _Finding(
                f"{old.ptr}/requestBody",
                "request-body-removed",
                "no body is accepted any more",
                Effect.TIGHTEN,
            )
            yield _Placed(finding, request, context)
            return
        if (before.get("required") is True) != (after.get("required") is True):
            required = after.get("required") is True
            effect = Effect.TIGHTEN if required else Effect.LOOSEN
            message = "now required" if required else "no longer required"
            yield _Placed(
                _Finding(f"{new_ptr}/required", "request-body-required", message, effect), request, context
            )
        for finding in self._content(before, old_ptr, after, new_ptr, request):
            yield _Placed(finding, request, context)

    def _content(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str, direction: Direction
    ) -> Iterator[_Finding]:
        before = {
            str(k).lower(): (v, f"{old_ptr}/content/{_esc(k)[1:]}")
            for k, v in _dict(old.get("content")).items()
        }
        after = {
            str(k).lower(): (v, f"{new_ptr}/content/{_esc(k)[1:]}")
            for k, v in _dict(new.get("content")).items()
        }
        removed = Effect.TIGHTEN if direction is Direction.REQUEST else Effect.BOTH
        for media_type in sorted(before.keys() | after.keys()):
            if media_type not in before:
                yield _Finding(
                    after[media_type][1], "media-type-added", f"media type {media_type} added", Effect.LOOSEN
                )
            elif media_type not in after:
                yield _Finding(
                    before[media_type][1], "media-type-removed", f"media type {media_type} removed", removed
                )
            else:
                (old_media, old_at), (new_media, new_at) = before[media_type], after[media_type]
                yield from self.schemas.compare(
                    self.old.view(_dict(old_media).get("schema"), f"{old_at}/schema"),
                    self.new.view(_dict(new_media).get("schema"), f"{new_at}/schema"),
                )

    # -- responses
    def _responses(self, old: _Operation, new: _Operation) -> Iterator[tuple[_Finding, str]]:
        before = {
            str(k).upper(): (v, f"{old.ptr}/responses/{_esc(k)[1:]}")
            for k, v in _dict(old.node.get("responses")).items()
        }
        after = {
            str(k).upper(): (v, f"{new.ptr}/responses/{_esc(k)[1:]}")
            for k, v in _dict(new.node.get("responses")).items()
        }
        for status in sorted(before.keys() | after.keys()):
            context = f"response {status.lower() if status == 'DEFAULT' else status}"
            if status not in before:
                success = status[:1] in "123"
                fixed = Classification.BREAKING_CLIENT if success else Classification.COMPATIBLE
                why = "clients may get a success status they do not know" if success else "an error status"
                yield (
                    _Finding(after[status][1], "response-added", f"status added ({why})", fixed=fixed),
                    context,
                )
            elif status not in after:
                message = "status removed: what it answered is now answered with another status"
                yield (
                    _Finding(
                        before[status][1], "response-removed", message, fixed=Classification.BREAKING_CLIENT
                    ),
                    context,
                )
            else:
                old_node, old_ptr = self.old.deref(*before[status])
                new_node, new_ptr = self.new.deref(*after[status])
                for finding in self._response(old, _dict(old_node), old_ptr, new, _dict(new_node), new_ptr):
                    yield finding, context

    def _response(
        self,
        old_op: _Operation,
        old: dict[str, Any],
        old_ptr: str,
        new_op: _Operation,
        new: dict[str, Any],
        new_ptr: str,
    ) -> Iterator[_Finding]:
        yield from self._headers(old, old_ptr, new, new_ptr)
        yield from self._content(old, old_ptr, new, new_ptr, Direction.RESPONSE)
        yield from self._links(old_op, old, old_ptr, new_op, new, new_ptr)

    def _headers(
        self, old: dict[str, Any], old_ptr: str, new: dict[str, Any], new_ptr: str
    ) -> Iterator[_Finding]:
        def headers(
            document: _Document, node: dict[str, Any], ptr: str
        ) -> dict[str, tuple[str, dict[str, Any], str, str]]:
            found = {}
            for name, header in _dict(node.get("headers")).items():
                if str(name).lower() != "content-type":  # OpenAPI: ignored in responses
                    site = f"{ptr}/headers/{_esc(name)[1:]}"
                    target, at = document.deref(header, site)
                    found[str(name).lower()] = (str(name), _dict(target), at, site)
            return found

        before, after = headers(self.old, old, old_ptr), headers(self.new, new, new_ptr)
        for key in sorted(before.keys() | after.keys()):
            if key not in before:
                name, node, _, site = after[key]
                required = node.get("required") is True
                effect = Effect.TIGHTEN if required else Effect.NEUTRAL
                message = f"{'required' if required else 'optional'} header {name} added"
                yield _Finding(site, "header-added", message, effect)
            elif key not in after:
                name, _, _, site = before[key]
                yield _Finding(site, "header-removed", f"header {name} removed", Effect.LOOSEN)
            else:
                (_, old_node, old_at, _), (name, new_node, new_at, _) = before[key], after[key]
                if (old_node.get("required") is True) != (new_node.get("required") is True):
                    required = new_node.get("required") is True
                    effect = Effect.TIGHTEN if required else Effect.LOOSEN
                    message = f"header {name} {'now' if required else 'no longer'} required"
                    yield _Finding(f"{new_at}/required", "header-required", message, effect)
                for finding in self.schemas.compare(
                    self.old.view(old_node.get("schema"), f"{old_at}/schema"),
                    self.new.view(new_node.get("schema"), f"{new_at}/schema"),
                ):
                    yield _Finding(
                        finding.pointer, finding.rule, f"header {name}: {finding.message}", finding.effect
                    )

    def _links(
        self,
        old_op: _Operation,
        old: dict[str, Any],
        old_ptr: str,
        new_op: _Operation,
        new: dict[str, Any],
        new_ptr: str,
    ) -> Iterator[_Finding]:
        before, after = _dict(old.get("links")), _dict(new.get("links"))
        for name in sorted(before.keys() | after.keys()):
            if name not in before:
                message = f"link {name} added: a new promise about the response"
                yield _Finding(f"{new_ptr}/links/{_esc(name)[1:]}", "link-added", message, Effect.TIGHTEN)
            elif name not in after:
                yield _Finding(
                    f"{old_ptr}/links/{_esc(name)[1:]}", "link-removed", f"link {name} removed", Effect.LOOSEN
                )
            else:
                old_link, _ = self.old.deref(before[name], "")
                new_link, at = self.new.deref(after[name], f"{new_ptr}/links/{_esc(name)[1:]}")
                if self._link(self.old, old_op, old_link) != self._link(self.new, new_op, new_link):
                    yield _Finding(
                        at, "link-changed", f"link {name} changed (target or parameters)", Effect.BOTH
                    )

    def _link(self, document: _Document, source: _Operation, link: Any) -> str:
        """A link's meaning: target operation by method and path shape, parameters by path position."""
        link = _dict(link)
        target = document.by_id.get(str(link.get("operationId")))
        if target is None and isinstance(link.get("operationRef"), str):
            node = _follow(document.data, unquote(link["operationRef"].partition("#")[2]))
            target = next((op for op in document.operations.values() if op.node is node), None)
        target_names = target.path_names if target else []

        def expression(value: Any) -> Any:
            if not isinstance(value, str):
                return value

            def position(match: re.Match[str]) -> str:
                name = match.group(1)
                return (
                    f"$request.path.{{{source.path_names.index(name)}}}"
                    if name in source.path_names
                    else match.group(0)
                )

            return re.sub(r"\$request\.path\.([A-Za-z0-9_.-]+)", position, value)

        parameters = {
            (f"{{{target_names.index(name)}}}" if name in target_names else name): expression(value)
            for name, value in _dict(link.get("parameters")).items()
        }
        meaning = {
            "target": list(target.key) if target else link.get("operationId") or link.get("operationRef"),
            "parameters": parameters,
            "requestBody": expression(link.get("requestBody")),
        }
        return _key(meaning)

    # -- security
    def _security(self, old: _Operation, new: _Operation) -> Iterator[_Finding]:
        before, _ = self.old.security(old)
        after, where = self.new.security(new)
        if "security" not in new.node and "security" not in self.new.data:
            where = new.ptr
        old_sets, new_sets = self._requirements(self.old, before), self._requirements(self.new, after)
        added = {
            text: demands for demands, text in new_sets.items() if not any(o <= demands for o in old_sets)
        }
        removed = {
            text: demands for demands, text in old_sets.items() if not any(n <= demands for n in new_sets)
        }
        for text in sorted(added.keys() & removed.keys()):  # the same schemes by name, defined otherwise
            for name in text.split(" AND "):
                changed = self._scheme_change(name)
                if changed:
                    yield _Finding(pointer(("components", "securitySchemes", name)), *changed)
        for text in sorted(added.keys() - removed.keys()):
            message = f"requirement added ({text}): servers must accept it"
            yield _Finding(where, "security-requirement-added", message, Effect.LOOSEN)
        for text in sorted(removed.keys() - added.keys()):
            message = f"requirement removed ({text}): requests meeting only it are refused"
            yield _Finding(where, "security-requirement-removed", message, Effect.TIGHTEN)

    def _scheme_change(self, name: str) -> tuple[str, str, Effect] | None:
        before, after = _scheme(self.old, name), _scheme(self.new, name)
        keys = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        if not keys:
            return None
        what = "; ".join(f"{k} {json.dumps(before.get(k))} -> {json.dumps(after.get(k))}" for k in keys)
        return "security-scheme-changed", f"scheme {name} changed: {what}", Effect.BOTH

    def _requirements(self, document: _Document, requirements: list[Any]) -> dict[frozenset[str], str]:
        """Each requirement (an alternative) as the set of what it demands: schemes by definition, scopes."""
        found: dict[frozenset[str], str] = {}
        for requirement in requirements or [{}]:
            demands: set[str] = set()
            for name, scopes in _dict(requirement).items():
                definition = _scheme(document, name) or {"undefined": name}
                demands.add(_key(definition))
                demands.update(_key([definition, scope]) for scope in _list(scopes))
            found[frozenset(demands)] = " AND ".join(sorted(_dict(requirement))) or "no credentials"
        return found


def _scheme(document: _Document, name: str) -> dict[str, Any]:
    """A security scheme's definition, without its description and extensions."""
    schemes = _dict(_dict(document.data.get("components")).get("securitySchemes"))
    scheme, _ = document.deref(schemes.get(name), "")
    return {k: v for k, v in _dict(scheme).items() if k != "description" and not str(k).startswith("x-")}
