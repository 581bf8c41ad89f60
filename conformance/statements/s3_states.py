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
    ),
    _s(
        "status-filter",
        "Collection list status filter | active (default), archived, highlighted",
    ),
    _s(
        "collection-flags",
        "Collection flags | archived (Boolean), highlighted (Boolean)",
        SCHEMA,
    ),
    _s(
        "member-kind",
        "Team member kind | user, manager",
        SCHEMA,
    ),
    _s(
        "item-type",
        "Item type | image, video, audio, link, text, other, stack",
        SCHEMA,
    ),
    _s("transitions", "Transitions that are shown:", reason=CAPTION),
    _s(
        "archive",
        "archived=false | PUT collection with archived=true | paid plan | archived=true | collection is "
        "listed under status archived",
    ),
    _s(
        "unarchive",
        "archived=true | PUT collection with archived=false | paid plan | archived=false",
    ),
    _s(
        "highlight",
        "highlighted=false or true | PUT collection with highlighted set to true or false | paid plan | "
        "highlighted as sent",
    ),
    _s(
        "type",
        "collection type any | PUT collection with type | none stated | type as sent",
    ),
    _s(
        "member-kind-change",
        "member kind user or manager | PUT team member with kind | caller is a team manager | kind as sent",
    ),
    _s(
        "move",
        "item in collection A | PUT items with collection_id | none stated | item in collection B | moves "
        "the items",
    ),
    _s(
        "stack",
        "item at top level | PUT items with parent_id | target is a stack | item is a child of the stack",
    ),
    _s(
        "not-shown",
        "Transitions between team or user status values, and the lifecycle implied by an item's "
        "deleted_at: not shown.",
        reason=NOT_SHOWN,
    ),
]
