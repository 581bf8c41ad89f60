"""Spec-allowed variants of failures: other statuses and other error bodies where spec 7 shows none.

Registered into tests/conformance/faults.py's VARIANTS, which imports this module. Each
description ends with the spec's sentence that leaves the choice open.
"""

from __future__ import annotations

import re
from dataclasses import replace
from http import HTTPStatus

from tests.conformance.faults import (
    CONFLICTS,
    CREDENTIALS,
    PAID,
    Answer,
    Forward,
    Request,
    World,
    variant,
)

SPEC_7 = (
    'spec 7: "Error response body, error codes and the status codes used for failures (missing or '
    "invalid key, invalid credentials, insufficient permission, not found, invalid input, "
    'paid-plan-only fields): not shown"'
)
SPEC_7_TAKEN = 'spec 7: "The response when an email address or username is not available: not shown"'


def _restatus(answer: Answer, status: int) -> Answer:
    answer.status = status
    return answer


@variant(
    "invalid-input-422",
    f"every 400 (invalid input, by schema or by meaning) is a 422, as Rails answers; {SPEC_7}",
)
async def invalid_input_422(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    return _restatus(answer, 422) if answer.status == 400 else answer


@variant(
    "conflict-as-422",
    f"every 409 (a conflict: taken, already liked, ...) is a 422, as Rails answers a uniqueness "
    f"validation; {SPEC_7}; {SPEC_7_TAKEN}",
    CONFLICTS,
)
async def conflict_as_422(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    return _restatus(answer, 422) if answer.status == 409 else answer


@variant(
    "conflict-as-400",
    f"every 409 (a conflict: taken, already liked, ...) is a 400; {SPEC_7}; {SPEC_7_TAKEN}",
    CONFLICTS,
)
async def conflict_as_400(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    return _restatus(answer, 400) if answer.status == 409 else answer


@variant(
    "error-body-nested",
    f'every error body is {{"error": {{"status": ..., "detail": ...}}}}, not the message object; {SPEC_7}',
    ("items.get_item", "items.update_item"),
)
async def error_body_nested(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if answer.status >= 400:
        data = answer.json()
        detail = data.get("message") if isinstance(data, dict) else None
        answer.with_body({"error": {"status": answer.status, "detail": detail or "failed"}})
        answer.set_header("content-type", "application/json")
    return answer


@variant(
    "error-body-text",
    f"every error body is its status' reason phrase as text/plain; {SPEC_7}",
    ("items.get_item", "items.update_item"),
)
async def error_body_text(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if answer.status >= 400:
        answer.body = HTTPStatus(answer.status).phrase.encode()
        answer.set_header("content-type", "text/plain; charset=utf-8")
    return answer


@variant("error-body-empty", f"every error has an empty body and no Content-Type; {SPEC_7}")
async def error_body_empty(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if answer.status >= 400:
        answer.body = b""
        answer.set_header("content-type", None)
    return answer


# the resource a path is about, and the GET that shows whether it exists for someone
_READABLE = re.compile(r"(/v1/(?:collections|items|teams)/\d+)(?:/.*)?")


@variant(
    "invisible-as-403",
    "a collection, item or team that exists but the caller may not see is a 403, not a 404 (the run's "
    f"other users are asked whether it exists); {SPEC_7}",
    ("items.get_item", "collections.get_collection", "teams.get_team", "collections.update_collection"),
)
async def invisible_as_403(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    match = _READABLE.fullmatch(request.path)
    if answer.status != 404 or match is None or request.user_id is None:
        return answer
    for user in world.users:
        if user.id != request.user_id and (await forward(request.get(match[1]).as_user(user))).status == 200:
            return _restatus(answer, 403)
    return answer


@variant(
    "unauthorized-as-403",
    f"a missing or wrong API key, and missing or wrong user credentials, are a 403 (no 401); {SPEC_7}",
    CREDENTIALS,
)
async def unauthorized_as_403(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if answer.status == 401:
        answer.status = 403
        answer.set_header("www-authenticate", None)
    return answer


@variant(
    "no-challenge",
    "a 401 comes without WWW-Authenticate; spec 5 asks for HTTP Basic Auth and says nothing of the "
    f"challenge (docs/design.md's choice: WWW-Authenticate: Basic, --strict only); {SPEC_7}",
    CREDENTIALS,
)
async def no_challenge(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    answer.set_header("www-authenticate", None)
    return answer


@variant(
    "unavailable-as-200",
    "Get email / username availability answers a taken address or username with 200 and the message "
    f"object of code email_unavailable / username_unavailable (not a 409); {SPEC_7_TAKEN}",
    ("users.get_email_availability", "users.get_username_availability"),
)
async def unavailable_as_200(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", r"/v1/users/(email|username)") and answer.status == 409:
        field = request.path.rsplit("/", 1)[1]
        answer.status = 200
        answer.with_body({"code": f"{field}_unavailable", "message": f"That {field} is taken."})
    return answer


@variant(
    "paid-field-403",
    'a free account sending a paid-only field is a 403 (not a 402); spec 8: "The result when an account '
    'not on a paid plan sends a paid-only field: not shown"',
    PAID,
)
async def paid_field_403(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    return _restatus(answer, 403) if answer.status == 402 else answer


PAID_FIELDS = {
    "archived",
    "highlighted",
    "labels",
    "sort_by",
    "sort_order",
    "view_mode",
    "tags",
    "custom_domain",
}


@variant(
    "paid-field-ignored",
    "a free account's paid-only fields are silently ignored (the rest of the write is done, 2xx), "
    'except Create a tag, which stays refused; spec 8: "The result when an account not on a paid plan '
    'sends a paid-only field: not shown"',
    PAID,
)
async def paid_field_ignored(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    body = request.json_object()
    if answer.status != 402 or request.on("POST", r"/v1/items/\d+/tags") or not body:
        return answer
    return await forward(request.with_json({k: v for k, v in body.items() if k not in PAID_FIELDS}))


@variant(
    "rails-routing",
    "PATCH on a path that has PUT is taken as the PUT, as Rails' resource routes take it, and any other "
    "method a path does not have is a 404 with an HTML page (no route matches), not a 405; the spec "
    f"lists operations, forbids no others and gives no status for a method a path does not have; {SPEC_7}",
    ("Tags",),
)
async def rails_routing(request: Request, forward: Forward, world: World) -> Answer:
    if request.method == "PATCH":
        answer = await forward(replace(request, method="PUT"))
        if answer.status != 405:
            return answer
    answer = await forward(request)
    if answer.status == 405:
        return Answer(404, [(b"content-type", b"text/html; charset=utf-8")], b"<h1>Routing Error</h1>")
    return answer
