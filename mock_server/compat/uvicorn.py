"""What `csapi serve` needs of uvicorn 0.54 beyond its documented API: the connection, for `drop`,
and when a request's bytes were read, for a shared engine.

An ASGI app never sees its socket, yet a `drop` fault (control.py) must close the connection
without an answer. uvicorn takes the HTTP protocol class to use (`uvicorn.run(http=<class>)`,
documented); the class here is the one uvicorn would pick itself (httptools if installed, else
h11), which on each new connection gives the connection a copy of the lifespan state (its
`app_state` attribute) holding the connection's transport at `control.TRANSPORT`. uvicorn already
copies that state into every request's `scope["state"]` (the ASGI lifespan state), so the
transport reaches the app at no cost per request, and goes with the connection's protocol object.
(Not a registry keyed by `scope["client"]`: uvicorn rewrites the client of a request that came
through a trusted proxy, from X-Forwarded-For.) Only serve imports this module.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)

from __future__ import annotations

from ...openapi.compat import require

require("uvicorn", "0.54", "0.55")

import socket
import time
from typing import Any

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ..control import ARRIVED, TRANSPORT


class TransportProtocol(AutoHTTPProtocol):  # type: ignore[valid-type,misc]  # a class chosen at import
    """uvicorn's HTTP protocol, handing the transport to the app (see the module's docstring)."""

    def connection_made(self, transport: Any, *args: Any, **kwargs: Any) -> None:
        super().connection_made(transport, *args, **kwargs)
        self.app_state: dict[str, Any] = {**self.app_state, TRANSPORT: transport}  # the connection's copy
        # No Nagle: asyncio's loop turns it off only on sockets made with proto IPPROTO_TCP, and
        # the socket `--workers` share is made with proto 0, so each small answer waited for the
        # client's delayed ACK: 40 ms per request (uvloop turns it off on every TCP socket).
        sock = transport.get_extra_info("socket")
        if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def data_received(self, data: bytes) -> None:
        # When these bytes were read: a request whose headers end in them carries it in its
        # `scope["state"]` (uvicorn copies app_state into each request's scope as its headers
        # complete), so a shared engine knows which catch-up already covers the request.
        self.app_state[ARRIVED] = time.monotonic()
        super().data_received(data)
