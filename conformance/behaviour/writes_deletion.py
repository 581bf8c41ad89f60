"""Deletion: a deleted thing disappears from every place it appeared (get, every list, counts,
include=..., search, the activity feed, an item's embedded arrays), judged against what the check
made and deleted itself, never against the delete's own answer.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..http import (
    LAYER,
    P_COLL_ONE,
    Session,
    ids_of,
    new_comment,
    searched,
    served_live,
    session,
    settled,
    tag_counts,
    tag_names,
    total_count,
    unique,
    unpaid,
)
from ..registry import RunContext, check
from .writes_common import R_FEED, R_SEARCH, activity, in_feed, vanished


def _feed_without(s: Session, things: list[tuple[str, Any, str | None]]) -> list[dict[str, Any]]:
    """The latest activity once it shows none of the things (kind, id, name), or after --settle
    seconds: the feed is a view derived from writes, which may lag."""
    return settled(
        s, "activity", lambda: activity(s)[0], lambda feed: not any(in_feed(feed, *thing) for thing in things)
    )


R_DELETE_ITEMS = (
    "spec 4.1 Delete items (items, required); docs/design.md deleted items: gone from every list, "
    "search result and count"
)
R_COLLECTION_GONE = "spec 4.1 Delete a collection; " + R_SEARCH + "; " + R_FEED
R_ITEM_GONE = "spec 4.2 Delete an item; spec 4.1 include=items; spec 4.2 include=stack_items; " + R_FEED
R_COMMENT_GONE = "spec 4.5 Delete a comment; spec 2.2 an item's comments; " + R_SEARCH + "; " + R_FEED
R_REACTION_GONE = "spec 4.6 Delete a reaction; spec 2.2 an item's reactions; " + R_FEED
R_TAG_GONE = "spec 4.8 Delete a tag; spec 4.2 List item tags, List items tags; spec 2.5; spec 4.9 tags"


def _named(s: Session, cid: int, word: str, **fields: Any) -> dict[str, Any]:
    """An item whose name holds `word` (search, q)."""
    return s.add_item(cid, name=f"{s.target.name('gone')} {word}", **fields)


def _not_served(s: Session, path: str, what: str) -> None:
    got = s.call("GET", path, ok=())
    vanished(s, not served_live(got), f"{what}: GET {path} still serves it", got)


@check(
    LAYER,
    "collections.delete_items",
    "deleted items are gone from get, lists, counts, include and search",
    R_DELETE_ITEMS,
)
def delete_items_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        words = [unique(s), unique(s)]
        doomed = [_named(s, cid, w) for w in words]
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
    R_COLLECTION_GONE,
)
def deleted_collection_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        word, inner = unique(s), unique(s)
        name = f"{ctx.target.name('gone')} {word}"
        cid = s.new_collection(name=name)["id"]
        item = _named(s, cid, inner)
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
        feed = _feed_without(s, [("collection", cid, name), ("item", item["id"], item.get("name"))])
        vanished(s, not in_feed(feed, "collection", cid, name), f"{what}, the activity feed still shows it")
        vanished(
            s,
            not in_feed(feed, "item", item["id"], item.get("name")),
            f"{what}, the activity feed shows its item",
        )


@check(
    LAYER,
    "items.delete_item",
    "a deleted item is gone from include=items, stack_items, parent_id lists and activity",
    R_ITEM_GONE,
)
def deleted_item_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        stack = s.add_item(cid, type="stack")
        child = _named(s, cid, unique(s), parent_id=stack["id"])
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
        feed = _feed_without(s, [("item", child["id"], child.get("name"))])
        vanished(
            s,
            not in_feed(feed, "item", child["id"], child.get("name")),
            f"{what}, the activity feed still shows it",
        )


@check(
    LAYER,
    "comments.delete_comment",
    "a deleted comment is gone from the list, its item, search and activity",
    R_COMMENT_GONE,
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
        feed = _feed_without(s, [("comment", made["id"], text)])
        vanished(
            s, not in_feed(feed, "comment", made["id"], text), f"{what}, the activity feed still shows it"
        )


@check(
    LAYER,
    "reactions.delete_reaction",
    "a deleted like is gone from its item and the activity feed",
    R_REACTION_GONE,
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
        feed = _feed_without(s, [("reaction", like["id"], None)])
        vanished(
            s, not in_feed(feed, "reaction", like["id"], None), f"{what}, the activity feed still shows it"
        )


@check(
    LAYER,
    "tags.delete_tag",
    "a deleted tag is gone from its item, the tag lists, the tags filter and search",
    R_TAG_GONE,
)
def deleted_tag_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        name = ctx.target.name(f"tag{unique(s)}")
        exchange, _ = s.new_item(cid, ok=(201, 402), tags=[name])
        if exchange.status == 402:
            raise unpaid("tags")
        item_id, key = exchange.json()["id"], name.casefold()
        tags = s.body(s.call("GET", f"/v1/items/{item_id}/tags"), list)
        tag_id = next(
            (t.get("id") for t in tags if isinstance(t, dict) and str(t.get("name")).casefold() == key), None
        )
        s.expect(isinstance(tag_id, int), f"List item tags shows {tags}, without {name!r}")
        s.call("DELETE", f"/v1/tags/{tag_id}")
        what = f"after Delete a tag {tag_id} ({name})"
        listed = tag_names(s.body(s.call("GET", f"/v1/items/{item_id}/tags"), list)) or set()
        vanished(s, key not in listed, f"{what}, List item tags still shows it")
        vanished(
            s,
            key not in (tag_names(s.item(item_id).get("tags")) or set()),
            f"{what}, a GET of the item still shows it",
        )
        for path in ("/v1/tags", f"/v1/collections/{cid}/tags"):
            counted = settled(s, "tags", partial(tag_counts, s, path), lambda got: got.get(key, 0) == 0)
            vanished(
                s, counted.get(key, 0) == 0, f"{what}, GET {path} still counts {counted.get(key)!r} items"
            )
        tagged = ids_of(s.listing("/v1/items", {"tags": name}))
        vanished(s, item_id not in tagged, f"{what}, List items tags={name} still lists item {item_id}")
        vanished(
            s,
            not searched(s, item_id, ("item",), present=False, tags=name),
            f"{what}, search tags={name} still finds it",
        )
