"""A cache of GET answers, valid until the next change of the store.

Between two writes the mock is a pure function of the request, so an identical request
(same method, path, query, headers, host) gets the answer already computed, byte for
byte, without routing, validation, the store and JSON encoding again. Any change of the
state (`Store.generation`, bumped by every successful write and by the reads that write,
e.g. `log_access`) empties it; a request that writes bumps it too, here, so even a write
path that forgot to count cannot leave a stale answer behind.

Only complete 200 answers of GET requests without a body are kept, and only when no
write ran while they were computed; never those of the admin API (the journal and the
faults change with every request, without a write). Code that changes the store without a request (a
test planting a fault) must bump `store.generation` itself.

Each session (sessions.py) has answers of its own (`Session.cache`, a `Shelf`), valid for
its own store's generation, so a kept answer never crosses sessions and a write in one
session leaves the others' answers be. The default session has `max_bytes`; each named
one a sixteenth of it (4 MB), and goes with its session.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable
from typing import Any, cast

from .guards import FINDINGS
from .sessions import SESSION
from .store import Store

ADMIN = "/__mock__/"  # admin.PREFIX: answers that also depend on more than the store
Key = tuple[Any, ...]
# The http.response.start message, the body, and the request's findings (guards.FINDINGS): a
# repeated request is as off-contract as the first, and the journal must say so again.
# The size the budget counts it for (`_size`) last.
Answer = tuple[dict[str, Any], bytes, tuple[Any, ...], int]
Messages = tuple[dict[str, Any], dict[str, Any]]  # what a kept answer sends: a copy of its start, its body

MAX_KEY = 16 << 10  # a request whose key is over this many bytes is not kept
OVERHEAD = 64  # estimated bytes of Python's own per object kept (a bytes, a str, a tuple of a pair)
ENTRY_OVERHEAD = 512  # per kept answer: its tuples, the dicts of its start message, the LRU's node


class Shelf:
    """The answers of one session, valid while its store's generation stays `generation`."""

    __slots__ = ("store", "max_bytes", "answers", "bytes", "generation", "writes")

    def __init__(self, store: Store, max_bytes: int):
        self.store = store
        self.max_bytes = max_bytes
        self.answers: OrderedDict[Key, Answer] = OrderedDict()
        self.bytes = 0
        self.generation = store.generation
        self.writes = 0  # write requests in flight


class ReadCache:
    """ASGI middleware keeping answers of up to `max_answer` bytes, `max_bytes` in all (a named
    session: `session_bytes`), least recently used out. The answers are those of the request's
    session (`scope[SESSION]`), else those of `store`."""

    def __init__(
        self,
        app: Any,
        store: Store,
        max_bytes: int = 64 << 20,
        max_answer: int = 1 << 20,
        session_bytes: int | None = None,
    ):
        self.app = app
        self.store = store
        self.max_answer = max_answer
        self.session_bytes = session_bytes if session_bytes is not None else max(max_bytes >> 4, max_answer)
        self.default = Shelf(store, max_bytes)

    # A plain function, not a coroutine: it hands on the awaitable of `_read` or `_write` (or of
    # the next layer), one frame fewer per request.
    def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Awaitable[None]:
        if scope["type"] != "http":  # the lifespan: not per request
            return cast("Awaitable[None]", self.app(scope, receive, send))
        if scope["method"] != "GET":
            return self._write(self._shelf_of(scope), scope, receive, send)
        return self._read(self._shelf_of(scope), scope, receive, send)

    def answer_now(self, scope: dict[str, Any]) -> Messages | None:
        """The messages of the answer kept for this request, if there is one, else None. A layer
        right above may send them itself instead of calling this one (journal.py): the same
        answer, without a frame here or a wrapper of `send` there."""
        if scope["type"] != "http" or scope["method"] != "GET":
            return None
        return self._replay(self._shelf_of(scope), _key(scope), scope)

    def _shelf_of(self, scope: dict[str, Any]) -> Shelf:
        session = scope.get(SESSION)
        if session is None:
            return self.default
        shelf: Shelf | None = session.cache
        if shelf is None:  # the session's first request here
            store = session.store
            shelf = session.cache = self.default if store is self.store else Shelf(store, self.session_bytes)
        return shelf

    async def _write(self, shelf: Shelf, scope: dict[str, Any], receive: Any, send: Any) -> None:
        shelf.writes += 1
        try:
            await self.app(scope, receive, send)
        finally:
            shelf.writes -= 1
            if scope["method"] not in ("HEAD", "OPTIONS"):
                shelf.store.generation += 1

    def _replay(self, shelf: Shelf, key: Key | None, scope: dict[str, Any]) -> Messages | None:
        """The messages of the answer kept under `key`, now the most recently used, its findings
        the request's (FINDINGS); None without one."""
        store = shelf.store
        if shelf.generation != store.generation:  # the store changed: nothing kept holds
            shelf.answers.clear()
            shelf.bytes = 0
            shelf.generation = store.generation
        if key is None:
            return None
        answer = shelf.answers.get(key)
        if answer is None:
            return None
        shelf.answers.move_to_end(key)
        if answer[2]:
            scope.setdefault(FINDINGS, []).extend(answer[2])
        return dict(answer[0]), {"type": "http.response.body", "body": answer[1]}

    async def _read(self, shelf: Shelf, scope: dict[str, Any], receive: Any, send: Any) -> None:
        key = _key(scope)
        messages = self._replay(shelf, key, scope)
        if messages is not None:
            await send(messages[0])
            await send(messages[1])
            return
        if key is None or _has_body(key[-1]):
            await self.app(scope, receive, send)
            return
        store = shelf.store
        generation, start, chunks = store.generation, None, []

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
            and shelf.writes == 0
            and store.generation == generation == shelf.generation
            and len(body) <= self.max_answer
        ):
            key_size = _size(key)
            if key_size > MAX_KEY:
                return
            findings = tuple(scope.get(FINDINGS) or ())
            size = ENTRY_OVERHEAD + key_size + len(body) + _size(start.get("headers") or ()) + _size(findings)
            if size > shelf.max_bytes:
                return
            replaced = shelf.answers.pop(key, None)  # two identical misses may both finish
            shelf.bytes += size - (replaced[3] if replaced else 0)
            shelf.answers[key] = (start, body, findings, size)
            while shelf.bytes > shelf.max_bytes:
                shelf.bytes -= shelf.answers.popitem(last=False)[1][3]


def _key(scope: dict[str, Any]) -> Key | None:
    """What the answer depends on; None for the admin API (the journal and the faults change
    without a write: not cacheable)."""
    if scope["path"].startswith(ADMIN):
        return None
    return (
        scope.get("scheme"),
        tuple(scope.get("server") or ()),
        scope.get("root_path", ""),
        scope["path"],
        scope.get("query_string", b""),
        tuple(map(tuple, scope["headers"])),  # test clients send lists
    )


def _size(value: Any) -> int:
    """The bytes `value` keeps alive, estimated: those of its strings and bytes plus OVERHEAD per
    object, through tuples, lists and dicts (a key, a list of headers, findings)."""
    if isinstance(value, (bytes, str)):
        return OVERHEAD + len(value)
    if isinstance(value, (tuple, list)):
        return OVERHEAD + sum(_size(item) for item in value)
    if isinstance(value, dict):
        return OVERHEAD + sum(_size(k) + _size(v) for k, v in value.items())
    return OVERHEAD


def _has_body(headers: tuple[tuple[bytes, bytes], ...]) -> bool:
    """The request carries a body: its answer is not kept. Only a miss needs to look: the key has
    every header, so a kept answer's key is that of a request without one."""
    for name, value in headers:
        if (name == b"content-length" and value != b"0") or name == b"transfer-encoding":
            return True
    return False
