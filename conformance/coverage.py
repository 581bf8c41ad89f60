"""What a conformance run exercised, per operation of the document: the coverage in the verdict.

Every request of the run is observed on the wire (`Target.request` of every layer, and the calls
schemathesis makes for the contract layer, through `driver.observing`) and mapped onto its
operation by method and path. For each operation the run keeps how many requests each layer sent,
the statuses that came back, and for each of its query, path and body parameters the kinds of
value it was sent with (KINDS). The checks come from the run's outcomes: passed, failed, skipped
with the reason, and the checks the run left out (--read-only, --strict, --include/--exclude).

`Coverage.as_dict` is the shape `--coverage-json` writes and the report renders (FORMAT,
VERSION): a tool may rely on its keys; a new key may appear within a version, none goes away.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from jsonschema import Draft4Validator

from ..openapi import resolve
from . import driver
from .registry import LAYERS, unselected
from .results import ERROR, FAIL, PASS, SKIP, Outcome, Results
from .settings import Settings
from .target import Exchange, Target

FORMAT, VERSION = "csapi-conform-coverage", 1
METHODS = ("get", "put", "post", "delete", "patch")

#: The kinds of value a parameter was sent with, from the document's schema of the parameter.
KINDS: dict[str, str] = {
    "absent": "left out of the request",
    "empty": "sent without a value: an empty string, null, [] or {}",
    "valid": "one value the document allows",
    "array": "several values at once (a list, a repeated query parameter), all allowed",
    "invalid-type": "a value of a type or shape the document does not allow (text for an integer)",
    "out-of-range": "the right type, outside the enum, bounds, length, pattern or format",
}
# jsonschema keywords whose violation means "right type, wrong value"; any other is a wrong type
_RANGE = {
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "uniqueItems",
    "pattern",
    "format",
    "multipleOf",
}
# what a schema says that is not about the values it allows
_ANNOTATIONS = {"example", "examples", "description", "nullable", "readOnly", "writeOnly", "discriminator"}
_INTEGER = re.compile(r"-?\d+")
_NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


# ---------------------------------------------------------------------- the document's operations
@dataclass
class Parameter:
    name: str
    location: str  # "query" | "path" | "body"
    required: bool
    schema: dict[str, Any]
    kinds: Counter[str] = field(default_factory=Counter)
    _validator: Draft4Validator | None = None

    def kind(self, value: Any) -> str:
        if value is None or value == "" or (isinstance(value, list | dict) and not value):
            return "empty"
        if self._validator is None:
            self._validator = Draft4Validator(self.schema, format_checker=Draft4Validator.FORMAT_CHECKER)
        errors = list(self._validator.iter_errors(value))
        if not errors:
            return "array" if isinstance(value, list) and len(value) > 1 else "valid"
        return "out-of-range" if all(e.validator in _RANGE for e in errors) else "invalid-type"


@dataclass
class Operation:
    operation_id: str
    method: str
    path: str
    tag: str
    summary: str
    documented: list[str]  # response keys: "200", "4XX", "default"
    parameters: dict[tuple[str, str], Parameter]
    pattern: re.Pattern[str]
    path_names: list[str]
    requests: Counter[str] = field(default_factory=Counter)  # by layer
    statuses: Counter[int] = field(default_factory=Counter)

    def documents(self, status: int) -> bool:
        return any(_covers(key, status) for key in self.documented)


def _covers(key: str, status: int) -> bool:
    key = key.upper()
    return key == "DEFAULT" or key == str(status) or (key.endswith("XX") and key[0] == str(status)[0])


def operations_of(document: dict[str, Any]) -> list[Operation]:
    """Every operation of the document, in its order, with its parameters' schemas."""
    found = []
    for path, item in document["paths"].items():
        shared = [resolve(p, document) for p in item.get("parameters", [])]
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, dict) or "operationId" not in op:
                continue
            params: dict[tuple[str, str], Parameter] = {}
            for p in [*shared, *(resolve(p, document) for p in op.get("parameters", []))]:
                if p.get("in") in ("query", "path"):
                    schema = _inline(p.get("schema", {}), document)
                    required = bool(p.get("required"))
                    params[(p["in"], p["name"])] = Parameter(p["name"], p["in"], required, schema)
            for name, (schema, required) in _body_fields(op, document).items():
                params[("body", name)] = Parameter(name, "body", required, schema)
            names = re.findall(r"\{([^}]+)\}", path)
            regex = re.sub(r"\\\{[^}]+\\\}", "([^/]+)", re.escape(path))
            found.append(
                Operation(
                    op["operationId"],
                    method.upper(),
                    path,
                    (op.get("tags") or ["(untagged)"])[0],
                    op.get("summary", ""),
                    [str(k) for k in op.get("responses", {})],
                    params,
                    re.compile(f"^{regex}/?$"),
                    names,
                )
            )
    return found


def _body_fields(op: dict[str, Any], document: dict[str, Any]) -> dict[str, tuple[dict[str, Any], bool]]:
    """The top-level fields of the request body (of every alternative of a oneOf), and if required."""
    body = resolve(op.get("requestBody", {}), document)
    content = body.get("content", {})
    media: dict[str, Any] = content.get("application/json") or next(iter(content.values()), {})
    fields: dict[str, tuple[dict[str, Any], bool]] = {}

    def walk(schema: dict[str, Any], required: bool) -> None:
        schema = resolve(schema, document)
        needed = set(schema.get("required", [])) if required else set()
        for name, sub in schema.get("properties", {}).items():
            if name not in fields:
                fields[name] = (_inline(sub, document), name in needed)
        for part in schema.get("allOf", []):
            walk(part, required)
        for part in schema.get("oneOf", []) + schema.get("anyOf", []):
            walk(part, False)  # required only in one alternative: not required as such

    walk(media.get("schema", {}), True)
    return fields


def _inline(schema: Any, document: dict[str, Any], depth: int = 0) -> Any:
    """The schema with its $refs followed (to a depth) and OpenAPI's `nullable` as JSON Schema's null."""
    schema = resolve(schema, document)
    if depth > 8:
        return {}
    if isinstance(schema, list):
        return [_inline(s, document, depth + 1) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _ANNOTATIONS:
            continue
        if key in ("properties", "patternProperties"):  # names, not schemas: keep them as they are
            out[key] = {name: _inline(sub, document, depth + 1) for name, sub in value.items()}
        elif key in ("enum", "required", "type", "format", "pattern"):
            out[key] = value
        else:
            out[key] = _inline(value, document, depth + 1)
    if schema.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
            if "enum" in out:
                out["enum"] = [*out["enum"], None]
        else:
            out = {"anyOf": [out, {"type": "null"}]}
    return out


# ---------------------------------------------------------------------- observing the run
class Coverage:
    """Observes every request of a run (`recording`) and tells what it covered (`as_dict`)."""

    def __init__(self, document: dict[str, Any], settings: Settings) -> None:
        self.document = document
        self.settings = settings
        self.operations = operations_of(document)
        self._by_template = {(o.method, o.path): o for o in self.operations}
        self._by_path = sorted(self.operations, key=lambda o: len(o.path_names))
        self._base_path = urlsplit(settings.base_url).path.rstrip("/")
        self.layer = "setup"  # who sends now: the runner sets the layer of each check it runs
        self.unmatched: Counter[str] = Counter()  # requests outside the document, e.g. a 405 probe
        self.watch: Callable[[str], None] | None = None  # told the operation of every request (progress)

    @contextmanager
    def recording(self, target: Target) -> Iterator[None]:
        """Observe the target's requests and schemathesis' calls while inside."""
        target.observers.append(self.observe)
        try:
            with driver.observing(self._observe_call):
                yield
        finally:
            target.observers.remove(self.observe)

    def _observe_call(self, case: Any, response: driver.Response) -> None:
        request = response.request
        body = request.body.encode("utf-8") if isinstance(request.body, str) else request.body
        sent = Exchange(
            method=str(request.method),
            url=str(request.url),
            headers={"content-type": request.headers.get("content-type", "")},
            body=body or None,
            status=response.status_code,
            response_headers={},
            response_text="",
        )
        self.observe(sent, template=case.path)

    def observe(self, exchange: Exchange, template: str | None = None) -> None:
        """One request and its status: counted for its operation, its parameters classified."""
        url = urlsplit(exchange.url)
        path = url.path[len(self._base_path) :] if url.path.startswith(self._base_path) else url.path
        op, values = self._match(exchange.method.upper(), path, template)
        if op is None:
            self.unmatched[f"{exchange.method.upper()} {path}"] += 1
            return
        op.requests[self.layer] += 1
        if self.watch is not None:
            self.watch(op.operation_id)
        op.statuses[exchange.status] += 1
        query: dict[str, list[str]] = {}
        for name, value in parse_qsl(url.query, keep_blank_values=True):
            query.setdefault(_base_name(name), []).append(value)
        body, textual = _body(exchange)
        for (location, name), param in op.parameters.items():
            if location == "path":
                param.kinds[param.kind(_typed([values.get(name, "")], param.schema))] += 1
            elif location == "query":
                texts = query.get(name)
                param.kinds[param.kind(_typed(texts, param.schema)) if texts else "absent"] += 1
            elif isinstance(body, dict):
                sent = body.get(name)
                if textual and isinstance(sent, list):
                    sent = _typed(sent, param.schema)
                param.kinds[param.kind(sent) if name in body else "absent"] += 1
            elif body is not None:  # a body that is not an object: none of its fields was sent
                param.kinds["invalid-type"] += 1
            else:
                param.kinds["absent"] += 1

    def _match(self, method: str, path: str, template: str | None) -> tuple[Operation | None, dict[str, str]]:
        given = self._by_template.get((method, template or ""))
        if given is None:
            # the path first, as a router matches (literal segments before parameters), then the
            # method: GET /v1/items/copy is no Get an item, but a method the path does not have
            found = next((o for o in self._by_path if o.pattern.match(path)), None)
            given = self._by_template.get((method, found.path)) if found else None
        matched = given.pattern.match(path) if given else None
        if given is None or matched is None:
            return None, {}
        return given, {name: unquote(v) for name, v in zip(given.path_names, matched.groups(), strict=True)}

    # ------------------------------------------------------------------ the verdict's data
    def as_dict(
        self, results: Results, *, seconds: float, started: str, left_behind: list[str] | None = None
    ) -> dict[str, Any]:
        """The coverage of the run, and its verdict, as the documented JSON shape (FORMAT, VERSION)."""
        left_behind = left_behind or []
        checks = [*results.outcomes, *results.left_out]
        by_op: dict[str, list[Outcome]] = {}
        for outcome in checks:
            by_op.setdefault(outcome.operation, []).append(outcome)
        known = {o.operation_id for o in self.operations}
        operations = [self._operation(op, by_op.get(op.operation_id, [])) for op in self.operations]
        counts = Counter(o.status for o in results.outcomes if not o.accepted)  # accepted: on their own
        documented = sum(len(o.documented) for o in self.operations)
        seen = sum(len(o["statuses"]["documented"]) - len(o["statuses"]["not_seen"]) for o in operations)
        settings = self.settings
        return {
            "format": FORMAT,
            "version": VERSION,
            "verdict": "passed" if results.ok and not left_behind else "failed",
            "target": settings.base_url,
            "seed": settings.seed,
            "started_at": started,
            "duration_seconds": round(seconds, 2),
            "settings": {
                "quick": settings.quick,
                "strict": settings.strict,
                "read_only": settings.read_only,
                "include": list(settings.include),
                "exclude": list(settings.exclude),
                "users": len(settings.users),
                "team_id": settings.team_id,
                "max_examples": settings.examples,
            },
            "value_kinds": dict(KINDS),
            "totals": {
                "checks": {
                    "passed": counts[PASS],
                    "failed": counts[FAIL],
                    "errors": counts[ERROR],
                    "skipped": counts[SKIP],
                    "left_out": len(results.left_out),
                    "accepted": len(results.accepted),
                },
                "operations": {
                    "documented": len(operations),
                    "exercised": sum(o["exercised"] for o in operations),
                },
                "statuses": {"documented": documented, "seen": seen},
                "requests": sum(sum(o.requests.values()) for o in self.operations),
                "requests_outside_the_document": sum(self.unmatched.values()),
            },
            "skip_reasons": dict(Counter(_reason(o) for o in checks if o.status == SKIP).most_common()),
            "left_behind": left_behind,
            "failures": [_failure(o) for o in results.outcomes if o.failed],
            "accepted": [_accepted(o) for o in results.accepted],
            "accept_notes": [
                {"entry": n.entry, "message": n.message, "fails": n.fails} for n in results.accept_notes
            ],
            "operations": operations,
            "other_checks": [_check(o) for o in checks if o.operation not in known],
        }

    def _operation(self, op: Operation, outcomes: list[Outcome]) -> dict[str, Any]:
        selected = unselected(self.document, self.settings, op.operation_id)
        not_seen = [key for key in op.documented if not any(_covers(key, s) for s in op.statuses)]
        return {
            "operation_id": op.operation_id,
            "method": op.method,
            "path": op.path,
            "tag": op.tag,
            "summary": op.summary,
            "selected": selected is None,
            "exercised": bool(op.requests),
            "requests": dict(op.requests),
            "statuses": {
                "documented": op.documented,
                "seen": {str(s): n for s, n in sorted(op.statuses.items())},
                "not_seen": not_seen,
                "undocumented": [str(s) for s in sorted(op.statuses) if not op.documents(s)],
            },
            "parameters": [
                {"name": p.name, "in": p.location, "required": p.required, "kinds": _kinds(p.kinds)}
                for p in op.parameters.values()
            ],
            "layers": {layer: self._cell(op, layer, outcomes, selected) for layer in LAYERS},
            "checks": [_check(o) for o in outcomes],
        }

    def _cell(
        self, op: Operation, layer: str, outcomes: list[Outcome], excluded: str | None
    ) -> dict[str, Any]:
        mine = [o for o in outcomes if o.layer == layer]
        counts = Counter(o.status for o in mine if not o.accepted)
        accepted = sum(bool(o.accepted) for o in mine)
        failed = counts[FAIL] + counts[ERROR]
        if failed:
            state = "failed"
        elif accepted:
            state = "accepted"  # failures, each accepted by an --accept entry
        elif counts[PASS]:
            state = "passed"
        elif counts[SKIP]:
            state = "skipped"
        else:
            state = "not exercised"
        reasons = Counter(_reason(o) for o in mine if o.status == SKIP)
        reason = reasons.most_common(1)[0][0] if reasons else ""
        if state == "not exercised":
            reason = excluded or self._idle(op, layer)
        return {
            "state": state,
            "passed": counts[PASS],
            "failed": failed,
            "skipped": counts[SKIP],
            "accepted": accepted,
            "requests": op.requests.get(layer, 0),
            "reason": reason,
        }

    def _idle(self, op: Operation, layer: str) -> str:
        """Why a layer has no check of a selected operation."""
        if layer == "contract" and self.settings.read_only and op.method != "GET":
            return "--read-only"  # the contract layer sends only GETs then
        return f"no {layer} check of this operation"


def _base_name(name: str) -> str:
    """`tags[]` and `metadata[a]` are the parameters `tags` and `metadata` (Rails-style forms)."""
    return name.split("[", 1)[0]


def _typed(texts: list[str], schema: dict[str, Any]) -> Any:
    """Text from a URL or a form as the value it stands for, read by the parameter's schema."""
    if all(t == "" for t in texts):
        return ""
    if _type(schema) == "array":
        return [_from_text(t, schema.get("items", {})) for t in texts]
    if len(texts) == 1:
        return _from_text(texts[0], schema)
    return [_from_text(t, schema) for t in texts]  # repeated: several values at once


def _type(schema: dict[str, Any]) -> str:
    kind = schema.get("type", "")
    return next((k for k in kind if k != "null"), "") if isinstance(kind, list) else str(kind)


def _from_text(text: str, schema: dict[str, Any]) -> Any:
    kind = _type(schema)
    if kind == "integer" and _INTEGER.fullmatch(text):
        return int(text)
    if kind == "number" and _NUMBER.fullmatch(text):
        return float(text)
    if kind == "boolean" and text in ("true", "false"):
        return text == "true"
    return text


def _body(exchange: Exchange) -> tuple[Any, bool]:
    """The request body as data (JSON, or a form's texts by field), and whether its values are text;
    None when there is none."""
    if not exchange.body:
        return None, False
    ctype = next((v for k, v in exchange.headers.items() if k.lower() == "content-type"), "")
    if "x-www-form-urlencoded" in ctype:
        return _form(parse_qsl(exchange.body.decode("utf-8", "replace"), keep_blank_values=True)), True
    if "multipart/form-data" in ctype:
        head = b"Content-Type: " + ctype.encode("latin-1", "replace") + b"\r\n\r\n"
        message = BytesParser(policy=HTTP).parsebytes(head + exchange.body)
        pairs = []
        for part in message.iter_parts():
            payload = part.get_payload(decode=True)
            text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
            pairs.append((str(part.get_param("name", header="content-disposition") or ""), text))
        return _form(pairs), True
    try:
        return json.loads(exchange.body), False
    except ValueError:
        return exchange.body.decode("utf-8", "replace"), False


def _form(pairs: list[tuple[str, str]]) -> dict[str, Any]:
    """A form's fields: the texts of each (`tags[]` repeated), or of its keys (`metadata[a]=b`)."""
    fields: dict[str, Any] = {}
    for name, value in pairs:
        base, _, rest = name.partition("[")
        key = rest.split("]", 1)[0]
        if key and not key.isdigit():  # a nested key: the field is an object
            entry = fields.setdefault(base, {})
            if isinstance(entry, dict):
                entry[key] = value
        else:
            entry = fields.setdefault(base, [])
            if isinstance(entry, list):
                entry.append(value)
    return fields


def _kinds(kinds: Counter[str]) -> dict[str, int]:
    return {kind: kinds[kind] for kind in KINDS if kinds[kind]}


def _reason(outcome: Outcome) -> str:
    return outcome.message or "skipped"


def _check(outcome: Outcome) -> dict[str, Any]:
    entry = {
        "layer": outcome.layer,
        "operation_id": outcome.operation,
        "check": outcome.check,
        "rule": outcome.rule,
        "status": outcome.status,
    }
    if outcome.status == SKIP:
        entry["reason"] = _reason(outcome)
    elif outcome.status in (FAIL, ERROR):
        entry["kind"] = outcome.kind
        entry["message"] = outcome.message
        if outcome.accepted:
            entry["accepted"] = outcome.accepted
    return entry


def _accepted(outcome: Outcome) -> dict[str, Any]:
    """A failure an --accept entry accepted: what failed and the entry's reason and expiry."""
    return {
        "operation_id": outcome.operation,
        "check": outcome.check,
        "reason": outcome.accepted,
        "expires": outcome.expires or None,
        "layer": outcome.layer,
        "id": outcome.id,
        "status": outcome.status,
        "kind": outcome.kind,
        "message": outcome.message,
    }


def _failure(outcome: Outcome) -> dict[str, Any]:
    exchange = outcome.exchange
    return _check(outcome) | {
        "curl": exchange.curl() if exchange else "",
        "response": exchange.shown() if exchange else "",
    }
