"""Example checks of collections: read back, updates, deletion, counts, archiving, paging,
filters, collaborators."""

from __future__ import annotations

import math
from typing import Any

from ..failures import NotGone, NotHonoured, NotStored, StaleCount, WrongStatus
from ..http import (
    LAYER,
    P_PAGES,
    R_ONE,
    R_PAGES,
    Session,
    counts,
    counts_baseline,
    counts_moved,
    ids_of,
    session,
    settled,
    unique,
    unpaid,
)
from ..registry import RunContext, check


@check(
    LAYER,
    "collections.create_collection",
    "a created collection reads back with the fields sent",
    "spec 4.1 Create a collection (201, Collection), Get a collection",
)
def created_collection_reads_back(ctx: RunContext) -> None:
    with session(ctx) as s:
        sent = {"name": ctx.target.name("readback"), "type": "public", "description": "made by the suite"}
        data = s.new_collection(**sent)
        wrong = {k: data.get(k) for k, v in sent.items() if data.get(k) != v}
        s.expect(not wrong, f"Create a collection answered {wrong}, sent {sent}")
        got = s.collection(data["id"])
        wrong = {k: got.get(k) for k, v in sent.items() if got.get(k) != v}
        s.expect(not wrong, f"GET of the new collection shows {wrong}, sent {sent}", kind=NotStored)


@check(LAYER, "collections.get_collection", "Get a collection is an array of one", R_ONE)
def collection_array_of_one(ctx: RunContext) -> None:
    with session(ctx) as s:
        s.collection(s.new_collection()["id"])


@check(
    LAYER,
    "collections.update_collection",
    "an update persists (a later GET shows it)",
    "spec 4.1 Update a collection (200, Collection); spec 3: type as sent",
)
def collection_update_persists(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        sent = {"name": ctx.target.name("renamed"), "description": "changed", "type": "public"}
        data = s.body(s.call("PUT", f"/v1/collections/{cid}", json_body=sent))
        wrong = {k: data.get(k) for k, v in sent.items() if data.get(k) != v}
        s.expect(not wrong, f"Update a collection answered {wrong}, sent {sent}")
        got = s.collection(cid)
        wrong = {k: got.get(k) for k, v in sent.items() if got.get(k) != v}
        s.expect(not wrong, f"a GET after Update a collection shows {wrong}, sent {sent}", kind=NotStored)


def _collection_ids(s: Session, params: dict[str, Any] | None = None) -> list[Any]:
    return ids_of(s.listing("/v1/collections", params or {}))


@check(
    LAYER,
    "collections.delete_collection",
    "a deleted collection is gone from get, lists and counts",
    "spec 4.1 Delete a collection (200, message deleted); Get collections count",
)
def deleted_collection_is_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        cid = data["id"]
        before = counts_baseline(s)
        s.expect(
            cid in _collection_ids(s), f"the new collection {cid} is not in List collections", kind=NotStored
        )
        path = f"/v1/collections/{cid}"
        s.call("DELETE", path)
        s.gone(path)
        s.collections.remove(cid)
        got = s.call("GET", path, ok=())
        s.expect(got.status != 200, f"GET {path} of the deleted collection answered 200", got, kind=NotGone)
        s.expect(
            cid not in _collection_ids(s),
            f"the deleted collection {cid} is still in List collections",
            kind=NotGone,
        )
        after = counts_moved(s, before, {"total": -1, "owned": -1})
        for key in ("total", "owned"):
            s.expect(
                isinstance(before.get(key), int) and after.get(key) == before[key] - 1,
                f"Get collections count {key} went from {before.get(key)} to {after.get(key)} "
                "when a collection was deleted",
                kind=StaleCount,
            )


@check(
    LAYER,
    "collections.delete_collection",
    "a deleted collection's GET is 404, its items go with it",
    "docs/design.md: an unknown id is a 404; deleting a collection soft-deletes its items",
    strict=True,
)
def deleted_collection_404(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        item = s.add_item(cid)
        path = f"/v1/collections/{cid}"
        s.call("DELETE", path)
        s.gone(path)
        s.collections.remove(cid)
        got = s.call("GET", path, ok=())
        s.expect(
            got.status == 404,
            f"GET {path} of the deleted collection answered {got.status}",
            got,
            kind=WrongStatus,
        )
        got = s.call("GET", f"/v1/items/{item['id']}", ok=())
        s.expect(
            got.status == 404,
            f"the item {item['id']} of the deleted collection answered {got.status}",
            kind=WrongStatus,
        )
        s.gone(f"/v1/items/{item['id']}")


@check(
    LAYER,
    "collections.get_collections_count",
    "counts follow creation, archiving and deletion",
    "spec 4.1 Get collections count; spec 3: archived=true (paid)",
)
def collection_counts_follow(ctx: RunContext) -> None:
    with session(ctx) as s:
        before = counts_baseline(s)
        cid = s.new_collection()["id"]
        made = counts_moved(s, before, {"total": 1, "owned": 1})
        for key in ("total", "owned"):
            s.expect(
                made.get(key) == before.get(key, 0) + 1,
                f"{key} went from {before.get(key)} to {made.get(key)} when a collection was created",
                kind=StaleCount,
            )
        archived = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"archived": True})
        if archived.status == 200:
            now = counts_moved(s, made, {"archived": 1})
            s.expect(
                now.get("archived") == made.get("archived", 0) + 1,
                f"archived went from {made.get('archived')} to {now.get('archived')} when one was archived",
                kind=StaleCount,
            )
        s.call("DELETE", f"/v1/collections/{cid}")
        s.gone(f"/v1/collections/{cid}")
        s.collections.remove(cid)
        after = settled(s, "collections count", lambda: counts(s), lambda now: now == before)
        s.expect(
            after == before,
            f"the counts after deleting the collection are {after}, before it {before}",
            kind=StaleCount,
        )


@check(
    LAYER,
    "collections.list_collections",
    "archived collections are listed under status=archived",
    "spec 3: PUT collection with archived=true (paid): the collection is listed under status archived",
)
def archived_are_listed(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        exchange = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"archived": True})
        if exchange.status == 402:
            raise unpaid("archived")
        s.expect(
            s.collection(cid).get("archived") is True,
            "a GET after archiving shows archived false",
            kind=NotStored,
        )
        s.expect(
            cid in _collection_ids(s, {"status": "archived"}),
            f"the archived collection {cid} is not listed under status=archived",
            kind=NotHonoured,
        )
        if ctx.settings.strict:  # docs/design.md: archived ones appear only under status=archived
            s.expect(
                cid not in _collection_ids(s),
                f"the archived collection {cid} is in the default list",
                kind=NotHonoured,
            )
        s.call("PUT", f"/v1/collections/{cid}", json_body={"archived": False})
        s.expect(
            cid not in _collection_ids(s, {"status": "archived"}),
            f"collection {cid} is still listed under status=archived after archived=false",
            kind=NotGone,
        )


@check(LAYER, "collections.list_collections", "pages partition the list (X-Total-Count, per_page)", R_PAGES)
def collections_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        for _ in range(3):
            s.new_collection()
        full = s.listing("/v1/collections", {}, P_PAGES)
        per_page = max(2, math.ceil(len(full) / 6))
        s.partition("/v1/collections", {}, per_page, full)


@check(
    LAYER,
    "collections.list_collections",
    "owned and q filter the list",
    "spec 4.1 List collections query: owned, q",
)
def collections_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        cid = s.new_collection(name=f"{ctx.target.name('find')} {token}")["id"]
        s.new_collection()
        owned = s.listing("/v1/collections", {"owned": "true"})
        others = [c.get("id") for c in owned if c.get("user_id") != s.me.id]
        s.expect(
            cid in ids_of(owned),
            f"owned=true does not list the caller's new collection {cid}",
            kind=NotHonoured,
        )
        s.expect(not others, f"owned=true lists {others}, owned by someone else", kind=NotHonoured)
        found = s.listing("/v1/collections", {"q": token})
        s.expect(
            ids_of(found) == [cid],
            f"q={token} lists {ids_of(found)}; only collection {cid} has that word",
            kind=NotHonoured,
        )


@check(
    LAYER,
    "collections.add_collaborator",
    "users_total_count follows collaborators",
    "spec 4.1 Add / Remove a collaborator; spec 2.1 users_total_count",
    users=2,
)
def collaborators_count(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        cid, other = data["id"], ctx.settings.users[1].id
        before = data.get("users_total_count")
        added = s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other})
        path = f"/v1/collections/{cid}/users/{other}"
        s.register("collaborator", path)
        s.expect(s.body(added).get("id") == other, f"Add a collaborator answered id {added.json().get('id')}")
        s.expect(
            other in ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list)),
            f"List collaborators lacks the added user {other}",
            kind=NotStored,
        )
        count = s.collection(cid).get("users_total_count")
        s.expect(
            isinstance(before, int) and count == before + 1,
            f"users_total_count went from {before} to {count} when a collaborator was added",
            kind=StaleCount,
        )
        s.call("DELETE", path)
        s.gone(path)
        count = s.collection(cid).get("users_total_count")
        s.expect(
            count == before,
            f"users_total_count is {count} after the collaborator left, {before} before",
            kind=StaleCount,
        )
        s.expect(
            other not in ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list)),
            f"List collaborators still shows the removed user {other}",
            kind=NotGone,
        )
