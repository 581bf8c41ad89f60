"""Handlers of spec 4.2: items and stacks."""

from __future__ import annotations

from typing import Any

from ..store import ItemFilter, parse_near
from . import Ctx


def list_items(
    ctx: Ctx, collection_id=None, owned=None, owner_id=None, parent_id=None, ll=None, radius=None,
    page=None, per_page=None, q=None, tags=None, type=None, not_type=None,
):  # fmt: skip
    where = ItemFilter(
        type=type, not_type=not_type, parent_id=parent_id, q=q, tags=tuple(tags or ()),
        near=parse_near(ll, radius),
    )  # fmt: skip
    found = ctx.store.list_items(
        ctx.user, collection_id=collection_id, owned=owned, owner_id=owner_id, where=where,
        page=page, per_page=per_page,
    )  # fmt: skip
    return ctx.listing(found, ctx.view.item)


def create_item(ctx: Ctx, collection_id: int, body: dict[str, Any]):
    body, file = ctx.stored_file(body)
    item, created = ctx.store.create_item(ctx.user, collection_id, body, file)
    return ctx.view.item(item), 201 if created else 200


def get_item(ctx: Ctx, item_id: int, include=None, items_page=None, items_per_page=None,
             items_type=None, items_not_type=None):  # fmt: skip
    item = ctx.store.get_item(ctx.user, item_id)
    where = ItemFilter(type=items_type, not_type=items_not_type)
    return [ctx.view.item_with(item, include, where, items_page, items_per_page)], 200


def list_item_tags(ctx: Ctx, item_id: int):
    return ctx.each(ctx.store.list_item_tags(ctx.user, item_id), ctx.view.item_tag), 200


def update_item(ctx: Ctx, item_id: int, body: dict[str, Any]):
    body, file = ctx.stored_file(body)
    return ctx.view.item(ctx.store.update_item(ctx.user, item_id, body, file)), 200


def update_multiple_items(ctx: Ctx, body: dict[str, Any]):
    items = ctx.store.update_multiple_items(ctx.user, body["items"], body.get("collection_id"))
    return ctx.each(items, ctx.view.item), 200


def delete_item(ctx: Ctx, item_id: int, body: dict[str, Any] | None = None):
    ctx.store.delete_item(ctx.user, item_id, bool((body or {}).get("delete_items")))
    return ctx.deleted(f"Item {item_id}")


def copy_items(ctx: Ctx, body: dict[str, Any]):
    copies = ctx.store.copy_items(ctx.user, body["items"], body.get("collection_id"))
    return ctx.each(copies, ctx.view.item), 201
