"""List all tags across collections (spec 1: "Tags are attached to items and can be listed across
collections"; spec 4.8 List all tags): a tag on an item of a collection shared with the first user
is in their list, counted with the items of their own collections that carry it; a tag of a
stranger's collection, not shared with them, is not.

Tags are a paid field on items (spec 4.2); Create a tag (spec 4.8) is how a tag is put on an item
here: by the collection's owner when their plan allows, else by the first user (a collaborator of
the shared collection; of the stranger's one only while tagging). The list is a derived view: it
is read until it shows what the check did (`settled`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .. import http
from ..failures import AccessLeak, CheckSkipped, StaleCount
from ..http import LAYER, SERIAL, Session, create_collection, session, settled
from ..registry import RunContext, check
from ..settings import User
from .contacts import shared_collection

R_ACROSS = (
    'spec 1: "Tags are attached to items and can be listed across collections"; spec 4.8 List all tags '
    "(items_total_count, name); spec 1: a collection's items are for its owner and collaborators"
)
TAGS = "/v1/tags"


def _item(s: Session, user: User, cid: int) -> int:
    """A text item `user` makes in collection `cid` (it goes when the collection is deleted)."""
    body = {"type": "text", "name": s.target.name(f"i{next(SERIAL)}"), "content": "tagged"}
    exchange = s.call("POST", f"/v1/collections/{cid}/items", ok=(201,), user=user, json_body=body)
    made: dict[str, Any] = s.body(exchange)
    s.expect(isinstance(made.get("id"), int), "the new item has no integer id", exchange)
    item_id: int = made["id"]
    return item_id


def _tag(s: Session, item_id: int, name: str, *users: User) -> bool:
    """Create a tag on the item as the first of `users` whose plan allows it (the item's tags show
    it: a server may take a free account's tag and drop it); False if none could."""
    for user in users:
        exchange = s.call("POST", f"/v1/items/{item_id}/tags", ok=(), user=user, json_body={"name": name})
        if exchange.status in (200, 201):
            shown = s.call("GET", f"/v1/items/{item_id}/tags", user=user, ok=())
            if name.casefold() in (http.tag_names(shown.json()) or set()):
                return True
    return False


def tagged_item(s: Session, cid: int, tag: str, **fields: Any) -> int:
    """An item of the first user, tagged with Create a tag (spec 4.8); skipped when the first user may
    not tag (the tags field is paid, spec 4.2, and a server may hold Create a tag to it too)."""
    item_id: int = s.add_item(cid, **fields)["id"]
    if not _tag(s, item_id, tag, s.me):
        raise CheckSkipped(
            f"Create a tag on item {item_id} was refused to user {s.me.id}, or the tag did not show on "
            "the item (tags are a paid-plan field): the check needs the first --user on a paid plan"
        )
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
    R_ACROSS,
    users=2,
    paid=True,
)
def tags_listed_across_shared_collections(ctx: RunContext) -> None:
    users = ctx.settings.users
    first, second = users[0], users[1]
    name = ctx.target.name(f"across{next(SERIAL)}")
    with session(ctx) as s, shared_collection(s, second, first) as theirs:
        if not _tag(s, _item(s, second, theirs), name, second, first):
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
            if not _tag(s, item_id, hidden, third):
                # the stranger's plan does not allow tags: the first user tags it while a collaborator
                path = f"/v1/collections/{strange}/users"
                s.call("POST", path, ok=(200, 201), user=third, json_body={"id": first.id})
                tagged = _tag(s, item_id, hidden, first) and _tag(s, item_id, name, first)
                s.call("DELETE", f"{path}/{first.id}", user=third)
                if not tagged:
                    raise CheckSkipped(f"no one could tag an item of user {third.id}'s collection {strange}")
            else:
                _tag(s, item_id, name, third)
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
