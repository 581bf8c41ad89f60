"""Routing fast paths: connexion 3.3's Swagger UI and routing middlewares, finding a route by its
path's shape instead of trying ~50 routes one regex at a time (part of compat/connexion.py's fast
paths, given through AsyncApp's documented `middlewares` by `fast_middlewares()`).

Both middlewares route with starlette Routers: a Mount of the API's base path over one Route per
operation (the routing middleware, ~50 routes) or over the Swagger UI's few routes. Per request,
starlette's Router calls each route's `matches` in order until one matches fully.

- `FastRoutingMiddleware`: the routes are indexed once by their number of segments and two of
  their segments (the third and the last, where those are literal, not parameters); a request
  tries only the routes its path could match, with starlette's own `Route.matches`, in the
  router's order, so the first full match is the one starlette's loop would find (a route left out
  cannot match: its literal segments differ, or its segment count, since no parameter's convertor
  matches a "/"). The scope is then changed as the Router and the Mount change it and the route's
  endpoint (connexion's `RoutingOperation`) runs as it would. Anything else (no full match: 404,
  405, a slash redirect; a path with a newline, which `$` and `.` treat apart; a request with a
  root path, as behind `serve --root-path`) goes through connexion's own router.
- `FastSwaggerUIMiddleware`: a path that is none of the Swagger UI's literal routes (nor under its
  static files' mount), nor is with its trailing slash added or removed (starlette's redirect
  check), would only reach the Router's default, which hands the scope copied on entry to the next
  app: here directly, after changing the scope as the outer Mount does.
  Its API (`_RenderedOnceAPI`) renders `openapi.json` and `openapi.yaml` once per base path, not
  on every request (the YAML held the event loop ~0.7 s each time).

Each index is built on the first request from the routers connexion made, and only for the shapes
seen here (one Mount of a base path without parameters over Routes and, for the Swagger UI, Routes
and Mounts without parameters); any other shape keeps connexion's routing.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)
# connexion has no types: to mypy the classes subclassed here are Any, which strict mode refuses.
# mypy: allow-subclassing-any

from __future__ import annotations

from typing import Any, cast

from ...openapi.compat import require

require("connexion", "3.3", "3.4")

import connexion.frameworks.starlette
from connexion.frameworks.starlette import FloatConverter, IntegerConverter
from connexion.jsonifier import Jsonifier
from connexion.middleware.routing import RoutingMiddleware
from connexion.middleware.routing import _scope as _routing_scope
from connexion.middleware.swagger_ui import SwaggerUIAPI, SwaggerUIMiddleware
from connexion.utils import yamldumper
from starlette.convertors import FloatConvertor, IntegerConvertor, StringConvertor
from starlette.responses import Response as StarletteResponse
from starlette.routing import Match, Mount, Route, Router
from starlette.types import Scope

# convertors whose regex never matches a "/": a parameter is one segment
_ONE_SEGMENT = (StringConvertor, IntegerConvertor, FloatConvertor, IntegerConverter, FloatConverter)
_NONE: Any = object()  # not built yet


def _plain_router(router: Any) -> bool:
    return type(router) is Router and router.middleware_stack == router.app


def _single_mount(router: Any) -> Mount | None:
    """The router's one Mount, if it is one of a path without parameters over a plain Router."""
    if not _plain_router(router) or len(router.routes) != 1:
        return None
    mount = router.routes[0]
    if type(mount) is not Mount or "{" in mount.path or not _plain_router(mount.app):
        return None
    return mount


def _router_of(mount: Mount) -> Router:
    """The Router under a Mount `_single_mount` gave (starlette types a Mount's app as any ASGI app)."""
    return cast(Router, mount.app)


def _literal(segment: str) -> str | None:
    return None if "{" in segment else segment


class RouteIndex:
    """The routes of `mount` (a base path over Routes) by their segment count and literal segments."""

    def __init__(self, mount: Mount) -> None:
        self.mount = mount
        shapes: dict[int, list[tuple[int, Route, str | None, str | None]]] = {}
        for index, route in enumerate(_router_of(mount).routes):
            if type(route) is not Route or not all(
                isinstance(c, _ONE_SEGMENT) for c in route.param_convertors.values()
            ):
                raise ValueError("a route of another kind")
            segments = route.path.split("/")
            n = len(segments)
            first, last = _literal(segments[min(2, n - 1)]), _literal(segments[-1])
            shapes.setdefault(n, []).append((index, route, first, last))
        # (segments, first, last) -> the routes a path of that shape may match, in the router's order;
        # first/last None: a path whose segment there is no route's literal
        self.candidates: dict[tuple[int, str | None, str | None], list[Route]] = {}
        self.literals: dict[int, tuple[set[str], set[str]]] = {}
        for n, routes in shapes.items():
            firsts = {f for _, _, f, _ in routes if f is not None}
            lasts = {a for _, _, _, a in routes if a is not None}
            self.literals[n] = (firsts, lasts)
            for f in [*firsts, None]:
                for a in [*lasts, None]:
                    self.candidates[(n, f, a)] = [
                        r for _, r, rf, ra in routes if rf in (None, f) and ra in (None, a)
                    ]

    def find(self, scope: dict[str, Any]) -> tuple[Scope, Route, Scope] | None:
        """(the Mount's child scope, the route, its child scope) starlette would find, or None."""
        path = scope["path"]
        if "\n" in path or scope.get("root_path"):  # a root path: left to starlette to strip
            return None
        matched, mount_scope = self.mount.matches(scope)
        if matched is not Match.FULL:
            return None
        segments = path.split("/")
        n = len(segments)
        literals = self.literals.get(n)
        if literals is None:
            return None
        first, last = segments[min(2, n - 1)], segments[-1]
        key = (n, first if first in literals[0] else None, last if last in literals[1] else None)
        for route in self.candidates[key]:
            matched, route_scope = route.matches(scope)  # the mount adds no parameter: same scope
            if matched is Match.FULL:
                return mount_scope, route, route_scope
        return None


class BoundedIntegerConverter(IntegerConverter):
    """connexion's `{id:int}` path converter ran int() on any run of digits while routing: from
    4300 digits it raised ValueError (a 500). Past guards.MAX_INT_DIGITS the value stays text,
    which connexion's coercion then refuses as not an integer (a 400)."""

    def convert(self, value: str) -> Any:
        return int(value) if len(value) <= _MAX_DIGITS else value


_MAX_DIGITS = 100  # guards.MAX_INT_DIGITS (not imported: guards comes after compat)
# connexion's RoutingMiddleware (both modes) registers `starlette_utils.IntegerConverter()` in
# starlette's global registry as each app is made, before compiling its routes: it makes this one.
connexion.frameworks.starlette.IntegerConverter = BoundedIntegerConverter


class FastRoutingMiddleware(RoutingMiddleware):
    """connexion's routing middleware, finding the route through a `RouteIndex` (module docstring)."""

    _index: Any = _NONE

    def add_api(self, *args: Any, **kwargs: Any) -> None:
        super().add_api(*args, **kwargs)
        self._index = _NONE

    def _build(self) -> RouteIndex | None:
        mount = _single_mount(self.router)
        if mount is None or mount.path != "":
            return None
        try:
            return RouteIndex(mount)
        except ValueError:
            return None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        index = self._index
        if index is _NONE:
            index = self._index = self._build()
        found = index.find(scope) if index is not None and scope["type"] == "http" else None
        if found is None:
            await super().__call__(scope, receive, send)
            return
        mount_scope, route, route_scope = found
        _routing_scope.set(scope.copy())  # as connexion's __call__, before its router changes the scope
        if "router" not in scope:  # what the Router, the Mount and its Router do to it
            scope["router"] = self.router
        scope["route"] = index.mount
        scope.update(mount_scope)
        scope["route"] = route
        scope.update(route_scope)
        await route.handle(scope, receive, send)  # a full match: the endpoint, RoutingOperation


class _RenderedOnceAPI(SwaggerUIAPI):
    """connexion's Swagger UI API, its `openapi.json` and `openapi.yaml` rendered once per base path
    (the request's root path puts it in the document's servers) instead of on every request: the
    YAML took ~0.7 s of the event loop each time, the JSON ~90 ms, every other client waiting.
    The same bytes, from connexion's own renderers."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._rendered: dict[tuple[str, str], str] = {}
        super().__init__(*args, **kwargs)  # registers the two methods below as the routes' endpoints

    async def _get_openapi_json(self, request: Any) -> StarletteResponse:
        return self._answer(request, "application/json", Jsonifier().dumps)

    async def _get_openapi_yaml(self, request: Any) -> StarletteResponse:
        return self._answer(request, "text/yaml", yamldumper)

    def _answer(self, request: Any, media_type: str, render: Any) -> StarletteResponse:
        key = (media_type, self._base_path_for_prefix(request))
        body = self._rendered.get(key)
        if body is None:
            body = render(self._spec_for_prefix(request))
            if len(self._rendered) < 16:  # a few root paths at most; any other is rendered each time
                self._rendered[key] = body
        return StarletteResponse(content=body, status_code=200, media_type=media_type)


class FastSwaggerUIMiddleware(SwaggerUIMiddleware):
    """connexion's Swagger UI middleware, passing a path none of its routes can take straight on,
    its API's documents rendered once (`_RenderedOnceAPI`)."""

    _ui: Any = _NONE

    def add_api(
        self,
        specification: Any,
        base_path: str | None = None,
        arguments: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        # connexion's add_api, line for line, with the API class above
        api = _RenderedOnceAPI(
            specification, base_path=base_path, arguments=arguments, default=self.default_fn, **kwargs
        )
        self.router.mount(api.base_path, app=api.router)
        self._ui = _NONE

    def _build(self) -> tuple[Mount, frozenset[str], tuple[str, ...]] | None:
        mount = _single_mount(self.router)
        if mount is None or mount.path != "":
            return None
        literal: set[str] = set()
        prefixes: list[str] = []
        # starlette types them BaseRoute (no path): connexion's Swagger UI router has Routes and Mounts
        for route in cast("list[Route | Mount]", _router_of(mount).routes):
            if "{" in route.path or type(route) not in (Route, Mount):
                return None
            if type(route) is Route:
                literal.add(route.path)
            else:
                prefixes.append(route.path + "/")
        return mount, frozenset(literal), tuple(prefixes)

    def _passes(self, scope: Any, literal: frozenset[str], prefixes: tuple[str, ...]) -> bool:
        if scope["type"] != "http" or scope.get("root_path", ""):
            return False
        path = scope["path"]
        if "\n" in path or not path.startswith("/"):
            return False
        toggled = path.rstrip("/") if path.endswith("/") else path + "/"  # starlette's redirect check
        if path == "/":
            toggled = path
        if path in literal or toggled in literal:
            return False
        return not (path.startswith(prefixes) or toggled.startswith(prefixes))

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        ui = self._ui
        if ui is _NONE:
            ui = self._ui = self._build()
        if ui is None or not self._passes(scope, ui[1], ui[2]):
            await super().__call__(scope, receive, send)
            return
        mount = ui[0]
        matched, mount_scope = mount.matches(scope)
        if matched is not Match.FULL:
            await super().__call__(scope, receive, send)
            return
        original = scope.copy()  # what default_fn hands on
        if "router" not in scope:
            scope["router"] = self.router
        scope["route"] = mount
        scope.update(mount_scope)
        await self.app(original, receive, send)
