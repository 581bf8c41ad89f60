"""CORS, so that a web page on another origin can call the mock (docs/design.md, Browsers and CORS).

Starlette's CORSMiddleware, with what the design asks on top:

- Any `Origin` is echoed in `Access-Control-Allow-Origin`, with
  `Access-Control-Allow-Credentials: true` and `Vary: Origin`; `origins` (serve's repeatable
  `--cors-origin`) limits them. A request from an origin not allowed is answered exactly as
  with CORS off: no `Access-Control-*` header at all, and a preflight goes on to the app
  (a 405, as every OPTIONS is without CORS).
- A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) on any path is a 204
  here, before the read cache, security or validation: the methods of that path in the
  document, every requested header (`Access-Control-Request-Headers` echoed) and
  `Access-Control-Max-Age`. A path the document does not have (the admin API, Swagger UI, a
  typo) allows every method the mock serves: the request itself then gets that route's own
  answer, a 405 with `Allow` or a 404, which the page can read.
- Every answer to an allowed origin (errors and the read cache's answers too) exposes
  `X-Total-Count` and the other headers a client reads (`EXPOSED`).
- A request without `Origin` (curl, a test client, a same-origin page) goes straight through:
  one scan of the raw header list, nothing else.

It must be the outermost middleware of the app, so that it sees every answer and a preflight
reaches nothing else (`create_app` adds it first at connexion's BEFORE_EXCEPTION position).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response
from starlette.types import Scope

from .guards import allowed_methods

EXPOSED = ("X-Total-Count", "Allow", "WWW-Authenticate", "Retry-After")
ANY_METHOD = ("GET", "POST", "PUT", "PATCH", "DELETE")  # for the paths the document does not have
MAX_AGE = 600  # seconds a browser may keep a preflight's answer
ORIGIN = b"origin"  # the request header that makes a request a CORS one


def normalize_origin(url: str) -> str:
    """`scheme://host[:port]` as a browser sends it in `Origin` (lower case, no trailing slash);
    ValueError for anything else (a path, a query, no scheme)."""
    text = url.strip().rstrip("/")
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # raises ValueError on a port that is not a number
    except ValueError:
        raise ValueError(f"{url!r} is not an origin such as http://localhost:3000") from None
    if text == "null":  # what a page opened from a file:// URL sends
        return text
    if not parts.scheme or not parts.hostname or parts.path or parts.query or parts.fragment:
        raise ValueError(f"{url!r} is not an origin such as http://localhost:3000 (scheme://host[:port])")
    return text.lower()


class CORS(CORSMiddleware):
    """ASGI middleware: CORS for any origin, or for `origins` only."""

    def __init__(self, app: Any, origins: Sequence[str] | None = None):
        super().__init__(
            app,
            allow_origins=["*"] if origins is None else [normalize_origin(o) for o in origins],
            allow_methods=ANY_METHOD,
            allow_headers=["*"],
            allow_credentials=True,
            expose_headers=EXPOSED,
            max_age=MAX_AGE,
        )

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        origin = None
        if scope["type"] == "http":
            for name, value in scope["headers"]:
                if name == ORIGIN:
                    origin = value.decode("latin-1")
                    break
        if origin is None or not self.is_allowed_origin(origin):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        if scope["method"] == "OPTIONS" and "access-control-request-method" in headers:
            await self.preflight(scope["path"], origin, headers)(scope, receive, send)
            return
        await self.simple_response(scope, receive, send, request_headers=headers)

    def preflight(self, path: str, origin: str, request_headers: Headers) -> Response:
        """204 allowing this path's methods and whatever headers were asked for."""
        headers = dict(self.preflight_headers)  # Vary, Max-Age, Allow-Credentials
        headers["Access-Control-Allow-Origin"] = origin
        headers["Access-Control-Allow-Methods"] = ", ".join(allowed_methods(path) or ANY_METHOD)
        requested = request_headers.get("access-control-request-headers")
        if requested:
            headers["Access-Control-Allow-Headers"] = requested
        return Response(status_code=204, headers=headers)

    async def send(self, message: Any, send: Any, request_headers: Headers) -> None:
        if message["type"] == "http.response.start":
            message = dict(message)  # the read cache keeps the original start message: add to a copy
        await super().send(message, send, request_headers)
