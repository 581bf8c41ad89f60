"""Schemas of OpenAPI 3.1 (JSON Schema 2020-12) and 3.0 in `csapi diff`: one table of keywords, one
normal form for both versions, and each keyword compared with the classes of the design."""

from __future__ import annotations

from typing import Any

import pytest

from csapi.openapi.diff import Change, diff
from csapi.openapi.diff.schemas import KEYWORDS
from tests.diff.schema_docs import V30, V31, both_ways, changes, document, verdicts

BR, OB, CO = "breaking", "obligation", "compatible"

# Every keyword of the Schema Object of OpenAPI 3.0.3 and of JSON Schema 2020-12 (all vocabularies
# but $vocabulary, a meta-schema's) with OpenAPI 3.1's additions.
OPENAPI_30 = """title multipleOf maximum exclusiveMaximum minimum exclusiveMinimum maxLength minLength
pattern maxItems minItems uniqueItems maxProperties minProperties required enum type allOf oneOf anyOf
not items properties additionalProperties description format default nullable discriminator readOnly
writeOnly xml externalDocs example deprecated""".split()
JSON_SCHEMA_2020 = """$schema $id $ref $anchor $dynamicRef $dynamicAnchor $comment $defs prefixItems
items contains additionalProperties properties patternProperties dependentSchemas propertyNames if then
else allOf anyOf oneOf not unevaluatedItems unevaluatedProperties type const enum multipleOf maximum
exclusiveMaximum minimum exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems
maxContains minContains maxProperties minProperties required dependentRequired title description
default deprecated readOnly writeOnly examples format contentEncoding contentMediaType contentSchema
discriminator xml externalDocs example""".split()


@pytest.mark.parametrize("keyword", sorted(set(OPENAPI_30) | set(JSON_SCHEMA_2020)))
def test_every_keyword_has_a_rule(keyword: str) -> None:
    assert keyword in KEYWORDS


OBJ = {"type": "object"}
ARR = {"type": "array"}


@pytest.mark.parametrize(
    ("old", "new", "request_", "response"),
    [
        # const: a one-value enum
        ({"const": "a"}, {"const": "b"}, {("enum-value-added", OB), ("enum-value-removed", BR)}, None),
        ({"type": "string"}, {"type": "string", "const": "a"}, {("enum-value-removed", BR)}, None),
        ({"const": "a"}, {"enum": ["a", "b"]}, {("enum-value-added", OB)}, {("enum-value-added", BR)}),
        # contains, minContains, maxContains
        (
            ARR,
            {**ARR, "contains": {"type": "integer"}},
            {("contains-changed", BR)},
            {("contains-changed", OB)},
        ),
        (
            {**ARR, "contains": {"type": "integer"}},
            ARR,
            {("contains-changed", OB)},
            {("contains-changed", BR)},
        ),
        (
            {**ARR, "contains": {"type": "integer"}},
            {**ARR, "contains": {"type": "integer"}, "minContains": 1},
            {("contains-changed", CO)},
            {("contains-changed", CO)},
        ),
        (
            {**ARR, "contains": {"type": "integer"}},
            {**ARR, "contains": {"type": "integer"}, "maxContains": 3},
            {("contains-changed", BR)},
            {("contains-changed", OB)},
        ),
        (
            {**ARR, "contains": {"type": "integer", "minimum": 1}},
            {**ARR, "contains": {"type": "integer", "minimum": 5}},
            {("bound-tightened", BR)},
            None,
        ),
        # prefixItems, and items after them
        (
            {**ARR, "prefixItems": [{"type": "integer"}]},
            {**ARR, "prefixItems": [{"type": "string"}]},
            {("type-changed", BR)},
            {("type-changed", BR)},
        ),
        (
            {**ARR, "prefixItems": [{"type": "integer"}], "items": {"type": "string"}},
            {**ARR, "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": {"type": "string"}},
            set(),
            set(),
        ),
        (
            {**ARR, "prefixItems": [{"type": "integer"}]},
            {**ARR, "prefixItems": [{"type": "integer"}], "items": False},
            {("not-changed", BR)},
            {("not-changed", OB)},
        ),
        # if/then/else
        (
            OBJ,
            {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b"]}},
            {("conditional-changed", BR)},
            None,
        ),
        (
            {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b"]}},
            {**OBJ, "if": {"required": ["c"]}, "then": {"required": ["b"]}},
            {("conditional-changed", BR)},
            {("conditional-changed", BR)},
        ),
        (
            {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b"]}},
            {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b", "c"]}},
            {("required-added", BR)},
            {("required-added", OB)},
        ),
        # dependentRequired, dependentSchemas
        (
            {**OBJ, "dependentRequired": {"a": ["b"]}},
            OBJ,
            {("dependent-required", OB)},
            {("dependent-required", BR)},
        ),
        (OBJ, {**OBJ, "dependentSchemas": {"a": {"required": ["b"]}}}, {("dependent-schemas", BR)}, None),
        # patternProperties, propertyNames, unevaluatedProperties
        (
            {**OBJ, "patternProperties": {"^x": {"type": "string"}}},
            {**OBJ, "patternProperties": {"^x": {"type": "integer"}}},
            {("type-changed", BR)},
            {("type-changed", BR)},
        ),
        (OBJ, {**OBJ, "patternProperties": {"^x": {"type": "string"}}}, {("pattern-properties", BR)}, None),
        (OBJ, {**OBJ, "propertyNames": {"maxLength": 3}}, {("property-names", BR)}, {("property-names", OB)}),
        (
            {**OBJ, "unevaluatedProperties": False},
            OBJ,
            {("additional-properties", OB)},
            {("additional-properties", BR)},
        ),
        (ARR, {**ARR, "unevaluatedItems": False}, {("items-changed", BR)}, {("items-changed", OB)}),
        # numeric exclusive bounds, multipleOf, min/maxProperties, uniqueItems
        (
            {"type": "number", "minimum": 1},
            {"type": "number", "exclusiveMinimum": 1},
            {("bound-tightened", BR)},
            None,
        ),
        (
            {"type": "number", "exclusiveMaximum": 9},
            {"type": "number", "maximum": 9},
            {("bound-loosened", OB)},
            None,
        ),
        (
            {"type": "number", "multipleOf": 2},
            {"type": "number", "multipleOf": 4},
            {("multiple-of", BR)},
            None,
        ),
        (
            {"type": "number", "multipleOf": 4},
            {"type": "number", "multipleOf": 2},
            {("multiple-of", OB)},
            None,
        ),
        (OBJ, {**OBJ, "maxProperties": 3}, {("bound-tightened", BR)}, {("bound-tightened", OB)}),
        (ARR, {**ARR, "uniqueItems": True}, {("unique-items", BR)}, {("unique-items", OB)}),
        # type arrays with "null"
        ({"type": "string"}, {"type": ["string", "null"]}, {("nullable", OB)}, {("nullable", BR)}),
        ({"type": ["string", "integer"]}, {"type": "string"}, {("type-changed", BR)}, {("type-changed", OB)}),
        # contentEncoding / contentMediaType / contentSchema
        (
            {"type": "string"},
            {"type": "string", "contentEncoding": "base64"},
            {("content-changed", BR)},
            None,
        ),
        (
            {"type": "string", "contentMediaType": "image/png"},
            {"type": "string", "contentMediaType": "image/gif"},
            {("content-changed", BR)},
            {("content-changed", BR)},
        ),
        # format, pattern, not, enum, deprecated, discriminator
        ({"type": "string"}, {"type": "string", "format": "email"}, {("format-changed", BR)}, None),
        ({"type": "string"}, {"type": "string", "pattern": "^a"}, {("pattern-changed", BR)}, None),
        ({"type": "string"}, {"type": "string", "not": {"const": "x"}}, {("not-changed", BR)}, None),
        (
            {"type": "string"},
            {"type": "string", "deprecated": True},
            {("deprecated", CO)},
            {("deprecated", CO)},
        ),
        (
            {"oneOf": [{"type": "object"}, {"type": "string"}]},
            {"oneOf": [{"type": "object"}, {"type": "string"}], "discriminator": {"propertyName": "kind"}},
            {("discriminator-changed", BR)},
            {("discriminator-changed", OB)},
        ),
        # identifiers, dialect, dynamic references
        (
            {"type": "string", "$anchor": "a"},
            {"type": "string", "$anchor": "b"},
            {("identifier-changed", CO)},
            None,
        ),
        ({"type": "string", "$id": "a"}, {"type": "string", "$id": "b"}, {("identifier-changed", CO)}, None),
        ({"type": "string", "$defs": {"a": {}}}, {"type": "string"}, {("identifier-changed", CO)}, None),
        (
            {"type": "string", "$schema": "https://json-schema.org/draft/2020-12/schema"},
            {"type": "string", "$schema": "https://json-schema.org/draft/2019-09/schema"},
            {("dialect-changed", BR)},
            {("dialect-changed", BR)},
        ),
        ({"$dynamicRef": "#a"}, {"$dynamicRef": "#b"}, {("reference-changed", BR)}, None),
        # annotations, extensions, and a key no rule knows
        (
            {"type": "string", "description": "a", "examples": ["x"], "$comment": "c", "title": "t"},
            {"type": "string", "description": "b", "examples": ["y"], "$comment": "d", "title": "u"},
            {("documentation-changed", CO)},
            {("documentation-changed", CO)},
        ),
        ({"type": "string", "x-a": 1}, {"type": "string", "x-a": 2}, {("extension-changed", CO)}, None),
        (
            {"type": "string", "foo": 1},
            {"type": "string", "foo": 2},
            {("not-compared", BR)},
            {("not-compared", BR)},
        ),
        # `nullable` is no 3.1 keyword: no value changes, and it is said (its author meant something)
        ({"type": "string", "nullable": True}, {"type": "string"}, {("no-effect", CO)}, None),
    ],
)
def test_keyword_change_is_classified(
    old: Any, new: Any, request_: set[tuple[str, str]], response: set[tuple[str, str]] | None
) -> None:
    in_request, in_response = both_ways(old, new)
    assert in_request == request_
    if response is not None:
        assert in_response == response


def test_not_compared_names_the_keyword() -> None:
    (change,) = changes({"type": "string", "foo": 1}, {"type": "string", "foo": 2})
    assert "`foo`" in change.message and "judge this change by hand" in change.reason
    assert change.pointer.endswith("/schema/foo")


def test_a_changed_if_is_undecided_and_breaking_both_ways() -> None:
    old = {**OBJ, "if": {"required": ["a"]}, "then": {"required": ["b"]}}
    new = {**OBJ, "if": {"required": ["c"]}, "then": {"required": ["b"]}}
    assert verdicts(old, new, where="response") == {("conditional-changed", BR)}


# -- one normal form: 3.0 and 3.1 spellings of the same schema compare equal


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"type": "string", "nullable": True}, {"type": ["string", "null"]}),
        (
            {"type": "string", "nullable": True, "enum": ["a", None]},
            {"type": ["null", "string"], "enum": ["a", None]},
        ),
        (
            {"type": "integer", "minimum": 1, "exclusiveMinimum": True},
            {"type": "integer", "exclusiveMinimum": 1},
        ),
        ({"type": "integer", "maximum": 9, "exclusiveMaximum": False}, {"type": "integer", "maximum": 9}),
        ({"type": "string", "enum": ["a"]}, {"type": "string", "const": "a"}),
        ({"type": "string", "example": "a"}, {"type": "string", "examples": ["a"]}),
        (  # 3.0.3: `nullable` beside allOf/oneOf and no `type` admits no null; a null branch does
            {
                "anyOf": [
                    {"$ref": "#/components/schemas/S"},
                    {"type": "string", "nullable": True, "enum": [None]},
                ]
            },
            {"anyOf": [{"$ref": "#/components/schemas/S"}, {"type": "null"}]},
        ),
        (
            {"nullable": True, "allOf": [{"$ref": "#/components/schemas/S"}]},
            {"allOf": [{"$ref": "#/components/schemas/S"}]},
        ),
        (
            {"nullable": True, "oneOf": [{"$ref": "#/components/schemas/S"}]},
            {"$ref": "#/components/schemas/S"},
        ),
        (
            {"$ref": "#/components/schemas/S", "description": "ignored in 3.0"},
            {"$ref": "#/components/schemas/S"},
        ),
    ],
)
def test_a_30_schema_and_its_31_spelling_are_no_change(old: Any, new: Any) -> None:
    s = {"type": "object", "properties": {"a": {"type": "string"}}}
    for where in ("request", "response"):
        old_doc = document_of(old, V30, where, s)
        new_doc = document_of(new, V31, where, s)
        assert diff_of(old_doc, new_doc) == []


def test_nullable_is_reported_whichever_spelling() -> None:
    old = document_of({"type": "string"}, V30, "response")
    for new in (
        document_of({"type": "string", "nullable": True}, V30, "response"),
        document_of({"type": ["string", "null"]}, V31, "response"),
        document_of({"oneOf": [{"type": "string"}, {"type": "null"}]}, V31, "response"),
    ):
        (change,) = diff_of(old, new)
        assert (change.rule, change.classification.value) == ("nullable", BR)
        assert "made nullable" in change.message


def test_nullable_without_a_type_in_30_changes_nothing() -> None:
    assert diff_of(document_of({}, V30, "request"), document_of({"nullable": True}, V30, "request")) == []


def test_a_31_ref_with_siblings_is_the_target_and_the_siblings() -> None:
    s = {"type": "string"}
    tighter = {"$ref": "#/components/schemas/S", "maxLength": 3}
    assert verdicts({"$ref": "#/components/schemas/S"}, tighter, S=s) == {("bound-tightened", BR)}
    # in 3.0 the siblings of a $ref are ignored
    assert verdicts({"$ref": "#/components/schemas/S"}, tighter, version=V30, S=s) == set()


def test_boolean_schemas() -> None:
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    assert verdicts({**closed, "additionalProperties": True}, closed) == {("additional-properties", BR)}
    assert verdicts(
        {"type": "object", "properties": {"a": True}}, {"type": "object", "properties": {"a": False}}
    ) == {("not-changed", BR)}


def document_of(schema: Any, version: str, where: str, s: Any = None) -> dict[str, Any]:
    return document(schema, where=where, version=version, **({"S": s} if s is not None else {}))


def diff_of(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    return diff(old, new)
