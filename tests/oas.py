"""Just enough OpenAPI reading for the coverage tests: local `$ref`s, `allOf`, path shapes.

Why not a library: the tests need three small operations on plain parsed YAML, and a hand-rolled
resolver keeps a failure message pointing at the document rather than at a library's internals.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from csapi.openapi import DOCUMENT_PATH, document

HTTP_METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")

Node = dict[str, Any]


def project_document() -> Node:
    """openapi/openapi.yaml, or a clear test failure while it does not exist yet."""
    if not DOCUMENT_PATH.exists():
        pytest.fail(f"{DOCUMENT_PATH} does not exist yet", pytrace=False)
    return document()


def path_shape(path: str) -> str:
    """`/v1/items/{item_id}` -> `/v1/items/{}`: compare templates without their parameter names."""
    return re.sub(r"\{[^}]*\}", "{}", path)


def resolve(doc: Node, node: Any) -> Any:
    """Follow `{"$ref": "#/components/..."}` links (chains too) to the node they name."""
    seen: set[str] = set()
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        assert ref.startswith("#/"), f"only local $refs are supported, found {ref!r}"
        assert ref not in seen, f"$ref cycle through {ref!r}"
        seen.add(ref)
        node = doc
        for part in ref[2:].split("/"):
            key = part.replace("~1", "/").replace("~0", "~")
            assert isinstance(node, dict) and key in node, f"dangling $ref {ref!r}"
            node = node[key]
    return node


def flatten(doc: Node, schema: Any) -> Node:
    """One schema dict with its `allOf` parts merged in: properties and required lists are unioned;
    for other keywords the outer schema wins (so `allOf: [$ref] + nullable: true` stays nullable)."""
    schema = resolve(doc, schema)
    assert isinstance(schema, dict), f"a schema must be a mapping, found {schema!r}"
    merged: Node = {}
    props: Node = {}
    required: list[str] = []
    for part in [*(flatten(doc, p) for p in schema.get("allOf", [])), schema]:
        props.update(part.get("properties", {}))
        required += [r for r in part.get("required", []) if r not in required]
        merged.update({k: v for k, v in part.items() if k not in ("allOf", "properties", "required")})
    if props:
        merged["properties"] = props
    if required:
        merged["required"] = required
    return merged


def properties(doc: Node, schema: Any) -> dict[str, Node]:
    """The schema's properties, each flattened, `allOf` parts included."""
    return {name: flatten(doc, prop) for name, prop in flatten(doc, schema).get("properties", {}).items()}


def operation(doc: Node, method: str, path: str) -> Node:
    """The operation object for `method` on the path item shaped like `path` (parameter names ignored)."""
    for template, item in doc.get("paths", {}).items():
        if path_shape(template) == path_shape(path) and method.lower() in item:
            return item[method.lower()]
    pytest.fail(f"the document has no operation {method.upper()} {path}", pytrace=False)


def method_paths(doc: Node) -> set[tuple[str, str]]:
    """{(METHOD, path shape)} of every operation in the document."""
    return {
        (method.upper(), path_shape(template))
        for template, item in doc.get("paths", {}).items()
        for method in resolve(doc, item)
        if method in HTTP_METHODS
    }


def extends(doc: Node, schema: Any, ref: str) -> bool:
    """Whether `schema` is `ref`, or reaches it through `$ref`s and `allOf` parts."""
    if isinstance(schema, dict) and schema.get("$ref") == ref:
        return True
    schema = resolve(doc, schema)
    return isinstance(schema, dict) and any(extends(doc, part, ref) for part in schema.get("allOf", []))
