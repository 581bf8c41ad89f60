"""Spec-allowed variants of what writes leave behind: deleted items, released addresses, counts.

Registered into tests/conformance/faults.py's VARIANTS, which imports this module. Each
description ends with the spec's sentence that leaves the choice open.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from tests.conformance.faults import Answer, Forward, Request, World, variant

_ITEM = r"/v1/items/(\d+)"


async def _kept(request: Request, forward: Forward, item_ids: list[int], world: World) -> None:
    """Before a delete: each item as the caller reads it now, to answer its GET with afterwards."""
    kept = world.note("tombstones", {})
    for item_id in item_ids:
        got = await forward(request.get(f"/v1/items/{item_id}"))
        if got.status == 200 and got.entries():
            kept[(item_id, request.user_id)] = got.entries()[0]


@variant(
    "deleted-items-tombstones",
    "a deleted item is still answered by Get an item to whoever deleted it: 200, with deleted_at set "
    "(it is gone from every list, search and count); spec 2.2 gives items deleted_at, and spec 3: "
    '"the lifecycle implied by an item\'s deleted_at: not shown"',
    ("items.delete_item", "collections.delete_items", "items.get_item", "Items"),
)
async def deleted_items_tombstones(request: Request, forward: Forward, world: World) -> Answer:
    kept: dict[tuple[int, int | None], dict[str, Any]] = world.note("tombstones", {})
    one = request.on("DELETE", _ITEM)
    many = request.on("DELETE", r"/v1/collections/\d+/items")
    doomed = [int(one[1])] if one else request.ids() if many else []
    if doomed:
        await _kept(request, forward, doomed, world)
        answer = await forward(request)
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        for item_id in doomed:
            entry = kept.get((item_id, request.user_id))
            if entry is not None and not 200 <= answer.status < 300:
                del kept[(item_id, request.user_id)]
            elif entry is not None:
                entry.update(deleted_at=now, updated_at=now)
        return answer
    answer = await forward(request)
    shown = request.on("GET", _ITEM)
    entry = kept.get((int(shown[1]), request.user_id)) if shown and answer.status == 404 else None
    if entry is not None and entry.get("deleted_at"):
        return Answer.of(200, [entry])
    return answer


@variant(
    "released-email-reserved",
    "an address the current user deleted stays unavailable (Get email availability answers it as "
    'taken); spec 4.4 Get email availability: "200, message (code email_available)", and spec 7: '
    '"The response when an email address or username is not available: not shown" (nor when an '
    "address is available)",
    ("Emails", "users.get_email_availability"),
)
async def released_email_reserved(request: Request, forward: Forward, world: World) -> Answer:
    released: set[str] = world.note("released", set())
    deleted = request.on("DELETE", r"/v1/emails/(\d+)")
    if deleted:
        listed = (await forward(request.get("/v1/emails"))).json()
        address = next(
            (e.get("email") for e in listed or [] if isinstance(e, dict) and str(e.get("id")) == deleted[1]),
            None,
        )
        answer = await forward(request)
        if 200 <= answer.status < 300 and isinstance(address, str):
            released.add(address.lower())
        return answer
    if request.on("GET", "/v1/users/email") and (request.param("email") or "").lower() in released:
        return Answer.of(409, {"code": "email_unavailable", "message": "That address was in use."})
    return await forward(request)


def _without_owner(entry: dict[str, Any]) -> None:
    if isinstance(entry.get("users_total_count"), int) and "permissions" in entry:
        entry["users_total_count"] = max(0, entry["users_total_count"] - 1)


@variant(
    "users-total-without-owner",
    "a collection's users_total_count counts its collaborators without the owner; spec 2.1: "
    '"users_total_count | Integer" (what it counts is not said)',
    ("collections.add_collaborator", "collections.remove_collaborator", "collections.get_collection"),
)
async def users_total_without_owner(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if re.fullmatch(r"/v1/collections(/\d+)?", request.path) and request.method in ("GET", "POST", "PUT"):
        answer.edit(_without_owner)
    return answer
