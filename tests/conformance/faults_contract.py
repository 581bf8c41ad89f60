"""Planted faults the contract layer (schemathesis) must catch: shapes, statuses, headers,
content types, errors.

Registered into tests/conformance/faults.py's FAULTS, which imports this module.
"""

from __future__ import annotations

import itertools

from tests.conformance.faults import (
    COLLECTION,
    COLLECTIONS,
    CONTRACT,
    ITEM,
    ITEMS,
    Answer,
    Forward,
    Request,
    World,
    editing,
    fault,
)

_serial = itertools.count(1)


# -- the contract: shapes, statuses, headers, content types, errors
fault(
    "items-total-count-dropped",
    "collections are answered without their required items_total_count",
    ("collections.list_collections", "collections.get_collection"),
    CONTRACT,
)(editing("GET", COLLECTIONS, lambda collection: collection.pop("items_total_count", None)))

fault("item-id-as-string", "Get an item answers the id as a string", ("items.get_item",), CONTRACT)(
    editing("GET", ITEM, lambda item: item.update(id=str(item.get("id"))))
)


@fault(
    "create-answers-200",
    "Create a collection answers 200 instead of 201",
    ("collections.create_collection",),
    CONTRACT,
)
async def create_answers_200(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("POST", "/v1/collections") and answer.status == 201:
        answer.status = 200
    return answer


@fault(
    "total-count-header-missing",
    "List items answers without the X-Total-Count header",
    ("items.list_items",),
    CONTRACT,
)
async def total_count_header_missing(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/items"):
        answer.set_header("x-total-count", None)
    return answer


@fault("wrong-content-type", "List teams answers its JSON as text/html", ("teams.list_teams",), CONTRACT)
async def wrong_content_type(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/teams"):
        answer.set_header("content-type", "text/html; charset=utf-8")
    return answer


@fault(
    "server-error-when-paged",
    "List activity crashes (500) when page or per_page is given",
    ("activity.list_activity",),
    CONTRACT,
)
async def server_error_when_paged(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", "/v1/activity") and (request.param("page") or request.param("per_page")):
        return Answer(500, [(b"content-type", b"text/plain")], b"Internal Server Error")
    return await forward(request)


fault(
    "nullable-violation",
    "an item without a source link answers link null instead of an empty string",
    ("items.list_items", "items.get_item"),
    CONTRACT,
)(editing("GET", ITEMS, lambda item: item.update(link=item.get("link") or None)))


@fault(
    "collection-as-object",
    "Get a collection answers the collection itself, not an array of one",
    ("collections.get_collection",),
    CONTRACT,
)
async def collection_as_object(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    found = answer.entries()
    if request.on("GET", COLLECTION) and len(found) == 1:
        answer.with_body(found[0])
    return answer


@fault(
    "invalid-input-accepted",
    "Create an email address takes a JSON body without a valid address (stores a placeholder)",
    ("emails.create_email_address",),
    CONTRACT,
)
async def invalid_input_accepted(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    valid = set(body) == {"email"} and isinstance(body["email"], str) and "@" in body["email"]
    if request.on("POST", "/v1/emails") and request.is_json and not valid:
        request = request.with_json({"email": f"placeholder{next(_serial)}@example.com"})
    return await forward(request)


@fault(
    "no-405",
    "a method a path does not have is answered 404 instead of 405 with Allow (strict: the spec gives no "
    "status for it, docs/design.md's status codes do; Rails answers 404 so)",
    ("tags.list_tags",),
    CONTRACT,
    strict=True,
)
async def no_405(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    return Answer.of(404, {"code": "not_found", "message": "Not found."}) if answer.status == 405 else answer


@fault(
    "challenge-missing",
    "a 401 comes without the WWW-Authenticate challenge (strict: the spec does not name the header, "
    "docs/design.md's status codes do)",
    ("users.get_current_user",),
    CONTRACT,
    strict=True,
)
async def challenge_missing(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if answer.status == 401:
        answer.set_header("www-authenticate", None)
    return answer
