"""Behaviour checks of the collections operations (operationIds collections.*): moves: order, moves and
copies."""

from __future__ import annotations

from typing import Any

from ...failures import CheckSkipped, NotGone, NotHonoured, NotStored, StaleCount
from ...http import LAYER, ids_of, session, tag_names, unpaid
from ...registry import RunContext, check
from ..common import moved_keeping, new_tagged_item


@check(
    LAYER,
    "collections.update_items",
    "update items order sets the positions asked",
    statements=(
        "2.1/collection.sort_by",
        "2.2/item.sort",
        "4/shared-path",
        "4.1/update-items-order",
        "4.1/collection-body.sort_by",
        "4.1/update-items-order.order",
        "4.2/list-items.collection_id",
        "4.2/item-body.sort",
        "4.11/note-a",
    ),
)
def items_order(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        if data.get("sort_by") is not None:
            raise CheckSkipped(f"a new collection has sort_by {data.get('sort_by')!r}, not manual order")
        cid = data["id"]
        a, b, c, d = (s.add_item(cid)["id"] for _ in range(4))
        s.call("PUT", f"/v1/collections/{cid}/items", json_body={"order": [d, b]})
        listed = s.listing("/v1/items", {"collection_id": cid})
        sort: dict[Any, Any] = {i.get("id"): i.get("sort") for i in listed}
        s.expect(
            isinstance(sort.get(d), int) and isinstance(sort.get(b), int) and sort[d] < sort[b],
            f"after order [{d}, {b}] item {d} has sort {sort.get(d)!r}, item {b} {sort.get(b)!r}",
            kind=NotHonoured,
        )
        if ctx.settings.strict:
            s.expect(
                ids_of(listed) == [d, b, a, c],
                f"after order [{d}, {b}] the collection lists {ids_of(listed)}, expected {[d, b, a, c]}",
                kind=NotHonoured,
            )


@check(
    LAYER,
    "collections.update_items",
    "update items moves items and stacks them into a stack",
    statements=(
        "3/move",
        "3/stack",
        "4/shared-path",
        "4.1/update-items",
        "4.1/update-items.items",
        "4.1/update-items.collection_id",
        "4.1/update-items.parent_id",
        "4.2/content-by-type",
        "4.11/note-a",
    ),
)
def update_items_moves(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        item, stay = new_tagged_item(s, source), s.add_item(source)
        s.call(
            "PUT", f"/v1/collections/{source}/items", json_body={"items": [item["id"]], "collection_id": dest}
        )
        moved_keeping(s, item["id"], dest, item, f"after update items to collection {dest}")
        s.expect(
            ids_of(s.listing("/v1/items", {"collection_id": source})) == [stay["id"]],
            f"the source collection still lists the moved item {item['id']}",
            kind=NotGone,
        )
        count = s.collection(dest).get("items_total_count")
        s.expect(
            count == 1,
            f"the destination's items_total_count is {count!r} after one item moved in",
            kind=StaleCount,
        )
        stack = s.add_item(dest, type="stack")
        s.call(
            "PUT",
            f"/v1/collections/{dest}/items",
            json_body={"items": [item["id"]], "parent_id": stack["id"]},
        )
        got = s.item(item["id"])
        s.expect(
            got.get("parent_id") == stack["id"],
            f"after update items with parent_id {stack['id']} the item has parent_id {got.get('parent_id')}",
            kind=NotStored,
        )
        kids = ids_of(s.item(stack["id"], include="stack_items").get("stack_items") or [])
        s.expect(kids == [item["id"]], f"the stack's include=stack_items lists {kids}", kind=NotStored)


@check(
    LAYER,
    "collections.update_items",
    "update items with tags adds the tags",
    statements=("4/shared-path", "4.1/update-items", "4.1/update-items.items", "4.1/update-items.tags"),
)
def update_items_tags(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        first, _ = s.new_item(cid, ok=(201, 402), tags=[ctx.target.name("old")])
        if first.status == 402:
            raise unpaid("tags")
        second = s.add_item(cid)
        new = ctx.target.name("new")
        s.call(
            "PUT",
            f"/v1/collections/{cid}/items",
            json_body={"items": [first.json()["id"], second["id"]], "tags": [new]},
        )
        for item_id, want in ((first.json()["id"], {ctx.target.name("old"), new}), (second["id"], {new})):
            have = tag_names(s.item(item_id).get("tags"))
            want = {w.casefold() for w in want}
            s.expect(
                have == want,
                f"after update items with tags [{new}], item {item_id} has tags {have}, not {want}",
                kind=NotStored,
            )
