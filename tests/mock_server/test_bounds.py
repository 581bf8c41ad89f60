"""Memory bounds of the per-request structures (issue 24, item 2): the read cache counts its keys,
the journal bounds what an entry keeps, sessions count the memory of their stores."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from typing import Any

from csapi.mock_server.cache import MAX_KEY, ReadCache
from csapi.mock_server.store import Store


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
