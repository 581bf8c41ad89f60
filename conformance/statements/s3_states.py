"""Section 3, states and transitions: each attribute's values and each transition shown."""

from __future__ import annotations

from . import CAPTION, NOT_SHOWN, SCHEMA, Statement, statement


def _s(slug: str, text: str, *checks: str, reason: str = "") -> Statement:
    return statement("3", slug, text, *checks, reason=reason)


STATEMENTS = [
    _s("attributes", "The following state-like attributes exist.", reason=CAPTION),
    _s(
        "collection-type",
        "Collection type (privacy) | private, public, global",
        SCHEMA,
        "collection_update_fields_persist",
        "private_collection_hidden",
        "public_collection_readable",
    ),
    _s(
        "status-filter",
        "Collection list status filter | active (default), archived, highlighted",
        "collections_status_filter",
        "collections_status_default_active",
        "archived_are_listed",
    ),
    _s(
        "collection-flags",
        "Collection flags | archived (Boolean), highlighted (Boolean)",
        SCHEMA,
        "collection_update_fields_persist",
    ),
    _s(
        "member-kind",
        "Team member kind | user, manager",
        SCHEMA,
        "team_member_added",
        "team_member_kind_persists",
    ),
    _s(
        "item-type",
        "Item type | image, video, audio, link, text, other, stack",
        SCHEMA,
        "items_filters",
        "stateful_model.filters",
    ),
    _s("transitions", "Transitions that are shown:", reason=CAPTION),
    _s(
        "archive",
        "archived=false | PUT collection with archived=true | paid plan | archived=true | collection is "
        "listed under status archived",
        "archived_are_listed",
        "collection_update_fields_persist",
        "collection_counts_follow",
        "collections_status_filter",
    ),
    _s(
        "unarchive",
        "archived=true | PUT collection with archived=false | paid plan | archived=false",
        "archived_are_listed",
        "collection_update_fields_persist",
    ),
    _s(
        "highlight",
        "highlighted=false or true | PUT collection with highlighted set to true or false | paid plan | "
        "highlighted as sent",
        "collection_update_fields_persist",
        "collection_counts_flags",
    ),
    _s(
        "type",
        "collection type any | PUT collection with type | none stated | type as sent",
        "collection_update_fields_persist",
        "collection_update_fields_persist",
    ),
    _s(
        "member-kind-change",
        "member kind user or manager | PUT team member with kind | caller is a team manager | kind as sent",
        "team_member_kind_persists",
        "member_cannot_update_member",
    ),
    _s(
        "move",
        "item in collection A | PUT items with collection_id | none stated | item in collection B | moves "
        "the items",
        "multiple_items_move",
        "update_items_moves",
        "stateful_model.move",
        "stateful_model.transfer",
    ),
    _s(
        "stack",
        "item at top level | PUT items with parent_id | target is a stack | item is a child of the stack",
        "update_items_moves",
        "stateful_model.stack_into",
    ),
    _s(
        "not-shown",
        "Transitions between team or user status values, and the lifecycle implied by an item's "
        "deleted_at: not shown.",
        reason=NOT_SHOWN,
    ),
]
