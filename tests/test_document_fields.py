"""Every response field of spec section 2 is in the OpenAPI document with the spec's type and nullability.

The expected fields are parsed from spec/api-spec.md (see tests/spec_md.py); only the mapping from the
spec's resource names to the document's schema names is written here.
"""

from __future__ import annotations

import re

import pytest

from tests import oas, spec_md
from tests.spec_md import Field, Resource

OA_TYPES = {
    "Integer": "integer",
    "String": "string",
    "Timestamp": "string",
    "URL": "string",
    "Boolean": "boolean",
    "Number": "number",
    "Object": "object",
    "Array": "array",
}
FORMATS = {"Timestamp": "date-time", "URL": "uri"}

# Spec resource (as section 2 names it) -> the document's schemas that must carry its fields.
SCHEMAS = {
    "Collection": ["Collection"],
    "Item": ["Item"],
    "Comment": ["Comment"],
    "Reaction": ["Reaction"],
    "List of all tags; list of a collection's tags": ["TagCount"],
    "List of an item's tags; created tag": ["ItemTag"],
    "Team list entry": ["TeamListEntry"],
    "Team detail": ["TeamDetail"],
    "update-a-team response": ["Team"],
    "Team member": ["TeamMember"],
    "Collaborator": ["Collaborator"],
    "Current user and contact": ["User", "CurrentUser"],
    "Email address": ["EmailAddress"],
    "Search result": ["SearchResult"],
    "Activity entry": ["ActivityEntry"],
    "Message object": ["Message"],
}
# Where the fields returned only with `include` (section 2.9) live; they are not `required`.
EXTRAS_SCHEMAS = {"Current user and contact": "CurrentUser"}
# A net under the parser: if the spec's Markdown shape changes, fields silently dropped show up here.
FIELD_COUNTS = {
    "Collection": 29, "Item": 32, "Comment": 10, "Reaction": 9,
    "List of all tags; list of a collection's tags": 2, "List of an item's tags; created tag": 2,
    "Team list entry": 10, "Team detail": 20, "update-a-team response": 17, "Team member": 9,
    "Collaborator": 9, "Current user and contact": 7, "Email address": 2, "Search result": 27,
    "Activity entry": 17, "Message object": 2,
}  # fmt: skip


@pytest.fixture(scope="module")
def doc() -> oas.Node:
    return oas.project_document()


def schema_of(doc: oas.Node, name: str) -> oas.Node:
    schemas = doc.get("components", {}).get("schemas", {})
    assert name in schemas, f"the document has no components/schemas/{name}"
    return schemas[name]


def describe(res: Resource, f: Field) -> str:
    kind = (f.type or "type not shown") + (" or null" if f.nullable else "")
    return f"spec {res.section} {res.name}: {f.name} is {kind}" + (" (type inferred)" if f.inferred else "")


def check_value(prop: oas.Node, f: Field, where: str) -> None:
    """Type and format from the spec type; `nullable: true` exactly when the spec says "or null"."""
    if f.type is not None:
        assert prop.get("type") == OA_TYPES[f.type], f"{where}: type is {prop.get('type')!r}"
        if f.type in FORMATS:
            assert prop.get("format") == FORMATS[f.type], f"{where}: format is {prop.get('format')!r}"
    if not f.inferred:  # an untyped spec field says nothing about null
        assert bool(prop.get("nullable")) == f.nullable, f"{where}: nullable is {prop.get('nullable')!r}"


def field_cases() -> list:
    cases = []
    for res in spec_md.resources():
        for schema in SCHEMAS.get(res.name, []):
            cases += [pytest.param(res, schema, f, True, id=f"{schema}.{f.name}") for f in res.fields]
        extras = EXTRAS_SCHEMAS.get(res.name, "")
        cases += [pytest.param(res, extras, f, False, id=f"{extras}.{f.name}") for f in res.extras]
    return cases


def nested_cases() -> list:
    return [
        pytest.param(res, schema, f, Field(key, kind), id=f"{schema}.{f.name}.{key}")
        for res in spec_md.resources()
        for schema in SCHEMAS.get(res.name, [])
        for f in res.fields
        for key, kind in f.nested.items()
    ]


def response_cases(pattern: str) -> list:
    """(METHOD, path, match) for every operation whose spec response text matches `pattern`."""
    found = [(op, re.search(pattern, text)) for op, text in spec_md.responses().items()]
    return [pytest.param(*op, match, id=" ".join(op)) for op, match in found if match]


def success_response(doc: oas.Node, method: str, path: str) -> oas.Node:
    responses = oas.operation(doc, method, path).get("responses", {})
    response = responses.get("200", responses.get(200))
    assert response is not None, f"{method} {path} declares no 200 response"
    return oas.resolve(doc, response)


ARRAY_OF_ONE = response_cases(r"array of one (\w+)")
COUNTED_LISTS = response_cases(r"X-Total-Count")


def test_section_2_parses_into_the_known_resources() -> None:
    counts = {res.name: len(res.fields) for res in spec_md.resources()}
    assert counts == FIELD_COUNTS, "spec section 2 parsed into other resources or field counts than expected"
    extras = {res.name: [f.name for f in res.extras] for res in spec_md.resources() if res.extras}
    assert list(extras) == list(EXTRAS_SCHEMAS) and len(extras["Current user and contact"]) == 3, extras
    assert len(ARRAY_OF_ONE) == 2, "spec section 4: get a collection and get an item answer arrays of one"
    assert len(COUNTED_LISTS) == 4, "spec section 4: four lists carry X-Total-Count"


@pytest.mark.parametrize("schema", sorted({s for names in SCHEMAS.values() for s in names}))
def test_resource_has_a_schema(doc: oas.Node, schema: str) -> None:
    assert oas.flatten(doc, schema_of(doc, schema)).get("type") == "object", f"{schema} is not an object"


@pytest.mark.parametrize(("res", "schema", "f", "required"), field_cases())
def test_field(doc: oas.Node, res: Resource, schema: str, f: Field, required: bool) -> None:
    where = f"{schema}.{f.name} ({describe(res, f)})"
    node = schema_of(doc, schema)
    props = oas.properties(doc, node)
    assert f.name in props, f"{where}: not a property of {schema}"
    check_value(props[f.name], f, where)
    listed = f.name in oas.flatten(doc, node).get("required", [])
    if required:
        assert listed, f"{where}: missing from {schema}.required (every spec field is in every response)"
    else:
        assert not listed, f"{where}: returned only with `include`, so it must not be required"


@pytest.mark.parametrize(("res", "schema", "f", "key"), nested_cases())
def test_object_key(doc: oas.Node, res: Resource, schema: str, f: Field, key: Field) -> None:
    where = f"{schema}.{f.name}.{key.name} (spec {res.section} {res.name}: {f.name} has {key.type} keys)"
    parent = oas.properties(doc, schema_of(doc, schema)).get(f.name)
    assert parent is not None, f"{where}: {schema} has no property {f.name}"
    keys = oas.properties(doc, parent)
    assert key.name in keys, f"{where}: not a property of {schema}.{f.name}"
    check_value(keys[key.name], key, where)


@pytest.mark.parametrize(("method", "path", "match"), ARRAY_OF_ONE)
def test_get_one_answers_an_array_of_one(doc: oas.Node, method: str, path: str, match: re.Match) -> None:
    schema = SCHEMAS[match[1]][0]
    body = success_response(doc, method, path).get("content", {}).get("application/json", {}).get("schema")
    assert body is not None, f"{method} {path}: 200 has no application/json schema"
    body = oas.flatten(doc, body)
    where = f"{method} {path} (spec section 4: {match[0]})"
    assert body.get("type") == "array", f"{where}: 200 body is {body.get('type')!r}, not an array"
    assert body.get("maxItems", 1) == 1, f"{where}: maxItems is {body.get('maxItems')!r}"
    items = body.get("items", {})
    assert oas.extends(doc, items, f"#/components/schemas/{schema}"), f"{where}: items do not extend {schema}"


@pytest.mark.parametrize(("method", "path", "match"), COUNTED_LISTS)
def test_list_declares_x_total_count(doc: oas.Node, method: str, path: str, match: re.Match) -> None:
    headers = {k.lower(): v for k, v in success_response(doc, method, path).get("headers", {}).items()}
    header = headers.get("x-total-count")
    assert header is not None, f"{method} {path}: 200 lacks the X-Total-Count header (spec section 4)"
    kind = oas.flatten(doc, oas.resolve(doc, header).get("schema", {})).get("type")
    assert kind == "integer", f"{method} {path}: X-Total-Count schema type is {kind!r}, not integer"
