"""A shared deployment on Redis: state-machine replication through a Redis stream.

`serve --engine redis://HOST:PORT/DB` (`rediss://` for TLS, `unix:///path.sock`; `?prefix=NAME`
keeps several deployments apart on one Redis, default `{csapi}`; `?snapshot_every=N` changes
between snapshots, default 2000). The design, and why, is in
ARCHITECTURE.md ("Shared deployments"); in short:

- Every change (changes.py) is an entry of one Redis stream, numbered by a counter, appended by
  a Lua script that also returns every entry the worker has not applied yet up to its own. The
  worker applies them in order to its replica of the whole state (every session's store and
  faults) and answers from its own entry's outcome: a write is acknowledged only once it is in
  Redis and applied. Redis runs each script alone, so the log's order is the one order of all
  changes, and every worker applies the same changes in it.
- Before every request a worker catches up (one script call: the entries after its last), so
  a read on any worker sees every write acknowledged before it was sent.
- The first worker on an empty engine writes its state as the base snapshot, with the API key
  and the fixture set and seed every worker then adopts; every SNAPSHOT_EVERY changes one worker
  (a lock in Redis) writes a snapshot and trims the stream to the one before, so a worker that
  starts later loads a snapshot and replays only what followed it. The snapshot is rendered and
  written by a forked child, as Redis's own BGSAVE does: the child sees the state as it was at the
  fork (copy on write), so the worker pays a fork (1-6 ms) instead of copying the state on the
  event loop and rendering it in a thread that holds the GIL (tens to hundreds of ms as the state
  grows: the latency tail). `snapshot_writer` says which: serve sets "child" (it knows its
  process's threads: at most uvicorn's health check, which holds no lock the child needs); the
  default "auto" forks only where no other thread runs, else a thread renders a copy.
- An epoch names the engine's content: a Redis that lost it (restarted without persistence,
  flushed) is noticed on the next call, and the workers start it again from a replica's state.
- The journal of each session is a Redis list every worker pushes to (after answering) and
  reads from; faults are changes like any other, and so is each firing of one.
- Redis gone: every request is answered 503 `engine_unavailable` (never from a stale replica),
  and all is well again on the first request after it is back.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import json
import logging
import math
import os
import secrets
import signal
import threading
import time
import warnings
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

import redis
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.retry import Retry

from ..errors import ApiError, EngineUnavailable
from ..journal import Journal, view
from ..sessions import Session, Sessions
from ..store import Store
from .changes import Change, apply, decode, encode

log = logging.getLogger("csapi.engine")

SNAPSHOT_FORMAT = "csapi-engine-snapshot"
SNAPSHOT_VERSION = 1
SNAPSHOT_EVERY = 2000  # changes between snapshots: the most a starting worker replays
DEFAULT_PREFIX = "{csapi}"  # braces: one hash slot, so the scripts' keys may sit in a Redis Cluster
_ERRORS = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError)
_RETRIED = (redis.ConnectionError, redis.TimeoutError)
_SECRET_QUERY = ("password", "pass", "secret", "token", "auth")  # query parameters never shown
HEALTH_CHECK_INTERVAL = 5  # seconds a pooled connection may sit idle before a PING checks it


def _retry() -> Retry:
    """redis-py's retry for every connection of the engine: a connect, or a command on a connection
    found broken, tried 3 times with a growing pause between. The calls run on the event loop, so
    the pauses are short (4, then 8 ms): a Redis that is away is a 503 within ~15 ms, not a
    stalled server, and one that is back is reached by the next request."""
    return Retry(ExponentialBackoff(cap=0.05, base=0.002), retries=2, supported_errors=_RETRIED)


# KEYS: epoch log seq snapshot at meta; ARGV: epoch snapshot meta
_INIT = """
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('DEL', KEYS[2])
  redis.call('SET', KEYS[3], 0)
  redis.call('SET', KEYS[4], ARGV[2])
  redis.call('HSET', KEYS[5], 'n', 0, 'id', '0-0')
  redis.call('SET', KEYS[6], ARGV[3])
  redis.call('SET', KEYS[1], ARGV[1])
end
return redis.call('GET', KEYS[1])
"""
# KEYS: epoch log; ARGV: epoch after -> the entries after `after`, or nil for another epoch
_CATCH_UP = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
return redis.call('XRANGE', KEYS[2], '(' .. ARGV[2], '+')
"""
# KEYS: epoch log seq; ARGV: epoch after change token again -> {own id, entries after `after` up
# to it}. `again` ("1"): sent once more, its first sending's answer lost: if that one was applied,
# its entry (the one with this token) is the answer, and the change is not appended twice
_APPEND = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return false end
if ARGV[5] == '1' then
  local after = redis.call('XRANGE', KEYS[2], '(' .. ARGV[2], '+')
  for i, entry in ipairs(after) do
    if entry[2][6] == ARGV[4] then
      local upto = {}
      for j = 1, i do upto[j] = after[j] end
      return {entry[1], upto}
    end
  end
end
local n = redis.call('INCR', KEYS[3])
local id = redis.call('XADD', KEYS[2], '*', 'n', n, 'c', ARGV[3], 't', ARGV[4])
return {id, redis.call('XRANGE', KEYS[2], '(' .. ARGV[2], id)}
"""
# KEYS: epoch log snapshot at; ARGV: epoch n id snapshot -> 1 if kept (newer than the one there)
_SAVE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local at = redis.call('HGET', KEYS[4], 'n')
if at and tonumber(at) >= tonumber(ARGV[2]) then return 0 end
local previous = redis.call('HGET', KEYS[4], 'id')
redis.call('SET', KEYS[3], ARGV[4])
redis.call('HSET', KEYS[4], 'n', ARGV[2], 'id', ARGV[3])
if previous then redis.call('XTRIM', KEYS[2], 'MINID', previous) end
return 1
"""


class _Behind(Exception):
    """The log no longer holds the entries after this worker's last: load a snapshot."""


class RedisEngine:
    """One worker's side of the shared engine: its replica, kept in step with the log."""

    def __init__(self, url: str, *, timeout: float = 2.0):
        self.url = redacted(url)  # what messages show: 503 bodies reach any client
        address, prefix, snapshot_every = split_url(url)
        self._address = address
        self._secrets = _secrets(url)  # never in a message, whatever redis-py's errors say
        self.client = redis.Redis.from_url(
            address,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            socket_keepalive=True,
            retry=_retry(),
            retry_on_error=list(_RETRIED),
            health_check_interval=HEALTH_CHECK_INTERVAL,
        )
        self.reachable = True  # the last call to Redis succeeded (SharedJournal waits while not)
        keys = ("epoch", "log", "seq", "snapshot", "snapshot-at", "meta")
        self.key = {name: f"{prefix}:{name}" for name in keys}
        self.journal_prefix = f"{prefix}:journal:"
        self.snapshot_every = snapshot_every
        self._init = self.client.register_script(_INIT)
        self._hot = _HotPath(self.client, {"catch_up": _CATCH_UP, "append": _APPEND})
        self._save = self.client.register_script(_SAVE)
        self.sessions: Sessions | None = None
        self.epoch: bytes | None = None
        self.applied = 0  # the number of the last change applied here
        self.last_id = b"0-0"  # its stream id
        # time.monotonic() when the last catch-up (or append) that succeeded was sent: every change
        # in the log before then is applied here (EngineMiddleware skips a catch-up it covers)
        self.fresh_at = -math.inf
        self._saving = False
        self._child = 0  # the pid of a child writing a snapshot, not reaped yet
        # "child" (fork), "thread", or "auto": a child where fork is safe (os.fork, no other thread)
        self.snapshot_writer = "auto"
        self._snapshot_seen = 0  # the number of the last change a snapshot holds, as far as known

    # ------------------------------------------------------------------ joining
    def meta(self) -> dict[str, Any] | None:
        """What the first worker wrote: the API key, the fixture set and seed; None on an empty engine."""
        raw = self._call(self.client.get, self.key["meta"])
        return json.loads(raw) if raw is not None else None

    def attach(self, sessions: Sessions, meta: dict[str, Any]) -> None:
        """Make `sessions` this worker's replica: join the engine (starting it from their state
        and `meta` when it is empty), load its snapshot, replay what followed."""
        self.sessions = sessions
        sessions.shared = True
        sessions.on_new = self._share
        for session in (sessions.default, *sessions.changed()):
            self._share(session)
        self._join(meta)

    def _join(self, meta: dict[str, Any]) -> None:
        assert self.sessions is not None
        epoch = self._call(self.client.get, self.key["epoch"])
        if epoch is None:
            mine = secrets.token_hex(8).encode()
            body = self._snapshot_body(mine, 0, b"0-0", self._capture())
            keys = [self.key[k] for k in ("epoch", "log", "seq", "snapshot", "snapshot-at", "meta")]
            epoch = self._call(self._init, keys, [mine, body, json.dumps(meta)])
            if epoch == mine:
                self.epoch, self.applied, self.last_id, self._snapshot_seen = epoch, 0, b"0-0", 0
                log.info("started the engine at %s", self.url)
                return
        self.epoch = epoch
        self._load_snapshot()
        self.catch_up()

    def _share(self, session: Session) -> None:
        """A session's journal in Redis, and its faults' firings through the log."""
        controls = session.controls
        if not isinstance(controls.journal, SharedJournal):
            controls.journal = SharedJournal(
                controls.journal, self, self.journal_prefix + (session.name or "")
            )
        name = session.name
        controls.shared_fire = lambda fault_id: bool(self.submit(name, "fire_fault", fault_id=fault_id))

    # ------------------------------------------------------------------ the log
    def catch_up(self) -> None:
        """Apply every change after this worker's last; EngineUnavailable if Redis is gone."""
        if self._child:  # a snapshot child may have ended: no zombie left until the next snapshot
            self._reap()
        keys = [self.key["epoch"], self.key["log"]]
        sent = time.monotonic()
        args = [self.epoch, self.last_id]
        entries = self._call(self._hot.run, "catch_up", keys, args, again=args)
        if entries is None:
            self._rejoin()
            return
        if entries:
            try:
                self._apply(entries)
            except _Behind:
                self._load_snapshot()
                self.catch_up()
                return
        self.fresh_at = max(self.fresh_at, sent)

    def submit(self, session: str | None, kind: str, **args: Any) -> Any:
        """Append a change, apply the log up to it, and give its outcome (or raise its error)."""
        assert self.sessions is not None
        now = self.sessions.replica(session).store.clock()  # the one reading every replica uses
        payload = encode(Change(kind, session, args, now))
        keys = [self.key["epoch"], self.key["log"], self.key["seq"]]
        sent = time.monotonic()
        sent_args = [self.epoch, self.last_id, payload, secrets.token_hex(8)]
        # sent again if its answer was lost, marked so: the script finds it in the log if it was applied
        answer = self._call(self._hot.run, "append", keys, [*sent_args, b"0"], again=[*sent_args, b"1"])
        if answer is None:  # the engine started again meanwhile: this change was not taken
            self._rejoin()
            raise EngineUnavailable("The shared engine lost its state and was started again; retry.")
        own, entries = answer
        try:
            outcome = self._apply(entries, own)
        except _Behind:
            self._load_snapshot()
            self.catch_up()
            raise EngineUnavailable("This worker fell behind the shared log; retry.") from None
        self.fresh_at = max(self.fresh_at, sent)  # the log up to this change is applied
        ok, value = outcome
        if not ok:
            raise value
        return value

    def _apply(self, entries: list[Any], own: bytes | None = None) -> tuple[bool, Any]:
        assert self.sessions is not None
        outcome: tuple[bool, Any] = (False, EngineUnavailable("The change was not found in the log."))
        for entry_id, fields in entries:
            n = int(fields[1])
            if n <= self.applied:
                continue  # already here (a snapshot loaded past it)
            if n != self.applied + 1:
                raise _Behind
            try:
                change = decode(fields[3])
                result: tuple[bool, Any] = (True, apply(self.sessions, change, entry_id == own))
            except ApiError as exc:  # refused alike everywhere: it changed nothing
                result = (False, exc)
            except Exception:  # a bug: this replica may now differ; say so loudly
                log.exception("change %d could not be applied", n)
                result = (False, EngineUnavailable("The mock failed to apply this change; see its log."))
            self.applied, self.last_id = n, entry_id
            if entry_id == own:
                outcome = result
        if self.applied - self._snapshot_seen >= self.snapshot_every:
            self._maybe_snapshot()
        return outcome

    def _rejoin(self) -> None:
        """The engine's content is gone (a Redis without persistence restarted): start it again
        from this replica's state, so what this worker had applied is kept."""
        log.warning("the engine at %s lost its state; starting it again from this worker's", self.url)
        meta = self.meta() or {}
        self._join(meta)

    # ------------------------------------------------------------------ snapshots
    def _capture(self) -> list[tuple[str | None, Any, dict[str, Any], float | None]]:
        assert self.sessions is not None
        every = (self.sessions.default, *self.sessions.changed())
        return [(s.name, s.store.capture(), s.controls.fault_state(), s.written) for s in every]

    @staticmethod
    def _snapshot_body(epoch: bytes, n: int, entry_id: bytes, captured: list[Any]) -> str:
        sessions = [
            {"name": name, "state": capture.render(), "faults": faults, "written": written}
            for name, capture, faults, written in captured
        ]
        body = {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "epoch": epoch.decode()}
        return json.dumps({**body, "n": n, "id": entry_id.decode(), "sessions": sessions})

    def _write_snapshot(self, save: Any, epoch: bytes, n: int, entry_id: bytes, captured: list[Any]) -> None:
        """Render the captured state and keep it through `save` (the _SAVE script on some client)."""
        body = self._snapshot_body(epoch, n, entry_id, captured)
        keys = [self.key[k] for k in ("epoch", "log", "snapshot", "snapshot-at")]
        save(keys, [epoch, n, entry_id, body])

    def _maybe_snapshot(self) -> None:
        """Every `snapshot_every` changes, one worker writes a snapshot (the others find the lock)."""
        self._snapshot_seen = self.applied  # one is being written, here or by the worker with the lock
        self._reap()
        lock = self.key["snapshot"] + ":lock"
        if self._saving or not self._call(self.client.set, lock, b"1", nx=True, ex=60):
            return
        self._saving = True
        writer = self.snapshot_writer
        if writer == "child" or (writer == "auto" and hasattr(os, "fork") and threading.active_count() == 1):
            self._snapshot_in_child(lock)
        else:
            self._snapshot_in_thread(lock)

    def _snapshot_in_child(self, lock: str) -> None:
        """Fork; the child renders the state as it was at the fork and writes it on a connection of
        its own (the parent's sockets stay the parent's: it neither uses nor closes them)."""
        epoch, n, entry_id = self.epoch, self.applied, self.last_id
        assert epoch is not None
        with warnings.catch_warnings():  # Python 3.12+ warns of fork beside threads: see above
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
        if pid:
            self._child = pid
            return
        code = 1
        try:  # the child: no handlers of the worker's, no collections (they copy pages), no cleanup
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.set_wakeup_fd(-1)
            # the worker's descriptors are not the child's: its Redis connections, and the port it
            # listens on, which a server stopped mid-snapshot must give back at once
            os.closerange(3, os.sysconf("SC_OPEN_MAX"))
            gc.disable()
            client = redis.Redis.from_url(self._address, socket_timeout=60, socket_connect_timeout=5)
            self._write_snapshot(client.register_script(_SAVE), epoch, n, entry_id, self._capture())
            client.delete(lock)
            code = 0
        finally:
            os._exit(code)

    def _reap(self) -> None:
        """The snapshot child, once it has ended (a zombie until then): the next one may start."""
        if not self._child:
            return
        try:
            pid, status = os.waitpid(self._child, os.WNOHANG)
        except ChildProcessError:  # reaped by someone else
            pid, status = self._child, 0
        if pid:
            if status:
                code = os.waitstatus_to_exitcode(status)
                log.warning("the snapshot writer ended with status %d; its lock expires by itself", code)
            self._child, self._saving = 0, False

    def _snapshot_in_thread(self, lock: str) -> None:
        epoch, n, entry_id, captured = self.epoch, self.applied, self.last_id, self._capture()
        assert epoch is not None

        def save() -> None:  # rendering takes a while: not on the event loop
            try:
                self._write_snapshot(self._save, epoch, n, entry_id, captured)
            except _ERRORS as exc:
                log.warning("could not write a snapshot: %s", self.scrub(exc))
            finally:
                self._saving = False
                with contextlib.suppress(*_ERRORS):  # else the lock expires by itself
                    self.client.delete(lock)

        threading.Thread(target=save, name="csapi-snapshot", daemon=True).start()

    def _load_snapshot(self) -> None:
        assert self.sessions is not None
        sessions = self.sessions
        raw = self._call(self.client.get, self.key["snapshot"])
        data = json.loads(raw) if raw is not None else None
        if not data or data.get("format") != SNAPSHOT_FORMAT or data.get("version") != SNAPSHOT_VERSION:
            raise EngineUnavailable(f"The shared engine holds no {SNAPSHOT_FORMAT} this csapi reads.")
        for session in sessions.changed():  # what the snapshot does not hold is gone
            assert session.name is not None
            sessions.drop(session.name)
        clock = sessions.default.store.clock
        for entry in data["sessions"]:
            name = entry["name"]
            if name is None:
                session = sessions.default
                session.store.reset(entry["state"])
            else:
                session = sessions.put(name, Store(clock=clock, data=entry["state"]))
            session.controls.restore_faults(entry["faults"])
            session.written = entry["written"]
        self.applied, self.last_id = data["n"], data["id"].encode()
        self._snapshot_seen = self.applied

    # ------------------------------------------------------------------ plumbing
    def close(self) -> None:
        """Close the connections to Redis (the app's lifespan does it when the worker stops); a
        snapshot child still writing finishes on its own."""
        self._reap()
        self._hot.close()
        self.client.close()

    def _call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        try:
            result = function(*args, **kwargs)
        except _ERRORS as exc:
            self.reachable = False
            reason = self.scrub(exc)
            raise EngineUnavailable(f"The shared engine ({self.url}) cannot be reached: {reason}") from None
        self.reachable = True
        return result

    def scrub(self, error: Exception | str) -> str:
        """An error's text with the URL's credentials, if it quotes them, shown as ***."""
        text = str(error)
        for secret in self._secrets:
            text = text.replace(secret, "***")
        return text


class _HotPath:
    """The two scripts every request runs, on one connection of the worker's own, called through
    redis-py's connection API (send_command, read_response) rather than its client: the client's
    pool, retry and observability layers cost as much CPU as the round trip itself (19 against
    9 us here), on every request. Only the event loop uses it, one call at a time.

    The connection is taken from the client's pool once and given back by `close` (a slot of the
    pool is never lost: a connection Redis dropped is reconnected, the same object, never replaced
    by a new one). Before each call it is checked as the pool checks a connection it hands out: one
    Redis closed (a restart, a failover, CLIENT KILL, an idle timeout) is readable, and is replaced
    by a fresh one before anything is sent on it; connecting is redis-py's, with the pool's retry
    and backoff (`_retry`)."""

    def __init__(self, client: redis.Redis, scripts: dict[str, str]):
        self.client = client
        self.pool = client.connection_pool
        self.scripts = scripts
        self.sha = {name: hashlib.sha1(text.encode()).hexdigest() for name, text in scripts.items()}
        self.connection: Any = None
        # a call whose connection broke once it was sent is sent again, once, on a fresh connection
        self.resend = Retry(NoBackoff(), 1, supported_errors=(redis.ConnectionError,))

    def run(self, name: str, keys: list[str], args: list[Any], *, again: list[Any] | None) -> Any:
        """The script's answer. `again`: its arguments for a second sending if the connection broke
        once the first was sent (its answer lost: it may have been applied); None: not sent again."""
        if self.connection is None:
            # connects (with the retry); a connect that fails gives the connection back itself
            self.connection = self.pool.get_connection()
        connection = self.connection
        sendings = [args] if again is None else [args, again]

        def once() -> Any:
            sent = sendings.pop(0) if len(sendings) > 1 else sendings[0]
            connection.send_command("EVALSHA", self.sha[name], len(keys), *keys, *sent)
            return connection.read_response()

        def reconnect(error: Exception) -> None:
            connection.disconnect()
            connection.connect()

        try:
            if connection._sock is not None and _stale(connection):
                connection.disconnect()
            connection.connect()  # a no-op when connected
            try:
                return self.resend.call_with_retry(once, reconnect) if again is not None else once()
            except redis.exceptions.NoScriptError:  # a Redis started afresh: load them again
                for text in self.scripts.values():
                    self.client.script_load(text)
                return once()
        except BaseException:
            connection.disconnect()  # whatever it was in the middle of: a fresh connection next time
            raise

    def close(self) -> None:
        connection, self.connection = self.connection, None
        if connection is not None:
            try:
                connection.disconnect()
            finally:
                self.pool.release(connection)


def _stale(connection: Any) -> bool:
    """A connection with something to read before a command is sent: closed by Redis, or a reply
    left over from a call cut short. Either way it is not to be sent on."""
    try:
        return bool(connection.can_read())
    except _ERRORS:
        return True


def _secrets(url: str) -> list[str]:
    """The credentials in an engine URL as given and as decoded, the longest first."""
    found: set[str] = set()
    with contextlib.suppress(ValueError):
        parts = urlsplit(url)
        if parts.password:
            found.add(parts.password)
        if parts.username and parts.password is None:  # a lone user part: maybe a password
            found.add(parts.username)
        for key, value in parse_qsl(parts.query, keep_blank_values=True):
            if any(word in key.lower() for word in _SECRET_QUERY):
                found.add(value)
    found |= {unquote(secret) for secret in found}
    return sorted((secret for secret in found if secret), key=len, reverse=True)


def split_url(url: str) -> tuple[str, str, int]:
    """(the URL redis-py is given, the key prefix, changes between snapshots): `?prefix=` and
    `?snapshot_every=` are ours, not redis-py's."""
    parts = urlsplit(url)
    query = parse_qsl(parts.query, keep_blank_values=True)
    ours = {k: v for k, v in query if k in ("prefix", "snapshot_every")}
    every = ours.get("snapshot_every", str(SNAPSHOT_EVERY))
    if not every.isdigit() or int(every) < 1:
        raise ValueError(f"snapshot_every={every!r}: a number of changes, 1 or more")
    rest = urlencode([(k, v) for k, v in query if k not in ours])
    return urlunsplit(parts._replace(query=rest)), ours.get("prefix", DEFAULT_PREFIX), int(every)


def redacted(url: str) -> str:
    """An engine URL fit to print, log or answer (503 bodies reach any client): the credentials
    in it shown as ***, wherever they are: a password in the user part (`redis://user:pw@host`,
    `redis://:pw@host`), a lone user part (redis-py reads it as a user name, but it may well be a
    password), a query parameter naming one (`?password=`, any case). A URL urllib cannot read
    keeps only its scheme."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        after_scheme = url.partition("://")[2] if "://" in url else url
        if "@" not in netloc and "@" in after_scheme:  # an unescaped ? or # in a password; no //
            raise ValueError("no URL to show")
        if "@" in netloc:
            user_info, _, host = netloc.rpartition("@")
            user, colon, _ = user_info.partition(":")
            netloc = f"{user}:***@{host}" if colon else f"***@{host}"
        query = parse_qsl(parts.query, keep_blank_values=True)
        secret = [any(word in k.lower() for word in _SECRET_QUERY) for k, _ in query]
        if netloc == parts.netloc and not any(secret):
            return url
        shown = [(k, "***" if hidden else v) for (k, v), hidden in zip(query, secret, strict=True)]
        return urlunsplit(parts._replace(netloc=netloc, query=urlencode(shown, safe="*{}")))
    except ValueError:
        scheme = url.partition("://")[0] if "://" in url else ""
        return f"{scheme[:16]}://***"


class SharedJournal(Journal):
    """A session's journal in a Redis list (newest first, `size` long) that every worker pushes
    to and reads from. A worker pushes its entries after answering, in one call per turn of the
    event loop however many requests it answered meanwhile; the run's totals (the report) stay
    this worker's."""

    def __init__(self, local: Journal, engine: RedisEngine, key: str):
        super().__init__(local.size, local.clock)
        self.usage, self.started = local.usage, local.started
        self.engine = engine
        self.key = key
        self._pending: list[str] = []
        self._scheduled = False

    def record(self, *args: Any, **kwargs: Any) -> None:
        super().record(*args, **kwargs)
        self._pending.append(json.dumps(view(self.entries[-1])))
        del self._pending[: -self.size]  # kept while Redis is away: the newest `size` at most
        if self._scheduled:
            return
        try:
            asyncio.get_running_loop().call_soon(self._push)
            self._scheduled = True
        except RuntimeError:  # no event loop: push now
            self._push()

    def _push(self, waiting: bool = True) -> None:
        """Send the pending lines; while the engine is known to be away (its last call failed),
        keep them for the first push after it is back instead of one more connect per turn."""
        self._scheduled = False
        if not self._pending or (waiting and not self.engine.reachable):
            return
        pending, self._pending = self._pending, []
        try:
            with self.engine.client.pipeline(transaction=False) as pipe:  # its connection given back
                pipe.lpush(self.key, *pending)
                pipe.ltrim(self.key, 0, self.size - 1)
                pipe.execute()
        except _ERRORS as exc:  # the requests were answered: their lines wait for the next push
            self.engine.reachable = False
            self._pending[:0] = pending
            del self._pending[: -self.size]
            log.warning("could not journal %d request(s) yet: %s", len(pending), self.engine.scrub(exc))

    def render(self, limit: int | None = None) -> list[dict[str, Any]]:
        self._push(waiting=False)
        rows = self.engine._call(self.engine.client.lrange, self.key, 0, (limit or self.size) - 1)
        return [json.loads(row) for row in rows]

    def clear(self) -> None:
        super().clear()
        self._pending.clear()
        self.engine._call(self.engine.client.delete, self.key)

    def reset(self) -> None:
        super().reset()
        self.clear()
