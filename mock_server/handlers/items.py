"""Handlers of spec 4.2: items and stacks."""

from __future__ import annotations

from typing import Any

from ..store import ItemFilter, parse_near
from . import Answer, Ctx, Listing


def list_items(
    ctx: Ctx, collection_id: int | None = None, owned: bool | None = None, owner_id: int | None = None,
    parent_id: int | None = None, ll: str | None = None, radius: float | None = None,
    page: int | None = None, per_page: int | None = None, q: str | None = None,
    tags: list[str] | None = None, type: str | None = None, not_type: str | None = None,
) -> Listing:  # fmt: skip
    where = ItemFilter(
        type=type, not_type=not_type, parent_id=parent_id, q=q, tags=tuple(tags or ()),
        near=parse_near(ll, radius),
    )  # fmt: skip
    found = ctx.store.list_items(
        ctx.user, collection_id=collection_id, owned=owned, owner_id=owner_id, where=where,
        page=page, per_page=per_page,
    )  # fmt: skip
    return ctx.listing(found, ctx.view.item)


def create_item(ctx: Ctx, collection_id: int, body: dict[str, Any]) -> Answer:
    body, file = ctx.stored_file(body)
    item, created = ctx.store.create_item(ctx.user, collection_id, body, file)
    return ctx.view.item(item), 201 if created else 200


def get_item(ctx: Ctx, item_id: int, include: list[str] | None = None, items_page: int | None = None,
             items_per_page: int | None = None, items_type: str | None = None,
             items_not_type: str | None = None) -> Answer:  # fmt: skip
    item = ctx.store.get_item(ctx.user, item_id)
    where = ItemFilter(type=items_type, not_type=items_not_type)
    return [ctx.view.item_with(item, include, where, items_page, items_per_page)], 200


def list_item_tags(ctx: Ctx, item_id: int) -> Answer:
    return ctx.each(ctx.store.list_item_tags(ctx.user, item_id), ctx.view.item_tag), 200


def update_item(ctx: Ctx, item_id: int, body: dict[str, Any]) -> Answer:
    body, file = ctx.stored_file(body)
    return ctx.view.item(ctx.store.update_item(ctx.user, item_id, body, file)), 200


def update_multiple_items(ctx: Ctx, body: dict[str, Any]) -> Answer:
    items = ctx.store.update_multiple_items(ctx.user, body["items"], body.get("collection_id"))
    return ctx.each(items, ctx.view.item), 200


def delete_item(ctx: Ctx, item_id: int, body: dict[str, Any] | None = None) -> Answer:
    ctx.store.delete_item(ctx.user, item_id, bool((body or {}).get("delete_items")))
    return ctx.deleted(f"Item {item_id}")


def copy_items(ctx: Ctx, body: dict[str, Any]) -> Answer:
    copies = ctx.store.copy_items(ctx.user, body["items"], body.get("collection_id"))
    return ctx.each(copies, ctx.view.item), 201
