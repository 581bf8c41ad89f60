"""The routing fast paths (mock_server/compat/routing.py) route as connexion's own middlewares do.

Each fast middleware and connexion's own are given the app's API and the same requests: every
path template of the document with a few values for its parameters, each with and without a
trailing slash, under every method, and unknown paths, admin and Swagger UI paths. What reaches
the next app (the scope, connexion's routing context included), what is sent (a 405, a redirect),
what is raised and what is left in the caller's scope must be the same; every operation's own
path and method must take the fast path.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from starlette.routing import BaseRoute, Router

from csapi.mock_server.app import create_app
from csapi.mock_server.compat.routing import (
    FastRoutingMiddleware,
    FastSwaggerUIMiddleware,
    RouteIndex,
    RoutingMiddleware,
    SwaggerUIMiddleware,
)
from csapi.openapi import DOCUMENT_PATH, load_document

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
VALUES = ("7", "007", "-2", "+3", "1.5", "x", "a%20b", "")
OTHERS = (
    "/",
    "",
    "/v1",
    "/v1/",
    "/v1/nothing",
    "/v1/items/7/nothing",
    "/v1/items/7\n",
    "/v1/items\n",
    "/v1//items",
    "/v2/items",
    "/__mock__/reset",
    "/__mock__/faults/3",
    "/v1/ui",
    "/v1/ui/",
    "/v1/ui//",
    "/v1/ui/index.html",
    "/v1/ui/swagger-ui.css",
    "/v1/openapi.json",
    "/v1/openapi.json/",
    "/v1/openapi.yaml",
)


def _paths(values: tuple[str, ...]) -> list[str]:
    paths = list(OTHERS)
    for template in load_document(DOCUMENT_PATH)["paths"]:
        for value in values:
            path = re.sub(r"\{[^}]*\}", value, template)
            paths += [path, path + "/"]
    return paths


def _scope(method: str, path: str, root_path: str = "") -> dict[str, Any]:
    return {
        "type": "http",
        "method": method,
        "path": root_path + path,
        "root_path": root_path,
        "query_string": b"",
        "headers": [(b"host", b"testserver")],
        "scheme": "http",
        "server": ("testserver", 80),
        "http_version": "1.1",
    }


def _plain(value: Any) -> Any:
    """A scope's value comparable between two middlewares' routers: routes by path and methods."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Router):
        return "router"
    if isinstance(value, BaseRoute):
        return (
            type(value).__name__,
            getattr(value, "path", None),
            sorted(getattr(value, "methods", None) or []),
        )
    if hasattr(value, "operation_id"):  # connexion's RoutingOperation
        return ("operation", value.operation_id)
    if callable(value):  # by name: the Swagger UI's document endpoints are compat's overrides
        return ("callable", getattr(value, "__name__", type(value).__qualname__))
    return value


async def _route(middleware: Any, scope: dict[str, Any]) -> Any:
    sent: list[Any] = []

    received = False

    async def receive() -> dict[str, Any]:
        nonlocal received
        if received:  # a response listening for the client leaving: it stays
            await asyncio.Event().wait()
        received = True
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append({k: v for k, v in message.items() if k != "body"})

    try:
        await middleware(scope, receive, send)
        raised = None
    except Exception as exc:  # a 405 raised as starlette does, the same for both
        raised = (type(exc).__name__, getattr(exc, "status_code", None), getattr(exc, "headers", None))
    return _plain(scope), sent, raised, _plain(middleware.app.seen)


class _Next:
    """The next app: keeps the scope it is handed."""

    def __init__(self) -> None:
        self.seen: dict[str, Any] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.seen = dict(scope)


def _pair(fast: type, own: type) -> tuple[Any, Any]:
    apis = create_app(api_key="k", fixtures="empty").middleware.apis
    made = []
    for cls in (fast, own):
        middleware = cls(_Next())
        for api in apis:
            middleware.add_api(api.specification, base_path=api.base_path, **api.kwargs)
        made.append(middleware)
    return made[0], made[1]


@pytest.mark.parametrize(
    ("fast", "own", "values", "methods", "least"),
    [
        (FastRoutingMiddleware, RoutingMiddleware, VALUES, METHODS, 5000),
        # the Swagger UI's routes are literal: parameter values and most methods change nothing
        (FastSwaggerUIMiddleware, SwaggerUIMiddleware, VALUES[:1], ("GET", "POST"), 300),
    ],
    ids=["routing", "swagger-ui"],
)
def test_the_fast_routing_routes_as_connexion_does(
    fast: type, own: type, values: tuple[str, ...], methods: tuple[str, ...], least: int
):
    fast_middleware, own_middleware = _pair(fast, own)

    async def check() -> int:
        compared = 0
        for root_path in ("", "/prefix"):
            for path in _paths(values):
                for method in methods:
                    fast_middleware.app.seen = own_middleware.app.seen = None
                    got = await _route(fast_middleware, _scope(method, path, root_path))
                    wanted = await _route(own_middleware, _scope(method, path, root_path))
                    assert got == wanted, (method, root_path + path)
                    compared += 1
        return compared

    assert asyncio.run(check()) > least


def test_every_operation_takes_the_fast_path():
    fast_middleware, _ = _pair(FastRoutingMiddleware, RoutingMiddleware)
    index = fast_middleware._build()
    assert isinstance(index, RouteIndex)
    found = 0
    for template, operations in load_document(DOCUMENT_PATH)["paths"].items():
        path = re.sub(r"\{[^}]*\}", "7", template)
        for method in operations:
            if method.upper() not in METHODS:
                continue
            hit = index.find(_scope(method.upper(), path))
            assert hit is not None, (method, path)
            assert hit[1].path.split("/")[:3] == template.split("/")[:3]
            found += 1
    assert found > 40
    assert index.find(_scope("GET", "/v1/nothing")) is None


def test_the_swagger_ui_fast_path_passes_api_paths_and_not_its_own():
    fast_middleware, _ = _pair(FastSwaggerUIMiddleware, SwaggerUIMiddleware)
    ui = fast_middleware._build()
    assert ui is not None
    assert fast_middleware._passes(_scope("GET", "/v1/items/7"), ui[1], ui[2])
    for own in ("/v1/ui", "/v1/ui/", "/v1/ui/index.html", "/v1/openapi.json", "/v1/openapi.json/"):
        assert not fast_middleware._passes(_scope("GET", own), ui[1], ui[2]), own


def test_the_documents_are_rendered_once_and_the_same_as_connexion_renders_them():
    """openapi.json and openapi.yaml: connexion's bytes, for each root path (its servers differ),
    rendered once per root path."""
    fast_middleware, own_middleware = _pair(FastSwaggerUIMiddleware, SwaggerUIMiddleware)

    async def body(middleware: Any, path: str, root_path: str) -> bytes:
        chunks: list[bytes] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            chunks.append(message.get("body", b""))

        await middleware(_scope("GET", path, root_path), receive, send)
        return b"".join(chunks)

    async def check() -> None:
        for path in ("/v1/openapi.json", "/v1/openapi.yaml"):
            wanted = {root_path: await body(own_middleware, path, root_path) for root_path in ("", "/prefix")}
            assert len(wanted[""]) > 10_000 and wanted[""] != wanted["/prefix"]  # the servers differ
            for root_path in wanted:
                for _ in range(2):
                    assert await body(fast_middleware, path, root_path) == wanted[root_path], (
                        root_path,
                        path,
                    )

    asyncio.run(check())
    mount = fast_middleware.router.routes[0]
    routes = [r for r in mount.app.routes if getattr(r, "path", "").endswith("openapi.json")]
    api = routes[0].endpoint.__self__
    assert len(api._rendered) == 4  # two documents, two root paths: each rendered once
