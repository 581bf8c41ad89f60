"""Timestamps on update (spec 2): an update leaves created_at as it was and sets updated_at to the
time of the update, for collections, items and comments.

Timestamps are read as ISO 8601 instants in any UTC form (`Z`, `+00:00`, fractional seconds or
none: the spec fixes no form) and compared as instants. A server may keep whole seconds, so an
updated_at is never required to differ from one read in the same second: each check waits just
over a second between the read before the update and the update, once, so that an updated_at
that did not move at all shows.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from ..failures import CheckFailed, CheckSkipped, NotStored
from ..http import LAYER, Session, entry, new_comment, session
from ..registry import RunContext, check

R_TIMES = (
    "spec 2: created_at and updated_at are Timestamps (ISO 8601 UTC): an update leaves created_at as "
    "it was and sets updated_at to the time of the update"
)
TICK = 1.1  # seconds: a server with whole-second timestamps shows an update made this much later


def instant(value: Any) -> datetime | None:
    """An ISO 8601 timestamp as an aware UTC datetime (a form without offset taken as UTC)."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    if text.endswith(("z", "Z")):
        text = text[:-1] + "+00:00"
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


def _times(what: str, data: dict[str, Any]) -> tuple[datetime, datetime]:
    """created_at and updated_at of a resource; a skip when they cannot be read (the contract
    layer judges their form)."""
    created, updated = instant(data.get("created_at")), instant(data.get("updated_at"))
    if created is None or updated is None:
        raise CheckSkipped(
            f"{what} has created_at {data.get('created_at')!r}, updated_at {data.get('updated_at')!r}: "
            "not read as ISO 8601 timestamps"
        )
    return created, updated


def _judge(
    s: Session,
    what: str,
    before: dict[str, Any],
    update: Callable[[], dict[str, Any]],
    read: Callable[[], Any],
) -> None:
    """`before` is a read of the resource made before `update` (which answers the updated resource,
    made more than a second later); `read` reads it again afterwards."""
    created, updated = _times(f"{what} before the update", before)
    s.expect(
        updated >= created,
        f"{what} has updated_at {before.get('updated_at')}, earlier than its created_at "
        f"{before.get('created_at')}",
    )
    time.sleep(TICK)
    readings: tuple[tuple[str, Callable[[], Any], type[CheckFailed]], ...] = (
        ("the update's answer", update, CheckFailed),
        ("a read after the update", read, NotStored),
    )
    for label, reading, kind in readings:
        data = reading()
        now_created, now_updated = _times(f"{what} ({label})", data)
        s.expect(
            now_created == created,
            f"{what}: {label} shows created_at {data.get('created_at')}, it was {before.get('created_at')} "
            "before the update (an update leaves created_at as it was)",
            kind=kind,
        )
        s.expect(
            now_updated >= now_created,
            f"{what}: {label} shows updated_at {data.get('updated_at')}, earlier than its created_at "
            f"{data.get('created_at')}",
            kind=kind,
        )
        s.expect(
            now_updated > updated,
            f"{what}: {label} shows updated_at {data.get('updated_at')}; before an update made "
            f"{TICK} s later it was {before.get('updated_at')} (updated_at is the time of the update)",
            kind=kind,
        )


@check(
    LAYER,
    "collections.update_collection",
    "an update keeps created_at and moves updated_at",
    f"{R_TIMES}; spec 2.1 Collection, 4.1 Update a collection",
)
def collection_timestamps_on_update(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}"

        def update() -> dict[str, Any]:
            sent = {"description": f"updated by {ctx.target.name('times')}"}
            data: dict[str, Any] = s.body(s.call("PUT", path, json_body=sent))
            return data

        _judge(s, f"collection {cid}", s.collection(cid), update, lambda: s.collection(cid))


@check(
    LAYER,
    "items.update_item",
    "an update keeps created_at and moves updated_at",
    f"{R_TIMES}; spec 2.2 Item, 4.2 Update an item",
)
def item_timestamps_on_update(ctx: RunContext) -> None:
    with session(ctx) as s:
        item_id = s.add_item(s.new_collection()["id"])["id"]

        def update() -> dict[str, Any]:
            sent = {"name": ctx.target.name("renamed"), "description": "updated"}
            data: dict[str, Any] = s.body(s.call("PUT", f"/v1/items/{item_id}", json_body=sent))
            return data

        _judge(s, f"item {item_id}", s.item(item_id), update, lambda: s.item(item_id))


@check(
    LAYER,
    "comments.update_comment",
    "an update keeps created_at and moves updated_at",
    f"{R_TIMES}; spec 2.3 Comment, 4.5 Update a comment",
)
def comment_timestamps_on_update(ctx: RunContext) -> None:
    with session(ctx) as s:
        item_id = s.add_item(s.new_collection()["id"])["id"]
        comment_id = new_comment(s, item_id, {"body": "first words"})["id"]

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

        _judge(s, f"comment {comment_id}", listed(), update, listed)
