"""Guards in front of connexion: what it gets wrong or leaves open, fixed before it runs.

- A body over the cap is a 413 before it is read whole (Content-Length, then while reading).
- A JSON body that is not UTF-8 is a 400 (connexion crashes into a 500 on it).
- A body without a Content-Type is a 415 (connexion passed its raw bytes on, into a 500).
- A query parameter that takes one value, given twice, is a 400.
- Array query parameters also arrive as `tags[]=a`, `tags[0]=a` and `tags=a,b` from older
  clients (docs/design.md, request encoding); they are rewritten to the documented `tags=a&tags=b`.
- Request tolerance (docs/design.md; tolerance.py): unknown query parameters and body fields
  are dropped, empty values of fields that are not text are null or absent, a DELETE's body
  fields may come in the query string; each is a finding at `scope[FINDINGS]`. With
  `strict=True` (`serve --strict-requests`) an unknown body field is a 400 instead (connexion's
  strict validation refuses unknown query parameters).
- Every error answer is the `{code, message}` body, with `WWW-Authenticate` on a 401 and
  the full `Allow` list on a 405 (connexion lists one method).
- A JSON body nested deeper than MAX_DEPTH is a 400 (it recursed into a 500).
- A JSON body with a lone surrogate escape (`\\ud800`) is a 400 (stored, it broke every answer).
- A JSON integer of more than MAX_INT_DIGITS digits is a 400 before Python converts it (from
  4300 digits int() raises ValueError, a 500 in connexion's reader), and so is a form field's; a
  path id of any length is a 400, not a 500 (compat/routing.py's BoundedIntegerConverter).
  Numbers typed by people (a limit, an id in the admin API, a Prefer value) go through
  `whole_number`, one safe parse.
- A body to the admin API (/__mock__/) is JSON whatever its Content-Type says, under the same
  checks (text/plain nested 100k deep recursed into a 500), and is never read as a form: a JSON
  body that came as urlencoded (curl -d) was read as an empty form and ignored silently.
- `format: int64` is enforced, by connexion's validators given the mock's own format checker
  (compat/jsonschema.py): jsonschema's Draft 4 one does not know int64, so an id of 2**63
  would pass validation.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import math
import mimetypes
import re
from functools import cache
from typing import Any, cast
from urllib.parse import parse_qsl, urlencode

from connexion.lifecycle import ConnexionResponse
from starlette.exceptions import HTTPException
from starlette.formparsers import MultiPartException
from starlette.requests import Request

from ..openapi import document, path_template, resolve
from .findings import Findings
from .forms import FORM_TYPES, Upload, form_to_json, split_key
from .tolerance import (
    BODY,
    Declared,
    declared,
    needs_query_work,
    shown,
    tolerate_body,
    tolerate_query,
    unknown_fields,
)

JSON_TYPES = ("application/json",)
UPLOADS = "csapi.uploads"  # scope key: the file parts of a multipart body, for the handlers
REFUSED = "csapi.refused"  # scope key: why --strict-requests refuses the body (app._bind)
# scope key: the request's findings, a list of dicts {"kind", "name", "in", "message"} (docs/design.md,
# request journal); whoever comes first makes the list, and every copy of the scope shares it
FINDINGS = "csapi.findings"


def error_response(
    status: int,
    code: str,
    message: str,
    *,
    headers: dict[str, str] | None = None,
) -> ConnexionResponse:
    body = {"code": code, "message": message}
    headers = dict(headers or {})
    headers.pop("Content-Type", None)
    headers.pop("content-type", None)
    if status == 401:
        headers["WWW-Authenticate"] = 'Basic realm="csapi"'
    return ConnexionResponse(
        status_code=status,
        mimetype="application/json",
        content_type="application/json",
        body=json.dumps(body).encode(),
        headers=headers,
    )


# ---------------------------------------------------------------------- the document's shape
def allowed_methods(path: str) -> list[str]:
    """Every method the document has at this path (literal paths win, as in the router)."""
    template = path_template(path)
    item = document()["paths"][template] if template else {}
    return [m.upper() for m in ("get", "put", "post", "delete", "patch") if m in item]


@cache
def array_query_params() -> frozenset[str]:
    names = set()
    for item in document()["paths"].values():
        for op in item.values():
            for p in op.get("parameters", []) if isinstance(op, dict) else []:
                p = resolve(p)
                if p.get("in") == "query" and resolve(p.get("schema", {})).get("type") == "array":
                    names.add(p["name"])
    return frozenset(names)


@cache  # by template, not by path: one entry per operation however many ids are asked for
def has_optional_body(method: str, template: str | None) -> bool:
    """The operation takes a request body that may be left out (e.g. Delete an item)."""
    operation = document()["paths"][template].get(method) if template else None
    body = resolve(operation.get("requestBody")) if isinstance(operation, dict) else None
    if not body:
        return False
    return not body.get("required", False)


INT64_MAX = 2**63 - 1
MAX_INT_DIGITS = 100  # int64 has 19; no field of the document means more, and int() refuses 4300+
ADMIN_PREFIX = "/__mock__/"  # the admin API's bodies are JSON, whatever their Content-Type


def whole_number(text: str, *, minimum: int = 0, maximum: int = INT64_MAX) -> int | None:
    """`text` as a whole number from `minimum` to `maximum`, else None: ASCII digits only
    ("²".isdigit() holds, yet int() refuses it) and never converted past `maximum`'s length
    (int() raises ValueError from 4300 digits)."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > len(str(maximum)):
        return None
    value = int(text)
    return value if minimum <= value <= maximum else None


class UnreadableJSON(ValueError):
    """A body the mock will not read as JSON; the message says why, for a 400."""


class _NonFinite(ValueError):
    pass


class _TooLong(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise _NonFinite(text)
    return value


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _TooLong(text)
    return int(text)


def _refuse(name: str) -> Any:
    raise _NonFinite(name)


MAX_DEPTH = 32  # the document's bodies nest three levels at most
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def nested_too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Arrays and objects nested deeper than `limit`: Python's json reader and connexion's
    validator recurse on them, into a RecursionError (a 500) from about 950 levels."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for mark in re.findall(r"[\[\]{}]", _JSON_STRING.sub("", text)):
        depth += 1 if mark in "[{" else -1
        if depth > limit:
            return True
    return False


def number_problem(text: str) -> str | None:
    """What is wrong with the body's numbers, if anything: NaN, Infinity or a number too large
    for a float (1e400), which Python's json reads and the mock would store and write back as
    invalid JSON; an integer of more than MAX_INT_DIGITS digits, which Python converts in time
    quadratic in its length and refuses from 4300 digits (a ValueError, a 500)."""
    try:
        json.loads(text, parse_constant=_refuse, parse_float=_finite, parse_int=_bounded_int)
    except _NonFinite:
        return "The JSON body has NaN or an infinite number, which JSON does not allow."
    except _TooLong as exc:
        digits = len(str(exc).lstrip("-"))
        return f"The JSON body has an integer of {digits} digits; the mock reads at most {MAX_INT_DIGITS}."
    except (ValueError, RecursionError):  # malformed: the reader answers that
        return None
    return None


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def has_lone_surrogate(text: str) -> bool:
    """A `\\ud800` escape without its pair: valid JSON, but not a Unicode string, so every
    answer holding it failed to encode as UTF-8 (a 500): an item's size, the admin snapshot."""
    if not _SURROGATE_ESCAPE.search(text):
        return False
    try:
        json.dumps(json.loads(text), ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    except ValueError:  # malformed: connexion answers that
        return False
    return False


def json_problem(body: bytes) -> str | None:
    """Why a JSON body cannot be read safely (the message of a 400), or None: not UTF-8, nested
    too deep, a number Python's reader would choke on or store wrongly, a lone surrogate. A
    body that is merely malformed passes: its reader says so."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return "The JSON body is not valid UTF-8."
    if nested_too_deep(text):
        return "The JSON body is nested too deeply."
    problem = number_problem(text)
    if problem is not None:
        return problem
    if has_lone_surrogate(text):
        return "The JSON body has a lone surrogate escape (\\ud800 without its pair)."
    return None


def read_json(body: bytes) -> Any:
    """The body as JSON, for the admin API's own readers; UnreadableJSON (a ValueError) says why
    not, whether it is malformed or one of json_problem's cases (never a RecursionError)."""
    problem = json_problem(body)
    if problem is not None:
        raise UnreadableJSON(problem)
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as exc:
        raise UnreadableJSON(f"the body is not JSON: {exc}") from None


def alias_count(method: str, path: str, query: bytes) -> bytes:
    """Older clients' `count` -> `per_page`, unless `per_page` is sent too (it wins).

    Done here because connexion fills in `per_page`'s default (24) before a handler could
    tell whether it was sent.
    """
    if b"count" not in query or not _takes_count(method.lower(), path_template(path)):
        return query
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    if any(name == "per_page" for name, _ in pairs):
        return query  # per_page wins; count stays, so that a malformed count is still a 400
    renamed = [("per_page" if name == "count" else name, value) for name, value in pairs]
    return urlencode(renamed).encode("latin-1")


@cache
def _takes_count(method: str, template: str | None) -> bool:
    operation = document()["paths"][template].get(method) if template else None
    parameters = operation.get("parameters", []) if isinstance(operation, dict) else []
    return any(resolve(p).get("name") == "count" and resolve(p).get("in") == "query" for p in parameters)


def repeated_single(query: bytes, arrays: frozenset[str]) -> str | None:
    """A parameter that takes one value but is given twice (`page=1&page=2`): which would count?"""
    if b"&" not in query:
        return None
    seen = set()
    for name, _ in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        if name in seen and name not in arrays:
            return name
        seen.add(name)
    return None


_INDEX = re.compile(r"[0-9]*")  # `tags[]`, `tags[0]`


def normalize_query(query: bytes, arrays: frozenset[str]) -> bytes:
    """`tags[]=a`, `tags[0]=a` and `tags=a,b` -> `tags=a&tags=b` for the document's array parameters."""
    upper = query.upper()
    if not any(mark in upper for mark in (b"[", b"%5B", b",", b"%2C")):
        return query
    pairs: list[tuple[str, str]] = []
    for name, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True):
        base, subs = split_key(name)
        if base in arrays and (not subs or (len(subs) == 1 and _INDEX.fullmatch(subs[0]))):
            # an empty value stays: the request tolerance (tolerance.py) reads it as absent
            pairs.extend((base, part) for part in value.split(",") if part != "" or value == "")
        else:
            pairs.append((name, value))
    return urlencode(pairs).encode("latin-1")


# ---------------------------------------------------------------------- ASGI middleware
class GuardMiddleware:
    def __init__(self, app: Any, max_body: int, strict: bool = False):
        self.app = app
        self.max_body = max_body
        self.strict = strict  # serve --strict-requests: no request tolerance (tolerance.py)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        original = scope
        findings: list[dict[str, Any]] = Findings()
        known: Declared | None = None
        moved: list[tuple[str, str]] = []  # a DELETE's body fields that came in the query string
        query = normalize_query(scope.get("query_string", b""), array_query_params())
        query = alias_count(scope["method"], scope["path"], query)
        template = path_template(scope["path"])  # what the request is, by operation, not by path
        if query:
            known = declared(scope["method"].lower(), template)
            if known is not None and needs_query_work(query, known):
                query, moved = tolerate_query(query, known, strict=self.strict, findings=findings)
                record(scope, findings)
        scope["query_string"] = query
        repeated = repeated_single(scope["query_string"], array_query_params())
        if repeated is not None:
            message = f"The query parameter {repeated} takes one value; it was given more than once."
            await _send(send, error_response(400, "invalid_input", message))
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        length = headers.get("content-length", "")
        if length.isascii() and length.isdigit() and (len(length) > 19 or int(length) > self.max_body):
            await _send(send, _too_large(self.max_body))
            return
        body, more = b"", True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                await _send(send, _too_large(self.max_body))
                return
        media_type = headers.get("content-type", "").split(";")[0].strip().lower()
        if body and "content-type" not in headers and scope["path"].startswith("/v1/"):
            # connexion would hand the raw bytes to the handler unvalidated (a 500)
            message = "A request body needs a Content-Type (application/json, a form type)."
            await _send(send, error_response(415, "unsupported_media_type", message))
            return
        data: Any = None  # the body as JSON, when the tolerance has to read it
        rewrite = False  # the body handed on is `data`, not the bytes that came
        admin = scope["path"].startswith(ADMIN_PREFIX)
        if body and (media_type in JSON_TYPES or admin):
            problem = json_problem(body)
            if problem is not None:
                await _send(send, error_response(400, "invalid_input", problem))
                return
            text = body.decode("utf-8")
            if text.lstrip().startswith("{") and not admin:  # an object: the tolerance's business
                with contextlib.suppress(ValueError):  # malformed: connexion answers that
                    data = json.loads(text)
        elif media_type in FORM_TYPES and scope["method"] != "GET" and not admin:
            try:
                pairs, uploads = await _form_pairs(scope, body)
            except (UnicodeDecodeError, ValueError, MultiPartException, HTTPException) as exc:
                # starlette raises HTTPException (not MultiPartException) e.g. for a missing boundary
                detail = exc.detail if isinstance(exc, HTTPException) else exc
                message = f"The form body is malformed: {detail}"
                await _send(send, error_response(400, "invalid_input", message))
                return
            try:
                data = form_to_json(scope["method"], scope["path"], pairs, None if self.strict else findings)
            except ValueError:  # a field's value Python would not convert (an integer of 5000 digits)
                message = f"The form body has a number of over {MAX_INT_DIGITS} digits."
                await _send(send, error_response(400, "invalid_input", message))
                return
            rewrite = True
            scope = {**scope, UPLOADS: uploads}
        if moved and ((data is None and not body) or isinstance(data, dict)):
            # Alamofire sends a DELETE's parameters in the query string: they are its body's fields
            from_query = form_to_json(scope["method"], scope["path"], moved)
            data, rewrite = {**from_query, **(data or {})}, True
        if isinstance(data, dict) and data:
            known = known or declared(scope["method"].lower(), template)
            if known is not None and self.strict:  # what the tolerance would note, refused
                names = [shown(name) for name in unknown_fields(data, known)]
                if names:
                    for name in names:  # the journal says which, as it does without --strict-requests
                        refused = f"The body field {name} is not one this operation has; it was refused."
                        findings.append(
                            {"kind": "unknown_field", "name": name, "in": BODY, "message": refused}
                        )
                    message = (
                        f"The body has field(s) this operation does not have: {', '.join(names)} "
                        "(the mock runs with --strict-requests)."
                    )
                    # refused by the operation (app._bind), after authentication: a request
                    # without credentials is a 401 whatever its body
                    scope = {**scope, REFUSED: message}
            elif known is not None and not self.strict:
                tolerated = tolerate_body(data, known, findings)
                if tolerated != data:
                    data, rewrite = tolerated, True
        if findings:
            record(original, findings)
            scope[FINDINGS] = original[FINDINGS]
        if rewrite:
            body = json.dumps(data).encode()
            scope = {**scope, "headers": _with_json_headers(scope["headers"], len(body))}
        elif not body and has_optional_body(scope["method"].lower(), template):
            # connexion validates a missing optional body as null, which the schema rejects
            body = b"{}"
            scope = {**scope, "headers": _with_json_headers(scope["headers"], len(body))}
        if body and not any(k.lower() == b"content-length" for k, _ in scope["headers"]):
            # chunked: connexion takes a body without Content-Length for none ("RequestBody is required")
            kept = [(k, v) for k, v in scope["headers"] if k.lower() != b"transfer-encoding"]
            scope = {**scope, "headers": [*kept, (b"content-length", str(len(body)).encode())]}
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return cast("dict[str, Any]", await receive())  # after the body: a disconnect, rare
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def record(scope: dict[str, Any], findings: list[dict[str, Any]]) -> None:
    """Move findings into the request's list at `scope[FINDINGS]` (made here if nobody made it)."""
    if findings:
        scope.setdefault(FINDINGS, Findings()).extend(findings)
        findings.clear()


async def _form_pairs(scope: dict[str, Any], body: bytes) -> tuple[list[tuple[str, str]], dict[str, Upload]]:
    """The fields of a urlencoded or multipart body, a file part counting as its file name,
    and the file parts themselves by field name."""
    if not body:
        return [], {}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    form = await Request(scope, receive).form()
    pairs, uploads = [], {}
    try:
        for key, value in form.multi_items():
            if isinstance(value, str):
                pairs.append((key, value))
                continue
            data = await value.read()
            name = value.filename or key
            media_type = value.content_type or mimetypes.guess_type(name)[0] or "application/octet-stream"
            uploads[key] = Upload(name, media_type, len(data), hashlib.sha256(data).hexdigest()[:16])
            pairs.append((key, name))
    finally:
        await form.close()  # the spooled files of the uploads
    return pairs, uploads


def _with_json_headers(headers: list[tuple[bytes, bytes]], length: int) -> list[tuple[bytes, bytes]]:
    kept = [(k, v) for k, v in headers if k.lower() not in (b"content-type", b"content-length")]
    return [*kept, (b"content-type", b"application/json"), (b"content-length", str(length).encode())]


def _too_large(cap: int) -> ConnexionResponse:
    return error_response(413, "payload_too_large", f"The request body is over {cap} bytes.")


async def _send(send: Any, response: ConnexionResponse) -> None:
    headers = [(b"content-type", b"application/json")]
    headers += [(k.lower().encode(), str(v).encode()) for k, v in (response.headers or {}).items()]
    headers.append((b"content-length", str(len(response.body)).encode()))
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.body})
