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
        reason="what an account not on a paid plan gets is not shown (the last sentence of 8)",
    ),
    _s(
        "limits",
        "Rate limits, maximum and default page sizes, upload and content size limits, and item or "
        "collection count limits: not shown.",
        reason=NOT_SHOWN,
    ),
    _s(
        "unpaid",
        "The result when an account not on a paid plan sends a paid-only field: not shown.",
        reason=NOT_SHOWN,
    ),
]
