"""The shared engine of `serve --engine URL` (docs/design.md, "Shared deployments").

Without an engine the mock keeps its state in its process (the embedded default). With one,
every worker keeps a replica of the whole state in step with a log of changes the engine holds:
changes.py says what a change is and applies it, redis.py is the Redis engine. The URL's scheme
picks the engine (`redis://`, `rediss://`, `unix://`: Redis). `EngineMiddleware` catches a worker
up with the log before each request, and answers 503 `engine_unavailable` while the engine
cannot be reached.
"""

from __future__ import annotations

import json
from typing import Any

from ..control import ARRIVED
from ..errors import EngineUnavailable
from .changes import Change, apply
from .redis import RedisEngine, redacted

Engine = RedisEngine  # the one kind so far; another scheme would add a class with the same methods
SCHEMES = {"redis": RedisEngine, "rediss": RedisEngine, "unix": RedisEngine}

__all__ = ["Change", "Engine", "EngineMiddleware", "EngineUnavailable", "apply", "open_engine", "redacted"]


def open_engine(url: str) -> Engine:
    """The engine the URL names; ValueError for a scheme none serves."""
    scheme = url.partition("://")[0].lower() if "://" in url else ""
    engine = SCHEMES.get(scheme)
    if engine is None:
        shown = redacted(url)  # a password in it is never printed
        raise ValueError(f"{shown!r}: no engine for {scheme[:16] or 'this'}://; use redis://HOST:PORT/DB")
    return engine(url)


class EngineMiddleware:
    """ASGI middleware, outermost: the worker applies the log's new changes before anything else
    looks at the state (the read cache, the session, the security check), so a request sees every
    write acknowledged before it was sent, whichever worker took it. While the engine cannot be
    reached it answers 503 with the `{code, message}` body, and so does a write that cannot reach
    it from below (app.py raises it there; the controls' shared faults too). `wrap` puts the
    server's CORS layer around that answer, so a web page reads it too.

    One catch-up serves every request read before it was sent. Under `serve`, a request carries
    when its bytes were read (`ARRIVED`, compat/uvicorn.py); a write acknowledged before the client
    sent the request was in the log before then, so a catch-up (or an append, which returns the
    log up to its own entry) sent later has applied it: `engine.fresh_at` is when the last one
    that succeeded was sent. The requests uvicorn read in one turn of the event loop share one
    round trip to Redis instead of one each. Without the stamp (a test client), every request
    catches up."""

    def __init__(self, app: Any, engine: Engine, wrap: Any = None):
        self.app = app
        self.engine = engine
        self.unavailable = wrap(_unavailable) if wrap is not None else _unavailable

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        def watch(message: dict[str, Any]) -> Any:
            nonlocal started
            started = True
            return send(message)

        try:
            arrived = scope["state"].get(ARRIVED) if "state" in scope else None
            if arrived is None or arrived > self.engine.fresh_at:
                self.engine.catch_up()
            await self.app(scope, receive, watch)
        except EngineUnavailable as exc:
            if started:
                raise
            scope[_REASON] = exc
            await self.unavailable(scope, receive, send)


_REASON = "csapi.engine_unavailable"


async def _unavailable(scope: dict[str, Any], receive: Any, send: Any) -> None:
    exc: EngineUnavailable = scope[_REASON]
    body = json.dumps({"code": exc.code, "message": exc.message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
    await send({"type": "http.response.start", "status": 503, "headers": [*headers, (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": body})
