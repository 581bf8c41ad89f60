"""Handlers of spec 4.1: collections, their item operations and collaborators."""

from __future__ import annotations

from typing import Any

from ..store import ItemFilter
from . import Answer, Ctx, Listing


def list_collections(
    ctx: Ctx, domain: str | None = None, include: list[str] | None = None, owned: bool | None = None,
    owner_id: int | None = None, page: int | None = None, per_page: int | None = None,
    q: str | None = None, sort: str | None = None, status: list[str] | None = None,
) -> Listing:  # fmt: skip
    found = ctx.store.list_collections(
        ctx.user, host=ctx.host, domain=domain, owned=owned, owner_id=owner_id,
        q=q, sort=sort, status=status, page=page, per_page=per_page,
    )  # fmt: skip
    return ctx.listing(found, lambda c: ctx.view.collection_with(c, include=include))


def get_collections_count(ctx: Ctx) -> Answer:
    return ctx.store.get_collections_count(ctx.user), 200


def create_collection(ctx: Ctx, body: dict[str, Any]) -> Answer:
    return ctx.view.collection(ctx.store.create_collection(ctx.user, body)), 201


def get_collection(
    ctx: Ctx, collection_id: int, domain: str | None = None, include: list[str] | None = None,
    items_page: int | None = None, items_per_page: int | None = None, items_type: str | None = None,
    items_not_type: str | None = None, items_parent_id: int | None = None, log_access: bool | None = None,
) -> Answer:  # fmt: skip
    collection, role = ctx.store.get_collection(
        ctx.user, collection_id, host=ctx.host, domain=domain, log_access=log_access
    )
    where = ItemFilter(type=items_type, not_type=items_not_type, parent_id=items_parent_id)
    return [ctx.view.collection_with(collection, role, include, where, items_page, items_per_page)], 200


def list_collection_tags(ctx: Ctx, collection_id: int) -> Answer:
    tags = ctx.store.list_collection_tags(ctx.user, collection_id)
    return [ctx.view.tag_count(name, n) for name, n in tags], 200


def update_collection(ctx: Ctx, collection_id: int, body: dict[str, Any]) -> Answer:
    return ctx.view.collection(ctx.store.update_collection(ctx.user, collection_id, body)), 200


def delete_collection(ctx: Ctx, collection_id: int) -> Answer:
    ctx.store.delete_collection(ctx.user, collection_id)
    return ctx.deleted(f"Collection {collection_id}")


def update_items(ctx: Ctx, collection_id: int, body: dict[str, Any]) -> Answer:
    """One method and path, two operations: `order` reorders, `items` moves/stacks/tags."""
    if "order" in body:
        items = ctx.store.update_items_order(ctx.user, collection_id, body["order"])
    else:
        items = ctx.store.update_items(ctx.user, collection_id, body)
    return ctx.each(items, ctx.view.item), 200


def delete_items(ctx: Ctx, collection_id: int, body: dict[str, Any]) -> Answer:
    ctx.store.delete_items(ctx.user, collection_id, body["items"])
    return ctx.deleted(f"{len(body['items'])} item(s)")


def list_collaborators(ctx: Ctx, collection_id: int) -> Answer:
    entries = ctx.store.list_collaborators(ctx.user, collection_id)
    return ctx.each(entries, lambda entry: ctx.view.collaborator(*entry)), 200


def add_collaborator(ctx: Ctx, collection_id: int, body: dict[str, Any]) -> Answer:
    return ctx.view.collaborator(*ctx.store.add_collaborator(ctx.user, collection_id, body)), 201


def remove_collaborator(ctx: Ctx, collection_id: int, user_id: int) -> Answer:
    ctx.store.remove_collaborator(ctx.user, collection_id, user_id)
    return ctx.deleted(f"Collaborator {user_id}")
