"""Form bodies (urlencoded and multipart), as the official clients send them, turned into JSON.

docs/design.md (request encoding): every body is also accepted as a form. Connexion types form
fields only for flat schemas (not the document's allOf/oneOf ones), so the guard turns a
form into the JSON body it stands for before connexion sees it, typed by the operation's
JSON schema: `tags[]=a&tags[]=b`, `tags=a&tags=b` and `tags=a,b` are arrays,
`metadata[key]=value` (or one part holding a JSON object) is an object, "true"/"1" are
booleans, digits are numbers, and "" or "null" is null for a nullable field that is not
free text.
A value that does not fit is passed on unchanged, so validation rejects it with a 400.
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
_KEY = re.compile(r"^([^\[\]]+)(?:\[([^\[\]]*)\])?$")


def form_to_json(method: str, path: str, pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """The JSON body these form fields stand for, typed by the operation's body schema."""
    fields = body_fields(method.lower(), path)
    out: dict[str, Any] = {}
    for raw_key, value in pairs:
        match = _KEY.match(raw_key)
        name, sub = (match.group(1), match.group(2)) if match else (raw_key, None)
        schema = fields.get(name, {})
        kind = schema.get("type")
        if kind == "object" and sub is None and isinstance(whole := _json(value), dict):
            out[name] = whole  # a part holding the object as JSON, OpenAPI's multipart default
        elif kind == "object" or (sub not in (None, "") and kind != "array"):
            out.setdefault(name, {})
            if isinstance(out[name], dict):
                out[name][sub or ""] = value
        elif kind == "array":
            item_schema = schema.get("items", {})
            parts = value.split(",") if sub is None else [value]
            out.setdefault(name, []).extend(_typed(p, item_schema) for p in parts if p != "")
        else:
            out[name] = _typed(value, schema)
    return out


def _json(value: str) -> Any:
    if value.count("{") + value.count("[") > 32:  # deep nesting recurses in validation (a 500)
        return None
    try:
        return json.loads(value)
    except ValueError:
        return None


def _typed(value: str, schema: dict[str, Any]) -> Any:
    kind = schema.get("type")
    if value in ("", "null") and schema.get("nullable") and (kind != "string" or "enum" in schema):
        return None  # a form has no null: "" or "null" stands for it where no string is meant
    if kind == "integer" and re.fullmatch(r"-?\d+", value):
        return int(value)
    if kind == "number" and re.fullmatch(r"-?\d+(\.\d+)?([eE][-+]?\d+)?", value):
        return float(value)
    if kind == "boolean" and value.lower() in ("true", "false", "1", "0"):
        return value.lower() in ("true", "1")
    return value


def body_fields(method: str, path: str) -> dict[str, dict[str, Any]]:
    """name -> resolved schema of each property of the operation's JSON body (allOf/oneOf merged)."""
    return _body_fields(method, path_template(path))


@cache  # by template, not by path: one entry per operation however many ids are asked for
def _body_fields(method: str, template: str | None) -> dict[str, dict[str, Any]]:
    operation = document()["paths"][template].get(method, {}) if template else {}
    body = resolve(operation.get("requestBody", {}))
    return _properties(body.get("content", {}).get("application/json", {}).get("schema", {}))


def _properties(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    schema = resolve(schema)
    out: dict[str, dict[str, Any]] = {}
    for part in [*schema.get("allOf", []), *schema.get("oneOf", []), *schema.get("anyOf", [])]:
        out.update(_properties(part))
    for name, prop in schema.get("properties", {}).items():
        prop = resolve(prop)
        if "allOf" in prop and "type" not in prop:  # `description` + `allOf: [$ref]`
            prop = {**resolve(prop["allOf"][0]), **{k: v for k, v in prop.items() if k != "allOf"}}
        out[name] = {**prop, "items": resolve(prop.get("items", {}))}
    return out
