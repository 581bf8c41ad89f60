"""The read cache (mock_server/cache.py): a repeat is answered without the store, and never stale."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from csapi.mock_server.app import create_app
from csapi.mock_server.cache import ReadCache
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, FREE, PRO, Api, World, auth_headers


@pytest.fixture
def calls(store: Store, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The names of the store reads the handlers made, in order."""
    made: list[str] = []
    for name in ("list_collections", "get_collection", "search"):
        original = getattr(store, name)

        def counted(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            made.append(_name)
            return _original(*args, **kwargs)

        monkeypatch.setattr(store, name, counted)
    yield made


def test_a_repeated_read_is_answered_without_the_store(api: Api, world: World, calls: list[str]):
    first = api.get("/v1/collections")
    second = api.get("/v1/collections")
    assert second.status_code == 200
    assert second.content == first.content
    assert second.headers["X-Total-Count"] == first.headers["X-Total-Count"]
    assert calls == ["list_collections"]


def test_a_write_makes_the_next_read_fresh(api: Api, world: World, calls: list[str]):
    before = api.get("/v1/collections").json()
    assert api.post("/v1/collections", json={"name": "New", "type": "private"}).status_code == 201
    after = api.get("/v1/collections").json()
    assert len(after) == len(before) + 1
    assert calls == ["list_collections", "list_collections"]


def test_a_refused_write_also_drops_the_answers(api: Api, world: World, calls: list[str]):
    api.get("/v1/collections")
    assert api.post("/v1/collections", json={"type": "nonsense"}).status_code == 400
    api.get("/v1/collections")
    assert calls == ["list_collections", "list_collections"]


def test_answers_are_per_caller(api: Api, world: World):
    mine = api.get("/v1/collections").json()
    theirs = api.get("/v1/collections", user=FREE).json()
    assert {c["id"] for c in mine} != {c["id"] for c in theirs}
    assert world.recipes in {c["id"] for c in mine}
    assert world.recipes not in {c["id"] for c in theirs}


def test_a_read_that_writes_drops_the_answers(api: Api, world: World, clock, calls: list[str]):
    api.get("/v1/collections", params={"sort": "recent"})
    clock.advance(60)
    api.get(f"/v1/collections/{world.recipes}", params={"log_access": "true"})
    recent = api.get("/v1/collections", params={"sort": "recent"}).json()
    assert recent[0]["id"] == world.recipes
    assert calls.count("list_collections") == 2


def test_errors_are_not_kept(api: Api, world: World, calls: list[str]):
    assert api.get("/v1/collections/999999").status_code == 404
    assert api.get("/v1/collections/999999").status_code == 404
    assert calls == ["get_collection", "get_collection"]


def test_a_wrong_token_never_gets_a_kept_answer(client, store: Store, world: World):
    good = auth_headers(store, PRO)
    assert client.get("/v1/collections", headers=good).status_code == 200
    bad = {**good, "Authorization": "Basic " + "MTp3cm9uZw=="}  # 1:wrong
    assert client.get("/v1/collections", headers=bad).status_code == 401


def test_the_admin_api_is_never_kept(client):
    """The journal and the faults change on every request, without a write."""
    ping = {"X-API-Key": API_KEY}
    client.delete("/__mock__/requests")
    client.get("/v1/ping", headers=ping)
    assert len(client.get("/__mock__/requests").json()) == 1
    client.get("/v1/ping", headers=ping)
    assert len(client.get("/__mock__/requests").json()) == 2
    client.post("/__mock__/faults", json={"operation": "auth.ping", "status": 503, "times": 1})
    try:
        assert len(client.get("/__mock__/faults").json()) == 1
        assert client.get("/v1/ping", headers=ping).status_code == 503  # its last time: it goes
        assert client.get("/__mock__/faults").json() == []
    finally:
        client.delete("/__mock__/faults")  # the app is shared by the other tests


def test_without_the_cache_every_read_is_computed(store: Store, world: World, calls: list[str]):
    app = create_app(store, api_key=API_KEY, cache=False)
    with app.test_client() as client:
        for _ in range(2):
            assert client.get("/v1/collections", headers=auth_headers(store, PRO)).status_code == 200
    assert calls == ["list_collections", "list_collections"]


def test_the_oldest_answers_go_when_the_budget_is_spent(store: Store):
    computed: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        computed.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"x" * 100})

    probe = ReadCache(app, store, max_answer=100)
    asyncio.run(probe({"type": "http", "method": "GET", "path": "/z", "headers": []}, None, _discard))
    one = probe.default.bytes  # an answer's size: its body, its key and headers, their overhead
    assert one > 100
    computed.clear()
    cache = ReadCache(app, store, max_bytes=2 * one + one // 2, max_answer=100)  # room for two answers

    def get(path: str) -> None:
        scope = {"type": "http", "method": "GET", "path": path, "headers": []}
        asyncio.run(cache(scope, None, _discard))

    for path in ("/a", "/b", "/c", "/c", "/b", "/a"):
        get(path)
    assert computed == ["/a", "/b", "/c", "/a"]  # /a was the least recently used when /c came
    assert cache.default.bytes == 2 * one


async def _discard(message: dict[str, Any]) -> None:
    pass
