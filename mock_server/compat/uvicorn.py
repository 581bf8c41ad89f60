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

It also bounds what one connection may hold (issue 24), for either protocol: httptools has no
limit on a request's head, and h11's is 16 KB with a plain-text 400. A request line and headers
over MAX_HEAD bytes are refused (414 while the request line is not complete, else 431), a head
not complete HEAD_TIMEOUT seconds after the connection opened or its last answer ended (an idle
or a slow client) closes the connection, and uvicorn's plain-text answers (400 on a request it
cannot parse, 503 past `limit_concurrency`) carry the `{code, message}` body instead.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)

from __future__ import annotations

from ...openapi.compat import require

require("uvicorn", "0.54", "0.55")

import asyncio
import json
import socket
import time
from http import HTTPStatus
from typing import Any

from uvicorn.protocols.http import h11_impl, httptools_impl
from uvicorn.protocols.http.auto import AutoHTTPProtocol

from ..control import ARRIVED, TRANSPORT

MAX_HEAD = 64 * 1024  # bytes of a request line and headers
HEAD_TIMEOUT = 10.0  # seconds for a request's head to arrive, from the connection or the last answer
KEEP_ALIVE = 5  # seconds an idle connection is kept after an answer (uvicorn's timeout_keep_alive)
MAX_CONNECTIONS = 512  # connections (and requests) at once; past it, each request gets a 503


def raw_answer(status: int, code: str, message: str) -> bytes:
    """An HTTP/1.1 answer with the `{code, message}` body, closing the connection."""
    body = json.dumps({"code": code, "message": message}).encode()
    phrase = HTTPStatus(status).phrase
    head = (
        f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


_UNAVAILABLE = json.dumps(
    {
        "code": "service_unavailable",
        "message": f"Too many connections at once (over {MAX_CONNECTIONS}); try again.",
    }
).encode()


async def service_unavailable(scope: Any, receive: Any, send: Any) -> None:
    """uvicorn's answer past `limit_concurrency`, with the error body."""
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(_UNAVAILABLE)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": _UNAVAILABLE, "more_body": False})


# Both protocols name it at call time (`app = service_unavailable` in their request handling).
h11_impl.service_unavailable = service_unavailable  # type: ignore[attr-defined]
httptools_impl.service_unavailable = service_unavailable  # type: ignore[attr-defined]


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
        self._head = bytearray()  # the head of the request awaited, so far (None: its head is read)
        self._head_done = False
        self._answered: Any = None
        self._head_timer: asyncio.TimerHandle | None = None
        self._head_since = 0.0  # the loop's time since when a head is awaited
        self._await_head()

    def _await_head(self) -> None:
        """From now on, a request's head is awaited: within MAX_HEAD bytes and HEAD_TIMEOUT s.

        One timer per connection, not one per request: it is armed when none is, and when it
        fires it closes the connection only if the head awaited since `_head_since` is late,
        else it is armed again for what is left (or not at all while a request is handled)."""
        self._head.clear()
        self._head_done = False
        self._answered = self.cycle  # a cycle other than this one: a new request's head was read
        loop = asyncio.get_running_loop()
        self._head_since = loop.time()
        if self._head_timer is None:
            self._head_timer = loop.call_later(HEAD_TIMEOUT, self._head_late)

    def _head_late(self) -> None:
        self._head_timer = None
        if self._head_done or self.transport.is_closing():
            return  # a request is being handled: `_await_head` arms the timer after its answer
        loop = asyncio.get_running_loop()
        left = self._head_since + HEAD_TIMEOUT - loop.time()
        if left > 0:
            self._head_timer = loop.call_later(left, self._head_late)
        elif self.cycle is self._answered:
            self.transport.close()  # as uvicorn closes an idle keep-alive connection: no answer

    def _refuse(self, status: int, code: str, message: str) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_done = True
        if not self.transport.is_closing():
            self.transport.write(raw_answer(status, code, message))
            self.transport.close()

    def _too_large(self) -> None:
        self._refuse(431, "request_header_fields_too_large", f"The request head is over {MAX_HEAD} bytes.")

    def send_400_response(self, msg: str) -> None:
        """A request uvicorn cannot parse: 400 with the error body (uvicorn's is plain text);
        h11's own head limit, if reached first, gives a 431."""
        if "too long" in msg.lower() or len(self._head) > MAX_HEAD:
            self._too_large()
        else:
            self._refuse(400, "bad_request", f"Invalid HTTP request: {msg}")

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        # When these bytes were read: a request whose headers end in them carries it in its
        # `scope["state"]` (uvicorn copies app_state into each request's scope as its headers
        # complete), so a shared engine knows which catch-up already covers the request.
        self.app_state[ARRIVED] = time.monotonic()
        if not self._head_done:
            start = max(0, len(self._head) - 3)
            self._head += data[: MAX_HEAD + 4 - len(self._head)]  # no more than needed to judge
            end = self._head.find(b"\r\n\r\n", start)
            if end < 0 and len(self._head) > MAX_HEAD or end > MAX_HEAD:
                if b"\n" not in self._head:
                    self._refuse(414, "uri_too_long", f"The request line is over {MAX_HEAD} bytes.")
                else:
                    self._too_large()
                return
            if end >= 0:  # this request's head is complete: its body (if any) is not counted
                self._head_read()
        super().data_received(data)
        if not self._head_done and self.cycle is not self._answered:  # the parser saw a head end
            self._head_read()

    def _head_read(self) -> None:
        self._head_done = True  # the timer, when it fires, sees it and lets the connection be
        self._head.clear()
