"""Sessions: `X-Mock-Session: NAME` selects an isolated sandbox of the whole state
(docs/design.md, "Sessions").

A `Session` is everything a request can change or read back: the store, the controls (the
request journal and the faults of journal.py and control.py) and, filled in by cache.py, the
read cache's answers. The default session (requests without the header) is the store and the
controls `create_app` was given; the app's server-wide settings (the API key, `--latency`,
`--error-rate`, the run's totals that `serve --report` writes) stay shared.

A named session is made on first use from the server's fixture set and seed, so its credentials
are those of a fresh mock with the same fixtures and seed. The fixture data is generated once
per registry (`Template`: kept pickled, each session loads its own copy, ~3 ms for `default`)
and the store is built in a thread, so that making a session of a large set does not stall the
requests of the others.

`Sessions` is the registry, plain Python: `get(name)` (or `await open(name)` on the event
loop) finds or makes one; sessions idle for longer than `ttl` seconds are dropped when the
registry is used (no background task); past `max_sessions` living ones, making another raises
`TooManySessions`. The default session is never dropped and does not count.

Sessions are bounded by memory as well (issue 24): a session's size is estimated from its
store's records (`estimate`: ROW_BYTES each, measured on `large`: ~185k records for +90-140 MB),
and the named sessions together may hold `max_memory` bytes (MAX_SESSION_MEMORY, 512 MB, about
four `large` sessions). Past it, making a session is refused like one too many (429
`too_many_sessions`, Retry-After), and a reset or snapshot restore that would grow a named session
past it is refused with 429 `session_memory_full` (engine/changes.py asks `check_room`), the
session unchanged: refused, not evicted, since dropping another client's session under it would
lose that client's state without a word. The default session does not count.

`SessionMiddleware` picks the session of each HTTP request and puts it at `scope[SESSION]`,
where the journal, the controls, the read cache, the security check, the handlers and the admin
API find it. A request without the header pays one scan of the header list (as CORS does).
"""

from __future__ import annotations

import asyncio
import json
import math
import pickle
import re
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .errors import ApiError
from .store import Store
from .store.core import TABLES

if TYPE_CHECKING:
    from .control import Controls

SESSION = "csapi.session"  # scope key: the request's Session
HEADER = b"x-mock-session"
NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
MAX_SESSIONS = 100
TTL = 3600.0  # idle seconds
ROW_BYTES = 700  # estimated memory of one record of a store, its indexes included
MAX_SESSION_MEMORY = 512 << 20  # estimated bytes all named sessions may hold together


def estimate(store: Store) -> int:
    """The memory a store holds, estimated from its records (ROW_BYTES each)."""
    return ROW_BYTES * sum(len(getattr(store, name, ())) for name in TABLES)


def data_rows(data: dict[str, Any]) -> int:
    """The records of a fixture set or a snapshot (its tables are lists)."""
    return sum(
        len(value) for name, value in data.items() if name in TABLES and isinstance(value, (list, dict))
    )


class SessionMemoryFull(ApiError):
    """A named session would grow the sessions past their memory budget."""

    status, code = 429, "session_memory_full"


class BadSessionName(ValueError):
    """The header's value is not a session name."""


class TooManySessions(Exception):
    """Making another session would pass the maximum; `retry_after` is when one may be free."""

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.retry_after = retry_after


class Session:
    """One sandbox. `name` is None for the default session; `cache` belongs to cache.py."""

    __slots__ = ("name", "store", "controls", "cache", "used", "written")

    def __init__(self, name: str | None, store: Store, controls: Controls, used: float = 0.0):
        self.name = name
        self.store = store
        self.controls = controls
        self.cache: Any = None  # the read cache's answers of this session (cache.py)
        self.used = used  # when a request last selected it (the registry's clock)
        self.written: float | None = None  # on a shared engine: the log's time of its last change

    def __repr__(self) -> str:
        return f"Session({self.name!r})"


class Template:
    """The data of one fixture set and seed, generated once (on first use, in whichever thread
    asks) and kept pickled; `data()` is a fresh copy each time (a store keeps what it loads).

    A table is pickled in pieces of CHUNK records: unpickling holds the GIL for a whole call,
    and the large set in one piece would stall the event loop for half a second while a
    thread makes a session."""

    CHUNK = 2000

    def __init__(self, fixtures: str, seed: int):
        self.fixtures = fixtures
        self.seed = seed
        self._pickled: list[tuple[str, list[bytes]]] | None = None  # (key, pieces) in order
        self.rows = 0  # records of the set (data_rows), known once it was made
        self._lock = threading.Lock()

    def data(self) -> dict[str, Any]:
        pickled = self._pickled
        if pickled is None:
            with self._lock:
                if self._pickled is None:
                    self._pickled = self._pickle()
                pickled = self._pickled
        data: dict[str, Any] = {}
        for key, pieces in pickled:
            if len(pieces) == 1:
                data[key] = pickle.loads(pieces[0])
            else:  # a long table
                rows: list[Any] = []
                for piece in pieces:
                    rows.extend(pickle.loads(piece))
                data[key] = rows
        return data

    def _pickle(self) -> list[tuple[str, list[bytes]]]:
        from ..fixtures import generate

        def dump(value: Any) -> bytes:
            return pickle.dumps(value, pickle.HIGHEST_PROTOCOL)

        pickled = []
        data = generate(self.fixtures, self.seed)
        self.rows = data_rows(data)
        for key, value in data.items():
            if isinstance(value, list) and len(value) > self.CHUNK:
                pieces = [dump(value[at : at + self.CHUNK]) for at in range(0, len(value), self.CHUNK)]
            else:
                pieces = [dump(value)]
            pickled.append((key, pieces))
        return pickled


def check_name(raw: str) -> str:
    if NAME.fullmatch(raw) is None:
        shown = raw if len(raw) <= 80 else raw[:80] + "..."
        raise BadSessionName(
            f"X-Mock-Session: {shown!r} is not a session name: 1 to 64 letters, digits, _ or -."
        )
    return raw


class Sessions:
    """The sessions of one app: the default one and up to `max_sessions` named ones."""

    def __init__(
        self,
        default: Session,
        template: Template,
        *,
        max_sessions: int = MAX_SESSIONS,
        ttl: float = TTL,
        clock: Callable[[], float] = time.monotonic,
        max_memory: int = MAX_SESSION_MEMORY,
    ):
        if max_sessions < 0:
            raise ValueError("max_sessions is 0 or more")
        if not ttl > 0:
            raise ValueError("the session TTL is a number of seconds above 0")
        self.default = default
        self.template = template
        self.max_sessions = max_sessions
        self.max_memory = max_memory
        self.ttl = ttl
        self.clock = clock
        self._named: dict[str, Session] = {}
        self._pending: dict[str, asyncio.Future[Session]] = {}  # being made in a thread
        self._swept = clock()
        # On a shared engine (engine/) every worker holds a replica of every session: one that was
        # changed lives until the log's own time says it idled for `ttl` (`expire_written`), the
        # same moment on every worker; `shared` also makes sessions on the event loop, in order
        # with the log's changes. `on_new` sees each session made (the engine shares its journal).
        self.shared = False
        self.on_new: Callable[[Session], None] | None = None

    def __len__(self) -> int:
        """The named sessions alive (the default one is not counted)."""
        return len(self._named)

    def names(self) -> list[str]:
        self._sweep(self.clock())
        return sorted(self._named)

    # ------------------------------------------------------------------ finding and making
    def find(self, name: str) -> Session | None:
        """The living session `name` (now used), or None; an expired one is dropped here."""
        now = self.clock()
        if now - self._swept > min(self.ttl, 60.0):  # now and then, drop every expired session
            self._sweep(now)
        session = self._named.get(name)
        if session is None:
            return None
        if now - session.used > self.ttl and session.written is None:
            del self._named[name]
            return None
        session.used = now
        return session

    def get(self, name: str | None) -> Session:
        """The session `name` (None: the default one), made now if it does not exist."""
        if name is None:
            return self.default
        session = self.find(check_name(name))
        if session is None:
            self._make_room()
            session = self._add(name, self.new_store())
        return session

    async def open(self, name: str) -> Session:
        """`get` on the event loop: a new session's store is built in a thread, once, however
        many requests ask for it meanwhile."""
        session = self.find(check_name(name))
        if session is not None:
            return session
        if self.shared:
            return self.get(name)
        pending = self._pending.get(name)
        if pending is None:
            self._make_room()
            pending = self._pending[name] = asyncio.ensure_future(self._make(name))
        return await asyncio.shield(pending)  # a caller that goes away does not cancel the others'

    async def _make(self, name: str) -> Session:
        try:
            store = await asyncio.to_thread(self.new_store)
            return self._add(name, store)
        finally:
            del self._pending[name]

    def new_store(self) -> Store:
        """A store of the server's fixture set and seed, on the default store's clock."""
        return Store(clock=self.default.store.clock, data=self.template.data())

    def _add(self, name: str, store: Store) -> Session:
        session = Session(name, store, self.default.controls.for_session(), used=self.clock())
        self._named[name] = session
        if self.on_new is not None:
            self.on_new(session)
        return session

    # ------------------------------------------------------------------ replicas (engine/)
    def replica(self, name: str | None) -> Session:
        """The session a change of the shared log names, made if need be: past `max_sessions`
        too, since every worker must apply every change."""
        if name is None:
            return self.default
        session = self._named.get(name)
        return session if session is not None else self._add(name, self.new_store())

    def put(self, name: str, store: Store) -> Session:
        """Replace (or add) the session `name` with this store (a shared engine's snapshot)."""
        return self._add(name, store)

    def changed(self) -> list[Session]:
        """The named sessions a change reached (a shared engine's snapshot holds them)."""
        return [s for s in self._named.values() if s.written is not None]

    def expire_written(self, now: float) -> None:
        """Drop the changed sessions whose last change is older than `ttl` by the log's clock."""
        for name in [
            n for n, s in self._named.items() if s.written is not None and now - s.written > self.ttl
        ]:
            del self._named[name]

    def drop(self, name: str) -> bool:
        return self._named.pop(name, None) is not None

    # ------------------------------------------------------------------ bounds
    def memory(self) -> int:
        """The estimated bytes the named sessions hold (`estimate`)."""
        return sum(estimate(s.store) for s in self._named.values())

    def check_room(self, session: Session, rows: int) -> None:
        """Raise SessionMemoryFull if `session` holding `rows` records (a reset, a restore) would
        pass `max_memory`; the default session is not bounded."""
        if session.name is None or session is not self._named.get(session.name):
            return
        after = self.memory() - estimate(session.store) + rows * ROW_BYTES
        if after > self.max_memory:
            raise SessionMemoryFull(
                f"The sessions would hold about {after >> 20} MB, past their {self.max_memory >> 20} MB "
                f"(this one {rows} records); reset it to a smaller fixture set, or end other sessions "
                "(an idle one is dropped after --session-ttl)."
            )

    def _sweep(self, now: float) -> None:
        self._swept = now
        for name in [n for n, s in self._named.items() if now - s.used > self.ttl and s.written is None]:
            del self._named[name]

    def _make_room(self) -> None:
        now = self.clock()
        self._sweep(now)
        # a new session's size: that of the template's set, once it was made (the first one is not
        # known before its store is built, in a thread: at most one set past the budget)
        rows = self.template.rows
        if len(self._named) + len(self._pending) < self.max_sessions and (
            self.memory() + rows * ROW_BYTES * (1 + len(self._pending)) <= self.max_memory
        ):
            return
        oldest = min((s.used for s in self._named.values()), default=now)
        retry_after = max(1, math.ceil(oldest + self.ttl - now))
        if len(self._named) + len(self._pending) >= self.max_sessions:
            held = f"{self.max_sessions} sessions are in use (serve --max-sessions)"
        else:
            held = f"the sessions hold about {self.memory() >> 20} MB of their {self.max_memory >> 20} MB"
        raise TooManySessions(
            f"{held}; an idle one is dropped after {self.ttl:g} s (--session-ttl). Reuse a session "
            "name, or retry later.",
            retry_after,
        )


class SessionMiddleware:
    """ASGI middleware: `scope[SESSION]` from `X-Mock-Session` (the default without it); a bad
    name is a 400, one session too many a 429 with Retry-After, both `{code, message}`. Put it
    inside CORS (a preflight needs no session) and outside everything that uses it."""

    def __init__(self, app: Any, sessions: Sessions):
        self.app = app
        self.sessions = sessions
        self.default = sessions.default

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        name = None
        for key, value in scope["headers"]:
            if key == HEADER:
                name = value if name is None else name + b"," + value  # repeated: not a name
        if name is None:
            scope[SESSION] = self.default
        else:
            try:
                scope[SESSION] = await self.sessions.open(name.decode("latin-1"))
            except BadSessionName as exc:
                await _answer(send, 400, "invalid_input", str(exc))
                return
            except TooManySessions as exc:
                retry = [(b"retry-after", b"%d" % exc.retry_after)]
                await _answer(send, 429, "too_many_sessions", str(exc), retry)
                return
        await self.app(scope, receive, send)


async def _answer(
    send: Any, status: int, code: str, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"code": code, "message": message}).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body)), *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
