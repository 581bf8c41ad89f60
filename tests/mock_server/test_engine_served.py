"""The shared deployment as its users run it: real `csapi serve --engine` processes on one real
redis-server, one per port (as on several hosts behind a load balancer) or `--workers 2` on one.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

from csapi.mock_server.app import create_app
from csapi.mock_server.engine import open_engine

from .redis_server import RedisServer
from .served import Served, csapi

KEY = "shared-key"


@pytest.fixture
def engine_url(tmp_path: Path) -> Iterator[str]:
    server = RedisServer(tmp_path)
    yield server.url("served")
    server.stop()


def serve(url: str, *args: str) -> Served:
    return Served("--engine", url, "--fixtures", "empty", "--api-key", KEY, *args)


_OPEN: list[httpx.Client] = []


@pytest.fixture(autouse=True)
def _close_callers() -> Iterator[None]:
    yield
    while _OPEN:
        _OPEN.pop().close()


class Caller:
    """User 1 of the "empty" set on one server (closed after the test)."""

    def __init__(self, served: Served, keep_alive: bool = True):
        user = served.client.get("/__mock__/credentials").json()["users"][0]
        self.client = httpx.Client(
            base_url=served.base_url,
            headers={"X-API-Key": KEY},
            auth=(str(user["id"]), user["token"]),
            timeout=10,
            limits=httpx.Limits(max_keepalive_connections=None if keep_alive else 0),
        )
        _OPEN.append(self.client)

    def new_collection(self, name: str) -> int:
        answer = self.client.post("/v1/collections", json={"name": name, "type": "private"})
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])

    def new_item(self, collection_id: int, name: str) -> int:
        body = {"type": "text", "content": "hello", "name": name}
        answer = self.client.post(f"/v1/collections/{collection_id}/items", json=body)
        assert answer.status_code == 201, answer.text
        return int(answer.json()["id"])

    def count(self, collection_id: int) -> tuple[int, int, int]:
        """(items_total_count, X-Total-Count of the list, items listed): a count and two recounts."""
        counted = self.client.get(f"/v1/collections/{collection_id}").json()[0]["items_total_count"]
        listed, page = [], 1
        while True:
            answer = self.client.get(
                "/v1/items", params={"collection_id": collection_id, "per_page": 100, "page": page}
            )
            listed += answer.json()
            if len(listed) >= int(answer.headers["X-Total-Count"]) or not answer.json():
                return counted, int(answer.headers["X-Total-Count"]), len(listed)
            page += 1


def writers(callers: list[Caller], collection_id: int, count: int, per_writer: int) -> tuple[list[int], int]:
    """`count` threads creating items, spread over the callers; (acknowledged ids, failures)."""
    made: list[int] = []
    failed = 0
    lock = threading.Lock()

    def write(n: int) -> None:
        nonlocal failed
        for k in range(per_writer):
            caller = callers[(n + k) % len(callers)]
            try:
                item_id = caller.new_item(collection_id, f"w{n}-{k}")
            except (httpx.TransportError, AssertionError):
                with lock:
                    failed += 1
                continue
            with lock:
                made.append(item_id)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return made, failed


def test_two_servers_on_one_engine_serve_one_state(engine_url: str) -> None:
    with serve(engine_url) as a, serve(engine_url) as b:
        on_a, on_b = Caller(a), Caller(b)
        collection_id = on_a.new_collection("Shared")
        item_id = on_a.new_item(collection_id, "Written on a")
        assert on_b.client.get(f"/v1/items/{item_id}").json()[0]["name"] == "Written on a"  # the next read
        made, failed = writers([on_a, on_b], collection_id, 32, 5)
        assert failed == 0 and len(set(made)) == 160
        for caller in (on_a, on_b):
            assert caller.count(collection_id) == (161, 161, 161)
        assert a.client.get("/__mock__/snapshot").json() == b.client.get("/__mock__/snapshot").json()


def test_a_busy_server_reads_every_write_acknowledged_before_the_read_was_sent(engine_url: str) -> None:
    """b shares one catch-up among the requests it read together (EngineMiddleware): with 8
    clients keeping b busy, each item a acknowledges is found by the very next read on b."""
    with serve(engine_url) as a, serve(engine_url) as b:
        on_a, on_b = Caller(a), Caller(b)
        collection_id = on_a.new_collection("Read after write")
        busy = [Caller(b) for _ in range(8)]
        done = threading.Event()

        def keep_busy(caller: Caller) -> None:
            while not done.is_set():
                caller.client.get(f"/v1/collections/{collection_id}")

        threads = [threading.Thread(target=keep_busy, args=(caller,)) for caller in busy]
        for thread in threads:
            thread.start()
        try:
            for n in range(150):
                item_id = on_a.new_item(collection_id, f"r{n}")
                answer = on_b.client.get(f"/v1/items/{item_id}")
                assert answer.status_code == 200, (n, answer.text)
                total = on_b.client.get(f"/v1/collections/{collection_id}").json()[0]["items_total_count"]
                assert total == n + 1
        finally:
            done.set()
            for thread in threads:
                thread.join()


def test_a_server_killed_mid_load_loses_nothing_acknowledged(engine_url: str) -> None:
    with serve(engine_url) as a, serve(engine_url) as b:
        on_a, on_b = Caller(a), Caller(b)
        collection_id = on_a.new_collection("Busy")
        killer = threading.Timer(0.5, a.kill)
        killer.start()
        made, failed = writers([on_a, on_b], collection_id, 16, 40)
        killer.join()
        assert a.process.poll() is not None and failed > 0  # it died under load
        for item_id in made:  # every acknowledged write is there
            assert on_b.client.get(f"/v1/items/{item_id}").status_code == 200, item_id
        counted, total, listed = on_b.count(collection_id)
        assert counted == total == listed >= len(made)  # (a write a died before answering may be there)
        assert on_b.client.get("/v1/users/me").status_code == 200


def test_a_server_started_after_10000_writes_catches_up_before_it_answers(engine_url: str) -> None:
    engine = open_engine(engine_url)
    app = create_app(api_key=KEY, fixtures="empty", engine=engine)  # a first worker, in process
    user = app.state.store.accounts[1]
    made = engine.submit(
        None,
        "operation",
        **_create("collections.create_collection", {"body": {"name": "Big", "type": "private"}}),
    )
    collection_id = made[0]["id"]
    item = {"collection_id": collection_id, "body": {"type": "text", "content": "x", "name": "n"}}
    for _ in range(10_000):
        engine.submit(None, "operation", **_create("items.create_item", item))
    assert engine.applied == 10_001 and user.id == 1
    engine.close()
    with serve(engine_url) as late:
        caller = Caller(late)
        assert caller.count(collection_id)[:2] == (10_000, 10_000)
        assert late.client.get("/__mock__/snapshot").json() == app.state.store.snapshot()


def _create(operation_id: str, params: dict[str, Any]) -> dict[str, Any]:
    return {
        "operation_id": operation_id,
        "params": params,
        "caller_id": 1,
        "base_url": "http://x/",
        "uploads": {},
    }


def test_workers_share_one_port_and_one_state(engine_url: str) -> None:
    served = serve(engine_url, "--workers", "2")
    try:
        caller = Caller(served, keep_alive=False)  # a new connection each time: any worker may take it
        collection_id = caller.new_collection("Two workers")
        made, failed = writers([caller], collection_id, 32, 5)
        assert failed == 0 and len(made) == 160
        assert caller.count(collection_id) == (160, 160, 160)
        pids = _children(served.process.pid)
        assert len(pids) == 2, pids
        os.kill(pids[0], signal.SIGKILL)  # a worker dies: the other answers, and another takes its place
        deadline = time.monotonic() + 20
        while len(set(_children(served.process.pid)) - {pids[0]}) < 2:
            assert caller.client.get("/v1/users/me").status_code == 200
            assert time.monotonic() < deadline, "the killed worker was not replaced"
            time.sleep(0.1)
        for _ in range(20):  # whichever worker answers, the same state
            assert caller.count(collection_id) == (160, 160, 160)
    finally:
        status, _, err = served.stop()  # SIGTERM: uvicorn stops its workers, then itself
        assert status == 0, err


def test_workers_write_snapshots_and_a_later_server_starts_from_them(engine_url: str) -> None:
    """Every 40 changes (`?snapshot_every=40`) a worker writes a snapshot from a forked child;
    the log is trimmed behind them, and a server started later loads one and replays the rest."""
    url = engine_url + "&snapshot_every=40"
    served = serve(url, "--workers", "2")
    try:
        caller = Caller(served, keep_alive=False)
        collection_id = caller.new_collection("Snapshots")
        made, failed = writers([caller], collection_id, 8, 25)
        assert failed == 0 and len(made) == 200
        engine = redis.Redis.from_url(engine_url.partition("?")[0])
        deadline = time.monotonic() + 10
        while int(engine.hget("served:snapshot-at", "n") or 0) < 160:  # the last child may be writing
            assert time.monotonic() < deadline, engine.hgetall("served:snapshot-at")
            time.sleep(0.05)
        assert engine.xlen("served:log") < 201  # trimmed behind the snapshots
        engine.close()
        workers = _children(served.process.pid)
        deadline = time.monotonic() + 10
        while _zombies(workers):  # each worker reaps its ended snapshot child on its next request
            assert time.monotonic() < deadline, _zombies(workers)
            caller.client.get("/v1/users/me")
            time.sleep(0.05)
        with serve(url) as late:
            assert Caller(late).count(collection_id) == (200, 200, 200)
            assert (
                late.client.get("/__mock__/snapshot").json() == served.client.get("/__mock__/snapshot").json()
            )
    finally:
        assert served.stop()[0] == 0


def test_conform_passes_against_two_workers_on_one_engine(engine_url: str) -> None:
    """The README's shared deployment, checked as a server team would: `csapi conform --quick`
    (every layer; its writes land on both workers, its reads too)."""
    served = Served("--engine", engine_url, "--api-key", KEY, "--workers", "2")  # the default fixtures
    try:
        users = served.client.get("/__mock__/credentials").json()["users"][:3]
        args = ["conform", "--base-url", served.base_url, "--api-key", KEY, "--team-id", "4", "--quick"]
        for user in users:
            args += ["--user", f"{user['id']}:{user['token']}"]
        result = csapi(*args, timeout=240)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
        assert " 0 failed, 0 errors" in result.stdout
    finally:
        assert served.stop()[0] == 0


def _processes() -> Iterator[tuple[int, str, int, bytes]]:
    """Every process: (pid, state, parent pid, command line)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        yield int(entry.name), fields[0], int(fields[1]), command


def _zombies(parents: list[int]) -> list[int]:
    """The ended, unreaped children of these processes."""
    return [pid for pid, state, parent, _ in _processes() if state == "Z" and parent in parents]


def _children(pid: int) -> list[int]:
    """The worker processes uvicorn started (its children that serve, not the resource tracker)."""
    return sorted(p for p, _, parent, command in _processes() if parent == pid and b"spawn_main" in command)


# ---------------------------------------------------------------------- usage
def test_workers_need_an_engine_and_the_engine_holds_the_state(tmp_path: Path) -> None:
    refused = csapi("serve", "--workers", "2")
    assert refused.returncode == 2 and "--workers needs --engine" in refused.stderr
    refused = csapi("serve", "--engine", "redis://127.0.0.1:1/0", "--state", str(tmp_path / "s.json"))
    assert refused.returncode == 2 and "--state and --engine" in refused.stderr
    unreachable = csapi("serve", "--engine", "redis://:s3cret@127.0.0.1:1/0")
    assert unreachable.returncode == 5 and "cannot be reached" in unreachable.stderr
    assert "redis://:***@127.0.0.1:1/0" in unreachable.stderr and "s3cret" not in unreachable.stderr
    unknown = csapi("serve", "--engine", "mongodb://127.0.0.1/0")
    assert unknown.returncode == 5 and "no engine for mongodb://" in unknown.stderr
    bad = csapi("serve", "--engine", "redis://127.0.0.1:1/0?snapshot_every=0")
    assert bad.returncode == 5 and "snapshot_every='0'" in bad.stderr
