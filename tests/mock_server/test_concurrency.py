"""32 clients at once on the same collections, against a real uvicorn server (issue 7, part 1).

The clients of benchmarks/workload.py create, stack, move, reorder, tag, comment on, like,
copy and delete items of four shared collections for a few seconds. Then: no answer was a
5xx or contradicted itself, every acknowledged write is in the state and every acknowledged
delete gone, ids are unique, every count the API gives equals a recount of the snapshot's
tables, and the store's indexes equal a recount of its tables (Store.check_invariants).
benchmarks/soak.py runs the same workload for minutes against `csapi serve`.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import uvicorn

from benchmarks.workload import Ledger, prepare, run_clients, verify
from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store

API_KEY = "concurrency-key"
CLIENTS = 32
SECONDS = 3.0  # then on until every kind of write raced a few times (a loaded machine is slower)
AT_MOST = 15.0
RACED = ("create item", "create stack", "move", "stack", "reorder", "delete item", "delete items",
         "tag", "untag", "comment", "uncomment", "like", "unlike", "read collection")  # fmt: skip
MIN_ACKS, MIN_REQUESTS = 3, 300


def exercised(ledger: Ledger) -> bool:
    return ledger.requests >= MIN_REQUESTS and all(ledger.acks[op] >= MIN_ACKS for op in RACED)


@contextmanager
def serving(app: Any) -> Iterator[str]:
    """The app under uvicorn in a thread, on a free port of 127.0.0.1; its base URL."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws="none", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(20)
        sock.close()


@pytest.fixture(scope="module")
def loaded() -> Iterator[tuple[Store, str, Any, Ledger]]:
    """The store and server after the workload: (store, base URL, cast, ledger)."""
    store = Store(data=generate("default", 0))
    with serving(create_app(store, api_key=API_KEY)) as base_url:
        cast = asyncio.run(prepare(base_url, API_KEY))
        ledger = Ledger()
        asyncio.run(
            run_clients(
                base_url, cast, ledger, clients=CLIENTS, seconds=SECONDS, until=exercised, at_most=AT_MOST
            )
        )
        yield store, base_url, cast, ledger


def test_no_answer_failed_or_contradicted_itself(loaded):
    store, base_url, cast, ledger = loaded
    assert ledger.failures == [], ledger.summary()
    assert ledger.failure_count == 0
    assert not [status for status in ledger.statuses if status >= 500]
    # the mix ran: each kind of write raced a few times (a vacuous run would pass anything)
    assert exercised(ledger), ledger.summary()


def test_every_acknowledged_write_is_kept_and_every_count_adds_up(loaded):
    store, base_url, cast, ledger = loaded
    assert asyncio.run(verify(base_url, cast, ledger)) == []
    assert store.check_invariants() == []


def test_the_checks_see_a_lost_write_and_a_wrong_count(loaded):
    """Planted after the run: an acknowledged item gone behind the API's back, and an index that
    undercounts a collection. `verify` must name both (else its silence above would mean nothing)."""
    store, base_url, cast, ledger = loaded
    lost = next(i for i, live in ledger.items.items() if live and i not in ledger.uncertain)
    store.items[lost].deleted_at = store.now()
    store._unlink_item(store.items[lost])
    miscounted = next(cid for cid in cast.collections if store._live[cid])
    store._live[miscounted].pop(next(iter(store._live[miscounted])))
    # changed behind the API, so no write told the app's read cache (if any) to forget its answers
    store.generation += 1
    problems = asyncio.run(verify(base_url, cast, ledger))
    assert f"item {lost} was acknowledged and never deleted, yet it is deleted" in problems
    assert any(f"items_total_count of {miscounted}" in problem for problem in problems), problems
    assert any("_live" in problem for problem in store.check_invariants())
