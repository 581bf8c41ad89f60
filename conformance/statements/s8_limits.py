"""Section 8, limits: paging, a team's usage, paid-only fields, and what is not shown."""

from __future__ import annotations

from . import HEADERS, NOT_SHOWN, SCHEMA, Statement, statement


def _s(slug: str, text: str, *checks: str, reason: str = "") -> Statement:
    return statement("8", slug, text, *checks, reason=reason)


STATEMENTS = [
    _s(
        "paging",
        "Lists are paged with page and per_page (and items_page and items_per_page for children); the "
        "total count is in the header X-Total-Count.",
        HEADERS,
        "collections_pages",
        "items_pages",
        "search_filters",
        "activity_pages",
        "embedded_items_filters",
        "stack_include_filters",
        "stateful_model.pages",
    ),
    _s(
        "usage",
        "A team's usage object carries quota and used, both Integers; their unit is not stated.",
        SCHEMA,
        reason="their unit is not stated, so no value is judged",
    ),
    _s(
        "paid",
        "Fields marked (paid) are available only to accounts on a paid plan.",
        "collection_create_fields_persist",  # available to a paid account
        "collection_update_fields_persist",
        "item_create_fields_persist",
        "paid_plan_required_worded",  # --strict: docs/design.md's 402 for a free account
        reason="what an account not on a paid plan gets is not shown (the last sentence of 8)",
    ),
    _s(
        "limits",
        "Rate limits, maximum and default page sizes, upload and content size limits, and item or "
        "collection count limits: not shown.",
        "default_page_size",  # --strict: docs/design.md's choices
        "clamped_page_size",
        reason=NOT_SHOWN,
    ),
    _s(
        "unpaid",
        "The result when an account not on a paid plan sends a paid-only field: not shown.",
        "paid_plan_required_worded",  # --strict: docs/design.md's choice
        reason=NOT_SHOWN,
    ),
]
