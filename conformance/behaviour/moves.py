"""Example checks of ordering, moving and copying items."""

from __future__ import annotations

from typing import Any

from ..failures import CheckSkipped, NotGone, NotHonoured, NotStored, StaleCount
from ..http import LAYER, Session, ids_of, metadata, session, shape_of, tag_names, unpaid
from ..registry import RunContext, check
from .properties import R_COPY, R_MOVE, R_ORDER, R_UPDATE_ITEMS


@check(LAYER, "collections.update_items", "update items order sets the positions asked", R_ORDER)
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


def _moved(s: Session, item_id: int, dest: int, before: dict[str, Any], what: str) -> None:
    got = s.item(item_id)
    s.expect(
        got.get("collection_id") == dest,
        f"{what}: item {item_id} has collection_id {got.get('collection_id')}",
        kind=NotStored,
    )
    for name, read in (("tags", tag_names), ("metadata", metadata)):
        s.expect(
            read(got.get(name)) == read(before.get(name)),
            f"{what}: item {item_id} has {name} {got.get(name)}, before the move {before.get(name)}",
            kind=NotStored,
        )


def _tagged_item(s: Session, cid: int, **fields: Any) -> dict[str, Any]:
    """An item with tags if the plan allows (else without) and metadata."""
    exchange, _ = s.new_item(cid, ok=(201, 402), tags=[s.target.name("mv")], metadata={"k": "v"}, **fields)
    if exchange.status == 402:
        exchange, _ = s.new_item(cid, metadata={"k": "v"}, **fields)
    data: dict[str, Any] = s.body(exchange)
    return data


@check(
    LAYER,
    "collections.update_items",
    "update items moves items and stacks them into a stack",
    R_UPDATE_ITEMS,
)
def update_items_moves(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        item, stay = _tagged_item(s, source), s.add_item(source)
        s.call(
            "PUT", f"/v1/collections/{source}/items", json_body={"items": [item["id"]], "collection_id": dest}
        )
        _moved(s, item["id"], dest, item, f"after update items to collection {dest}")
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


@check(LAYER, "collections.update_items", "update items with tags adds the tags", R_UPDATE_ITEMS)
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


@check(
    LAYER,
    "items.update_multiple_items",
    "moved items land in the destination with tags and metadata",
    R_MOVE,
)
def multiple_items_move(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        one, two, stay = _tagged_item(s, source), _tagged_item(s, source), s.add_item(source)
        s.call("PUT", "/v1/items", json_body={"items": [one["id"], two["id"]], "collection_id": dest})
        for item in (one, two):
            _moved(s, item["id"], dest, item, f"after PUT /v1/items to collection {dest}")
        counts = (s.collection(source).get("items_total_count"), s.collection(dest).get("items_total_count"))
        s.expect(
            counts == (1, 2),
            f"items_total_count of source and destination are {counts}, expected (1, 2)",
            kind=StaleCount,
        )
        listed = ids_of(s.listing("/v1/items", {"collection_id": dest}))
        s.expect(
            sorted(listed) == sorted([one["id"], two["id"]]),
            f"the destination lists {listed}",
            kind=NotStored,
        )
        s.expect(
            ids_of(s.listing("/v1/items", {"collection_id": source})) == [stay["id"]],
            "the source collection still lists a moved item",
            kind=NotGone,
        )


@check(LAYER, "items.copy_items", "copies land where asked with tags and metadata, without comments", R_COPY)
def copies(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        original = _tagged_item(s, source, description="copied")
        note = s.body(
            s.call("POST", f"/v1/items/{original['id']}/comments", ok=(201,), json_body={"body": "x"})
        )
        s.register("comment", f"/v1/comments/{note.get('id')}")
        for body, where in (({"collection_id": dest}, dest), ({}, source)):
            exchange = s.call(
                "PUT", "/v1/items/copy", ok=(201,), json_body={"items": [original["id"]], **body}
            )
            answer = s.body(exchange, list)
            s.expect(
                len(answer) == 1 and isinstance(answer[0], dict) and isinstance(answer[0].get("id"), int),
                f"Copy items of one item answered {shape_of(answer)}",
            )
            copy_id = answer[0]["id"]
            s.register("item", f"/v1/items/{copy_id}")
            s.expect(copy_id != original["id"], "the copy has the original's id", exchange)
            got = s.item(copy_id)
            what = f"the copy {'into collection ' + str(dest) if body else 'without collection_id'}"
            s.expect(
                got.get("collection_id") == where,
                f"{what} is in collection {got.get('collection_id')}",
                kind=NotStored,
            )
            for name in ("type", "name", "content", "description"):
                s.expect(
                    got.get(name) == original.get(name),
                    f"{what} has {name} {got.get(name)!r}, the original {original.get(name)!r}",
                    kind=NotStored,
                )
            for name, read in (("tags", tag_names), ("metadata", metadata)):
                s.expect(
                    read(got.get(name)) == read(original.get(name)),
                    f"{what} has {name} {got.get(name)}, the original {original.get(name)}",
                    kind=NotStored,
                )
            comments = s.body(s.call("GET", f"/v1/items/{copy_id}/comments"), list)
            s.expect(comments == [], f"{what} has {len(comments)} comment(s); comments are not copied")
        left = s.body(s.call("GET", f"/v1/items/{original['id']}/comments"), list)
        s.expect(
            len(left) == 1,
            f"the original has {len(left)} comments after being copied, it had 1",
            kind=NotStored,
        )
