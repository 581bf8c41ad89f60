"""Fixtures of the conformance suite's tests: the mock served over real HTTP in a thread.

The suite is black-box: it must see its target only over HTTP, so the tests start
`csapi serve`'s app with uvicorn on a free local port, as a server team would run it.
`serve_app` serves any ASGI app (e.g. the mock wrapped in a planted fault).
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
import uvicorn

from csapi.conformance.settings import Settings, User
from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store

API_KEY = "conform-key"
# --settle of the tests' runs: more than the lag of the lagging variant (tests/conformance/
# variants_views.py), less than the default, so that a planted fault's view that never settles
# costs the run less time
SETTLE = 1.5
# --settle of a run against the mock with no variant in front (a planted fault's, the correct
# mock's): the mock shows every write at once, so a view that has not settled by then never will
SETTLE_AT_ONCE = 0.2


@dataclass
class Live:
    """A served mock: where it is, its store, and settings for a run against it."""

    base_url: str
    store: Store

    def settings(self, **overrides: Any) -> Settings:
        users = tuple(User(a.id, a.token) for a in self.store.accounts.values() if not a.is_team)[:3]
        team = next(a.id for a in self.store.accounts.values() if a.is_team)
        values: dict[str, Any] = {
            "base_url": self.base_url,
            "api_key": API_KEY,
            "users": users,
            "team_id": team,
            "settle": SETTLE,
        }
        values.update(overrides)
        return Settings(**values)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def serve_app(app: Any) -> Iterator[str]:
    """Serve an ASGI app on 127.0.0.1 in a background thread; yields its base URL."""
    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=port, log_level="error", lifespan="off")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def live_mock(seed: int = 0, wrap: Any = None, strict_requests: bool = False) -> Iterator[Live]:
    """The mock on the default fixtures, served; `wrap(app)` may put a fault in front of it."""
    store = Store(data=generate("default", seed))
    app = create_app(store, api_key=API_KEY, strict_requests=strict_requests)
    with serve_app(wrap(app) if wrap else app) as base_url:
        yield Live(base_url, store)


@pytest.fixture
def live() -> Iterator[Live]:
    with live_mock() as served:
        yield served


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The ratio of planted faults the suite detected, and by which layer (test_faults.py)."""
    import sys

    tried = getattr(sys.modules.get("tests.conformance.test_faults"), "DETECTED", None)
    if not tried:
        return
    write = terminalreporter.write_line
    terminalreporter.write_sep("-", "planted faults")
    for layer in ("contract", "behaviour", "access"):
        names = sorted(name for name, layers in tried.items() if layer in layers)
        write(f"found by {layer} ({len(names)}): {', '.join(names)}")
    missed = sorted(name for name, layers in tried.items() if not layers)
    if missed:
        write(f"undetected ({len(missed)}): {', '.join(missed)}")
    write(f"planted faults detected: {len(tried) - len(missed)}/{len(tried)}")
