"""The shared engine (mock_server/engine/, `serve --engine`): workers on one real redis-server.

In process: two apps on one engine play two workers (each with its own replica), which lets the
tests compare the replicas themselves. Over HTTP (test_engine_served.py): real `csapi serve`
processes, killed and started late.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from csapi.mock_server.app import create_app
from csapi.mock_server.engine import open_engine
from csapi.mock_server.engine.changes import Change, decode, encode
from csapi.mock_server.forms import Upload

from .conftest import API_KEY, FREE, PRO, Clock, auth_headers
from .redis_server import RedisServer


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    yield server
    server.stop()


class Worker:
    """One app on the engine, as a worker: its client and its replica."""

    def __init__(self, url: str, **options: Any):
        self.engine = open_engine(url)
        self.app = create_app(api_key=API_KEY, fixtures="empty", engine=self.engine, **options)
        self.client = TestClient(self.app)
        self.client.__enter__()  # one event loop for all its requests (the journal's pushes run on it)

    @property
    def store(self) -> Any:
        return self.app.state.store

    def call(self, method: str, path: str, user: int | None = PRO, **kwargs: Any) -> Any:
        headers = auth_headers(self.store, user) if user is not None else {"X-API-Key": API_KEY}
        headers.update(kwargs.pop("headers", {}))
        return self.client.request(method, path, headers=headers, **kwargs)

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.engine.close()


@pytest.fixture
def workers(redis_server: RedisServer, request: pytest.FixtureRequest) -> Iterator[tuple[Worker, Worker]]:
    redis_server.flush()
    url = redis_server.url(f"t{request.node.name[-40:]}")
    pair = Worker(url), Worker(url)
    yield pair
    for worker in pair:
        worker.close()


def new_collection(worker: Worker, name: str, user: int = PRO) -> int:
    answer = worker.call("POST", "/v1/collections", user=user, json={"name": name, "type": "private"})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


def new_item(worker: Worker, collection_id: int, name: str, user: int = PRO) -> int:
    body = {"type": "text", "content": "hello", "name": name}
    answer = worker.call("POST", f"/v1/collections/{collection_id}/items", user=user, json=body)
    assert answer.status_code == 201, answer.text
    return int(answer.json()["id"])


# ---------------------------------------------------------------------- replication
def test_a_write_on_one_worker_is_read_on_the_other(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    collection_id = new_collection(a, "Shared")
    item_id = new_item(a, collection_id, "On a")
    answer = b.call("GET", f"/v1/items/{item_id}")
    assert answer.status_code == 200 and answer.json()[0]["name"] == "On a"
    renamed = b.call("PUT", f"/v1/items/{item_id}", json={"name": "Renamed on b"})
    assert renamed.status_code == 200, renamed.text
    assert a.call("GET", f"/v1/items/{item_id}").json()[0]["name"] == "Renamed on b"
    # the same ids, times and counts on both replicas: the same state
    assert a.store.snapshot() == b.store.snapshot()


def test_a_refused_write_is_refused_on_both_and_changes_nothing(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    collection_id = new_collection(a, "Mine")
    before = a.store.snapshot()  # b has not caught up yet: it will on its next request
    answer = b.call("PUT", f"/v1/collections/{collection_id}", user=FREE, json={"name": "Not yours"})
    assert answer.status_code in (403, 404) and set(answer.json()) == {"code", "message"}
    assert a.store.snapshot() == b.store.snapshot() == before


def test_replicas_stay_equal_under_a_random_mix_of_writes(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    draw = random.Random(7)
    collections = [new_collection(a, "First")]
    items: list[int] = []
    for step in range(120):
        worker = draw.choice(workers)
        kind = draw.random()
        if kind < 0.1:
            collections.append(new_collection(worker, f"C{step}"))
        elif kind < 0.5 or not items:
            items.append(new_item(worker, draw.choice(collections), f"item {step}"))
        elif kind < 0.65:
            worker.call("PUT", f"/v1/items/{draw.choice(items)}", json={"name": f"renamed {step}"})
        elif kind < 0.75:
            worker.call("POST", f"/v1/items/{draw.choice(items)}/comments", json={"body": f"c{step}"})
        elif kind < 0.85:
            worker.call("POST", f"/v1/items/{draw.choice(items)}/reactions")
        elif kind < 0.92:
            worker.call("DELETE", f"/v1/items/{items.pop(draw.randrange(len(items)))}")
        else:  # a read that writes: log_access stamps the collection
            worker.call("GET", f"/v1/collections/{draw.choice(collections)}", params={"log_access": "true"})
    a.call("GET", "/v1/me")
    b.call("GET", "/v1/me")  # both caught up
    assert a.store.snapshot() == b.store.snapshot()
    assert a.store.check_invariants() == [] and b.store.check_invariants() == []


def test_concurrent_writers_on_two_workers_lose_nothing(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    collection_id = new_collection(a, "Busy")
    made: list[int] = []
    lock = threading.Lock()

    def writer(worker: Worker, count: int) -> None:
        for n in range(count):
            item_id = new_item(worker, collection_id, f"w{n}")
            with lock:
                made.append(item_id)

    threads = [threading.Thread(target=writer, args=(workers[n % 2], 10)) for n in range(32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(made)) == 320
    for worker in workers:
        answer = worker.call("GET", "/v1/items", params={"collection_id": collection_id, "per_page": 100})
        assert int(answer.headers["X-Total-Count"]) == 320
        counted = worker.call("GET", f"/v1/collections/{collection_id}").json()[0]["items_total_count"]
        assert counted == 320
    assert a.store.snapshot() == b.store.snapshot()
    assert a.store.check_invariants() == []


# ---------------------------------------------------------------------- sessions, admin, faults, journal
def test_sessions_and_admin_writes_are_shared(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    sandbox = {"X-Mock-Session": "alice"}
    answer = a.call("POST", "/v1/collections", headers=sandbox, json={"name": "Sandboxed", "type": "private"})
    assert answer.status_code == 201
    collection_id = answer.json()["id"]
    assert b.call("GET", f"/v1/collections/{collection_id}", headers=sandbox).status_code == 200
    assert b.call("GET", f"/v1/collections/{collection_id}").status_code == 404  # not in the default one
    user = b.client.post("/__mock__/users", json={"plan": "pro"}).json()
    basic = {"X-API-Key": API_KEY}
    me = a.client.get("/v1/users/me", headers=basic, auth=(str(user["id"]), user["token"]))
    assert me.status_code == 200 and me.json()["id"] == user["id"]
    made = new_collection(a, "Gone at the reset")
    assert b.client.post("/__mock__/reset", json={"fixtures": "empty"}).status_code == 200
    assert a.call("GET", f"/v1/collections/{made}").status_code == 404


def test_a_fault_fires_its_times_across_workers(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    fault = a.client.post("/__mock__/faults", json={"operation": "*", "status": 503, "times": 3}).json()
    statuses = [w.call("GET", "/v1/users/me").status_code for w in (a, b, a, b, a, b)]
    assert statuses == [503, 503, 503, 200, 200, 200]
    assert a.client.get("/__mock__/faults").json() == b.client.get("/__mock__/faults").json() == []
    assert fault["id"] == 1


def test_the_journal_is_shared(workers: tuple[Worker, Worker]) -> None:
    a, b = workers
    b.client.delete("/__mock__/requests")
    a.call("GET", "/v1/users/me")
    b.call("GET", "/v1/collections")
    paths = [entry["path"] for entry in a.client.get("/__mock__/requests").json()]
    assert paths[:2] == ["/v1/collections", "/v1/users/me"]


def test_a_changed_session_expires_by_the_logs_clock_on_every_worker(redis_server: RedisServer) -> None:
    redis_server.flush()
    url = redis_server.url("ttl")
    clock = Clock()
    a, b = (Worker(url, clock=clock, session_ttl=60) for _ in range(2))
    try:
        sandbox = {"X-Mock-Session": "old"}
        made = a.call("POST", "/v1/collections", headers=sandbox, json={"name": "Old", "type": "private"})
        assert b.call("GET", f"/v1/collections/{made.json()['id']}", headers=sandbox).status_code == 200
        clock.advance(61)
        new_collection(b, "A change in the default session, 61 s later")  # the log's clock moves
        for worker in (a, b):
            answer = worker.call("GET", f"/v1/collections/{made.json()['id']}", headers=sandbox)
            assert answer.status_code == 404  # a fresh sandbox: the old one expired everywhere
    finally:
        a.close()
        b.close()


# ---------------------------------------------------------------------- joining late, losing the engine
@pytest.mark.parametrize("writer", ["child", "thread"])
def test_a_worker_started_later_catches_up(redis_server: RedisServer, writer: str) -> None:
    """Whichever writes the snapshots: a forked child (serve, one thread) or a thread (elsewhere)."""
    redis_server.flush()
    url = redis_server.url(f"late-{writer}")
    a = Worker(url)
    a.engine.snapshot_every = 50  # several snapshots, and the log trimmed behind them
    a.engine.snapshot_writer = writer
    collection_id = new_collection(a, "Before")
    for n in range(230):
        new_item(a, collection_id, f"i{n}")
    b = Worker(url)
    try:
        assert b.store.snapshot() == a.store.snapshot()
        assert b.engine.applied == a.engine.applied == 231
        assert a.engine.client.xlen(a.engine.key["log"]) < 231  # trimmed behind the snapshots
    finally:
        a.close()
        b.close()


def test_the_engine_gone_is_a_503_then_all_is_well_again(tmp_path: Path) -> None:
    server = RedisServer(tmp_path)
    a = Worker(server.url("gone"))
    try:
        collection_id = new_collection(a, "Kept")
        server.stop()
        for method, path in (("GET", f"/v1/collections/{collection_id}"), ("POST", "/v1/collections")):
            answer = a.call(method, path, json={"name": "x", "type": "private"})
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "engine_unavailable"
        page = a.call("GET", "/v1/users/me", headers={"Origin": "http://localhost:3000"})
        assert page.status_code == 503 and page.headers["access-control-allow-origin"] in (
            "*",
            "http://localhost:3000",
        )
        server.start()
        assert a.call("GET", f"/v1/collections/{collection_id}").status_code == 200
        assert new_collection(a, "After") == collection_id + 1
    finally:
        a.close()
        server.stop()


def test_an_engine_that_lost_its_state_is_started_again_from_a_replica(
    workers: tuple[Worker, Worker],
) -> None:
    a, b = workers
    collection_id = new_collection(a, "Survives")
    b.call("GET", "/v1/users/me")  # b has it too
    a.engine.client.flushdb()  # a Redis without persistence, restarted: b notices first
    assert b.call("GET", f"/v1/collections/{collection_id}").status_code == 200
    assert a.call("GET", f"/v1/collections/{collection_id}").status_code == 200
    new_collection(a, "Then")
    b.call("GET", "/v1/users/me")
    assert a.store.snapshot() == b.store.snapshot()


# ---------------------------------------------------------------------- changes on the wire
def test_a_change_survives_its_encoding() -> None:
    from datetime import UTC, datetime

    upload = Upload("a b.png", "image/png", 3, "abc")
    change = Change(
        "operation",
        "s",
        {"params": {"body": {"name": "é"}, "tags": ["a"]}, "uploads": {"content": upload}},
        datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
    )
    assert decode(encode(change)) == change
