"""Planted faults of the write families (issue 15 item 4): a write that answers right but is not
stored (persistence), a delete that answers 200 but leaves the thing somewhere (deletion), and a
counter or feed that stops moving (counter). Every answer stays schema-valid: the faults answer
what the mock answered, or a real resource the mock served earlier.

Registered into tests/conformance/faults.py's FAULTS, which imports this module.
"""

from __future__ import annotations

from typing import Any

from tests.conformance.faults import (
    BEHAVIOUR,
    COLLECTION,
    ITEM,
    Answer,
    Forward,
    Request,
    World,
    fault,
    undoing,
    undone,
)

TEAM, MEMBER = r"/v1/teams/(\d+)", r"/v1/teams/(\d+)/users/(\d+)"
COMMENT, COMMENTS = r"/v1/comments/(\d+)", r"/v1/items/(\d+)/comments"
DELETED = {"code": "deleted", "message": "Deleted."}


def _overlay(answer: Answer, sent: dict[str, Any]) -> Answer:
    """The answer edited to show the fields as sent (what a server that lost them would claim)."""
    return answer.edit(lambda thing: thing.update({k: v for k, v in sent.items() if k in thing}))


# ---------------------------------------------------------------------- persistence
def _dropping(method: str, pattern: str, *names: str) -> Any:
    """A handler that leaves these body fields out of what it stores, and answers them as sent."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        body = request.json_object()
        if not request.on(method, pattern) or not set(names) & set(body):
            return await forward(request)
        answer = await forward(request.with_json({k: v for k, v in body.items() if k not in names}))
        return _overlay(answer, {k: v for k, v in body.items() if k in names})

    return handler


fault(
    "collection-flags-not-stored",
    "Update a collection answers labels, view_mode, sort_by, sort_order, highlighted as sent; none stored",
    ("collections.update_collection",),
    BEHAVIOUR,
)(_dropping("PUT", COLLECTION, "labels", "view_mode", "sort_by", "sort_order", "highlighted"))

fault(
    "collection-thumbnail-not-stored",
    "Create a collection answers the thumbnail and view_mode sent, but stores neither",
    ("collections.create_collection",),
    BEHAVIOUR,
)(_dropping("POST", "/v1/collections", "thumbnail", "view_mode"))

fault(
    "invited-users-ignored",
    "Create a collection ignores users: nobody is made a collaborator",
    ("collections.create_collection",),
    BEHAVIOUR,
)(_dropping("POST", "/v1/collections", "users"))

fault(
    "item-update-partly-lost",
    "Update an item answers shareable, sort, link and thumbnail as sent; none is stored",
    ("items.update_item",),
    BEHAVIOUR,
)(_dropping("PUT", ITEM, "shareable", "sort", "link", "thumbnail"))

fault(
    "item-sort-not-stored",
    "Create an item answers the sort sent, but stores the next position",
    ("items.create_item",),
    BEHAVIOUR,
)(_dropping("POST", COLLECTION + "/items", "sort"))

fault(
    "member-added-as-user",
    "Add team member answers the kind sent, but stores every new member as kind user",
    ("teams.add_team_member",),
    BEHAVIOUR,
)(_dropping("POST", TEAM + "/users", "kind"))


@fault(
    "collaborator-by-email-ignored",
    "Add a collaborator by email or username answers 201 with the collaborator, and stores nothing",
    ("collections.add_collaborator",),
    BEHAVIOUR,
)
async def collaborator_by_email_ignored(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("POST", COLLECTION + "/users")
    answer = await forward(request)
    if found and "id" not in request.json_object() and answer.status == 201:
        added = answer.json() if isinstance(answer.json(), dict) else {}
        await forward(request.to("DELETE", f"/v1/collections/{found[1]}/users/{added.get('id')}"))
    return answer


@fault(
    "comment-edit-not-stored",
    "Update a comment answers the new body, and the comment keeps its old one",
    ("comments.update_comment",),
    BEHAVIOUR,
)
async def comment_edit_not_stored(request: Request, forward: Forward, world: World) -> Answer:
    bodies = world.note("bodies", {})
    answer = await forward(request)
    if request.on("POST", COMMENTS) and answer.status == 201:
        made = answer.json()
        bodies[made.get("id")] = made.get("body")
    found = request.on("PUT", COMMENT)
    if found and answer.status == 200 and int(found[1]) in bodies:
        await forward(request.with_json({"body": bodies[int(found[1])]}))
    return answer


fault(
    "team-update-not-stored",
    "Update a team answers the new values, and the team keeps its old ones",
    ("teams.update_team",),
    BEHAVIOUR,
)(undoing(TEAM, lambda old, sent: {k: old[k] for k in sent if k in old}))


@fault(
    "member-kind-not-stored",
    "Update team member answers the members with the kind as sent, and the member keeps the old kind",
    ("teams.update_team_member",),
    BEHAVIOUR,
)
async def member_kind_not_stored(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("PUT", MEMBER)
    if not found:
        return await forward(request)

    def back(old: Any, sent: dict[str, Any]) -> dict[str, Any]:
        kinds = {m.get("id"): m.get("kind") for m in old if isinstance(m, dict)}
        return {"kind": kinds.get(int(found[2]), sent.get("kind"))}

    return await undone(request, forward, f"/v1/teams/{found[1]}/users", back)


fault(
    "user-update-not-stored",
    "Update current user answers the new name, username and email; the user keeps the old ones",
    ("users.update_current_user",),
    BEHAVIOUR,
)(undoing("/v1/users/me", lambda old, sent: {k: old[k] for k in ("name", "username", "email") if k in sent}))


@fault(
    "email-not-stored",
    "Create an email address answers 201 with the address, and stores nothing",
    ("emails.create_email_address",),
    BEHAVIOUR,
)
async def email_not_stored(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    made = answer.json()
    if request.on("POST", "/v1/emails") and answer.status == 201 and isinstance(made, dict):
        await forward(request.to("DELETE", f"/v1/emails/{made.get('id')}"))
    return answer


# ---------------------------------------------------------------------- deletion
async def _exists(request: Request, forward: Forward, path: str, thing_id: int) -> bool:
    listed = (await forward(request.get(path))).entries()
    return any(e.get("id") == thing_id for e in listed)


def _kept(pattern: str, listing: str) -> Any:
    """A handler that answers a delete 200 code deleted, and deletes nothing, when the thing (the
    last id of the path) is in the list at `listing` (formatted with the path's ids)."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        found = request.on("DELETE", pattern)
        if found and await _exists(
            request, forward, listing.format(*found.groups()), int(found.groups()[-1])
        ):
            return Answer.of(200, DELETED)
        return await forward(request)

    return handler


fault(
    "deleted-email-kept",
    "Delete an email address answers 200 code deleted, and the address stays",
    ("emails.delete_email_address",),
    BEHAVIOUR,
)(_kept(r"/v1/emails/(\d+)", "/v1/emails"))

fault(
    "removed-member-kept",
    "Remove team member answers 200 code deleted, and the member stays in the team",
    ("teams.remove_team_member",),
    BEHAVIOUR,
)(_kept(MEMBER, "/v1/teams/{0}/users"))


@fault(
    "delete-items-ignored",
    "Delete items (of a collection) answers 200 code deleted, and deletes nothing",
    ("collections.delete_items",),
    BEHAVIOUR,
)
async def delete_items_ignored(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("DELETE", COLLECTION + "/items") and request.ids():
        if (await forward(request.get(request.path[: -len("/items")]))).status == 200:
            return Answer.of(200, DELETED)
    return await forward(request)


@fault(
    "deleted-item-still-embedded",
    "a deleted item stays in its collection's include=items and its stack's include=stack_items",
    ("items.delete_item",),
    BEHAVIOUR,
)
async def deleted_item_still_embedded(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", {})
    if request.on("DELETE", ITEM):
        before = (await forward(request.get(request.path))).entries()
        answer = await forward(request)
        if answer.status == 200 and before:
            ghosts[before[0]["id"]] = before[0]
        return answer
    answer = await forward(request)
    found = request.on("GET", COLLECTION) or request.on("GET", ITEM)
    if found and ghosts:
        key, owner = (
            ("items", "collection_id") if "collections" in request.path else ("stack_items", "parent_id")
        )

        def haunt(thing: dict[str, Any]) -> None:
            if isinstance(thing.get(key), list):
                known = {e.get("id") for e in thing[key] if isinstance(e, dict)}
                thing[key] += [
                    g for g in ghosts.values() if g.get(owner) == thing.get("id") and g["id"] not in known
                ]

        answer.edit(haunt)
    return answer


@fault(
    "deleted-tag-kept-on-item",
    "Delete a tag answers 200, and the item still shows the tag in its tags",
    ("tags.delete_tag",),
    BEHAVIOUR,
)
async def deleted_tag_kept_on_item(request: Request, forward: Forward, world: World) -> Answer:
    seen, ghosts = world.note("seen", {}), world.note("ghosts", {})
    answer = await forward(request)
    listed = request.on("GET", ITEM + "/tags")
    if listed and answer.status == 200:
        seen.update({t.get("id"): (int(listed[1]), t) for t in answer.entries()})
    gone = request.on("DELETE", r"/v1/tags/(\d+)")
    if gone and answer.status == 200 and int(gone[1]) in seen:
        item_id, tag = seen[int(gone[1])]
        ghosts.setdefault(item_id, []).append(tag)
    if request.on("GET", ITEM) and ghosts:
        answer.edit(
            lambda item: item.update(tags=[*(item.get("tags") or []), *ghosts.get(item.get("id"), [])])
        )
    return answer


def _words(text: str) -> set[str]:
    return set(text.casefold().split())


def _haunted(request: Request, answer: Answer, ghosts: list[dict[str, Any]]) -> Answer:
    """A search answer with the ghosts (search results kept from before a delete) its q finds."""
    q = request.param("q")
    if request.on("GET", "/v1/search") and q and isinstance(answer.json(), list):
        extra = [g for g in ghosts if _words(q) <= _words(g.get("name") or "")]
        answer.with_body(answer.json() + extra).move_total(len(extra))
    return answer


@fault(
    "deleted-comment-still-found",
    "a deleted comment is still found by search (the index keeps it)",
    ("comments.delete_comment",),
    BEHAVIOUR,
)
async def deleted_comment_still_found(request: Request, forward: Forward, world: World) -> Answer:
    bodies, ghosts = world.note("bodies", {}), world.note("ghosts", [])
    gone = request.on("DELETE", COMMENT)
    if gone and int(gone[1]) in bodies:
        hits = (await forward(request.get("/v1/search", q=bodies[int(gone[1])]))).entries()
        ghosts += [h for h in hits if h.get("type") == "comment" and h.get("id") == int(gone[1])]
    answer = await forward(request)
    if request.on("POST", COMMENTS) and answer.status == 201:
        made = answer.json()
        bodies[made.get("id")] = made.get("body")
    return _haunted(request, answer, ghosts)


@fault(
    "deleted-collection-still-found",
    "a deleted collection is still found by search",
    ("collections.delete_collection",),
    BEHAVIOUR,
)
async def deleted_collection_still_found(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", [])
    gone = request.on("DELETE", COLLECTION)
    if gone:
        before = (await forward(request.get(request.path))).entries()
        if before:
            hits = (await forward(request.get("/v1/search", q=before[0].get("name")))).entries()
            ghosts += [h for h in hits if h.get("type") == "collection" and h.get("id") == int(gone[1])]
    answer = await forward(request)
    return _haunted(request, answer, ghosts)


@fault(
    "deleted-reaction-in-activity",
    "a deleted like stays in the activity feed",
    ("reactions.delete_reaction",),
    BEHAVIOUR,
)
async def deleted_reaction_in_activity(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", [])
    gone = request.on("DELETE", r"/v1/reactions/(\d+)")
    if gone:
        feed = (await forward(request.get("/v1/activity", per_page=100))).entries()
        ghosts += [e for e in feed if e.get("type") == "reaction" and e.get("id") == int(gone[1])]
    answer = await forward(request)
    if request.on("GET", "/v1/activity") and request.param("page") in (None, "1") and ghosts:
        listed = answer.json() if isinstance(answer.json(), list) else []
        answer.with_body((ghosts + listed)[: int(request.param("per_page") or 24)]).move_total(len(ghosts))
    return answer


# ---------------------------------------------------------------------- counters and feeds
def _frozen(pattern: str, header: str | None = None, field: str | None = None) -> Any:
    """A handler that answers the first value of a header (or of a field of an object answer) it
    gave each user for each query, forever after."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        answer = await forward(request)
        if not request.on("GET", pattern) or answer.status != 200:
            return answer
        first = world.note("first", {}).setdefault((request.user_id, request.path, request.query_string), {})
        if header is not None and answer.header(header) is not None:
            answer.set_header(header, first.setdefault(header, answer.header(header)))
        data = answer.json()
        if field is not None and isinstance(data, dict) and field in data:
            answer.with_body({**data, field: first.setdefault(field, data[field])})
        return answer

    return handler


fault(
    "activity-total-frozen",
    "List activity's X-Total-Count stays at the first value each query got",
    ("activity.list_activity",),
    BEHAVIOUR,
)(_frozen("/v1/activity", header="x-total-count"))

fault(
    "search-total-frozen",
    "search's X-Total-Count stays at the first value each query got",
    ("search.search",),
    BEHAVIOUR,
)(_frozen("/v1/search", header="x-total-count"))

fault(
    "highlighted-count-frozen",
    "Get collections count's highlighted never moves from its first value",
    ("collections.get_collections_count",),
    BEHAVIOUR,
)(_frozen("/v1/collections/count", field="highlighted"))

fault(
    "teams-total-count-frozen",
    "Get current user's teams_total_count never moves from its first value",
    ("teams.add_team_member",),
    BEHAVIOUR,
)(_frozen("/v1/users/me", field="teams_total_count"))


@fault(
    "comments-not-in-activity",
    "new comments never show in the activity feed (entries and X-Total-Count)",
    ("activity.list_activity",),
    BEHAVIOUR,
)
async def comments_not_in_activity(request: Request, forward: Forward, world: World) -> Answer:
    made = world.note("made", set())
    answer = await forward(request)
    if request.on("POST", COMMENTS) and answer.status == 201:
        made.add(answer.json().get("id"))
    listed = answer.json()
    if request.on("GET", "/v1/activity") and made and isinstance(listed, list):
        answer.with_body([e for e in listed if not (e.get("type") == "comment" and e.get("id") in made)])
        total = int(answer.header("x-total-count") or 0) - len(made)
        answer.set_header("x-total-count", str(max(total, len(answer.json()))))
    return answer
