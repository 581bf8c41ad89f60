"""Schema keywords for test_keywords.py: each edited in a request body's schema and in a response's."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.diff.keyword_cases import (
    ABSENT,
    ARR,
    BOTH,
    NUM,
    OBJ,
    STR,
    VERSIONS,
    Case,
    Document,
    Edit,
    edits,
    escape,
    make_case,
)

# --------------------------------------------------------------------------------------------------
# Schema keywords: the schema of a request body and of a response, edited one at a time

REQUEST = "/paths/~1items/post/requestBody/content/application~1json/schema"
RESPONSE = "/paths/~1items/post/responses/200/content/application~1json/schema"

PETS = {
    "Cat": {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": STR, "purrs": {"type": "boolean"}},
    },
    "Dog": {
        "type": "object",
        "required": ["kind"],
        "properties": {"kind": STR, "barks": {"type": "boolean"}},
    },
}
PET: dict[str, Any] = {"oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}]}
SCALARS = {"S": STR, "I": {"type": "integer"}}


def schema_document(version: str, schema: Any, components: dict[str, Any] | None = None) -> Document:
    """POST /items with `schema` as the request body's and the 200 response's schema."""
    document: Document = {
        "openapi": VERSIONS[version],
        "info": {"title": "Items", "version": "1.0.0"},
        "paths": {
            "/items": {
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": copy.deepcopy(schema)}}},
                    "responses": {
                        "200": {
                            "description": "the item",
                            "content": {"application/json": {"schema": copy.deepcopy(schema)}},
                        }
                    },
                }
            }
        },
    }
    if components:
        document["components"] = {"schemas": copy.deepcopy(components)}
    return document


@dataclass(frozen=True)
class S:
    """A schema keyword: the schema both sides share, where in it the keyword sits, its edits."""

    keyword: str
    base: Any
    edits: tuple[Edit, ...]
    versions: tuple[str, ...] = BOTH
    at: tuple[str, ...] = ()
    components: dict[str, Any] = field(default_factory=dict)
    label: str = ""  # the keyword as the id shows it, when not the keyword itself
    object: str = "schema"
    # another place in the schema where a change reports the edit (a condition is judged as a whole)
    also: tuple[str, ...] | None = None


def _schema_table() -> list[S]:
    if_then = {"type": "object", "if": {"required": ["b"]}}
    contains = {"type": "array", "contains": {"type": "integer"}}
    return [
        # JSON Schema validation (3.0's subset and 2020-12's)
        S("type", {}, edits("string", "integer")),
        S("enum", STR, edits(["x", "y"], ["x"])),
        S("enum", STR, (Edit("value-added", ["x"], ["x", "y"]),)),
        S("multipleOf", NUM, edits(2, 3)),
        S("maximum", NUM, edits(10, 20)),
        S("minimum", NUM, edits(1, 2)),
        S("exclusiveMaximum", {"type": "number", "maximum": 10}, edits(True, False), ("3.0",)),
        S("exclusiveMinimum", {"type": "number", "minimum": 1}, edits(True, False), ("3.0",)),
        S("exclusiveMaximum", NUM, edits(10, 20), ("3.1",)),
        S("exclusiveMinimum", NUM, edits(1, 2), ("3.1",)),
        S("maxLength", STR, edits(10, 20)),
        S("minLength", STR, edits(1, 2)),
        S("pattern", STR, edits("^[a-z]+$", "^[0-9]+$")),
        S("maxItems", ARR, edits(10, 20)),
        S("minItems", ARR, edits(1, 2)),
        S("uniqueItems", ARR, edits(True, False)),
        S("maxProperties", OBJ, edits(5, 1)),
        S("minProperties", OBJ, edits(1, 2)),
        S("required", OBJ, edits(["a"], ["b"])),
        S("const", STR, edits("x", "y"), ("3.1",)),
        S("dependentRequired", OBJ, edits({"a": ["b"]}, {"b": ["a"]}), ("3.1",)),
        S("minContains", contains, edits(1, 2), ("3.1",)),
        S("maxContains", contains, edits(3, 2), ("3.1",)),
        # applicators
        S("allOf", OBJ, edits([{"required": ["a"]}], [{"required": ["b"]}])),
        S("anyOf", {}, edits([STR, {"type": "integer"}], [STR, {"type": "boolean"}])),
        S("oneOf", {}, edits([STR, {"type": "integer"}], [STR, {"type": "boolean"}])),
        S("not", STR, edits({"enum": ["x"]}, {"enum": ["y"]})),
        S("items", {"type": "array", "items": STR}, edits(STR, {"type": "integer"}, ("changed",)), ("3.0",)),
        S("items", {"type": "array"}, edits(STR, {"type": "integer"}), ("3.1",)),
        S(
            "items",
            {"type": "array", "prefixItems": [STR]},
            edits(False, {"type": "integer"}),
            ("3.1",),
            label="items-after-prefixItems",
        ),
        S("properties", {"type": "object"}, edits({"a": STR}, {"a": {"type": "integer"}})),
        S("properties", {"type": "object"}, (Edit("boolean-schema", {"a": True}, {"a": False}),), ("3.1",)),
        S("additionalProperties", OBJ, edits(False, STR)),
        S("prefixItems", {"type": "array"}, edits([STR], [{"type": "integer"}]), ("3.1",)),
        S("contains", {"type": "array"}, edits({"type": "integer"}, STR), ("3.1",)),
        S(
            "if",
            {"type": "object", "then": {"required": ["a"]}},
            edits({"required": ["b"]}, {"required": ["a"]}),
            ("3.1",),
        ),
        S("then", if_then, edits({"required": ["a"]}, {"required": ["c"]}), ("3.1",)),
        S("else", if_then, edits({"required": ["a"]}, {"required": ["c"]}), ("3.1",)),
        S(
            "dependentSchemas",
            OBJ,
            edits({"a": {"required": ["b"]}}, {"a": {"properties": {"b": {"minimum": 1}}}}),
            ("3.1",),
        ),
        S("patternProperties", {"type": "object"}, edits({"^x": STR}, {"^x": {"type": "integer"}}), ("3.1",)),
        S("propertyNames", {"type": "object"}, edits({"pattern": "^[a-z]+$"}, {"maxLength": 3}), ("3.1",)),
        S("unevaluatedProperties", OBJ, edits(False, STR), ("3.1",)),
        S(
            "unevaluatedItems",
            {"type": "array", "prefixItems": [STR]},
            edits(False, {"type": "integer"}),
            ("3.1",),
        ),
        # nullability: 3.0's keyword, 3.1's type arrays, and 3.0's keyword left in a 3.1 document
        S("nullable", STR, edits(True, False), ("3.0",)),
        S(
            "type",
            STR,
            (
                Edit("null-added", "string", ["string", "null"]),
                Edit("null-removed", ["string", "null"], "string"),
            ),
            ("3.1",),
        ),
        S("type", STR, (Edit("array-changed", ["string", "null"], ["integer", "null"]),), ("3.1",)),
        S("nullable", STR, edits(True), ("3.1",), label="nullable-unknown"),
        # references: 3.1's $ref takes siblings; 3.1's core keywords
        S(
            "$ref",
            {},
            edits("#/components/schemas/S", "#/components/schemas/I", ("changed",)),
            components=SCALARS,
        ),
        S(
            "maxLength",
            {"$ref": "#/components/schemas/S"},
            edits(5, 10),
            ("3.1",),
            components=SCALARS,
            label="$ref+maxLength",
        ),
        S(
            "description",
            {"$ref": "#/components/schemas/S"},
            edits("a", "b"),
            ("3.1",),
            components=SCALARS,
            label="$ref+description",
        ),
        S("$id", STR, edits("https://example.com/a", "https://example.com/b"), ("3.1",)),
        S(
            "$schema",
            STR,
            edits(
                "https://json-schema.org/draft/2020-12/schema",
                "https://spec.openapis.org/oas/3.1/dialect/base",
            ),
            ("3.1",),
        ),
        S("$anchor", STR, edits("a", "b"), ("3.1",)),
        S("$dynamicAnchor", STR, edits("a", "b"), ("3.1",)),
        S(
            "$dynamicRef",
            {},
            edits("#s", "#i"),
            ("3.1",),
            components={"S": {"$dynamicAnchor": "s", **STR}, "I": {"$dynamicAnchor": "i", "type": "integer"}},
        ),
        S("$defs", {}, edits({"a": STR}, {"a": {"type": "integer"}}), ("3.1",)),
        S("$comment", STR, edits("a", "b"), ("3.1",)),
        S("$vocabulary", STR, edits({"https://json-schema.org/draft/2020-12/vocab/core": True}), ("3.1",)),
        # content, format and meta-data vocabularies; OpenAPI's own annotations
        S("format", STR, edits("date", "email")),
        S("contentEncoding", STR, edits("base64", "base32"), ("3.1",)),
        S("contentMediaType", STR, edits("application/json", "text/plain"), ("3.1",)),
        S(
            "contentSchema",
            {"type": "string", "contentMediaType": "application/json"},
            edits({"type": "object"}, {"type": "array"}),
            ("3.1",),
        ),
        S("title", STR, edits("A", "B")),
        S("description", STR, edits("a", "b")),
        S("default", OBJ, edits("x", "y"), at=("properties", "a")),
        S("deprecated", STR, edits(True, False)),
        S("readOnly", OBJ, edits(True, False), at=("properties", "a")),
        S("writeOnly", OBJ, edits(True, False), at=("properties", "a")),
        S(
            "readOnly",
            {**OBJ, "required": ["a"]},
            edits(True, False),
            at=("properties", "a"),
            label="readOnly-required",
        ),
        S(
            "writeOnly",
            {**OBJ, "required": ["a"]},
            edits(True, False),
            at=("properties", "a"),
            label="writeOnly-required",
        ),
        S("example", STR, edits("x", "y")),
        S("examples", STR, edits(["x"], ["y"]), ("3.1",)),
        S("externalDocs", STR, edits({"url": "https://a.example.com"}, {"url": "https://b.example.com"})),
        S("x-note", STR, edits("a", "b"), label="extension"),
        # OpenAPI's objects inside a schema: Discriminator, XML, External Documentation
        S("discriminator", PET, edits({"propertyName": "kind"}, {"propertyName": "type"}), components=PETS),
        S(
            "mapping",
            {**PET, "discriminator": {"propertyName": "kind"}},
            edits({"cat": "#/components/schemas/Cat"}, {"cat": "#/components/schemas/Dog"}),
            at=("discriminator",),
            components=PETS,
            object="discriminator",
        ),
        S("xml", OBJ, edits({"name": "item"}, {"name": "thing"})),
        S(
            "name",
            {**OBJ, "xml": {"name": "item"}},
            edits("item", "thing", ("changed",)),
            at=("xml",),
            object="xml",
        ),
        S(
            "namespace",
            {**OBJ, "xml": {"name": "item"}},
            edits("https://a.example.com", "https://b.example.com"),
            at=("xml",),
            object="xml",
        ),
        S("prefix", {**OBJ, "xml": {"name": "item"}}, edits("a", "b"), at=("xml",), object="xml"),
        S(
            "attribute",
            {**OBJ, "properties": {"a": {**STR, "xml": {"name": "id"}}}},
            edits(True, False),
            at=("properties", "a", "xml"),
            object="xml",
        ),
        S("wrapped", {**ARR, "xml": {"name": "items"}}, edits(True, False), at=("xml",), object="xml"),
        S(
            "description",
            {**STR, "externalDocs": {"url": "https://a.example.com"}},
            edits("a", "b"),
            at=("externalDocs",),
            object="externalDocs",
        ),
        S(
            "url",
            {**STR, "externalDocs": {"url": "https://a.example.com"}},
            edits("https://a.example.com", "https://b.example.com", ("changed",)),
            at=("externalDocs",),
            object="externalDocs",
        ),
    ]


def _nested_table() -> list[S]:
    """A keyword one level down, in each place a subschema can sit: the diff must walk into every one."""
    two = [STR, {"type": "integer"}]
    places: list[tuple[str, Any, tuple[str, ...], tuple[str, ...]]] = [
        ("items", ARR, ("items",), BOTH),
        ("properties", OBJ, ("properties", "a"), BOTH),
        (
            "additionalProperties",
            {"type": "object", "additionalProperties": STR},
            ("additionalProperties",),
            BOTH,
        ),
        ("allOf", {"allOf": [STR]}, ("allOf", "0"), BOTH),
        ("anyOf", {"anyOf": two}, ("anyOf", "0"), BOTH),
        ("oneOf", {"oneOf": two}, ("oneOf", "0"), BOTH),
        ("not", {"not": STR}, ("not",), BOTH),
        ("prefixItems", {"type": "array", "prefixItems": [STR]}, ("prefixItems", "0"), ("3.1",)),
        ("contains", {"type": "array", "contains": STR}, ("contains",), ("3.1",)),
        (
            "patternProperties",
            {"type": "object", "patternProperties": {"^x": STR}},
            ("patternProperties", "^x"),
            ("3.1",),
        ),
        (
            "dependentSchemas",
            {"dependentSchemas": {"a": {"properties": {"b": STR}}}},
            ("dependentSchemas", "a", "properties", "b"),
            ("3.1",),
        ),
        (
            "if",
            {"if": {"properties": {"a": STR}}, "then": {"required": ["b"]}},
            ("if", "properties", "a"),
            ("3.1",),
        ),
        (
            "then",
            {"if": {"required": ["a"]}, "then": {"properties": {"b": STR}}},
            ("then", "properties", "b"),
            ("3.1",),
        ),
        (
            "else",
            {"if": {"required": ["a"]}, "else": {"properties": {"b": STR}}},
            ("else", "properties", "b"),
            ("3.1",),
        ),
        ("propertyNames", {"type": "object", "propertyNames": STR}, ("propertyNames",), ("3.1",)),
        (
            "unevaluatedProperties",
            {"type": "object", "unevaluatedProperties": STR},
            ("unevaluatedProperties",),
            ("3.1",),
        ),
        (
            "unevaluatedItems",
            {"type": "array", "prefixItems": [STR], "unevaluatedItems": STR},
            ("unevaluatedItems",),
            ("3.1",),
        ),
        (
            "contentSchema",
            {"type": "string", "contentMediaType": "application/json", "contentSchema": STR},
            ("contentSchema",),
            ("3.1",),
        ),
    ]
    return [
        S(
            "maxLength",
            base,
            edits(5, 10),
            versions,
            at,
            label=f"maxLength-in-{container}",
            also=at[:1] if container == "if" else None,
        )
        for container, base, at, versions in places
    ]


def _edge_table() -> list[S]:
    """Values a comparison can lose: null (not absence), zero and false (falsy), false for 0 and true for 1
    (equal in Python, not in JSON Schema), null leaving an enum of a nullable schema."""
    nulls = (Edit("null-added", ABSENT, None), Edit("null-removed", None, ABSENT))
    zero = (Edit("zero-added", ABSENT, 0), Edit("zero-removed", 0, ABSENT))
    nullable = {"3.0": {"type": "string", "nullable": True}, "3.1": {"type": ["string", "null"]}}
    untyped = {"type": "object", "properties": {"a": {}}}
    return [
        S("const", {}, nulls, ("3.1",)),
        *(
            S(
                "default",
                {"type": "object", "properties": {"a": nullable[v]}},
                nulls,
                (v,),
                ("properties", "a"),
            )
            for v in BOTH
        ),
        S("example", {}, nulls),
        S("minimum", NUM, zero),
        S("maximum", NUM, zero),
        S("exclusiveMinimum", NUM, zero, ("3.1",)),
        S("maxLength", STR, zero),
        S("maxItems", ARR, zero),
        S("maxProperties", OBJ, zero),
        S("enum", {}, (Edit("false-for-0", [0], [False]), Edit("true-for-1", [1], [True]))),
        S("const", {}, (Edit("false-for-0", 0, False),), ("3.1",)),
        S("default", untyped, (Edit("false-for-0", 0, False),), at=("properties", "a")),
        *(S("enum", nullable[v], (Edit("null-dropped", ["a", None], ["a"]),), (v,)) for v in BOTH),
        S("type", {}, (Edit("array-narrowed", ["string", "integer"], ["string"]),), ("3.1",)),
    ]


def component_cases() -> Iterator[Case]:
    """Keywords of a component schema that the request body and the response both `$ref`."""
    nullable = {
        "3.0": Edit("nullable-added", STR, {**STR, "nullable": True}),
        "3.1": Edit("null-added", STR, {"type": ["string", "null"]}),
    }
    for version in BOTH:
        rows = [
            ("required", (), edits(["a"], ["b"])),
            ("maxLength", ("properties", "a"), edits(5, 10)),
            ("enum", ("properties", "a"), edits(["x", "y"], ["x"])),
            ("additionalProperties", (), edits(False, STR)),
            ("a", ("properties",), (nullable[version],)),
        ]
        base = schema_document(version, {"$ref": "#/components/schemas/T"}, {"T": OBJ})
        for keyword, at, made in rows:
            holder = "/components/schemas/T" + "".join(f"/{escape(token)}" for token in at)
            for edit in made:
                label = "property-a" if keyword == "a" else keyword
                yield make_case(
                    f"schema-{version}-{label}-{edit.kind}-component", base, {}, holder, keyword, edit
                )


def schema_cases() -> Iterator[Case]:
    for row in [*_schema_table(), *_nested_table(), *_edge_table()]:
        for version in row.versions:
            for edit in row.edits:
                base = schema_document(version, row.base, row.components)
                for where, pointer in (("request", REQUEST), ("response", RESPONSE)):
                    holder = pointer + "".join(f"/{escape(token)}" for token in row.at)
                    name = f"{row.object}-{version}-{row.label or row.keyword}-{edit.kind}-{where}"
                    places: tuple[str, ...] = ("/components/schemas",) if row.components else ()
                    if row.also is not None:
                        places += (pointer + "".join(f"/{escape(token)}" for token in row.also),)
                    yield make_case(name, base, {}, holder, row.keyword, edit, places, row.at[-1:])


def with_component(version: str, name: str) -> Document:
    """A document whose request and response schemas are the component `name` (the negative control)."""
    schema = {
        "type": "object",
        "required": ["a"],
        "properties": {"a": {"type": "string", "enum": ["x", "y"]}, "b": {"type": "integer", "minimum": 1}},
    }
    return schema_document(version, {"$ref": f"#/components/schemas/{name}"}, {name: schema})
