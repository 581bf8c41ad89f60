"""Many concurrent clients writing to the same collections, and the checks that nothing was
lost or miscounted (issue 7, part 1).

`prepare` makes the cast over the mock-only admin API (the fixtures' first pro user owns a
few collections, shared with two new pro users); `run_clients` drives N clients, one
httpx.AsyncClient each, for a while: they create, stack, move, reorder, tag, comment on,
like, copy and delete items of those collections, read them back, and note every write the
server acknowledged in a `Ledger`. A 5xx, a transport error or an answer that contradicts
itself (a page shorter than its own count, a reorder that did not number 1..n) is a failure.
`verify` then reads GET /__mock__/snapshot, checks that every acknowledged write is there
(and every acknowledged delete gone), that ids are unique, and that every count a client
reads (items_total_count, X-Total-Count, stack children, tag counts, comments, likes,
collaborators, collection counts, activity) equals a recount of the snapshot's tables.

Used by tests/mock_server/test_concurrency.py (seconds, uvicorn in a thread) and
benchmarks/soak.py (minutes, `csapi serve` in a subprocess).
"""

from __future__ import annotations

import asyncio
import base64
import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

TAGS = ("red", "green", "blue", "Blue", "travel", "food")
WORDS = ("harbour", "tram", "bridge", "market", "river", "tile", "garden", "station")
CAP_PER_COLLECTION = 40  # live items per collection the clients aim at (beyond it they delete more)
PAGE = 100  # the largest page (docs/design.md), for reading a whole collection in few calls
_ONE_THING = re.compile(r"^/v1/(items|tags|comments|reactions)/(\d+)")


@dataclass(frozen=True)
class User:
    id: int
    token: str
    api_key: str

    @property
    def headers(self) -> dict[str, str]:
        basic = base64.b64encode(f"{self.id}:{self.token}".encode()).decode()
        return {"X-API-Key": self.api_key, "Authorization": f"Basic {basic}"}


@dataclass
class Cast:
    """Who writes where: the owner first, then the collaborators; the shared collections."""

    users: list[User]
    collections: list[int]

    @property
    def owner(self) -> User:
        return self.users[0]


@dataclass
class Ledger:
    """What the clients sent and what the server acknowledged (a 2xx answer)."""

    requests: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    acks: Counter[str] = field(default_factory=Counter)  # operation -> acknowledged count
    failures: list[str] = field(default_factory=list)  # the first MAX_KEPT of them
    failure_count: int = 0
    latencies: list[float] = field(default_factory=list)  # a bounded sample, seconds
    items: dict[int, bool] = field(default_factory=dict)  # acknowledged item id -> live
    uncertain: set[int] = field(default_factory=set)  # touched by a request whose answer was lost
    tags: dict[int, tuple[int, str]] = field(default_factory=dict)  # tag id -> (item, casefolded name)
    gone_tags: set[int] = field(default_factory=set)
    comments: dict[int, int] = field(default_factory=dict)  # comment id -> author
    gone_comments: set[int] = field(default_factory=set)
    reactions: dict[int, int] = field(default_factory=dict)  # reaction id -> liker
    gone_reactions: set[int] = field(default_factory=set)
    duplicates: list[str] = field(default_factory=list)  # an id acknowledged as new twice
    # What the clients pick from (answers arrive out of order, so a guess; a wrong one is a 4xx):
    # live items -> their collection, live stacks, and tags, comments, likes -> their item.
    where: dict[int, int] = field(default_factory=dict)
    stacks: set[int] = field(default_factory=set)
    pools: dict[str, dict[int, int]] = field(
        default_factory=lambda: {"tags": {}, "comments": {}, "reactions": {}}
    )

    MAX_KEPT = 50
    MAX_LATENCIES = 20_000

    def fail(self, message: str) -> None:
        self.failure_count += 1
        if len(self.failures) < self.MAX_KEPT:
            self.failures.append(message)

    def timed(self, seconds: float, rng: random.Random) -> None:
        if len(self.latencies) < self.MAX_LATENCIES:
            self.latencies.append(seconds)
        else:  # reservoir sampling keeps the sample uniform over the whole run
            slot = rng.randrange(self.requests)
            if slot < self.MAX_LATENCIES:
                self.latencies[slot] = seconds

    def new_item(self, body: dict[str, Any]) -> None:
        if body["id"] in self.items:
            self.duplicates.append(f"item {body['id']} acknowledged as new twice")
        self.items[body["id"]] = True
        self.where[body["id"]] = body["collection_id"]
        if body["type"] == "stack":
            self.stacks.add(body["id"])
        for tag in body.get("tags", []):
            self.new_tag(tag, body["id"])

    def new_tag(self, tag: dict[str, Any], item_id: int) -> None:
        key = (item_id, tag["name"].casefold())
        if self.tags.get(tag["id"], key) != key:  # an existing tag is answered again: the same one
            self.duplicates.append(f"tag {tag['id']} acknowledged for {self.tags[tag['id']]} and {key}")
        self.tags[tag["id"]] = key
        self.pools["tags"][tag["id"]] = item_id

    def deleted_item(self, item_id: int) -> None:
        self.items[item_id] = False
        self.forget(item_id)

    def forget(self, item_id: int) -> None:
        """Out of the pools: deleted (or, on a 404, deleted by another client)."""
        self.where.pop(item_id, None)
        self.stacks.discard(item_id)
        for pool in self.pools.values():  # what hangs on a deleted item stays, out of reach
            for key in [k for k, v in pool.items() if v == item_id]:
                del pool[key]

    def in_collection(self, collection_id: int) -> list[int]:
        return [i for i, c in self.where.items() if c == collection_id]

    def new_phase(self) -> dict[str, Any]:
        """The summary so far; then the counters start again (what was acknowledged is kept)."""
        done = {**self.summary(), "failure_messages": self.failures}
        self.requests, self.failure_count, self.failures = 0, 0, []
        self.statuses, self.acks, self.latencies = Counter(), Counter(), []
        return done

    def summary(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)

        def pct(p: float) -> float:
            return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 1) if ordered else 0.0

        return {
            "requests": self.requests,
            "statuses": dict(sorted(self.statuses.items())),
            "acknowledged": dict(sorted(self.acks.items())),
            "failures": self.failure_count,
            "latency_ms": {"p50": pct(0.5), "p99": pct(0.99), "max": pct(1.0)},
        }


# ---------------------------------------------------------------------- setup
async def prepare(base_url: str, api_key: str, collections: int = 4) -> Cast:
    """The fixtures' first pro user owns `collections` new collections shared with two new pro users."""
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        credentials = (await http.get("/__mock__/credentials")).raise_for_status().json()
        first = next(u for u in credentials["users"] if u["plan"] == "pro")
        users = [User(first["id"], first["token"], api_key)]
        for _ in range(2):
            made = (await http.post("/__mock__/users", json={"plan": "pro"})).raise_for_status().json()
            users.append(User(made["id"], made["token"], api_key))
        ids = []
        for n in range(collections):
            body = {"name": f"Shared {n}", "type": "private", "users": [u.id for u in users[1:]]}
            response = await http.post("/v1/collections", json=body, headers=users[0].headers)
            ids.append(response.raise_for_status().json()["id"])
    return Cast(users, ids)


# ---------------------------------------------------------------------- the clients
async def run_clients(
    base_url: str,
    cast: Cast,
    ledger: Ledger,
    *,
    clients: int = 32,
    seconds: float = 5.0,
    seed: int = 0,
    until: Callable[[Ledger], bool] | None = None,
    at_most: float | None = None,
    reads_only: bool = False,
) -> None:
    """`clients` concurrent clients writing for `seconds`, every answer noted in `ledger`; with
    `until`, on past `seconds` until it holds (a busy machine serves fewer requests a second),
    but never past `at_most` seconds. `reads_only`: the reads of the mix alone, nothing changes."""
    started = time.monotonic()
    deadline, last = started + seconds, started + (at_most or seconds)

    def more() -> bool:
        now = time.monotonic()
        return now < deadline or (until is not None and now < last and not until(ledger))

    clients_ = [_Client(base_url, cast, ledger, random.Random(seed * 1000 + n)) for n in range(clients)]
    await asyncio.gather(*(client.run(more, reads_only) for client in clients_))


class _Client:
    def __init__(self, base_url: str, cast: Cast, ledger: Ledger, rng: random.Random):
        self.base_url, self.cast, self.ledger, self.rng = base_url, cast, ledger, rng
        self.http: httpx.AsyncClient | None = None
        self.operations: list[tuple[Callable[[], Awaitable[None]], int]] = [
            (self.create_item, 22),
            (self.create_stack, 4),
            (self.move, 8),
            (self.stack_items, 7),
            (self.reorder, 7),
            (self.delete_item, 9),
            (self.delete_items, 7),
            (self.tag, 5),
            (self.untag, 4),
            (self.comment, 5),
            (self.uncomment, 4),
            (self.like, 4),
            (self.unlike, 3),
            (self.copy, 2),
            (self.read_collection, 6),
            (self.read_items, 4),
            (self.read_more, 2),
        ]

    async def run(self, more: Callable[[], bool], reads_only: bool = False) -> None:
        reads = (self.read_collection, self.read_items, self.read_more)
        mix = [(f, w) for f, w in self.operations if f in reads or not reads_only]
        functions, weights = [f for f, _ in mix], [w for _, w in mix]
        async with httpx.AsyncClient(base_url=self.base_url, timeout=60, verify=False) as self.http:
            while more():
                if not reads_only and len(self.ledger.where) > CAP_PER_COLLECTION * len(
                    self.cast.collections
                ):
                    await self.rng.choice((self.delete_item, self.delete_items))()
                else:
                    await self.rng.choices(functions, weights)[0]()

    # ------------------------------------------------------------------ helpers
    async def call(
        self, user: User, method: str, path: str, touches: tuple[int, ...] = (), **kwargs: Any
    ) -> httpx.Response | None:
        """One request; None when it got no answer (its items are then uncertain)."""
        assert self.http is not None
        ledger = self.ledger
        ledger.requests += 1
        started = time.perf_counter()
        try:
            response = await self.http.request(method, path, headers=user.headers, **kwargs)
        except httpx.HTTPError as exc:
            ledger.fail(f"{method} {path}: no answer ({type(exc).__name__}: {exc})")
            ledger.uncertain.update(touches)
            return None
        ledger.timed(time.perf_counter() - started, self.rng)
        ledger.statuses[response.status_code] += 1
        gone = _ONE_THING.match(path) if response.status_code == 404 else None
        if gone is not None:  # another client deleted it first: pick it no more
            kind, thing = gone.group(1), int(gone.group(2))
            if kind == "items":
                ledger.forget(thing)
            else:
                ledger.pools[kind].pop(thing, None)
        if response.status_code >= 500:
            ledger.fail(f"{method} {path} -> {response.status_code}: {response.text[:300]}")
            ledger.uncertain.update(touches)
        return response

    def ok(self, response: httpx.Response | None, operation: str) -> bool:
        if response is not None and response.status_code < 300:
            self.ledger.acks[operation] += 1
            return True
        return False

    def user(self) -> User:
        return self.rng.choice(self.cast.users)

    def collection(self) -> int:
        return self.rng.choice(self.cast.collections)

    def some_items(self, collection_id: int, most: int) -> list[int]:
        found = self.ledger.in_collection(collection_id)
        return self.rng.sample(found, min(len(found), self.rng.randint(1, most)))

    def any_item(self) -> int | None:
        found = list(self.ledger.where)
        return self.rng.choice(found) if found else None

    # ------------------------------------------------------------------ writes
    async def create_item(self) -> None:
        collection_id, rng = self.collection(), self.rng
        kind = rng.choice(("text", "link"))
        word = rng.choice(WORDS)
        content = f"https://example.com/{word}/{rng.getrandbits(32)}" if kind == "link" else f"{word} notes"
        body: dict[str, Any] = {"type": kind, "content": content, "name": f"{word} {rng.randrange(1000)}"}
        if rng.random() < 0.4:
            body["tags"] = rng.sample(TAGS, rng.randint(1, 2))
        stacks = [s for s in self.ledger.stacks if self.ledger.where.get(s) == collection_id]
        if stacks and rng.random() < 0.3:
            body["parent_id"] = rng.choice(stacks)
        response = await self.call(self.user(), "POST", f"/v1/collections/{collection_id}/items", json=body)
        if self.ok(response, "create item"):
            assert response is not None
            self.ledger.new_item(response.json())

    async def create_stack(self) -> None:
        collection_id = self.collection()
        children = [i for i in self.some_items(collection_id, 3) if i not in self.ledger.stacks]
        body = {"type": "stack", "name": f"stack {self.rng.randrange(1000)}", "items": children}
        response = await self.call(
            self.user(), "POST", f"/v1/collections/{collection_id}/items", tuple(children), json=body
        )
        if self.ok(response, "create stack"):
            assert response is not None
            self.ledger.new_item(response.json())

    async def move(self) -> None:
        source, target = self.collection(), self.collection()
        items = self.some_items(source, 3)
        if not items:
            return
        if self.rng.random() < 0.5:
            path, body = "/v1/items", {"items": items, "collection_id": target}
        else:
            path, body = f"/v1/collections/{source}/items", {"items": items, "collection_id": target}
        response = await self.call(self.user(), "PUT", path, tuple(items), json=body)
        if self.ok(response, "move"):
            assert response is not None
            for entry in response.json():
                if self.ledger.items.get(entry["id"]):  # a delete answered first stays a delete
                    self.ledger.where[entry["id"]] = entry["collection_id"]

    async def stack_items(self) -> None:
        collection_id = self.collection()
        stacks = [s for s in self.ledger.stacks if self.ledger.where.get(s) == collection_id]
        items = [i for i in self.some_items(collection_id, 3) if i not in self.ledger.stacks]
        if not stacks or not items:
            return
        body = {"items": items, "parent_id": self.rng.choice(stacks)}
        response = await self.call(
            self.user(), "PUT", f"/v1/collections/{collection_id}/items", tuple(items), json=body
        )
        self.ok(response, "stack")

    async def reorder(self) -> None:
        collection_id = self.collection()
        order = self.some_items(collection_id, 5)
        if not order:
            return
        response = await self.call(
            self.user(), "PUT", f"/v1/collections/{collection_id}/items", json={"order": order}
        )
        if self.ok(response, "reorder"):
            assert response is not None
            listed = response.json()
            sorts = [entry["sort"] for entry in listed]
            if sorts != list(range(1, len(listed) + 1)) or [e["id"] for e in listed[: len(order)]] != order:
                self.ledger.fail(f"reorder of {collection_id} by {order} answered sorts {sorts[:20]}")

    async def delete_item(self) -> None:
        item_id = self.any_item()
        if item_id is None:
            return
        response = await self.call(self.user(), "DELETE", f"/v1/items/{item_id}", (item_id,))
        if self.ok(response, "delete item"):
            self.ledger.deleted_item(item_id)

    async def delete_items(self) -> None:
        collection_id = self.collection()
        items = self.some_items(collection_id, 3)
        if not items:
            return
        response = await self.call(
            self.user(),
            "DELETE",
            f"/v1/collections/{collection_id}/items",
            tuple(items),
            json={"items": items},
        )
        if self.ok(response, "delete items"):
            for item_id in items:
                self.ledger.deleted_item(item_id)

    async def tag(self) -> None:
        item_id = self.any_item()
        if item_id is None:
            return
        body = {"name": self.rng.choice(TAGS)}
        response = await self.call(self.user(), "POST", f"/v1/items/{item_id}/tags", json=body)
        if self.ok(response, "tag"):
            assert response is not None
            self.ledger.new_tag(response.json(), item_id)

    def pick(self, pool: str) -> int | None:
        found = list(self.ledger.pools[pool])
        return self.rng.choice(found) if found else None

    async def untag(self) -> None:
        tag_id = self.pick("tags")
        if tag_id is None:
            return
        if self.ok(await self.call(self.user(), "DELETE", f"/v1/tags/{tag_id}"), "untag"):
            self.ledger.gone_tags.add(tag_id)
            self.ledger.pools["tags"].pop(tag_id, None)

    async def comment(self) -> None:
        item_id, user = self.any_item(), self.user()
        if item_id is None:
            return
        body = {"body": f"{self.rng.choice(WORDS)} looks fine"}
        response = await self.call(user, "POST", f"/v1/items/{item_id}/comments", json=body)
        if self.ok(response, "comment"):
            assert response is not None
            comment_id = response.json()["id"]
            if comment_id in self.ledger.comments:
                self.ledger.duplicates.append(f"comment {comment_id} acknowledged as new twice")
            self.ledger.comments[comment_id] = user.id
            self.ledger.pools["comments"][comment_id] = item_id

    async def uncomment(self) -> None:
        comment_id = self.pick("comments")
        if comment_id is None:
            return
        author = next(u for u in self.cast.users if u.id == self.ledger.comments[comment_id])
        if self.ok(await self.call(author, "DELETE", f"/v1/comments/{comment_id}"), "uncomment"):
            self.ledger.gone_comments.add(comment_id)
            self.ledger.pools["comments"].pop(comment_id, None)

    async def like(self) -> None:
        item_id, user = self.any_item(), self.user()
        if item_id is None:
            return
        response = await self.call(user, "POST", f"/v1/items/{item_id}/reactions")
        if self.ok(response, "like"):
            assert response is not None
            reaction_id = response.json()["id"]
            if reaction_id in self.ledger.reactions:
                self.ledger.duplicates.append(f"reaction {reaction_id} acknowledged as new twice")
            self.ledger.reactions[reaction_id] = user.id
            self.ledger.pools["reactions"][reaction_id] = item_id

    async def unlike(self) -> None:
        reaction_id = self.pick("reactions")
        if reaction_id is None:
            return
        liker = next(u for u in self.cast.users if u.id == self.ledger.reactions[reaction_id])
        if self.ok(await self.call(liker, "DELETE", f"/v1/reactions/{reaction_id}"), "unlike"):
            self.ledger.gone_reactions.add(reaction_id)
            self.ledger.pools["reactions"].pop(reaction_id, None)

    async def copy(self) -> None:
        item_id = self.any_item()
        if item_id is None or item_id in self.ledger.stacks:
            return  # a stack's copied children are not in the answer: the clients could never delete them
        body = {"items": [item_id], "collection_id": self.collection()}
        response = await self.call(self.user(), "PUT", "/v1/items/copy", json=body)
        if self.ok(response, "copy"):
            assert response is not None
            for entry in response.json():
                self.ledger.new_item(entry)

    # ------------------------------------------------------------------ reads (each answer is one moment)
    async def read_collection(self) -> None:
        collection_id = self.collection()
        params = {"include": "items", "items_per_page": PAGE}
        response = await self.call(self.user(), "GET", f"/v1/collections/{collection_id}", params=params)
        if self.ok(response, "read collection"):
            assert response is not None
            body = response.json()[0]
            shown, total = len(body["items"]), body["items_total_count"]
            if shown != min(total, PAGE):
                self.ledger.fail(
                    f"collection {collection_id} lists {shown} items of items_total_count {total}"
                )

    async def read_items(self) -> None:
        collection_id = self.collection()
        params = {"collection_id": collection_id, "per_page": PAGE}
        response = await self.call(self.user(), "GET", "/v1/items", params=params)
        if self.ok(response, "read items"):
            assert response is not None
            shown, total = len(response.json()), int(response.headers["X-Total-Count"])
            if shown != min(total, PAGE):
                self.ledger.fail(f"items of {collection_id}: {shown} listed, X-Total-Count {total}")

    async def read_more(self) -> None:
        user = self.user()
        if self.rng.random() < 0.5:
            params = {"q": self.rng.choice(WORDS), "per_page": 5}
            response = await self.call(user, "GET", "/v1/search", params=params)
        else:
            response = await self.call(user, "GET", "/v1/activity", params={"per_page": 5})
        self.ok(response, "read search or activity")


# ---------------------------------------------------------------------- afterwards
async def verify(base_url: str, cast: Cast, ledger: Ledger) -> list[str]:
    """Every acknowledged write is in the state, ids are unique, and every count the API gives
    equals a recount of GET /__mock__/snapshot. Call it once the clients have stopped."""
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as http:
        snapshot = (await http.get("/__mock__/snapshot")).raise_for_status().json()
        problems = check_snapshot(snapshot, ledger)
        recount = Recount(snapshot)
        for user in (cast.users[0], cast.users[1]):
            problems += await _compare_counts(http, user, cast, recount)
    return problems


def check_snapshot(snapshot: dict[str, Any], ledger: Ledger) -> list[str]:
    """Unique ids; acknowledged writes present, acknowledged deletes gone (uncertain ids skipped)."""
    problems = list(ledger.duplicates)
    for table, rows in snapshot.items():
        if isinstance(rows, list):
            counts = Counter(row["id"] for row in rows)
            problems += [f"{table}: id {i} appears {n} times" for i, n in counts.items() if n > 1]
    items = {row["id"]: row for row in snapshot["items"]}
    for item_id, live in ledger.items.items():
        row = items.get(item_id)
        if item_id in ledger.uncertain:
            continue
        if row is None:
            problems.append(f"item {item_id} was acknowledged but is not in the state")
        elif live and row["deleted_at"] is not None:
            problems.append(f"item {item_id} was acknowledged and never deleted, yet it is deleted")
        elif not live and row["deleted_at"] is None:
            problems.append(f"item {item_id} was acknowledged as deleted, yet it is live")
    for table, acknowledged, gone in (
        ("tags", ledger.tags, ledger.gone_tags),
        ("comments", ledger.comments, ledger.gone_comments),
        ("reactions", ledger.reactions, ledger.gone_reactions),
    ):
        present = {row["id"] for row in snapshot[table]}
        problems += [
            f"{table} {i}: acknowledged, not in the state" for i in acknowledged if i not in present | gone
        ]
        problems += [f"{table} {i}: acknowledged as deleted, still in the state" for i in gone & present]
    tags = {row["id"]: (row["item_id"], row["name"].casefold()) for row in snapshot["tags"]}
    for tag_id, key in ledger.tags.items():
        if tag_id in tags and tags[tag_id] != key:
            problems.append(f"tag {tag_id} was acknowledged as {key}, the state holds {tags[tag_id]}")
    return problems


class Recount:
    """Everything a client can count, recounted from a snapshot's tables alone."""

    def __init__(self, snapshot: dict[str, Any]):
        self.accounts = {row["id"]: row for row in snapshot["accounts"]}
        self.collections = {row["id"]: row for row in snapshot["collections"]}
        self.live = {row["id"]: row for row in snapshot["items"] if row["deleted_at"] is None}
        self.tags_of: dict[int, list[dict[str, Any]]] = defaultdict(list)
        for row in snapshot["tags"]:
            self.tags_of[row["item_id"]].append(row)
        self.comments_of: dict[int, list[int]] = defaultdict(list)
        for row in snapshot["comments"]:
            self.comments_of[row["item_id"]].append(row["id"])
        self.likes_of: Counter[int] = Counter(row["item_id"] for row in snapshot["reactions"])

    def items_in(self, collection_id: int) -> list[dict[str, Any]]:
        return [row for row in self.live.values() if row["collection_id"] == collection_id]

    def children(self, stack_id: int) -> int:
        return sum(row["parent_id"] == stack_id for row in self.live.values())

    def tag_counts(self, items: list[dict[str, Any]]) -> dict[str, int]:
        counts: Counter[str] = Counter()
        for item in items:
            counts.update({tag["name"].casefold() for tag in self.tags_of[item["id"]]})
        return dict(counts)

    def accessible(self, user_id: int) -> list[dict[str, Any]]:
        """Owned, shared with, or reached through a team (docs/design.md, visibility)."""
        teams = {a["id"] for a in self.accounts.values() if str(user_id) in a["members"]}
        mine = {user_id} | teams
        return [
            c
            for c in self.collections.values()
            if c["owner_id"] in mine or any(int(k) in mine for k in c["collaborators"])
        ]

    def activity(self, user_id: int) -> int:
        """One entry per accessible collection, live item, and comment and like on a live item."""
        ids = {c["id"] for c in self.accessible(user_id)}
        items = [row for row in self.live.values() if row["collection_id"] in ids]
        return len(ids) + sum(1 + len(self.comments_of[i["id"]]) + self.likes_of[i["id"]] for i in items)


async def _compare_counts(http: httpx.AsyncClient, user: User, cast: Cast, recount: Recount) -> list[str]:
    problems: list[str] = []

    async def get(path: str, **params: Any) -> httpx.Response:
        response = await http.get(path, params=params, headers=user.headers)
        if response.status_code != 200:
            problems.append(f"GET {path} {params} as {user.id} -> {response.status_code}")
        return response

    def same(what: str, api: Any, truth: Any) -> None:
        if api != truth:
            problems.append(f"as user {user.id}: {what}: the API says {api}, a recount {truth}")

    for collection_id in cast.collections:
        live = recount.items_in(collection_id)
        body = (await get(f"/v1/collections/{collection_id}")).json()[0]
        same(f"items_total_count of {collection_id}", body["items_total_count"], len(live))
        collaborators = recount.collections[collection_id]["collaborators"]
        same(f"users_total_count of {collection_id}", body["users_total_count"], 1 + len(collaborators))
        response = await get("/v1/items", collection_id=collection_id, per_page=1)
        same(
            f"X-Total-Count of the items of {collection_id}",
            int(response.headers["X-Total-Count"]),
            len(live),
        )
        tags = (await get(f"/v1/collections/{collection_id}/tags")).json()
        same(f"tags of {collection_id}", {t["name"].casefold(): t["items_total_count"] for t in tags},
             recount.tag_counts(live))  # fmt: skip
        listed: list[dict[str, Any]] = []
        for page in range(1, len(live) // PAGE + 2):
            listed += (await get("/v1/items", collection_id=collection_id, per_page=PAGE, page=page)).json()
        same(
            f"ids of the items of {collection_id}",
            sorted(i["id"] for i in listed),
            sorted(i["id"] for i in live),
        )
        for item in listed:
            item_id = item["id"]
            same(f"likes of {item_id}", item["reactions_total_count"], recount.likes_of[item_id])
            same(
                f"comments of {item_id}",
                sorted(c["id"] for c in item["comments"]),
                sorted(recount.comments_of[item_id]),
            )
            same(f"tags of {item_id}", sorted(t["id"] for t in item["tags"]),
                 sorted(t["id"] for t in recount.tags_of[item_id]))  # fmt: skip
            if item["type"] == "stack":
                response = await get("/v1/items", parent_id=item_id, per_page=1)
                same(
                    f"children of stack {item_id}",
                    int(response.headers["X-Total-Count"]),
                    recount.children(item_id),
                )
    accessible = recount.accessible(user.id)
    visible_items = [i for c in accessible for i in recount.items_in(c["id"])]
    tags = {t["name"].casefold(): t["items_total_count"] for t in (await get("/v1/tags")).json()}
    same("GET /v1/tags", tags, recount.tag_counts(visible_items))
    counts = (await get("/v1/collections/count")).json()
    same("collections count", counts["total"], len(accessible))
    same("owned collections", counts["owned"], sum(c["owner_id"] == user.id for c in accessible))
    listed_total = int((await get("/v1/collections", per_page=1)).headers["X-Total-Count"])
    same("X-Total-Count of the collections", listed_total, sum(not c["archived"] for c in accessible))
    activity = int((await get("/v1/activity", per_page=1)).headers["X-Total-Count"])
    same("X-Total-Count of the activity", activity, recount.activity(user.id))
    return problems
