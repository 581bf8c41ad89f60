"""Rows of the parameter family: each query parameter of each operation of the document, and
its effect on the answer (spec 4 query tables; docs/design.md Paging, Request encoding,
Ordering, Collaborators, Dashboard domain)."""

from __future__ import annotations

from . import PARAMETER, Rule

_PAGING = "spec 8: lists are paged with page and per_page; docs/design.md, Paging"
_COUNT = "docs/design.md, Request encoding: count is an alias of per_page"


def _row(operation: str, subject: str, rule: str, source: str, *checks: str) -> Rule:
    return Rule(PARAMETER, operation, subject, rule, source, checks)


_LC, _GC = "collections.list_collections", "collections.get_collection"
_LI, _GI = "items.list_items", "items.get_item"
_S, _A = "search.search", "activity.list_activity"

ROWS = [
    # -- List collections (spec 4.1)
    _row(
        _LC,
        "domain",
        "only collections of the account with this dashboard domain",
        "spec 4.1 List collections; docs/design.md, Dashboard domain",
        "collections_domain_filter",
    ),
    _row(
        _LC,
        "include=items",
        "each collection carries its items",
        "spec 4.1, spec 2.1 include",
        "collections_include",
    ),
    _row(
        _LC,
        "include=users",
        "each collection carries its collaborators",
        "spec 4.1, spec 2.1 include",
        "collections_include",
    ),
    _row(
        _LC, "owned", "only collections the caller owns", "spec 4.1 List collections", "collections_filters"
    ),
    _row(
        _LC,
        "owner_id",
        "only collections owned by this user (shared ones included)",
        "spec 4.1; docs/design.md, Collaborators",
        "collections_owner_filter",
    ),
    _row(_LC, "page", "pages partition the list", _PAGING, "collections_pages"),
    _row(_LC, "per_page", "at most per_page entries a page", _PAGING, "collections_pages"),
    _row(_LC, "count", "count pages as per_page does", _COUNT, "collections_count_alias"),
    _row(_LC, "q", "only collections matching the words", "spec 4.1 List collections", "collections_filters"),
    _row(_LC, "sort=name", "by name", "spec 4.1; docs/design.md, Ordering", "collections_sorted_by_name"),
    _row(
        _LC,
        "sort=recent",
        "most recently accessed first",
        "spec 4.1; docs/design.md, Ordering",
        "collections_sorted_by_recent",
    ),
    _row(
        _LC,
        "status=active",
        "the default: archived ones are left out",
        "spec 3 collection list status filter; docs/design.md, Collaborators",
        "collections_status_filter",
    ),
    _row(
        _LC,
        "status=archived",
        "only archived collections",
        "spec 3 transitions: listed under status archived",
        "archived_are_listed",
        "collections_status_filter",
    ),
    _row(
        _LC,
        "status=highlighted",
        "only highlighted collections",
        "spec 3 collection list status filter",
        "collections_status_filter",
    ),
    # -- Get a collection (spec 4.1)
    _row(
        _GC,
        "domain",
        "found only on its owner's dashboard domain",
        "spec 4.1 Get a collection; docs/design.md, Dashboard domain",
        "collection_domain_filter",
    ),
    _row(
        _GC,
        "include=items",
        "the collection carries its live items",
        "spec 4.1, spec 2.1 include",
        "embedded_items_filters",
        "stateful_model",
    ),
    _row(
        _GC,
        "include=users",
        "the collection carries its collaborators, the owner first",
        "spec 4.1; docs/design.md, Collaborators",
        "collection_include_users",
    ),
    _row(
        _GC,
        "items_page",
        "pages the embedded items",
        "spec 4.1; spec 8; docs/design.md, Paging",
        "embedded_items_filters",
    ),
    _row(
        _GC,
        "items_per_page",
        "at most items_per_page embedded items",
        "spec 4.1; spec 8",
        "embedded_items_filters",
    ),
    _row(
        _GC,
        "items_type",
        "only embedded items of this type",
        "spec 4.1 Get a collection",
        "embedded_items_filters",
        "stateful_model",
    ),
    _row(
        _GC,
        "items_not_type",
        "no embedded item of this type",
        "spec 4.1 Get a collection",
        "embedded_items_filters",
    ),
    _row(
        _GC,
        "items_parent_id",
        "only the embedded children of this stack",
        "spec 4.1 Get a collection",
        "embedded_items_filters",
    ),
    _row(
        _GC,
        "log_access",
        "true updates last_accessed_at (and only then)",
        "spec 4.1 Get a collection",
        "log_access_touches",
    ),
    # -- List items (spec 4.2)
    _row(
        _LI,
        "collection_id",
        "only the items of this collection",
        "spec 4.2 List items",
        "items_filters",
        "stateful_model",
    ),
    _row(
        _LI,
        "collection_id (order)",
        "a collection's items in its sort_by/sort_order, else manual order",
        "spec 2.1 sort_by, sort_order; docs/design.md, Ordering",
        "collection_items_sorted",
        "items_order",
    ),
    _row(_LI, "owned", "only items the caller owns", "spec 4.2 List items", "items_filters"),
    _row(_LI, "owner_id", "only items owned by this user", "spec 4.2 List items", "items_owner_filter"),
    _row(
        _LI,
        "parent_id",
        "only the children of this stack",
        "spec 4.2 List items",
        "items_filters",
        "stack_children",
    ),
    _row(
        _LI,
        "ll",
        "only items within radius meters of latitude,longitude",
        "spec 4.2 List items",
        "items_near_filter",
    ),
    _row(_LI, "radius", "the distance in meters from ll", "spec 4.2 List items", "items_near_filter"),
    _row(_LI, "page", "pages partition the list", _PAGING, "items_pages", "page_past_end"),
    _row(
        _LI,
        "per_page",
        "at most per_page entries a page (24 by default, 100 at most)",
        _PAGING,
        "items_pages",
        "default_page_size",
        "clamped_page_size",
    ),
    _row(_LI, "count", "count pages as per_page does", _COUNT, "items_count_alias"),
    _row(_LI, "q", "only items matching the words", "spec 4.2 List items", "items_filters"),
    _row(
        _LI,
        "tags",
        "only items carrying every tag given",
        "spec 4.2 List items; docs/design.md, List items",
        "items_tags_filter",
    ),
    _row(_LI, "type", "only items of this type", "spec 4.2 List items", "items_filters"),
    _row(_LI, "not_type", "no item of this type", "spec 4.2 List items", "items_filters"),
    # -- Get an item (spec 4.2)
    _row(
        _GI, "include=items", "a stack carries its children", "spec 4.2 Get an item", "stack_include_filters"
    ),
    _row(
        _GI,
        "include=stack_items",
        "a stack carries its children",
        "spec 4.2 Get an item; docs/design.md, Stacks",
        "stack_children",
    ),
    _row(
        _GI, "include=parent", "a child carries its stack", "spec 4.2 Get an item", "item_include_relatives"
    ),
    _row(
        _GI,
        "include=siblings",
        "an item carries the others at its level",
        "spec 4.2 Get an item",
        "item_include_relatives",
    ),
    _row(_GI, "items_page", "pages the children", "spec 4.2 Get an item; spec 8", "stack_include_filters"),
    _row(
        _GI,
        "items_per_page",
        "at most items_per_page children",
        "spec 4.2 Get an item; spec 8",
        "stack_include_filters",
    ),
    _row(_GI, "items_type", "only children of this type", "spec 4.2 Get an item", "stack_include_filters"),
    _row(_GI, "items_not_type", "no child of this type", "spec 4.2 Get an item", "stack_include_filters"),
    # -- Users (spec 4.4)
    _row(
        "users.get_current_user",
        "include=emails",
        "the user carries its email addresses",
        "spec 4.4 Get current user; spec 2.9",
        "current_user_includes",
    ),
    _row(
        "users.get_current_user",
        "include=teams",
        "the user carries its teams",
        "spec 4.4 Get current user; spec 2.9",
        "current_user_includes",
    ),
    _row(
        "users.get_current_user",
        "include=teams_total_count",
        "the user carries the number of its teams",
        "spec 4.4 Get current user; spec 2.9",
        "current_user_includes",
    ),
    _row(
        "users.get_email_availability",
        "email",
        "an unused address is available, a taken one is not",
        "spec 4.4, spec 2.13; docs/design.md, Small rules",
        "email_availability",
    ),
    _row(
        "users.get_username_availability",
        "username",
        "an unused username is available, a taken one is not",
        "spec 4.4, spec 2.13; docs/design.md, Small rules",
        "username_availability",
    ),
    # -- Search (spec 4.9)
    _row(
        _S,
        "q",
        "what matches the words: collections, items and comments",
        "spec 4.9; docs/design.md, Search results",
        "search_filters",
        "deleted_item_not_found",
    ),
    _row(_S, "tags", "only results carrying these tags", "spec 4.9", "search_filters"),
    _row(_S, "owned", "only results the caller owns", "spec 4.9", "search_filters"),
    _row(_S, "owner_id", "only results owned by this user", "spec 4.9", "search_filters"),
    _row(_S, "ll", "only results within radius meters of latitude,longitude", "spec 4.9", "search_filters"),
    _row(_S, "radius", "the distance in meters from ll", "spec 4.9", "search_filters"),
    _row(_S, "page", "pages partition the results", "spec 4.9; spec 8", "search_filters"),
    _row(_S, "per_page", "at most per_page results a page", "spec 4.9; spec 8", "search_filters"),
    _row(_S, "count", "count pages as per_page does", _COUNT, "search_count_alias"),
    _row(
        _S,
        "type",
        "only results of this type (collection, comment or an item type)",
        "spec 4.9",
        "search_filters",
    ),
    # -- Activity (spec 4.10)
    _row(_A, "page", "pages partition the feed", "spec 4.10; spec 8", "activity_pages"),
    _row(_A, "per_page", "at most per_page entries a page", "spec 4.10; spec 8", "activity_pages"),
    _row(_A, "count", "count pages as per_page does", _COUNT, "activity_count_alias"),
]
