"""Behaviour checks of the collections operations (operationIds collections.*): deletion: where a
deleted thing must disappear."""

from __future__ import annotations

from ...failures import NotGone, NotStored, StaleCount, WrongStatus
from ...http import (
    LAYER,
    P_COLL_ONE,
    Session,
    ids_of,
    searched,
    served_live,
    session,
    settled,
    total_count,
    unique,
)
from ...registry import RunContext, check
from ..common import feed_without, in_feed, named_item, vanished
from .common import collection_ids, counts_baseline, counts_moved


@check(
    LAYER,
    "collections.delete_collection",
    "a deleted collection is gone from get, lists and counts",
    statements=("4.1/delete-collection",),
)
def deleted_collection_is_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        cid = data["id"]
        before = counts_baseline(s)
        s.expect(
            cid in collection_ids(s), f"the new collection {cid} is not in List collections", kind=NotStored
        )
        path = f"/v1/collections/{cid}"
        s.call("DELETE", path)
        s.gone(path)
        s.collections.remove(cid)
        got = s.call("GET", path, ok=())
        s.expect(got.status != 200, f"GET {path} of the deleted collection answered 200", got, kind=NotGone)
        s.expect(
            cid not in collection_ids(s),
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
    strict=True,
    statements=("design/deleted-items.gone", "design/deleted-items.collection"),
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


def _not_served(s: Session, path: str, what: str) -> None:
    got = s.call("GET", path, ok=())
    vanished(s, not served_live(got), f"{what}: GET {path} still serves it", got)


@check(
    LAYER,
    "collections.delete_items",
    "deleted items are gone from get, lists, counts, include and search",
    statements=("4.1/delete-items", "4.1/delete-items.items", "4.11/note-a", "design/deleted-items.gone"),
)
def delete_items_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        words = [unique(s), unique(s)]
        doomed = [named_item(s, cid, w) for w in words]
        keep = s.add_item(cid)
        ids = [d["id"] for d in doomed]
        s.call("DELETE", f"/v1/collections/{cid}/items", json_body={"items": ids})
        what = f"after Delete items {ids}"
        for item_id in ids:
            s.gone(f"/v1/items/{item_id}")
            _not_served(s, f"/v1/items/{item_id}", what)
        exchange = s.call("GET", "/v1/items", params={"collection_id": cid, "per_page": 100})
        listed = ids_of(s.body(exchange, list))
        vanished(s, listed == [keep["id"]], f"{what}, List items of the collection shows {listed}", exchange)
        vanished(
            s,
            total_count(exchange) == 1,
            f"{what}, X-Total-Count of the list is {exchange.header('X-Total-Count')}",
        )
        got = s.one(f"/v1/collections/{cid}", P_COLL_ONE, {"include": "items"})
        vanished(
            s,
            got.get("items_total_count") == 1,
            f"{what}, items_total_count is {got.get('items_total_count')!r}",
        )
        embedded = ids_of(got.get("items") or [])
        vanished(s, embedded == [keep["id"]], f"{what}, include=items shows {embedded}")
        for word, item_id in zip(words, ids, strict=True):
            vanished(
                s,
                not searched(s, item_id, ("item",), present=False, q=word),
                f"{what}, search q={word} still finds {item_id}",
            )


@check(
    LAYER,
    "collections.delete_collection",
    "a deleted collection and its items are gone from search, List items and activity",
    statements=("1/activity",),
)
def deleted_collection_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        word, inner = unique(s), unique(s)
        name = f"{ctx.target.name('gone')} {word}"
        cid = s.new_collection(name=name)["id"]
        item = named_item(s, cid, inner)
        path = f"/v1/collections/{cid}"
        s.call("DELETE", path)
        s.gone(path)
        s.collections.remove(cid)
        s.gone(f"/v1/items/{item['id']}")
        what = f"after Delete a collection {cid}"
        vanished(
            s,
            not searched(s, cid, ("collection",), present=False, q=word),
            f"{what}, search q={word} still finds it",
        )
        vanished(
            s,
            not searched(s, item["id"], ("item",), present=False, q=inner),
            f"{what}, search still finds its item",
        )
        listed = settled(  # q is a search query (spec 4.2): a server may answer it from a lagging index
            s,
            "items q",
            lambda: ids_of(s.listing("/v1/items", {"q": inner})),
            lambda got: item["id"] not in got,
        )
        vanished(
            s, item["id"] not in listed, f"{what}, List items q={inner} still lists its item {item['id']}"
        )
        feed = feed_without(s, [("collection", cid, name), ("item", item["id"], item.get("name"))])
        vanished(s, not in_feed(feed, "collection", cid, name), f"{what}, the activity feed still shows it")
        vanished(
            s,
            not in_feed(feed, "item", item["id"], item.get("name")),
            f"{what}, the activity feed shows its item",
        )
