"""The cases of test_keywords.py: pairs of documents that differ in one keyword of one object.

A case names the object that holds the keyword (`holder`, a JSON pointer into both documents),
the keyword, and its value in OLD and in NEW (`ABSENT`: not there). The edit kinds come from two
values a table gives per keyword: `added` (absent -> first), `removed` (first -> absent),
`changed` (first -> second); a table may list its own edits instead. `setup` puts what a keyword
needs (a component, a webhook, a second security scheme) into both documents alike.

Here: the case model and `base_document` (one of each object the non-schema keywords sit in); the
tables: keyword_schemas.py (Schema Object, in its own small document), keyword_objects.py
(parameters to path items), keyword_document.py (security, servers, info, tags, components,
webhooks, the document's own keywords).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

Document = dict[str, Any]


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
VERSIONS = {"3.0": "3.0.3", "3.1": "3.1.0"}
BOTH = ("3.0", "3.1")

STR: dict[str, Any] = {"type": "string"}
NUM: dict[str, Any] = {"type": "number"}
ARR: dict[str, Any] = {"type": "array", "items": {"type": "string"}}
OBJ: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}}
OBJ_A: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string"}}}


@dataclass(frozen=True)
class Case:
    id: str
    keyword: str
    holder: str
    old: Document
    new: Document
    places: tuple[str, ...]  # a change at or under one of these reports the edit
    names: tuple[str, ...]  # a `not-compared` change must name one of these


@dataclass(frozen=True)
class Edit:
    kind: str
    old: Any
    new: Any


def edits(
    first: Any, second: Any = ABSENT, kinds: tuple[str, ...] = ("added", "removed", "changed")
) -> tuple[Edit, ...]:
    made = {"added": Edit("added", ABSENT, first), "removed": Edit("removed", first, ABSENT)}
    if second is not ABSENT:
        made["changed"] = Edit("changed", first, second)
    return tuple(made[kind] for kind in kinds if kind in made)


# --------------------------------------------------------------------------------------------------
# Pointers


def escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _tokens(pointer: str) -> list[str]:
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:]]


def put(document: Document, holder: str, keyword: str, value: Any) -> None:
    """Set `keyword` of the object at `holder` to `value` (ABSENT: delete it); missing parents are made."""
    node: Any = document
    for token in _tokens(holder):
        node = node[int(token)] if isinstance(node, list) else node.setdefault(token, {})
    if isinstance(node, list):  # an entry of a list: set it, append it (index = length) or drop it
        index = int(keyword)
        if value is ABSENT:
            del node[index : index + 1]
        elif index == len(node):
            node.append(copy.deepcopy(value))
        else:
            node[index] = copy.deepcopy(value)
    elif value is ABSENT:
        node.pop(keyword, None)
    else:
        node[keyword] = copy.deepcopy(value)


def _set(document: Document, pointer: str, value: Any) -> None:
    tokens = _tokens(pointer)
    put(document, "".join(f"/{escape(token)}" for token in tokens[:-1]), tokens[-1], value)


def make_case(
    name: str,
    base: Document,
    setup: dict[str, Any],
    holder: str,
    keyword: str,
    edit: Edit,
    places: tuple[str, ...] = (),
    names: tuple[str, ...] = (),
) -> Case:
    old, new = copy.deepcopy(base), copy.deepcopy(base)
    for document in (old, new):
        for pointer, value in setup.items():
            _set(document, pointer, value)
    put(old, holder, keyword, edit.old)
    put(new, holder, keyword, edit.new)
    own = holder or f"/{escape(keyword)}"  # a keyword of the document itself is at its own pointer
    return Case(name, keyword, holder, old, new, (own, *places), (keyword, *names))


# --------------------------------------------------------------------------------------------------
# The other objects: one base document with each object once, edited one keyword at a time

ITEM = "/paths/~1items~1{id}"
GET, POST = f"{ITEM}/get", f"{ITEM}/post"
QUERY = f"{GET}/parameters/0"
BODY = f"{POST}/requestBody"
JSON_BODY = f"{BODY}/content/application~1json"
FORM = f"{BODY}/content/multipart~1form-data"
OK = f"{GET}/responses/200"
HEADER = f"{OK}/headers/X-Rate"
LINK = f"{OK}/links/save"
SCHEMES = "/components/securitySchemes"
AUTH_CODE = f"{SCHEMES}/oauth/flows/authorizationCode"
USES = ("/security", f"{GET}/security", f"{POST}/security")  # where a scheme's edit may show too
SERVER = "/servers/0"
CALLBACK = f"{POST}/callbacks/saved/{{$request.body#~1callback}}/post"
AUTH = "https://auth.example.com"


def base_document(version: str) -> Document:
    """A small document with one of each object: two operations, parameters, bodies, headers, links."""
    return {
        "openapi": VERSIONS[version],
        "info": {"title": "Items", "version": "1.0.0"},
        "servers": [{"url": "https://api.example.com/v1"}],
        "security": [{"key": []}],
        "tags": [{"name": "items"}],
        "paths": {
            "/items/{id}": {
                "parameters": [{"name": "id", "in": "path", "required": True, "schema": STR}],
                "get": {
                    "operationId": "items.show",
                    "parameters": [{"name": "fields", "in": "query", "schema": ARR}],
                    "responses": {
                        "200": {
                            "description": "the item",
                            "headers": {"X-Rate": {"schema": {"type": "integer"}}},
                            "content": {"application/json": {"schema": OBJ_A}},
                            "links": {
                                "save": {
                                    "operationId": "items.save",
                                    "parameters": {"id": "$request.path.id"},
                                }
                            },
                        },
                        "404": {"description": "no such item"},
                    },
                },
                "post": {
                    "operationId": "items.save",
                    "security": [{"oauth": ["write"]}, {"basic": []}],
                    "requestBody": {
                        "content": {
                            "application/json": {"schema": OBJ_A},
                            "multipart/form-data": {
                                "schema": {
                                    "type": "object",
                                    "properties": {
                                        "file": {"type": "string", "format": "binary"},
                                        "meta": {"type": "object"},
                                    },
                                },
                                "encoding": {"meta": {"contentType": "application/json"}},
                            },
                        }
                    },
                    "responses": {"201": {"description": "saved"}},
                    "callbacks": {
                        "saved": {
                            "{$request.body#/callback}": {
                                "post": {
                                    "requestBody": {"content": {"application/json": {"schema": OBJ_A}}},
                                    "responses": {"200": {"description": "received"}},
                                }
                            }
                        }
                    },
                },
            }
        },
        "components": {
            "securitySchemes": {
                "key": {"type": "apiKey", "name": "X-API-Key", "in": "header"},
                "basic": {"type": "http", "scheme": "basic"},
                "oauth": {
                    "type": "oauth2",
                    "flows": {
                        "authorizationCode": {
                            "authorizationUrl": f"{AUTH}/authorize",
                            "tokenUrl": f"{AUTH}/token",
                            "scopes": {"read": "read items", "write": "write items"},
                        }
                    },
                },
            }
        },
    }


@dataclass(frozen=True)
class K:
    """A keyword of an object of the base document: where the object is, the keyword's edits."""

    object: str
    keyword: str
    holder: str
    edits: tuple[Edit, ...]
    versions: tuple[str, ...] = BOTH
    setup: dict[str, Any] = field(default_factory=dict)
    places: tuple[str, ...] = ()
    label: str = ""


def object_cases(rows: Iterable[K]) -> Iterator[Case]:
    """The cases of `rows` (keywords of the objects of `base_document`), one per version and edit."""
    for row in rows:
        for version in row.versions:
            for edit in row.edits:
                name = f"{row.object}-{version}-{row.label or row.keyword}-{edit.kind}"
                names = tuple(token for token in _tokens(row.holder)[-1:] if not token.isdigit())
                yield make_case(
                    name, base_document(version), row.setup, row.holder, row.keyword, edit, row.places, names
                )
