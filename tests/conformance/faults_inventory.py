"""Planted faults for the checks written for statements of the spec no check covered (issue 22
item 2; conformance/behaviour/<resource>): one deviation each, caught by the behaviour layer.

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
    COLLECTIONS,
    ITEMS,
    Answer,
    Forward,
    Request,
    World,
    editing,
    fault,
)


def _not_utc(item: dict[str, Any]) -> None:
    for key in ("created_at", "updated_at"):
        value = item.get(key)
        if isinstance(value, str) and value.endswith("Z"):
            item[key] = value[:-1] + "+01:00"


fault(
    "timestamps-not-utc",
    "an item's created_at and updated_at are written with the offset +01:00",
    ("items.create_item",),
    BEHAVIOUR,
)(editing("GET", ITEMS, _not_utc))


def _link_filled(item: dict[str, Any]) -> None:
    if item.get("link") == "":
        item["link"] = item.get("url") or "https://example.com/"


fault(
    "link-filled-when-none",
    'an item without a source URL reads with its own url as link, not ""',
    ("items.create_item",),
    BEHAVIOUR,
)(editing("GET", ITEMS, _link_filled))


@fault(
    "view-mode-default-shelf",
    "a collection made without view_mode gets view_mode shelf",
    ("collections.create_collection",),
    BEHAVIOUR,
)
async def view_mode_default_shelf(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    if request.on("POST", "/v1/collections") and body and "view_mode" not in body:
        request = request.with_json({**body, "view_mode": "shelf"})
    return await forward(request)


@fault(
    "owner-data-of-caller",
    "a collection someone else owns shows the caller's name, username and email as its owner data",
    ("collections.get_collection",),
    BEHAVIOUR,
)
async def owner_data_of_caller(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.method != "GET" or not re.fullmatch(COLLECTIONS, request.path) or answer.status != 200:
        return answer
    caller = (await forward(request.get("/v1/users/me"))).json() or {}

    def theirs(collection: dict[str, Any]) -> None:
        if collection.get("user_id") != caller.get("id"):
            collection.update(
                user_name=caller.get("name"), username=caller.get("username"), user_email=caller.get("email")
            )

    return answer.edit(theirs)


@fault(
    "team-refused-as-collaborator",
    "Add a collaborator of a team (an account that is none of the run's users) answers 404 and adds nothing",
    ("collections.add_collaborator",),
    BEHAVIOUR,
)
async def team_refused_as_collaborator(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("POST", COLLECTION + "/users")
    answer = await forward(request)
    added = answer.json() if found and answer.status == 201 else None
    if isinstance(added, dict) and added.get("id") not in {u.id for u in world.users}:
        await forward(request.to("DELETE", f"/v1/collections/{found[1]}/users/{added.get('id')}"))  # type: ignore[index]
        return Answer.of(404, {"code": "not_found", "message": "no such user"})
    return answer


@fault(
    "collaborator-without-identity-accepted",
    "Add a collaborator with none of id, email and username answers 201 with the caller",
    ("collections.add_collaborator",),
    BEHAVIOUR,
)
async def collaborator_without_identity(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    if (
        request.on("POST", COLLECTION + "/users")
        and request.is_json
        and not body.keys() & {"id", "email", "username"}
    ):
        return Answer.of(201, {"id": request.user_id, "kind": "owner"})
    return await forward(request)


@fault(
    "team-member-without-identity-accepted",
    "Add team member with neither id nor email answers 201 with the members as they are",
    ("teams.add_team_member",),
    BEHAVIOUR,
)
async def team_member_without_identity(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    if request.on("POST", r"/v1/teams/\d+/users") and request.is_json and not body.keys() & {"id", "email"}:
        listed = await forward(request.get(request.path))
        return Answer.of(201, listed.json())
    return await forward(request)


@fault(
    "search-without-terms-answers",
    "Search with neither q nor tags answers 200 with no results",
    ("search.search",),
    BEHAVIOUR,
)
async def search_without_terms(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", "/v1/search") and not {k for k, _ in request.query} & {"q", "tags", "tags[]"}:
        answer = Answer.of(200, [])
        answer.set_header("x-total-count", "0")
        return answer
    return await forward(request)


@fault(
    "activity-only-own",
    "List activity shows only what the caller made, not what others made in collections shared with them",
    ("activity.list_activity",),
    BEHAVIOUR,
)
async def activity_only_own(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    entries = answer.json()
    if request.on("GET", "/v1/activity") and answer.status == 200 and isinstance(entries, list):
        own = [e for e in entries if not isinstance(e, dict) or e.get("user_id") == request.user_id]
        answer.with_body(own).move_total(len(own) - len(entries))
    return answer


@fault(
    "activity-without-teams",
    "List activity leaves out what was made in a team's collections (entries of an account that is none "
    "of the run's users)",
    ("activity.list_activity",),
    BEHAVIOUR,
)
async def activity_without_teams(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    entries = answer.json()
    if request.on("GET", "/v1/activity") and answer.status == 200 and isinstance(entries, list):
        people = {u.id for u in world.users}
        kept = [e for e in entries if not isinstance(e, dict) or e.get("user_id") in people]
        answer.with_body(kept).move_total(len(kept) - len(entries))
    return answer


@fault(
    "default-status-every",
    "List collections without status lists archived collections too (the default is not active)",
    ("collections.list_collections",),
    BEHAVIOUR,
)
async def default_status_every(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", "/v1/collections") and request.param("status") is None:
        query = [*request.query, ("status", "active"), ("status", "archived"), ("status", "highlighted")]
        request = replace(request, query_string=urlencode(query).encode())
    return await forward(request)


@fault(
    "members-for-managers-only",
    "List team members is refused (403) to a plain member of the team",
    ("teams.list_team_members",),
    BEHAVIOUR,
)
async def members_for_managers_only(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", r"/v1/teams/\d+/users") and answer.status == 200:
        own = next((e for e in answer.entries() if e.get("id") == request.user_id), None)
        if own is not None and own.get("kind") == "user":
            return Answer.of(403, {"code": "forbidden", "message": "managers only"})
    return answer
