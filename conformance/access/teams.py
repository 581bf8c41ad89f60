"""Managers-only team operations: a plain member is refused, and anything a faulty server
changed is put back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..failures import CheckFailed, CheckSkipped
from ..registry import RunContext, check
from ..settings import User
from .common import LAYER, expect_refused, owner_of


@dataclass(frozen=True)
class _Team:
    id: int
    member: User  # user 2, a plain member
    members: dict[Any, Any]  # user id -> kind, as the member reads them (JSON values)


def _team(ctx: RunContext) -> _Team:
    """--team-id, with user 2 as a plain member of it; else the check is skipped."""
    team_id = ctx.settings.team_id
    if team_id is None:
        raise CheckSkipped("needs --team-id: a team in which user 2 is a plain member (kind user)")
    member = ctx.settings.users[1]
    exchange = ctx.target.request("GET", f"/v1/teams/{team_id}/users", user=member)
    entries = exchange.json()
    if exchange.status != 200 or not isinstance(entries, list):
        raise CheckSkipped(
            f"user 2 cannot list the members of team {team_id} (HTTP {exchange.status}): "
            "--team-id must name a team in which user 2 is a plain member"
        )
    members = {e.get("id"): e.get("kind") for e in entries if isinstance(e, dict)}
    if members.get(member.id) != "user":
        raise CheckSkipped(
            f"user 2 is not a plain member of team {team_id} (kind {members.get(member.id)!r}): "
            "the managers-only checks need one"
        )
    return _Team(team_id, member, members)


def _member_kind(ctx: RunContext, team: _Team, user_id: int) -> str | None:
    exchange = ctx.target.request("GET", f"/v1/teams/{team.id}/users", user=team.member)
    entries = exchange.json() if exchange.status == 200 else None
    if not isinstance(entries, list):
        return None
    return next((e.get("kind") for e in entries if isinstance(e, dict) and e.get("id") == user_id), None)


def _restore_member(ctx: RunContext, team: _Team, user_id: int, kind: str | None) -> None:
    """Put a member's kind back after a faulty server accepted a plain member's change."""
    if _member_kind(ctx, team, user_id) == kind or kind is None:
        return
    for actor in (team.member, owner_of(ctx)):
        restored = ctx.target.request(
            "PUT", f"/v1/teams/{team.id}/users/{user_id}", user=actor, json_body={"kind": kind}
        )
        if 200 <= restored.status < 300:
            return


@check(
    LAYER,
    "teams.update_team",
    "a plain member cannot update the team",
    users=2,
    statements=("1/managers-only", "4.3/get-team", "4.3/update-team", "5.5"),
)
def member_cannot_update_team(ctx: RunContext) -> None:
    team = _team(ctx)
    path = f"/v1/teams/{team.id}"
    read = ctx.target.request("GET", path, user=team.member)
    name = read.json().get("name") if isinstance(read.json(), dict) else None
    if read.status != 200 or not isinstance(name, str):
        raise CheckFailed(
            f"a member of team {team.id} should read it (200 with a name), got {read.status}", read
        )
    # The team's own name: a faulty server that accepts it changes nothing.
    exchange = ctx.target.request("PUT", path, user=team.member, json_body={"name": name})
    if 200 <= exchange.status < 300:
        after = ctx.target.request("GET", path, user=team.member).json()
        if isinstance(after, dict) and after.get("name") != name:
            for actor in (team.member, owner_of(ctx)):
                if ctx.target.request("PUT", path, user=actor, json_body={"name": name}).status < 300:
                    break
    expect_refused(ctx, exchange, f"update team {team.id}", team.member)


@check(
    LAYER,
    "teams.add_team_member",
    "a plain member cannot add team members",
    users=2,
    statements=("1/managers-only", "4.3/add-team-member", "5.5"),
)
def member_cannot_add_member(ctx: RunContext) -> None:
    team = _team(ctx)
    # The member themself, already in the team with this kind: nothing to change if accepted.
    exchange = ctx.target.request(
        "POST",
        f"/v1/teams/{team.id}/users",
        user=team.member,
        json_body={"id": team.member.id, "kind": "user"},
    )
    if 200 <= exchange.status < 300:
        _restore_member(ctx, team, team.member.id, "user")
    expect_refused(ctx, exchange, f"add a member to team {team.id}", team.member)


@check(
    LAYER,
    "teams.update_team_member",
    "a plain member cannot change a member's kind",
    users=2,
    statements=("1/managers-only", "3/member-kind-change", "4.3/update-team-member", "5.5"),
)
def member_cannot_update_member(ctx: RunContext) -> None:
    team = _team(ctx)
    # The member's own current kind: a faulty server that accepts it changes nothing.
    exchange = ctx.target.request(
        "PUT", f"/v1/teams/{team.id}/users/{team.member.id}", user=team.member, json_body={"kind": "user"}
    )
    if 200 <= exchange.status < 300:
        _restore_member(ctx, team, team.member.id, "user")
    expect_refused(ctx, exchange, f"change a member's kind in team {team.id}", team.member)


@check(
    LAYER,
    "teams.remove_team_member",
    "a plain member cannot remove team members",
    users=2,
    statements=("1/managers-only", "4.3/remove-team-member", "5.5"),
)
def member_cannot_remove_member(ctx: RunContext) -> None:
    team = _team(ctx)
    # An account that is not a member (user 3, or the team itself): nothing to lose if accepted.
    candidates = [u.id for u in ctx.settings.users[2:]] + [team.id]
    outsider = next(i for i in candidates if i not in team.members)
    exchange = ctx.target.request("DELETE", f"/v1/teams/{team.id}/users/{outsider}", user=team.member)
    expect_refused(ctx, exchange, f"remove a member from team {team.id}", team.member)
