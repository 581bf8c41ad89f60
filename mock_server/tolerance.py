"""Request tolerance (docs/design.md): what the real service lets through and its official clients rely on.

The Ruby gem sends a whole resource back on save (`id`, `created_at`, `thumbnails[mini]`...) and
path ids in the body (`collection_id`, `item_id`); the Swift SDK puts `include[]` in bodies,
default parameters (`per_page`, `items_per_page`, `items_not_type`) on operations that have
none, and, being Alamofire, the parameters of a DELETE in the query string and booleans as 1/0.
So, in front of connexion (the guard calls these):

- an unknown query parameter or body field is dropped;
- an empty value is null for a nullable field, and absent for a field that is not text (not a
  string, or a string of an enum); a text field keeps its "";
- a DELETE's body fields found in the query string move into its body;
- a boolean query parameter may be 1 or 0 (an encoding, accepted in both modes).

What the document states stays enforced: a wrong type, a missing required field, a value outside
an enum are still 400s. Each deviation taken is a finding (`{"kind", "name", "in", "message"}`)
for the request journal. With `serve --strict-requests` nothing is dropped: connexion refuses
unknown query parameters (strict_validation) and the guard refuses unknown body fields.

What an operation declares is worked out once per operation (method and path template), never
per request path; a request without a query string or a body costs nothing here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import parse_qsl, urlencode

from ..openapi import document, resolve
from .findings import Findings
from .forms import empty_value, flat_schema, means_nothing, properties, split_key

QUERY, BODY = "query", "body"
LONGEST_NAME = 100  # a finding names at most this much of a field or parameter (a key may be huge)


def shown(name: str) -> str:
    """The name as a finding or a refusal shows it."""
    return name if len(name) <= LONGEST_NAME else name[: LONGEST_NAME - 3] + "..."


@dataclass(frozen=True, slots=True)
class Declared:
    """What one operation declares: its query parameters and its body's fields."""

    method: str
    params: dict[str, dict[str, Any]]  # query parameter -> resolved schema
    plain: frozenset[bytes]  # the parameter names, as a query string spells them
    booleans: frozenset[bytes]
    fields: dict[str, dict[str, Any]] | None  # body field -> resolved schema; None: no body declared
    names: frozenset[str]  # the body's fields
    shared: frozenset[str]  # the body's fields outside its oneOf alternatives
    branches: tuple[tuple[frozenset[str], frozenset[str]], ...]  # oneOf: (required, fields) of each

    def known_fields(self, body: dict[str, Any]) -> frozenset[str]:
        """The fields this body may carry. For a oneOf body (Update items order vs Update items),
        those of the alternatives whose required fields it has, if it has those of any."""
        matching = [own for required, own in self.branches if required <= body.keys()]
        return self.shared.union(*matching) if matching else self.names


@cache  # by (method, template): one entry per operation, however many ids are asked for
def declared(method: str, template: str | None) -> Declared | None:
    item = document()["paths"].get(template) if template else None
    operation = item.get(method) if item else None
    if not item or not isinstance(operation, dict):  # no item has no operation (`not item`: for mypy)
        return None
    params = {}
    for parameter in [*item.get("parameters", []), *operation.get("parameters", [])]:
        parameter = resolve(parameter)
        if parameter.get("in") == "query":
            params[parameter["name"]] = flat_schema(parameter.get("schema", {}))
    body = resolve(operation.get("requestBody")) if operation.get("requestBody") else None
    schema = body.get("content", {}).get("application/json", {}).get("schema", {}) if body else {}
    fields = properties(schema) if body else None
    branches = tuple(
        (frozenset(resolve(part).get("required", [])), frozenset(properties(part)))
        for part in resolve(schema).get("oneOf", [])
    )
    names = frozenset(fields or ())
    return Declared(
        method=method,
        params=params,
        plain=frozenset(name.encode() for name in params),
        booleans=frozenset(name.encode() for name, kind in params.items() if kind.get("type") == "boolean"),
        fields=fields,
        names=names,
        shared=names.difference(*(own for _, own in branches)),
        branches=branches,
    )


# ---------------------------------------------------------------------- the query string
def needs_query_work(query: bytes, known: Declared) -> bool:
    """Is there anything to do? Not when every parameter is a declared one, spelled plainly,
    with a value that is not a boolean's digit: the common case costs a split, no decoding."""
    for part in query.split(b"&"):
        name, _, value = part.partition(b"=")
        if name not in known.plain or not value or (value in (b"1", b"0") and name in known.booleans):
            return True
    return False


def tolerate_query(
    query: bytes, known: Declared, *, strict: bool, findings: list[dict[str, Any]]
) -> tuple[bytes, list[tuple[str, str]]]:
    """The query string as the operation reads it, and the pairs that belong in a DELETE's body.

    strict: only the encodings (1/0 booleans); connexion then refuses whatever is unknown.
    """
    pairs = parse_qsl(query.decode("latin-1"), keep_blank_values=True)
    kept: list[tuple[str, str]] = []
    moved: list[tuple[str, str]] = []
    reported: set[tuple[str, str]] = set()

    def report(kind: str, name: str, message: str) -> None:
        if (kind, name) not in reported:
            reported.add((kind, name))
            findings.append({"kind": kind, "name": name, "in": QUERY, "message": message})

    for name, value in pairs:
        schema = known.params.get(name)
        if schema is not None and value in ("1", "0") and schema.get("type") == "boolean":
            kept.append((name, "true" if value == "1" else "false"))
        elif strict:  # kept for connexion to refuse; the journal still says which
            kept.append((name, value))
            if schema is None:
                called = shown(split_key(name)[0])
                message = f"The query parameter {called} is not one this operation has; it was refused."
                report("unknown_parameter", called, message)
        elif schema is not None:
            if value == "" and (schema.get("nullable") or means_nothing(schema)):
                finding = empty_value(name, QUERY, null=bool(schema.get("nullable")))
                report(finding["kind"], name, finding["message"])
            else:
                kept.append((name, value))
        else:
            base = shown(split_key(name)[0])
            if known.method == "delete" and known.fields is not None and base in known.fields:
                moved.append((name, value))
                message = f"The DELETE parameter {base} came in the query string; it was taken from there."
                report("delete_parameter_in_query", base, message)
            else:
                called = shown(name) if base in known.params else base  # `page[]`: not the parameter
                message = f"The query parameter {called} is not one this operation has; it was ignored."
                report("unknown_parameter", called, message)
    if kept == pairs:
        return query, moved
    return urlencode(kept).encode("latin-1"), moved


# ---------------------------------------------------------------------- the body
def unknown_fields(body: dict[str, Any], known: Declared) -> list[str]:
    """The fields of a JSON object body that the operation's body does not have."""
    fields = known.known_fields(body)
    return [name for name in body if name not in fields]


def tolerate_body(body: dict[str, Any], known: Declared, findings: list[dict[str, Any]]) -> dict[str, Any]:
    """The body without its unknown fields, and with its empty values read as null or absent."""
    fields = known.fields or {}
    allowed = known.known_fields(body)
    out: dict[str, Any] = {}
    for name, value in body.items():
        if name not in allowed and isinstance(findings, Findings) and findings.full:
            findings.more += 1  # kept no more: only counted, not built
        elif name not in allowed:
            message = f"The body field {shown(name)} is not one this operation has; it was ignored."
            findings.append({"kind": "unknown_field", "name": shown(name), "in": BODY, "message": message})
        elif value == "" and (fields[name].get("nullable") or means_nothing(fields[name])):
            null = bool(fields[name].get("nullable"))
            findings.append(empty_value(name, BODY, null=null))
            if null:
                out[name] = None
        else:
            out[name] = value
    return out
