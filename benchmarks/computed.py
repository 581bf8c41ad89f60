"""Computed answers in one process: the app called directly over ASGI, no server, no read cache.

    python -m benchmarks.computed [--seconds 3] [--rounds 5] [--profile get]

What a request costs the app itself (routing, validation, the operation, the views, JSON), without
uvicorn or a load generator sharing the cores: `create_app(..., cache=False)` on the `default` set,
the GETs of benchmarks/run.py's flat costs (user 1's fullest collection with its items, a
filtered list, a collection list, search, activity) and a create of an item, then that create
again once the collection has 5,000 more items (`create+5k`). Each is timed in
rounds, the median round reported in microseconds per request; answers are checked for their
status, so a broken path fails instead of getting fast. `--profile NAME` prints cProfile's top
entries for that request instead.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import cProfile
import json
import pstats
import statistics
import time
from collections.abc import Callable
from typing import Any

from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store

KEY = "bench-key"


class Caller:
    """One request at a time straight into the ASGI app; the answer's status and body."""

    def __init__(self, app: Any, headers: dict[str, str]):
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in headers.items()]

    async def __call__(self, method: str, target: str, body: bytes = b"") -> tuple[int, bytes]:
        path, _, query = target.partition("?")
        headers = list(self.headers)
        if body:
            headers += [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": query.encode(),
            "root_path": "",
            "headers": [(b"host", b"localhost:8000"), *headers],
            "client": ("127.0.0.1", 50000),
            "server": ("localhost", 8000),
        }
        sent = False
        status, chunks = 0, []

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)


async def requests(call: Caller, store: Store) -> dict[str, Callable[[], Any]]:
    """The timed requests, each a coroutine function checking its status."""
    _, body = await call("GET", "/v1/collections?per_page=100")
    mine = [c for c in json.loads(body) if c["user_id"] == 1]
    cid = max(mine, key=lambda c: c["items_total_count"])["id"]
    _, body = await call("GET", f"/v1/items?collection_id={cid}&per_page=100")
    first = json.loads(body)[0]
    word = "the"
    for item in json.loads(body):
        if len(item["name"].split()[0]) >= 4:
            word = item["name"].split()[0].lower()
            break
    targets = {
        "get": ("GET", f"/v1/collections/{cid}?include=items", 200),
        "item": ("GET", f"/v1/items/{first['id']}", 200),
        "list": ("GET", f"/v1/items?collection_id={cid}&type={first['type']}&per_page=20", 200),
        "collections": ("GET", "/v1/collections?per_page=20", 200),
        "search": ("GET", f"/v1/search?q={word}&per_page=10", 200),
        "activity": ("GET", "/v1/activity?per_page=20", 200),
    }
    out: dict[str, Callable[[], Any]] = {}
    for name, (method, target, expected) in targets.items():

        async def one(method: str = method, target: str = target, expected: int = expected) -> None:
            status, answer = await call(method, target)
            assert status == expected, (target, status, answer[:200])

        out[name] = one
    created = json.dumps({"type": "text", "name": "bench", "content": "a note"}).encode()

    async def create() -> None:
        status, answer = await call("POST", f"/v1/collections/{cid}/items", created)
        assert status == 201, answer[:200]

    out["create"] = create
    return out


async def measure(seconds: float, rounds: int, profile: str | None) -> None:
    store = Store(data=generate("default", 0))
    app = create_app(store, api_key=KEY, cache=False)
    user = store.accounts[1]
    auth = base64.b64encode(f"{user.id}:{user.token}".encode()).decode()
    call = Caller(app, {"X-API-Key": KEY, "Authorization": f"Basic {auth}"})
    timed = await requests(call, store)
    for one in timed.values():  # warm up: connexion builds its middleware on the first request
        await one()
    if profile is not None:
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(2000):
            await timed[profile]()
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return
    print(f"{'request':12} {'us/request':>10} {'min':>8} {'max':>8}")
    for name, one in [*timed.items(), ("create+5k", timed["create"])]:
        if name == "create+5k":  # the same create once the collection has 5,000 more items
            for _ in range(5000):
                await timed["create"]()
        per_round = []
        for _ in range(rounds):
            n, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds / rounds:
                for _ in range(20):
                    await one()
                n += 20
            per_round.append((time.perf_counter() - start) / n * 1e6)
        print(f"{name:12} {statistics.median(per_round):10.0f} {min(per_round):8.0f} {max(per_round):8.0f}")


def main(argv: list[str] | None = None) -> int:
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--seconds", type=float, default=3, help="per request kind, over all rounds")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--profile", help="profile this request kind instead of timing")
    args = parser.parse_args(argv)
    asyncio.run(measure(args.seconds, args.rounds, args.profile))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
