"""Verdicts by meaning on schemas (docs/design.md, Spec edits, issue 23): readOnly/writeOnly by
direction, patterns that match everything, union branches subsumed, disjoint or overlapping, nullable
wraps compared branch by branch, and defaults."""

from __future__ import annotations

from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator, OAS31Validator

from csapi.openapi.diff import Classification, Direction, Effect, diff
from csapi.openapi.diff.model import Finding, judge
from csapi.openapi.diff.schema_parts import admits_null
from csapi.openapi.diff.schemas import trivial
from csapi.openapi.diff.sides import Side
from tests.diff.schema_docs import V30, V31, both_ways, changes, document, verdicts

BR, OB, CO = "breaking", "obligation", "compatible"


def obj(properties: dict[str, Any], required: tuple[str, ...] = (), **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(required), **more}


RO = {"type": "integer", "readOnly": True}
WO = {"type": "string", "writeOnly": True}
NAME = {"type": "string"}


# -- readOnly / writeOnly


def test_a_required_read_only_property_added_concerns_responses_only() -> None:
    request, response = both_ways(obj({"name": NAME}), obj({"name": NAME, "id": RO}, ("id",)))
    assert request == {("property-added", CO)} and response == {("property-added", OB)}
    (change,) = changes(obj({"name": NAME}), obj({"name": NAME, "id": RO}, ("id",)))
    assert change.reason == "`id` is readOnly: it concerns responses only"


def test_a_write_only_property_made_optional_concerns_requests_only() -> None:
    request, response = both_ways(obj({"password": WO}, ("password",)), obj({"password": WO}))
    assert request == {("required-removed", OB)} and response == {("required-removed", CO)}
    (change,) = changes(obj({"password": WO}, ("password",)), obj({"password": WO}), where="response")
    assert change.reason == "`password` is writeOnly: it concerns requests only"


def test_changes_inside_a_read_only_property_count_in_responses_only() -> None:
    old = obj({"state": {"type": "string", "enum": ["a", "b"], "readOnly": True}})
    new = obj({"state": {"type": "string", "enum": ["a"], "readOnly": True}})
    assert both_ways(old, new) == ({("enum-value-removed", CO)}, {("enum-value-removed", OB)})


def test_read_only_and_write_only_set_or_unset() -> None:
    plain, read_only, write_only = (
        obj({"a": NAME}),
        obj({"a": {**NAME, "readOnly": True}}),
        obj({"a": {**NAME, "writeOnly": True}}),
    )
    assert both_ways(plain, read_only) == ({("read-only", BR)}, {("read-only", CO)})
    assert both_ways(read_only, plain) == ({("read-only", OB)}, {("read-only", CO)})
    assert both_ways(plain, write_only) == ({("write-only", CO)}, {("write-only", BR)})
    assert both_ways(write_only, plain) == ({("write-only", CO)}, {("write-only", CO)})


def test_read_only_or_write_only_unset_on_a_required_property_makes_it_required_one_way() -> None:
    """`required` binds a readOnly property in responses only, a writeOnly one in requests only."""
    read_only, plain = obj({"id": RO}, ("id",)), obj({"id": {"type": "integer"}}, ("id",))
    request, response = both_ways(read_only, plain)
    assert ("required-added", BR) in request and ("read-only", OB) in request
    assert response == {("read-only", CO), ("required-added", CO)}
    (change,) = [c for c in changes(read_only, plain) if c.rule == "required-added"]
    assert "now required in requests" in change.message and "`id`" in change.reason
    request, response = both_ways(plain, read_only)
    assert ("required-removed", OB) in request and ("read-only", BR) in request
    write_only, text = obj({"pw": WO}, ("pw",)), obj({"pw": NAME}, ("pw",))
    request, response = both_ways(write_only, text)
    assert ("required-added", OB) in response and ("required-added", CO) in request
    (change,) = [c for c in changes(write_only, text, where="response") if c.rule == "required-added"]
    assert "now required in responses" in change.message
    # not listed in `required`: only the flag itself changes
    assert both_ways(obj({"id": RO}), obj({"id": {"type": "integer"}})) == (
        {("read-only", OB)},
        {("read-only", CO)},
    )


def test_judge() -> None:
    finding = Finding("/x/properties/id", "required-added", "m", Effect.TIGHTEN, only=Direction.RESPONSE)
    assert judge(finding, Direction.RESPONSE) == (Classification.OBLIGATION, "")
    assert judge(finding, Direction.REQUEST) == (
        Classification.COMPATIBLE,
        "`id` is readOnly: it concerns responses only",
    )
    fixed = Finding("/x", "r", "m", Effect.TIGHTEN, fixed=Classification.BREAKING, only=Direction.RESPONSE)
    assert judge(fixed, Direction.REQUEST) == (Classification.BREAKING, "")
    assert judge(Finding("/x", "r", "m", Effect.MEANING), Direction.REQUEST) == (Classification.BREAKING, "")
    assert judge(Finding("/x", "r", "m", Effect.MEANING), Direction.RESPONSE) == (
        Classification.COMPATIBLE,
        "",
    )


# -- patterns that match every string


@pytest.mark.parametrize(
    "pattern", [".*", "", "[\\s\\S]*", "^[\\s\\S]*$", "^(.|\\n|\\r|\u2028|\u2029)*$", "^[a-z]*", "x*"]
)
def test_a_pattern_that_matches_everything_is_no_pattern(pattern: str) -> None:
    assert trivial(pattern)
    assert both_ways({"type": "string"}, {"type": "string", "pattern": pattern}) == (
        {("pattern-changed", CO)},
        {("pattern-changed", CO)},
    )
    assert both_ways({"type": "string", "pattern": "^a+$"}, {"type": "string", "pattern": pattern}) == (
        {("pattern-changed", OB)},
        {("pattern-changed", BR)},
    )


# `^.*$`: ECMA's `.` matches no line terminator and `$` is the end of the text ("a\nb" fails)
@pytest.mark.parametrize(
    "pattern", ["^[^<>]*$", ".+", "^\\d*$", "[a-z]", "^.{0,3}$", "(", "\\S", "^.*$", "^(.*)$", "^(?!x).*$"]
)
def test_a_pattern_that_refuses_something_is_a_pattern(pattern: str) -> None:
    assert not trivial(pattern)


# -- union branches

KIND_A = obj({"kind": {"const": "a"}, "x": NAME}, ("kind",))
KIND_B = obj({"kind": {"const": "b"}, "y": NAME}, ("kind",))
KIND_C = obj({"kind": {"enum": ["c", "d"]}}, ("kind",))


def test_an_anyof_branch_subsumed_by_another_changes_nothing() -> None:
    narrower = {**KIND_A, "required": ["kind", "x"]}
    assert both_ways({"anyOf": [KIND_A, KIND_B]}, {"anyOf": [KIND_A, KIND_B, narrower]}) == (
        {("alternative-added", CO)},
        {("alternative-added", CO)},
    )
    same_shape = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "integer", "minimum": 1}]}
    assert verdicts({"anyOf": [{"type": "string"}, {"type": "integer"}]}, same_shape) == {
        ("alternative-added", CO)
    }
    # and removing it changes nothing either
    assert verdicts({"anyOf": [KIND_A, KIND_B, narrower]}, {"anyOf": [KIND_A, KIND_B]}) == {
        ("alternative-removed", CO)
    }


def test_an_anyof_branch_with_new_values_loosens() -> None:
    old = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    new = {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "boolean"}]}
    assert both_ways(old, new) == ({("alternative-added", OB)}, {("alternative-added", BR)})


CLOSED_A = {**KIND_A, "additionalProperties": False}
CLOSED_B = {**KIND_B, "additionalProperties": False}


@pytest.mark.parametrize(
    ("branches", "branch"),
    [
        ([KIND_A, KIND_B], KIND_C),  # a required property with disjoint values
        ([KIND_A, KIND_B], {"type": "array"}),  # another type
        (
            [{"type": "string", "enum": ["a"]}, {"type": "integer"}],
            {"type": "string", "enum": ["z"]},
        ),  # enums
        ([CLOSED_A, CLOSED_B], obj({"z": NAME}, ("z",))),  # closed objects without the required `z`
    ],
)
def test_a_oneof_branch_disjoint_from_all_others_only_loosens(
    branches: list[Any], branch: dict[str, Any]
) -> None:
    old, new = {"oneOf": branches}, {"oneOf": [*branches, branch]}
    assert both_ways(old, new) == ({("alternative-added", OB)}, {("alternative-added", BR)})


def test_a_oneof_branch_inside_another_only_tightens() -> None:
    inside = {**KIND_A, "required": ["kind", "x"]}
    assert both_ways({"oneOf": [KIND_A, KIND_B]}, {"oneOf": [KIND_A, KIND_B, inside]}) == (
        {("alternative-added", BR)},
        {("alternative-added", OB)},
    )


def test_a_oneof_branch_around_another_is_breaking_and_decided() -> None:
    (change,) = changes(
        {"oneOf": [KIND_A, KIND_B]}, {"oneOf": [KIND_A, KIND_B, {"type": "object"}]}, where="response"
    )
    assert change.classification is Classification.BREAKING
    assert "which oneOf refuses" in change.message


def test_a_oneof_branch_that_may_overlap_is_breaking() -> None:
    maybe = obj({"z": NAME}, ("z",))
    assert both_ways({"oneOf": [KIND_A, KIND_B]}, {"oneOf": [KIND_A, KIND_B, maybe]}) == (
        {("alternative-added", BR)},
        {("alternative-added", BR)},
    )


# -- nullable wraps, compared branch by branch

ENUM = {"type": "string", "enum": ["a", "b", "c"]}
NARROWED = {"type": "string", "enum": ["a", "b"]}


@pytest.mark.parametrize(
    ("wrap", "version"),
    [
        ({"oneOf": [{"type": "null"}, {"$ref": "#/components/schemas/Narrowed"}]}, "3.1.0"),
        ({"anyOf": [{"$ref": "#/components/schemas/Narrowed"}, {"type": "null"}]}, "3.1.0"),
        (
            {
                "anyOf": [
                    {"$ref": "#/components/schemas/Narrowed"},
                    {"type": "string", "nullable": True, "enum": [None]},
                ]
            },
            V30,
        ),
    ],
)
def test_a_nullable_wrap_is_compared_with_what_it_wraps(wrap: dict[str, Any], version: str) -> None:
    kwargs: dict[str, Any] = {"version": version, "Enum": ENUM, "Narrowed": NARROWED}
    found = changes({"$ref": "#/components/schemas/Enum"}, wrap, where="response", **kwargs)
    assert {(c.rule, c.classification.value) for c in found} == {("enum-value-removed", OB), ("nullable", BR)}
    removed = next(c for c in found if c.rule == "enum-value-removed")
    assert '"c"' in removed.message
    found = changes({"$ref": "#/components/schemas/Enum"}, wrap, where="request", **kwargs)
    assert {(c.rule, c.classification.value) for c in found} == {("enum-value-removed", BR), ("nullable", OB)}


@pytest.mark.parametrize(
    "wrap",
    [
        {"nullable": True, "allOf": [{"$ref": "#/components/schemas/Narrowed"}]},
        {"nullable": True, "oneOf": [{"$ref": "#/components/schemas/Narrowed"}]},
        {"nullable": True, "anyOf": [{"$ref": "#/components/schemas/Narrowed"}]},
    ],
)
def test_a_30_nullable_without_type_admits_no_null(wrap: dict[str, Any]) -> None:
    """OpenAPI 3.0.3: `nullable: true` adds null to the `type` of the same schema only; beside
    allOf/oneOf/anyOf and no `type` it changes nothing (OAS30Validator refuses null there too)."""
    kwargs: dict[str, Any] = {"version": V30, "Enum": ENUM, "Narrowed": NARROWED}
    assert verdicts({"$ref": "#/components/schemas/Enum"}, wrap, where="response", **kwargs) == {
        ("enum-value-removed", OB)
    }
    nullable_enum = {"type": "string", "nullable": True, "enum": ["a", "b", None]}
    request = verdicts(nullable_enum, wrap, **kwargs)
    assert request == {("nullable", BR)}, request
    assert verdicts({"$ref": "#/components/schemas/Narrowed"}, wrap, **kwargs) == set()


NULL = {"type": "null"}
ADMITS_NULL_CASES = [
    (V31, {"type": ["string", "null"]}),
    (V31, {"type": ["string", "null"], "allOf": [NAME]}),  # an allOf member refuses it
    (V31, {"type": ["string", "null"], "enum": ["a"]}),
    (V31, {"enum": ["a", None]}),
    (V31, {"minLength": 2}),  # no type: null is valid
    (V31, {"anyOf": [{"type": "string"}, {"type": "integer"}]}),
    (V31, {"oneOf": [NULL, {"anyOf": [{"type": "string"}, {"type": "integer"}]}]}),
    (V31, {"oneOf": [NULL, {"type": ["string", "null"]}, {"type": "integer"}]}),  # two match null
    (V31, {"anyOf": [NULL, {"type": ["string", "null"]}, {"type": "integer"}]}),
    (V31, {"oneOf": [NULL, {"type": ["string", "null"]}]}),  # a wrap whose branch admits null too
    (V31, {"type": "object", "oneOf": [NULL, {"type": "object"}]}),  # the type refuses null
    (V31, {"allOf": [{"anyOf": [NULL, NAME]}, {"type": ["string", "null"]}]}),
    (V31, {"allOf": [{"anyOf": [NULL, NAME]}, NAME]}),
    (V31, {"oneOf": [{"type": "string"}, {"enum": [None, 1]}, {"type": "integer"}]}),
    (V31, {"not": {}}),
    (V30, {"type": "string", "nullable": True}),
    (V30, {"type": "string", "nullable": True, "allOf": [NAME]}),
    (V30, {"nullable": True, "allOf": [NAME]}),
    (V30, {"nullable": True, "oneOf": [NAME]}),
    (V30, {"nullable": True, "anyOf": [NAME, {"type": "integer"}]}),
    (V30, {"nullable": True}),
    (V30, {"anyOf": [NAME, {"type": "string", "nullable": True, "enum": [None]}]}),
]


@pytest.mark.parametrize(("version", "schema"), ADMITS_NULL_CASES)
def test_admits_null_agrees_with_the_validators(version: str, schema: dict[str, Any]) -> None:
    """Null is valid iff the type and the enum allow it, every allOf member admits it, and some
    anyOf branch (exactly one oneOf branch) does; OAS30Validator/OAS31Validator are the oracle."""
    validator = OAS31Validator if version == V31 else OAS30Validator
    side = Side({"openapi": version, "components": {"schemas": {"S": schema}}})
    view = side.view(schema, "/components/schemas/S")
    assert admits_null(view) == validator(schema).is_valid(None)


def test_null_beside_a_union_in_a_response_is_breaking() -> None:
    old = {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    assert verdicts(old, {"oneOf": [NULL, old]}, where="response") == {("nullable", BR)}
    assert verdicts(old, {"oneOf": [NULL, old]}) == {("nullable", OB)}


# -- defaults


def test_a_default_changed_or_removed_is_breaking_in_requests_only() -> None:
    old, new = {"type": "integer", "default": 24}, {"type": "integer", "default": 50}
    assert both_ways(old, new) == ({("default-changed", BR)}, {("default-changed", CO)})
    assert both_ways(old, {"type": "integer"}) == ({("default-changed", BR)}, {("default-changed", CO)})
    assert both_ways({"type": "integer"}, old) == ({("default-changed", CO)}, {("default-changed", CO)})
    (change,) = changes(obj({"n": old}), obj({"n": new}))
    assert "a client that leaves `n` out now gets other behaviour" in change.reason


# -- a whole union added or removed


def test_a_whole_union_removed_loosens_and_added_tightens() -> None:
    base = obj({"kind": NAME, "content": NAME}, ("kind",))
    rule = {"anyOf": [{"required": ["content"]}, {"properties": {"kind": {"enum": ["stack"]}}}]}
    ruled = {**base, **rule}
    assert both_ways(ruled, base) == ({("union-changed", OB)}, {("union-changed", BR)})
    assert both_ways(base, ruled) == ({("union-changed", BR)}, {("union-changed", OB)})
    (change,) = changes(ruled, base)
    assert "`anyOf` removed" in change.message and "alternative" in change.message


def test_a_schema_moved_into_a_branch_of_a_new_union_only_loosens() -> None:
    kind_a = {"$ref": "#/components/schemas/A"}
    found = verdicts(kind_a, {"oneOf": [kind_a, KIND_C]}, A=KIND_A)
    assert {verdict for _, verdict in found} <= {OB, CO}, found
    assert ("union-changed", CO) in found
    found = verdicts({"oneOf": [kind_a, KIND_C]}, kind_a, A=KIND_A)  # KIND_C's values refused
    assert ("union-changed", CO) in found and ("type-changed", BR) in found


# -- discriminator mapping by identity


ANIMALS = {
    "oneOf": [{"$ref": "#/components/schemas/Cat"}, {"$ref": "#/components/schemas/Dog"}],
    "discriminator": {
        "propertyName": "kind",
        "mapping": {"cat": "#/components/schemas/Cat", "dog": "Dog"},
    },
}
CAT = obj({"kind": {"const": "cat"}, "indoor": {"type": "boolean"}}, ("kind",))
DOG = obj({"kind": {"const": "dog"}, "breed": NAME}, ("kind",))


def test_a_mapped_schema_changed_is_reported_where_it_is_not_as_a_discriminator_change() -> None:
    fed = {**CAT, "properties": {**CAT["properties"], "chip": NAME}}
    assert verdicts(ANIMALS, ANIMALS, Cat=CAT, Dog=DOG) == set()
    found = {
        rule
        for rule, _ in verdicts_between(ANIMALS, {"Cat": CAT, "Dog": DOG}, ANIMALS, {"Cat": fed, "Dog": DOG})
    }
    assert found == {"property-added"}


def test_a_mapped_component_renamed_with_its_content_is_no_change() -> None:
    renamed = {
        "oneOf": [{"$ref": "#/components/schemas/Feline"}, {"$ref": "#/components/schemas/Dog"}],
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "Feline", "dog": "Dog"}},
    }
    assert verdicts_between(ANIMALS, {"Cat": CAT, "Dog": DOG}, renamed, {"Feline": CAT, "Dog": DOG}) == set()
    elsewhere = {
        **ANIMALS,
        "discriminator": {"propertyName": "kind", "mapping": {"cat": "Dog", "dog": "Dog"}},
    }
    found = verdicts_between(ANIMALS, {"Cat": CAT, "Dog": DOG}, elsewhere, {"Cat": CAT, "Dog": DOG})
    assert ("discriminator-changed", BR) in found


def verdicts_between(
    old: Any, old_schemas: dict[str, Any], new: Any, new_schemas: dict[str, Any]
) -> set[tuple[str, str]]:
    found = diff(document(old, **old_schemas), document(new, **new_schemas))
    return {(c.rule, c.classification.value) for c in found}


def test_null_refused_through_an_allof_member_is_reported() -> None:
    """Null admitted by the type but refused once an allOf member is added (or admitted again once it
    is dropped): the nullable rule says so, though neither the marker nor the enum changed."""
    nullable = {"type": ["string", "null"]}
    member = {"type": ["string", "null"], "allOf": [{"type": "string"}]}
    assert verdicts(nullable, member) == {("nullable", BR)}
    assert verdicts(member, nullable, where="response") == {("nullable", BR)}
