"""Memory bounds of the per-request structures (issue 24, item 2): the read cache counts its keys,
the journal bounds what an entry keeps, sessions count the memory of their stores."""

from __future__ import annotations

import asyncio
import gc
import json
import tracemalloc
from typing import Any

import pytest

from csapi.mock_server.app import create_app
from csapi.mock_server.cache import MAX_KEY, ReadCache
from csapi.mock_server.control import Controls
from csapi.mock_server.engine import changes
from csapi.mock_server.guards import FINDINGS
from csapi.mock_server.journal import (
    ENTRY_BOUND,
    MAX_FINDINGS,
    MAX_LINE,
    MAX_QUOTE,
    MORE,
    Journal,
    JournalMiddleware,
)
from csapi.mock_server.sessions import (
    ROW_BYTES,
    Session,
    SessionMemoryFull,
    Sessions,
    Template,
    TooManySessions,
    estimate,
)
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, assert_error, empty_data
from tests.mock_server.controlled import Controlled


async def _discard(message: dict[str, Any]) -> None:
    pass


def _answering(body: bytes = b"{}") -> Any:
    computed: list[str] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        computed.append(scope["path"])
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"application/json")],
            }
        )
        await send({"type": "http.response.body", "body": body})

    app.computed = computed  # type: ignore[attr-defined]
    return app


def _get(cache: ReadCache, path: str, headers: list[tuple[bytes, bytes]]) -> None:
    scope = {"type": "http", "method": "GET", "path": path, "headers": headers}
    asyncio.run(cache(scope, None, _discard))


def test_a_request_whose_key_is_over_the_bound_is_answered_but_not_kept(store: Store):
    app = _answering()
    cache = ReadCache(app, store)
    huge = [(b"x-junk", b"a" * (MAX_KEY + 1))]
    _get(cache, "/v1/collections", huge)
    _get(cache, "/v1/collections", huge)
    assert app.computed == ["/v1/collections"] * 2
    assert not cache.default.answers and cache.default.bytes == 0
    small = [(b"x-junk", b"a" * 100)]
    _get(cache, "/v1/collections", small)
    _get(cache, "/v1/collections", small)
    assert app.computed == ["/v1/collections"] * 3  # a small key is kept as before


def test_unique_large_headers_stay_within_the_byte_budget(store: Store):
    """Keys count against the budget: 2000 requests with 15 KB of unique headers (30 MB of keys)
    keep the cache under its 1 MB budget, by its own accounting and by tracemalloc."""
    budget = 1 << 20
    cache = ReadCache(_answering(), store, max_bytes=budget)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for n in range(2000):
            _get(cache, "/v1/collections", [(b"x-junk", b"%d" % n + b"a" * (15 << 10))])
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert 0 < cache.default.bytes <= budget
    assert len(cache.default.answers) < 2000 * budget // (30 << 20) + 10  # most went: ~60 of 2000 kept
    assert grown < 2 * budget, grown  # the accounting is not far from what Python holds


# ---------------------------------------------------------------------- the journal
def _journaled(findings_of_request: int, name: str = "bogus", path: str = "/v1/tags") -> Controls:
    """A journal of one request to `path` whose layer below found `findings_of_request` unknown
    fields, half appended one by one, half moved in at once (as guards.record does)."""
    controls = Controls()

    async def tolerant(scope: dict[str, Any], receive: Any, send: Any) -> None:
        half = findings_of_request // 2
        for n in range(half):
            scope[FINDINGS].append({"kind": "unknown_field", "name": f"{name}{n}", "message": "ignored"})
        local = [{"kind": "unknown_field", "name": name, "message": "ignored"}] * (findings_of_request - half)
        scope[FINDINGS].extend(local)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"[]"})

    scope = {"type": "http", "method": "GET", "path": path, "query_string": b"", "headers": []}
    asyncio.run(JournalMiddleware(tolerant, controls)(scope, _receive, _discard))
    return controls


async def _receive() -> dict[str, Any]:
    return {"type": "http.request", "body": b"", "more_body": False}


def test_a_request_with_many_findings_keeps_twenty_and_says_how_many_more():
    (entry,) = _journaled(100_000).journal.render()
    findings = entry["findings"]
    assert len(findings) == MAX_FINDINGS + 1
    # the two layers' missing_header findings count among the "more" ones too
    assert findings[-1]["kind"] == MORE and findings[-1]["count"] == 100_000 + 2 - MAX_FINDINGS
    assert f"and {100_000 + 2 - MAX_FINDINGS} more" in findings[-1]["message"]


def test_the_report_counts_the_findings_past_the_bound_under_one_key():
    journal = _journaled(1000).journal
    usage = journal.usage["tags.list_tags"]
    assert sum(usage.findings.values()) == 1002
    assert len(usage.findings) <= MAX_FINDINGS + 1


def test_what_a_finding_quotes_and_the_path_are_cut():
    huge = "n" * (1 << 20)
    (entry,) = _journaled(3, name=huge, path="/v1/tags/" + "x" * (1 << 20)).journal.render()
    assert len(entry["path"]) <= MAX_LINE
    assert entry["findings"][0]["name"].endswith("...")
    assert all(len(v) <= MAX_QUOTE for f in entry["findings"] for v in f.values() if isinstance(v, str))


def test_the_journal_stays_under_its_bound_under_hostile_requests():
    """1000 requests of 10k findings with 10 KB names and 100 KB paths: the journal of 100 entries
    holds at most 100 * ENTRY_BOUND bytes (tracemalloc), not the ~100 MB a full copy would."""
    controls = Controls()
    controls.journal = Journal(size=100)
    big = "n" * (10 << 10)

    async def tolerant(scope: dict[str, Any], receive: Any, send: Any) -> None:
        scope[FINDINGS].extend(
            [{"kind": "unknown_field", "name": big + str(n), "message": "x"} for n in range(200)]
        )
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"[]"})

    middleware = JournalMiddleware(tolerant, controls)

    async def hammer() -> None:
        for n in range(300):
            path = f"/v1/tags/{n}" + "p" * (100 << 10)
            scope = {
                "type": "http",
                "method": "GET",
                "path": path,
                "query_string": b"q" * 5000,
                "headers": [],
            }
            await middleware(scope, _receive, _discard)

    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        asyncio.run(hammer())
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(controls.journal.entries) == 100
    assert grown < 100 * ENTRY_BOUND, (grown, 100 * ENTRY_BOUND)
    assert not middleware._lines  # long request lines are not remembered


def test_a_body_of_many_unknown_fields_is_journaled_bounded():
    """End to end through the app: a body of 20k unknown fields."""
    mock = Controlled().fresh()
    with mock.app.test_client() as client:
        body = {"name": "Trips", "type": "private", **{f"f{n}": n for n in range(20_000)}}
        response = client.post("/v1/collections", headers=mock.headers(), json=body)
        assert response.status_code == 201, response.text
        (entry,) = mock.requests(client)
    assert len(entry["findings"]) == MAX_FINDINGS + 1
    assert entry["findings"][-1] == {
        "kind": MORE,
        "message": f"and {20_000 - MAX_FINDINGS} more (the journal keeps {MAX_FINDINGS} per request)",
        "count": 20_000 - MAX_FINDINGS,
    }


# ---------------------------------------------------------------------- sessions
def _registry(max_memory: int) -> Sessions:
    default = Session(None, Store(data=empty_data()), Controls())
    return Sessions(default, Template("default", 0), max_memory=max_memory)


def test_sessions_are_bounded_by_their_estimated_memory():
    probe = _registry(1 << 30)
    one = estimate(probe.get("probe").store)
    assert one == ROW_BYTES * probe.template.rows > 0
    sessions = _registry(2 * one + one // 2)  # room for two sessions of the default set
    sessions.template = probe.template  # its size known, as after the server's first session
    sessions.get("a")
    sessions.get("b")
    assert sessions.memory() == 2 * one
    with pytest.raises(TooManySessions, match="MB"):
        sessions.get("c")
    assert sessions.names() == ["a", "b"]
    sessions.drop("a")
    sessions.get("c")  # room again


def test_a_reset_that_would_pass_the_budget_is_refused_and_changes_nothing():
    sessions = _registry(1 << 30)
    session = sessions.get("a")
    before = estimate(session.store)
    sessions.max_memory = before + 1000 * ROW_BYTES
    with pytest.raises(SessionMemoryFull):
        changes.restore(session, sessions, data={**empty_data(), "tags": [{}] * 2000})
    assert estimate(session.store) == before
    sessions.check_room(session, 1000)  # within the budget: allowed
    sessions.check_room(sessions.default, 10**9)  # the default session is not bounded


def test_an_admin_reset_past_the_budget_is_a_429_with_the_error_body():
    app = create_app(api_key=API_KEY, seed=3, max_sessions=4)
    sessions = app.state.sessions
    with app.test_client() as client:
        named = {"X-Mock-Session": "big"}
        assert client.post("/__mock__/reset", headers=named, json={"fixtures": "empty"}).status_code == 200
        sessions.max_memory = estimate(sessions.find("big").store) + 100 * ROW_BYTES  # not the default set
        response = client.post("/__mock__/reset", headers=named, json={"fixtures": "default"})
        assert_error(response, 429, "session_memory_full")
        assert estimate(sessions.find("big").store) < sessions.max_memory  # unchanged: still empty
        # the default session is not bounded
        assert client.post("/__mock__/reset", json={"fixtures": "default"}).status_code == 200


def test_a_body_past_the_bound_is_not_turned_into_findings_it_will_not_keep():
    """The guard's own list is bounded too (findings.Findings): past MAX_FINDINGS an unknown field
    is only counted, never built and held, so a request with 100k unknown body fields peaks at the
    memory of its body, not at that of 100k findings held (46 MB against 19 MB here)."""
    mock = Controlled().fresh()
    body = {"name": "Trips", "type": "private", **{f"field{n}": n for n in range(100_000)}}
    raw = json.dumps(body).encode()
    with mock.app.test_client() as client:
        headers = {**mock.headers(), "content-type": "application/json"}
        tracemalloc.start()
        try:
            response = client.post("/v1/collections", headers=headers, content=raw)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert response.status_code == 201, response.text
        (entry,) = mock.requests(client)
    assert entry["findings"][-1]["count"] == 100_000 - MAX_FINDINGS
    assert peak < 12 * len(raw), peak
