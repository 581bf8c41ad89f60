"""Statements of spec 1 and 4.1 about sharing that no other check covers (conformance/statements/):
a team added to a collection as a collaborator, by id and by username; the activity feed shows
what is created in a collection shared with the current user, and in a team they belong to."""

from __future__ import annotations

from typing import Any

from ..failures import CheckSkipped, NotStored, StaleCount
from ..http import LAYER, Session, create_thing, ids_of, session, settled, unique
from ..registry import RunContext, check
from ..settings import User
from .parameters_collections import shared_by
from .writes_common import in_feed, managed_team, members

R_TEAM = (
    "spec 1: a team can be added to a collection as a collaborator by username or by user id (the team "
    "id is used as that id); spec 4.1: a team is added using its id or username"
)
R_FEED = (
    "spec 1: activity is a feed of the latest collections, comments, items and reactions created in all "
    "teams and collections that the current user can access"
)


def _feed(s: Session, user: User | None = None) -> list[dict[str, Any]]:
    """The latest 100 entries of the activity feed of `user` (default the first)."""
    exchange = s.call("GET", "/v1/activity", user=user, params={"page": 1, "per_page": 100})
    return [e for e in s.body(exchange, list) if isinstance(e, dict)]


def _added(s: Session, cid: int, team_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """Add the team with `body`, see it listed, remove it again; the collaborator answered."""
    path = f"/v1/collections/{cid}/users/{team_id}"
    added = s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body=body)
    s.register("collaborator", path)
    answer: dict[str, Any] = s.body(added)
    got = answer.get("id")
    s.expect(got == team_id, f"Add a collaborator {body} answered the collaborator id {got!r}", added)
    listed = ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list))
    s.expect(
        team_id in listed,
        f"after Add a collaborator {body}, List collaborators shows {listed}, not team {team_id}",
        kind=NotStored,
    )
    s.call("DELETE", path)
    s.gone(path)
    return answer


@check(
    LAYER,
    "collections.add_collaborator",
    "a team is added as a collaborator by id and by username",
    R_TEAM,
)
def team_as_collaborator(ctx: RunContext) -> None:
    team_id = ctx.settings.team_id
    if team_id is None:
        raise CheckSkipped("needs --team-id: a team to add as a collaborator")
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        username = _added(s, cid, team_id, {"id": team_id}).get("username")  # a Collaborator (spec 2.8)
        if not isinstance(username, str) or not username:
            raise CheckSkipped(
                f"team {team_id} was added by id; its collaborator entry has username {username!r}"
            )
        _added(s, cid, team_id, {"username": username})


@check(
    LAYER,
    "activity.list_activity",
    "what another user creates in a collection shared with the caller shows in the caller's feed",
    R_FEED,
    users=2,
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
    R_FEED,
    users=2,
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
