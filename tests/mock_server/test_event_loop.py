"""Nothing holds the event loop (issue 24, item 3): the first search of a `large` session builds
its index in slices while every other client is served (mock_server/store/core.py); a build that
changes meet half-way ends as a fresh build would; idle and slow connections are closed, and
oversized request lines and headers are refused with the error body (serve.py,
mock_server/compat/uvicorn.py)."""

from __future__ import annotations

import asyncio
import base64
import threading
import time
from typing import Any

import httpx

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
