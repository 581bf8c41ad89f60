"""Planted faults the access layer (several users) must catch: credentials, and who sees and does
what.

Registered into tests/conformance/faults.py's FAULTS, which imports this module.
"""

from __future__ import annotations

from tests.conformance.faults import ACCESS, COLLECTION, ITEM, Answer, Forward, Request, World, fault


# -- access: credentials
@fault(
    "auth-ignored",
    "a request without user credentials is answered as user 1",
    ("users.get_current_user", "collections.list_collections"),
    ACCESS,
)
async def auth_ignored(request: Request, forward: Forward, world: World) -> Answer:
    if request.header("authorization") is None and request.path != "/v1/ping":
        request = request.as_user(world.users[0])
    return await forward(request)


@fault(
    "wrong-key-accepted",
    "any X-API-Key value is taken for the right one",
    ("auth.ping", "users.get_current_user"),
    ACCESS,
)
async def wrong_key_accepted(request: Request, forward: Forward, world: World) -> Answer:
    if request.header("x-api-key") is not None:
        request = request.with_header("x-api-key", world.api_key.encode())
    return await forward(request)


# -- access: who sees and does what
@fault(
    "cross-user-leak",
    "a stranger (user 3) reading a collection is answered what user 1 sees",
    ("collections.get_collection",),
    ACCESS,
)
async def cross_user_leak(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", COLLECTION) and request.user_id == world.users[2].id:
        request = request.as_user(world.users[0])
    return await forward(request)


@fault(
    "manager-check-missing",
    "a plain team member (user 2) may update the team",
    ("teams.update_team",),
    ACCESS,
)
async def manager_check_missing(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("PUT", r"/v1/teams/\d+") and request.user_id == world.users[1].id:
        request = request.as_user(world.users[0])
    return await forward(request)


@fault(
    "collaborator-removal-ineffective",
    "Remove a collaborator answers 200, and the collaborator keeps access",
    ("collections.remove_collaborator",),
    ACCESS,
)
async def collaborator_removal_ineffective(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("DELETE", COLLECTION + r"/users/(\d+)")
    if not found:
        return await forward(request)
    listed = await forward(request.get(f"/v1/collections/{found[1]}/users"))  # who may see them
    if listed.status != 200:
        return listed
    return Answer.of(200, {"code": "deleted", "message": f"Collaborator {found[2]} was deleted."})


@fault(
    "public-collection-writable",
    "whoever can read a collection may update it (a stranger changes a public collection)",
    ("collections.update_collection",),
    ACCESS,
)
async def public_collection_writable(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("PUT", COLLECTION) and request.user_id == world.users[2].id:
        if (await forward(request.get(request.path))).status == 200:
            request = request.as_user(world.users[0])
    return await forward(request)


@fault("shareable-item-hidden", "a shareable item is readable by its owner only", ("items.get_item",), ACCESS)
async def shareable_item_hidden(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    found = answer.entries()
    if (
        request.on("GET", ITEM)
        and found
        and found[0].get("shareable")
        and found[0].get("user_id") != request.user_id
    ):
        return Answer.of(404, {"code": "not_found", "message": "Item not found."})
    return answer
