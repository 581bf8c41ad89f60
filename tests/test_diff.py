"""`openapi.diff` and `csapi diff`: a corpus of edits of the real document, each with whom it breaks.

Every edit is a small function over a fresh copy of `openapi/openapi.yaml` (remove a field, add a
required body field, narrow an enum, ...). The test asserts the classification and rule of every
change the edit causes (so an edit is never reported as something else besides) and that one of
them is at the expected operation and JSON pointer. Then: the document against itself, with its
keys reordered, with a path parameter renamed and with a refactoring of its `$ref`s reports
nothing breaking; and the command line in its three formats, with `--fail-on` and `git:REV`.
"""

from __future__ import annotations

import copy
import json
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from csapi.cli import main
from csapi.openapi import DOCUMENT_PATH, document
from csapi.openapi import diff as diff_module
from csapi.openapi.diff import Change, Classification, compare, diff
from tests.diff.documents import Document, real, reverse_keys

BREAKING, OBLIGATION, COMPATIBLE = (
    Classification.BREAKING,
    Classification.OBLIGATION,
    Classification.COMPATIBLE,
)


def schema(doc: Document, name: str) -> dict[str, Any]:
    return doc["components"]["schemas"][name]


def operation(doc: Document, path: str, method: str) -> dict[str, Any]:
    return doc["paths"][path][method]


def ptr(*parts: str) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


ITEM = "/components/schemas/Item"
COMMENT_CREATE = "/components/schemas/CommentCreate"
GET_ITEM = "GET /v1/items/{item_id}"
CREATE_COMMENT = "POST /v1/items/{item_id}/comments"


# --------------------------------------------------------------------------------------------------
# The edits


def remove_response_field(doc: Document) -> None:
    del schema(doc, "Item")["properties"]["mime"]
    schema(doc, "Item")["required"].remove("mime")


def make_response_field_optional(doc: Document) -> None:
    schema(doc, "Item")["required"].remove("name")


def make_response_field_nullable(doc: Document) -> None:
    schema(doc, "Item")["properties"]["name"]["nullable"] = True


def make_response_field_non_nullable(doc: Document) -> None:
    del schema(doc, "Item")["properties"]["description"]["nullable"]


def add_required_response_field(doc: Document) -> None:
    schema(doc, "Item")["properties"]["rating"] = {"type": "integer"}
    schema(doc, "Item")["required"].append("rating")


def add_optional_response_field(doc: Document) -> None:
    schema(doc, "Item")["properties"]["rating"] = {"type": "integer"}


def add_enum_value_to_response(doc: Document) -> None:
    schema(doc, "Collection")["properties"]["view_mode"]["enum"].append("grid")


def remove_enum_value_from_response(doc: Document) -> None:
    schema(doc, "Collection")["properties"]["view_mode"]["enum"].remove("list")


def narrow_request_enum(doc: Document) -> None:
    schema(doc, "CollectionUpdate")["properties"]["view_mode"]["enum"].remove("list")


def widen_request_enum(doc: Document) -> None:
    schema(doc, "CollectionUpdate")["properties"]["view_mode"]["enum"].append("grid")


def make_body_field_required(doc: Document) -> None:
    schema(doc, "CommentCreate")["required"].append("notify")


def add_required_body_field(doc: Document) -> None:
    schema(doc, "CommentCreate")["properties"]["lang"] = {"type": "string"}
    schema(doc, "CommentCreate")["required"].append("lang")


def add_optional_body_field(doc: Document) -> None:
    schema(doc, "CommentCreate")["properties"]["lang"] = {"type": "string"}


def remove_optional_body_field(doc: Document) -> None:
    del schema(doc, "CommentCreate")["properties"]["notify"]


def make_body_field_optional(doc: Document) -> None:
    schema(doc, "CommentCreate")["required"].remove("body")


def make_body_field_nullable(doc: Document) -> None:
    schema(doc, "CommentCreate")["properties"]["body"]["nullable"] = True


def change_request_type(doc: Document) -> None:
    schema(doc, "CommentCreate")["properties"]["body"]["type"] = "integer"


def change_response_type(doc: Document) -> None:
    schema(doc, "Item")["properties"]["size"]["type"] = "string"


def widen_response_type(doc: Document) -> None:
    schema(doc, "Item")["properties"]["size"]["type"] = "number"


def change_response_format(doc: Document) -> None:
    schema(doc, "Item")["properties"]["created_at"]["format"] = "date"


def tighten_request_bound(doc: Document) -> None:
    schema(doc, "CommentCreate")["properties"]["body"]["maxLength"] = 1000


def loosen_request_bound(doc: Document) -> None:
    doc["components"]["parameters"]["PerPage"]["schema"]["minimum"] = 0


def loosen_response_bound(doc: Document) -> None:
    schema(doc, "Item")["properties"]["latitude"]["maximum"] = 180


def tighten_response_bound(doc: Document) -> None:
    schema(doc, "Item")["properties"]["size"]["minimum"] = 1


def change_request_pattern(doc: Document) -> None:
    schema(doc, "Username")["pattern"] = "^[a-z]{2,40}$"


def close_response_object(doc: Document) -> None:
    schema(doc, "Item")["additionalProperties"] = False


def remove_operation(doc: Document) -> None:
    del doc["paths"]["/v1/ping"]


def add_operation(doc: Document) -> None:
    ping = copy.deepcopy(operation(doc, "/v1/ping", "get"))
    doc["paths"]["/v1/ping"]["delete"] = {**ping, "operationId": "auth.unping", "summary": "Unping"}


def rename_operation_id(doc: Document) -> None:
    operation(doc, "/v1/ping", "get")["operationId"] = "auth.pong"


def deprecate_operation(doc: Document) -> None:
    operation(doc, "/v1/ping", "get")["deprecated"] = True


def add_required_parameter(doc: Document) -> None:
    parameter = {"name": "since", "in": "query", "required": True, "schema": {"type": "string"}}
    operation(doc, "/v1/activity", "get").setdefault("parameters", []).append(parameter)


def add_optional_parameter(doc: Document) -> None:
    parameter = {"name": "since", "in": "query", "schema": {"type": "string"}}
    operation(doc, "/v1/activity", "get").setdefault("parameters", []).append(parameter)


def remove_parameter(doc: Document) -> None:
    parameters = operation(doc, "/v1/collections", "get")["parameters"]
    parameters[:] = [p for p in parameters if p.get("name") != "sort"]


def make_parameter_required(doc: Document) -> None:
    sort = next(p for p in operation(doc, "/v1/collections", "get")["parameters"] if p.get("name") == "sort")
    sort["required"] = True


def change_parameter_default(doc: Document) -> None:
    doc["components"]["parameters"]["PerPage"]["schema"]["default"] = 50


def remove_response_status(doc: Document) -> None:
    del operation(doc, "/v1/collections/{collection_id}/users", "post")["responses"]["409"]


def add_success_status(doc: Document) -> None:
    responses = operation(doc, "/v1/collections", "post")["responses"]
    responses["202"] = copy.deepcopy(responses["201"])
    del responses["202"]["links"]


def add_error_status(doc: Document) -> None:
    responses = operation(doc, "/v1/collections", "post")["responses"]
    responses["429"] = {"$ref": "#/components/responses/Conflict"}


def remove_response_header(doc: Document) -> None:
    del operation(doc, "/v1/collections", "get")["responses"]["200"]["headers"]["X-Total-Count"]


def add_required_response_header(doc: Document) -> None:
    headers = operation(doc, "/v1/ping", "get")["responses"]["200"].setdefault("headers", {})
    headers["X-Request-Id"] = {"required": True, "schema": {"type": "string"}}


def remove_request_media_type(doc: Document) -> None:
    del doc["components"]["requestBodies"]["CommentCreate"]["content"]["multipart/form-data"]


def add_request_media_type(doc: Document) -> None:
    content = doc["components"]["requestBodies"]["CommentCreate"]["content"]
    content["text/plain"] = {"schema": {"type": "string"}}


def make_request_body_optional(doc: Document) -> None:
    doc["components"]["requestBodies"]["CommentCreate"]["required"] = False


def remove_link(doc: Document) -> None:
    del operation(doc, "/v1/collections", "post")["responses"]["201"]["links"]["GetCollection"]


def add_link(doc: Document) -> None:
    links = operation(doc, "/v1/items/{item_id}/comments", "post")["responses"]["201"].setdefault("links", {})
    links["GetItem"] = {"operationId": "items.get_item", "parameters": {"item_id": "$request.path.item_id"}}


def require_user_credentials(doc: Document) -> None:
    operation(doc, "/v1/ping", "get")["security"] = [{"apiKey": [], "basicAuth": []}]


def make_operation_public(doc: Document) -> None:
    operation(doc, "/v1/ping", "get")["security"] = []


def rename_api_key_header(doc: Document) -> None:
    doc["components"]["securitySchemes"]["apiKey"]["name"] = "X-Token"


@dataclass(frozen=True)
class Edit:
    edit: Callable[[Document], None]
    classification: Classification
    rule: str
    operation: str
    pointer: str

    @property
    def name(self) -> str:
        return self.edit.__name__


SEARCH, COLLECTIONS = "GET /v1/search", "GET /v1/collections"
UPDATE_COLLECTION = "PUT /v1/collections/{collection_id}"
CREATE_COLLECTION = "POST /v1/collections"
PER_PAGE = "/components/parameters/PerPage/schema"
PING = "GET /v1/ping"
PING_PTR = "/paths/~1v1~1ping/get"
COLLECTIONS_GET = "/paths/~1v1~1collections/get"
COLLECTIONS_POST = "/paths/~1v1~1collections/post"
COMMENT_BODY = "/components/requestBodies/CommentCreate"

CORPUS = [
    Edit(remove_response_field, BREAKING, "property-removed", GET_ITEM, f"{ITEM}/properties/mime"),
    Edit(make_response_field_optional, BREAKING, "required-removed", GET_ITEM, f"{ITEM}/properties/name"),
    Edit(make_response_field_nullable, BREAKING, "nullable", GET_ITEM, f"{ITEM}/properties/name/nullable"),
    Edit(
        make_response_field_non_nullable,
        OBLIGATION,
        "nullable",
        GET_ITEM,
        f"{ITEM}/properties/description/nullable",
    ),
    Edit(add_required_response_field, OBLIGATION, "property-added", GET_ITEM, f"{ITEM}/properties/rating"),
    Edit(add_optional_response_field, COMPATIBLE, "property-added", GET_ITEM, f"{ITEM}/properties/rating"),
    Edit(
        add_enum_value_to_response,
        BREAKING,
        "enum-value-added",
        "GET /v1/collections/{collection_id}",
        "/components/schemas/Collection/properties/view_mode/enum",
    ),
    Edit(
        remove_enum_value_from_response,
        OBLIGATION,
        "enum-value-removed",
        COLLECTIONS,
        "/components/schemas/Collection/properties/view_mode/enum",
    ),
    Edit(
        narrow_request_enum,
        BREAKING,
        "enum-value-removed",
        CREATE_COLLECTION,
        "/components/schemas/CollectionUpdate/properties/view_mode/enum",
    ),
    Edit(
        widen_request_enum,
        OBLIGATION,
        "enum-value-added",
        UPDATE_COLLECTION,
        "/components/schemas/CollectionUpdate/properties/view_mode/enum",
    ),
    Edit(
        make_body_field_required,
        BREAKING,
        "required-added",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/notify",
    ),
    Edit(
        add_required_body_field,
        BREAKING,
        "property-added",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/lang",
    ),
    Edit(
        add_optional_body_field,
        OBLIGATION,
        "property-added",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/lang",
    ),
    Edit(
        remove_optional_body_field,
        OBLIGATION,
        "property-removed",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/notify",
    ),
    Edit(
        make_body_field_optional,
        OBLIGATION,
        "required-removed",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/body",
    ),
    Edit(
        make_body_field_nullable,
        OBLIGATION,
        "nullable",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/body/nullable",
    ),
    Edit(
        change_request_type,
        BREAKING,
        "type-changed",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/body/type",
    ),
    Edit(change_response_type, BREAKING, "type-changed", GET_ITEM, f"{ITEM}/properties/size/type"),
    Edit(widen_response_type, BREAKING, "type-changed", GET_ITEM, f"{ITEM}/properties/size/type"),
    Edit(
        change_response_format, BREAKING, "format-changed", GET_ITEM, f"{ITEM}/properties/created_at/format"
    ),
    Edit(
        tighten_request_bound,
        BREAKING,
        "bound-tightened",
        CREATE_COMMENT,
        f"{COMMENT_CREATE}/properties/body/maxLength",
    ),
    Edit(loosen_request_bound, OBLIGATION, "bound-loosened", COLLECTIONS, f"{PER_PAGE}/minimum"),
    Edit(loosen_response_bound, BREAKING, "bound-loosened", GET_ITEM, f"{ITEM}/properties/latitude/maximum"),
    Edit(tighten_response_bound, OBLIGATION, "bound-tightened", GET_ITEM, f"{ITEM}/properties/size/minimum"),
    Edit(
        change_request_pattern,
        BREAKING,
        "pattern-changed",
        "PUT /v1/users/me",
        "/components/schemas/Username/pattern",
    ),
    Edit(
        close_response_object, OBLIGATION, "additional-properties", GET_ITEM, f"{ITEM}/additionalProperties"
    ),
    Edit(remove_operation, BREAKING, "operation-removed", PING, PING_PTR),
    Edit(add_operation, OBLIGATION, "operation-added", "DELETE /v1/ping", "/paths/~1v1~1ping/delete"),
    Edit(rename_operation_id, COMPATIBLE, "operation-id-changed", PING, f"{PING_PTR}/operationId"),
    Edit(deprecate_operation, COMPATIBLE, "deprecated", PING, f"{PING_PTR}/deprecated"),
    Edit(
        add_required_parameter,
        BREAKING,
        "parameter-added",
        "GET /v1/activity",
        "/paths/~1v1~1activity/get/parameters/3",
    ),
    Edit(
        add_optional_parameter,
        OBLIGATION,
        "parameter-added",
        "GET /v1/activity",
        "/paths/~1v1~1activity/get/parameters/3",
    ),
    Edit(remove_parameter, BREAKING, "parameter-removed", COLLECTIONS, f"{COLLECTIONS_GET}/parameters/8"),
    Edit(
        make_parameter_required,
        BREAKING,
        "parameter-required",
        COLLECTIONS,
        f"{COLLECTIONS_GET}/parameters/8/required",
    ),
    Edit(change_parameter_default, BREAKING, "default-changed", COLLECTIONS, f"{PER_PAGE}/default"),
    Edit(
        remove_response_status,
        OBLIGATION,
        "response-removed",
        "POST /v1/collections/{collection_id}/users",
        "/paths/~1v1~1collections~1{collection_id}~1users/post/responses/409",
    ),
    Edit(
        add_success_status, BREAKING, "response-added", CREATE_COLLECTION, f"{COLLECTIONS_POST}/responses/202"
    ),
    Edit(
        add_error_status, COMPATIBLE, "response-added", CREATE_COLLECTION, f"{COLLECTIONS_POST}/responses/429"
    ),
    Edit(
        remove_response_header,
        BREAKING,
        "header-removed",
        COLLECTIONS,
        f"{COLLECTIONS_GET}/responses/200/headers/X-Total-Count",
    ),
    Edit(
        add_required_response_header,
        OBLIGATION,
        "header-added",
        PING,
        f"{PING_PTR}/responses/200/headers/X-Request-Id",
    ),
    Edit(
        remove_request_media_type,
        BREAKING,
        "media-type-removed",
        CREATE_COMMENT,
        f"{COMMENT_BODY}/content/multipart~1form-data",
    ),
    Edit(
        add_request_media_type,
        OBLIGATION,
        "media-type-added",
        CREATE_COMMENT,
        f"{COMMENT_BODY}/content/text~1plain",
    ),
    Edit(
        make_request_body_optional,
        OBLIGATION,
        "request-body-required",
        CREATE_COMMENT,
        f"{COMMENT_BODY}/required",
    ),
    Edit(
        remove_link,
        COMPATIBLE,
        "link-removed",
        CREATE_COLLECTION,
        f"{COLLECTIONS_POST}/responses/201/links/GetCollection",
    ),
    Edit(
        add_link,
        COMPATIBLE,
        "link-added",
        CREATE_COMMENT,
        "/paths/~1v1~1items~1{item_id}~1comments/post/responses/201/links/GetItem",
    ),
    Edit(require_user_credentials, BREAKING, "security-requirement-removed", PING, f"{PING_PTR}/security"),
    Edit(make_operation_public, OBLIGATION, "security-requirement-added", PING, f"{PING_PTR}/security"),
    Edit(
        rename_api_key_header,
        BREAKING,
        "security-scheme-changed",
        SEARCH,
        "/components/securitySchemes/apiKey",
    ),
]


def changes_of(edit: Callable[[Document], None]) -> list[Change]:
    new = real()
    edit(new)
    return diff(document(), new)


@pytest.mark.parametrize("case", CORPUS, ids=lambda case: case.name)
def test_edit_is_classified(case: Edit) -> None:
    changes = changes_of(case.edit)
    assert changes, "the edit was not noticed"
    assert {(c.classification, c.rule) for c in changes} == {(case.classification, case.rule)}, [
        str(c) for c in changes
    ]
    assert (case.operation, case.pointer) in {(c.operation, c.pointer) for c in changes}, [
        (c.operation, c.pointer) for c in changes
    ]


def test_corpus_covers_every_classification_with_25_edits_or_more() -> None:
    assert len(CORPUS) >= 25
    assert {case.classification for case in CORPUS} == set(Classification)


def test_a_shared_schema_is_reported_under_every_operation_that_reaches_it() -> None:
    operations = {c.operation for c in changes_of(make_response_field_nullable)}
    assert {GET_ITEM, "GET /v1/items", "PUT /v1/items/{item_id}", "GET /v1/search"} - {
        "GET /v1/search"
    } <= operations
    assert "GET /v1/users/me" not in operations


def test_a_schema_in_requests_and_responses_is_classified_where_it_is_reached() -> None:
    """Id is in paths (request) and in every body (response): a lowered minimum is new input
    servers must accept in the path (an obligation), and new output clients must read in the body
    (breaking)."""

    def lower_id_minimum(doc: Document) -> None:
        schema(doc, "Id")["minimum"] = 0

    by_operation = {(c.operation, c.classification) for c in changes_of(lower_id_minimum)}
    assert (GET_ITEM, OBLIGATION) in by_operation  # the path parameter: id 0 must now be looked up
    assert (GET_ITEM, BREAKING) in by_operation  # the body: an id 0 may now come back


# --------------------------------------------------------------------------------------------------
# What must report nothing (or only compatible changes)


@pytest.fixture(params=["shortcut", "full"])
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """With the skip of unchanged text, and without it (every schema compared in full)."""
    if request.param == "full":
        monkeypatch.setattr(diff_module.Stability, "__call__", lambda self, ptr: False)
    return str(request.param)


def test_the_real_document_against_itself_reports_nothing(engine: str) -> None:
    report = compare(document(), real())
    assert report.changes == ()
    assert report.summary().startswith("No changes")


def test_reordering_every_key_reports_nothing(engine: str) -> None:
    assert diff(document(), reverse_keys(real())) == []


def test_reordering_parameters_and_enums_reports_nothing() -> None:
    new = real()
    operation(new, "/v1/collections", "get")["parameters"].reverse()
    schema(new, "Collection")["properties"]["view_mode"]["enum"].reverse()
    schema(new, "Item")["required"].reverse()
    assert diff(document(), new) == []


def rename_path_parameter(doc: Document) -> None:
    """`/v1/items/{item_id}` -> `/v1/items/{id}`: the path, its parameter and the links naming it."""
    item = doc["paths"].pop("/v1/items/{item_id}")
    item["parameters"] = [{**doc["components"]["parameters"]["ItemId"], "name": "id"}]
    doc["paths"]["/v1/items/{id}"] = item
    targets = {item[method]["operationId"] for method in ("get", "put", "delete")}
    for path_item in doc["paths"].values():
        for op in path_item.values():
            for response in op.get("responses", {}).values() if isinstance(op, dict) else ():
                for link in response.get("links", {}).values():
                    if link["operationId"] in targets:
                        link["parameters"]["id"] = link["parameters"].pop("item_id")


def test_renaming_a_path_parameter_alone_is_compatible() -> None:
    changes = changes_of(rename_path_parameter)
    assert {(c.classification, c.rule) for c in changes} == {(COMPATIBLE, "path-parameter-renamed")}
    assert {(c.operation, c.pointer) for c in changes} == {
        (f"{method} /v1/items/{{id}}", "/paths/~1v1~1items~1{id}/parameters/0/name")
        for method in ("GET", "PUT", "DELETE")
    }
    assert "`item_id` to `id`" in changes[0].message


def test_renaming_a_path_parameter_and_changing_its_type_is_still_seen() -> None:
    def rename_and_retype(doc: Document) -> None:
        rename_path_parameter(doc)
        # a uuid: old integer ids no longer match (a bare string would only loosen the text on the wire)
        doc["paths"]["/v1/items/{id}"]["parameters"][0]["schema"] = {"type": "string", "format": "uuid"}

    rules = {(c.rule, c.classification) for c in changes_of(rename_and_retype)}
    assert ("type-changed", BREAKING) in rules and ("path-parameter-renamed", COMPATIBLE) in rules


def refactor_references(doc: Document) -> None:
    """Same API, other text: a component renamed, a $ref inlined, an allOf wrapper dropped."""
    for kind, old, new in (("schemas", "Item", "Entry"),):
        doc["components"][kind][new] = doc["components"][kind].pop(old)
        text = json.dumps(doc).replace(f'"#/components/{kind}/{old}"', f'"#/components/{kind}/{new}"')
        doc.clear()
        doc.update(json.loads(text))
    get_item = operation(doc, "/v1/items/{item_id}", "get")
    get_item["parameters"] = [
        copy.deepcopy(doc["components"]["parameters"][p["$ref"].rsplit("/", 1)[1]]) if "$ref" in p else p
        for p in get_item.get("parameters", [])
    ]
    schema(doc, "Entry")["properties"]["user_id"] = {"$ref": "#/components/schemas/Id"}


def test_refactoring_references_reports_only_the_lost_description() -> None:
    """The dropped allOf wrapper carried `user_id`'s own description: its loss is reported as
    documentation (compatible), the rest of the refactor not at all."""
    changes = diff(document(), _with(refactor_references))
    assert {(c.rule, c.classification.value) for c in changes} == {("documentation-changed", "compatible")}
    assert all("user_id" in c.pointer or "/Id/" in c.pointer for c in changes), [c.pointer for c in changes]


def _with(edit: Callable[[Document], None]) -> Document:
    new = real()
    edit(new)
    return new


def test_a_recursive_schema_is_compared_without_looping() -> None:
    def recursive(doc: Document) -> None:
        schema(doc, "Item")["properties"]["children"] = {
            "type": "array",
            "items": {"$ref": "#/components/schemas/Item"},
        }

    old = _with(recursive)
    new = _with(recursive)
    schema(new, "Item")["properties"]["size"]["type"] = "string"
    changes = diff(old, new)
    assert {(c.rule, c.pointer) for c in changes} == {("type-changed", f"{ITEM}/properties/size/type")}


def test_a_ref_cycle_does_not_loop() -> None:
    new = real()
    new["components"]["schemas"]["Loop"] = {"$ref": "#/components/schemas/Loop"}
    schema(new, "Item")["properties"]["name"] = {"$ref": "#/components/schemas/Loop"}
    rules = {c.rule for c in diff(document(), new)}
    assert rules == {"type-changed"}  # a string became "anything": loosened


# --------------------------------------------------------------------------------------------------
# The command line


def _three_changes(doc: Document) -> None:
    """A breaking change, an implementer obligation and a compatible change."""
    remove_response_field(doc)
    add_optional_body_field(doc)
    add_error_status(doc)


@pytest.fixture(scope="module")
def documents(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The real document, and a copy (as JSON, which is YAML too) with `_three_changes`."""
    folder = tmp_path_factory.mktemp("diff")
    old_path, new_path = folder / "old.yaml", folder / "new.json"
    old_path.write_text(DOCUMENT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    new_path.write_text(json.dumps(_with(_three_changes)), encoding="utf-8")
    return old_path, new_path


def run(*args: str | Path) -> Any:
    return CliRunner().invoke(main, ["diff", *map(str, args)])


def test_cli_text_groups_by_operation_with_reasons(documents: tuple[Path, Path]) -> None:
    result = run(*documents)
    assert result.exit_code == 1, result.output  # --fail-on breaking by default
    assert "Create a comment (POST /v1/items/{item_id}/comments) [comments.create_comment]" in result.output
    assert f"obligation  {COMMENT_CREATE}/properties/lang: [property-added]" in result.output
    assert "servers must now act on `lang`; clients that leave it out are unaffected" in result.output
    assert f"breaking    {ITEM}/properties/mime: [property-removed]" in result.output
    assert "a client that reads `mime` no longer gets it" in result.output
    summary = result.output.strip().splitlines()[-1]
    assert "breaking" in summary and "1 implementer obligation(s), 1 compatible" in summary


def test_cli_json(documents: tuple[Path, Path]) -> None:
    result = run(*documents, "--format", "json", "--fail-on", "obligation")
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert report["summary"]["obligation"] == 1 and report["summary"]["compatible"] == 1
    assert report["summary"]["total"] == len(report["changes"]) > 2
    assert set(report["changes"][0]) == set(Change.__dataclass_fields__)
    lang = next(c for c in report["changes"] if c["pointer"] == f"{COMMENT_CREATE}/properties/lang")
    assert lang["classification"] == "obligation" and lang["direction"] == "request"
    assert report["accept_notes"] == []


def test_cli_markdown(documents: tuple[Path, Path]) -> None:
    result = run(*documents, "--format", "markdown", "--fail-on", "breaking")
    assert result.exit_code == 1, result.output
    assert result.output.startswith("### API changes:")
    heading = "#### Create a comment (POST /v1/items/{item_id}/comments) [comments.create_comment]"
    row = "| obligation | request body: optional property `lang` added | servers must now act on `lang`"
    assert heading in result.output and row in result.output
    assert "| compatible | response 429: status added (an error status) |" in result.output
    assert "| **breaking** | response 200: required property `mime` removed |" in result.output


@pytest.mark.parametrize(
    ("edit", "fail_on", "fails"),
    [
        (_three_changes, "none", False),
        (_three_changes, "breaking", True),
        (_three_changes, "obligation", True),
        (_three_changes, "any", True),
        (add_error_status, "breaking", False),
        (add_error_status, "obligation", False),
        (add_error_status, "any", True),
        (add_optional_body_field, "breaking", False),
        (add_optional_body_field, "obligation", True),
        (remove_operation, "breaking", True),
        (lambda doc: None, "any", False),
    ],
)
def test_fail_on(edit: Callable[[Document], None], fail_on: str, fails: bool) -> None:
    assert compare(document(), _with(edit)).fails(fail_on) is fails


@pytest.mark.parametrize("value", ["breaking-client", "breaking-server"])
def test_the_old_fail_on_values_are_usage_errors_that_say_what_to_use(
    documents: tuple[Path, Path], value: str
) -> None:
    result = run(*documents, "--fail-on", value)
    assert result.exit_code == 2
    assert "was removed with the three-class model: use --fail-on " in result.output


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-C", str(repo), *args],
        check=True,
        capture_output=True,
    )


def test_cli_git_revision(tmp_path: Path) -> None:
    """`git:REV` reads the NEW side's file as of REV, in NEW's repository."""
    repo = tmp_path / "repo"
    (repo / "openapi").mkdir(parents=True)
    document = repo / "openapi" / "openapi.yaml"
    document.write_text(DOCUMENT_PATH.read_text(encoding="utf-8"), encoding="utf-8")
    _git(repo, "init", "-q")
    _git(repo, "add", "openapi/openapi.yaml")
    _git(repo, "commit", "-q", "-m", "the document")
    document.write_text(json.dumps(_with(remove_operation)), encoding="utf-8")

    result = run("git:HEAD", document)
    assert result.exit_code == 1, result.output
    assert f"breaking    {PING_PTR}: [operation-removed]" in result.output
    assert "a client that calls it now gets 404 or 405" in result.output
    assert "from git:HEAD to" in result.output
    assert run("git:HEAD", "git:HEAD").exit_code == 0  # both sides from git: the project's document


def test_cli_bad_sources_are_usage_errors(tmp_path: Path) -> None:
    result = run("git:no-such-revision", DOCUMENT_PATH)
    assert result.exit_code == 2 and "git cannot show openapi.yaml at 'no-such-revision'" in result.output
    result = run(tmp_path / "missing.yaml", DOCUMENT_PATH)
    assert result.exit_code == 2 and "cannot read" in result.output
