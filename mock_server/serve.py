"""`csapi serve`: run the mock with uvicorn, print how to call it, keep its state in a file.

With `--state FILE` the state (and the API key) is loaded from FILE at start when it
exists, and written back on shutdown (and every `--autosave` seconds when it changed), so
a developer's data survives a restart. That is the default session's state: the sessions
of `X-Mock-Session` live in memory only. Every write is atomic and durable: a temporary
file in the same folder, fsync, rename over FILE, fsync of the folder; a kill at any
moment leaves the old state or the new one. A FILE that cannot be used stops serve before
it starts (exit status EXIT_STATE_FILE), so nothing is ever saved over it.

`--tls` serves HTTPS with a certificate made for the run by a throwaway local CA (trustme).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import functools
import gc
import ipaddress
import json
import os
import secrets
import signal
import socket
import ssl
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import InvalidInput
from .store import Store
from .store.core import SNAPSHOT_FORMAT, SNAPSHOT_VERSION, Capture

# Exit statuses of `csapi serve` besides 0 (stopped) and click's 2 (bad usage): uvicorn's own
# 3 when it cannot listen (port in use), and this one for a --state file it will not touch.
EXIT_CANNOT_LISTEN = 3
EXIT_STATE_FILE = 4
EXIT_ENGINE = 5
OPTIONS_VARIABLE = "CSAPI_SERVE_OPTIONS"  # how `--workers` hands the options to each worker


class EngineError(Exception):
    """The --engine cannot be used (unreachable, or a URL no engine serves)."""


class StateFileError(Exception):
    """The state file exists but cannot be used; it is left as it is."""


class ServeUsageError(ValueError):
    """Options that do not go together, or TLS files that cannot be loaded."""


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    seed: int | None = None  # None: 0 on a loopback bind, drawn at random on any other (resolve_seed)
    fixtures: str = "default"
    api_key: str | None = None
    admin: bool = True
    state: Path | None = None
    validate_responses: bool = False
    autosave: float | None = None  # seconds between saves of --state while it changes
    tls: bool = False  # HTTPS with a certificate made for this run
    certfile: Path | None = None  # HTTPS with the caller's certificate and key
    keyfile: Path | None = None
    cache: bool = True  # answer a repeated GET from mock_server/cache.py until the next write
    cors: bool = True  # CORS headers and preflights for web pages on other origins (cors.py)
    cors_origins: tuple[str, ...] = ()  # only these origins get them; empty: any origin
    latency: str | None = None  # "50-200": ms added to each API request, uniform, seeded (control.py)
    error_rate: float = 0.0  # this share of API requests answers a 5xx/429, seeded (control.py)
    report: Path | None = None  # the client's contract report, written at shutdown (journal.py)
    strict_requests: bool = False  # refuse unknown query parameters and body fields (tolerance.py)
    max_sessions: int = 100  # X-Mock-Session sandboxes alive at once, besides the default (sessions.py)
    session_ttl: float = 3600.0  # idle seconds after which such a session is dropped
    engine: str | None = None  # a shared engine's URL (redis://...): the state lives there (engine/)
    workers: int = 1  # processes serving the port; more than one needs `engine`
    admin_origins: tuple[str, ...] = ()  # pages that may call the admin API (shield.py)
    allowed_hosts: tuple[str, ...] = ()  # Host names a loopback bind answers besides loopback ones
    admin_token: str | None = None  # the admin API's X-Mock-Admin-Token; off without it if not loopback


def resolve_seed(options: ServeOptions) -> ServeOptions:
    """`--seed` not given: 0 on a loopback bind (the same credentials every run, as a developer
    expects), drawn at random on any other, so that fixture credentials are not known to all."""
    if options.seed is not None:
        return options
    return dataclasses.replace(options, seed=0 if is_loopback(options.host) else secrets.randbelow(2**31))


def admin_on(options: ServeOptions) -> bool:
    """The admin API is served: asked for, and on a loopback bind or behind --admin-token."""
    return options.admin and (is_loopback(options.host) or options.admin_token is not None)


def shield_options(options: ServeOptions) -> Any:
    from .shield import ShieldOptions

    return ShieldOptions(
        admin_origins=options.admin_origins,
        allowed_hosts=frozenset(options.allowed_hosts) if is_loopback(options.host) else None,
        admin_token=options.admin_token,
    )


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------- the state file
def load_state(path: Path) -> tuple[dict[str, Any], str | None]:
    """(snapshot, API key saved with it) from a state file written by `save_state`."""
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StateFileError(f"{path} is not a csapi state file: {_one_line(exc)}") from None
    if not isinstance(data, dict):
        raise StateFileError(f"{path} is not a csapi state file: not a JSON object")
    if "format" not in data and {"sequences", "accounts"} <= data.keys():
        data = {**data, "format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION}  # saved before the marker
    if data.get("format") != SNAPSHOT_FORMAT:
        raise StateFileError(f'{path} is not a csapi state file: no "format": "{SNAPSHOT_FORMAT}"')
    if data.get("version") != SNAPSHOT_VERSION:
        raise StateFileError(
            f"{path} is a csapi state file of version {data.get('version')!r}; "
            f"this csapi reads version {SNAPSHOT_VERSION}"
        )
    api_key = data.get("api_key")
    if api_key is not None and not (isinstance(api_key, str) and api_key):
        raise StateFileError(f"{path}: the saved api_key is not a string")
    return data, api_key


def save_state(path: Path, store: Store, api_key: str) -> None:
    """Write the store's state and the API key to `path`, atomically and durably."""
    write_state(path, store.capture(), api_key)


def write_state(path: Path, capture: Capture, api_key: str) -> None:
    """Render a capture and write it: a temporary file beside `path`, fsync, rename over it,
    fsync the folder (POSIX) so the rename itself survives a power cut. Safe in a thread.

    A temporary file is made 0600 by mkstemp, and so is the state file: it holds every
    credential. A failed write removes its temporary file and leaves `path` as it was.

    A symlink is resolved once, and its target written (the temporary file beside the target,
    renamed over it): the link stays a link, where renaming over the link replaced it by a file
    and the target stopped updating.
    """
    data = {**capture.render(), "api_key": api_key}
    path = state_target(path)
    folder = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            for chunk in _encode(data):
                fh.write(chunk)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    if os.name == "posix":
        dir_fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


EXIT_UNSAVED = 1  # serve's exit status when the state could not be saved at shutdown
_CHUNK = 1000  # records per json.dumps call


def _encode(data: dict[str, Any]) -> Iterator[bytes]:
    """`data` as compact JSON, in pieces: json.dumps holds the GIL for a whole call, so one call
    over the large set would stall the event loop for a second while a thread saves."""
    compact: dict[str, Any] = {"separators": (",", ":")}
    yield b"{"
    for n, (key, value) in enumerate(data.items()):
        yield (b"," if n else b"") + json.dumps(key).encode() + b":"
        if isinstance(value, list) and len(value) > _CHUNK:
            yield b"["
            for start in range(0, len(value), _CHUNK):
                piece = json.dumps(value[start : start + _CHUNK], **compact)[1:-1]  # a,b,c of [a,b,c]
                yield (b"," if start else b"") + piece.encode()
            yield b"]"
        else:
            yield json.dumps(value, **compact).encode()
    yield b"}"


def state_target(path: Path) -> Path:
    """The file a save writes: `path`, or the file it links to (a chain of links followed; a link
    to a file not made yet gives that file)."""
    return Path(os.path.realpath(path))


def temporaries(path: Path) -> list[Path]:
    """Temporary files `write_state` leaves beside `path` (its target) when it is killed mid-write."""
    path = state_target(path)
    prefix = f".{path.name}."
    return [p for p in path.parent.iterdir() if p.name.startswith(prefix) and p.name.endswith(".tmp")]


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


class StateKeeper:
    """Saves the store to the state file when it changed since the last save, one save at a time.

    `generation` is the store's change counter; `saved` the one the file holds (None: unknown,
    so the next save writes).
    """

    def __init__(
        self, path: Path, store: Store, api_key: str, saved: int | None, warn: Callable[[str], None]
    ):
        self.path, self.store, self.api_key, self.saved, self.warn = path, store, api_key, saved, warn
        self.writes = 0
        self.failed = False  # the save at shutdown failed: serve exits non-zero (run)

    def changed(self) -> bool:
        return self.store.generation != self.saved

    def save(self) -> bool:
        """Save now, on the caller's thread (shutdown); True when the file was written."""
        if not self.changed():
            return False
        generation = self.store.generation
        write_state(self.path, self.store.capture(), self.api_key)
        self.saved, self.writes = generation, self.writes + 1
        return True

    def save_at_shutdown(self) -> None:
        """One line on stderr if it fails, and `failed` set: the changes since the last save are
        lost, which the exit status says too (run, EXIT_UNSAVED)."""
        try:
            self.save()
        except Exception as exc:  # a traceback in uvicorn's log would bury the one fact that matters
            self.failed = True
            self.warn(
                f"csapi: could not save the state to {self.path} ({_one_line(exc)}); the file is as it was"
            )

    async def save_in_thread(self) -> bool:
        """Capture on the event loop (consistent, a fraction of a second even for the large set),
        render and write in a thread, so requests go on being served meanwhile."""
        if not self.changed():
            return False
        generation = self.store.generation
        capture = self.store.capture()
        write = asyncio.ensure_future(asyncio.to_thread(write_state, self.path, capture, self.api_key))
        try:
            await asyncio.shield(write)
        except asyncio.CancelledError:
            # Shutdown: this write ends before the final save starts, or the two would race.
            await asyncio.wait({write})
            if write.exception() is None:
                self.saved, self.writes = generation, self.writes + 1
            raise
        self.saved, self.writes = generation, self.writes + 1
        return True

    async def autosave(self, interval: float) -> None:
        """Every `interval` seconds, save if the state changed; errors are reported, not fatal."""
        while True:
            await asyncio.sleep(interval)
            try:
                await self.save_in_thread()
            except Exception as exc:  # a full disk must not stop the mock; the next tick retries
                self.warn(f"csapi: autosave to {self.path} failed ({_one_line(exc)}); will retry")


# ---------------------------------------------------------------------- building and running
def check(options: ServeOptions) -> None:
    """Refuse options that do not go together, before anything is loaded or bound."""
    if (options.certfile is None) != (options.keyfile is None):
        raise ServeUsageError("--certfile and --keyfile go together")
    if options.autosave is not None and options.state is None:
        raise ServeUsageError("--autosave needs --state FILE")
    if options.autosave is not None and not options.autosave > 0:
        raise ServeUsageError("--autosave takes a number of seconds above 0")
    if options.certfile is not None and options.keyfile is not None:
        try:
            ssl.create_default_context(ssl.Purpose.CLIENT_AUTH).load_cert_chain(
                options.certfile, options.keyfile
            )
        except (OSError, ssl.SSLError) as exc:
            raise ServeUsageError(f"cannot load --certfile/--keyfile: {_one_line(exc)}") from None
    if options.cors_origins and not options.cors:
        raise ServeUsageError("--cors-origin and --no-cors contradict each other")
    for origin in options.cors_origins:
        from .cors import normalize_origin  # starlette and the guards: only when asked for

        try:
            normalize_origin(origin)
        except ValueError as exc:
            raise ServeUsageError(f"--cors-origin: {exc}") from None
    _check_controls(options)
    _check_shield(options)
    if options.max_sessions < 0:
        raise ServeUsageError("--max-sessions takes a whole number, 0 or more")
    _check_sharing(options)
    if not options.session_ttl > 0:
        raise ServeUsageError("--session-ttl takes a number of seconds above 0")


def _check_shield(options: ServeOptions) -> None:
    if options.admin_origins and not options.cors:
        raise ServeUsageError("--admin-origin needs CORS: leave out --no-cors")
    for origin in options.admin_origins:
        from .cors import normalize_origin

        try:
            normalize_origin(origin)
        except ValueError as exc:
            raise ServeUsageError(f"--admin-origin: {exc}") from None
    if options.admin_token is not None and not options.admin_token.strip():
        raise ServeUsageError("--admin-token takes a non-empty token")
    for name in options.allowed_hosts:
        if not name.strip() or any(c in name for c in "/ @"):
            raise ServeUsageError(f"--allowed-host: {name!r} is not a host name")


def _check_sharing(options: ServeOptions) -> None:
    if options.workers < 1:
        raise ServeUsageError("--workers takes a whole number, 1 or more")
    if options.workers > 1 and options.engine is None:
        raise ServeUsageError(
            "--workers needs --engine URL: separate processes share one state only through an engine "
            "(e.g. --engine redis://localhost:6379/0)"
        )
    if options.engine is not None and options.state is not None:
        raise ServeUsageError("--state and --engine do not go together: the engine holds the state")
    if options.workers > 1 and options.report is not None:
        raise ServeUsageError("--report needs one worker: a worker counts only the requests it answered")


def _check_controls(options: ServeOptions) -> None:
    from .control import parse_latency

    if options.latency is not None:
        try:
            parse_latency(options.latency)
        except ValueError as exc:
            raise ServeUsageError(f"--latency: {exc}") from None
    if not 0 <= options.error_rate <= 1:
        raise ServeUsageError("--error-rate takes a share between 0 and 1, e.g. 0.02")
    folder = options.report.parent if options.report is not None else None
    if folder is not None and not (folder.is_dir() and os.access(folder, os.W_OK | os.X_OK)):
        raise ServeUsageError(f"--report: the folder {folder} does not exist or is not writable")


def build(options: ServeOptions, warn: Callable[[str], None] = _stderr) -> tuple[Any, Store, str]:
    """The app, its store and API key, from the options (and the state file if any)."""
    from ..fixtures import generate
    from .app import create_app
    from .control import Controls, parse_latency

    options = resolve_seed(options)
    assert options.seed is not None  # resolve_seed gives one
    api_key = options.api_key
    saved: int | None = None
    engine = None
    if options.state is not None:
        _check_state_folder(options.state)
    if options.state is not None and options.state.exists():
        data, saved_key = load_state(options.state)
        try:
            store = Store(data=data)
        except InvalidInput as exc:
            raise StateFileError(f"{options.state} is not a usable csapi state: {_one_line(exc)}") from None
        if saved_key is not None and api_key in (None, saved_key):
            saved = store.generation  # the file holds this state and key: no need to write it again
        api_key = api_key or saved_key
    else:
        fixture_set, seed = options.fixtures, options.seed
        engine = _open_engine(options.engine) if options.engine is not None else None
        shared = _engine_call(engine.meta) if engine is not None else None
        if shared is not None:  # a later worker: the engine's key, fixture set and seed
            if api_key is not None and api_key != shared["api_key"]:
                raise EngineError(
                    f"{_redacted(options.engine)} serves with another API key than --api-key: leave it out"
                )
            api_key, fixture_set, seed = shared["api_key"], shared["fixtures"], shared["seed"]
        store = Store(data=generate(fixture_set, seed))  # on an engine: replaced by its state
    api_key = api_key or secrets.token_hex(16)

    keeper = None
    if options.state is not None:
        for leftover in temporaries(options.state):  # from a save that was killed; never read
            leftover.unlink(missing_ok=True)
        keeper = StateKeeper(options.state, store, api_key, saved, warn)
    interval = options.autosave
    controls = Controls(
        seed=options.seed,
        latency=parse_latency(options.latency) if options.latency is not None else None,
        error_rate=options.error_rate,
    )
    report = options.report

    def on_shutdown() -> None:
        if keeper is not None:
            keeper.save_at_shutdown()
        if report is not None:
            write_report_at_shutdown(report, controls, warn)

    make_app = functools.partial(
        create_app,
        store,
        api_key=api_key,
        admin=admin_on(options),
        validate_responses=options.validate_responses,
        strict_requests=options.strict_requests,
        cache=options.cache,
        cors=options.cors,
        cors_origins=options.cors_origins or None,
        controls=controls,
        fixtures=options.fixtures,  # what an X-Mock-Session sandbox starts from, --state or not
        seed=options.seed,
        max_sessions=options.max_sessions,
        session_ttl=options.session_ttl,
        on_shutdown=on_shutdown if keeper is not None or report is not None else None,
        background=(lambda: keeper.autosave(interval)) if keeper is not None and interval else None,
        engine=engine,
        shield=shield_options(options),
    )
    app = _engine_call(make_app)  # on an engine, joining it may fail
    store.search_index  # noqa: B018  # build it now, not during the first search request
    app.state.keeper = keeper
    return app, store, api_key


def _redacted(url: str | None) -> str:
    from .engine import redacted  # the engine's URL as printed: no password

    return redacted(url or "")


def _open_engine(url: str) -> Any:
    from .engine import open_engine

    try:
        engine = open_engine(url)
    except ValueError as exc:
        raise EngineError(f"--engine: {exc}") from None
    # serve owns the process: snapshots from a forked child (no GIL-bound render on the event
    # loop). Its one other thread, uvicorn's health check under --workers, waits on a pipe and
    # holds nothing the child takes, so "auto"'s one-thread rule would only refuse it needlessly.
    engine.snapshot_writer = "child" if hasattr(os, "fork") else "thread"
    return engine


def _engine_call(function: Callable[[], Any]) -> Any:
    from .errors import EngineUnavailable

    try:
        return function()
    except EngineUnavailable as exc:
        raise EngineError(f"--engine: {exc.message}") from None


def write_report_at_shutdown(path: Path, controls: Any, warn: Callable[[str], None]) -> None:
    """`--report FILE`: the client's contract report (HTML for .html, else JSON); errors are told."""
    from .report import write_report

    try:
        write_report(path, controls.journal.report(controls.operations))
    except Exception as exc:
        warn(f"csapi: could not write the report to {path} ({_one_line(exc)})")


def _check_state_folder(path: Path) -> None:
    """A state that could not be saved at shutdown would be lost: refuse to start instead."""
    folder = state_target(path).parent
    if not folder.is_dir():
        raise StateFileError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StateFileError(f"{path}: the folder {folder} is not writable")


def is_loopback(host: str) -> bool:
    """Whether only this machine can reach `host` (a name other than localhost may be anything)."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind_warning(host: str, admin: bool, admin_token: str | None = None) -> str | None:
    """The warning to print when the admin API was asked for on a bind other machines reach,
    without the --admin-token it needs there: it is off."""
    if not admin or is_loopback(host) or admin_token is not None:
        return None
    return (
        f"WARNING: listening on {host}: the admin API (/__mock__/credentials and the rest) is off, "
        "since other machines can reach this port and no --admin-token was given. Pass "
        "--admin-token TOKEN to serve it, --no-admin to say it is meant, or --host 127.0.0.1."
    )


def url_host(host: str) -> str:
    """The host to put in the banner's URLs: every interface is reached through loopback (and
    the certificate names loopback, not 0.0.0.0); an IPv6 address goes in brackets."""
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


@dataclass(frozen=True)
class TlsFiles:
    certfile: Path
    keyfile: Path
    cafile: Path | None  # the CA to trust when the certificate was made here


def make_certificate(host: str, folder: Path) -> TlsFiles:
    """A local CA and a server certificate it signs for localhost, the loopback addresses and `host`
    (this machine's name when `host` is every interface), written to `folder`."""
    import trustme

    names = {"localhost", "127.0.0.1", "::1"}
    if host in ("0.0.0.0", "::", ""):
        names.add(socket.gethostname())
    else:
        names.add(host.strip("[]"))
    ca = trustme.CA(organization_name="csapi mock server (local, throwaway)")
    server = ca.issue_cert(*sorted(names))
    files = TlsFiles(folder / "csapi-server.pem", folder / "csapi-server.key", folder / "csapi-ca.pem")
    ca.cert_pem.write_to_path(str(files.cafile))
    server.cert_chain_pems[0].write_to_path(str(files.certfile))
    for extra in server.cert_chain_pems[1:]:
        extra.write_to_path(str(files.certfile), append=True)
    fd = os.open(files.keyfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as fh:
        fh.write(server.private_key_pem.bytes())
    return files


def banner(
    base_url: str,
    store: Store,
    api_key: str,
    admin: bool,
    cafile: Path | None = None,
    engine: str | None = None,
    workers: int = 1,
    admin_token: bool = False,
    random_seed: int | None = None,
    admin_asked: bool = False,
) -> str:
    """What a client developer needs to make a first call, ready to paste. `admin_token`: the
    admin API needs it; `random_seed`: the fixtures' seed, drawn at random (no --seed, not loopback)."""
    curl = f"curl -s --cacert {cafile}" if cafile is not None else "curl -s"
    lines = [f"csapi mock server on {base_url}", f"  API key:  {api_key}"]
    if cafile is not None:
        lines.append(f"  TLS CA:   {cafile} (made for this run; gone when it stops)")
    if engine is not None:
        from .engine import redacted

        plural = "s" if workers > 1 else ""
        lines.append(f"  engine:   {redacted(engine)} ({workers} worker{plural} here, one shared state)")
    user = next((a for a in store.accounts.values() if not a.is_team), None)
    if user is not None:
        basic = base64.b64encode(f"{user.id}:{user.token}".encode()).decode()
        lines += [
            f"  user:     id {user.id} ({user.username}, plan {user.plan}), token {user.token}",
            f"  try:      {curl} -H 'X-API-Key: {api_key}' -u {user.id}:{user.token} "
            f"{base_url}/v1/collections",
            f"  header:   Authorization: Basic {basic}",
        ]
    if random_seed is not None:
        lines.append(
            f"  fixtures: seed {random_seed}, drawn at random (not a loopback bind; --seed N chooses)"
        )
    if admin and admin_token:
        lines.append("  admin:    needs the header X-Mock-Admin-Token (the --admin-token given)")
    elif not admin and admin_asked:
        lines.append("  admin:    off (not a loopback bind: it needs --admin-token TOKEN)")
    lines.append(f"  docs:     {base_url}/v1/ui/")  # the last line before the admin API's
    if admin:
        token = " -H 'X-Mock-Admin-Token: <your --admin-token>'" if admin_token else ""
        lines.append(f"  all credentials: {curl}{token} {base_url}/__mock__/credentials")
    return "\n".join(lines)


def run(
    options: ServeOptions, echo: Callable[[str], Any] = print, warn: Callable[[str], None] = _stderr
) -> None:
    """Serve until interrupted; the app saves the state on its way down (lifespan shutdown).

    Raises ServeUsageError or StateFileError before serving; uvicorn exits 3 if it cannot listen.
    """
    import uvicorn

    check(options)
    drawn = options.seed is None and not is_loopback(options.host)
    options = resolve_seed(options)  # every worker gets the same one
    gc.disable()  # loading `large` makes millions of objects: collecting meanwhile only costs time
    try:
        app, store, api_key = build(options, warn)
    finally:
        gc.enable()
    _collect_rarely()
    with contextlib.ExitStack() as cleanup:
        tls: dict[str, str] = {}
        cafile = None
        if options.certfile is not None and options.keyfile is not None:
            tls = {"ssl_certfile": str(options.certfile), "ssl_keyfile": str(options.keyfile)}
        elif options.tls:
            folder = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="csapi-tls-")))
            files = make_certificate(options.host, folder)
            tls = {"ssl_certfile": str(files.certfile), "ssl_keyfile": str(files.keyfile)}
            cafile = files.cafile
        scheme = "https" if tls else "http"
        base_url = f"{scheme}://{url_host(options.host)}:{options.port}"
        admin = admin_on(options)
        seed = options.seed if drawn else None
        token = options.admin_token is not None
        engine, workers = options.engine, options.workers
        text = banner(base_url, store, api_key, admin, cafile, engine, workers, token, seed, options.admin)
        echo(text)
        warning = bind_warning(options.host, options.admin, options.admin_token)
        if warning is not None:
            warn(warning)
        cleanup.enter_context(_sigterm_exits_cleanly())
        # the protocol hands each request its connection, for a `drop` fault (compat/uvicorn.py)
        from .compat.uvicorn import KEEP_ALIVE, MAX_CONNECTIONS, MAX_HEAD, TransportProtocol

        listen: dict[str, Any] = {
            "host": options.host,
            "port": options.port,
            "http": TransportProtocol,
            # One process: asyncio's loop, not uvloop, which under load left some connections unread
            # for up to 180 ms (p99.9 of the mixed workload at 32 connections; asyncio's: 20-25 ms).
            # Workers: uvloop, which accepts one connection per wake-up; asyncio's accepts up to
            # the backlog at once, so the first worker to wake took every connection wrk opened.
            "loop": "asyncio" if options.workers == 1 else "auto",
            # bounds of a connection (compat/uvicorn.py also closes one whose request head is not
            # in within HEAD_TIMEOUT s, and refuses a head over MAX_HEAD bytes with 414/431)
            "timeout_keep_alive": KEEP_ALIVE,  # idle seconds after an answer
            "limit_concurrency": MAX_CONNECTIONS,  # past it, a 503 with the error body
            "h11_max_incomplete_event_size": MAX_HEAD,  # if h11 is the protocol uvicorn picks
            **tls,
        }
        if options.workers == 1:
            try:
                uvicorn.run(app, log_level="warning", **listen)
            finally:  # also on SIGTERM's SystemExit(0), which this replaces
                if app.state.keeper is not None and app.state.keeper.failed:
                    raise SystemExit(EXIT_UNSAVED)
            return
        # Each worker is a process of its own that builds its app from the options (`worker_app`),
        # joins the engine the app here has started, and serves the one socket uvicorn listens on.
        del app, store
        os.environ[OPTIONS_VARIABLE] = encode_options(dataclasses.replace(options, api_key=api_key))
        target = f"{__package__}.serve:worker_app"
        uvicorn.run(target, factory=True, workers=options.workers, log_level="warning", **listen)


def worker_app() -> Any:
    """One worker of `serve --workers N` (uvicorn calls it in each process it starts)."""
    options = decode_options(os.environ[OPTIONS_VARIABLE])
    gc.disable()
    try:
        app, _, _ = build(options)
    finally:
        gc.enable()
    _collect_rarely()
    return app


def _collect_rarely() -> None:
    """The loaded data lives as long as the server: keep it out of every later collection, or each
    full collection walks all of it and stalls requests (p99 on `large`); and a young collection
    per 10,000 (not 700) new objects: requests' objects are mostly gone by then, so fewer are
    promoted and full collections (8-20 ms each) come far more rarely."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


_PATHS = ("state", "certfile", "keyfile", "report")


def encode_options(options: ServeOptions) -> str:
    return json.dumps({k: str(v) if k in _PATHS and v is not None else v for k, v in vars(options).items()})


def decode_options(text: str) -> ServeOptions:
    data = json.loads(text)
    paths = {k: Path(data[k]) for k in _PATHS if data.get(k) is not None}
    tuples = {k: tuple(data[k]) for k in ("cors_origins", "admin_origins", "allowed_hosts")}
    return ServeOptions(**{**data, **paths, **tuples})


@contextlib.contextmanager
def _sigterm_exits_cleanly() -> Iterator[None]:
    """uvicorn shuts down gracefully on SIGTERM, then raises it again to the handler it found:
    make that handler a clean exit (status 0) that still runs our cleanup (the TLS folder),
    rather than the default one, which kills the process on the spot."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise SystemExit(0)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
