"""Section 1, what the service does: an overview, each sentence mapped to the checks of what it says."""

from __future__ import annotations

from . import SCHEMA, Statement, statement


def _s(slug: str, text: str, *checks: str, reason: str = "") -> Statement:
    return statement("1", slug, text, *checks, reason=reason)


STATEMENTS = [
    _s(
        "collections",
        "The service lets users organise content into collections.",
    ),
    _s(
        "collection-owner-items-collaborators",
        "A collection has exactly one owner and many items and collaborators (users).",
        SCHEMA,  # one integer user_id
    ),
    _s(
        "item-collection",
        "An item belongs to one collection.",
    ),
    _s(
        "item-stack",
        "It may also belong to another item of type stack (its parent).",
    ),
    _s(
        "item-parts",
        "It has comments, reactions, tags and metadata.",
    ),
    _s(
        "team-account",
        "A team behaves like a user account: it has its own username, dashboard and subscription.",
        SCHEMA,  # a team's username, plan, plan_active
        reason="the dashboard is a web page of the service, not an API resource; what the "
        "subscription allows is not stated",
    ),
    _s(
        "team-kinds",
        "Several users manage it, each as kind user or kind manager.",
        SCHEMA,
    ),
    _s(
        "managers-only",
        "Some endpoints are limited to managers.",
    ),
    _s(
        "team-collaborator",
        "A team can be added to a collection as a collaborator by username or by user id (the team "
        "id is used as that id).",
    ),
    _s(
        "reaction-like",
        "A reaction is a like on an item.",
    ),
    _s(
        "tags",
        "Tags are attached to items and can be listed across collections.",
    ),
    _s(
        "search",
        "Search covers collections, items and comments.",
    ),
    _s(
        "activity",
        "Activity is a feed of the latest collections, comments, items and reactions created in all "
        "teams and collections that the current user can access.",
    ),
    _s(
        "emails",
        "A user can have several email addresses; the current user manages them.",
    ),
    _s(
        "paid",
        "Some fields are only available to accounts on a paid plan; they are marked (paid) below.",
        reason="what an account not on a paid plan gets for a paid field is not shown (spec 8); "
        "paid_plan_required_worded judges docs/design.md's 402 with --strict",
    ),
]
