"""Planted faults the behaviour layer must catch: paging and counts, writes that do not stick,
deletions that do not show, filters, copies and stacks.

Registered into tests/conformance/faults.py's FAULTS, which imports this module.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from tests.conformance.faults import (
    BEHAVIOUR,
    COLLECTION,
    COLLECTIONS,
    ITEM,
    ITEMS,
    Answer,
    Forward,
    Request,
    World,
    editing,
    fault,
    ignoring,
    undoing,
)


# -- behaviour: paging and counts
@fault(
    "page-2-repeats-page-1",
    "List collections answers page 1 whatever page is asked",
    ("collections.list_collections",),
    BEHAVIOUR,
)
async def page_2_repeats_page_1(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", "/v1/collections") and request.param("page"):
        request = request.with_param("page", "1")
    return await forward(request)


fault("per-page-ignored", "List items ignores per_page", ("items.list_items",), BEHAVIOUR)(
    ignoring("GET", "/v1/items", "per_page")
)


@fault(
    "total-count-off-by-one",
    "List collections' X-Total-Count is one more than the entries",
    ("collections.list_collections",),
    BEHAVIOUR,
)
async def total_count_off_by_one(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    total = answer.header("x-total-count")
    if request.on("GET", "/v1/collections") and total is not None and total.isdigit():
        answer.set_header("x-total-count", str(int(total) + 1))
    return answer


@fault(
    "items-count-stuck",
    "a collection's items_total_count never changes from the first value answered",
    # the count is checked where the items are listed
    ("collections.get_collection", "items.list_items"),
    BEHAVIOUR,
)
async def items_count_stuck(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    first = world.note("counts", {})

    def stuck(collection: dict[str, Any]) -> None:
        if "items_total_count" in collection:
            collection["items_total_count"] = first.setdefault(
                collection.get("id"), collection["items_total_count"]
            )

    return answer.edit(stuck) if re.fullmatch(COLLECTIONS, request.path) else answer


fault(
    "reactions-count-stuck",
    "an item's reactions_total_count stays 0 whatever the likes",
    ("reactions.create_reaction",),
    BEHAVIOUR,
)(editing("GET", ITEMS, lambda item: item.update(reactions_total_count=0)))


# -- behaviour: writes that do not stick (each answers as if done, then is undone)
fault(
    "lost-update",
    "Update a collection answers the new values, but a later GET shows the old ones",
    ("collections.update_collection",),
    BEHAVIOUR,
)(undoing(COLLECTION, lambda old, sent: {k: old[0][k] for k in sent if k in old[0]}))  # old: an array of one


@fault(
    "update-items-order-ignored",
    "Update items order answers 200, and the items keep their old order",
    ("collections.update_items",),
    BEHAVIOUR,
)
async def update_items_order_ignored(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("PUT", COLLECTION + "/items")
    if not found or "order" not in request.json_object():
        return await forward(request)
    listed = (await forward(request.get("/v1/items", collection_id=found[1], per_page=100))).entries()
    answer = await forward(request)
    if answer.status == 200 and listed:
        old = sorted(listed, key=lambda item: (item.get("sort", 0), item.get("id", 0)))
        await forward(request.with_json({"order": [item["id"] for item in old]}))
    return answer


@fault(
    "move-ignored",
    "Update multiple items answers 200, and the items stay where they were",
    ("items.update_multiple_items",),
    BEHAVIOUR,
)
async def move_ignored(request: Request, forward: Forward, world: World) -> Answer:
    if not request.on("PUT", "/v1/items") or "collection_id" not in request.json_object():
        return await forward(request)
    were: dict[int, list[int]] = {}
    for item_id in request.ids():
        for item in (await forward(request.get(f"/v1/items/{item_id}"))).entries():
            were.setdefault(item["collection_id"], []).append(item_id)
    answer = await forward(request)
    if answer.status == 200:
        for collection_id, ids in were.items():
            await forward(request.with_json({"items": ids, "collection_id": collection_id}))
    return answer


# -- behaviour: deletions that do not show
@fault(
    "deleted-item-still-readable",
    "a deleted item is still answered by Get an item (use after free)",
    ("items.delete_item",),
    BEHAVIOUR,
)
async def deleted_item_still_readable(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", {})
    if request.on("DELETE", ITEM):
        before = await forward(request.get(request.path))
        answer = await forward(request)
        if answer.status == 200 and before.status == 200:
            ghosts[request.path] = before.body
        return answer
    answer = await forward(request)
    if request.on("GET", ITEM) and answer.status == 404 and request.path in ghosts:
        return Answer(200, [(b"content-type", b"application/json")], ghosts[request.path])
    return answer


@fault(
    "deleted-collection-still-listed",
    "a deleted collection stays in its owner's List collections",
    ("collections.delete_collection",),
    BEHAVIOUR,
)
async def deleted_collection_still_listed(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", [])
    if request.on("DELETE", COLLECTION):
        before = (await forward(request.get(request.path))).entries()
        answer = await forward(request)
        if answer.status == 200 and len(before) == 1:
            ghosts.append((request.user_id, before[0]))
        return answer
    answer = await forward(request)
    listed = answer.json()
    if (
        request.on("GET", "/v1/collections")
        and isinstance(listed, list)
        and request.param("page") in (None, "1")
    ):
        extra = [ghost for user_id, ghost in ghosts if user_id == request.user_id]
        answer.with_body(listed + extra).move_total(len(extra))
    return answer


@fault(
    "delete-items-flag-ignored",
    "Delete an item ignores delete_items: a stack deleted with it keeps its children",
    ("items.delete_item",),
    BEHAVIOUR,
)
async def delete_items_flag_ignored(request: Request, forward: Forward, world: World) -> Answer:
    return await forward(replace(request, body=b"") if request.on("DELETE", ITEM) else request)


# -- behaviour: filters
for _parameter in ("type", "tags", "collection_id"):
    fault(
        f"{_parameter.replace('_', '-')}-filter-ignored",
        f"List items ignores its {_parameter} filter",
        ("items.list_items",),
        BEHAVIOUR,
    )(ignoring("GET", "/v1/items", _parameter))


# -- behaviour: copies and stacks
@fault(
    "copy-loses-tags", "Copy items makes copies without the originals' tags", ("items.copy_items",), BEHAVIOUR
)
async def copy_loses_tags(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("PUT", "/v1/items/copy") and answer.status == 201:
        for copy in answer.entries():
            for tag in copy.get("tags") or []:
                await forward(request.to("DELETE", f"/v1/tags/{tag['id']}"))
        answer.edit(lambda copy: copy.update(tags=[]))
    return answer


@fault(
    "copy-carries-comments", "Copy items copies the originals' comments too", ("items.copy_items",), BEHAVIOUR
)
async def copy_carries_comments(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("PUT", "/v1/items/copy") and answer.status == 201:
        for original, copy in zip(request.ids(), answer.entries(), strict=False):
            for comment in (await forward(request.get(f"/v1/items/{original}/comments"))).entries():
                await forward(
                    request.to("POST", f"/v1/items/{copy['id']}/comments", {"body": comment.get("body")})
                )
    return answer


@fault(
    "stack-children-lost",
    "Create an item of type stack drops the children given in items",
    ("items.create_item",),
    BEHAVIOUR,
)
async def stack_children_lost(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    if request.on("POST", COLLECTION + "/items") and body.get("type") == "stack" and "items" in body:
        request = request.with_json({k: v for k, v in body.items() if k != "items"})
    return await forward(request)
