"""A cache of GET answers, valid until the next change of the store.

Between two writes the mock is a pure function of the request, so an identical request
(same method, path, query, headers, host) gets the answer already computed, byte for
byte, without routing, validation, the store and JSON encoding again. Any change of the
state (`Store.generation`, bumped by every successful write and by the reads that write,
e.g. `log_access`) empties it; a request that writes bumps it too, here, so even a write
path that forgot to count cannot leave a stale answer behind.

Only complete 200 answers of GET requests without a body are kept, and only when no
write ran while they were computed. Code that changes the store without a request (a
test planting a fault) must bump `store.generation` itself.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from .store import Store

Key = tuple[Any, ...]
Answer = tuple[dict[str, Any], bytes]  # the http.response.start message, the body


class ReadCache:
    """ASGI middleware keeping answers of up to `max_answer` bytes, `max_bytes` in all, least
    recently used out."""

    def __init__(self, app: Any, store: Store, max_bytes: int = 64 << 20, max_answer: int = 1 << 20):
        self.app = app
        self.store = store
        self.max_bytes = max_bytes
        self.max_answer = max_answer
        self._answers: OrderedDict[Key, Answer] = OrderedDict()
        self._bytes = 0
        self._generation = store.generation
        self._writes = 0  # write requests in flight

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
        elif scope["method"] != "GET":
            await self._write(scope, receive, send)
        else:
            await self._read(scope, receive, send)

    async def _write(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self._writes += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self._writes -= 1
            if scope["method"] not in ("HEAD", "OPTIONS"):
                self.store.generation += 1

    async def _read(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if self._generation != self.store.generation:
            self._answers.clear()
            self._bytes = 0
            self._generation = self.store.generation
        key = _key(scope)
        answer = self._answers.get(key) if key is not None else None
        if answer is not None:
            self._answers.move_to_end(key)
            await send(dict(answer[0]))
            await send({"type": "http.response.body", "body": answer[1]})
            return
        if key is None:
            await self.app(scope, receive, send)
            return
        generation, start, chunks = self.store.generation, None, []

        async def capture(message: dict[str, Any]) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                start = message
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, capture)
        body = b"".join(chunks)
        if (
            start is not None
            and start["status"] == 200
            and self._writes == 0
            and self.store.generation == generation == self._generation
            and len(body) <= self.max_answer
        ):
            replaced = self._answers.pop(key, None)  # two identical misses may both finish
            self._bytes += len(body) - (len(replaced[1]) if replaced else 0)
            self._answers[key] = (start, body)
            while self._bytes > self.max_bytes:
                self._bytes -= len(self._answers.popitem(last=False)[1][1])


def _key(scope: dict[str, Any]) -> Key | None:
    """What the answer depends on; None when the request carries a body (not cacheable)."""
    headers = tuple(map(tuple, scope["headers"]))  # test clients send lists
    for name, value in headers:
        if (name == b"content-length" and value != b"0") or name == b"transfer-encoding":
            return None
    return (
        scope.get("scheme"),
        tuple(scope.get("server") or ()),
        scope.get("root_path", ""),
        scope["path"],
        scope.get("query_string", b""),
        headers,
    )
