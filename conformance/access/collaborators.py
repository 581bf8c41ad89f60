"""Collaborators gain and lose access; the permissions objects of owner, collaborator, reader (strict)."""

from __future__ import annotations

from typing import Any

from ..failures import AccessDenied, AccessLeak, expect
from ..http import create_collection, create_item
from ..registry import RunContext, check
from ..settings import User
from ..target import Exchange
from .common import (
    COLLABORATOR_PERMISSIONS,
    LAYER,
    OWNER_PERMISSIONS,
    READER_PERMISSIONS,
    RULE_PERMISSIONS,
    expect_invisible,
    expect_readable,
    owner_of,
    pages_of,
    scene_of,
    stranger_of,
    who,
)


def _add_collaborator(ctx: RunContext, collection: int, user: User) -> Exchange:
    exchange = ctx.target.request(
        "POST", f"/v1/collections/{collection}/users", user=owner_of(ctx), json_body={"id": user.id}
    )
    expect(
        exchange.status in (200, 201),
        f"the owner adding {who(user)} as a collaborator of {collection} should succeed, "
        f"got {exchange.status}",
        exchange,
    )
    return exchange


def _remove_collaborator(ctx: RunContext, collection: int, user: User) -> Exchange:
    return ctx.target.request("DELETE", f"/v1/collections/{collection}/users/{user.id}", user=owner_of(ctx))


def _shared_collection(ctx: RunContext, label: str) -> tuple[int, int]:
    """A private collection of the owner with one item, for one collaborator check."""
    collection = create_collection(ctx, label, "private")
    return collection, create_item(ctx, collection, f"{label} item", "text")


@check(
    LAYER,
    "collections.add_collaborator",
    "an added collaborator gains access",
    users=2,
    statements=("1/collection-owner-items-collaborators",),
)
def collaborator_gains_access(ctx: RunContext) -> None:
    stranger = stranger_of(ctx)
    collection, item = _shared_collection(ctx, "shared")
    before = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
    expect_invisible(ctx, before, f"private collection {collection} (before sharing)", stranger)
    _add_collaborator(ctx, collection, stranger)
    try:
        got = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
        expect_readable(got, f"collection {collection}, shared with {who(stranger)},", stranger, collection)
        got = ctx.target.request("GET", f"/v1/items/{item}", user=stranger)
        expect_readable(got, f"item {item} of a collection shared with {who(stranger)},", stranger, item)
        listed = [
            e.get("id")
            for _, entries in pages_of(ctx.target, "/v1/items", stranger, {"collection_id": collection})
            for e in entries
            if isinstance(e, dict)
        ]
        expect(
            item in listed,
            f"GET /v1/items?collection_id={collection} as the collaborator misses item {item}",
            kind=AccessDenied,
        )
        if ctx.settings.strict:  # design.md, collaborators: the plain list includes shared collections
            found = any(
                isinstance(e, dict) and e.get("id") == collection
                for _, entries in pages_of(ctx.target, "/v1/collections", stranger, {"sort": "recent"})
                for e in entries
            )
            expect(
                found,
                f"GET /v1/collections as the collaborator does not list shared collection {collection}",
                kind=AccessDenied,
            )
    finally:
        _remove_collaborator(ctx, collection, stranger)


@check(
    LAYER,
    "collections.remove_collaborator",
    "a removed collaborator loses access",
    users=2,
    statements=("4.1/remove-collaborator", "design/visibility.private"),
)
def collaborator_loses_access(ctx: RunContext) -> None:
    stranger = stranger_of(ctx)
    collection, item = _shared_collection(ctx, "unshared")
    _add_collaborator(ctx, collection, stranger)
    got = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
    expect_readable(got, f"collection {collection}, shared with {who(stranger)},", stranger, collection)
    removed = _remove_collaborator(ctx, collection, stranger)
    expect(
        removed.status == 200,
        f"the owner removing collaborator {who(stranger)} should answer 200, got {removed.status}",
        removed,
    )
    after = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
    expect_invisible(ctx, after, f"collection {collection} (after removing its collaborator)", stranger)
    after = ctx.target.request("GET", f"/v1/items/{item}", user=stranger)
    expect_invisible(ctx, after, f"item {item} (after removing the collaborator)", stranger)
    for exchange, entries in pages_of(ctx.target, "/v1/collections", stranger, {"sort": "recent"}):
        expect(
            not any(isinstance(e, dict) and e.get("id") == collection for e in entries),
            f"GET /v1/collections as the removed collaborator still lists collection {collection}",
            exchange,
            AccessLeak,
        )


# ---------------------------------------------------------------------- permissions objects (strict)
def _permissions(exchange: Exchange) -> Any:
    body = exchange.json()
    one = body[0] if isinstance(body, list) and body else body
    return one.get("permissions") if isinstance(one, dict) else None


def _expect_permissions(exchange: Exchange, role: str, user: User, wanted: dict[str, bool]) -> None:
    expect(
        exchange.status == 200,
        f"GET as the {role} ({who(user)}) should answer 200, got {exchange.status}",
        exchange,
    )
    got = _permissions(exchange)
    expect(got == wanted, f"the {role}'s permissions should be {wanted}, got {got}", exchange)


@check(
    LAYER,
    "collections.get_collection",
    "the owner's permissions object",
    RULE_PERMISSIONS,
    strict=True,
    statements=("2.1/collection.permissions",),
)
def owner_permissions(ctx: RunContext) -> None:
    scene, owner = scene_of(ctx), owner_of(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.private}", user=owner)
    _expect_permissions(exchange, "owner", owner, OWNER_PERMISSIONS)


@check(
    LAYER,
    "collections.get_collection",
    "a collaborator's permissions object",
    RULE_PERMISSIONS,
    strict=True,
    users=2,
    statements=("2.1/collection.permissions",),
)
def collaborator_permissions(ctx: RunContext) -> None:
    stranger = stranger_of(ctx)
    collection, _ = _shared_collection(ctx, "permissions")
    _add_collaborator(ctx, collection, stranger)
    try:
        exchange = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
        _expect_permissions(exchange, "collaborator", stranger, COLLABORATOR_PERMISSIONS)
    finally:
        _remove_collaborator(ctx, collection, stranger)


@check(
    LAYER,
    "collections.get_collection",
    "a public reader's permissions object",
    RULE_PERMISSIONS,
    strict=True,
    users=2,
    statements=("2.1/collection.permissions",),
)
def reader_permissions(ctx: RunContext) -> None:
    scene, stranger = scene_of(ctx), stranger_of(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.public}", user=stranger)
    _expect_permissions(exchange, "public reader", stranger, READER_PERMISSIONS)
