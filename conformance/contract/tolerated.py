"""Input a server may take under docs/design.md's request tolerance and encoding, and readers of
the document's request bodies."""

from __future__ import annotations

import email.policy
import json
import re
from collections.abc import Callable
from email.parser import BytesParser
from typing import Any, cast
from urllib.parse import parse_qs, parse_qsl, urlsplit

from jsonschema import Draft4Validator

from ...openapi import resolve
from .. import driver
from ..driver import Response
from .data import FORM_TYPES


def valid_as_tolerated(document: dict[str, Any], case: Any, response: Response) -> bool:
    """The invalid request is valid as a server may read it (docs/design.md, request tolerance and
    request encoding), so taking it is no failure.

    The design has a server ignore query parameters and body fields an operation does not have,
    take an empty value as null where the field is nullable and as absent where it is not text
    (not a string, or a string of an enum), and read a boolean query parameter's 1/0 as
    true/false; a form body reads as `_valid_as_form` says. The request as it was sent
    is read so, and must then be valid: its query against the operation's parameters, its body
    against the JSON body's schema. A JSON body or a query that is invalid only where no such
    reading applies (a wrong type, a missing field, a value outside an enum) still counts.
    """
    item = document["paths"][case.path]
    query_ok, changed = _query_as_tolerated(document, item, case.method.lower(), response)
    if not query_ok:
        return False
    if case.media_type in FORM_TYPES:
        return _valid_as_form(case, response, document)
    validator = driver.body_validator(case.operation)
    raw = response.request.body
    if validator is None or not raw:
        return changed
    try:
        body = json.loads(raw)
    except ValueError:
        return False
    if not isinstance(body, dict):
        return False
    fields = field_schemas(document, case.path, case.method)
    read: dict[str, Any] = {}
    for name, value in body.items():
        schema = fields.get(name)
        if schema is None or (value == "" and (schema.get("nullable") or _means_nothing(schema))):
            changed = True  # ignored, or null or absent
            if schema is not None and schema.get("nullable"):
                read[name] = None
            continue
        read[name] = value
    return changed and validator.is_valid(read)


def carries_undeclared(document: dict[str, Any], case: Any, response: Response) -> bool:
    """The request sent a body field or query parameter the operation does not declare.

    The design has a server ignore those (request tolerance), but the document does not oblige it
    to: a server that holds its clients to the letter (the mock's `--strict-requests`) may refuse
    them with a 400, and refusing them is no failure to accept valid input."""
    item = document["paths"][case.path]
    declared = {
        resolve(parameter, document).get("name")
        for parameter in [*item.get("parameters", []), *item[case.method.lower()].get("parameters", [])]
        if resolve(parameter, document).get("in") == "query"
    }
    sent_query = {name for name, _ in parse_qsl(urlsplit(str(response.request.url)).query)}
    if sent_query - declared:
        return True
    fields = field_schemas(document, case.path, case.method)
    if case.media_type in FORM_TYPES:
        sent: Any = _sent_form(response) or {}
    else:
        raw = response.request.body
        try:
            sent = json.loads(raw) if raw else {}
        except ValueError:
            return False
    # a form's `tags[]` or `thumbnails[mini]` is its field `tags` or `thumbnails` (request encoding)
    return isinstance(sent, dict) and bool({str(name).split("[", 1)[0] for name in sent} - set(fields))


def _query_as_tolerated(
    document: dict[str, Any], item: dict[str, Any], method: str, response: Response, spec: bool = False
) -> tuple[bool, bool]:
    """(the query string as sent is valid as the tolerance reads it, that reading changed something);
    `spec`: valid by the spec's constraints only (`spec_schema`)."""
    params, required = {}, []
    for parameter in [*item.get("parameters", []), *item[method].get("parameters", [])]:
        parameter = resolve(parameter, document)
        if parameter.get("in") == "query":
            flat = _flat_schema(parameter.get("schema", {}), document)
            name = parameter["name"]
            params[name] = spec_schema(flat, document, name, openapi=True) if spec else flat
            if parameter.get("required"):
                required.append(parameter["name"])
    changed = False
    read: dict[str, Any] = {}
    for name, text in parse_qsl(urlsplit(str(response.request.url)).query, keep_blank_values=True):
        schema = params.get(name)
        if schema is None or (text == "" and (schema.get("nullable") or _means_nothing(schema))):
            changed = True  # ignored, or absent (a query string has no null)
        elif schema.get("type") == "array":  # `tags=a,b` is two tags (request encoding)
            items = _flat_schema(schema.get("items", {}), document)
            read.setdefault(name, []).extend(_text_as(part, items) for part in text.split(",") if part)
        elif name in read:
            return False, changed  # a single value given twice is refused
        else:
            changed = changed or (schema.get("type") == "boolean" and text in ("1", "0"))
            read[name] = _text_as(text, schema)
    schema = {"type": "object", "properties": params, "required": required}
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER).is_valid(read), changed


# docs/design.md's constraints on requests that the spec does not state (a username's pattern, a
# text that is not blank, page >= 1, an id's range, an address's form): a server may take what
# they refuse. The spec's own stay: types, its enums, required fields, latitude and longitude.
DESIGN_KEYWORDS = ("pattern", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems")
DESIGN_FORMATS = ("email", "int64", "int32")
GEOGRAPHIC = ("latitude", "longitude", "ll")
OPENAPI_ONLY = ("nullable", "discriminator", "readOnly", "writeOnly", "example", "examples")


def spec_schema(
    node: Any, document: dict[str, Any], name: str | None = None, depth: int = 0, openapi: bool = False
) -> Any:
    """A schema of the document, references inlined and OpenAPI's nullable made JSON Schema's (kept
    as it is with `openapi`), without the constraints only docs/design.md sets (DESIGN_KEYWORDS,
    DESIGN_FORMATS, bounds)."""
    node = resolve(node, document)
    if not isinstance(node, dict) or depth > 32:
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in DESIGN_KEYWORDS and name not in GEOGRAPHIC:
            continue
        if key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum") and name not in GEOGRAPHIC:
            continue
        if key == "format" and value in DESIGN_FORMATS:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {f: spec_schema(sub, document, f, depth + 1, openapi) for f, sub in value.items()}
        elif key in ("items", "additionalProperties", "not") and isinstance(value, dict):
            out[key] = spec_schema(value, document, name, depth + 1, openapi)
        elif key in ("allOf", "oneOf", "anyOf") and isinstance(value, list):
            out[key] = [spec_schema(sub, document, name, depth + 1, openapi) for sub in value]
        elif openapi or key not in OPENAPI_ONLY:
            out[key] = value
    if node.get("nullable") and not openapi:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    return out


def valid_by_the_spec(document: dict[str, Any], case: Any, response: Response) -> bool:
    """The invalid request breaks only constraints docs/design.md sets, not the spec's, read as the
    request tolerance reads it (`valid_as_tolerated`): a server that does not enforce those may take
    it (without --strict). A form body is left to `valid_as_tolerated`."""
    item = document["paths"][case.path]
    method = case.method.lower()
    if not _query_as_tolerated(document, item, method, response, spec=True)[0]:
        return False
    body = resolve(item[method].get("requestBody", {}), document)
    schema = body.get("content", {}).get("application/json", {}).get("schema")
    raw = response.request.body
    if schema is None:
        return True
    if not raw:
        return not body.get("required")
    if case.media_type in FORM_TYPES:
        return False
    try:
        sent = json.loads(raw)
    except ValueError:
        return False
    if isinstance(sent, dict):  # "" is null where nullable, absent where not text (request tolerance)
        fields = field_schemas(document, case.path, case.method)
        read: dict[str, Any] = {}
        for name, value in sent.items():
            field = fields.get(name, {})
            if value == "" and field.get("nullable"):
                read[name] = None
            elif not (value == "" and name in fields and _means_nothing(field)):
                read[name] = value
        sent = read
    return bool(Draft4Validator(spec_schema(schema, document)).is_valid(sent))


def _text_as(text: str, schema: dict[str, Any]) -> Any:
    """A query parameter's text as the value it stands for under its schema (or the text)."""
    kind = schema.get("type")
    if kind == "integer" and re.fullmatch(r"-?\d+", text):
        return int(text)
    if kind == "number" and _NUMBER.fullmatch(text):
        return float(text)
    if kind == "boolean" and text in ("true", "false", "1", "0"):
        return text in ("true", "1")
    return text


def _means_nothing(schema: dict[str, Any]) -> bool:
    """docs/design.md, request tolerance: "" is absent for a field that is not text (null where nullable)."""
    return schema.get("type") != "string" or "enum" in schema


def _flat_schema(schema: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """The schema, with a `description` + `allOf: [$ref]` field read as the schema it refers to."""
    schema = resolve(schema, document)
    if "allOf" in schema and "type" not in schema:
        own = {key: value for key, value in schema.items() if key != "allOf"}
        schema = {**resolve(schema["allOf"][0], document), **own}
    return schema


def _valid_as_form(case: Any, response: Response, document: dict[str, Any]) -> bool:
    """The invalid body is valid as the form that was sent reads (docs/design.md, request encoding).

    A form carries text only, so many violations do not survive the encoding: the integer 0
    in a boolean field travels as "0" (false), false in a text field as the text "false", null
    as "null", an object in a multipart part as its JSON text, an empty list as nothing, and
    `tags=a,b` is a list. Each field of the form that was sent takes the first reading of its
    text that is valid where it stands; an empty text that fits nowhere is the field's absence
    where the field is not free text (request tolerance). Then the whole must be valid against
    the JSON body's schema, so every other violation (a missing field, a number out of range,
    a value outside an enum) still counts.
    """
    sent = _sent_form(response)
    validator = driver.body_validator(case.operation)
    if sent is None or validator is None:
        return False
    fits = fits_body(case)
    fields = field_schemas(document, case.path, case.method)
    read = {}
    for name, texts in sent.items():
        readings = _form_readings(texts)
        value = next((value for value in readings if fits(name, value)), _NO_READING)
        if value is _NO_READING and texts == [""] and _means_nothing(fields.get(name, {})):
            continue  # absent
        read[name] = readings[0] if value is _NO_READING else value
    valid: bool = validator.is_valid(read)
    return valid


_NO_READING = object()


def fits_body(case: Any) -> Callable[[str, Any], bool]:
    """Is a value valid for a field of the operation's JSON body, where it stands?"""
    validator = driver.body_validator(case.operation)
    if validator is None:
        return lambda name, value: False

    def fits(name: str, value: Any) -> bool:
        return not any(list(e.instance_path[:1]) == [name] for e in validator.iter_errors({name: value}))

    return fits


def _sent_form(response: Response) -> dict[str, list[str]] | None:
    """The fields of the form body that was sent, each with its texts (a repeated key has several)."""
    request = response.request
    content_type = request.headers.get("Content-Type", "")
    body = request.body.encode() if isinstance(request.body, str) else request.body or b""
    if content_type.startswith("application/x-www-form-urlencoded"):
        return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    if not content_type.startswith("multipart/form-data"):
        return None
    message = BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
    )
    fields: dict[str, list[str]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        # bytes (or None) for a part that is not multipart itself; typeshed does not narrow by `decode`
        payload = cast(bytes, part.get_payload(decode=True) or b"")
        if isinstance(name, str):
            fields.setdefault(name, []).append(payload.decode("utf-8", "replace"))
    return fields


def _form_readings(texts: list[str]) -> list[Any]:
    """What a form field's texts may stand for: the text, a list (the repeated key's texts, or
    one text split at commas, empty parts dropped), a boolean, null, a number, JSON, an object."""
    readings: list[Any] = [texts[0]] if len(texts) == 1 else [texts, [_number(t) for t in texts]]
    for text in texts:
        parts = [part for part in text.split(",") if part != ""]
        readings += [text, parts, [_number(part) for part in parts]]
        if text in ("true", "1", "false", "0"):
            readings.append(text in ("true", "1"))
        if text in ("", "null"):
            readings.append(None)
        if _NUMBER.fullmatch(text):
            readings.append(json.loads(text))
        if text[:1] in ("{", "["):
            try:
                readings.append(json.loads(text))
            except ValueError:
                pass
        # an object sent as one field: HTTP clients send a dict's keys only (requests does), so a
        # server may take `metadata=v` for an entry under the empty key
        readings.append({"": text})
    return readings


_NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def _number(text: str) -> Any:
    return json.loads(text) if _NUMBER.fullmatch(text) else text


def field_schemas(document: dict[str, Any], path: str, method: str) -> dict[str, dict[str, Any]]:
    """name -> schema of each top-level field of an operation's JSON request body (the first
    definition of a name: its own properties, then allOf, then the alternatives)."""
    body = resolve(document["paths"][path][method.lower()].get("requestBody", {}), document)
    schema = body.get("content", {}).get("application/json", {}).get("schema", {})

    def walk(node: dict[str, Any]) -> dict[str, dict[str, Any]]:
        node = resolve(node, document)
        out = {name: _flat_schema(prop, document) for name, prop in node.get("properties", {}).items()}
        for key in ("allOf", "oneOf", "anyOf"):
            for part in node.get(key, []):
                for name, prop in walk(part).items():
                    out.setdefault(name, prop)
        return out

    return walk(schema)


def body_fields(document: dict[str, Any], path: str, method: str) -> set[str]:
    """The top-level fields of an operation's JSON request body."""
    return set(field_schemas(document, path, method))
