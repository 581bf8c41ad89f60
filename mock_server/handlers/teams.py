"""Handlers of spec 4.3: teams and their members."""

from __future__ import annotations

from typing import Any

from ..store.teams import Members
from . import Answer, Ctx


def list_teams(ctx: Ctx) -> Answer:
    return [ctx.view.team_list_entry(team, kind) for team, kind in ctx.store.list_teams(ctx.user)], 200


def get_team(ctx: Ctx, team_id: int) -> Answer:
    return ctx.view.team_detail(*ctx.store.get_team(ctx.user, team_id)), 200


def update_team(ctx: Ctx, team_id: int, body: dict[str, Any]) -> Answer:
    return ctx.view.team(ctx.store.update_team(ctx.user, team_id, body)), 200


def list_team_members(ctx: Ctx, team_id: int) -> Answer:
    return _members(ctx, ctx.store.list_team_members(ctx.user, team_id)), 200


def add_team_member(ctx: Ctx, team_id: int, body: dict[str, Any]) -> Answer:
    return _members(ctx, ctx.store.add_team_member(ctx.user, team_id, body)), 201


def update_team_member(ctx: Ctx, team_id: int, user_id: int, body: dict[str, Any]) -> Answer:
    return _members(ctx, ctx.store.update_team_member(ctx.user, team_id, user_id, body["kind"])), 200


def remove_team_member(ctx: Ctx, team_id: int, user_id: int) -> Answer:
    ctx.store.remove_team_member(ctx.user, team_id, user_id)
    return ctx.deleted(f"Member {user_id}")


def _members(ctx: Ctx, members: Members) -> list[dict[str, Any]]:
    return [ctx.view.team_member(user, kind) for user, kind in members]
