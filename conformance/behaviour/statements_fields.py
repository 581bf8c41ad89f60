"""Statements of spec 2 about field values that no schema says (conformance/statements/): timestamps
in UTC, an item's link when it has none, a new collection's view_mode, a collection's owner data.

Each judges only what the spec states: any ISO 8601 form of a UTC instant, the owner's fields as
the owner's own Get current user shows them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from ..failures import CheckSkipped, NotStored, SchemaViolation
from ..http import LAYER, Session, me, new_comment, session
from ..registry import RunContext, check
from .parameters_collections import shared_by

R_UTC = "spec 2: timestamps are ISO 8601 UTC strings"
R_LINK = "spec 2.2 Item: link, original source URL; empty string when none"
R_VIEW_MODE = "spec 2.1, 4.1: a collection's view_mode is tile (default), shelf, flow or list"
R_OWNER = (
    "spec 2.1 Collection: user_id is the owner's user id; user_name, username, user_email the owner's data"
)


def _offset(value: str) -> float | None:
    """The UTC offset of an ISO 8601 timestamp in hours: 0 for Z, +00:00 and a form without offset
    (read as UTC); None when it is not read as ISO 8601 (the contract layer judges the form)."""
    text = value.strip()
    if text[-1:] in ("z", "Z"):
        text = text[:-1] + "+00:00"
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    offset = stamp.utcoffset()
    return 0.0 if offset is None else offset.total_seconds() / 3600


def _stamps(what: str, data: Any) -> list[tuple[str, str]]:
    """("<what> <field>", value) of every *_at string of a resource."""
    if not isinstance(data, dict):
        return []
    return [(f"{what} {k}", v) for k, v in data.items() if k.endswith("_at") and isinstance(v, str)]


@check(LAYER, "items.create_item", "timestamps are in UTC (collection, item, comment, like, team)", R_UTC)
def timestamps_are_utc(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        item = s.add_item(cid)
        path = f"/v1/items/{item['id']}"
        note = new_comment(s, item["id"], {"body": "when"})
        like = s.body(s.call("POST", f"{path}/reactions", ok=(201,)))
        s.register("reaction", f"/v1/reactions/{like.get('id')}")
        comments = s.body(s.call("GET", f"{path}/comments"), list)
        likes = s.body(s.call("GET", f"{path}/reactions"), list)
        teams = s.body(s.call("GET", "/v1/teams"), list)
        stamps = [
            *_stamps(f"collection {cid}", s.collection(cid)),
            *_stamps(f"item {item['id']}", s.item(item["id"])),
            *_stamps(f"comment {note['id']}", next((c for c in comments if c.get("id") == note["id"]), None)),
            *_stamps(
                f"like {like.get('id')}", next((r for r in likes if r.get("id") == like.get("id")), None)
            ),
            *[stamp for team in teams for stamp in _stamps(f"team {team.get('id')}", team)],
        ]
        offsets = {name: _offset(value) for name, value in stamps}
        wrong = [f"{name} {value!r}" for name, value in stamps if offsets[name] not in (0.0, None)]
        s.expect(not wrong, "timestamps not in UTC: " + "; ".join(wrong), kind=SchemaViolation)
        unread = [f"{name} {value!r}" for name, value in stamps if offsets[name] is None]
        if unread or not stamps:
            raise CheckSkipped(
                "timestamps not read as ISO 8601 (the contract layer judges their form): "
                + ("; ".join(unread) or "none found")
            )


@check(LAYER, "items.create_item", 'an item made without a link has link ""', R_LINK)
def item_link_empty_when_none(ctx: RunContext) -> None:
    with session(ctx) as s:
        exchange, sent = s.new_item(s.new_collection()["id"], type="text", content="no source")
        made = s.body(exchange)
        s.expect(
            made.get("link") == "",
            f'Create an item of a text item sent without link answered link {made.get("link")!r}, not ""',
            exchange,
            kind=SchemaViolation,
        )
        got = s.item(made["id"]).get("link")
        s.expect(
            got == "",
            f'a GET of a text item made without link shows link {got!r}, not "" (sent {sent})',
            kind=SchemaViolation,
        )


@check(
    LAYER,
    "collections.create_collection",
    "a collection made without view_mode has view_mode tile",
    R_VIEW_MODE,
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
    R_OWNER,
    users=2,
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
