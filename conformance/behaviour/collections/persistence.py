"""Behaviour checks of the collections operations (operationIds collections.*): persistence: what a
write stores, as a later, different read shows it."""

from __future__ import annotations

from typing import Any

from ...failures import NotStored
from ...http import LAYER, Session, entry, me, session, unique, unpaid
from ...registry import RunContext, check
from ..common import aged, expect_shows, judge_times, shared_by, write_paid

# The fields of Create and Update a collection (spec 4.1), every one of which must persist.
COLLECTION_BODY = tuple(
    f"4.1/collection-body.{field}"
    for field in (
        "name",
        "type",
        "archived",
        "description",
        "highlighted",
        "labels",
        "sort_by",
        "sort_order",
        "thumbnail",
        "user_id",
        "view_mode",
    )
)


@check(
    LAYER,
    "collections.get_collection",
    "Get a collection is an array of one",
    statements=("4.1/get-collection",),
)
def collection_array_of_one(ctx: RunContext) -> None:
    with session(ctx) as s:
        s.collection(s.new_collection()["id"])


@check(
    LAYER,
    "collections.create_collection",
    "a collection made without view_mode has view_mode tile",
    statements=("2.1/collection.view_mode", "4.1/collection-body.view_mode"),
)
def collection_view_mode_default(ctx: RunContext) -> None:
    with session(ctx) as s:
        made = s.new_collection()  # name and type only
        got = s.collection(made["id"]).get("view_mode")
        s.expect(
            got == "tile",
            f"a collection made without view_mode has view_mode {got!r}, the default is tile",
            kind=NotStored,
        )


def _owner_data(s: Session, got: dict[str, Any], owner: dict[str, Any], what: str) -> None:
    want = {
        "user_id": owner.get("id"),
        "user_name": owner.get("name"),
        "username": owner.get("username"),
        "user_email": owner.get("email"),
    }
    wrong = {k: got.get(k) for k, v in want.items() if got.get(k) != v}
    s.expect(not wrong, f"{what} shows {wrong}; its owner's are {want}", kind=NotStored)


@check(
    LAYER,
    "collections.get_collection",
    "a collection's user_id, user_name, username and user_email are its owner's",
    users=2,
    statements=(
        "1/collection-owner-items-collaborators",
        "2.1/collection.user_id",
        "2.1/collection.user_name",
    ),
)
def collection_owner_fields(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s, shared_by(s, other) as theirs:
        owner = me(s, other)
        _owner_data(
            s, s.collection(theirs), owner, f"collection {theirs} of user {other.id}, read by user {s.me.id}"
        )
        mine = s.new_collection()["id"]
        _owner_data(s, s.collection(mine), me(s), f"collection {mine} of user {s.me.id}, read by its owner")


@check(
    LAYER,
    "collections.update_collection",
    "an update keeps created_at and moves updated_at",
    statements=("2.1/collection.last_accessed_at",),
)
def collection_timestamps_on_update(ctx: RunContext) -> None:
    with session(ctx) as s:
        things = aged(s)
        cid = things.collection
        path = f"/v1/collections/{cid}"

        def update() -> dict[str, Any]:
            sent = {"description": f"updated by {ctx.target.name('times')}"}
            data: dict[str, Any] = s.body(s.call("PUT", path, json_body=sent))
            return data

        judge_times(s, f"collection {cid}", things.first["collection"], update, lambda: s.collection(cid))


PAID_COLLECTION = ("archived", "highlighted", "labels", "sort_by", "sort_order", "view_mode")


def _collection_fields(s: Session, word: str, flip: bool) -> dict[str, Any]:
    """Every field of the collection body but users and name/type, with values that differ from a
    new collection's defaults (and, with `flip`, from the first set)."""
    return {
        "description": f"described {word}",
        "thumbnail": f"https://example.com/{word}{int(flip)}.png",
        "user_id": s.me.id,  # the owner: the caller itself, nothing else changes hands
        "labels": flip,
        "view_mode": "list" if flip else "shelf",
        "sort_by": "size" if flip else "name",
        "sort_order": "asc" if flip else "desc",
        "highlighted": not flip,
        "archived": flip,
    }


def _listed(s: Session, cid: int, word: str, sent: dict[str, Any]) -> dict[str, Any] | None:
    """The collection's entry in List collections (found by the word of its name, under the status
    its flags put it)."""
    status = "archived" if sent.get("archived") else "highlighted" if sent.get("highlighted") else None
    params = {"q": word, **({"status": status} if status else {})}
    return entry(s.listing("/v1/collections", params), cid)


def _answered(s: Session, sent: dict[str, Any], data: dict[str, Any], what: str) -> None:
    """The write's own answer (a Collection) shows the name, type and description sent."""
    shown = {k: v for k, v in sent.items() if k in ("name", "type", "description")}
    wrong = {k: data.get(k) for k, v in shown.items() if data.get(k) != v}
    s.expect(not wrong, f"{what} answered {wrong}, sent {shown}")


@check(
    LAYER,
    "collections.create_collection",
    "every field of a created collection reads back (its answer, GET and its list entry)",
    statements=(
        "1/collection-owner-items-collaborators",
        "1/paid",
        "2.1/collection.user_id",
        "2.1/collection.thumbnail",
        *COLLECTION_BODY,
        "8/paid",
    ),
)
def collection_create_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        word = unique(s)
        body = {
            "name": f"{ctx.target.name('made')} {word}",
            "type": "public",
            **_collection_fields(s, word, False),
        }
        exchange, body, left = write_paid(s, "POST", "/v1/collections", body, PAID_COLLECTION, 201)
        data = s.body(exchange)
        s.expect(isinstance(data.get("id"), int), "the new collection has no integer id", exchange)
        cid = data["id"]
        ctx.target.created("collection", f"/v1/collections/{cid}", s.me)
        s.collections.append(cid)
        _answered(s, body, data, "Create a collection")
        expect_shows(s, body, s.collection(cid), f"a GET of the new collection {cid}")
        expect_shows(s, body, _listed(s, cid, word, body), f"the List collections entry of collection {cid}")
        if left:
            raise unpaid(*left, partly=True)


@check(
    LAYER,
    "collections.update_collection",
    "every field of an update persists (its answer, GET and its list entry), and an update of a few",
    statements=(
        "1/paid",
        "2.1/collection.type",
        "2.1/collection.sort_by",
        "2.1/collection.sort_order",
        "2.1/collection.view_mode",
        "2.1/collection.labels",
        "2.1/collection.highlighted",
        "2.1/collection.archived",
        "3/collection-type",
        "3/collection-flags",
        "3/archive",
        "3/unarchive",
        "3/highlight",
        "3/type",
        *COLLECTION_BODY,
        "8/paid",
    ),
)
def collection_update_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        word = unique(s)
        cid = s.new_collection(name=f"{ctx.target.name('before')} {word}")["id"]
        left: list[str] = []
        for flip in (False, True):  # each flag both ways: a server that ignores one value is caught
            body = {
                "name": f"{ctx.target.name('after' if flip else 'between')} {word}",
                "type": "global" if flip else "public",
                **_collection_fields(s, word, flip),
            }
            exchange, body, left = write_paid(s, "PUT", f"/v1/collections/{cid}", body, PAID_COLLECTION, 200)
            what = f"after Update a collection {cid} ({'second' if flip else 'first'} update)"
            _answered(s, body, s.body(exchange), f"Update a collection {cid}")
            expect_shows(s, body, s.collection(cid), f"{what}, a GET")
            expect_shows(s, body, _listed(s, cid, word, body), f"{what}, its List collections entry")
        # all fields optional on update: an update of three of them
        sent = {"name": ctx.target.name("renamed"), "description": "changed", "type": "public"}
        _answered(
            s, sent, s.body(s.call("PUT", f"/v1/collections/{cid}", json_body=sent)), "Update a collection"
        )
        got = s.collection(cid)
        wrong = {k: got.get(k) for k, v in sent.items() if got.get(k) != v}
        s.expect(not wrong, f"a GET after Update a collection shows {wrong}, sent {sent}", kind=NotStored)
        if left:
            raise unpaid(*left, partly=True)
