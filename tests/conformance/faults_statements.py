"""Planted faults against statements of the spec that no check covered before issue 22 (each is
caught by the behaviour check named in its description): timestamps on update, the sets the
collection counts count, contacts, tags listed across collections, search with q and tags.

Registered into tests/conformance/faults.py's FAULTS, which imports this module.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.conformance.faults import (
    BEHAVIOUR,
    COLLECTION,
    COLLECTIONS,
    ITEMS,
    Answer,
    Forward,
    Request,
    World,
    fault,
)

ITEM_ANSWERS = rf"{ITEMS}|{COLLECTION}/items"  # Get, List, Update an item; Create an item
COMMENT_ANSWERS = r"/v1/items/\d+/comments|/v1/comments/\d+"
STAMP = "%Y-%m-%dT%H:%M:%SZ"


def _shifted(value: Any, by: timedelta) -> Any:
    """An ISO 8601 timestamp moved by `by` (in the mock's form); anything else as it is."""
    if not isinstance(value, str):
        return value
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return value
    return (moment + by).astimezone(UTC).strftime(STAMP)


# -- timestamps on update (collection_timestamps_on_update, item_..., comment_...)
@fault(
    "update-moves-created-at",
    "Update a collection sets its created_at to the time of the update, as updated_at "
    "(collection_timestamps_on_update)",
    ("collections.update_collection",),
    BEHAVIOUR,
)
async def update_moves_created_at(request: Request, forward: Forward, world: World) -> Answer:
    moved: dict[Any, Any] = world.note("moved", {})
    answer = await forward(request)
    if request.on("PUT", COLLECTION) and 200 <= answer.status < 300:
        answer.edit(lambda c: moved.__setitem__(c.get("id"), c.get("updated_at")))
    if re.fullmatch(COLLECTIONS, request.path):
        answer.edit(lambda c: c.update(created_at=moved[c["id"]]) if c.get("id") in moved else None)
    return answer


@fault(
    "updated-at-frozen",
    "an item's updated_at stays the first value answered, whatever the updates (item_timestamps_on_update)",
    ("items.update_item",),
    BEHAVIOUR,
)
async def updated_at_frozen(request: Request, forward: Forward, world: World) -> Answer:
    first: dict[Any, Any] = world.note("first", {})
    answer = await forward(request)

    def frozen(item: dict[str, Any]) -> None:
        if "updated_at" in item and "collection_id" in item:
            item["updated_at"] = first.setdefault(item.get("id"), item["updated_at"])

    return answer.edit(frozen) if re.fullmatch(ITEM_ANSWERS, request.path) else answer


@fault(
    "updated-before-created",
    "Update a comment sets its updated_at an hour before its created_at (comment_timestamps_on_update)",
    ("comments.update_comment",),
    BEHAVIOUR,
)
async def updated_before_created(request: Request, forward: Forward, world: World) -> Answer:
    updated: set[Any] = world.note("updated", set())
    answer = await forward(request)
    if request.on("PUT", r"/v1/comments/(\d+)") and 200 <= answer.status < 300:
        updated.add(int(request.path.rsplit("/", 1)[-1]))

    def earlier(comment: dict[str, Any]) -> None:
        if comment.get("id") in updated:
            comment["updated_at"] = _shifted(comment.get("created_at"), timedelta(hours=-1))

    return answer.edit(earlier) if re.fullmatch(COMMENT_ANSWERS, request.path) else answer


# -- what the collection counts count (collections_count_sets)
async def _counted(request: Request, forward: Forward, change: Any) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/collections/count"):
        answer.edit(change)
    return answer


@fault(
    "count-active-has-archived",
    "Get collections count counts archived collections in active too (collections_count_sets)",
    ("collections.get_collections_count",),
    BEHAVIOUR,
)
async def count_active_has_archived(request: Request, forward: Forward, world: World) -> Answer:
    return await _counted(
        request, forward, lambda c: c.update(active=c.get("active", 0) + c.get("archived", 0))
    )


@fault(
    "count-owned-has-shared",
    "Get collections count counts the collections shared with the caller in owned too "
    "(collections_count_sets)",
    ("collections.get_collections_count",),
    BEHAVIOUR,
)
async def count_owned_has_shared(request: Request, forward: Forward, world: World) -> Answer:
    return await _counted(request, forward, lambda c: c.update(owned=c.get("total", c.get("owned"))))


# -- contacts (contacts_are_sharers)
@fault(
    "contacts-every-user",
    "List contacts lists every user (the run's), whether they share anything or not (contacts_are_sharers)",
    ("users.list_contacts",),
    BEHAVIOUR,
)
async def contacts_every_user(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    listed = answer.json()
    if not request.on("GET", "/v1/users/contacts") or not isinstance(listed, list):
        return answer
    known = {e.get("id") for e in listed if isinstance(e, dict)}
    for user in world.users:
        if user.id != request.user_id and user.id not in known:
            listed += (await forward(request.get("/v1/users/me").as_user(user))).entries()
    return answer.with_body(listed)


@fault(
    "contacts-team-only",
    "List contacts lists the caller's team members only, not the users they share collections with "
    "(contacts_are_sharers)",
    ("users.list_contacts",),
    BEHAVIOUR,
)
async def contacts_team_only(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if not request.on("GET", "/v1/users/contacts") or answer.status != 200:
        return answer
    members: set[Any] = set()
    for team in (await forward(request.get("/v1/teams"))).entries():
        members |= {
            m.get("id") for m in (await forward(request.get(f"/v1/teams/{team.get('id')}/users"))).entries()
        }
    return answer.with_body([e for e in answer.entries() if e.get("id") in members])


# -- tags listed across collections (tags_listed_across_shared_collections)
async def _listed_collections(request: Request, forward: Forward) -> list[dict[str, Any]]:
    """Every collection the caller can list, archived ones too."""
    found: list[dict[str, Any]] = []
    for status in ("active", "archived"):
        for page in range(1, 50):
            query = {"status": status, "page": page, "per_page": 100}
            chunk = (await forward(request.get("/v1/collections", **query))).entries()
            found += chunk
            if len(chunk) < 100:
                break
    return found


@fault(
    "tags-own-collections-only",
    "List all tags counts only the tags of the caller's own collections, not of those shared with them "
    "(tags_listed_across_shared_collections)",
    ("tags.list_tags",),
    BEHAVIOUR,
)
async def tags_own_collections_only(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if not request.on("GET", "/v1/tags") or answer.status != 200:
        return answer
    counts = {str(e.get("name")).casefold(): e for e in answer.entries()}
    for collection in await _listed_collections(request, forward):
        if collection.get("user_id") == request.user_id:
            continue
        for tag in (await forward(request.get(f"/v1/collections/{collection.get('id')}/tags"))).entries():
            mine = counts.get(str(tag.get("name")).casefold())
            if mine is not None:
                mine["items_total_count"] -= tag.get("items_total_count", 0)
    return answer.with_body([e for e in counts.values() if e.get("items_total_count", 0) > 0])


@fault(
    "tags-of-strangers-listed",
    "List all tags also lists the tags other users see, of collections not shared with the caller "
    "(tags_listed_across_shared_collections)",
    ("tags.list_tags",),
    BEHAVIOUR,
)
async def tags_of_strangers_listed(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    listed = answer.json()
    if not request.on("GET", "/v1/tags") or not isinstance(listed, list):
        return answer
    known = {str(e.get("name")).casefold() for e in listed if isinstance(e, dict)}
    for user in world.users:
        if user.id != request.user_id:
            for tag in (await forward(request.get("/v1/tags").as_user(user))).entries():
                if str(tag.get("name")).casefold() not in known:
                    known.add(str(tag.get("name")).casefold())
                    listed.append(tag)
    return answer.with_body(listed)


# -- search with q and tags (search_q_and_tags_both_apply)
def _both(request: Request) -> bool:
    names = {k for k, _ in request.query}
    return bool(request.on("GET", "/v1/search")) and "q" in names and bool(names & {"tags", "tags[]"})


@fault(
    "search-q-drops-tags",
    "Search ignores tags when q is given too (search_q_and_tags_both_apply)",
    ("search.search",),
    BEHAVIOUR,
)
async def search_q_drops_tags(request: Request, forward: Forward, world: World) -> Answer:
    return await forward(request.without("tags", "tags[]") if _both(request) else request)


@fault(
    "search-q-or-tags",
    "Search with q and tags finds what matches q OR has the tags (search_q_and_tags_both_apply)",
    ("search.search",),
    BEHAVIOUR,
)
async def search_q_or_tags(request: Request, forward: Forward, world: World) -> Answer:
    if not _both(request):
        return await forward(request)
    by_q = await forward(request.without("tags", "tags[]"))
    by_tags = await forward(request.without("q"))
    seen = {(e.get("type"), e.get("id")) for e in by_q.entries()}
    extra = [e for e in by_tags.entries() if (e.get("type"), e.get("id")) not in seen]
    answer = by_q.with_body(by_q.entries() + extra)
    answer.move_total(len(extra))
    return answer
