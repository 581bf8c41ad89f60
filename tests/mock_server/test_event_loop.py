"""Nothing holds the event loop (issue 24, item 3): the first search of a `large` session builds
its index in slices while every other client is served (mock_server/store/core.py); a build that
changes meet half-way ends as a fresh build would; idle and slow connections are closed, and
oversized request lines and headers are refused with the error body (serve.py,
mock_server/compat/uvicorn.py)."""

from __future__ import annotations

import asyncio
import base64
import json
import socket
import threading
import time
from typing import Any

import httpx

from csapi.mock_server.compat.uvicorn import HEAD_TIMEOUT, KEEP_ALIVE, MAX_HEAD, TransportProtocol
from csapi.mock_server.store import Store
from csapi.mock_server.store.core import BUILD_SLICE
from tests.mock_server.conftest import FREE, PRO, World
from tests.mock_server.served import Served

API_KEY = "event-loop-key"
PING_BOUND = 0.1  # the bound on another client's wait while an index builds


def _basic(user: dict[str, Any]) -> str:
    return "Basic " + base64.b64encode(f"{user['id']}:{user['token']}".encode()).decode()


def test_a_large_index_build_does_not_delay_another_clients_ping():
    with Served("--api-key", API_KEY) as served:
        big = {"X-API-Key": API_KEY, "X-Mock-Session": "big"}
        client = httpx.Client(base_url=served.base_url, timeout=120)
        reset = client.post("/__mock__/reset", json={"fixtures": "large"}, headers=big)
        assert reset.status_code == 200, reset.text
        user = client.get("/__mock__/credentials", headers=big).json()["users"][0]
        searched: dict[str, Any] = {}

        def search() -> None:
            started = time.monotonic()
            response = client.get(
                "/v1/search", params={"q": "zzzunfound"}, headers={**big, "Authorization": _basic(user)}
            )
            searched.update(status=response.status_code, seconds=time.monotonic() - started)

        worker = threading.Thread(target=search)
        pings: list[float] = []
        with httpx.Client(base_url=served.base_url, timeout=120, headers={"X-API-Key": API_KEY}) as other:
            assert other.get("/v1/ping").status_code == 200  # connected before the build begins
            worker.start()
            time.sleep(0.05)  # the search has reached the server
            while worker.is_alive():
                started = time.monotonic()
                assert other.get("/v1/ping").status_code == 200
                pings.append(time.monotonic() - started)
                time.sleep(0.01)
        worker.join()
        client.close()
        assert searched["status"] == 200
        # the build took long enough to be measured against (1.5-17 s on `large`), and no ping waited
        # for it: 95% within the bound, every one within a margin for a loaded machine
        # (2 cores shared with other tests: single pings of 0.1-0.2 s, with or without a build;
        # a build on the event loop holds one ping for its whole 3-17 s)
        assert searched["seconds"] > 5 * PING_BOUND and len(pings) > 10, (searched, len(pings))
        pings.sort()
        assert pings[len(pings) * 95 // 100] < PING_BOUND, (searched, pings[-10:])
        assert pings[-1] < 5 * PING_BOUND, (searched, pings[-10:])


def _changes_meet_the_build(store: Store, world: World) -> None:
    """Create, edit, move and delete (an item with comments, a collection) between build slices."""
    pro = store.accounts[PRO]
    item, _ = store.create_item(
        pro, world.trips, {"type": "text", "name": "zebra crossing", "content": "stripes"}
    )
    store.update_item(pro, world.note, {"name": "renamed quokka"})
    store.create_comment(pro, world.note, "wombat remark")
    store.create_comment(pro, world.image, "platypus remark")
    store.update_items(pro, world.trips, {"items": [world.image], "collection_id": world.recipes})
    store.delete_item(pro, world.link)
    store.delete_collection(store.accounts[FREE], world.free_notes)


def test_changes_made_while_the_index_builds_end_in_it_as_in_a_fresh_build(store: Store, world: World):
    import csapi.mock_server.store.core as core

    slice_, batch = core.BUILD_SLICE, core._BUILD_BATCH
    core.BUILD_SLICE, core._BUILD_BATCH = 0.0, 1  # one record a step: changes fall between steps

    async def build_while_changing() -> None:
        build = asyncio.ensure_future(store.search_index_ready())
        await asyncio.sleep(0)
        assert store._search_index is None and store._builder is not None  # under way
        _changes_meet_the_build(store, world)
        await build

    try:
        asyncio.run(build_while_changing())
    finally:
        core.BUILD_SLICE, core._BUILD_BATCH = slice_, batch
    assert store._search_index is not None
    assert store.check_invariants() == []  # compares the index with a fresh build of the tables
    index = store.search_index
    assert index.query("zebra") and index.query("quokka") and index.query("wombat")
    assert set(index.query("platypus")) == {world.recipes}  # the comment moved with its item
    assert BUILD_SLICE <= 0.01


# ---------------------------------------------------------------------- connections (compat/uvicorn.py)
def _connect(served: Served) -> socket.socket:
    return socket.create_connection(("127.0.0.1", served.port), timeout=HEAD_TIMEOUT + 10)


def _read_all(sock: socket.socket) -> bytes:
    """Everything until the server closes (b"" if it closes without a word)."""
    chunks = []
    while chunk := sock.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def _one_answer(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
    while len(body) < length:
        body += sock.recv(65536)
    return head + b"\r\n\r\n" + body


def _error(answer: bytes) -> tuple[int, dict[str, Any]]:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), head
    return int(head.split()[1]), json.loads(body)


def test_idle_and_slow_connections_are_closed_after_the_timeout():
    with Served("--api-key", API_KEY) as served:
        started = time.monotonic()
        idle, slow, kept = _connect(served), _connect(served), _connect(served)
        slow.sendall(b"GET /v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and nothing more
        kept.sendall(f"GET /v1/ping HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: {API_KEY}\r\n\r\n".encode())
        assert _one_answer(kept).startswith(b"HTTP/1.1 200")  # then idle, kept alive for a while
        assert _read_all(kept) == b""
        assert time.monotonic() - started < KEEP_ALIVE + 3
        assert _read_all(idle) == b"" and _read_all(slow) == b""
        assert HEAD_TIMEOUT - 0.5 < time.monotonic() - started < HEAD_TIMEOUT + 5
        for sock in (idle, slow, kept):
            sock.close()
        assert served.client.get("/v1/ping", headers={"X-API-Key": API_KEY}).status_code == 200


def test_a_long_request_line_or_head_is_refused_with_the_error_body():
    with Served("--api-key", API_KEY) as served:
        with _connect(served) as sock:
            sock.sendall(b"GET /v1/ping?q=" + b"a" * (MAX_HEAD + 100) + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            status, body = _error(_read_all(sock))
            assert (status, body["code"]) == (414, "uri_too_long") and body["message"]
        with _connect(served) as sock:
            sock.sendall(b"GET /v1/ping HTTP/1.1\r\nHost: x\r\n")
            for n in range(MAX_HEAD // 1000 + 2):
                sock.sendall(f"X-Pad-{n}: {'b' * 990}\r\n".encode())
            status, body = _error(_read_all(sock))
            assert (status, body["code"]) == (431, "request_header_fields_too_large")
        with _connect(served) as sock:  # what the parser refuses: 400 with the body too
            sock.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            status, body = _error(_read_all(sock))
            assert (status, body["code"]) == (400, "bad_request")
        # a head just under the bound, with a body past it, is served
        headers = {"X-API-Key": API_KEY, "X-Pad": "c" * (MAX_HEAD - 1000)}
        assert served.client.get("/v1/ping", headers=headers).status_code == 200


def test_past_the_connection_limit_the_refusal_has_the_error_body():
    answer = asyncio.run(_over_the_limit())
    status, body = _error(answer)
    assert (status, body["code"]) == (503, "service_unavailable")


async def _over_the_limit() -> bytes:
    """uvicorn's own 503 past limit_concurrency, through the patched app (a server in-process)."""
    import uvicorn

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("not reached: the limit is 0")

    config = uvicorn.Config(
        app, port=0, http=TransportProtocol, limit_concurrency=1, log_level="warning", lifespan="off"
    )
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = await reader.read()
    writer.close()
    server.should_exit = True
    await task
    return answer
