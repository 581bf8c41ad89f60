"""What `csapi serve` needs of uvicorn 0.54 beyond its documented API: the connection, for `drop`.

An ASGI app never sees its socket, yet a `drop` fault (control.py) must close the connection
without an answer. uvicorn takes the HTTP protocol class to use (`uvicorn.run(http=<class>)`,
documented); the class here is the one uvicorn would pick itself (httptools if installed, else
h11), which on each new connection wraps the app it calls (its `app` attribute, set from the
config) so that every request's scope carries the connection's transport at `control.TRANSPORT`.
Only serve imports this module.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)

from __future__ import annotations

from ...openapi.compat import require

require("uvicorn", "0.54", "0.55")

import asyncio
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ..control import TRANSPORT


class _WithTransport:
    """The app, called with the connection's transport in the scope (HTTP requests only)."""

    def __init__(self, app: Any, transport: asyncio.BaseTransport):
        self.app = app
        self.transport = transport

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope[TRANSPORT] = self.transport
        await self.app(scope, receive, send)


class TransportProtocol(AutoHTTPProtocol):  # type: ignore[valid-type,misc]  # a class chosen at import
    """uvicorn's HTTP protocol, handing the transport to the app (see the module's docstring)."""

    def connection_made(self, transport: Any, *args: Any, **kwargs: Any) -> None:
        super().connection_made(transport, *args, **kwargs)
        app = self.app
        self.app = _WithTransport(app.app if isinstance(app, _WithTransport) else app, transport)
