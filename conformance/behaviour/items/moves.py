"""Behaviour checks of the items operations (operationIds items.*): moves: order, moves and copies."""

from __future__ import annotations

from ...failures import NotGone, NotStored, StaleCount
from ...http import LAYER, ids_of, metadata, session, shape_of, tag_names
from ...registry import RunContext, check
from ..common import moved_keeping, new_tagged_item


@check(
    LAYER,
    "items.update_multiple_items",
    "moved items land in the destination with tags and metadata",
    statements=(
        "1/item-collection",
        "2.1/collection.items_total_count",
        "2.2/item.id",
        "3/move",
        "4.2/update-multiple-items",
        "4.2/update-multiple-items.body",
        "4.11/note-a",
    ),
)
def multiple_items_move(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        one, two, stay = new_tagged_item(s, source), new_tagged_item(s, source), s.add_item(source)
        s.call("PUT", "/v1/items", json_body={"items": [one["id"], two["id"]], "collection_id": dest})
        for item in (one, two):
            moved_keeping(s, item["id"], dest, item, f"after PUT /v1/items to collection {dest}")
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


@check(
    LAYER,
    "items.copy_items",
    "copies land where asked with tags and metadata, without comments",
    statements=("4/success-status", "4.2/copy-items", "4.2/copy-items.what", "4.2/copy-items.body"),
)
def copies(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        original = new_tagged_item(s, source, description="copied")
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
