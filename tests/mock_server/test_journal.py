"""The request journal (journal.py; docs/design.md, "Request journal"): `GET /__mock__/requests`
newest first with `limit`, `DELETE` empties it; every answer is journaled (cached, controlled,
errors) with its findings, those of the layers below included; the ring is bounded."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest

from csapi.mock_server.control import Controls
from csapi.mock_server.guards import FINDINGS
from csapi.mock_server.journal import Journal, JournalMiddleware
from tests.mock_server.conftest import API_KEY, assert_error
from tests.mock_server.controlled import Controlled

ISO_Z = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


@pytest.fixture(scope="module")
def mock() -> Controlled:
    return Controlled()


@pytest.fixture
def client(mock: Controlled) -> Iterator[Any]:
    mock.fresh()
    with mock.app.test_client() as test_client:
        yield test_client


def test_entries_come_newest_first_with_every_field(mock: Controlled, client: Any):
    cid = mock.collection(client)
    client.get(f"/v1/collections/{cid}?include=items", headers=mock.headers())
    newest, oldest = mock.requests(client)
    assert oldest["method"] == "POST" and oldest["operationId"] == "collections.create_collection"
    assert oldest["status"] == 201 and oldest["path"] == "/v1/collections"
    assert newest == {
        "time": newest["time"],
        "method": "GET",
        "path": f"/v1/collections/{cid}",
        "query": "include=items",
        "operationId": "collections.get_collection",
        "status": 200,
        "duration_ms": newest["duration_ms"],
        "findings": [],
    }
    assert ISO_Z.match(newest["time"]) and newest["time"] >= oldest["time"]
    assert isinstance(newest["duration_ms"], float) and 0 <= newest["duration_ms"] < 5000


def test_limit_and_delete(mock: Controlled, client: Any):
    for _ in range(3):
        client.get("/v1/ping", headers={"X-API-Key": API_KEY})
    client.get("/v1/ping?n=last", headers={"X-API-Key": API_KEY})
    assert len(mock.requests(client)) == 4
    assert [e["query"] for e in mock.requests(client, limit=2)] == ["n=last", ""]
    for bad in ("0", "-1", "many"):
        assert_error(client.get("/__mock__/requests", params={"limit": bad}), 400, "invalid_input")
    assert client.delete("/__mock__/requests").status_code == 204
    assert mock.requests(client) == []


def test_cached_answers_and_controlled_answers_are_journaled(mock: Controlled, client: Any):
    cid = mock.collection(client)
    for _ in range(2):  # the second comes from the read cache
        assert client.get(f"/v1/collections/{cid}", headers=mock.headers()).status_code == 200
    client.get(f"/v1/collections/{cid}", headers=mock.headers(Prefer="code=404"))
    client.post("/__mock__/faults", json={"operation": "auth.ping", "status": 503, "times": 1})
    client.get("/v1/ping", headers={"X-API-Key": API_KEY})
    fault, prefer, cached, computed, _ = mock.requests(client)
    assert cached["status"] == computed["status"] == 200 and cached["findings"] == []
    assert prefer["status"] == 404 and [f["kind"] for f in prefer["findings"]] == ["prefer"]
    assert "code=404" in prefer["findings"][0]["message"]
    assert fault["status"] == 503 and fault["operationId"] == "auth.ping"
    assert [f["kind"] for f in fault["findings"]] == ["fault"]


def test_an_answer_from_the_read_cache_keeps_the_findings_of_its_request(mock: Controlled, client: Any):
    """The Swift SDK sends the same list with its default parameters again and again: every one of
    them is off-contract, also when the read cache answers it."""
    url = "/v1/collections?items_per_page=4&items_not_type=stack"
    for _ in range(2):
        assert client.get(url, headers=mock.headers()).status_code == 200
    cached, computed = mock.requests(client, limit=2)
    unknown = [(f["kind"], f["name"]) for f in computed["findings"]]
    assert unknown == [("unknown_parameter", "items_per_page"), ("unknown_parameter", "items_not_type")]
    assert [(f["kind"], f["name"]) for f in cached["findings"]] == unknown


def test_findings_of_no_operation_and_missing_headers(mock: Controlled, client: Any):
    client.get("/v1/nothing-here", headers={"X-API-Key": API_KEY})
    client.patch("/v1/ping", headers={"X-API-Key": API_KEY})
    client.get("/v1/collections")
    client.get("/v1/ping")
    client.head("/v1/ping", headers={"X-API-Key": API_KEY})
    head, ping, collections, patch, nothing = mock.requests(client)
    assert head["operationId"] == "auth.ping" and head["status"] == 200 and head["findings"] == []
    assert nothing["operationId"] is None and nothing["status"] == 404
    assert [f["kind"] for f in nothing["findings"]] == ["no_such_operation"]
    assert patch["operationId"] is None and patch["status"] == 405
    assert [f["kind"] for f in patch["findings"]] == ["no_such_operation"]
    assert collections["status"] == 401
    assert sorted(f["header"] for f in collections["findings"]) == ["authorization", "x-api-key"]
    assert all(f["kind"] == "missing_header" for f in collections["findings"])
    assert [f["header"] for f in ping["findings"]] == ["x-api-key"]  # Ping needs the key only


def test_the_admin_api_and_swagger_ui_are_not_journaled(mock: Controlled, client: Any):
    client.get("/__mock__/credentials")
    client.get("/v1/openapi.json")
    client.get("/v1/ui/")
    assert mock.requests(client) == []


def test_the_ring_keeps_the_newest():
    journal = Journal(size=3, clock=lambda: 0.0)
    for n in range(5):
        journal.record("GET", f"/v1/items/{n}", b"", "items.get_item", 200, 0.001, [])
    assert [e["path"] for e in journal.render()] == ["/v1/items/4", "/v1/items/3", "/v1/items/2"]
    assert journal.render()[0]["time"] == "1970-01-01T00:00:00.000Z"
    assert journal.usage["items.get_item"].requests == 5  # the run's totals keep counting
    journal.clear()
    assert journal.render() == [] and journal.usage["items.get_item"].statuses == {200: 5}


async def _asgi_get(app: Any, path: str) -> list[dict[str, Any]]:
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "query_string": b"", "headers": []}
    await app(scope, receive, send)
    return sent


def test_findings_of_the_layers_below_and_errors_are_journaled():
    """What a layer below appends to scope[FINDINGS] (e.g. guards' tolerance) comes out; a layer
    that raises is journaled as the 500 the server answers."""
    controls = Controls()

    async def tolerant(scope: dict[str, Any], receive: Any, send: Any) -> None:
        copy = {**scope}  # a layer may copy the scope: the list is the same
        copy[FINDINGS].append({"kind": "unknown_field", "name": "bogus", "message": "ignored bogus"})
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"[]"})

    async def broken(scope: dict[str, Any], receive: Any, send: Any) -> None:
        raise RuntimeError("a bug")

    asyncio.run(_asgi_get(JournalMiddleware(tolerant, controls), "/v1/tags"))
    with pytest.raises(RuntimeError):
        asyncio.run(_asgi_get(JournalMiddleware(broken, controls), "/v1/tags"))
    failed, tolerated = controls.journal.render()
    assert tolerated["operationId"] == "tags.list_tags" and tolerated["status"] == 200
    assert tolerated["findings"][0] == {"kind": "unknown_field", "name": "bogus", "message": "ignored bogus"}
    assert [f["kind"] for f in tolerated["findings"]] == ["unknown_field", "missing_header", "missing_header"]
    assert failed["status"] == 500
