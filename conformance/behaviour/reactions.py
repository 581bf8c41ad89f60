"""Behaviour checks of the reactions operations (operationIds reactions.*), grouped by rule family."""

from __future__ import annotations

from ..failures import NotGone, NotStored, SchemaViolation, StaleCount
from ..http import LAYER, ids_of, session
from ..registry import RunContext, check
from .common import MESSAGE, feed_without, in_feed, makes_and_deletes, says, vanished

# -- deletion: where a deleted thing must disappear


@check(
    LAYER,
    "reactions.delete_reaction",
    "a deleted like is gone from its item and the activity feed",
    statements=("1/item-parts", "2.2/item.reactions", "4.6/delete-reaction"),
)
def deleted_reaction_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        like = s.body(s.call("POST", f"/v1/items/{item['id']}/reactions", ok=(201,)))
        s.expect(isinstance(like.get("id"), int), "the new reaction has no integer id")
        path = f"/v1/reactions/{like['id']}"
        s.register("reaction", path)
        s.call("DELETE", path)
        s.gone(path)
        what = f"after Delete a reaction {like['id']}"
        embedded = s.item(item["id"]).get("reactions")
        vanished(s, embedded == [], f"{what}, its item's reactions array holds {embedded!r}")
        feed = feed_without(s, [("reaction", like["id"], None)])
        vanished(
            s, not in_feed(feed, "reaction", like["id"], None), f"{what}, the activity feed still shows it"
        )


# -- counters and feeds: the events that move them


@check(
    LAYER,
    "reactions.create_reaction",
    "reactions_total_count follows likes",
    statements=(
        "1/reaction-like",
        "2.2/item.reactions_total_count",
        "2.4/reaction.id",
        "4/success-status",
        "4.6/list-reactions",
        "4.6/create-reaction",
        "4.6/delete-reaction",
    ),
)
def likes_count(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        path = f"/v1/items/{item['id']}"
        like = s.body(s.call("POST", f"{path}/reactions", ok=(201,)))
        s.expect(isinstance(like.get("id"), int), "the new reaction has no integer id", kind=SchemaViolation)
        s.register("reaction", f"/v1/reactions/{like['id']}")
        s.expect(
            s.item(item["id"]).get("reactions_total_count") == 1,
            "reactions_total_count is not 1 after a like",
            kind=StaleCount,
        )
        listed = ids_of(s.body(s.call("GET", f"{path}/reactions"), list))
        s.expect(listed == [like["id"]], f"List reactions shows {listed} after one like", kind=NotStored)
        s.call("DELETE", f"/v1/reactions/{like['id']}")
        s.gone(f"/v1/reactions/{like['id']}")
        s.expect(
            s.item(item["id"]).get("reactions_total_count") == 0,
            "reactions_total_count is not 0 after the like was deleted",
            kind=StaleCount,
        )
        s.expect(
            s.body(s.call("GET", f"{path}/reactions"), list) == [],
            "List reactions still shows a deleted like",
            kind=NotGone,
        )


# -- wording: fixed codes and messages


@check(
    LAYER,
    "reactions.delete_reaction",
    "Delete a reaction says code deleted",
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.6/delete-reaction",
    ),
)
def delete_reaction_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        makes_and_deletes(s, f"/v1/items/{item['id']}/reactions", None, "reaction", "Delete a reaction")


@check(
    LAYER,
    "reactions.create_reaction",
    "a second like says code conflict",
    strict=True,
    statements=("design/status-codes.409", "design/error-body.message"),
)
def conflict_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        path = f"/v1/items/{s.add_item(s.new_collection()['id'])['id']}/reactions"
        for _ in range(2):
            got = s.call("POST", path, ok=())
            if got.status == 201:
                s.register("reaction", f"/v1/reactions/{(got.json() or {}).get('id')}")
        says(s, got, 409, "conflict", f"a second POST {path}")
