"""Behaviour checks of the teams operations (operationIds teams.*), grouped by rule family."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..failures import AccessDenied, CheckSkipped
from ..http import LAYER, Session, entry, ids_of, me, session, unique
from ..registry import RunContext, check
from ..settings import User
from .common import (
    MESSAGE,
    counted,
    expect_shows,
    managed_team,
    members,
    refused_4xx,
    says,
    stored,
    username_for,
    vanished,
)

# -- persistence: what a write stores, as a later, different read shows it


def _team_changes(s: Session, team: dict[str, Any], word: str) -> dict[str, Any]:
    """A new value for every field of the Update a team body, each unlike the current one."""
    return {
        "name": s.target.name(f"team {word}"),
        "username": username_for(s, f"t{word[-6:]}"),
        "billing_email": f"{word}@example.com",
        "custom_domain": f"{word}.example.com",
        "labels": not team.get("labels", True),
        "sort_by": "name" if team.get("sort_by") != "name" else "created_at",
        "sort_order": "asc" if team.get("sort_order") != "asc" else "desc",
        "view_mode": "shelf" if team.get("view_mode") != "shelf" else "tile",
    }


@check(
    LAYER,
    "teams.update_team",
    "every field of a team update persists (get, list teams)",
    statements=(
        "1/team-account",
        "2.6/team.name",
        "2.6/team.custom_domain",
        "2.6/team.billing_email",
        "2.6/team-detail",
        "4.3/get-team",
        "4.3/update-team",
        "4.3/update-team.body",
        "5.5",
    ),
)
def team_update_persists(ctx: RunContext) -> None:
    team_id, team = managed_team(ctx)
    with session(ctx) as s:
        sent = _team_changes(s, team, unique(s))
        path = f"/v1/teams/{team_id}"
        try:
            s.call("PUT", path, json_body=sent)
            expect_shows(s, sent, s.body(s.call("GET", path)), f"after Update a team {team_id}, a GET")
            listed = {
                k: v for k, v in sent.items() if k in ("name", "username", "billing_email", "custom_domain")
            }
            got = entry(s.body(s.call("GET", "/v1/teams"), list), team_id)
            expect_shows(s, listed, got, f"after Update a team {team_id}, its List teams entry")
        finally:  # the team is not the run's: every field back as it was
            ctx.target.request("PUT", path, json_body={k: team.get(k) for k in sent})


# -- members: team membership


@check(
    LAYER,
    "teams.add_team_member",
    "a team member body with neither id nor email is refused",
    statements=("4.3/add-team-member.body",),
)
def team_member_body_needs_id_or_email(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    with session(ctx) as s:
        path = f"/v1/teams/{team_id}/users"
        before = members(s, team_id)
        exchange = s.call("POST", path, ok=(), json_body={"kind": "user"})
        if 200 <= exchange.status < 300:  # the team is not the run's: whoever was added goes again
            for added in set(members(s, team_id)) - set(before):
                ctx.target.request("DELETE", f"{path}/{added}")
        refused_4xx(s, exchange, f"POST {path} with {{'kind': 'user'}}")


@check(
    LAYER,
    "teams.list_team_members",
    "a plain member reads List teams, Get a team and List team members",
    users=2,
    writes=False,
    statements=("4.3/list-teams", "4.3/get-team", "4.3/list-team-members"),
)
def team_reads_for_plain_members(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    member = ctx.settings.users[1]
    with session(ctx) as s:
        kind = members(s, team_id).get(member.id)
        if kind != "user":
            raise CheckSkipped(f"user 2 is not a plain member of team {team_id} (kind {kind!r})")
        reads = (
            ("/v1/teams", lambda data: entry(data, team_id), f"team {team_id}"),
            (f"/v1/teams/{team_id}", lambda data: isinstance(data, dict) and data.get("id") == team_id, "it"),
            (f"/v1/teams/{team_id}/users", lambda data: entry(data, member.id), f"user {member.id}"),
        )
        for path, shows, what in reads:
            got = s.call("GET", path, ok=(), user=member)
            s.expect(
                got.status == 200 and shows(got.json()),
                f"GET {path} as user {member.id}, a plain member of team {team_id}, answered {got.status} "
                f"without {what}",
                got,
                kind=AccessDenied,
            )


@contextmanager
def _outsider(ctx: RunContext, s: Session, team_id: int) -> Iterator[User]:
    """The third user, out of the team while the check adds and removes them. Someone else's
    membership (e.g. made by the contract layer's generated requests) is put back afterwards."""
    third = ctx.settings.users[2]
    kind = members(s, team_id).get(third.id)
    path = f"/v1/teams/{team_id}/users/{third.id}"
    if kind is not None:
        s.call("DELETE", path)
        vanished(
            s, third.id not in members(s, team_id), f"after Remove team member {third.id}, it is still listed"
        )
    try:
        yield third
    finally:
        if kind is not None:
            back = ctx.target.request(
                "POST", f"/v1/teams/{team_id}/users", json_body={"id": third.id, "kind": kind}
            )
            if back.status == 409:  # still (or again) a member: only the kind
                ctx.target.request("PUT", path, json_body={"kind": kind})


def _teams_total(s: Session, user: User) -> Any:
    return me(s, user, include="teams_total_count").get("teams_total_count")


def _expect_member(s: Session, team_id: int, user: User, kind: str, before: Any, what: str) -> None:
    got = members(s, team_id).get(user.id)
    stored(s, got == kind, f"{what}, List team members shows user {user.id} with kind {got!r}, not {kind!r}")
    got = teams_of(s, user).get(team_id)
    stored(s, got == kind, f"{what}, the user's own List teams shows team {team_id} with user_kind {got!r}")
    total = _teams_total(s, user)
    counted(
        s,
        isinstance(before, int) and total == before + 1,
        f"{what}, the user's teams_total_count went from {before!r} to {total!r}",
    )


def _remove(s: Session, team_id: int, user: User) -> None:
    path = f"/v1/teams/{team_id}/users/{user.id}"
    s.call("DELETE", path)
    s.gone(path)


@check(
    LAYER,
    "teams.add_team_member",
    "a member added by email or id is stored with its kind",
    users=3,
    statements=(
        "1/team-kinds",
        "2.6/team.user_kind",
        "2.7/team-member",
        "2.9/include",
        "3/member-kind",
        "4.3/list-teams",
        "4.3/list-team-members",
        "4.3/add-team-member",
        "4.3/add-team-member.body",
        "4.3/add-team-member.sample",
        "5.5",
    ),
)
def team_member_added(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    with session(ctx) as s, _outsider(ctx, s, team_id) as third:
        email = me(s, third).get("email")
        before = _teams_total(s, third)
        path = f"/v1/teams/{team_id}/users/{third.id}"
        for body, kind in (({"email": email, "kind": "manager"}, "manager"), ({"id": third.id}, "user")):
            s.call("POST", f"/v1/teams/{team_id}/users", ok=(201,), json_body=body)
            s.register("team member", path)
            _expect_member(s, team_id, third, kind, before, f"after Add team member {body}")
            _remove(s, team_id, third)


@check(
    LAYER,
    "teams.remove_team_member",
    "a removed member is gone from the members, the team and the user's teams",
    users=3,
    statements=("2.6/team-detail", "4.3/list-team-members", "4.3/remove-team-member", "5.5"),
)
def team_member_removed(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    with session(ctx) as s, _outsider(ctx, s, team_id) as third:
        before = _teams_total(s, third)
        s.call("POST", f"/v1/teams/{team_id}/users", ok=(201,), json_body={"id": third.id})
        s.register("team member", f"/v1/teams/{team_id}/users/{third.id}")
        _remove(s, team_id, third)
        what = f"after Remove team member {third.id}"
        vanished(s, third.id not in members(s, team_id), f"{what}, List team members still shows them")
        users = s.body(s.call("GET", f"/v1/teams/{team_id}")).get("users")
        vanished(s, entry(users, third.id) is None, f"{what}, Get a team still lists them in users")
        vanished(
            s, team_id not in teams_of(s, third), f"{what}, their own List teams still shows team {team_id}"
        )
        total = _teams_total(s, third)
        vanished(s, total == before, f"{what}, their teams_total_count is {total!r}, {before!r} before")
        seen = s.call("GET", f"/v1/teams/{team_id}", ok=(), user=third)
        vanished(s, seen.status != 200, f"{what}, they still read Get a team (200)", seen)


def teams_of(s: Session, user: User) -> dict[Any, Any]:
    """List teams as `user`: team id -> that user's kind in it."""
    exchange = s.call("GET", "/v1/teams", user=user)
    return {e.get("id"): e.get("user_kind") for e in s.body(exchange, list) if isinstance(e, dict)}


@check(
    LAYER,
    "teams.update_team_member",
    "a member's new kind is stored (members, teams, team)",
    users=2,
    statements=(
        "1/team-kinds",
        "2.6/team.user_kind",
        "2.6/team-detail",
        "2.7/team-member",
        "3/member-kind",
        "3/member-kind-change",
        "4.3/list-teams",
        "4.3/get-team",
        "4.3/update-team-member",
        "4.3/update-team-member.body",
        "5.5",
    ),
)
def team_member_kind_persists(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    other = ctx.settings.users[1]
    with session(ctx) as s:
        old = members(s, team_id).get(other.id)
        if old not in ("user", "manager"):
            raise CheckSkipped(f"user 2 is not a member of team {team_id} (kind {old!r})")
        new = "manager" if old == "user" else "user"
        path = f"/v1/teams/{team_id}/users/{other.id}"
        try:
            s.call("PUT", path, json_body={"kind": new})
            kind = members(s, team_id).get(other.id)
            stored(
                s, kind == new, f"after Update team member kind={new}, List team members shows kind {kind!r}"
            )
            kind = teams_of(s, other).get(team_id)
            stored(
                s,
                kind == new,
                f"after Update team member kind={new}, user 2's List teams shows user_kind {kind!r}",
            )
            detail = s.body(s.call("GET", f"/v1/teams/{team_id}", user=other))
            stored(
                s,
                detail.get("user_kind") == new,
                f"after Update team member kind={new}, user 2's Get a team shows user_kind "
                f"{detail.get('user_kind')!r}",
            )
            kind = (entry(s.body(s.call("GET", f"/v1/teams/{team_id}")).get("users"), other.id) or {}).get(
                "kind"
            )
            stored(
                s, kind == new, f"after Update team member kind={new}, Get a team's users show kind {kind!r}"
            )
        finally:  # user 2's membership is not the run's: its kind back as it was
            ctx.target.request("PUT", path, json_body={"kind": old})


# -- wording: fixed codes and messages


@check(
    LAYER,
    "teams.remove_team_member",
    "Remove team member says code deleted",
    users=2,
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.3/remove-team-member",
    ),
)
def remove_member_says_deleted(ctx: RunContext) -> None:
    team, target = ctx.settings.team_id, ctx.target
    if team is None:
        raise CheckSkipped("needs --team-id, a team one of the --user accounts manages")
    with session(ctx) as s:
        # any --user who manages the team adds one who is not in it, and removes them again
        kinds = {
            u: (target.request("GET", f"/v1/teams/{team}", user=u).json() or {}) for u in ctx.settings.users
        }
        manager = next((u for u, seen in kinds.items() if seen.get("user_kind") == "manager"), None)
        if manager is None:
            raise CheckSkipped(f"no --user manages team {team}")
        listed = target.request("GET", f"/v1/teams/{team}/users", user=manager)
        members = set(ids_of(s.body(listed, list)))
        outsider = next((u.id for u in ctx.settings.users if u.id not in members), None)
        if outsider is None:
            raise CheckSkipped(f"every --user is a member of team {team}: none to add and remove")
        path = f"/v1/teams/{team}/users/{outsider}"
        added = target.request("POST", f"/v1/teams/{team}/users", user=manager, json_body={"id": outsider})
        s.expect(added.status == 201, f"adding user {outsider} to team {team} answered {added.status}", added)
        target.created("member", path, manager)  # removed again: the team is left as it was
        removed = target.request("DELETE", path, user=manager)
        if 200 <= removed.status < 300:
            target.forget(path)
        says(s, removed, 200, "deleted", "Remove team member")
