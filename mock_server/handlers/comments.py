"""Handlers of spec 4.5: comments."""

from __future__ import annotations

from typing import Any

from . import Answer, Ctx


def list_comments(ctx: Ctx, item_id: int) -> Answer:
    return ctx.each(ctx.store.list_comments(ctx.user, item_id), ctx.view.comment), 200


def create_comment(ctx: Ctx, item_id: int, body: dict[str, Any]) -> Answer:
    comment = ctx.store.create_comment(ctx.user, item_id, body["body"], bool(body.get("notify")))
    return ctx.view.comment(comment), 201


def update_comment(ctx: Ctx, comment_id: int, body: dict[str, Any]) -> Answer:
    return ctx.view.comment(ctx.store.update_comment(ctx.user, comment_id, body["body"])), 200


def delete_comment(ctx: Ctx, comment_id: int) -> Answer:
    ctx.store.delete_comment(ctx.user, comment_id)
    return ctx.deleted(f"Comment {comment_id}")
