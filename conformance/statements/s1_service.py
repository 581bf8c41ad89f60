"""Section 1, what the service does: an overview, each sentence mapped to the checks of what it says."""

from __future__ import annotations

from . import SCHEMA, Statement, statement


def _s(slug: str, text: str, *checks: str, reason: str = "") -> Statement:
    return statement("1", slug, text, *checks, reason=reason)


STATEMENTS = [
    _s(
        "collections",
        "The service lets users organise content into collections.",
        "collection_create_fields_persist",
        "item_create_fields_persist",
        "items_filters",
    ),
    _s(
        "collection-owner-items-collaborators",
        "A collection has exactly one owner and many items and collaborators (users).",
        SCHEMA,  # one integer user_id
        "collection_create_fields_persist",  # user_id is the caller
        "collection_owner_fields",
        "items_pages",
        "collaborators_count",
        "collaborator_gains_access",
    ),
    _s(
        "item-collection",
        "An item belongs to one collection.",
        "items_filters",
        "multiple_items_move",
        "stateful_model.list",
    ),
    _s(
        "item-stack",
        "It may also belong to another item of type stack (its parent).",
        "stack_children",
        "stateful_model.stack_items",
    ),
    _s(
        "item-parts",
        "It has comments, reactions, tags and metadata.",
        "comment_notify_stored",
        "deleted_reaction_everywhere",
        "created_tag_everywhere",
        "item_create_fields_persist",
    ),
    _s(
        "team-account",
        "A team behaves like a user account: it has its own username, dashboard and subscription.",
        SCHEMA,  # a team's username, plan, plan_active
        "team_update_persists",
        "team_as_collaborator",
        reason="the dashboard is a web page of the service, not an API resource; what the "
        "subscription allows is not stated",
    ),
    _s(
        "team-kinds",
        "Several users manage it, each as kind user or kind manager.",
        SCHEMA,
        "team_member_added",
        "team_member_kind_persists",
    ),
    _s(
        "managers-only",
        "Some endpoints are limited to managers.",
        "member_cannot_update_team",
        "member_cannot_add_member",
        "member_cannot_update_member",
        "member_cannot_remove_member",
    ),
    _s(
        "team-collaborator",
        "A team can be added to a collection as a collaborator by username or by user id (the team "
        "id is used as that id).",
        "team_as_collaborator",
    ),
    _s("reaction-like", "A reaction is a like on an item.", "likes_count", "stateful_model.like"),
    _s(
        "tags",
        "Tags are attached to items and can be listed across collections.",
        "created_tag_everywhere",
        "tag_counts",
        "tags_listed_across_shared_collections",
    ),
    _s(
        "search",
        "Search covers collections, items and comments.",
        "search_filters",
        "search_total_follows",
    ),
    _s(
        "activity",
        "Activity is a feed of the latest collections, comments, items and reactions created in all "
        "teams and collections that the current user can access.",
        "activity_follows_creation",
        "activity_of_shared_collections",
        "activity_of_team_collections",
        "private_not_in_activity",
        "deleted_collection_everywhere",
    ),
    _s(
        "emails",
        "A user can have several email addresses; the current user manages them.",
        "email_created_listed",
        "email_deleted_gone",
    ),
    _s(
        "paid",
        "Some fields are only available to accounts on a paid plan; they are marked (paid) below.",
        "collection_create_fields_persist",
        "collection_update_fields_persist",
        "paid_plan_required_worded",
        reason="what an account not on a paid plan gets for a paid field is not shown (spec 8); "
        "paid_plan_required_worded judges docs/design.md's 402 with --strict",
    ),
]
