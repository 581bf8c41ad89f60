"""Handlers of spec 4.6: reactions (likes)."""

from __future__ import annotations

from . import Answer, Ctx


def list_reactions(ctx: Ctx, item_id: int) -> Answer:
    return ctx.each(ctx.store.list_reactions(ctx.user, item_id), ctx.view.reaction), 200


def create_reaction(ctx: Ctx, item_id: int) -> Answer:
    return ctx.view.reaction(ctx.store.create_reaction(ctx.user, item_id)), 201


def delete_reaction(ctx: Ctx, reaction_id: int) -> Answer:
    ctx.store.delete_reaction(ctx.user, reaction_id)
    return ctx.deleted(f"Reaction {reaction_id}")
