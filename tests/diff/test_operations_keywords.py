"""Never silent outside schemas: every field of the objects around schemas (parameter, header, request
body, media type, encoding, response, link, operation, path item, security scheme, OAuth flow, the
document, components) is in op_keys' tables, and a difference in any of them is reported with its
class: a rule's, `documentation-changed`, `extension-changed`, or `not-compared` (breaking).

The documents are small ones written here; each edit changes one key.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from csapi.cli import main
from csapi.openapi.diff import Change, Classification, diff
from csapi.openapi.diff.op_keys import DOC, TABLES

BREAKING, OBLIGATION, COMPATIBLE = (
    Classification.BREAKING,
    Classification.OBLIGATION,
    Classification.COMPATIBLE,
)

# The fields of each object as OpenAPI 3.0.3 and 3.1.0 define them (3.1's additions marked)
FIELDS: dict[str, set[str]] = {
    "parameter": {
        "name", "in", "description", "required", "deprecated", "allowEmptyValue", "style", "explode",
        "allowReserved", "schema", "example", "examples", "content",
    },
    "header": {
        "description", "required", "deprecated", "allowEmptyValue", "style", "explode", "allowReserved",
        "schema", "example", "examples", "content",
    },
    "request-body": {"description", "content", "required"},
    "media-type": {"schema", "example", "examples", "encoding"},
    "encoding": {"contentType", "headers", "style", "explode", "allowReserved"},
    "response": {"description", "headers", "content", "links"},
    "link": {"operationRef", "operationId", "parameters", "requestBody", "description", "server"},
    "operation": {
        "tags", "summary", "description", "externalDocs", "operationId", "parameters", "requestBody",
        "responses", "callbacks", "deprecated", "security", "servers",
    },
    "path-item": {
        "$ref", "summary", "description", "get", "put", "post", "delete", "options", "head", "patch",
        "trace", "servers", "parameters",
    },
    "security-scheme": {
        "type", "description", "name", "in", "scheme", "bearerFormat", "flows", "openIdConnectUrl",
    },
    "oauth-flow": {"authorizationUrl", "tokenUrl", "refreshUrl", "scopes"},
    "document": {
        "openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security",
        "tags", "externalDocs",
    },
    "components": {
        "schemas", "responses", "parameters", "examples", "requestBodies", "headers", "securitySchemes",
        "links", "callbacks", "pathItems",
    },
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(FIELDS))
def test_every_field_of_openapi_3_0_and_3_1_is_in_a_table(kind: str) -> None:
    assert FIELDS[kind] <= set(TABLES[kind]), FIELDS[kind] - set(TABLES[kind])


def test_the_oauth_flows_are_the_four_of_the_specification() -> None:
    from csapi.openapi.diff.op_keys import FLOW_KINDS

    assert set(FLOW_KINDS) == {"implicit", "password", "clientCredentials", "authorizationCode"}


# --------------------------------------------------------------------------------------------------
# A small document and one edit at a time

OP = "/paths/~1pets~1{id}/post"


def document() -> dict[str, Any]:
    return {
        "openapi": "3.1.0",
        "info": {"title": "pets", "version": "1"},
        "paths": {
            "/pets/{id}": {
                "summary": "one pet",
                "post": {
                    "summary": "update a pet",
                    "security": [{"oauth": ["read"]}],
                    "parameters": [
                        {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
                        {"name": "q", "in": "query", "allowEmptyValue": True, "schema": {"type": "string"}},
                        {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
                    ],
                    "requestBody": {
                        "content": {
                            "multipart/form-data": {
                                "schema": {"type": "object", "properties": {"photo": {"type": "string"}}},
                                "encoding": {"photo": {"contentType": "image/png"}},
                            }
                        }
                    },
                    "responses": {
                        "200": {
                            "description": "the pet",
                            "headers": {"X-Rate": {"schema": {"type": "integer"}}},
                            "content": {"application/json": {"schema": {"type": "object"}}},
                            "links": {
                                "self": {"operationId": "getPet", "parameters": {"id": "$request.path.id"}}
                            },
                        },
                        "400": {"description": "bad"},
                    },
                },
                "get": {"operationId": "getPet", "responses": {"2XX": {"description": "the pet"}}},
            }
        },
        "components": {
            "securitySchemes": {
                "oauth": {
                    "type": "oauth2",
                    "flows": {
                        "clientCredentials": {
                            "tokenUrl": "https://auth.example.com/token",
                            "scopes": {"read": "read pets", "write": "write pets"},
                        }
                    },
                }
            }
        },
    }


def changes(edit: Callable[[dict[str, Any]], Any]) -> list[Change]:
    new = document()
    edit(new)
    return diff(document(), new)


def op(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["paths"]["/pets/{id}"]["post"]


def only(found: list[Change]) -> tuple[Classification, str]:
    assert len(found) == 1, [str(c) for c in found]
    return found[0].classification, found[0].rule


# Where each kind of object is in document(), to edit one of its keys
WHERE: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "parameter": lambda d: op(d)["parameters"][1],
    "header": lambda d: op(d)["responses"]["200"]["headers"]["X-Rate"],
    "request-body": lambda d: op(d)["requestBody"],
    "media-type": lambda d: op(d)["requestBody"]["content"]["multipart/form-data"],
    "response": lambda d: op(d)["responses"]["200"],
    "link": lambda d: op(d)["responses"]["200"]["links"]["self"],
    "operation": op,
    "path-item": lambda d: d["paths"]["/pets/{id}"],
    "security-scheme": lambda d: d["components"]["securitySchemes"]["oauth"],
    "document": lambda d: d,
}

DOCS = sorted((kind, key) for kind in WHERE for key, handler in TABLES[kind].items() if handler == DOC)


@pytest.mark.parametrize(("kind", "key"), DOCS, ids=lambda value: str(value))
def test_an_annotation_changed_is_a_compatible_documentation_change(kind: str, key: str) -> None:
    found = changes(lambda d: WHERE[kind](d).__setitem__(key, {"text": "new words"}))
    assert found and {(c.classification, c.rule) for c in found} == {(COMPATIBLE, "documentation-changed")}
    assert all("/" + key.replace("/", "~1") in c.pointer for c in found), [c.pointer for c in found]


def test_a_documentation_change_is_reported_where_it_is() -> None:
    found = changes(lambda d: d["info"].__setitem__("version", "2"))
    assert [(c.pointer, c.message) for c in found] == [("/info/version", "`version` changed")]


@pytest.mark.parametrize("kind", sorted(WHERE))
def test_an_extension_changed_is_compatible_and_an_unknown_key_is_not_compared(kind: str) -> None:
    assert only(changes(lambda d: WHERE[kind](d).__setitem__("x-owner", "team a"))) == (
        COMPATIBLE,
        "extension-changed",
    )
    found = changes(lambda d: WHERE[kind](d).__setitem__("madeUp", True))
    assert only(found) == (BREAKING, "not-compared")
    assert "`madeUp`" in found[0].reason and "judge this change by hand" in found[0].reason


def test_extensions_of_paths_and_responses_maps_are_reported() -> None:
    assert only(changes(lambda d: d["paths"].__setitem__("x-group", 1))) == (COMPATIBLE, "extension-changed")
    found = changes(lambda d: op(d)["responses"].__setitem__("x-note", 1))
    assert only(found) == (COMPATIBLE, "extension-changed")


# --------------------------------------------------------------------------------------------------
# The keys' own rules


def test_allow_empty_value_removed_is_breaking_added_an_obligation() -> None:
    assert only(changes(lambda d: op(d)["parameters"][1].pop("allowEmptyValue"))) == (
        BREAKING,
        "allow-empty-value",
    )
    assert only(changes(lambda d: op(d)["parameters"][2].__setitem__("allowEmptyValue", True))) == (
        COMPATIBLE,
        "no-effect",
    )


def test_allow_reserved_turned_off_is_breaking_on_an_obligation() -> None:
    assert only(changes(lambda d: op(d)["parameters"][1].__setitem__("allowReserved", True))) == (
        OBLIGATION,
        "allow-reserved",
    )

    def off(d: dict[str, Any]) -> None:
        op(d)["parameters"][1]["allowReserved"] = False

    old = document()
    op(old)["parameters"][1]["allowReserved"] = True
    new = document()
    off(new)
    assert only(diff(old, new)) == (BREAKING, "allow-reserved")


def test_style_is_compared_by_its_effective_value() -> None:
    restated = changes(lambda d: op(d)["parameters"][1].update(style="form", explode=True))
    assert {(c.classification, c.rule) for c in restated} == {(COMPATIBLE, "parameter-style-default")}
    assert only(changes(lambda d: op(d)["parameters"][1].update(style="spaceDelimited"))) == (
        BREAKING,
        "parameter-style",
    )


def test_a_header_name_written_in_another_case_is_compatible() -> None:
    assert only(changes(lambda d: op(d)["parameters"][2].__setitem__("name", "x-trace"))) == (
        COMPATIBLE,
        "header-name-case",
    )


def test_an_encoding_changed_is_breaking() -> None:
    def jpeg(d: dict[str, Any]) -> None:
        op(d)["requestBody"]["content"]["multipart/form-data"]["encoding"]["photo"]["contentType"] = (
            "image/jpeg"
        )

    found = changes(jpeg)
    assert only(found) == (BREAKING, "encoding-changed")
    assert "photo" in found[0].message


def test_servers_changed_are_compatible() -> None:
    servers = [{"url": "https://api.example.com"}]
    for where in (lambda d: d, op, WHERE["path-item"]):
        found = changes(lambda d, where=where: where(d).__setitem__("servers", servers))  # type: ignore[misc]
        assert only(found) == (COMPATIBLE, "servers-changed")
        assert "base URL" in found[0].reason


def test_success_status_removed_is_breaking_error_status_removed_an_obligation() -> None:
    found = changes(lambda d: op(d)["responses"].pop("200"))
    assert (BREAKING, "response-removed") in {(c.classification, c.rule) for c in found}
    assert "no server sends" in next(c.reason for c in found if c.rule == "response-removed")
    assert only(changes(lambda d: op(d)["responses"].pop("400"))) == (OBLIGATION, "response-removed")
    ranged = changes(
        lambda d: d["paths"]["/pets/{id}"]["get"]["responses"].__setitem__("404", {"description": "x"})
    )
    assert only(ranged) == (COMPATIBLE, "response-added")


def test_a_status_range_removed_is_a_success_status_removed() -> None:
    def swap(d: dict[str, Any]) -> None:
        d["paths"]["/pets/{id}"]["get"]["responses"] = {"default": {"description": "anything"}}

    rules = {(c.classification, c.rule) for c in changes(swap)}
    assert (BREAKING, "response-removed") in rules


# -- security


def test_scopes_added_to_a_requirement_are_breaking_removed_an_obligation() -> None:
    found = changes(lambda d: op(d)["security"][0]["oauth"].append("write"))
    assert only(found) == (BREAKING, "security-scopes-added")
    assert "write" in found[0].message
    old = document()
    op(old)["security"][0]["oauth"].append("write")
    assert only(diff(old, document())) == (OBLIGATION, "security-scopes-removed")


def flow(d: dict[str, Any]) -> dict[str, Any]:
    return d["components"]["securitySchemes"]["oauth"]["flows"]["clientCredentials"]


def test_an_oauth_flow_url_changed_is_breaking() -> None:
    assert only(changes(lambda d: flow(d).__setitem__("tokenUrl", "https://other.example.com/t"))) == (
        BREAKING,
        "oauth-flow-url-changed",
    )
    assert only(changes(lambda d: flow(d).__setitem__("refreshUrl", "https://other.example.com/r"))) == (
        BREAKING,
        "oauth-flow-url-changed",
    )


def test_an_oauth_flow_added_is_an_obligation_removed_breaking_and_a_scope_described_compatible() -> None:
    def implicit(d: dict[str, Any]) -> None:
        flows = d["components"]["securitySchemes"]["oauth"]["flows"]
        flows["implicit"] = {"authorizationUrl": "https://auth.example.com/a", "scopes": {}}

    assert only(changes(implicit)) == (OBLIGATION, "oauth-flow-added")
    old = document()
    implicit(old)
    assert only(diff(old, document())) == (BREAKING, "oauth-flow-removed")
    assert only(changes(lambda d: flow(d)["scopes"].__setitem__("read", "see pets"))) == (
        COMPATIBLE,
        "documentation-changed",
    )
    assert only(changes(lambda d: flow(d)["scopes"].pop("read"))) == (BREAKING, "oauth-scope-removed")


def test_a_scheme_type_or_header_changed_is_breaking_its_bearer_format_compatible() -> None:
    def api_key(d: dict[str, Any]) -> None:
        d["components"]["securitySchemes"]["oauth"] = {"type": "apiKey", "in": "header", "name": "X-Key"}

    assert BREAKING in {c.classification for c in changes(api_key)}
    old, new = document(), document()
    api_key(old)
    api_key(new)
    new["components"]["securitySchemes"]["oauth"]["name"] = "X-Token"
    assert only(diff(old, new)) == (BREAKING, "security-scheme-changed")
    new = copy.deepcopy(old)
    new["components"]["securitySchemes"]["oauth"]["bearerFormat"] = "JWT"
    assert only(diff(old, new)) == (COMPATIBLE, "documentation-changed")


# -- the document


def test_json_schema_dialect_changed_is_not_compared() -> None:
    found = changes(lambda d: d.__setitem__("jsonSchemaDialect", "https://example.com/dialect"))
    assert only(found) == (BREAKING, "not-compared")


def test_a_component_nobody_reaches_is_a_compatible_change_at_its_pointer() -> None:
    found = changes(lambda d: d["components"].__setitem__("schemas", {"Spare": {"type": "string"}}))
    assert only(found) == (COMPATIBLE, "unused-component-changed")
    assert found[0].pointer == "/components/schemas/Spare"
    unused = changes(
        lambda d: d["components"].__setitem__(
            "securitySchemes",
            {**d["components"]["securitySchemes"], "k": {"type": "http", "scheme": "basic"}},
        )
    )
    assert only(unused) == (COMPATIBLE, "unused-component-changed")


def test_the_openapi_version_alone_reports_nothing() -> None:
    assert changes(lambda d: d.__setitem__("openapi", "3.1.1")) == []


# -- keys beside a `$ref` (3.1 lets `summary` and `description` override the target's)


def with_refs() -> dict[str, Any]:
    doc = document()
    doc["components"]["parameters"] = {"Q": op(doc)["parameters"][1]}
    doc["components"]["responses"] = {"Bad": op(doc)["responses"]["400"]}
    doc["components"]["pathItems"] = {"Pet": doc["paths"]["/pets/{id}"]}
    op(doc)["parameters"][1] = {"$ref": "#/components/parameters/Q", "description": "the query"}
    op(doc)["responses"]["400"] = {"$ref": "#/components/responses/Bad", "description": "refused"}
    doc["paths"]["/pets/{id}"] = {"$ref": "#/components/pathItems/Pet", "summary": "a pet"}
    return doc


def test_a_description_beside_a_ref_changed_is_documentation() -> None:
    def pets(d: dict[str, Any]) -> dict[str, Any]:
        return d["components"]["pathItems"]["Pet"]["post"]

    for edit in (
        lambda d: pets(d)["parameters"][1].__setitem__("description", "another query"),
        lambda d: pets(d)["responses"]["400"].__setitem__("description", "no"),
        lambda d: d["paths"]["/pets/{id}"].__setitem__("summary", "one pet, again"),
    ):
        new = with_refs()
        edit(new)
        found = diff(with_refs(), new)
        assert only(found) == (COMPATIBLE, "documentation-changed"), [str(c) for c in found]


def test_an_unknown_key_beside_a_ref_is_not_compared() -> None:
    new = with_refs()
    new["components"]["pathItems"]["Pet"]["post"]["responses"]["400"]["weight"] = 3
    assert only(diff(with_refs(), new)) == (BREAKING, "not-compared")


def test_a_part_of_a_referenced_file_nobody_reaches_is_a_compatible_change(tmp_path: Path) -> None:
    api = {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/pets": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": "./schemas.json#/Pet"}}},
                        }
                    }
                }
            }
        },
    }
    for side, owner in (("old", {"type": "object"}), ("new", {"type": "object", "required": ["id"]})):
        (tmp_path / side).mkdir()
        (tmp_path / side / "api.json").write_text(json.dumps(api), encoding="utf-8")
        schemas = {"Pet": {"type": "object"}, "Owner": owner}
        (tmp_path / side / "schemas.json").write_text(json.dumps(schemas), encoding="utf-8")
    args = [
        "diff",
        str(tmp_path / "old" / "api.json"),
        str(tmp_path / "new" / "api.json"),
        "--format",
        "json",
    ]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    changes = json.loads(result.output)["changes"]
    assert [(c["classification"], c["rule"]) for c in changes] == [("compatible", "unused-component-changed")]
    assert "Owner" in changes[0]["pointer"]


def test_a_parameter_moved_from_schema_to_content_is_breaking_and_its_schema_still_compared() -> None:
    def json_query(d: dict[str, Any]) -> None:
        op(d)["parameters"][1] = {
            "name": "q",
            "in": "query",
            "allowEmptyValue": True,
            "content": {"application/json": {"schema": {"type": "integer"}}},
        }

    rules = {(c.classification, c.rule) for c in changes(json_query)}
    assert (BREAKING, "parameter-serialization") in rules and (BREAKING, "type-changed") in rules


def test_the_document_security_no_operation_inherits_is_a_compatible_change() -> None:
    old = document()
    old["paths"]["/pets/{id}"]["get"]["security"] = []  # every operation states its own
    new = copy.deepcopy(old)
    new["security"] = [{"oauth": []}]
    assert only(diff(old, new)) == (COMPATIBLE, "unused-component-changed")
    old = document()
    del op(old)["security"]
    new = copy.deepcopy(old)
    new["security"] = [{"oauth": ["read"]}]
    assert BREAKING in {c.classification for c in diff(old, new)}  # inherited: the operation's rules


def test_a_media_type_or_header_name_in_another_case_is_compatible() -> None:
    def upper(d: dict[str, Any]) -> None:
        response = op(d)["responses"]["200"]
        response["content"] = {"Application/JSON": response["content"]["application/json"]}
        response["headers"] = {"x-rate": response["headers"]["X-Rate"]}

    assert {(c.classification, c.rule) for c in changes(upper)} == {(COMPATIBLE, "name-case")}
