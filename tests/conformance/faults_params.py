"""Planted faults of the parameter and wording families (issue 15 item 4): a server that takes a
documented query parameter and ignores it (or half honours it), and one that answers with another
`code` than the spec or docs/design.md fixes. Every answer stays schema-valid.

Registered into tests/conformance/faults.py's FAULTS, which imports this module.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

from tests.conformance.faults import (
    BEHAVIOUR,
    COLLECTION,
    ITEM,
    Answer,
    Forward,
    Handler,
    Request,
    World,
    editing,
    fault,
    ignoring,
)

LIST_COLLECTIONS, GET_COLLECTION = "collections.list_collections", "collections.get_collection"
LIST_ITEMS, GET_ITEM = "items.list_items", "items.get_item"


# ---------------------------------------------------------------------- helpers
def without_value(request: Request, name: str, value: str) -> Request:
    """The request without one value of an array query parameter (`include=items`)."""
    kept = [(k, v) for k, v in request.query if not (k == name and v == value)]
    return replace(request, query_string=urlencode(kept).encode())


def not_including(pattern: str, value: str) -> Handler:
    """A handler that leaves one value out of `include`."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        return await forward(
            without_value(request, "include", value) if request.on("GET", pattern) else request
        )

    return handler


def recoding(method: str, pattern: str, status: int, code: str) -> Handler:
    """A handler that answers `code` instead of the fixed one, on answers of that status."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        answer = await forward(request)
        body = answer.json()
        if (
            request.on(method, pattern)
            and answer.status == status
            and isinstance(body, dict)
            and "code" in body
        ):
            answer.with_body({**body, "code": code})
        return answer

    return handler


# ---------------------------------------------------------------------- parameters: list filters
for _name, _description, _operation, _pattern, _params in (
    (
        "collections-owner-id-ignored",
        "List collections ignores owner_id",
        LIST_COLLECTIONS,
        "/v1/collections",
        ("owner_id",),
    ),
    ("items-owner-id-ignored", "List items ignores owner_id", LIST_ITEMS, "/v1/items", ("owner_id",)),
    ("items-near-ignored", "List items ignores ll and radius", LIST_ITEMS, "/v1/items", ("ll", "radius")),
    (
        "log-access-ignored",
        "Get a collection ignores log_access",
        GET_COLLECTION,
        COLLECTION,
        ("log_access",),
    ),
    (
        "items-type-ignored-on-include",
        "Get a collection's include=items ignores items_type",
        GET_COLLECTION,
        COLLECTION,
        ("items_type",),
    ),
    (
        "items-parent-id-ignored",
        "Get a collection's include=items ignores items_parent_id",
        GET_COLLECTION,
        COLLECTION,
        ("items_parent_id",),
    ),
    (
        "items-page-ignored",
        "Get a collection's include=items always gives the first items_page",
        GET_COLLECTION,
        COLLECTION,
        ("items_page",),
    ),
    (
        "stack-items-not-type-ignored",
        "Get an item's include=items ignores items_not_type",
        GET_ITEM,
        ITEM,
        ("items_not_type",),
    ),
    (
        "stack-items-per-page-ignored",
        "Get an item's include=items ignores items_per_page",
        GET_ITEM,
        ITEM,
        ("items_per_page",),
    ),
    ("search-type-ignored", "Search ignores type", "search.search", "/v1/search", ("type",)),
    ("search-owner-id-ignored", "Search ignores owner_id", "search.search", "/v1/search", ("owner_id",)),
    ("search-near-ignored", "Search ignores ll and radius", "search.search", "/v1/search", ("ll", "radius")),
    ("search-per-page-ignored", "Search ignores per_page", "search.search", "/v1/search", ("per_page",)),
    (
        "activity-page-ignored",
        "List activity always answers the first page",
        "activity.list_activity",
        "/v1/activity",
        ("page",),
    ),
):
    fault(_name, _description, (_operation,), BEHAVIOUR)(ignoring("GET", _pattern, *_params))

fault(
    "status-highlighted-ignored",
    "List collections reads status=highlighted as the default (active)",
    (LIST_COLLECTIONS,),
    BEHAVIOUR,
)(ignoring("GET", "/v1/collections", "status", value="highlighted"))
fault("sort-name-ignored", "List collections ignores sort=name", (LIST_COLLECTIONS,), BEHAVIOUR)(
    ignoring("GET", "/v1/collections", "sort", value="name")
)
fault(
    "sort-recent-ignored", "List collections ignores sort=recent", (LIST_COLLECTIONS,), BEHAVIOUR, strict=True
)(ignoring("GET", "/v1/collections", "sort", value="recent"))
fault("domain-ignored", "List collections ignores domain", (LIST_COLLECTIONS,), BEHAVIOUR, strict=True)(
    ignoring("GET", "/v1/collections", "domain")
)
fault(
    "count-alias-ignored",
    "List items ignores count, the alias of per_page",
    (LIST_ITEMS,),
    BEHAVIOUR,
    strict=True,
)(ignoring("GET", "/v1/items", "count"))

# -- parameters: include
fault(
    "list-include-items-ignored",
    "List collections leaves the items out of include=items",
    (LIST_COLLECTIONS,),
    BEHAVIOUR,
)(not_including("/v1/collections", "items"))
fault(
    "include-users-ignored",
    "Get a collection leaves the collaborators out of include=users",
    (GET_COLLECTION,),
    BEHAVIOUR,
)(not_including(COLLECTION, "users"))
fault(
    "include-parent-ignored", "Get an item leaves the parent out of include=parent", (GET_ITEM,), BEHAVIOUR
)(not_including(ITEM, "parent"))
fault(
    "me-include-emails-ignored",
    "Get current user leaves the emails out of include=emails",
    ("users.get_current_user",),
    BEHAVIOUR,
)(not_including("/v1/users/me", "emails"))


@fault(
    "siblings-include-self",
    "Get an item's include=siblings lists the item itself too",
    (GET_ITEM,),
    BEHAVIOUR,
)
async def siblings_include_self(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", ITEM) and "siblings" in (v for k, v in request.query if k == "include"):
        answer.edit(
            lambda item: item["siblings"].insert(0, {k: v for k, v in item.items() if k != "siblings"})
        )
    return answer


fault(
    "teams-total-count-off",
    "Get current user's teams_total_count is one more than its teams",
    ("users.get_current_user",),
    BEHAVIOUR,
)(
    editing(
        "GET",
        "/v1/users/me",
        lambda me: "teams_total_count" in me and me.update(teams_total_count=me["teams_total_count"] + 1),
    )
)


@fault(
    "username-taken-is-available",
    "Get username availability says every username is available",
    ("users.get_username_availability",),
    BEHAVIOUR,
)
async def username_taken_is_available(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/users/username") and answer.status == 409:
        name = request.param("username")
        return Answer.of(200, {"code": "username_available", "message": f"{name} is available."})
    return answer


# -- parameters: a collection's sort_by / sort_order applied to its items
async def _sort_of(request: Request, forward: Forward) -> dict[str, Any]:
    found = re.fullmatch(COLLECTION, request.path)
    cid = found[1] if found else request.param("collection_id")
    entries = (await forward(request.get(f"/v1/collections/{cid}"))).entries() if cid else []
    return entries[0] if entries else {}


def _reorder(change: Any) -> Handler:
    """A handler that reorders the items of a collection's List items (and its include=items)
    by `change(items, collection)`."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        answer = await forward(request)
        listed = answer.json()
        if request.on("GET", "/v1/items") and request.param("collection_id") and isinstance(listed, list):
            return answer.with_body(change(listed, await _sort_of(request, forward)))
        if request.on("GET", COLLECTION) and request.param("include") and answer.status == 200:
            collection = await _sort_of(request, forward)
            answer.edit(
                lambda c: isinstance(c.get("items"), list) and c.update(items=change(c["items"], collection))
            )
        return answer

    return handler


def _asc(items: list[Any], collection: dict[str, Any]) -> list[Any]:
    return items[::-1] if collection.get("sort_order") == "desc" and collection.get("sort_by") else items


def _manual(items: list[Any], collection: dict[str, Any]) -> list[Any]:
    return (
        sorted(items, key=lambda i: (i.get("sort", 0), i.get("id", 0)))
        if collection.get("sort_by")
        else items
    )


fault(
    "collection-sort-order-ignored",
    "a collection's items are listed ascending whatever its sort_order",
    (LIST_ITEMS,),
    BEHAVIOUR,
)(_reorder(_asc))
fault(
    "collection-sort-by-ignored",
    "a collection's items are listed in manual order whatever its sort_by",
    (LIST_ITEMS,),
    BEHAVIOUR,
)(_reorder(_manual))


# ---------------------------------------------------------------------- wording (spec 2.13)
fault(
    "comment-deleted-code-wrong",
    "Delete a comment answers code ok, not deleted",
    ("comments.delete_comment",),
    BEHAVIOUR,
)(recoding("DELETE", r"/v1/comments/\d+", 200, "ok"))
fault(
    "reaction-deleted-code-wrong",
    "Delete a reaction answers code reaction_deleted, not deleted",
    ("reactions.delete_reaction",),
    BEHAVIOUR,
)(recoding("DELETE", r"/v1/reactions/\d+", 200, "reaction_deleted"))
fault(
    "member-deleted-code-wrong",
    "Remove team member answers code removed, not deleted",
    ("teams.remove_team_member",),
    BEHAVIOUR,
)(recoding("DELETE", r"/v1/teams/\d+/users/\d+", 200, "removed"))
fault(
    "email-available-code-wrong",
    "Get email availability answers code available, not email_available",
    ("users.get_email_availability",),
    BEHAVIOUR,
)(recoding("GET", "/v1/users/email", 200, "available"))

# -- wording (docs/design.md: /ping, /auth, one code per error status)
for _name, _operation, _method, _pattern, _status, _code in (
    ("pong-code-wrong", "auth.ping", "GET", "/v1/ping", 200, "ok"),
    ("password-incorrect-code-wrong", "auth.authenticate", "POST", "/v1/auth", 401, "unauthorized"),
    ("invalid-input-code-wrong", LIST_ITEMS, "GET", "/v1/items", 400, "bad_request"),
    ("not-found-code-wrong", GET_ITEM, "GET", ITEM, 404, "item_not_found"),
    (
        "paid-plan-code-wrong",
        "collections.create_collection",
        "POST",
        "/v1/collections",
        402,
        "payment_required",
    ),
    ("forbidden-code-wrong", "collections.delete_collection", "DELETE", COLLECTION, 403, "not_allowed"),
    ("conflict-code-wrong", "reactions.create_reaction", "POST", ITEM + "/reactions", 409, "already_liked"),
    ("unavailable-code-wrong", "users.get_email_availability", "GET", "/v1/users/email", 409, "taken"),
    (
        "media-type-code-wrong",
        "collections.create_collection",
        "POST",
        "/v1/collections",
        415,
        "bad_media_type",
    ),
):
    fault(
        _name,
        f"{_method} {_pattern} answers {_status} with code {_code}",
        (_operation,),
        BEHAVIOUR,
        strict=True,
    )(recoding(_method, _pattern, _status, _code))
