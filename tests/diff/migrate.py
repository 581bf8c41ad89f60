"""`to_31`: an OpenAPI 3.0 document rewritten as 3.1 with the same meaning (issue 23, item 2).

What 3.1 reads otherwise than 3.0, and how each is rewritten (nothing else changes):

- `openapi` becomes 3.1.0.
- A Schema Object's `nullable: true` adds "null" to its `type` (`type: [T, "null"]`). Without a
  `type` it has no effect in 3.0 (3.0.3: it only widens an explicit `type`) and is dropped, as is
  `nullable: false`. An `enum` is kept as written: in 3.0 a null value must be listed in the enum
  to pass it (openapi-schema-validator's reading), and so in 3.1.
- 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` qualify `minimum`/`maximum`; 3.1's are the
  bound itself: `{minimum: 1, exclusiveMinimum: true}` becomes `{exclusiveMinimum: 1}`, and a
  `false` (or one without its bound) is dropped.
- A schema's `example` becomes `examples: [example]` (3.1 deprecates the former); a parameter's,
  header's or media type's `example` is not a schema keyword and stays.
- 3.0 ignores every sibling of a `$ref`, 3.1 applies them (in a schema) or lets `summary` and
  `description` override the target's: the siblings are dropped.

The walk follows the document's structure (paths, operations, callbacks, components), so only
Schema Objects get schema rewrites.
"""

from __future__ import annotations

import copy
from typing import Any

Node = dict[str, Any]

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SCHEMA_LISTS = ("allOf", "oneOf", "anyOf")
_SCHEMA_ONE = ("not", "items")


def to_31(document: Node) -> Node:
    """`document` (OpenAPI 3.0) as OpenAPI 3.1 with the same meaning; `document` is left as it is."""
    migrated = copy.deepcopy(document)
    migrated["openapi"] = "3.1.0"
    for item in migrated.get("paths", {}).values():
        _path_item(item)
    _components(migrated.get("components", {}))
    return migrated


# --------------------------------------------------------------------------------------------------
# The document's structure, down to the Schema Objects


def _is_ref(node: Any) -> bool:
    return isinstance(node, dict) and "$ref" in node


def _reference(node: Node) -> bool:
    """Drop the siblings of a `$ref` (3.0 ignores them; 3.1 would read some); True if `node` is one."""
    if not _is_ref(node):
        return False
    for key in [key for key in node if key != "$ref"]:
        del node[key]
    return True


def _components(components: Node) -> None:
    for schema in components.get("schemas", {}).values():
        _schema(schema)
    for kind, visit in (
        ("parameters", _parameter),
        ("headers", _parameter),
        ("responses", _response),
        ("requestBodies", _content_holder),
        ("callbacks", _callback),
    ):
        for node in components.get(kind, {}).values():
            visit(node)
    for kind in ("examples", "links", "securitySchemes"):
        for node in components.get(kind, {}).values():
            _reference(node)


def _path_item(item: Node) -> None:
    if _reference(item):
        return
    for parameter in item.get("parameters", []):
        _parameter(parameter)
    for method in METHODS:
        if method in item:
            _operation(item[method])


def _operation(operation: Node) -> None:
    for parameter in operation.get("parameters", []):
        _parameter(parameter)
    if "requestBody" in operation:
        _content_holder(operation["requestBody"])
    for response in operation.get("responses", {}).values():
        _response(response)
    for callback in operation.get("callbacks", {}).values():
        _callback(callback)


def _callback(callback: Node) -> None:
    if not _reference(callback):
        for item in callback.values():
            _path_item(item)


def _parameter(parameter: Node) -> None:
    """A Parameter or Header Object: a schema, or content; its own `example` stays."""
    if _reference(parameter):
        return
    if "schema" in parameter:
        _schema(parameter["schema"])
    _content_holder(parameter)


def _response(response: Node) -> None:
    if _reference(response):
        return
    for header in response.get("headers", {}).values():
        _parameter(header)
    for link in response.get("links", {}).values():
        _reference(link)
    _content_holder(response)


def _content_holder(node: Node) -> None:
    """A Request Body, Response, Parameter or Header: its media types' schemas and encodings."""
    if _reference(node):
        return
    for media in node.get("content", {}).values():
        if "schema" in media:
            _schema(media["schema"])
        for example in media.get("examples", {}).values():
            _reference(example)
        for encoding in media.get("encoding", {}).values():
            for header in encoding.get("headers", {}).values():
                _parameter(header)


# --------------------------------------------------------------------------------------------------
# Schema Objects


def _schema(schema: Any) -> None:
    if not isinstance(schema, dict) or _reference(schema):
        return
    _nullable(schema)
    _exclusive(schema, "exclusiveMinimum", "minimum")
    _exclusive(schema, "exclusiveMaximum", "maximum")
    if "example" in schema:
        schema["examples"] = [schema.pop("example")]
    for key in _SCHEMA_LISTS:
        for member in schema.get(key, []):
            _schema(member)
    for key in _SCHEMA_ONE:
        if key in schema:
            _schema(schema[key])
    for member in schema.get("properties", {}).values():
        _schema(member)
    if isinstance(schema.get("additionalProperties"), dict):
        _schema(schema["additionalProperties"])


def _nullable(schema: Node) -> None:
    if not schema.pop("nullable", False) or "type" not in schema:
        return
    types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
    schema["type"] = types if "null" in types else [*types, "null"]


def _exclusive(schema: Node, exclusive: str, bound: str) -> None:
    """3.0's `{bound: n, exclusive: true}` as 3.1's `{exclusive: n}`."""
    if exclusive not in schema:
        return
    if schema.pop(exclusive) is True and bound in schema:
        schema[exclusive] = schema.pop(bound)
