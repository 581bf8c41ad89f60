"""Handlers of spec 4.8: tags."""

from __future__ import annotations

from typing import Any

from . import Answer, Ctx


def list_tags(ctx: Ctx) -> Answer:
    return [ctx.view.tag_count(name, n) for name, n in ctx.store.list_tags(ctx.user)], 200


def create_tag(ctx: Ctx, item_id: int, body: dict[str, Any]) -> Answer:
    return ctx.view.item_tag(ctx.store.create_tag(ctx.user, item_id, body["name"])), 201


def delete_tag(ctx: Ctx, tag_id: int) -> Answer:
    ctx.store.delete_tag(ctx.user, tag_id)
    return ctx.deleted(f"Tag {tag_id}")
