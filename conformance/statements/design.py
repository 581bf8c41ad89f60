"""docs/design.md's rules that checks verify where the spec sets none (its settled gaps): each a
`Statement` of section "design", quoting docs/design.md under `heading` (tests/conformance/
test_statements.py: the quoted text occurs in docs/design.md). Without --strict, conform judges
only what the spec states; a check of one of these either runs with --strict or reads a choice the
spec leaves open as the design made it (docs/spec-open.md)."""

from __future__ import annotations

import re

from . import Statement, statement

DESIGN = "design"

_LISTS = ("collections.list_collections", "items.list_items", "search.search", "activity.list_activity")


def _d(
    heading: str, slug: str, text: str, operations: tuple[str, ...] = (), subjects: tuple[str, ...] = ()
) -> Statement:
    """A rule under `heading` of docs/design.md; its id is "design/<heading>.<slug>"."""
    sid = f"{re.sub(r'[^a-z0-9]+', '-', heading.lower()).strip('-')}.{slug}"
    return statement(DESIGN, sid, text, heading=heading, operations=operations, subjects=subjects)


STATEMENTS = [
    _d(
        "Request encoding",
        "count",
        "`count` is an alias of `per_page` for older clients; when both are sent, `per_page` wins.",
        operations=_LISTS,
        subjects=("count",),
    ),
    _d(
        "Error body",
        "message",
        'Every error is the spec\'s message object (spec 2.13), `{"code": "...", "message": "..."}`, sent '
        "with `Content-Type: application/json`.",
    ),
    _d(
        "Status codes",
        "400",
        "| 400 | invalid input, by schema or by meaning (e.g. a `parent_id` that is not a stack) | "
        "`invalid_input` |",
    ),
    _d(
        "Status codes",
        "401",
        "| 401 | API key or user credentials missing or wrong; always with `WWW-Authenticate: Basic` | "
        "`unauthorized`, `password_incorrect`, `user_invalid` |",
    ),
    _d(
        "Status codes",
        "402",
        "| 402 | a free account sends a paid-only field; nothing changes | `paid_plan_required` |",
    ),
    _d(
        "Status codes",
        "403",
        "| 403 | the caller can see the resource but may not do this | `forbidden` |",
    ),
    _d(
        "Status codes",
        "404",
        "| 404 | unknown id, or a resource the caller may not see | `not_found` |",
    ),
    _d(
        "Status codes",
        "409",
        "| 409 | conflict: address or username taken, duplicate like or member, last manager, primary "
        "email | `conflict`, `email_unavailable`, `username_unavailable`, `last_manager`, `primary_email` |",
    ),
    _d(
        "Status codes",
        "415",
        "| 415 | unsupported media type, or a body without `Content-Type` | `unsupported_media_type` |",
    ),
    _d(
        "Deleted items",
        "gone",
        "The item gets `deleted_at` and drops out of every list, search result and count, and its GET "
        "answers 404.",
    ),
    _d("Deleted items", "collection", "Deleting a collection soft-deletes its items with it."),
    _d(
        "Visibility",
        "private",
        "| `private` | the owner, its collaborators, and members of a team that owns it or collaborates "
        "on it |",
    ),
    _d(
        "Visibility",
        "not-found",
        "Anything the caller may not see is a 404, not a 403.",
    ),
    _d(
        "Stacks",
        "orphans",
        "Deleting a stack without `delete_items` moves its children to top level.",
    ),
    _d(
        "Ordering",
        "items",
        "| a collection's items (`GET /v1/items?collection_id=`, `include=items`) | the collection's "
        "`sort_by`/`sort_order`; by `sort` ascending when `sort_by` is null (manual order) |",
    ),
    _d(
        "Ordering",
        "update-items-order",
        "| Update items order | the items listed come first, in that order, and the rest follow as they "
        "were; `sort` is renumbered 1..n |",
    ),
    _d(
        "Ordering",
        "collections",
        "| collections | by `sort`, unless `sort=name` or `sort=recent` (most recently accessed first) |",
    ),
    _d("Search results", "findable", "An item is findable as soon as it is created."),
    _d(
        "Small rules",
        "prevent-duplicate",
        "| prevent_duplicate | if the collection already has a link item with the same `link` (or link "
        "content), nothing is created and the answer is 200 with that item; otherwise 201 |",
    ),
    _d(
        "Further behaviour",
        "moving-items",
        "| moving items | a stack moves with its children; a child moved without its stack goes to top "
        "level |",
    ),
    _d(
        "Further behaviour",
        "copying-a-stack",
        "| copying a stack | its children are copied into the new stack; a copy belongs to whoever made it |",
    ),
    _d(
        "/auth and /ping",
        "auth-refusals",
        "A wrong password is 401 `password_incorrect`; an unknown email is 401 `user_invalid`.",
    ),
    _d(
        "/auth and /ping",
        "pong",
        '`GET /v1/ping` needs only the API key and answers 200 `{"code": "pong", "message": ...}`.',
    ),
    _d("Paging", "past-end", "A page past the end is `[]`."),
    _d(
        "Paging",
        "per-page",
        "`per_page` defaults to 24, and a value above 100 is clamped to 100 (not refused).",
    ),
    _d(
        "Dashboard domain",
        "form",
        "An account's dashboard domain is its `custom_domain` when set, otherwise `<username>.<server "
        "host>`, where the host is the one the request was addressed to.",
    ),
    _d("Dashboard domain", "filter", "`domain=` on the collection list and get matches either form."),
    _d(
        "Small rules",
        "timestamps",
        "| timestamps | ISO 8601 in UTC with the `Z` designator and whole seconds, e.g. "
        "`2026-11-21T12:00:00Z` |",
    ),
]
