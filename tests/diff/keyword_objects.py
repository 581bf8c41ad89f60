"""Keywords of parameters, bodies, media types, encodings, responses, headers, links, operations and
path items for test_keywords.py, edited in `keyword_cases.base_document`."""

from __future__ import annotations

from tests.diff.keyword_cases import (
    ARR,
    BODY,
    CALLBACK,
    FORM,
    GET,
    HEADER,
    ITEM,
    JSON_BODY,
    LINK,
    OBJ,
    OBJ_A,
    OK,
    POST,
    QUERY,
    STR,
    Edit,
    K,
    edits,
)


def rows() -> list[K]:
    return [*_parameter_rows(), *_body_rows(), *_response_rows(), *_operation_rows()]


def _parameter_rows() -> list[K]:
    header = {"name": "X-Trace", "in": "header", "schema": STR}
    in_content = {"application/json": {"schema": OBJ_A}}
    return [
        K("parameter", "name", QUERY, edits("fields", "only", ("changed",))),
        K("parameter", "in", QUERY, edits("query", "header", ("changed",))),
        K("parameter", "in", QUERY, edits("query", "cookie", ("changed",)), label="in-cookie"),
        K("parameter", "description", QUERY, edits("a", "b")),
        K("parameter", "required", QUERY, edits(True, False)),
        K("parameter", "deprecated", QUERY, edits(True, False)),
        K("parameter", "allowEmptyValue", QUERY, edits(True, False)),
        K("parameter", "style", QUERY, edits("spaceDelimited", "pipeDelimited")),
        K("parameter", "explode", QUERY, edits(False, True)),
        K("parameter", "allowReserved", QUERY, edits(True, False)),
        K(
            "parameter",
            "schema",
            QUERY,
            edits(ARR, {"type": "array", "items": {"type": "integer"}}, ("changed",)),
        ),
        K("parameter", "example", QUERY, edits(["a"], ["b"])),
        K("parameter", "examples", QUERY, edits({"one": {"value": ["a"]}}, {"one": {"value": ["b"]}})),
        K("parameter", "maxItems", f"{QUERY}/schema", edits(3, 5), label="schema-maxItems"),
        K("parameter", "enum", f"{QUERY}/schema/items", edits(["a", "b"], ["a"]), label="schema-items-enum"),
        K(
            "parameter",
            "pattern",
            f"{ITEM}/parameters/0/schema",
            edits("^[0-9]+$", "^[a-z]+$"),
            label="path-schema-pattern",
        ),
        K(
            "parameter",
            "content",
            f"{GET}/parameters/1",
            edits(in_content, {"application/json": {"schema": OBJ}}, ("changed",)),
            setup={f"{GET}/parameters/1": {"name": "filter", "in": "query", "content": in_content}},
        ),
        K(
            "parameter",
            "schema",
            f"{ITEM}/parameters/0",
            edits(STR, {"type": "integer"}, ("changed",)),
            label="path-schema",
        ),
        K("parameter", "style", f"{ITEM}/parameters/0", edits("label", "matrix"), label="path-style"),
        K("operation", "1", f"{GET}/parameters", edits(header), label="parameters-header"),
        K(
            "operation",
            "1",
            f"{GET}/parameters",
            edits({**header, "required": True}),
            label="parameters-required-header",
        ),
        K(
            "path-item",
            "1",
            f"{ITEM}/parameters",
            edits({"name": "lang", "in": "query", "schema": STR}),
            label="parameters",
        ),
    ]


# An Example Object is the value of its media type's `examples` annotation: a change may be reported there
SHOWN = (f"{JSON_BODY}/examples",)


def _body_rows() -> list[K]:
    examples = {f"{JSON_BODY}/examples": {"one": {"value": {"a": "x"}}}}
    external = {f"{JSON_BODY}/examples": {"one": {"summary": "one"}}}
    meta = f"{FORM}/encoding/meta"
    return [
        K("request-body", "description", BODY, edits("a", "b")),
        K("request-body", "required", BODY, edits(True, False)),
        K("request-body", "text/plain", f"{BODY}/content", edits({"schema": STR}), label="content"),
        K("media-type", "schema", JSON_BODY, edits(OBJ_A, OBJ, ("changed",))),
        K(
            "media-type",
            "schema",
            JSON_BODY,
            (Edit("boolean", True, False),),
            ("3.1",),
            label="schema-boolean",
        ),
        K("media-type", "example", JSON_BODY, edits({"a": "x"}, {"a": "y"})),
        K(
            "media-type",
            "examples",
            JSON_BODY,
            edits({"one": {"value": {"a": "x"}}}, {"one": {"value": {"a": "y"}}}),
        ),
        K(
            "media-type",
            "encoding",
            FORM,
            edits({"file": {"contentType": "image/png"}}, {"file": {"contentType": "image/jpeg"}}),
        ),
        K("encoding", "contentType", meta, edits("application/json", "application/xml")),
        K(
            "encoding",
            "headers",
            meta,
            edits({"X-Part": {"schema": STR}}, {"X-Part": {"schema": {"type": "integer"}}}),
        ),
        K("encoding", "style", meta, edits("deepObject", "spaceDelimited")),
        K("encoding", "explode", meta, edits(False, True)),
        K("encoding", "allowReserved", meta, edits(True, False)),
        K("example", "summary", f"{JSON_BODY}/examples/one", edits("a", "b"), setup=examples, places=SHOWN),
        K(
            "example",
            "description",
            f"{JSON_BODY}/examples/one",
            edits("a", "b"),
            setup=examples,
            places=SHOWN,
        ),
        K(
            "example",
            "value",
            f"{JSON_BODY}/examples/one",
            edits({"a": "x"}, {"a": "y"}),
            setup=external,
            places=SHOWN,
        ),
        K(
            "example",
            "externalValue",
            f"{JSON_BODY}/examples/one",
            edits("https://a.example.com/x.json", "https://b.example.com/x.json"),
            setup=external,
            places=SHOWN,
        ),
    ]


def _response_rows() -> list[K]:
    error = f"{GET}/responses/404"
    other = {f"{OK}/links/other": {"operationRef": "#/paths/~1items~1%7Bid%7D/post"}}
    return [
        K("response", "description", OK, edits("the item", "an item", ("changed",))),
        K("response", "X-Other", f"{OK}/headers", edits({"schema": STR}), label="headers"),
        K(
            "response",
            "content",
            error,
            edits({"application/json": {"schema": OBJ_A}}, {"application/json": {"schema": STR}}),
        ),
        K("response", "text/plain", f"{OK}/content", edits({"schema": STR}), label="content-media-type"),
        K(
            "response",
            "links",
            error,
            edits({"show": {"operationId": "items.show"}}, {"show": {"operationId": "items.save"}}),
        ),
        K(
            "responses",
            "202",
            f"{POST}/responses",
            edits({"description": "accepted"}),
            label="success-status",
        ),
        K(
            "responses",
            "404",
            f"{GET}/responses",
            edits({"description": "no such item"}, kinds=("added", "removed")),
            label="error-status",
        ),
        K(
            "responses",
            "default",
            f"{GET}/responses",
            edits(
                {"description": "an error"},
                {"description": "an error", "content": {"application/json": {"schema": OBJ_A}}},
            ),
        ),
        K("header", "description", HEADER, edits("a", "b")),
        K("header", "required", HEADER, edits(True, False)),
        K("header", "deprecated", HEADER, edits(True, False)),
        K("header", "explode", HEADER, edits(True, False)),
        K("header", "schema", HEADER, edits({"type": "integer"}, STR, ("changed",))),
        K("header", "example", HEADER, edits(1, 2)),
        K("header", "examples", HEADER, edits({"one": {"value": 1}}, {"one": {"value": 2}})),
        K("header", "minimum", f"{HEADER}/schema", edits(1, 2), label="schema-minimum"),
        K(
            "header",
            "content",
            f"{OK}/headers/X-Body",
            edits(
                {"text/plain": {"schema": {"type": "integer"}}}, {"text/plain": {"schema": STR}}, ("changed",)
            ),
        ),
        K("link", "operationId", LINK, edits("items.save", "items.show", ("changed",))),
        K(
            "link",
            "operationRef",
            f"{OK}/links/other",
            edits("#/paths/~1items~1%7Bid%7D/post", "#/paths/~1items~1%7Bid%7D/get", ("changed",)),
            setup=other,
        ),
        K("link", "parameters", LINK, edits({"id": "$request.path.id"}, {"id": "$response.body#/a"})),
        K("link", "requestBody", LINK, edits("$response.body#/a", "$request.path.id")),
        K("link", "description", LINK, edits("a", "b")),
        # 3.0 only: the OAS 3.1 schema openapi-spec-validator 0.9 ships (2022-10-07) misnames a Link's
        # `server` as `body`, so a 3.1 link with a server fails validation (and `csapi diff` exits 2)
        K(
            "link",
            "server",
            LINK,
            edits({"url": "https://a.example.com"}, {"url": "https://b.example.com"}),
            ("3.0",),
        ),
    ]


def _operation_rows() -> list[K]:
    hook = {"{$request.query.hook}": {"post": {"responses": {"200": {"description": "ok"}}}}}
    methods = [
        K(
            "path-item",
            method,
            ITEM,
            edits({"responses": {"204": {"description": "done"}}}, kinds=("added", "removed")),
        )
        for method in ("put", "delete", "options", "head", "patch", "trace")
    ]
    return [
        K("operation", "tags", GET, edits(["items"], ["other"])),
        K("operation", "summary", GET, edits("a", "b")),
        K("operation", "description", GET, edits("a", "b")),
        K(
            "operation",
            "externalDocs",
            GET,
            edits({"url": "https://a.example.com"}, {"url": "https://b.example.com"}),
        ),
        K("operation", "operationId", GET, edits("items.show", "items.get", ("changed",))),
        K("operation", "requestBody", GET, edits({"content": {"application/json": {"schema": OBJ_A}}})),
        K(
            "operation",
            "callbacks",
            GET,
            edits({"seen": hook}, {"seen": {"{$request.query.other}": hook["{$request.query.hook}"]}}),
        ),
        K("operation", "deprecated", GET, edits(True, False)),
        K(
            "operation",
            "servers",
            GET,
            edits([{"url": "https://a.example.com"}], [{"url": "https://b.example.com"}]),
        ),
        K("callback", "required", f"{CALLBACK}/requestBody/content/application~1json/schema", edits(["a"])),
        K("callback", "content", f"{CALLBACK}/responses/200", edits({"application/json": {"schema": OBJ_A}})),
        K("path-item", "summary", ITEM, edits("a", "b")),
        K("path-item", "description", ITEM, edits("a", "b")),
        K(
            "path-item",
            "servers",
            ITEM,
            edits([{"url": "https://a.example.com"}], [{"url": "https://b.example.com"}]),
        ),
        *methods,
        K(
            "paths",
            "/other",
            "/paths",
            edits({"get": {"responses": {"200": {"description": "ok"}}}}),
            label="path",
        ),
        K(
            "path-item",
            "$ref",
            "/paths/~1things",
            edits("#/components/pathItems/A", "#/components/pathItems/B", ("changed",)),
            ("3.1",),
            setup={
                "/components/pathItems/A": {"get": {"responses": {"200": {"description": "a thing"}}}},
                "/components/pathItems/B": {
                    "get": {
                        "responses": {
                            "200": {
                                "description": "a thing",
                                "content": {"application/json": {"schema": STR}},
                            }
                        }
                    }
                },
            },
            places=("/components/pathItems",),
        ),
    ]
