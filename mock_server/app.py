"""The mock's Connexion 3 AsyncApp, built from the one document in `openapi/`.

Here live the pieces that tie HTTP to the store: security (API key AND Basic), the
resolver that binds each operationId to its handler with the app's store, the one
place where every error becomes the `{code, message}` body, and the guards against
connexion's known pitfalls (see mock_server/guards.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import importlib
import logging
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
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
from connexion.security import ApiKeySecurityHandler, BasicSecurityHandler
from starlette.exceptions import HTTPException

from ..openapi import DOCUMENT_PATH, load_document
from . import admin as admin_routes
from . import speedups
from .cache import ReadCache
from .errors import ApiError
from .guards import UPLOADS, GuardMiddleware, allowed_methods, error_response
from .handlers import Ctx
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
    background: Callable[[], Awaitable[None]] | None = None,
    document: str | Path = DOCUMENT_PATH,
) -> connexion.AsyncApp:
    """The mock as an ASGI app. Without a store, one is made from the `fixtures` set and `seed`.

    Its `state` carries `store` and `api_key` for the CLI and the tests; `on_shutdown` runs
    when the server stops gracefully (serve saves the state there). `cache` keeps GET answers
    until the next change of the store (mock_server/cache.py). `background` runs while
    the app serves (serve's autosave); it is cancelled, and awaited, before `on_shutdown`.
    `document` is the OpenAPI file to route and validate by: an edited copy for
    `csapi validate --drift` (the guards still read the project's own).
    """
    if store is None:
        from ..fixtures import generate

        store = Store(clock=clock, data=generate(fixtures, seed))
    api_key = api_key or secrets.token_hex(16)
    app = connexion.AsyncApp(
        __name__, security_map=_security_map(store, api_key), lifespan=_lifespan(on_shutdown, background)
    )
    speedups.use_fast_operations(app)
    app.add_api(
        load_document(document),  # parsed here in C; connexion's own parse takes half a second
        resolver=_StoreResolver(store),
        validator_map=speedups.VALIDATOR_MAP,
        strict_validation=True,
        validate_responses=validate_responses,
        swagger_ui_options=SwaggerUIOptions(swagger_ui_path="/v1/ui", spec_path="/v1/openapi.json"),
    )
    for exc_class, handler in _ERROR_HANDLERS.items():
        app.add_error_handler(exc_class, handler)
    if cache:  # outermost: a repeated read skips everything below
        app.add_middleware(ReadCache, position=MiddlewarePosition.BEFORE_EXCEPTION, store=store)
    app.add_middleware(GuardMiddleware, position=MiddlewarePosition.BEFORE_EXCEPTION, max_body=max_body)
    if admin:
        admin_routes.mount(app, store, api_key)
    app.state = _AppState(store, api_key)
    return app


def _lifespan(
    on_shutdown: Callable[[], None] | None, background: Callable[[], Awaitable[None]] | None
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

    return lifespan


class _AppState:
    def __init__(self, store: Store, api_key: str):
        self.store = store
        self.api_key = api_key


# ---------------------------------------------------------------------- security
def _security_map(store: Store, api_key: str) -> dict[str, type]:
    """Security handlers bound to this app's key and store (connexion looks them up by type)."""

    def check_key(key: str, required_scopes: Any = None) -> dict[str, Any] | None:
        return {"sub": "api-key"} if hmac.compare_digest(key.encode(), api_key.encode()) else None

    def check_basic(username: str, password: str, required_scopes: Any = None) -> dict[str, Any] | None:
        user = store.user_for_credentials(username, password)
        return {"sub": user.id} if user is not None else None

    class ApiKey(ApiKeySecurityHandler):
        _accepts_kwarg = staticmethod(speedups.accepts_kwarg)

        def _resolve_func(self, security_scheme: dict[str, Any]) -> Callable[..., Any]:
            return check_key

    class Basic(BasicSecurityHandler):
        _accepts_kwarg = staticmethod(speedups.accepts_kwarg)

        def _resolve_func(self, security_scheme: dict[str, Any]) -> Callable[..., Any]:
            return check_basic

    return {"apiKey": ApiKey, "basic": Basic}


# ---------------------------------------------------------------------- resolver
class _StoreResolver(Resolver):
    """operationId `<resource>.<function>` -> handlers.<resource>.<function>, bound to the store."""

    def __init__(self, store: Store):
        super().__init__()
        self.store = store

    def resolve_function_from_operation_id(self, operation_id: str) -> Callable[..., Any]:
        module, name = operation_id.rsplit(".", 1)
        try:
            handler = getattr(importlib.import_module(f".handlers.{module}", __package__), name)
        except (ImportError, AttributeError) as exc:
            raise ResolverError(f"no handler for {operation_id}") from exc
        return _bind(handler, self.store)


_READS = frozenset({"GET", "HEAD", "OPTIONS"})


def _bind(handler: Callable[..., Any], store: Store) -> Callable[..., Any]:
    async def endpoint(**params: Any) -> Any:
        token_info = context.get("token_info") or {}
        caller_id = (token_info.get("basicAuth") or {}).get("sub")
        caller = store.accounts.get(caller_id) if caller_id is not None else None
        uploads = request.scope.get(UPLOADS) or {}
        result = handler(Ctx(store, caller, str(request.base_url), uploads), **params)
        if request.method not in _READS:  # it did not raise: it changed the state (or may have)
            store.generation += 1
        return result

    endpoint.__wrapped__ = handler  # type: ignore[attr-defined]  # connexion reads the parameters here
    endpoint.__name__ = handler.__name__
    return endpoint


# ---------------------------------------------------------------------- errors, in one place
async def _api_error(request: ConnexionRequest, exc: ApiError) -> ConnexionResponse:
    return error_response(exc.status, exc.code, exc.message, errors=exc.errors)


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
