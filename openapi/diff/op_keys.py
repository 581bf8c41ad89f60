"""Every key of the objects outside schemas, and what a difference in it means (never silent).

One table per object kind of OpenAPI 3.0 and 3.1 (parameter, header, request body, media type,
encoding, response, link, operation, path item, security scheme, OAuth flows, the document, its
components) maps each field the specification defines to how it is compared:

- ``RULED``: a rule of operations.py (or op_security.py, op_document.py) judges it where it is met
  (a parameter's `required`, a media type's `schema`, an operation's `responses`);
- ``DOC``: an annotation: a difference is one COMPATIBLE ``documentation-changed`` change;
- a function: the key's own rule here (`allowEmptyValue`, `allowReserved`, `style`, `servers`...).

A key that is in no table is reported with rule ``not-compared`` (breaking: judge it by hand), an
extension (`x-*`) with rule ``extension-changed`` (compatible). `compare_keys` walks the union of
the keys of two objects, so no difference between them can be dropped without a word.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from ..refs import MISSING, esc
from .model import Classification, Direction, Effect, Finding
from .sides import Side, canon, dict_

BUNDLE = "x-csapi-files"  # the bundled files of a multi-file document (sources.py): reached by `$ref`s

DOCUMENTATION = "documentation only: no request or answer on the wire changes"
EXTENSION = "an extension (x-*): not part of what clients send or read; tools that read it may have to follow"
SERVERS = (
    "clients configure the base URL they call (each deployment has its own); the operations' paths "
    "and what they send and read do not change"
)
NO_EFFECT = "{key} applies to query parameters only: it has no effect here"


def not_compared_reason(keyword: str) -> str:
    return f"csapi diff does not compare `{keyword}`: judge this change by hand"


@dataclass(frozen=True)
class Pair:
    """Two versions of one object: the node on each side (dereferenced), their pointers, the sides."""

    old: Any
    new: Any
    old_ptr: str
    new_ptr: str
    sides: tuple[Side, Side]
    direction: Direction = Direction.REQUEST

    def at(self, key: str) -> str:
        """Where a difference in `key` is reported: in the new object if it has the key."""
        base = self.new_ptr if key in dict_(self.new) or not self.old_ptr else self.old_ptr
        return f"{base}/{esc(key)}"

    def values(self, key: str) -> tuple[Any, Any]:
        return dict_(self.old).get(key, MISSING), dict_(self.new).get(key, MISSING)

    def differs(self, key: str) -> bool:
        before, after = self.values(key)
        return resolved(before, self.sides[0]) != resolved(after, self.sides[1])


Handler = Callable[[Pair, str], Iterator[Finding]]
RULED: Handler | None = None  # compared by a rule where the object is met
DOC = "doc"


def resolved(value: Any, side: Side, active: frozenset[str] = frozenset()) -> str:
    """`value` as one text with its local `$ref`s followed (a loop stays a `$ref`)."""
    return canon(_inline(value, side, active)) if value is not MISSING else "\x00absent"


def _inline(value: Any, side: Side, active: frozenset[str]) -> Any:
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref not in active:
            target, _ = side.deref(value, "")
            if target is not value:
                inlined = _inline(target, side, active | {ref})
                beside = {key: _inline(item, side, active) for key, item in value.items() if key != "$ref"}
                return {**inlined, **beside} if beside and isinstance(inlined, dict) else inlined
        return {key: _inline(item, side, active) for key, item in value.items()}
    if isinstance(value, list):
        return [_inline(item, side, active) for item in value]
    return value


def _change(pair: Pair, key: str) -> str:
    before, after = pair.values(key)
    if before is MISSING:
        return f"`{key}` added"
    if after is MISSING:
        return f"`{key}` removed"
    return f"`{key}` changed"


def documentation(
    pair: Pair, key: str, rule: str = "documentation-changed", why: str = DOCUMENTATION
) -> Iterator[Finding]:
    """One compatible change per place that differs below `key` (a tag's description, an example's
    summary), so a reader sees what changed."""
    before, after = pair.values(key)
    old = _inline(before, pair.sides[0], frozenset()) if before is not MISSING else MISSING
    new = _inline(after, pair.sides[1], frozenset()) if after is not MISSING else MISSING
    for ptr, name, state in _leaves(old, new, pair.at(key), key):
        yield Finding(ptr, rule, f"`{name}` {state}", fixed=Classification.COMPATIBLE, why=why)


def _leaves(old: Any, new: Any, ptr: str, name: str) -> Iterator[tuple[str, str, str]]:
    """(pointer, name, "added" | "removed" | "changed") of each difference, as deep as both sides have
    the same shape (objects key by key, lists of one length item by item)."""
    if canon_or_missing(old) == canon_or_missing(new):
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys(), key=str):
            yield from _leaves(old.get(key, MISSING), new.get(key, MISSING), f"{ptr}/{esc(key)}", str(key))
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        for index, (first, second) in enumerate(zip(old, new, strict=True)):
            yield from _leaves(first, second, f"{ptr}/{index}", f"{name}/{index}")
    else:
        yield ptr, name, "added" if old is MISSING else "removed" if new is MISSING else "changed"


def canon_or_missing(value: Any) -> str:
    return "\x00absent" if value is MISSING else canon(value)


def extension(pair: Pair, key: str) -> Finding:
    return Finding(
        pair.at(key), "extension-changed", _change(pair, key), fixed=Classification.COMPATIBLE, why=EXTENSION
    )


def not_compared(pair: Pair, key: str) -> Finding:
    return Finding(
        pair.at(key),
        "not-compared",
        _change(pair, key),
        fixed=Classification.BREAKING,
        why=not_compared_reason(key),
    )


def compare_keys(kind: str, pair: Pair) -> Iterator[Finding]:
    """The differences between two objects of `kind` that no rule of the caller judges."""
    table = TABLES[kind]
    keys = dict_(pair.old).keys() | dict_(pair.new).keys()
    for key in sorted(keys, key=str):
        key = str(key)
        if key in table:
            handler = table[key]
            if handler is RULED:
                continue
            if handler == DOC:
                yield from documentation(pair, key)
                continue
            assert callable(handler)
            yield from handler(pair, key)
        elif key.startswith("x-"):
            if pair.differs(key):
                yield extension(pair, key)
        elif pair.differs(key):
            yield not_compared(pair, key)


def reference_siblings(
    old: Any, old_site: str, new: Any, new_site: str, sides: tuple[Side, Side]
) -> Iterator[Finding]:
    """The keys written beside a `$ref` (3.1: a `summary` or `description` that overrides the
    target's); the target itself is compared where it is followed."""
    if not any(isinstance(node, dict) and "$ref" in node for node in (old, new)):
        return
    before, after = ({k: v for k, v in dict_(node).items() if "$ref" in dict_(node)} for node in (old, new))
    yield from compare_keys("reference", Pair(before, after, old_site, new_site, sides))


# --------------------------------------------------------------------------------------------------
# The keys' own rules


def servers(pair: Pair, key: str) -> Iterator[Finding]:
    yield from documentation(pair, key, "servers-changed", SERVERS)


def no_effect(pair: Pair, key: str) -> Iterator[Finding]:
    if pair.differs(key):
        why = NO_EFFECT.format(key=f"`{key}`")
        yield Finding(pair.at(key), "no-effect", _change(pair, key), fixed=Classification.COMPATIBLE, why=why)


def deprecated(pair: Pair, key: str) -> Iterator[Finding]:
    before, after = (value is True for value in pair.values(key))
    if before != after:
        state = "deprecated" if after else "no longer deprecated"
        yield Finding(pair.at(key), "deprecated", state)


def _where(node: Any) -> str:
    return str(dict_(node).get("in", "header"))  # a header object has no `in`: it is a header


def _style(node: Any) -> str:
    style = dict_(node).get("style")
    if isinstance(style, str):
        return style
    return "form" if _where(node) in ("query", "cookie") else "simple"


def _explode(node: Any) -> bool:
    explode = dict_(node).get("explode")
    return explode if isinstance(explode, bool) else _style(node) == "form"


def style(pair: Pair, key: str) -> Iterator[Finding]:
    """`style` and `explode` by their effective values (the defaults of the parameter's location)."""
    read = _style if key == "style" else _explode
    before, after = read(pair.old), read(pair.new)
    if before != after:
        message = f"{key} changed from {json.dumps(before)} to {json.dumps(after)}"
        yield Finding(pair.at(key), "parameter-style", message, Effect.BOTH)
    elif pair.differs(key):  # the default written out, or left to be implied
        message = f"{key} {json.dumps(before)} {'written out' if key in dict_(pair.new) else 'left implied'}"
        why = f"{key} {json.dumps(before)} is the default here: requests are encoded as before"
        yield Finding(
            pair.at(key), "parameter-style-default", message, fixed=Classification.COMPATIBLE, why=why
        )


def allow_empty_value(pair: Pair, key: str) -> Iterator[Finding]:
    before, after = (value is True for value in pair.values(key))
    if _where(pair.new) != "query":
        yield from no_effect(pair, key)
    elif before != after:
        message = "empty value now allowed" if after else "empty value no longer allowed"
        yield Finding(pair.at(key), "allow-empty-value", message, Effect.LOOSEN if after else Effect.TIGHTEN)


def allow_reserved(pair: Pair, key: str) -> Iterator[Finding]:
    before, after = (value is True for value in pair.values(key))
    if before != after:
        message = (
            "reserved characters now allowed unencoded"
            if after
            else "reserved characters must now be encoded"
        )
        yield Finding(pair.at(key), "allow-reserved", message, Effect.LOOSEN if after else Effect.TIGHTEN)


def parameter_name(pair: Pair, key: str) -> Iterator[Finding]:
    """Names match parameters (operations.py); a header's may change case, which HTTP ignores."""
    before, after = pair.values(key)
    if _where(pair.new) == "header" and before != after:
        message = f"header name {json.dumps(before)} written {json.dumps(after)}"
        why = "HTTP header names are case-insensitive: the request on the wire is the same"
        yield Finding(pair.at(key), "header-name-case", message, fixed=Classification.COMPATIBLE, why=why)


def encoding_value(pair: Pair, key: str) -> Iterator[Finding]:
    """How a part of a multipart or form body is written: another way is read otherwise (both ways)."""
    if pair.differs(key):
        yield Finding(pair.at(key), "encoding-changed", f"encoding {_change(pair, key)}", Effect.BOTH)


def encoding(pair: Pair, key: str) -> Iterator[Finding]:
    """A media type's `encoding`: per property, its keys compared by the encoding table."""
    before, after = (dict_(value) for value in pair.values(key))
    for name in sorted(before.keys() | after.keys(), key=str):
        inner = Pair(
            before.get(name, {}),
            after.get(name, {}),
            f"{pair.old_ptr}/{esc(key)}/{esc(name)}",
            f"{pair.new_ptr}/{esc(key)}/{esc(name)}",
            pair.sides,
            pair.direction,
        )
        for finding in compare_keys("encoding", inner):
            yield replace(
                finding, message=f"part `{name}`: {finding.message}", subject=finding.subject or name
            )


def scheme_value(pair: Pair, key: str) -> Iterator[Finding]:
    """What identifies credentials (type, header name, HTTP scheme, OpenID URL): clients send the old."""
    before, after = pair.values(key)
    if key == "scheme" and isinstance(before, str) and isinstance(after, str):
        before, after = before.lower(), after.lower()  # HTTP auth scheme names are case-insensitive
    if canon(before if before is not MISSING else None) != canon(after if after is not MISSING else None):
        message = f"{key} {_show(before)} -> {_show(after)}"
        yield Finding(pair.at(key), "security-scheme-changed", message, Effect.BOTH)


def _show(value: Any) -> str:
    return "(none)" if value is MISSING else json.dumps(value)


def flows(pair: Pair, key: str) -> Iterator[Finding]:
    """OAuth flows: one added is another way to get a token, one removed leaves its clients without."""
    before, after = (dict_(value) for value in pair.values(key))
    for name in sorted(before.keys() | after.keys(), key=str):
        ptr = f"{pair.new_ptr if name in after else pair.old_ptr}/{esc(key)}/{esc(name)}"
        if name.startswith("x-"):
            inner = Pair(
                before, after, f"{pair.old_ptr}/{esc(key)}", f"{pair.new_ptr}/{esc(key)}", pair.sides
            )
            if inner.differs(name):
                yield extension(inner, name)
        elif name not in before:
            yield Finding(ptr, "oauth-flow-added", f"OAuth flow {name} added", Effect.LOOSEN)
        elif name not in after:
            yield Finding(ptr, "oauth-flow-removed", f"OAuth flow {name} removed", Effect.TIGHTEN)
        elif name not in FLOW_KINDS:
            inner = Pair(
                before, after, f"{pair.old_ptr}/{esc(key)}", f"{pair.new_ptr}/{esc(key)}", pair.sides
            )
            if inner.differs(name):
                yield not_compared(inner, name)
        else:
            inner = Pair(
                before[name],
                after[name],
                f"{pair.old_ptr}/{esc(key)}/{esc(name)}",
                f"{pair.new_ptr}/{esc(key)}/{esc(name)}",
                pair.sides,
            )
            yield from compare_keys("oauth-flow", inner)


def flow_url(pair: Pair, key: str) -> Iterator[Finding]:
    if pair.differs(key):
        before, after = pair.values(key)
        message = f"{key} {_show(before)} -> {_show(after)}"
        yield Finding(pair.at(key), "oauth-flow-url-changed", message, Effect.BOTH)


def scopes(pair: Pair, key: str) -> Iterator[Finding]:
    """The scopes a flow grants: one removed can no longer be had; a description changed is documentation."""
    before, after = (dict_(value) for value in pair.values(key))
    inner = Pair(before, after, f"{pair.old_ptr}/{esc(key)}", f"{pair.new_ptr}/{esc(key)}", pair.sides)
    for name in sorted(before.keys() | after.keys(), key=str):
        if name not in before:
            yield Finding(inner.at(name), "oauth-scope-added", f"scope {name} offered", Effect.LOOSEN)
        elif name not in after:
            yield Finding(
                inner.at(name), "oauth-scope-removed", f"scope {name} no longer offered", Effect.TIGHTEN
            )
        else:
            yield from documentation(inner, name)


def dialect(pair: Pair, key: str) -> Iterator[Finding]:
    """Another JSON Schema dialect changes what every schema means; the diff knows the OAS one only."""
    if pair.differs(key):
        yield not_compared(pair, key)


def ignored(pair: Pair, key: str) -> Iterator[Finding]:
    """`openapi`: the version itself; what it changes (3.0 -> 3.1) is compared keyword by keyword."""
    return iter(())


# --------------------------------------------------------------------------------------------------
# The tables: every field of OpenAPI 3.0 and 3.1 (tests/diff/test_operations_keywords.py checks it)

_PARAMETER_COMMON: dict[str, Handler | str | None] = {
    "description": DOC,
    "required": RULED,  # parameter-required / header-required
    "deprecated": deprecated,
    "allowEmptyValue": allow_empty_value,
    "style": style,
    "explode": style,
    "allowReserved": allow_reserved,
    "schema": RULED,  # schemas.py
    "content": RULED,  # operations.py: media types
    "example": DOC,
    "examples": DOC,
}

FLOW_KINDS = ("implicit", "password", "clientCredentials", "authorizationCode")

TABLES: dict[str, dict[str, Handler | str | None]] = {
    "parameter": {**_PARAMETER_COMMON, "name": parameter_name, "in": RULED},  # `in` matches parameters
    "header": {**_PARAMETER_COMMON, "allowEmptyValue": no_effect, "allowReserved": no_effect},
    "request-body": {"description": DOC, "content": RULED, "required": RULED},
    "media-type": {"schema": RULED, "example": DOC, "examples": DOC, "encoding": encoding},
    "encoding": {
        "contentType": encoding_value,
        "headers": encoding_value,
        "style": encoding_value,
        "explode": encoding_value,
        "allowReserved": allow_reserved,
    },
    "response": {"description": DOC, "headers": RULED, "content": RULED, "links": RULED},
    "link": {
        "operationRef": RULED,  # link-changed: the link's target and parameters by meaning
        "operationId": RULED,
        "parameters": RULED,
        "requestBody": RULED,
        "description": DOC,
        "server": DOC,  # links document how answers lead to other calls
    },
    "operation": {
        "tags": DOC,
        "summary": DOC,
        "description": DOC,
        "externalDocs": DOC,
        "operationId": RULED,
        "parameters": RULED,
        "requestBody": RULED,
        "responses": RULED,
        "callbacks": RULED,  # compared like webhooks
        "deprecated": RULED,
        "security": RULED,
        "servers": servers,
    },
    "path-item": {
        "$ref": RULED,  # followed by walk.path_items
        "summary": DOC,
        "description": DOC,
        "servers": servers,
        "parameters": RULED,
        **dict.fromkeys(("get", "put", "post", "delete", "options", "head", "patch", "trace"), RULED),
    },
    "security-scheme": {
        "type": scheme_value,
        "description": DOC,
        "name": scheme_value,
        "in": scheme_value,
        "scheme": scheme_value,
        "bearerFormat": DOC,  # a hint for documentation (the specification's words)
        "flows": flows,
        "openIdConnectUrl": scheme_value,
    },
    "oauth-flow": {
        "authorizationUrl": flow_url,
        "tokenUrl": flow_url,
        "refreshUrl": flow_url,
        "scopes": scopes,
    },
    "document": {
        "openapi": ignored,
        "info": DOC,
        "jsonSchemaDialect": dialect,
        "servers": servers,
        "paths": RULED,
        "webhooks": RULED,
        "components": RULED,
        "security": RULED,  # per operation
        "tags": DOC,
        "externalDocs": DOC,
        BUNDLE: RULED,  # reached through the `$ref`s into it
    },
    # a Reference Object: 3.1 lets `summary` and `description` beside `$ref` override the target's;
    # other keys beside it are ignored by both versions (compared as any unknown key: by hand)
    "reference": {"$ref": RULED, "summary": DOC, "description": DOC},
    "components": dict.fromkeys(
        (
            "schemas",
            "responses",
            "parameters",
            "examples",
            "requestBodies",
            "headers",
            "securitySchemes",
            "links",
            "callbacks",
            "pathItems",
        ),
        RULED,  # op_document.py: reached ones through the operations, the others on their own
    ),
}
