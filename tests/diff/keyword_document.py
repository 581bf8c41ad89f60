"""Keywords of security schemes and requirements, servers, info, tags, components, webhooks and the
document itself for test_keywords.py, edited in `keyword_cases.base_document`."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.diff.keyword_cases import (
    AUTH,
    AUTH_CODE,
    BODY,
    BOTH,
    FORM,
    GET,
    HEADER,
    ITEM,
    JSON_BODY,
    LINK,
    OBJ_A,
    OK,
    POST,
    QUERY,
    SCHEMES,
    SERVER,
    STR,
    USES,
    K,
    edits,
)


def rows() -> list[K]:
    return [*_security_rows(), *_document_rows()]


def _security_rows() -> list[K]:
    scheme = f"{SCHEMES}/extra"
    use_get: dict[str, Any] = {f"{GET}/security": [{"extra": []}]}
    oidc = {
        scheme: {"type": "openIdConnect", "openIdConnectUrl": f"{AUTH}/.well-known/openid-configuration"},
        **use_get,
    }
    bearer = {scheme: {"type": "http", "scheme": "bearer"}, **use_get}
    tls = {scheme: {"type": "mutualTLS"}, **use_get}
    flows = f"{SCHEMES}/oauth/flows"
    scopes = {"read": "read items", "write": "write items"}
    rows = [
        K("security-scheme", "name", f"{SCHEMES}/key", edits("X-API-Key", "X-Key", ("changed",))),
        K("security-scheme", "in", f"{SCHEMES}/key", edits("header", "query", ("changed",))),
        K(
            "security-scheme",
            "in",
            f"{SCHEMES}/key",
            edits("header", "cookie", ("changed",)),
            label="in-cookie",
        ),
        K("security-scheme", "description", f"{SCHEMES}/key", edits("a", "b")),
        K(
            "security-scheme",
            "key",
            SCHEMES,
            edits(
                {"type": "apiKey", "name": "X-API-Key", "in": "header"},
                {"type": "http", "scheme": "bearer"},
                ("changed",),
            ),
            label="type",
        ),
        K("security-scheme", "scheme", f"{SCHEMES}/basic", edits("basic", "bearer", ("changed",))),
        K("security-scheme", "bearerFormat", scheme, edits("JWT", "opaque"), setup=bearer),
        K(
            "security-scheme",
            "openIdConnectUrl",
            scheme,
            edits(f"{AUTH}/a", f"{AUTH}/b", ("changed",)),
            setup=oidc,
        ),
        K(
            "security-scheme",
            "description",
            scheme,
            edits("a", "b"),
            ("3.1",),
            setup=tls,
            label="mutualTLS-description",
        ),
        K(
            "security-scheme",
            "key",
            SCHEMES,
            edits(
                {"type": "apiKey", "name": "X-API-Key", "in": "header"}, {"type": "mutualTLS"}, ("changed",)
            ),
            ("3.1",),
            label="type-mutualTLS",
        ),
        K(
            "oauth-flows",
            "implicit",
            flows,
            edits({"authorizationUrl": f"{AUTH}/authorize", "scopes": scopes}),
        ),
        K("oauth-flows", "password", flows, edits({"tokenUrl": f"{AUTH}/token", "scopes": scopes})),
        K("oauth-flows", "clientCredentials", flows, edits({"tokenUrl": f"{AUTH}/token", "scopes": scopes})),
        K(
            "oauth-flow",
            "authorizationUrl",
            AUTH_CODE,
            edits(f"{AUTH}/authorize", f"{AUTH}/login", ("changed",)),
        ),
        K("oauth-flow", "tokenUrl", AUTH_CODE, edits(f"{AUTH}/token", f"{AUTH}/tokens", ("changed",))),
        K("oauth-flow", "refreshUrl", AUTH_CODE, edits(f"{AUTH}/refresh", f"{AUTH}/renew")),
        K(
            "oauth-flow",
            "admin",
            f"{AUTH_CODE}/scopes",
            edits("administer items", "administer all"),
            label="scopes",
        ),
        K(
            "security-requirement",
            "security",
            "",
            edits([{"key": []}], [{"key": [], "basic": []}]),
            label="document",
        ),
        K(
            "security-requirement",
            "security",
            "",
            edits([{"key": []}], [{"key": []}, {}], ("changed",)),
            label="document-optional",
        ),
        K("security-requirement", "security", GET, edits([{"basic": []}], [{}])),
        K(
            "security-requirement",
            "oauth",
            f"{POST}/security/0",
            edits(["write"], ["write", "read"], ("changed",)),
            label="scopes",
        ),
        K("security-requirement", "basic", f"{POST}/security/0", edits([]), label="and"),
        K(
            "security-requirement",
            "1",
            f"{POST}/security",
            edits({"basic": []}, kinds=("added", "removed")),
            label="alternative",
        ),
    ]
    # an edited scheme may be reported where it is required, and the document's requirement at GET
    return [
        K(r.object, r.keyword, r.holder, r.edits, r.versions, r.setup, (*USES, GET), r.label) for r in rows
    ]


def _document_rows() -> list[K]:
    server = {
        "url": "https://{region}.example.com/v1",
        "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}},
    }
    variable = f"{SERVER}/variables/region"
    webhook = {
        "post": {
            "requestBody": {"content": {"application/json": {"schema": OBJ_A}}},
            "responses": {"200": {"description": "ok"}},
        }
    }
    hooked = {"/webhooks/saved": webhook}
    unused: dict[str, tuple[Any, Any]] = {
        "schemas": (STR, {"type": "integer"}),
        "responses": (
            {"description": "a"},
            {"description": "a", "content": {"application/json": {"schema": STR}}},
        ),
        "parameters": (
            {"name": "u", "in": "query", "schema": STR},
            {"name": "u", "in": "query", "required": True, "schema": STR},
        ),
        "examples": ({"value": 1}, {"value": 2}),
        "requestBodies": (
            {"content": {"application/json": {"schema": STR}}},
            {"required": True, "content": {"application/json": {"schema": STR}}},
        ),
        "headers": ({"schema": STR}, {"schema": {"type": "integer"}}),
        "securitySchemes": ({"type": "http", "scheme": "basic"}, {"type": "http", "scheme": "bearer"}),
        "links": ({"operationId": "items.show"}, {"operationId": "items.save"}),
        "callbacks": ({"{$url}": webhook}, {"{$url}": {"put": webhook["post"]}}),
        "pathItems": (webhook, {"put": webhook["post"]}),
    }
    used_page = {
        "/components/parameters/Page": {"name": "page", "in": "query", "schema": {"type": "integer"}},
        f"{GET}/parameters/1": {"$ref": "#/components/parameters/Page"},
    }
    rows = [
        K("info", "title", "/info", edits("Items", "Things", ("changed",))),
        K("info", "version", "/info", edits("1.0.0", "1.1.0", ("changed",))),
        K("info", "description", "/info", edits("a", "b")),
        K(
            "info",
            "termsOfService",
            "/info",
            edits("https://a.example.com/terms", "https://b.example.com/terms"),
        ),
        K("info", "contact", "/info", edits({"name": "a"}, {"name": "b"})),
        K(
            "info",
            "email",
            "/info/contact",
            edits("a@example.com", "b@example.com"),
            setup={"/info/contact": {"name": "a"}},
        ),
        K(
            "info",
            "url",
            "/info/contact",
            edits("https://a.example.com", "https://b.example.com"),
            setup={"/info/contact": {"name": "a"}},
            label="contact-url",
        ),
        K("info", "license", "/info", edits({"name": "MIT"}, {"name": "Apache-2.0"})),
        K(
            "info",
            "url",
            "/info/license",
            edits("https://a.example.com", "https://b.example.com"),
            setup={"/info/license": {"name": "MIT"}},
            label="license-url",
        ),
        K(
            "info",
            "identifier",
            "/info/license",
            edits("MIT", "Apache-2.0"),
            ("3.1",),
            setup={"/info/license": {"name": "MIT"}},
            label="license-identifier",
        ),
        K("info", "summary", "/info", edits("a", "b"), ("3.1",)),
        K(
            "server",
            "url",
            SERVER,
            edits("https://api.example.com/v1", "https://api.example.com/v2", ("changed",)),
        ),
        K("server", "description", SERVER, edits("a", "b")),
        K(
            "server",
            "variables",
            SERVER,
            edits({"region": {"default": "eu"}}, {"region": {"default": "us"}}),
            setup={SERVER: {"url": "https://{region}.example.com/v1"}},
        ),
        K("server-variable", "enum", variable, edits(["eu", "us"], ["eu"]), setup={SERVER: server}),
        K("server-variable", "default", variable, edits("eu", "us", ("changed",)), setup={SERVER: server}),
        K("server-variable", "description", variable, edits("a", "b"), setup={SERVER: server}),
        K("document", "1", "/servers", edits({"url": "https://b.example.com/v1"}), label="servers"),
        K("tag", "name", "/tags/0", edits("items", "things", ("changed",))),
        K("tag", "description", "/tags/0", edits("a", "b")),
        K(
            "tag",
            "externalDocs",
            "/tags/0",
            edits({"url": "https://a.example.com"}, {"url": "https://b.example.com"}),
        ),
        K("document", "1", "/tags", edits({"name": "other"}), label="tags"),
        K(
            "document",
            "externalDocs",
            "",
            edits({"url": "https://a.example.com"}, {"url": "https://b.example.com"}),
        ),
        K(
            "external-docs",
            "description",
            "/externalDocs",
            edits("a", "b"),
            setup={"/externalDocs": {"url": "https://a.example.com"}},
        ),
        K(
            "document",
            "jsonSchemaDialect",
            "",
            edits(
                "https://spec.openapis.org/oas/3.1/dialect/base",
                "https://json-schema.org/draft/2020-12/schema",
            ),
            ("3.1",),
        ),
        K("document", "x-note", "", edits("a", "b"), label="extension"),
        K("operation", "x-note", GET, edits("a", "b"), label="extension"),
        K("info", "x-note", "/info", edits("a", "b"), label="extension"),
        *[
            K(
                "components",
                "Unused",
                f"/components/{kind}",
                edits(*values),
                ("3.1",) if kind == "pathItems" else BOTH,
                label=f"unused-{kind}",
            )
            for kind, values in unused.items()
        ],
        K(
            "components",
            "required",
            "/components/parameters/Page",
            edits(True, False),
            setup=used_page,
            places=(f"{GET}/parameters/1",),
            label="used-parameter-required",
        ),
        K("webhooks", "deleted", "/webhooks", edits(webhook), ("3.1",), setup=hooked, label="webhook"),
        *_webhook_rows(webhook),
        K(
            "webhooks",
            "put",
            "/webhooks/saved",
            edits(webhook["post"]),
            ("3.1",),
            setup=hooked,
            label="method",
        ),
        K(
            "webhooks",
            "required",
            "/webhooks/saved/post/requestBody/content/application~1json/schema",
            edits(["a"]),
            ("3.1",),
            setup=hooked,
            label="request-required",
        ),
        K(
            "webhooks",
            "content",
            "/webhooks/saved/post/responses/200",
            edits({"application/json": {"schema": OBJ_A}}),
            ("3.1",),
            setup=hooked,
            label="response-content",
        ),
    ]
    return [*(_in_part(row) for row in rows), *_reference_rows(), *_extension_rows()]


def _extension_rows() -> list[K]:
    """An extension (`x-...`) may sit in every object but a Schema's subobjects; each is reported. Not in
    Paths: openapi-spec-validator 0.9 stops on one there (KeyError), so the document counts as invalid."""
    holders = {
        "path-item": ITEM,
        "parameter": QUERY,
        "request-body": BODY,
        "media-type": JSON_BODY,
        "encoding": f"{FORM}/encoding/meta",
        "responses": f"{GET}/responses",
        "response": OK,
        "header": HEADER,
        "link": LINK,
        "components": "/components",
        "security-scheme": f"{SCHEMES}/key",
        "oauth-flows": f"{SCHEMES}/oauth/flows",
        "oauth-flow": AUTH_CODE,
        "server": SERVER,
        "tag": "/tags/0",
    }
    rows = [K(name, "x-note", holder, edits("a", "b"), label="extension") for name, holder in holders.items()]
    return [_in_part(replace(row, places=USES) if "securitySchemes" in row.holder else row) for row in rows]


def _reference_rows() -> list[K]:
    """Reference Objects: the target changed (3.0 and 3.1), and 3.1's `summary`/`description` beside a `$ref`,
    which override the target's."""
    page = {"name": "page", "in": "query", "schema": {"type": "integer"}}
    parameters = {
        "/components/parameters/Page": page,
        "/components/parameters/Size": {**page, "name": "size"},
        f"{GET}/parameters/1": {"$ref": "#/components/parameters/Page"},
    }
    a, b = (
        {"content": {"application/json": {"schema": OBJ_A}}},
        {"content": {"application/json": {"schema": STR}}},
    )
    bodies = {
        "/components/requestBodies/A": a,
        "/components/requestBodies/B": b,
        BODY: {"$ref": "#/components/requestBodies/A"},
    }
    responses = {
        "/components/responses/A": {"description": "a", **a},
        "/components/responses/B": {"description": "b", **b},
        f"{GET}/responses/404": {"$ref": "#/components/responses/A"},
    }
    headers = {
        "/components/headers/A": {"schema": STR},
        "/components/headers/B": {"schema": {"type": "integer"}},
        HEADER: {"$ref": "#/components/headers/A"},
    }
    rows = [
        K(
            "reference",
            "$ref",
            f"{GET}/parameters/1",
            edits("#/components/parameters/Page", "#/components/parameters/Size", ("changed",)),
            setup=parameters,
            label="parameter",
        ),
        K(
            "reference",
            "$ref",
            BODY,
            edits("#/components/requestBodies/A", "#/components/requestBodies/B", ("changed",)),
            setup=bodies,
            label="requestBody",
        ),
        K(
            "reference",
            "$ref",
            f"{GET}/responses/404",
            edits("#/components/responses/A", "#/components/responses/B", ("changed",)),
            setup=responses,
            label="response",
        ),
        K(
            "reference",
            "$ref",
            HEADER,
            edits("#/components/headers/A", "#/components/headers/B", ("changed",)),
            setup=headers,
            label="header",
        ),
        K("reference", "description", f"{GET}/parameters/1", edits("a", "b"), ("3.1",), setup=parameters),
        K("reference", "summary", f"{GET}/parameters/1", edits("a", "b"), ("3.1",), setup=parameters),
    ]
    return [replace(row, places=(*row.places, "/components")) for row in rows]


def _in_part(row: K) -> K:
    """Info, servers and tags are parts outside operations: the plan reports a change to one once, at the
    part's own pointer (`/info`, `/servers`, `/tags`), which then counts as the edited place too."""
    part = "/" + f"{row.holder}/".split("/")[1]
    return replace(row, places=(*row.places, part)) if part in ("/info", "/servers", "/tags") else row


def _webhook_rows(webhook: dict[str, Any]) -> list[K]:
    """A webhook's operation, its parameters, responses and security; a webhook behind a `$ref`."""
    hooked = {"/webhooks/saved": webhook}
    post = "/webhooks/saved/post"
    signature = {"name": "X-Signature", "in": "header", "required": True, "schema": STR}
    rows = [
        K(
            "webhooks",
            "parameters",
            post,
            edits([signature], [{**signature, "required": False}]),
            label="parameters",
        ),
        K(
            "webhooks",
            "202",
            f"{post}/responses",
            edits({"description": "accepted"}),
            label="response-status",
        ),
        # without its own requirement a webhook has the document's: the change may show there
        K(
            "webhooks",
            "security",
            post,
            edits([{"basic": []}], [{"key": []}]),
            places=("/security",),
            label="security",
        ),
        K("webhooks", "summary", post, edits("a", "b"), label="summary"),
        K("webhooks", "deprecated", post, edits(True, False), label="deprecated"),
        K("webhooks", "operationId", post, edits("hooks.saved", "hooks.stored"), label="operationId"),
        K(
            "webhooks",
            "maxLength",
            f"{post}/requestBody/content/application~1json/schema/properties/a",
            edits(5, 10),
            label="request-maxLength",
        ),
    ]
    referenced = {
        "/components/pathItems/A": webhook,
        "/components/pathItems/B": {"put": webhook["post"]},
        "/webhooks/saved": {"$ref": "#/components/pathItems/A"},
    }
    ref = K(
        "webhooks",
        "$ref",
        "/webhooks/saved",
        edits("#/components/pathItems/A", "#/components/pathItems/B", ("changed",)),
        ("3.1",),
        setup=referenced,
        places=("/components/pathItems",),
        label="path-item-ref",
    )
    return [*(replace(row, versions=("3.1",), setup=hooked) for row in rows), ref]
