"""`openapi.lint`: every rule on a small document, then the project's document and broken copies of it.

A check is only trusted when it both passes the clean document and fails a broken one at the right
place, so each test breaks one thing and asserts the rule AND the JSON pointer it reports.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from csapi.openapi import DOCUMENT_PATH
from csapi.openapi.lint import Problem, validate_document
from csapi.openapi.loader import load
from csapi.openapi.refs import pointer
from csapi.openapi.walk import HTTP_METHODS

Document = dict[str, Any]
Check = Callable[..., list[Problem]]

PING = "/paths/~1v1~1ping/get"
ITEM = "/paths/~1v1~1items~1{item_id}/get"
PING_JSON = ("paths", "/v1/ping", "get", "responses", "200", "content", "application/json")
ITEM_JSON = ("paths", "/v1/items/{item_id}", "get", "responses", "200", "content", "application/json")


@pytest.fixture
def check(write_document: Callable[..., Path], mini_inventory: list[dict[str, str]]) -> Check:
    """Write a document and lint it against the small document's inventory."""

    def run(document: Document | str, name: str = "openapi.yaml") -> list[Problem]:
        return validate_document(write_document(document, name), inventory=mini_inventory)

    return run


def found(problems: list[Problem]) -> set[tuple[str, str]]:
    return {(problem.pointer, problem.rule) for problem in problems}


def at(document: Document, *parts: str) -> Any:
    node: Any = document
    for part in parts:
        node = node[part]
    return node


# --------------------------------------------------------------------------------------------------
# The small document, rule by rule


def test_small_document_is_clean(check: Check, mini: Document) -> None:
    assert check(mini) == []


def test_json_document_is_read_too(check: Check, mini: Document) -> None:
    assert check(mini, "openapi.json") == []


def test_yaml_scalars_are_read_as_json_would_carry_them(check: Check, mini_yaml: str) -> None:
    """Unquoted `200:` keys and timestamps are still a status code and a date-time string."""
    text = mini_yaml.replace('"200":', "200:")
    assert "200:" in text and "created_at: 2026-11-21T12:00:00Z" in text
    assert check(text) == []


@pytest.mark.parametrize(
    "text",
    ["openapi: [3.0.3\n", "paths: {a: b\n", "\t- x: y\n", "", "- just\n- a list\n", "42\n"],
    ids=["unclosed-list", "unclosed-map", "tab", "empty", "list", "scalar"],
)
def test_unparsable_file_is_one_parse_problem(check: Check, text: str) -> None:
    problems = check(text)
    assert [(problem.pointer, problem.rule) for problem in problems] == [("", "parse")]


def test_missing_file_is_a_parse_problem(tmp_path: Path) -> None:
    problems = validate_document(tmp_path / "nope.yaml", inventory=[])
    assert found(problems) == {("", "parse")}
    assert "cannot read" in problems[0].message


def test_wrong_type_is_reported_by_openapi_spec_validator(check: Check, mini: Document) -> None:
    mini["components"]["schemas"]["Item"]["properties"]["id"]["type"] = "integr"
    problems = check(mini)
    spec = [problem for problem in problems if problem.rule == "openapi-spec"]
    assert [problem.pointer for problem in spec] == ["/components/schemas/Item/properties/id/type"]
    assert "integr" in spec[0].message


def test_openapi_3_1_is_rejected(check: Check, mini: Document) -> None:
    mini["openapi"] = "3.1.0"
    assert ("/openapi", "openapi-spec") in found(check(mini))


def test_missing_required_field_names_what_is_missing(check: Check, mini: Document) -> None:
    del at(mini, *ITEM_JSON[:-2])["description"]
    problems = [problem for problem in check(mini) if problem.rule == "openapi-spec"]
    assert [problem.pointer for problem in problems] == [f"{ITEM}/responses/200"]
    assert "'description' is a required property" in problems[0].message


def test_undeclared_path_parameter_is_placed_at_its_operation(check: Check, mini: Document) -> None:
    """openapi-spec-validator's semantic errors carry no location of their own; the linter adds it."""
    mini["paths"]["/v1/items/{id}"] = mini["paths"].pop("/v1/items/{item_id}")
    problems = [problem for problem in check(mini) if problem.rule == "openapi-spec"]
    assert {problem.pointer for problem in problems} == {"/paths/~1v1~1items~1{id}/get"}
    assert any("'id'" in problem.message for problem in problems)


def test_semantic_error_behind_a_ref_is_placed_at_the_referenced_schema(check: Check, mini: Document) -> None:
    mini["components"]["schemas"]["Tagged"] = {
        "allOf": [{"$ref": "#/components/schemas/Item"}],
        "required": ["not_a_property"],
    }
    at(mini, *ITEM_JSON)["schema"] = {"$ref": "#/components/schemas/Tagged"}
    problems = [problem for problem in check(mini) if problem.rule == "openapi-spec"]
    assert [problem.pointer for problem in problems] == ["/components/schemas/Tagged"]
    assert "not_a_property" in problems[0].message


def test_missing_operation_id(check: Check, mini: Document) -> None:
    del mini["paths"]["/v1/ping"]["get"]["operationId"]
    assert found(check(mini)) == {(PING, "operation-id")}


def test_operation_id_must_be_a_non_empty_string(check: Check, mini: Document) -> None:
    mini["paths"]["/v1/ping"]["get"]["operationId"] = " "
    assert found(check(mini)) == {(f"{PING}/operationId", "operation-id")}


def test_duplicate_operation_ids_are_reported_at_each_use(check: Check, mini: Document) -> None:
    mini["paths"]["/v1/ping"]["get"]["operationId"] = "items.get"
    problems = [problem for problem in check(mini) if problem.rule == "operation-id"]
    assert found(problems) == {
        (f"{PING}/operationId", "operation-id"),
        (f"{ITEM}/operationId", "operation-id"),
    }
    assert "GET /v1/items/{item_id}" in next(p.message for p in problems if p.pointer.startswith(PING))


def test_missing_summary(check: Check, mini: Document) -> None:
    mini["paths"]["/v1/ping"]["get"]["summary"] = ""
    assert found(check(mini)) == {(PING, "summary")}


@pytest.mark.parametrize("tags", [None, []])
def test_missing_tags(check: Check, mini: Document, tags: list[str] | None) -> None:
    operation = mini["paths"]["/v1/ping"]["get"]
    if tags is None:
        del operation["tags"]
    else:
        operation["tags"] = tags
    assert found(check(mini)) == {(PING, "tags")}


def test_operation_without_2xx_response(check: Check, mini: Document) -> None:
    del mini["paths"]["/v1/ping"]["get"]["responses"]["200"]
    assert found(check(mini)) == {(f"{PING}/responses", "success-response")}


def test_2xx_response_without_body_schema(check: Check, mini: Document) -> None:
    del at(mini, *PING_JSON)["schema"]
    assert found(check(mini)) == {(f"{PING}/responses/200", "success-response")}


def test_2xx_response_given_by_ref_counts(check: Check, mini: Document) -> None:
    mini["components"]["responses"]["Pong"] = mini["paths"]["/v1/ping"]["get"]["responses"]["200"]
    mini["paths"]["/v1/ping"]["get"]["responses"]["200"] = {"$ref": "#/components/responses/Pong"}
    assert check(mini) == []


def test_unresolvable_ref_is_reported_at_the_ref(check: Check, mini: Document) -> None:
    at(mini, *PING_JSON)["schema"] = {"$ref": "#/components/schemas/Nope"}
    problems = check(mini)
    assert (pointer((*PING_JSON, "schema", "$ref")), "ref") in found(problems)
    assert all(problem.rule != "ref" or problem.pointer.startswith(PING) for problem in problems)


def test_refs_to_files_beside_the_document_resolve(
    check: Check, mini: Document, write_document: Callable[..., Path]
) -> None:
    write_document({"Note": {"type": "string", "nullable": True}}, "shared.yaml")
    at(mini, "components", "schemas", "Item", "properties")["note"] = {"$ref": "shared.yaml#/Note"}
    assert check(mini) == []


def test_ref_to_a_missing_file_or_member(check: Check, mini: Document) -> None:
    properties = at(mini, "components", "schemas", "Item", "properties")
    properties["note"] = {"$ref": "missing.yaml#/Note"}
    properties["name"] = {"$ref": "#/components/schemas/Message/properties/nope"}
    problems = found(check(mini))
    assert ("/components/schemas/Item/properties/note/$ref", "ref") in problems
    assert ("/components/schemas/Item/properties/name/$ref", "ref") in problems


def test_ref_inside_an_example_is_data(check: Check, mini: Document) -> None:
    at(mini, "components", "examples", "Item", "value")["$ref"] = "#/nowhere"
    assert check(mini) == []


def test_unused_component(check: Check, mini: Document) -> None:
    mini["components"]["schemas"]["Orphan"] = {"type": "object"}
    mini["components"]["examples"]["Unused"] = {"value": {"id": 1, "name": "x"}}
    assert found(check(mini)) == {
        ("/components/schemas/Orphan", "unused-component"),
        ("/components/examples/Unused", "unused-component"),
    }


def test_component_used_only_by_an_unused_one_is_unused(check: Check, mini: Document) -> None:
    mini["components"]["schemas"]["Orphan"] = {"$ref": "#/components/schemas/Lonely"}
    mini["components"]["schemas"]["Lonely"] = {"type": "string"}
    assert found(check(mini)) == {
        ("/components/schemas/Orphan", "unused-component"),
        ("/components/schemas/Lonely", "unused-component"),
    }


def test_security_scheme_is_used_when_required(check: Check, mini: Document) -> None:
    mini["components"]["securitySchemes"]["basic"] = {"type": "http", "scheme": "basic"}
    assert found(check(mini)) == {("/components/securitySchemes/basic", "unused-component")}
    mini["paths"]["/v1/ping"]["get"]["security"] = [{"basic": [], "api_key": []}]
    assert check(mini) == []


def test_discriminator_mapping_uses_its_schemas(check: Check, mini: Document) -> None:
    item = mini["components"]["schemas"]["Item"]
    item["properties"]["kind"] = {"type": "string"}
    item["discriminator"] = {"propertyName": "kind", "mapping": {"note": "#/components/schemas/Note"}}
    mini["components"]["schemas"]["Note"] = {"type": "object"}
    assert check(mini) == []


def test_media_type_example_must_match(check: Check, mini: Document) -> None:
    at(mini, *PING_JSON)["example"] = {"code": 5, "message": "hello"}
    problems = check(mini)
    assert found(problems) == {(pointer((*PING_JSON, "example")), "example")}
    assert "at /code" in problems[0].message and "'string'" in problems[0].message


def test_referenced_example_is_reported_where_it_is_used(check: Check, mini: Document) -> None:
    at(mini, "components", "examples", "Item", "value")["id"] = "one"
    assert found(check(mini)) == {(pointer((*ITEM_JSON, "examples", "one")), "example")}


def test_inline_examples_entry_must_match(check: Check, mini: Document) -> None:
    del at(mini, *ITEM_JSON, "examples", "two", "value")["name"]
    problems = check(mini)
    assert found(problems) == {(pointer((*ITEM_JSON, "examples", "two", "value")), "example")}
    assert "'name' is a required property" in problems[0].message


def test_examples_follow_openapi_3_0_nullable_and_formats(check: Check, mini: Document) -> None:
    value = at(mini, *ITEM_JSON, "examples", "two", "value")
    value["note"] = None  # nullable: fine
    assert check(mini) == []
    value["name"] = None  # not nullable
    value["created_at"] = "yesterday"  # not a date-time
    problems = check(mini)
    assert found(problems) == {(pointer((*ITEM_JSON, "examples", "two", "value")), "example")}
    assert {problem.message.split(":")[0] for problem in problems} == {
        "example does not match its schema at /name",
        "example does not match its schema at /created_at",
    }


def test_parameter_example_must_match(check: Check, mini: Document) -> None:
    mini["components"]["parameters"]["ItemId"]["example"] = "abc"
    assert found(check(mini)) == {("/components/parameters/ItemId/example", "example")}


def test_schema_example_must_match(check: Check, mini: Document) -> None:
    mini["components"]["schemas"]["Item"]["properties"]["id"]["example"] = "one"
    assert found(check(mini)) == {("/components/schemas/Item/properties/id/example", "example")}


def test_example_whose_schema_is_a_broken_ref_is_left_to_the_ref_rule(check: Check, mini: Document) -> None:
    at(mini, *PING_JSON)["schema"] = {"$ref": "#/components/schemas/Nope"}
    assert not [problem for problem in check(mini) if problem.rule == "example"]


def test_example_with_a_broken_schema_is_reported_not_crashed(check: Check, mini: Document) -> None:
    at(mini, "components", "schemas", "Message", "properties")["code"] = {"$ref": "#/components/schemas/Nope"}
    problems = [problem for problem in check(mini) if problem.rule == "example"]
    assert found(problems) == {(pointer((*PING_JSON, "example")), "example")}
    assert problems[0].message == "cannot check the example: unresolvable $ref '#/components/schemas/Nope'"


def test_missing_operation_is_reported_with_its_spec_name(check: Check, mini: Document) -> None:
    del mini["paths"]["/v1/ping"]
    problems = check(mini)
    assert problems == [Problem("/paths", "inventory", "missing operation GET /v1/ping (Ping)")]


def test_extra_operation_is_reported_at_its_path(check: Check, mini: Document) -> None:
    mini["paths"]["/v1/extra"] = {"post": copy.deepcopy(mini["paths"]["/v1/ping"]["get"])}
    mini["paths"]["/v1/extra"]["post"]["operationId"] = "misc.extra"
    assert found(check(mini)) == {("/paths/~1v1~1extra/post", "inventory")}


def test_results_are_sorted_and_deterministic(check: Check, mini: Document) -> None:
    del mini["paths"]["/v1/ping"]["get"]["summary"]
    mini["components"]["schemas"]["Orphan"] = {"type": "object"}
    at(mini, *PING_JSON)["example"] = {"code": 5}
    first = check(mini)
    assert first == sorted(first) and len(first) >= 4
    assert check(mini) == first


BREAKAGES: dict[str, Callable[[Document], None]] = {
    "paths-list": lambda d: d.update(paths=[]),
    "components-string": lambda d: d.update(components="x"),
    "schemas-list": lambda d: d["components"].update(schemas=[1, 2]),
    "operation-string": lambda d: d["paths"]["/v1/ping"].update(get="nope"),
    "responses-null": lambda d: d["paths"]["/v1/ping"]["get"].update(responses=None),
    "response-list": lambda d: d["paths"]["/v1/ping"]["get"]["responses"].update({"200": []}),
    "content-string": lambda d: at(d, *PING_JSON[:-2]).update(content="json"),
    "parameters-map": lambda d: d["paths"]["/v1/items/{item_id}"].update(parameters={"a": 1}),
    "ref-number": lambda d: at(d, *PING_JSON).update(schema={"$ref": 5}),
    "ref-not-pointer": lambda d: at(d, *PING_JSON).update(schema={"$ref": "#Message"}),
    "ref-remote": lambda d: at(d, *PING_JSON).update(schema={"$ref": "https://example.com/s.json#/x"}),
    "ref-through-string": lambda d: at(d, *PING_JSON).update(schema={"$ref": "#/openapi/0"}),
    "ref-cycle": lambda d: d["components"]["schemas"].update(
        Message={"$ref": "#/components/schemas/Message"}
    ),
    "examples-list": lambda d: at(d, *ITEM_JSON).update(examples=[1]),
    "example-ref-nowhere": lambda d: at(d, *ITEM_JSON, "examples").update(one={"$ref": "#/x"}),
    "type-list": lambda d: d["components"]["schemas"]["Item"].update(type=["object"]),
    "bad-pattern": lambda d: d["components"]["schemas"]["Message"]["properties"]["code"].update(pattern="("),
    "tags-string": lambda d: d["paths"]["/v1/ping"]["get"].update(tags="misc"),
    "security-string": lambda d: d.update(security="api_key"),
    "no-openapi": lambda d: d.pop("openapi"),
    "inventory-less": lambda d: d.clear(),
}


@pytest.mark.parametrize("breakage", BREAKAGES.values(), ids=BREAKAGES.keys())
def test_broken_documents_give_problems_not_tracebacks(
    check: Check, mini: Document, breakage: Callable[[Document], None]
) -> None:
    breakage(mini)
    problems = check(mini)
    assert problems, "a broken document must not pass"
    assert not [problem for problem in problems if problem.message.startswith("internal error")]


def test_recursive_yaml_alias_is_a_parse_problem(check: Check, mini_yaml: str) -> None:
    assert found(check(mini_yaml + "x-loop: &loop [*loop]\n")) == {("", "parse")}


# --------------------------------------------------------------------------------------------------
# The project's document (these fail while openapi/openapi.yaml is unfinished)


@functools.cache
def _project_document() -> Document:
    if not DOCUMENT_PATH.exists():
        pytest.fail(f"{DOCUMENT_PATH} does not exist yet", pytrace=False)
    return load(DOCUMENT_PATH)


@pytest.fixture
def real() -> Document:
    """A private copy of the project's document, parsed the way the linter reads it."""
    return copy.deepcopy(_project_document())


@pytest.fixture
def check_real(write_document: Callable[..., Path]) -> Check:
    """Write a (broken) copy of the project's document and lint it against the spec's inventory."""

    def run(document: Document | str, name: str = "openapi.yaml") -> list[Problem]:
        return validate_document(write_document(document, name))

    return run


def test_project_document_is_valid() -> None:
    problems = validate_document(DOCUMENT_PATH)
    assert not problems, "\n".join(map(str, problems))


def success_media_type(document: Document, path: str, method: str) -> tuple[str | int, ...]:
    """Parts of the first inline 2xx JSON media type of an operation."""
    for code, response in document["paths"][path][method]["responses"].items():
        if code.startswith("2") and "$ref" not in response:
            for name, media in response.get("content", {}).items():
                if "json" in name and "schema" in media:
                    return ("paths", path, method, "responses", code, "content", name)
    raise AssertionError(f"{method.upper()} {path} has no inline 2xx JSON response")


def resolved(document: Document, node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        node = at(document, *(part.replace("~1", "/") for part in node["$ref"][2:].split("/")))
    return node


def integer_property(document: Document, schema: Any) -> str | None:
    """An integer-typed property of an object schema (looking into `allOf`), if any."""
    schema = resolved(document, schema)
    for name, subschema in sorted(schema.get("properties", {}).items()):
        if resolved(document, subschema).get("type") == "integer":
            return name
    for part in schema.get("allOf", []):
        if name := integer_property(document, part):
            return name
    return None


def media_type_with_integer_field(document: Document) -> tuple[tuple[str | int, ...], Any]:
    """A 2xx JSON media type whose body (or each array entry) has an integer field, and a bad example."""
    for path, item in sorted(document["paths"].items()):
        for method in sorted(item):
            if method not in HTTP_METHODS:
                continue
            try:
                parts = success_media_type(document, path, method)
            except AssertionError:
                continue
            schema = resolved(document, at(document, *parts)["schema"])
            is_array = schema.get("type") == "array"
            name = integer_property(document, schema["items"] if is_array else schema)
            if name:
                example = {name: "not a number"}
                return parts, [example] if is_array else example
    raise AssertionError("no 2xx JSON response with an integer field")


def test_copy_without_an_operation(check_real: Check, real: Document) -> None:
    del real["paths"]["/v1/ping"]["get"]
    problems = check_real(real)
    assert Problem("/paths", "inventory", "missing operation GET /v1/ping (Ping)") in problems


def test_copy_with_a_bad_ref(check_real: Check, real: Document) -> None:
    parts = success_media_type(real, "/v1/ping", "get")
    at(real, *parts)["schema"] = {"$ref": "#/components/schemas/Nope"}
    assert (pointer((*parts, "schema", "$ref")), "ref") in found(check_real(real))


def test_copy_with_an_example_violating_its_schema(check_real: Check, real: Document) -> None:
    parts, example = media_type_with_integer_field(real)
    media = at(real, *parts)
    media.pop("examples", None)
    media["example"] = example
    problems = [problem for problem in check_real(real) if problem.rule == "example"]
    assert pointer((*parts, "example")) in {problem.pointer for problem in problems}
    assert any("is not of type 'integer'" in problem.message for problem in problems)


def test_copy_without_an_operation_id(check_real: Check, real: Document) -> None:
    del real["paths"]["/v1/ping"]["get"]["operationId"]
    assert (PING, "operation-id") in found(check_real(real))


def test_copy_with_a_misspelt_type(check_real: Check, real: Document) -> None:
    name = next(name for name, schema in sorted(real["components"]["schemas"].items()) if "type" in schema)
    real["components"]["schemas"][name]["type"] = "integr"
    problems = found(check_real(real))
    assert (pointer(("components", "schemas", name, "type")), "openapi-spec") in problems


def test_copy_with_an_unused_component(check_real: Check, real: Document) -> None:
    real["components"]["schemas"]["Orphan"] = {"type": "object"}
    assert ("/components/schemas/Orphan", "unused-component") in found(check_real(real))


def test_copy_without_a_summary(check_real: Check, real: Document) -> None:
    del real["paths"]["/v1/ping"]["get"]["summary"]
    assert (PING, "summary") in found(check_real(real))


def test_copy_with_a_duplicate_operation_id(check_real: Check, real: Document) -> None:
    real["paths"]["/v1/auth"]["post"]["operationId"] = real["paths"]["/v1/ping"]["get"]["operationId"]
    problems = found(check_real(real))
    assert {
        (f"{PING}/operationId", "operation-id"),
        ("/paths/~1v1~1auth/post/operationId", "operation-id"),
    } <= problems


def test_copy_that_does_not_parse(check_real: Check) -> None:
    text = DOCUMENT_PATH.read_text(encoding="utf-8") + "\npaths: [unclosed\n"
    assert found(check_real(text)) == {("", "parse")}


def test_copy_as_json_is_judged_like_the_yaml(check_real: Check, real: Document) -> None:
    as_yaml = check_real(real)
    as_json = check_real(json.loads(json.dumps(real)), "openapi.json")
    assert [(p.pointer, p.rule) for p in as_json] == [(p.pointer, p.rule) for p in as_yaml]


def test_copy_round_trips_through_yaml_unchanged(real: Document) -> None:
    """The broken copies are dumped with PyYAML: make sure that alone changes nothing."""
    assert yaml.safe_load(yaml.safe_dump(real)) == real
