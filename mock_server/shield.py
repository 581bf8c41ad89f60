"""The front door: the admin API (`/__mock__/`) out of reach of web pages, and of DNS rebinding
(docs/design.md, "Safe on a laptop"). The outermost layer of the app, before CORS.

Threat model: a developer runs the mock on a laptop and browses the web meanwhile; any page may
make the browser send requests to `http://127.0.0.1:8000`. The service's own routes are meant to
be called from pages (CORS for any origin, cors.py); the admin API hands out every credential and
replaces the state, so a page must neither read it nor write to it:

- No CORS for `/__mock__/`: a request to it from an origin not named by `--admin-origin` has its
  `Origin` header taken away here, so the layers below answer it as with CORS off (no
  `Access-Control-*` header; a preflight is not a 204, so the browser sends no JSON write and
  reads no answer).
- Admin writes (POST, PUT, PATCH, DELETE) take `application/json` only: a Content-Type of any
  other kind, or none on a write with a body, is a 415 and nothing changes. A plain HTML form
  (text/plain, urlencoded, multipart) or a no-cors fetch can send only those, without a preflight.
- An admin write whose `Origin` is another origin (neither the server's own, by `Host`, nor an
  `--admin-origin`) is a 403: a no-cors fetch with no body at all would otherwise reset the state.
- Host check, on a loopback bind only (`allowed_hosts` is not None): a request whose `Host` is not
  a loopback name or address (localhost, 127.0.0.0/8, [::1]; any port) nor an `--allowed-host`
  name is refused. This stops DNS rebinding: a page on evil.example whose name is made to point at
  127.0.0.1 is same-origin with itself, so CORS protects nothing, but its requests say
  `Host: evil.example`. Refused with 421 Misdirected Request, not 403: this server does not serve
  that name, whoever asks and with whatever credentials (403 would say the client lacks a right it
  could obtain). A request without `Host` (HTTP/1.0) passes: no browser sends one.
- `admin_token` (serve's `--admin-token`, required on a non-loopback bind, else the admin API is
  off): every admin request but a preflight carries it in `X-Mock-Admin-Token`, compared in
  constant time; without it, a 401.

Cost on the common request: a path prefix test and, on a loopback bind, one scan of the raw
headers for `Host`, whose accepted values are remembered (a set lookup afterwards).
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ApiError, Forbidden, Unauthorized

PREFIX = "/__mock__"
TOKEN_HEADER = "X-Mock-Admin-Token"
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
JSON = b"application/json"
LOOPBACK_NAMES = frozenset({"localhost", "localhost."})
_REMEMBERED = 256  # accepted Host values kept for a set lookup; beyond that, checked each time


class Misdirected(ApiError):
    status, code = 421, "misdirected_request"


class UnsupportedMediaType(ApiError):
    status, code = 415, "unsupported_media_type"


@dataclass(frozen=True)
class ShieldOptions:
    """What serve's options make of the front door. The defaults (in process, a test client):
    no Host check, no token; admin CORS and non-JSON admin writes refused all the same."""

    admin_origins: tuple[str, ...] = ()  # --admin-origin: pages that may call the admin API
    allowed_hosts: frozenset[str] | None = None  # a loopback bind: loopback names and these only
    admin_token: str | None = None  # --admin-token: needed on every admin request


def host_name(value: str) -> str:
    """The name or address of a `Host` value, without its port, lower case ([::1] keeps brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[: end + 1] if end >= 0 else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def is_loopback_name(name: str) -> bool:
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


class Shield:
    """ASGI middleware: the front door of `options` over `app`. Put it outermost."""

    def __init__(self, app: Any, options: ShieldOptions | None = None):
        from .cors import normalize_origin

        options = options or ShieldOptions()
        self.app: Callable[..., Awaitable[None]] = app
        self.admin_origins = frozenset(normalize_origin(o).encode("latin-1") for o in options.admin_origins)
        self.hosts = None if options.allowed_hosts is None else {h.lower() for h in options.allowed_hosts}
        self.token = options.admin_token.encode() if options.admin_token is not None else None
        self.accepted: set[bytes] = set()  # Host values seen and allowed

    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        if scope["type"] != "http":
            return self.app(scope, receive, send)
        if not scope["path"].startswith(PREFIX):
            if self.hosts is None:
                return self.app(scope, receive, send)
            for name, value in scope["headers"]:
                if name == b"host":
                    if value not in self.accepted and not self.host_allowed(value):
                        return _refuse(send, Misdirected(_misdirected(value)))
                    break
            return self.app(scope, receive, send)
        return self.admin(scope, receive, send)

    def host_allowed(self, value: bytes) -> bool:
        name = host_name(value.decode("latin-1"))
        if not (is_loopback_name(name) or (self.hosts is not None and name in self.hosts)):
            return False
        if len(self.accepted) < _REMEMBERED:
            self.accepted.add(value)
        return True

    def admin(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        host = origin = media = token = None
        body = False
        for name, value in scope["headers"]:
            if name == b"host":
                host = value
            elif name == b"origin":
                origin = value
            elif name == b"content-type":
                media = value.split(b";", 1)[0].strip().lower()
            elif name == b"content-length":
                body = body or value.strip() not in (b"", b"0")
            elif name == b"transfer-encoding":
                body = True
            elif name == b"x-mock-admin-token":
                token = value
        if self.hosts is not None and host is not None and host not in self.accepted:
            if not self.host_allowed(host):
                return _refuse(send, Misdirected(_misdirected(host)))
        trusted = origin is not None and origin.lower() in self.admin_origins
        method = scope["method"]
        if self.token is not None and not (method == "OPTIONS" and trusted):
            if token is None or not hmac.compare_digest(token, self.token):
                message = f"The admin API needs the {TOKEN_HEADER} header of serve's --admin-token."
                return _refuse(send, Unauthorized(message))
        if method in WRITES:
            if (media is not None and media != JSON) or (media is None and body):
                message = "The admin API takes application/json bodies only."
                return _refuse(send, UnsupportedMediaType(message))
            if origin is not None and not trusted and not _same_origin(origin, host):
                message = (
                    "An admin write from a page on another origin is refused; "
                    "serve --admin-origin URL admits a page."
                )
                return _refuse(send, Forbidden(message))
        if origin is not None and not trusted:  # answered as with CORS off
            headers = [(k, v) for k, v in scope["headers"] if k != b"origin"]
            scope = {**scope, "headers": headers}
        return self.app(scope, receive, send)


def _same_origin(origin: bytes, host: bytes | None) -> bool:
    """Whether `Origin` names this server as the request reached it (scheme aside)."""
    if host is None:
        return False
    _, _, netloc = origin.partition(b"://")
    return netloc.lower() == host.strip().lower()


def _misdirected(host: bytes) -> str:
    shown = host.decode("latin-1")[:100]
    return (
        f"This server does not answer for the host {shown!r}; it is bound to a loopback address "
        "(serve --allowed-host NAME admits a name)."
    )


async def _refuse(send: Any, error: ApiError) -> None:
    body = json.dumps({"code": error.code, "message": error.message}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if error.status == 401:
        headers.append((b"www-authenticate", b'MockAdminToken realm="csapi admin"'))
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def admin_origins_valid(origins: Sequence[str]) -> None:
    """ValueError naming the first origin that is not one."""
    from .cors import normalize_origin

    for origin in origins:
        normalize_origin(origin)
