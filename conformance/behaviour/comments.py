"""Behaviour checks of the comments operations (operationIds comments.*), grouped by rule family."""

from __future__ import annotations

from typing import Any

from ..failures import NotStored
from ..http import LAYER, Session, entry, found, ids_of, me, new_comment, search, searched, session, unique
from ..registry import RunContext, check
from .common import (
    MESSAGE,
    aged,
    feed_without,
    in_feed,
    judge_times,
    makes_and_deletes,
    stored,
    vanished,
)

# -- persistence: what a write stores, as a later, different read shows it


@check(
    LAYER,
    "comments.update_comment",
    "an update keeps created_at and moves updated_at",
    statements=("2.3/comment.created_at",),
)
def comment_timestamps_on_update(ctx: RunContext) -> None:
    with session(ctx) as s:
        things = aged(s)
        item_id, comment_id = things.item, things.comment

        def listed() -> dict[str, Any]:
            """The comment as List comments shows it (there is no Get a comment)."""
            found = entry(s.body(s.call("GET", f"/v1/items/{item_id}/comments"), list), comment_id)
            s.expect(
                found is not None,
                f"List comments of item {item_id} lacks comment {comment_id}",
                kind=NotStored,
            )
            assert found is not None
            return found

        def update() -> dict[str, Any]:
            sent = {"body": f"changed by {ctx.target.name('times')}"}
            data: dict[str, Any] = s.body(s.call("PUT", f"/v1/comments/{comment_id}", json_body=sent))
            return data

        judge_times(s, f"comment {comment_id}", things.first["comment"], update, listed)


def _comment_body(s: Session, item_id: int, comment_id: int) -> Any:
    listed = entry(s.body(s.call("GET", f"/v1/items/{item_id}/comments"), list), comment_id)
    return listed.get("body") if listed else None


@check(
    LAYER,
    "comments.update_comment",
    "an edited comment is listed and found with its new body",
    statements=("2.3/comment.body", "4.5/list-comments", "4.5/update-comment"),
)
def comment_update_persists(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        old, new = unique(s), unique(s)
        made = new_comment(s, item["id"], {"body": f"first {old}"})
        text = f"edited {new}"
        s.call("PUT", f"/v1/comments/{made['id']}", json_body={"body": text})
        body = _comment_body(s, item["id"], made["id"])
        stored(s, body == text, f"after Update a comment, List comments shows body {body!r}, not {text!r}")
        if not searched(s, made["id"], ("comment",), q=new):
            stale = found(search(s, q=old)[0], made["id"], ("comment",))
            stored(
                s,
                not stale,
                f"after Update a comment, search finds it by its old body {old!r}, not by {new!r}",
            )


@check(
    LAYER,
    "comments.create_comment",
    "a comment made with notify is stored and shown on its item",
    statements=("1/item-parts", "2.2/item.comments", "2.3/comment.body", "4.5/create-comment"),
)
def comment_notify_stored(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        username = me(s).get("username")
        text = f"@{username} look {unique(s)}"
        made = new_comment(s, item["id"], {"body": text, "notify": True})
        body = _comment_body(s, item["id"], made["id"])
        stored(
            s, body == text, f"a comment made with notify=true is listed with body {body!r}, sent {text!r}"
        )
        embedded = s.item(item["id"]).get("comments")
        stored(
            s,
            isinstance(embedded, list) and len(embedded) == 1,
            f"the item's comments array holds {embedded!r} after its one comment was made",
        )


# -- deletion: where a deleted thing must disappear


@check(
    LAYER,
    "comments.delete_comment",
    "a deleted comment is gone from the list, its item, search and activity",
    statements=("2.2/item.comments", "4.5/delete-comment"),
)
def deleted_comment_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        word = unique(s)
        text = f"remark {word}"
        made = new_comment(s, item["id"], {"body": text})
        path = f"/v1/comments/{made['id']}"
        s.call("DELETE", path)
        s.gone(path)
        what = f"after Delete a comment {made['id']}"
        listed = ids_of(s.body(s.call("GET", f"/v1/items/{item['id']}/comments"), list))
        vanished(s, made["id"] not in listed, f"{what}, List comments still shows it")
        embedded = s.item(item["id"]).get("comments")
        vanished(s, embedded == [], f"{what}, its item's comments array holds {embedded!r}")
        vanished(
            s,
            not searched(s, made["id"], ("comment",), present=False, q=word),
            f"{what}, search q={word} still finds it",
        )
        feed = feed_without(s, [("comment", made["id"], text)])
        vanished(
            s, not in_feed(feed, "comment", made["id"], text), f"{what}, the activity feed still shows it"
        )


# -- wording: fixed codes and messages


@check(
    LAYER,
    "comments.delete_comment",
    "Delete a comment says code deleted",
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.5/delete-comment",
    ),
)
def delete_comment_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        makes_and_deletes(s, f"/v1/items/{item['id']}/comments", {"body": "x"}, "comment", "Delete a comment")
