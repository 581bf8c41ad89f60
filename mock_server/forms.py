"""Form bodies (urlencoded and multipart), as the official clients send them, turned into JSON.

docs/design.md (request encoding): every body is also accepted as a form. Connexion types form
fields only for flat schemas (not the document's allOf/oneOf ones), so the guard turns a
form into the JSON body it stands for before connexion sees it, typed by the operation's
JSON schema: `tags[]=a&tags[]=b`, `tags=a&tags=b`, `tags=a,b` and `tags[0]=a&tags[1]=b` are
arrays, `metadata[key]=value` (or one part holding a JSON object) is an object, "true"/"1"
are booleans, digits are numbers, and "" or "null" is null for a nullable field that is not
free text. Keys nested deeper, as Rails/Faraday and Alamofire write a whole resource
(`thumbnails[mini]=...`, `reactions[][id]=1`), become the nested objects and arrays they stand
for (Rails' reading), untyped; a key nested deeper than its field goes (`tags[][name]` for the
document's array of tag names) is a field of its own, named by the whole key.
A value that does not fit is passed on unchanged, so validation rejects it with a 400; a field
the operation does not have is passed on too, for the request tolerance (tolerance.py) to
ignore or refuse.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..openapi import document, path_template, resolve


@dataclass(frozen=True, slots=True)
class Upload:
    """A file part of a multipart body: the JSON field gets its name, the handler the rest."""

    filename: str
    media_type: str
    size: int
    digest: str  # sha256 of the bytes, first 16 hex digits: names the file in its URL


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
_KEY = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])*)$")
_MAX_NESTING = 32  # `a[b][c]...` deeper than this is a name of its own: nesting it would recurse
_SUBSCRIPT = re.compile(r"\[([^\[\]]*)\]")


def split_key(raw_key: str) -> tuple[str, list[str]]:
    """`a[b][]` -> ("a", ["b", ""]); a key that is not of that shape is a name of its own."""
    match = _KEY.match(raw_key)
    if match is None:
        return raw_key, []
    return match.group(1), _SUBSCRIPT.findall(match.group(2))


def form_to_json(
    method: str, path: str, pairs: list[tuple[str, str]], findings: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    """The JSON body these form fields stand for, typed by the operation's body schema.

    `findings` (the request tolerance's list) gets an `empty_value` entry for each "" taken as null.
    """
    fields = body_fields(method.lower(), path)
    out: dict[str, Any] = {}
    for raw_key, value in pairs:
        name, subs = split_key(raw_key)
        schema = fields.get(name, {})
        kind = schema.get("type")
        if name not in fields and 0 < len(subs) <= _MAX_NESTING:
            _nest(out, name, subs, value)  # Rails' reading: what a client's resource holds, untyped
        elif len(subs) > 1:
            # deeper than the field goes: `tags[][name]`, `metadata[][key]` (the gem sends the tags
            # and metadata entries of an answer back); a field of its own, which the document lacks
            out[raw_key] = value
        elif kind == "object" and not subs and isinstance(whole := _json(value), dict):
            out[name] = whole  # a part holding the object as JSON, OpenAPI's multipart default
        elif kind == "object" or (subs and subs[0] != "" and kind != "array"):
            out.setdefault(name, {})
            if isinstance(out[name], dict) and not (subs == [""] and value == ""):  # `metadata[]`: empty
                out[name][subs[0] if subs else ""] = value
        elif kind == "array":
            item_schema = schema.get("items", {})
            parts = value.split(",") if not subs else [value]
            out.setdefault(name, [])
            if isinstance(out[name], list):
                out[name].extend(_typed(p, item_schema) for p in parts if p != "")
        else:
            out[name] = typed = _typed(value, schema)
            if typed is None and value == "" and findings is not None:
                findings.append(empty_value(name, "body", null=True))
    return out


def _nest(params: dict[str, Any], key: str, subs: list[str], value: str) -> None:
    """Rails' normalize_params: `a[b]` is a key of an object, `a[]` an element of an array, and
    in `a[][b]=1&a[][c]=2&a[][b]=3` a new object starts when the last one already has the key."""
    if not subs:
        params[key] = value
        return
    head, rest = subs[0], subs[1:]
    if head != "":
        inner = params.get(key)
        if not isinstance(inner, dict):
            inner = params[key] = {}
        _nest(inner, head, rest, value)
        return
    array = params.get(key)
    if not isinstance(array, list):
        array = params[key] = []
    if not rest:
        array.append(value)
        return
    last = array[-1] if array else None
    if not isinstance(last, dict) or _has(last, rest):
        last = {}
        array.append(last)
    _nest(last, rest[0], rest[1:], value)


def _has(obj: Any, keys: list[str]) -> bool:
    if "" in keys:  # an array inside: Rails appends to it rather than start a new object
        return False
    for key in keys:
        if not isinstance(obj, dict) or key not in obj:
            return False
        obj = obj[key]
    return True


def _json(value: str) -> Any:
    if value.count("{") + value.count("[") > 32:  # deep nesting recurses in validation (a 500)
        return None
    try:
        return json.loads(value)
    except ValueError:
        return None


def means_nothing(schema: dict[str, Any]) -> bool:
    """Is "" no value at all for this field, even where it is not nullable? Yes for a field that is
    not free text (not a string, or a string of an enum): docs/design.md (request tolerance) reads it
    as absent there. (A form's "" is null for a nullable field that is not free text in any case;
    the tolerance also makes it null for a nullable text field.)"""
    return schema.get("type") != "string" or "enum" in schema


def _typed(value: str, schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if value in ("", "null") and schema.get("nullable") and means_nothing(schema):
        return None  # a form has no null: "" or "null" stands for it where no string is meant
    if kind == "integer" and re.fullmatch(r"-?\d+", value):
        return int(value)
    if kind == "number" and re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", value):
        return float(value)
    if kind == "boolean" and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return value


def empty_value(name: str, where: str, *, null: bool) -> dict[str, Any]:
    """The finding (docs/design.md, request journal) of an empty value taken as null or absent."""
    why = "it is nullable" if null else "it is not a text field"
    message = f"The empty value of {name} was taken as {'null' if null else 'absent'}: {why}."
    return {"kind": "empty_value", "name": name, "in": where, "message": message}


def body_fields(method: str, path: str) -> dict[str, dict[str, Any]]:
    """name -> resolved schema of each property of the operation's JSON body (allOf/oneOf merged)."""
    return _body_fields(method, path_template(path))


@cache  # by template, not by path: one entry per operation however many ids are asked for
def _body_fields(method: str, template: str | None) -> dict[str, dict[str, Any]]:
    operation = document()["paths"][template].get(method, {}) if template else {}
    body = resolve(operation.get("requestBody", {}))
    return properties(body.get("content", {}).get("application/json", {}).get("schema", {}))


def flat_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema resolved; `description` + `allOf: [$ref]` (no type of its own) read as that one."""
    schema = resolve(schema)
    if "allOf" in schema and "type" not in schema:
        schema = {**resolve(schema["allOf"][0]), **{k: v for k, v in schema.items() if k != "allOf"}}
    return schema


def properties(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """name -> resolved schema of each property the schema names, at its top level or in its
    allOf/oneOf/anyOf parts. The first definition of a name counts: a part's own properties,
    then its allOf members, then its alternatives (which may only narrow it, e.g. ItemCreate's
    `type: [stack]`)."""
    schema = resolve(schema)
    out: dict[str, dict[str, Any]] = {}
    for name, prop in schema.get("properties", {}).items():
        prop = flat_schema(prop)
        out[name] = {**prop, "items": resolve(prop.get("items", {}))}
    for part in [*schema.get("allOf", []), *schema.get("oneOf", []), *schema.get("anyOf", [])]:
        for name, prop in properties(part).items():
            out.setdefault(name, prop)
    return out
