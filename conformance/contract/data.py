"""What the contract layer knows of the document and the spec: schemathesis' checks and their rules, the
statuses it accepts, what each operation makes and where ids go, and small readers of requests."""

from __future__ import annotations

import re
from typing import Any

from .. import driver
from ..failures import AccessLeak, CheckFailed, NotGone, NotStored, SchemaViolation, WrongStatus
from ..target import PAGE_SIZES, SMALLEST_PAGE_LIMIT
from .pool import as_id

LAYER = "contract"
METHODS = ("get", "put", "post", "delete", "patch")
MESSAGE_CHARS = 700

# ---------------------------------------------------------------------------- the checks
RULES: dict[str, str] = {
    "not_a_server_error": "docs/design.md: never a 5xx, whatever the input",
    "status_code_conformance": "the status is one the document declares for the operation",
    "content_type_conformance": "the Content-Type is one the document declares for the status",
    "response_headers_conformance": (
        "the documented headers are there and valid (X-Total-Count on the lists; --strict: "
        "WWW-Authenticate: Basic on a 401, docs/design.md, status codes)"
    ),
    "response_schema_conformance": "the response matches the document's schema for {status}",
    "negative_data_rejection": "input the document does not allow is rejected with a 4xx",
    "positive_data_acceptance": (
        "input the document allows is accepted: 2xx, or a refusal the data explains (402/403/404/409; "
        "without --strict also 400/422 for a conflict or a page size above the server's maximum, 413)"
    ),
    "ignored_auth": "spec 5: without the API key and user credentials, or with wrong ones, it is a 401",
    "unsupported_method": (
        "a method the document does not list for a path is no server error; --strict: a 405 with an Allow "
        "header (docs/design.md, status codes)"
    ),
    "use_after_free": "a deleted resource stays gone (404) through the document's links",
    "ensure_resource_availability": "a created resource is reachable through the document's links",
}
# The failure each check raises (failures.py), as schemathesis' own checks raise typed failures.
FAILURES: dict[str, type[CheckFailed]] = {
    "not_a_server_error": WrongStatus,
    "status_code_conformance": WrongStatus,
    "content_type_conformance": SchemaViolation,
    "response_headers_conformance": SchemaViolation,
    "response_schema_conformance": SchemaViolation,
    "negative_data_rejection": WrongStatus,
    "positive_data_acceptance": WrongStatus,
    "ignored_auth": AccessLeak,
    "unsupported_method": WrongStatus,
    "use_after_free": NotGone,
    "ensure_resource_availability": NotStored,
}
# schemathesis' checks (conformance/driver.py names them), by what is judged: each generated case, and
# each step of the stateful phase. unsupported_method is the layer's own (_unsupported_methods).
FUZZ_CHECKS = (*driver.RESPONSE_CHECKS, *driver.INPUT_CHECKS)
STATEFUL_CHECKS = (*driver.RESPONSE_CHECKS, *driver.STATEFUL_CHECKS)
# Valid input may still meet the data: a documented 402 (paid field), 403, 404 (an id the
# run deleted), 409 (already liked, address taken). A 400 is excused only by _semantic_400.
POSITIVE_STATUSES = ["2XX", "402", "403", "404", "409"]
# spec 7 gives no status for invalid input: both of its usual statuses are its class
INVALID_INPUT = (400, 422)
# spec 8 sets no maximum page size, so a server may refuse a larger one (target.SMALLEST_PAGE_LIMIT)
STRICT_NEGATIVE_STATUSES = ["400", "404", "413", "415"]
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
SKIPPED_OUTSIDE_STRICT = (
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)

# ---------------------------------------------------------------------------- the data
# What a 201 of each operation made, and the DELETE path that removes it.
CREATES: dict[str, tuple[str, str]] = {
    "collections.create_collection": ("collection", "/v1/collections/{id}"),
    "items.create_item": ("item", "/v1/items/{id}"),
    "items.copy_items": ("item", "/v1/items/{id}"),
    "tags.create_tag": ("tag", "/v1/tags/{id}"),
    "comments.create_comment": ("comment", "/v1/comments/{id}"),
    "reactions.create_reaction": ("reaction", "/v1/reactions/{id}"),
    "emails.create_email_address": ("email", "/v1/emails/{id}"),
    "collections.add_collaborator": ("collaborator", "/v1/collections/{collection_id}/users/{id}"),
    "teams.add_team_member": ("member", "/v1/teams/{team_id}/users/{id}"),
}
DELETE_PATHS = {kind: path for kind, path in CREATES.values() if path.count("{") == 1}
PATH_KINDS = {
    "collection_id": "collection",
    "item_id": "item",
    "tag_id": "tag",
    "comment_id": "comment",
    "reaction_id": "reaction",
    "email_id": "email",
    "team_id": "team",
}
QUERY_KINDS = {"collection_id": "collection", "parent_id": "item", "owner_id": "account"}
BODY_KINDS = {
    # things move and copy only into the first collections made, which are removed last, after
    # every comment, like and tag on what moved in (a newer one would take them along unseen)
    "collection_id": "home",
    "parent_id": "item",
    "items": "item",
    "order": "item",
    "users": "account",
    "id": "account",
    "user_id": "owner",
}
# docs/design.md: a team cannot be a member of a team (400), so a new member is one of the given users
BODY_KINDS_OF = {"teams.add_team_member": {**BODY_KINDS, "id": "user"}}
# Updates of things the run did not create: a valid body is mapped onto the current values.
NO_OP_UPDATES = {"users.update_current_user", "teams.update_team"}
NAMED = {
    "collections.create_collection",
    "collections.update_collection",
    "items.create_item",
    "items.update_item",
    "tags.create_tag",
}
# DELETE operations run after every other, the leaves first.
DELETE_ORDER = ("reaction", "comment", "tag", "email", "member", "account", "item", "collection")


def semantic_400(operation_id: str, case: Any) -> bool:
    """Rules of the spec and docs/design.md that no schema says, so input the schema allows may break them.

    Read from the request only (black-box): two query parameters that go together, a search
    without a term, a parent that must be a stack of the same collection, child ids only for
    a stack, a change of an item's type.
    """
    query = case.query or {}
    if ("ll" in query) != ("radius" in query):
        return True
    if operation_id == "search.search" and not (query.get("q") or query.get("tags")):
        return True  # spec 4.9: q is required if tags is absent
    body = case.body if isinstance(case.body, dict) else {}
    if body.get("parent_id") is not None:
        return True
    if operation_id == "items.update_item" and ("items" in body or "type" in body):
        return True
    # child ids: only a stack has them, and a stack cannot go into a stack
    # (even an empty list of them, on an item that is not a stack)
    children = bool(body.get("items")) or ("items" in body and body.get("type") != "stack")
    return operation_id == "items.create_item" and children


def large_page(case: Any) -> bool:
    """The request asks for a page larger than SMALLEST_PAGE_LIMIT (a server's maximum may be lower)."""
    query = case.query or {}
    for name in PAGE_SIZES:
        value = query.get(name)
        if isinstance(value, int | str) and str(value).isdigit() and int(value) > SMALLEST_PAGE_LIMIT:
            return True
    return False


def created_ids(operation_id: str, body: Any, data: Any) -> list[int]:
    """The ids a 201 made: the answer's, each entry's of a list (a copy), or the member the body named
    (Add team member answers the whole member list)."""
    if operation_id == "teams.add_team_member" and isinstance(body, dict) and isinstance(data, list):
        ident, email = as_id(body.get("id")), body.get("email")
        for entry in data:
            if isinstance(entry, dict) and (
                entry.get("id") == ident or email and entry.get("email") == email
            ):
                return [i for i in [as_id(entry.get("id"))] if i]
        return []
    entries = data if isinstance(data, list) else [data]
    return [i for i in (as_id(e.get("id")) for e in entries if isinstance(e, dict)) if i is not None]


def template_of(path: str, ids: dict[tuple[str, str], str]) -> str:
    """The document's path template of a concrete path (ids are digits)."""
    for _, template in ids:
        if re.fullmatch(re.sub(r"\\\{[^}]+\\\}", r"\\d+", re.escape(template)), path):
            return template
    return path


def deleted_kind(operation: driver.Operation) -> str | None:
    """What a DELETE operation removes (the kind of its last path parameter, or items by body)."""
    if operation.path.endswith("/items"):
        return "item"
    names = re.findall(r"\{([^}]+)\}", operation.path)
    if not names:
        return None
    if names[-1] == "user_id":
        return "member" if operation.path.startswith("/v1/teams/") else "account"
    return PATH_KINDS.get(names[-1])


def flat(value: Any) -> list[Any]:
    """The scalars of nested lists and objects (keys too): what a form encoding may send of them."""
    if isinstance(value, dict):
        return [x for key, item in value.items() for x in [key, *flat(item)]]
    if isinstance(value, list):
        return [x for item in value for x in flat(item)]
    return [value]


def email_like(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[^@\s]+@[^@\s]+", value) is not None
