"""Behaviour checks of the items operations (operationIds items.*): deletion: where a deleted thing
must disappear."""

from __future__ import annotations

from ...failures import NotGone, StaleCount, WrongStatus
from ...http import LAYER, P_COLL_ONE, ids_of, served_live, session, unique
from ...registry import RunContext, check
from ..common import feed_without, in_feed, named_item, vanished


@check(
    LAYER,
    "items.delete_item",
    "a deleted item is gone from get, lists and counts",
    statements=("2.1/collection.items_total_count",),
)
def deleted_item_is_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        keep, item = s.add_item(cid), s.add_item(cid)
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        got = s.call("GET", path, ok=())
        s.expect(not served_live(got), f"GET {path} of the deleted item serves it", got, kind=NotGone)
        listed = ids_of(s.listing("/v1/items", {"collection_id": cid}))
        s.expect(
            item["id"] not in listed,
            f"the deleted item {item['id']} is still in its collection's list",
            kind=NotGone,
        )
        s.expect(
            listed == [keep["id"]],
            f"after deleting item {item['id']} the collection lists {listed}",
            kind=NotGone,
        )
        count = s.collection(cid).get("items_total_count")
        s.expect(count == 1, f"items_total_count is {count!r} with one live item left", kind=StaleCount)
        everywhere = ids_of(s.listing("/v1/items", {"q": item["name"].rsplit(" ", 1)[-1]}))
        s.expect(
            item["id"] not in everywhere,
            f"List items with q still finds the deleted item {item['id']}",
            kind=NotGone,
        )


@check(
    LAYER,
    "items.delete_item",
    "a deleted item's GET answers 404",
    strict=True,
    statements=("design/deleted-items.gone",),
)
def deleted_item_404(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        got = s.call("GET", path, ok=())
        s.expect(
            got.status == 404, f"GET {path} of the deleted item answered {got.status}", got, kind=WrongStatus
        )


@check(
    LAYER,
    "items.delete_item",
    "a deleted item is gone from include=items, stack_items, parent_id lists and activity",
    statements=("design/deleted-items.gone",),
)
def deleted_item_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        stack = s.add_item(cid, type="stack")
        child = named_item(s, cid, unique(s), parent_id=stack["id"])
        other = s.add_item(cid, parent_id=stack["id"])
        path = f"/v1/items/{child['id']}"
        s.call("DELETE", path)
        s.gone(path)
        what = f"after Delete an item {child['id']}"
        kids = ids_of(s.item(stack["id"], include="stack_items").get("stack_items") or [])
        vanished(s, kids == [other["id"]], f"{what}, its stack's include=stack_items shows {kids}")
        under = ids_of(s.listing("/v1/items", {"parent_id": stack["id"]}))
        vanished(s, under == [other["id"]], f"{what}, List items parent_id={stack['id']} shows {under}")
        got = s.one(f"/v1/collections/{cid}", P_COLL_ONE, {"include": "items"})
        embedded = ids_of(got.get("items") or [])
        vanished(s, child["id"] not in embedded, f"{what}, include=items of its collection still shows it")
        feed = feed_without(s, [("item", child["id"], child.get("name"))])
        vanished(
            s,
            not in_feed(feed, "item", child["id"], child.get("name")),
            f"{what}, the activity feed still shows it",
        )
