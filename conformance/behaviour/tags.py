"""Behaviour checks of the tags operations (operationIds tags.*), grouped by rule family."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from .. import http
from ..failures import AccessLeak, CheckSkipped, NotGone, NotStored, StaleCount
from ..http import (
    LAYER,
    SERIAL,
    Session,
    create_collection,
    ids_of,
    searched,
    session,
    settled,
    tag_names,
    unique,
    unpaid,
)
from ..registry import RunContext, check
from ..settings import User
from .common import MESSAGE, deletes, shared_collection, stored, tag_item, tagged_item, vanished

# -- persistence: what a write stores, as a later, different read shows it


@check(
    LAYER,
    "tags.create_tag",
    "a created tag shows on its item, in lists, counts, filters and search",
    statements=(
        "1/item-parts",
        "1/tags",
        "2.2/item.tags",
        "2.5/tag-counts",
        "2.5/item-tags",
        "4.1/list-collection-tags",
        "4.2/list-item-tags",
        "4.8/create-tag",
    ),
)
def created_tag_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        item = s.add_item(cid)
        name = ctx.target.name(f"tag{unique(s)}")
        exchange = s.call("POST", f"/v1/items/{item['id']}/tags", ok=(201, 402), json_body={"name": name})
        if exchange.status == 402:
            raise unpaid("tags")
        tag = s.body(exchange)
        s.expect(isinstance(tag.get("id"), int), "the new tag has no integer id", exchange)
        s.register("tag", f"/v1/tags/{tag['id']}")
        key = name.casefold()
        listed = s.body(s.call("GET", f"/v1/items/{item['id']}/tags"), list)
        stored(
            s,
            any(
                isinstance(e, dict) and e.get("id") == tag["id"] and str(e.get("name")).casefold() == key
                for e in listed
            ),
            f"List item tags shows {listed}, not the new tag {tag['id']} {name!r}",
        )
        stored(
            s,
            key in (tag_names(s.item(item["id"]).get("tags")) or set()),
            f"a GET of the item lacks tag {name!r}",
        )
        for path in ("/v1/tags", f"/v1/collections/{cid}/tags"):
            counted = settled(s, "tags", partial(http.tag_counts, s, path), lambda got: got.get(key) == 1)
            stored(
                s,
                counted.get(key) == 1,
                f"GET {path} counts {counted.get(key)!r} items tagged {name!r}, 1 is",
            )
        tagged = ids_of(s.listing("/v1/items", {"tags": name}))
        stored(s, tagged == [item["id"]], f"List items tags={name} lists {tagged}, not [{item['id']}]")
        stored(
            s,
            searched(s, item["id"], ("item",), tags=name),
            f"search tags={name} does not find item {item['id']} (within --settle)",
        )


# -- lists


TAGS = "/v1/tags"


def _item(s: Session, user: User, cid: int) -> int:
    """A text item `user` makes in collection `cid` (it goes when the collection is deleted)."""
    body = {"type": "text", "name": s.target.name(f"i{next(SERIAL)}"), "content": "tagged"}
    exchange = s.call("POST", f"/v1/collections/{cid}/items", ok=(201,), user=user, json_body=body)
    made: dict[str, Any] = s.body(exchange)
    s.expect(isinstance(made.get("id"), int), "the new item has no integer id", exchange)
    item_id: int = made["id"]
    return item_id


@contextmanager
def _strangers(s: Session, owner: User) -> Iterator[int]:
    """A private collection of `owner`, shared with no one; `owner` deletes it afterwards."""
    cid = create_collection(s.ctx, f"c{next(SERIAL)}", "private", owner)
    path = f"/v1/collections/{cid}"
    try:
        yield cid
    finally:
        if s.target.request("DELETE", path, user=owner).status in (200, 204, 404):
            s.target.forget(path)


def _counted(s: Session, name: str) -> Any:
    return http.tag_counts(s, TAGS).get(name.casefold())


@check(
    LAYER,
    "tags.list_tags",
    "List all tags counts the tags of shared collections, never a stranger's",
    users=2,
    paid=True,
    statements=("1/tags", "4.8/list-tags"),
)
def tags_listed_across_shared_collections(ctx: RunContext) -> None:
    users = ctx.settings.users
    first, second = users[0], users[1]
    name = ctx.target.name(f"across{next(SERIAL)}")
    with session(ctx) as s, shared_collection(s, second, first) as theirs:
        if not tag_item(s, _item(s, second, theirs), name, second, first):
            raise CheckSkipped(
                f"neither user {second.id} (the owner) nor user {first.id} (a collaborator) could tag an "
                f"item of collection {theirs}: tags are a paid-plan field"
            )
        mine = s.new_collection()["id"]
        tagged_item(s, mine, name)
        got = settled(s, "tags", lambda: _counted(s, name), lambda n: n == 2)
        s.expect(
            got == 2,
            f"List all tags counts {got} items tagged {name!r} for user {first.id}: one in their collection "
            f"{mine}, one in collection {theirs} that user {second.id} shares with them",
            kind=StaleCount,
        )
        if len(users) < 3:
            return
        third, hidden = users[2], ctx.target.name(f"hidden{next(SERIAL)}")
        with _strangers(s, third) as strange:
            item_id = _item(s, third, strange)
            if not tag_item(s, item_id, hidden, third):
                # the stranger's plan does not allow tags: the first user tags it while a collaborator
                path = f"/v1/collections/{strange}/users"
                s.call("POST", path, ok=(200, 201), user=third, json_body={"id": first.id})
                tagged = tag_item(s, item_id, hidden, first) and tag_item(s, item_id, name, first)
                s.call("DELETE", f"{path}/{first.id}", user=third)
                if not tagged:
                    raise CheckSkipped(f"no one could tag an item of user {third.id}'s collection {strange}")
            else:
                tag_item(s, item_id, name, third)
            listed = settled(
                s,
                "tags",
                lambda: http.tag_counts(s, TAGS),
                lambda tags: hidden.casefold() not in tags and tags.get(name.casefold()) == 2,
            )
            s.expect(
                hidden.casefold() not in listed,
                f"List all tags of user {first.id} lists {hidden!r}, a tag of an item in user {third.id}'s "
                f"collection {strange}, which is not shared with them",
                kind=AccessLeak,
            )
            s.expect(
                listed.get(name.casefold()) == 2,
                f"List all tags of user {first.id} counts {listed.get(name.casefold())} items tagged "
                f"{name!r}: 2 are in collections they share, a third in user {third.id}'s collection "
                f"{strange}, which is not shared with them",
                kind=AccessLeak,
            )


# -- deletion: where a deleted thing must disappear


@check(
    LAYER,
    "tags.delete_tag",
    "a deleted tag is gone from its item, the tag lists, the tags filter and search",
    statements=("4.8/delete-tag",),
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
            counted = settled(s, "tags", partial(http.tag_counts, s, path), lambda got: got.get(key, 0) == 0)
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


# -- counters and feeds: the events that move them


@check(
    LAYER,
    "tags.list_tags",
    "tag counts follow tagging and deletions",
    statements=("1/tags", "2.5/tag-counts", "4.1/list-collection-tags", "4.8/list-tags"),
)
def tag_counts(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        name = ctx.target.name("counted")
        first, _ = s.new_item(cid, ok=(201, 402), tags=[name])
        if first.status == 402:
            raise unpaid("tags")
        second = s.add_item(cid, tags=[name])

        def counted(path: str, want: int) -> Any:
            # tag lists are views derived from writes: read until they show it (or --settle passed)
            return http.settled(
                s, "tags", lambda: http.tag_counts(s, path).get(name.casefold(), 0), lambda got: got == want
            )

        for path in ("/v1/tags", f"/v1/collections/{cid}/tags"):
            got = counted(path, 2)
            s.expect(got == 2, f"GET {path} counts {got} items tagged {name!r}, 2 are", kind=StaleCount)
        s.call("DELETE", f"/v1/items/{second['id']}")
        s.gone(f"/v1/items/{second['id']}")
        got = counted("/v1/tags", 1)
        s.expect(
            got == 1,
            f"List all tags counts {got} items tagged {name!r} after one of the two was deleted",
            kind=StaleCount,
        )
        tags = s.body(s.call("GET", f"/v1/items/{first.json()['id']}/tags"), list)
        tag_id = next((t.get("id") for t in tags if isinstance(t, dict)), None)
        s.expect(isinstance(tag_id, int), f"List item tags shows {tags}", kind=NotStored)
        s.call("DELETE", f"/v1/tags/{tag_id}")
        s.expect(
            counted("/v1/tags", 0) == 0,
            f"List all tags still counts {name!r} after its last tag was deleted",
            kind=NotGone,
        )


# -- wording: fixed codes and messages


@check(
    LAYER,
    "tags.delete_tag",
    "Delete a tag says code deleted",
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.8/delete-tag",
    ),
)
def delete_tag_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        made = s.call(
            "POST", f"/v1/items/{item['id']}/tags", ok=(201, 402), json_body={"name": ctx.target.name("t")}
        )
        if made.status == 402:
            raise unpaid("tags")
        path = f"/v1/tags/{s.body(made).get('id')}"
        s.register("tag", path)
        deletes(s, path, "Delete a tag")
