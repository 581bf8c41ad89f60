"""Behaviour checks of the activity operations (operationIds activity.*), grouped by rule family."""

from __future__ import annotations

from typing import Any

from ..failures import CheckSkipped, StaleCount
from ..http import LAYER, Session, create_thing, new_comment, session, settled, total_count, unique
from ..registry import RunContext, check
from ..settings import User
from .common import (
    activity,
    counted,
    honoured,
    in_feed,
    managed_team,
    members,
    pages_as_per_page,
    shared_by,
)

# -- parameters: query parameters, paging and filters, and their effect on the answer


@check(
    LAYER,
    "activity.list_activity",
    "count pages as per_page",
    strict=True,
    statements=("4.10/activity.query", "design/request-encoding.count"),
)
def activity_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(3):
            s.add_item(cid)
        pages_as_per_page(s, "/v1/activity", {}, 4)


def _feed_keys(s: Session, params: dict[str, Any]) -> tuple[list[tuple[Any, Any]], int | None]:
    exchange = s.call("GET", "/v1/activity", params=params)
    entries = s.body(exchange, list)
    return [
        (e.get("type"), e.get("id")) if isinstance(e, dict) else (None, None) for e in entries
    ], total_count(exchange)


@check(
    LAYER,
    "activity.list_activity",
    "page and per_page partition the feed",
    statements=("4/x-total-count", "4.10/activity", "4.10/activity.query", "8/paging"),
)
def activity_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        made = s.new_collection()
        names = {made["name"], *(s.add_item(made["id"])["name"] for _ in range(3))}  # at least these four
        # the feed is a view derived from writes: read until it shows them (within --settle)
        settled(
            s,
            "activity",
            lambda: s.body(s.call("GET", "/v1/activity", params={"page": 1, "per_page": 30}), list),
            lambda feed: names <= {e.get("name") for e in feed if isinstance(e, dict)},
        )
        head, total = _feed_keys(s, {"page": 1, "per_page": 6})
        honoured(s, isinstance(total, int) and total >= 4, f"List activity says X-Total-Count {total}")
        assert total is not None
        honoured(s, len(head) == min(6, total), f"per_page=6 gives {len(head)} entries of {total}")
        got: list[tuple[Any, Any]] = []
        for page in (1, 2, 3):
            chunk, count = _feed_keys(s, {"page": page, "per_page": 2})
            honoured(s, count == total, f"page {page} says X-Total-Count {count}, page 1 said {total}")
            got += chunk
        honoured(s, got == head, f"pages 1-3 of 2 list {got}; the first 6 entries are {head}")


def _feed(s: Session, user: User | None = None) -> list[dict[str, Any]]:
    """The latest 100 entries of the activity feed of `user` (default the first)."""
    exchange = s.call("GET", "/v1/activity", user=user, params={"page": 1, "per_page": 100})
    return [e for e in s.body(exchange, list) if isinstance(e, dict)]


@check(
    LAYER,
    "activity.list_activity",
    "what another user creates in a collection shared with the caller shows in the caller's feed",
    users=2,
    statements=("1/activity",),
)
def activity_of_shared_collections(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s, shared_by(s, other) as cid:
        name = f"{ctx.target.name('shared')} {unique(s)}"
        body = {"type": "text", "name": name, "content": "made by the collection's owner"}
        item = create_thing(ctx, "item", f"/v1/collections/{cid}/items", body, "/v1/items/{id}", other)
        feed = settled(
            s,
            "activity",
            lambda: _feed(s),
            lambda entries: in_feed(entries, "item", item, name),
        )
        s.expect(
            in_feed(feed, "item", item, name),
            f"user {other.id} made item {item} in collection {cid}, shared with user {s.me.id}; the latest "
            f"activity of user {s.me.id} does not show it",
            kind=StaleCount,
        )


@check(
    LAYER,
    "activity.list_activity",
    "a collection made in a team shows in the activity feed of the team's other member",
    users=2,
    statements=("1/activity",),
)
def activity_of_team_collections(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    other = ctx.settings.users[1]
    with session(ctx) as s:
        if other.id not in members(s, team_id):
            raise CheckSkipped(
                f"user 2 is not a member of team {team_id}: --team-id names a team it belongs to"
            )
        name = f"{ctx.target.name('team')} {unique(s)}"
        made = s.call(
            "POST", "/v1/collections", ok=(), json_body={"name": name, "type": "private", "user_id": team_id}
        )
        data = made.json() if made.status == 201 else None
        if not isinstance(data, dict) or not isinstance(data.get("id"), int):
            raise CheckSkipped(f"a collection with user_id {team_id} (the team) answered {made.status}")
        cid = data["id"]
        ctx.target.created("collection", f"/v1/collections/{cid}", s.me)
        s.collections.append(cid)
        owner = s.collection(cid).get("user_id")
        if owner != team_id:
            raise CheckSkipped(f"a collection made with user_id {team_id} (the team) is owned by {owner!r}")
        feed = settled(
            s,
            "activity",
            lambda: _feed(s, other),
            lambda entries: in_feed(entries, "collection", cid, name),
        )
        s.expect(
            in_feed(feed, "collection", cid, name),
            f"collection {cid} made in team {team_id}; the latest activity of user {other.id}, a member of "
            "the team, does not show it",
            kind=StaleCount,
        )


# -- counters and feeds: the events that move them


def _feed_total(s: Session, at_least: int | None = None) -> int:
    """List activity's X-Total-Count; with `at_least`, once it is that much (or --settle seconds
    passed: the feed is a view derived from writes, which may lag)."""
    _, total = settled(
        s,
        "activity",
        lambda: activity(s, per_page=1),
        lambda got: at_least is None or (isinstance(got[1], int) and got[1] >= at_least),
    )
    counted(s, isinstance(total, int), "List activity has no integer X-Total-Count")
    assert total is not None
    return total


@check(
    LAYER,
    "activity.list_activity",
    "what is created shows in the activity feed and its total",
    statements=("1/activity", "2.12/activity-entry", "4/x-total-count", "4.10/activity"),
)
def activity_follows_creation(ctx: RunContext) -> None:
    with session(ctx) as s:
        start = _feed_total(s)
        name = f"{ctx.target.name('feed')} {unique(s)}"
        cid = s.new_collection(name=name)["id"]
        item = s.add_item(cid)
        moved = {"collection": _feed_total(s, start + 2) - start}
        text = f"said {unique(s)}"
        comment = new_comment(s, item["id"], {"body": text})
        moved["comment"] = _feed_total(s, start + moved["collection"] + 1) - start - moved["collection"]
        like = s.body(s.call("POST", f"/v1/items/{item['id']}/reactions", ok=(201,)))
        s.register("reaction", f"/v1/reactions/{like.get('id')}")
        seen = start + moved["collection"] + moved["comment"]
        moved["reaction"] = _feed_total(s, seen + 1) - seen
        counted(
            s,
            moved["collection"] >= 2,
            f"a new collection and item moved the activity total by {moved['collection']}",
        )
        for kind in ("comment", "reaction"):
            counted(s, moved[kind] >= 1, f"a new {kind} moved the activity total by {moved[kind]}, not 1")
        strict = ctx.settings.strict
        things = [("collection", cid, name), ("item", item["id"], item.get("name"))]
        if strict:  # docs/design.md: entries carry the created thing's id and kind
            things += [("comment", comment.get("id"), None), ("reaction", like.get("id"), None)]
        feed, _ = settled(
            s, "activity", lambda: activity(s), lambda got: all(in_feed(got[0], *thing) for thing in things)
        )
        counted(
            s,
            in_feed(feed, "collection", cid, name),
            f"the latest activity does not show the new collection {cid}",
        )
        counted(
            s,
            in_feed(feed, "item", item["id"], item.get("name")),
            f"the latest activity lacks the new item {item['id']}",
        )
        if strict:
            for kind, thing in (("comment", comment), ("reaction", like)):
                counted(
                    s,
                    in_feed(feed, kind, thing.get("id"), None),
                    f"the activity feed lacks the new {kind} {thing.get('id')}",
                )
