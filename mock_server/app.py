"""The mock's Connexion 3 AsyncApp, built from the one document in `openapi/`.

Here live the pieces that tie HTTP to the store: security (API key AND Basic), the
resolver that binds each operationId to its handler with the app's store, the one
place where every error becomes the `{code, message}` body, and the guards against
connexion's known pitfalls (see mock_server/guards.py).

Only connexion's documented API is used here; whatever goes beyond it (the validators with
the mock's format checker, the fast paths) comes from compat/connexion.py.
"""

# connexion has no types: to mypy its Resolver, subclassed here, is Any, which strict mode refuses.
# mypy: allow-subclassing-any

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import logging
import secrets
from collections.abc import AsyncIterator, Callable, Coroutine, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import connexion
from connexion.context import context, request
from connexion.exceptions import ProblemException, ResolverError
from connexion.lifecycle import ConnexionRequest, ConnexionResponse
from connexion.middleware import MiddlewarePosition
from connexion.options import SwaggerUIOptions
from connexion.resolver import Resolver
from starlette.exceptions import HTTPException
from starlette.requests import Request

from ..openapi import DOCUMENT_PATH, load_document
from . import admin as admin_routes
from .cache import ReadCache
from .compat.connexion import (
    FAST_SECURITY_MAP,
    FastURIParser,
    fast_jsonifier,
    fast_middlewares,
    use_fast_operations,
    validator_map,
)
from .control import Controls
from .cors import CORS
from .engine import Engine, EngineMiddleware
from .engine.changes import writes
from .errors import ApiError, InvalidInput
from .front import Front
from .guards import REFUSED, UPLOADS, GuardMiddleware, allowed_methods, error_response
from .handlers import Ctx, handler_for
from .sessions import MAX_SESSIONS, SESSION, Session, Sessions, Template
from .sessions import TTL as SESSION_TTL
from .shield import Shield, ShieldOptions
from .store import Store
from .store.core import utcnow

log = logging.getLogger("csapi.mock")
# connexion warns on every request to an operation with several body media types
# ("this operation accepts multiple content types"); the document has three on purpose.
logging.getLogger("connexion.operations.openapi3").setLevel(logging.ERROR)

MAX_BODY_BYTES = 10 * 1024 * 1024
_PROBLEM_CODES = {
    400: "invalid_input",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def create_app(
    store: Store | None = None,
    *,
    api_key: str | None = None,
    clock: Callable[[], datetime] = utcnow,
    admin: bool = True,
    validate_responses: bool = False,
    fixtures: str = "default",
    seed: int = 0,
    max_body: int = MAX_BODY_BYTES,
    on_shutdown: Callable[[], None] | None = None,
    cache: bool = True,
    background: Callable[[], Coroutine[Any, Any, None]] | None = None,
    document: str | Path = DOCUMENT_PATH,
    fast_paths: bool = True,
    strict_requests: bool = False,
    cors: bool = True,
    cors_origins: Sequence[str] | None = None,
    controls: Controls | None = None,
    max_sessions: int = MAX_SESSIONS,
    session_ttl: float = SESSION_TTL,
    engine: Engine | None = None,
    shield: ShieldOptions | None = None,
) -> connexion.AsyncApp:
    """The mock as an ASGI app. Without a store, one is made from the `fixtures` set and `seed`.

    Its `state` carries `store` and `api_key` for the CLI and the tests; `on_shutdown` runs
    when the server stops gracefully (serve saves the state there). `cache` keeps GET answers
    until the next change of the store (mock_server/cache.py). `background` runs while
    the app serves (serve's autosave); it is cancelled, and awaited, before `on_shutdown`.
    `document` is the OpenAPI file to route and validate by: an edited copy for
    `csapi validate --drift` (the guards still read the project's own).
    `fast_paths=False` runs on connexion's documented behaviour alone, without the work-saving
    internals of compat/connexion.py: the same answers, more slowly (the tests run both ways).
    `strict_requests` refuses (400) unknown query parameters and body fields, which the mock
    otherwise ignores with a finding, as the real service does (tolerance.py).
    `cors` answers browsers on other origins (cors.py): any origin, or only `cors_origins`.
    `controls` holds the request journal, the faults and Prefer's settings (control.py); without
    it the app makes its own from `seed`, on `state.controls`.
    `store` and `controls` are the default session's; `X-Mock-Session: NAME` selects another,
    made on first use from `fixtures` and `seed` (sessions.py, on `state.sessions`): at most
    `max_sessions` of them, each dropped after `session_ttl` idle seconds.
    `engine` (engine/) makes the sessions a replica of a shared engine's state, joined here:
    every write goes through its log (`serve --engine`, `--workers`).
    `shield` is the front door (shield.py): the admin API out of reach of web pages, the Host
    check of a loopback bind, serve's --admin-token; outermost of all.
    """
    shared = engine.meta() if engine is not None else None
    if shared is not None:  # a shared engine's key, fixtures and seed are every worker's
        api_key, fixtures, seed = shared["api_key"], shared["fixtures"], shared["seed"]
    if store is None:
        from ..fixtures import generate

        store = Store(clock=clock, data=generate(fixtures, seed))
    state = _AppState(store, api_key or secrets.token_hex(16), engine)
    controls = state.controls = controls if controls is not None else Controls(seed=seed)
    sessions = state.sessions = Sessions(
        Session(None, store, controls), Template(fixtures, seed), max_sessions=max_sessions, ttl=session_ttl
    )
    if engine is not None:  # the sessions become its replica (its state, if it has one already)
        engine.attach(sessions, {"api_key": state.api_key, "fixtures": fixtures, "seed": seed})
    app = connexion.AsyncApp(
        __name__,
        security_map=FAST_SECURITY_MAP if fast_paths else None,
        middlewares=fast_middlewares() if fast_paths else None,
        jsonifier=fast_jsonifier() if fast_paths else None,
        lifespan=_lifespan(on_shutdown, background, engine),
    )
    if fast_paths:
        use_fast_operations(app)
    app.add_api(
        _with_check_functions(load_document(document)),  # parsed here in C; connexion's takes 0.5 s
        resolver=_StoreResolver(),
        validator_map=validator_map(fast=fast_paths),
        uri_parser_class=FastURIParser if fast_paths else None,
        strict_validation=strict_requests,
        validate_responses=validate_responses,
        swagger_ui_options=SwaggerUIOptions(swagger_ui_path="/v1/ui", spec_path="/v1/openapi.json"),
    )
    for exc_class, handler in _ERROR_HANDLERS.items():
        app.add_error_handler(exc_class, handler)
    # The first added here is the outermost: the front door (shield.py), CORS (preflights reach
    # nothing below), the session (everything below finds its store and controls at scope[SESSION]),
    # the journal (it sees every answer below it) and the controls (they answer before the cache and
    # the operation): front.py
    shield = shield or ShieldOptions()
    if cors_origins is not None and shield.admin_origins:  # an admin page gets CORS everywhere
        cors_origins = [*cors_origins, *shield.admin_origins]
    app.add_middleware(Shield, position=MiddlewarePosition.BEFORE_EXCEPTION, options=shield)
    if engine is not None:  # before anything reads the state, the worker catches up with the log
        wrap = functools.partial(CORS, origins=cors_origins) if cors else None  # the 503 for pages too
        app.add_middleware(
            EngineMiddleware, position=MiddlewarePosition.BEFORE_EXCEPTION, engine=engine, wrap=wrap
        )
    front = {"sessions": sessions, "cors": cors, "cors_origins": cors_origins}
    app.add_middleware(Front, position=MiddlewarePosition.BEFORE_EXCEPTION, **front)
    if cache:  # then the cache: a repeated read skips everything below
        app.add_middleware(ReadCache, position=MiddlewarePosition.BEFORE_EXCEPTION, store=store)
    guard = {"max_body": max_body, "strict": strict_requests}
    app.add_middleware(GuardMiddleware, position=MiddlewarePosition.BEFORE_EXCEPTION, **guard)
    app.add_middleware(_WithState, position=MiddlewarePosition.BEFORE_SECURITY, state=state)
    if admin:
        admin_routes.mount(app, sessions, state.api_key, engine)
    app.state = state
    return app


def _lifespan(
    on_shutdown: Callable[[], None] | None,
    background: Callable[[], Coroutine[Any, Any, None]] | None,
    engine: Engine | None = None,
) -> Callable[[Any], Any]:
    @contextlib.asynccontextmanager
    async def lifespan(app: Any) -> AsyncIterator[None]:
        task = asyncio.create_task(background()) if background is not None else None
        yield
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)  # its end is its own business
        if on_shutdown is not None:
            on_shutdown()
        if engine is not None:
            engine.close()

    return lifespan


class _AppState:
    def __init__(self, store: Store, api_key: str, engine: Engine | None = None):
        self.store = store
        self.api_key = api_key
        self.engine = engine
        self.controls: Controls  # the journal and the faults (control.py), set by create_app
        self.sessions: Sessions  # the default session (this store, these controls) and the named ones


# ---------------------------------------------------------------------- security
# connexion finds a security check function only by its dotted name (`x-apikeyInfoFunc`,
# `x-basicInfoFunc` in the document, or an environment variable): a function of this module,
# the same for every app. It learns the app's key from the request, whose scope `_WithState` gave
# it (a closure per app could only be handed over through connexion's internals), and the store
# from the request's session (`scope[SESSION]`, sessions.py): the key is the server's, users are
# the session's.
STATE = "csapi.app"  # scope key: the _AppState of the app serving the request


class _WithState:
    """ASGI middleware putting the app's state in each request's scope, for the check functions."""

    def __init__(self, app: Any, state: _AppState):
        self.app = app
        self.state = state

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        scope[STATE] = self.state
        await self.app(scope, receive, send)


def check_api_key(apikey: str, request: ConnexionRequest) -> dict[str, Any] | None:
    """connexion's API key check (`x-apikeyInfoFunc`): the app's key, compared in constant time."""
    expected = request.scope[STATE].api_key
    return {"sub": "api-key"} if hmac.compare_digest(apikey.encode(), expected.encode()) else None


def check_basic(username: str, password: str, request: ConnexionRequest) -> dict[str, Any] | None:
    """connexion's Basic check (`x-basicInfoFunc`): a user of the session's store, id and token."""
    user = request.scope[SESSION].store.user_for_credentials(username, password)
    return {"sub": user.id} if user is not None else None


def _with_check_functions(spec: dict[str, Any]) -> dict[str, Any]:
    """The document with its API key and Basic schemes naming the check functions, connexion's
    documented way (they show in /v1/openapi.json too). `spec` is this app's own parse of the
    document, so changing it is safe."""
    for scheme in spec.get("components", {}).get("securitySchemes", {}).values():
        if scheme.get("type") == "apiKey":
            scheme["x-apikeyInfoFunc"] = f"{__name__}.{check_api_key.__name__}"
        elif scheme.get("type") == "http" and str(scheme.get("scheme", "")).lower() == "basic":
            scheme["x-basicInfoFunc"] = f"{__name__}.{check_basic.__name__}"
    return spec


# ---------------------------------------------------------------------- resolver
class _StoreResolver(Resolver):
    """operationId `<resource>.<function>` -> handlers.<resource>.<function>, called with the
    store of the request's session."""

    def resolve_function_from_operation_id(self, operation_id: str) -> Callable[..., Any]:
        try:
            handler = handler_for(operation_id)
        except LookupError as exc:
            raise ResolverError(str(exc)) from exc
        return _bind(handler, operation_id)


_READS = frozenset({"GET", "HEAD", "OPTIONS"})
_SEARCH = "search.search"  # the operation reading the search index (store/core.py)


def _bind(handler: Callable[..., Any], operation_id: str) -> Callable[..., Any]:
    async def endpoint(**params: Any) -> Any:
        scope = request.scope
        refused = scope.get(REFUSED)
        if refused is not None:  # --strict-requests: an unknown body field (guards.py)
            raise InvalidInput(refused)
        session = scope[SESSION]
        store: Store = session.store
        token_info = context.get("token_info") or {}
        caller_id = (token_info.get("basicAuth") or {}).get("sub")
        uploads = scope.get(UPLOADS) or {}
        method = scope["method"]
        engine = scope[STATE].engine
        if engine is not None and writes(operation_id, method, params):  # through the shared log
            args = {"params": params, "caller_id": caller_id, "base_url": base_url(scope)}
            return engine.submit(
                session.name, "operation", operation_id=operation_id, uploads=uploads, **args
            )
        caller = store.accounts.get(caller_id) if caller_id is not None else None
        if operation_id == _SEARCH:  # its first build in slices: everyone else is served meanwhile
            await store.search_index_ready()
        result = handler(Ctx(store, caller, base_url(scope), uploads), **params)
        if method not in _READS:  # it did not raise: it changed the state (or may have)
            store.generation += 1
        return result

    endpoint.__wrapped__ = handler  # type: ignore[attr-defined]  # connexion reads the parameters here
    endpoint.__name__ = handler.__name__
    return endpoint


_BASE_URLS: dict[tuple[Any, ...], str] = {}


def base_url(scope: Any) -> str:
    """`str(request.base_url)`, remembered per scheme, server, root path and Host header (all it
    depends on): starlette copies the scope and builds a URL for it on every request."""
    host = next((value for name, value in scope["headers"] if name == b"host"), None)
    server = scope.get("server")
    key = (
        scope.get("scheme", "http"),
        tuple(server) if server is not None else None,
        scope.get("app_root_path", scope.get("root_path", "")),
        host,
    )
    found = _BASE_URLS.get(key)
    if found is None:
        if len(_BASE_URLS) >= 256:  # a client chooses the Host header: a bound
            _BASE_URLS.clear()
        found = _BASE_URLS[key] = str(Request(scope).base_url)
    return found


# ---------------------------------------------------------------------- errors, in one place
async def _api_error(request: ConnexionRequest, exc: ApiError) -> ConnexionResponse:
    return error_response(exc.status, exc.code, exc.message)


async def _problem(request: ConnexionRequest, exc: ProblemException) -> ConnexionResponse:
    message = str(exc.detail or exc.title or "invalid request")
    status = exc.status if 400 <= exc.status < 500 else 400
    return error_response(status, _PROBLEM_CODES.get(status, "invalid_input"), message, headers=exc.headers)


async def _http_error(request: ConnexionRequest, exc: HTTPException) -> ConnexionResponse:
    if exc.status_code == 405:
        methods = allowed_methods(request.url.path)
        message = f"{request.method} is not allowed here; use {', '.join(methods)}."
        return error_response(405, "method_not_allowed", message, headers={"Allow": ", ".join(methods)})
    if exc.status_code == 404:
        return error_response(404, "not_found", f"No operation at {request.url.path}.")
    status = exc.status_code if 400 <= exc.status_code < 500 else 400
    return error_response(status, _PROBLEM_CODES.get(status, "invalid_input"), str(exc.detail))


async def _unexpected(request: ConnexionRequest, exc: Exception) -> ConnexionResponse:
    # A bug of the mock: log it whole, answer without internals.
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return error_response(500, "internal_error", "The mock failed on this request; see its log.")


_ERROR_HANDLERS: dict[type[Exception], Callable[..., Any]] = {
    ApiError: _api_error,
    ProblemException: _problem,
    HTTPException: _http_error,
    Exception: _unexpected,
}
