"""Helpers the behaviour checks of several resources share (a helper one resource uses lives in its
module: behaviour/<resource>.py or behaviour/<resource>/common.py); HTTP itself is conformance/http.py."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .. import http
from ..failures import (
    CheckFailed,
    CheckSkipped,
    NotGone,
    NotHonoured,
    NotStored,
    StaleCount,
    WrongStatus,
    WrongWording,
)
from ..http import SERIAL, Session, create_collection, metadata, settled, tag_names, total_count, unique
from ..registry import RunContext
from ..settings import User
from ..target import Exchange

# -- what the checks make to work in: shared collections, tagged items, the run's team, unused names, places


@contextmanager
def shared_collection(s: Session, owner: User, guest: User) -> Iterator[int]:
    """A private collection `owner` makes and shares with `guest` (Add a collaborator); `owner`
    deletes it afterwards (it is registered for the run's cleanup until then)."""
    target = s.target
    cid = create_collection(s.ctx, f"c{next(SERIAL)}", "private", owner)
    path = f"/v1/collections/{cid}"
    try:
        added = target.request("POST", f"{path}/users", user=owner, json_body={"id": guest.id})
        s.last = added
        s.expect(
            added.status in (200, 201),
            f"user {owner.id} adding user {guest.id} as a collaborator of collection {cid} answered "
            f"{added.status}",
            added,
        )
        yield cid
    finally:
        if target.request("DELETE", path, user=owner).status in (200, 204, 404):
            target.forget(path)


def new_tagged_item(s: Session, cid: int, **fields: Any) -> dict[str, Any]:
    """An item with tags if the plan allows (else without) and metadata."""
    exchange, _ = s.new_item(cid, ok=(201, 402), tags=[s.target.name("mv")], metadata={"k": "v"}, **fields)
    if exchange.status == 402:
        exchange, _ = s.new_item(cid, metadata={"k": "v"}, **fields)
    data: dict[str, Any] = s.body(exchange)
    return data


@contextmanager
def shared_by(s: Session, other: User) -> Iterator[int]:
    """A collection the other user makes and shares with the main actor; deleted afterwards."""
    target = s.target
    cid = create_collection(s.ctx, f"c{next(SERIAL)}", "private", other)
    path = f"/v1/collections/{cid}"
    try:
        added = target.request("POST", f"{path}/users", user=other, json_body={"id": s.me.id})
        s.expect(
            added.status == 201, f"sharing a collection with user {s.me.id} answered {added.status}", added
        )
        yield cid
    finally:
        if target.request("DELETE", path, user=other).status in (200, 204, 404):
            target.forget(path)


LISBON, LONDON = (38.7139, -9.1394), (51.5072, -0.1276)  # 1,585 km apart


def unused_address(s: Session) -> str:
    return f"{s.target.name(f'e{next(SERIAL)}')}@example.com"


ITEM = "item"
# What every fixed-wording check states of the `{code, message}` answer (spec 2.13).
MESSAGE = ("2.13/message.returned-by", "2.13/message.fields", "2.13/message.codes")


def tag_item(s: Session, item_id: int, name: str, *users: User) -> bool:
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
    if not tag_item(s, item_id, tag, s.me):
        raise CheckSkipped(
            f"Create a tag on item {item_id} was refused to user {s.me.id}, or the tag did not show on "
            "the item (tags are a paid-plan field): the check needs the first --user on a paid plan"
        )
    return item_id


def username_for(s: Session, label: str) -> str:
    """A username the document's pattern takes, recognisable as the run's."""
    text = re.sub(r"[^A-Za-z0-9_-]", "-", s.target.name(label)).strip("-_")
    return text[-40:].lstrip("-_") or f"u{unique(s)}"


def managed_team(ctx: RunContext) -> tuple[int, dict[str, Any]]:
    """--team-id, which the first user manages: its id and its detail as read by that user."""
    team_id = ctx.settings.team_id
    if team_id is None:
        raise CheckSkipped("needs --team-id: a team that the first --user manages")
    exchange = ctx.target.request("GET", f"/v1/teams/{team_id}")
    data = exchange.json()
    if exchange.status != 200 or not isinstance(data, dict) or data.get("user_kind") != "manager":
        kind = data.get("user_kind") if isinstance(data, dict) else None
        raise CheckSkipped(
            f"the first --user is not a manager of team {team_id} (HTTP {exchange.status}, user_kind "
            f"{kind!r}): the team write checks need one"
        )
    return team_id, data


def members(s: Session, team_id: int, user: User | None = None) -> dict[Any, Any]:
    """List team members (as `user`, default the first): member id -> kind."""
    exchange = s.call("GET", f"/v1/teams/{team_id}/users", user=user)
    return {e.get("id"): e.get("kind") for e in s.body(exchange, list) if isinstance(e, dict)}


def named_item(s: Session, cid: int, word: str, **fields: Any) -> dict[str, Any]:
    """An item whose name holds `word` (search, q)."""
    return s.add_item(cid, name=f"{s.target.name('gone')} {word}", **fields)


# -- expectations that fail with a typed failure (failures.py)


def moved_keeping(s: Session, item_id: int, dest: int, before: dict[str, Any], what: str) -> None:
    got = s.item(item_id)
    s.expect(
        got.get("collection_id") == dest,
        f"{what}: item {item_id} has collection_id {got.get('collection_id')}",
        kind=NotStored,
    )
    for name, read in (("tags", tag_names), ("metadata", metadata)):
        s.expect(
            read(got.get(name)) == read(before.get(name)),
            f"{what}: item {item_id} has {name} {got.get(name)}, before the move {before.get(name)}",
            kind=NotStored,
        )


def honoured(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """Fail as NotHonoured (with the last exchange) unless the parameter's effect shows."""
    s.expect(cond, message, exchange, kind=NotHonoured)


def refused_4xx(s: Session, exchange: Exchange, what: str) -> None:
    s.expect(
        400 <= exchange.status < 500,
        f"{what} answered {exchange.status}; a request without the required field is refused (a 4xx)",
        exchange,
        kind=WrongStatus,
    )


def says(s: Session, exchange: Exchange, status: int, code: str, what: str) -> None:
    """The answer is `status` with the message object of `code`."""
    body = exchange.json()
    got = body.get("code") if isinstance(body, dict) else None
    s.expect(
        exchange.status == status and got == code and isinstance(body.get("message"), str),
        f"{what} answered {exchange.status} with code {got!r}, expected {status}, code {code!r}, a message",
        exchange,
        kind=WrongWording,
    )


def deletes(s: Session, path: str, what: str) -> None:
    """DELETE something the check made: 200 {code: deleted}."""
    exchange = s.call("DELETE", path, ok=())
    if 200 <= exchange.status < 300:
        s.gone(path)
    says(s, exchange, 200, "deleted", what)


def makes_and_deletes(s: Session, post: str, body: Any, kind: str, what: str) -> None:
    """POST a comment, reaction or email address (201), then DELETE it: 200 {code: deleted}."""
    made = s.body(s.call("POST", post, ok=(201,), json_body=body))
    path = f"/v1/{kind}s/{made.get('id')}"
    s.register(kind, path)
    deletes(s, path, what)


def stored(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A write that a later, different read does not show."""
    s.expect(cond, message, exchange, kind=NotStored)


def vanished(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A deleted thing still served somewhere."""
    s.expect(cond, message, exchange, kind=NotGone)


def counted(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A count, total or feed that did not follow what the run did."""
    s.expect(cond, message, exchange, kind=StaleCount)


def mismatch(sent: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """Fields of `sent` that `got` shows otherwise; a thumbnail only has to be set (servers may
    store the image elsewhere and answer their own URL)."""
    wrong = {}
    for name, value in sent.items():
        have = got.get(name)
        if name == "thumbnail":
            if not (isinstance(have, str) and have):
                wrong[name] = have
        elif have != value:
            wrong[name] = have
    return wrong


def expect_shows(s: Session, sent: dict[str, Any], got: dict[str, Any] | None, what: str) -> None:
    stored(s, got is not None, f"{what} does not show it")
    assert got is not None
    wrong = mismatch(sent, got)
    stored(s, not wrong, f"{what} shows {wrong}; the suite sent { ({k: sent[k] for k in wrong}) }")


def write_paid(
    s: Session, method: str, path: str, body: dict[str, Any], paid: tuple[str, ...], ok: int
) -> tuple[Exchange, dict[str, Any], list[str]]:
    """Send `body`; on a 402 send it again without the paid-only fields. The answer, what was
    stored as sent, and the paid fields left out."""
    exchange = s.call(method, path, ok=(ok, 402), json_body=body)
    if exchange.status != 402:
        return exchange, body, []
    left = [k for k in body if k in paid]
    body = {k: v for k, v in body.items() if k not in paid}
    return s.call(method, path, ok=(ok,), json_body=body), body, left


# -- timestamps


TICK = 1.1  # seconds: a server with whole-second timestamps shows an update made this much later


@dataclass(frozen=True)
class Aged:
    """Things made once per run, at least TICK seconds before the checks that write to them and
    judge a timestamp's move (updated_at, last_accessed_at) use them: one wait serves them all
    instead of one per check. `first` holds each thing as read just after it was all made."""

    collection: int  # its update moves updated_at
    accessed: int  # a collection whose GET with log_access moves last_accessed_at
    item: int
    comment: int  # on the item
    first: dict[str, dict[str, Any]]  # "collection", "accessed", "item", "comment" -> first reading


def aged(s: Session) -> Aged:
    """The run's aged things, made on the first call (registered for the run's cleanup); returns
    once they are TICK seconds old."""
    ctx = s.ctx
    if "aged" not in ctx.memo:
        collection = create_collection(ctx, "aged", "private")
        accessed = create_collection(ctx, "accessed", "private")
        item_body = {"type": "text", "name": ctx.target.name("aged"), "content": "note"}
        item = http.create_thing(
            ctx, "item", f"/v1/collections/{collection}/items", item_body, "/v1/items/{id}"
        )
        comment = http.create_thing(
            ctx, "comment", f"/v1/items/{item}/comments", {"body": "first words"}, "/v1/comments/{id}"
        )
        listed = s.body(s.call("GET", f"/v1/items/{item}/comments"), list)
        first = {
            "collection": s.collection(collection),
            "accessed": s.collection(accessed),
            "item": s.item(item),
            "comment": next((c for c in listed if isinstance(c, dict) and c.get("id") == comment), {}),
        }
        ctx.memo["aged"] = (Aged(collection, accessed, item, comment, first), time.monotonic())
    found, made = ctx.memo["aged"]
    wait = TICK - (time.monotonic() - made)
    if wait > 0:
        time.sleep(wait)
    result: Aged = found
    return result


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


def judge_times(
    s: Session,
    what: str,
    before: dict[str, Any],
    update: Callable[[], dict[str, Any]],
    read: Callable[[], Any],
) -> None:
    """`before` is a read of the resource made more than TICK seconds before `update` (`aged`), which
    answers the updated resource; `read` reads it again afterwards."""
    created, updated = _times(f"{what} before the update", before)
    s.expect(
        updated >= created,
        f"{what} has updated_at {before.get('updated_at')}, earlier than its created_at "
        f"{before.get('created_at')}",
    )
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


# -- paging


def pages_as_per_page(s: Session, path: str, params: dict[str, Any], made: int) -> None:
    """`made` entries (at least 3) are known to match: count=2 gives 2, count with per_page=3 gives 3."""
    for extra, want in (({"count": 2}, 2), ({"count": 2, "per_page": 3}, 3)):
        exchange = s.call("GET", path, params={**params, **extra})
        got = len(s.body(exchange, list))
        query = "&".join(f"{k}={v}" for k, v in {**params, **extra}.items())
        honoured(
            s, got == want, f"GET {path}?{query} lists {got} entries of at least {made}, expected {want}"
        )


# -- the activity feed


def activity(s: Session, per_page: int = 30) -> tuple[list[dict[str, Any]], int | None]:
    """The first page of the activity feed (the latest) and its X-Total-Count."""
    exchange = s.call("GET", "/v1/activity", params={"page": 1, "per_page": per_page})
    entries = [e for e in s.body(exchange, list) if isinstance(e, dict)]
    return entries, total_count(exchange)


def in_feed(entries: list[dict[str, Any]], kind: str, thing_id: Any, name: str | None) -> bool:
    """Whether the feed shows that thing: by its type and id, or by its (unique) name."""
    return any(
        (e.get("type") == kind and e.get("id") == thing_id) or (name is not None and e.get("name") == name)
        for e in entries
    )


def feed_without(s: Session, things: list[tuple[str, Any, str | None]]) -> list[dict[str, Any]]:
    """The latest activity once it shows none of the things (kind, id, name), or after --settle
    seconds: the feed is a view derived from writes, which may lag."""
    return settled(
        s, "activity", lambda: activity(s)[0], lambda feed: not any(in_feed(feed, *thing) for thing in things)
    )


# -- rule texts several resources' checks name
