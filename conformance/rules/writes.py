"""Rows of the write families (issue 15): every writable field of every create and update and the
later, different read that must show it (persistence); every delete and each place the thing
must disappear from (deletion); every counter and feed and the events that must move it
(counter). Sources: spec sections 2-4 and docs/design.md, read line by line.

A persistence row's subject is the body field as the document names it. A deletion or counter
row names the operation whose call is the event; its subject is where the effect must show.
"""

from __future__ import annotations

from . import COUNTER, DELETION, PERSISTENCE, Rule


def _p(operation: str, subject: str, rule: str, source: str, *checks: str) -> Rule:
    return Rule(PERSISTENCE, operation, subject, rule, source, tuple(dict.fromkeys(checks)))


def _d(operation: str, subject: str, rule: str, source: str, *checks: str) -> Rule:
    return Rule(DELETION, operation, subject, rule, source, checks)


def _c(operation: str, subject: str, rule: str, source: str, *checks: str) -> Rule:
    return Rule(COUNTER, operation, subject, rule, source, checks)


_CC, _UC, _DC = (
    "collections.create_collection",
    "collections.update_collection",
    "collections.delete_collection",
)
_CI, _UI, _DI = "items.create_item", "items.update_item", "items.delete_item"
_UIS, _DIS = "collections.update_items", "collections.delete_items"
_MOVE, _COPY = "items.update_multiple_items", "items.copy_items"
_AC, _RC = "collections.add_collaborator", "collections.remove_collaborator"
_CM, _UM, _DM = "comments.create_comment", "comments.update_comment", "comments.delete_comment"
_CR, _DR = "reactions.create_reaction", "reactions.delete_reaction"
_CT, _DT = "tags.create_tag", "tags.delete_tag"
_UT, _AT, _UTM, _RTM = (
    "teams.update_team",
    "teams.add_team_member",
    "teams.update_team_member",
    "teams.remove_team_member",
)
_UME, _CE, _DE = "users.update_current_user", "emails.create_email_address", "emails.delete_email_address"

_S_COLL = "spec 4.1 Create and update a collection body; spec 2.1"
_S_PAID = "spec 4.1 (paid); spec 2.1"
_S_ITEM = "spec 4.2 Create and update an item body; spec 2.2"
_S_TEAM = "spec 4.3 Update a team body; spec 2.6 team detail and list entry"
_S_ME = "spec 4.4 Update current user; spec 2.9"
_S_GONE = "docs/design.md, Deleted items: drops out of every list, search result and count"
_S_FEED = "spec 1, 4.10 Activity: the latest collections, comments, items and reactions created"
_S_TOTAL = "spec 4 conventions: X-Total-Count on list collections, list items, search and list activity"

_COLL_READS = "a later GET and its List collections entry show it as sent"
_ITEM_READS = "a later GET and its List items entry show it as sent"

ROWS: list[Rule] = [
    # ------------------------------------------------------------------ persistence: collections
    *[
        _p(op, f, _COLL_READS, _S_COLL, *checks)
        for op in (_CC, _UC)
        for f, checks in (
            (name, (f"collection_{'create' if op == _CC else 'update'}_fields_persist",))
            for name in ("name", "type", "description")
        )
    ],
    *[
        _p(op, f, _COLL_READS + " (a thumbnail is set: the server may answer its own URL)", _S_COLL, check)
        for op, check in (
            (_CC, "collection_create_fields_persist"),
            (_UC, "collection_update_fields_persist"),
        )
        for f in ("thumbnail",)
    ],
    *[
        _p(op, "user_id", "the owner's user id: sent as the caller, read back as user_id", _S_COLL, check)
        for op, check in (
            (_CC, "collection_create_fields_persist"),
            (_UC, "collection_update_fields_persist"),
        )
    ],
    *[
        _p(op, f, _COLL_READS + ", both ways on update", _S_PAID, check)
        for op, check in (
            (_CC, "collection_create_fields_persist"),
            (_UC, "collection_update_fields_persist"),
        )
        for f in ("labels", "sort_by", "sort_order", "view_mode")
    ],
    _p(
        _CC,
        "archived",
        "a later GET shows it; listed under its status",
        "spec 3; " + _S_PAID,
        "collection_create_fields_persist",
    ),
    _p(
        _CC,
        "highlighted",
        "a later GET shows it; listed under status=highlighted",
        "spec 3; " + _S_PAID,
        "collection_create_fields_persist",
    ),
    _p(
        _UC,
        "archived",
        "true and false persist; an archived collection is listed under status=archived",
        "spec 3 transitions; " + _S_PAID,
        "collection_update_fields_persist",
        "archived_are_listed",
    ),
    _p(
        _UC,
        "highlighted",
        "true and false persist; listed under status=highlighted",
        "spec 3 transitions; " + _S_PAID,
        "collection_update_fields_persist",
    ),
    _p(
        _CC,
        "users",
        "each id becomes a collaborator: List collaborators, their own GET",
        "spec 4.1 users; docs/design.md, Small rules: invitations",
        "collection_users_invited",
    ),
    _p(
        _UC,
        "users",
        "each id becomes a collaborator: List collaborators, their own GET",
        "spec 4.1 users; docs/design.md, Small rules: invitations",
        "collection_users_invited",
    ),
    # ------------------------------------------------------------------ persistence: items
    *[
        _p(
            _CI,
            f,
            _ITEM_READS,
            _S_ITEM,
            "item_create_fields_persist",
            "item_create_fields_persist",
            "stateful_model.create",
        )
        for f in (
            "type",
            "content",
            "description",
            "latitude",
            "longitude",
            "link",
            "metadata",
            "name",
            "shareable",
        )
    ],
    _p(_CI, "sort", _ITEM_READS + " (its position)", _S_ITEM, "item_create_fields_persist"),
    _p(_CI, "thumbnail", _ITEM_READS + " (set)", _S_ITEM, "item_create_fields_persist"),
    _p(
        _CI,
        "tags",
        _ITEM_READS + "; List item tags",
        "spec 4.2 tags (paid)",
        "item_create_fields_persist",
        "stateful_model.create",
    ),
    _p(
        _CI,
        "items",
        "the ids become the stack's children: include=stack_items, parent_id filter, their GET",
        "spec 4.2 items; spec 2.2 parent_id",
        "stack_children",
        "stateful_model.stack_new",
    ),
    _p(
        _CI,
        "parent_id",
        "the item is a child of that stack: its GET, include=stack_items",
        "spec 4.2 parent_id; spec 3 stacking",
        "stack_children",
        "stateful_model.create",
    ),
    _p(
        _CI,
        "prevent_duplicate",
        "with an identical link item, no second one is stored",
        "spec 4.2; spec 4.11 (effect not shown); docs/design.md, Small rules",
        "item_prevent_duplicate",
    ),
    *[
        _p(
            _UI,
            f,
            _ITEM_READS,
            _S_ITEM,
            "item_update_fields_persist",
            "item_update_fields_persist",
            "stateful_model.update",
        )
        for f in ("name", "description", "content", "latitude", "longitude", "metadata")
    ],
    *[
        _p(_UI, f, _ITEM_READS, _S_ITEM, "item_update_fields_persist")
        for f in ("type", "link", "shareable", "sort", "thumbnail")
    ],
    _p(
        _UI,
        "tags",
        "replace the item's tags: GET, List item tags",
        "spec 4.2 tags (paid)",
        "item_update_fields_persist",
    ),
    _p(
        _UI,
        "items",
        "on a stack: the ids become its children (include=stack_items, their parent_id)",
        "spec 4.2 items",
        "item_update_fields_persist",
    ),
    _p(
        _UI,
        "parent_id",
        "the item moves into that stack: GET, List items entry",
        "spec 4.2; spec 3 stacking",
        "item_update_fields_persist",
        "stateful_model.update",
    ),
    _p(
        _UI,
        "prevent_duplicate",
        "its effect on an update is not shown; sent with the rest, the rest persists",
        "spec 4.2; spec 4.11",
        "item_update_fields_persist",
    ),
    # ------------------------------------------------------------------ persistence: moves, order, copies
    _p(
        _UIS,
        "order",
        "the listed items take those positions (their sort, the list order)",
        "spec 4.1 Update items order; docs/design.md, Ordering",
        "items_order",
        "stateful_model.order",
    ),
    _p(
        _UIS,
        "items",
        "the items named are the ones moved, stacked or tagged",
        "spec 4.1 Update items",
        "update_items_moves",
        "update_items_tags",
        "stateful_model.transfer",
    ),
    _p(
        _UIS,
        "collection_id",
        "the items are in that collection: GET, both collections' lists",
        "spec 4.1 Update items; spec 3",
        "update_items_moves",
        "stateful_model.transfer",
    ),
    _p(
        _UIS,
        "parent_id",
        "the items are children of that stack: GET, include=stack_items",
        "spec 4.1 Update items; spec 3",
        "update_items_moves",
        "stateful_model.stack_into",
    ),
    _p(
        _UIS,
        "tags",
        "the tags are added to the items: their GET",
        "spec 4.1 Update items (tags)",
        "update_items_tags",
        "stateful_model.tag_items",
    ),
    _p(
        _MOVE,
        "items",
        "the items named move, with tags and metadata",
        "spec 4.2 Update multiple items",
        "multiple_items_move",
        "stateful_model.move",
    ),
    _p(
        _MOVE,
        "collection_id",
        "the items are in the destination: GET, lists, counts",
        "spec 4.2 Update multiple items; spec 3",
        "multiple_items_move",
        "stateful_model.move",
    ),
    _p(
        _COPY,
        "items",
        "a copy of each, with tags and metadata, without comments",
        "spec 4.2 Copy items",
        "copies",
        "stateful_model.copy",
    ),
    _p(
        _COPY,
        "collection_id",
        "the copies are there; when blank, in the current collection",
        "spec 4.2 Copy items",
        "copies",
        "copy_counts_follow",
        "stateful_model.copy",
    ),
    # ------------------------------------------------------------------ persistence: people
    _p(
        _AC,
        "id",
        "the account is listed by List collaborators and reads the collection",
        "spec 4.1",
        "collaborators_count",
        "collaborator_gains_access",
    ),
    *[
        _p(
            _AC,
            f,
            "the account it names is listed by List collaborators and reads the collection",
            "spec 4.1 Add a collaborator",
            "collaborator_by_email_or_username",
        )
        for f in ("email", "username")
    ],
    *[
        _p(
            _AT,
            f,
            "the user is a member: List team members, their List teams, teams_total_count",
            "spec 4.3 Add team member; spec 2.9",
            "team_member_added",
        )
        for f in ("id", "email")
    ],
    _p(
        _AT,
        "kind",
        "manager as sent, user when left out: List team members, the user's List teams",
        "spec 4.3 Add team member",
        "team_member_added",
    ),
    _p(
        _UTM,
        "kind",
        "as sent: List team members, Get a team's users and user_kind, the user's List teams",
        "spec 3 member kind; spec 4.3 Update team member",
        "team_member_kind_persists",
    ),
    *[
        _p(_UT, f, "a later Get a team and its List teams entry show it", _S_TEAM, "team_update_persists")
        for f in ("billing_email", "custom_domain", "name", "username")
    ],
    *[
        _p(_UT, f, "a later Get a team shows it", _S_TEAM, "team_update_persists")
        for f in ("labels", "sort_by", "sort_order", "view_mode")
    ],
    _p(
        _UME,
        "name",
        "Get current user; the user_name of a collection they own",
        _S_ME + ", 2.1",
        "current_user_update_persists",
    ),
    _p(
        _UME,
        "username",
        "Get current user; the username of a collection they own",
        _S_ME + ", 2.1",
        "current_user_update_persists",
    ),
    _p(
        _UME,
        "email",
        "the primary address: Get current user, a collection's user_email, List email addresses",
        _S_ME + ", 2.1, 4.7",
        "current_user_update_persists",
    ),
    _p(
        _UME,
        "custom_domain",
        "the custom_domain of a collection they own (owner's data)",
        _S_ME + " (paid), 2.1",
        "current_user_update_persists",
    ),
    *[
        _p(
            _UME,
            f,
            "no read of the spec shows a user's " + f + " (spec 2.9): not observable, so not sent "
            "(the suite could not put it back); the readable fields of the same update are checked",
            _S_ME + " (paid)",
            "current_user_update_persists",
        )
        for f in ("labels", "sort_by", "sort_order", "view_mode")
    ],
    _p(
        _CE,
        "email",
        "List email addresses and include=emails show it; availability no longer says available",
        "spec 4.7; spec 2.9 include; spec 4.4",
        "email_created_listed",
    ),
    # ------------------------------------------------------------------ persistence: comments, tags
    _p(
        _CM,
        "body",
        "List comments shows it; the item's comments array holds it",
        "spec 4.5; spec 2.2",
        "comment_notify_stored",
        "stateful_model.comment_new",
    ),
    _p(
        _CM,
        "notify",
        "a comment made with notify=true is stored like any other (the notification itself "
        "is not observable through the API)",
        "spec 4.5; spec 6",
        "comment_notify_stored",
    ),
    _p(
        _UM,
        "body",
        "List comments shows the new body; search finds it by the new words, not the old",
        "spec 4.5; spec 4.9",
        "comment_update_persists",
        "stateful_model.comment_edit",
    ),
    _p(
        _CT,
        "name",
        "List item tags, the item's tags, tag lists with counts, the tags filter, search tags",
        "spec 4.8; spec 4.2; spec 2.5; spec 4.9",
        "created_tag_everywhere",
        "stateful_model.tag_new",
    ),
    # ------------------------------------------------------------------ deletion
    _d(
        _DC,
        "get",
        "no longer served (404 under --strict)",
        "spec 4.1; " + _S_GONE,
        "deleted_collection_is_gone",
        "deleted_collection_404",
    ),
    _d(_DC, "List collections", "no longer listed", "spec 4.1", "deleted_collection_is_gone"),
    _d(_DC, "X-Total-Count of List collections", "the total drops", _S_TOTAL, "collections_total_follows"),
    _d(
        _DC,
        "Get collections count",
        "total and owned drop by one",
        "spec 4.1 Get collections count",
        "deleted_collection_is_gone",
        "collection_counts_follow",
    ),
    _d(
        _DC,
        "search",
        "no longer found, nor its items",
        "spec 4.9; " + _S_GONE,
        "deleted_collection_everywhere",
    ),
    _d(
        _DC,
        "its items",
        "its items go with it: GET, List items",
        "docs/design.md, Deleted items",
        "deleted_collection_404",
        "deleted_collection_everywhere",
    ),
    _d(
        _DC,
        "activity",
        "its entries and its items' leave the feed (it is no longer accessible)",
        _S_FEED,
        "deleted_collection_everywhere",
    ),
    _d(
        _DIS,
        "items",
        "each item named: no longer served by GET",
        "spec 4.1 Delete items",
        "delete_items_gone",
    ),
    _d(
        _DIS,
        "List items",
        "no longer listed; X-Total-Count drops",
        "spec 4.1; " + _S_GONE,
        "delete_items_gone",
    ),
    _d(
        _DIS, "items_total_count", "the collection's count drops", "spec 2.1; " + _S_GONE, "delete_items_gone"
    ),
    _d(
        _DIS,
        "include=items",
        "no longer embedded in the collection",
        "spec 2.1 include; " + _S_GONE,
        "delete_items_gone",
    ),
    _d(_DIS, "search", "no longer found", "spec 4.9; " + _S_GONE, "delete_items_gone"),
    _d(
        _DI,
        "get",
        "no longer served (404 under --strict)",
        "spec 4.2; spec 2.2 deleted_at; " + _S_GONE,
        "deleted_item_is_gone",
        "deleted_item_404",
        "stateful_model.delete",
    ),
    _d(
        _DI,
        "List items",
        "no longer listed by its collection or by q",
        "spec 4.2; " + _S_GONE,
        "deleted_item_is_gone",
        "stateful_model.delete",
    ),
    _d(
        _DI,
        "items_total_count",
        "its collection's count drops",
        "spec 2.1; " + _S_GONE,
        "deleted_item_is_gone",
    ),
    _d(
        _DI,
        "search",
        "no longer found",
        "spec 4.9; " + _S_GONE,
        "deleted_item_not_found",
        "stateful_model.search",
    ),
    _d(
        _DI,
        "include=items",
        "no longer embedded in its collection",
        "spec 2.1 include; " + _S_GONE,
        "deleted_item_everywhere",
    ),
    _d(
        _DI,
        "include=stack_items",
        "no longer a child of its stack (stack_items, parent_id filter)",
        "spec 4.2 include; " + _S_GONE,
        "deleted_item_everywhere",
    ),
    _d(_DI, "activity", "its entry leaves the feed", _S_FEED + "; " + _S_GONE, "deleted_item_everywhere"),
    _d(_DI, "tag counts", "its tags count one item fewer", "spec 2.5; " + _S_GONE, "tag_counts"),
    _d(
        _DI,
        "delete_items",
        "true on a stack deletes its children; without it they stay",
        "spec 4.2 Delete an item body",
        "stack_delete",
        "stateful_model.stack_delete",
    ),
    _d(
        _MOVE,
        "source collection",
        "moved items leave the source's list and count",
        "spec 4.2; spec 3",
        "multiple_items_move",
    ),
    _d(
        _UIS,
        "source collection",
        "transferred items leave the source's list",
        "spec 4.1; spec 3",
        "update_items_moves",
    ),
    _d(_RC, "List collaborators", "no longer listed", "spec 4.1", "collaborators_count"),
    _d(
        _RC,
        "access",
        "the removed account no longer reads a private collection",
        "spec 1; docs/design.md, Visibility",
        "collaborator_loses_access",
    ),
    _d(
        _DM,
        "List comments",
        "no longer listed",
        "spec 4.5",
        "deleted_comment_everywhere",
        "stateful_model.comment_gone",
    ),
    _d(
        _DM,
        "the item's comments",
        "no longer in its item's comments array",
        "spec 2.2 comments",
        "deleted_comment_everywhere",
    ),
    _d(_DM, "search", "no longer found", "spec 4.9 (search covers comments)", "deleted_comment_everywhere"),
    _d(_DM, "activity", "its entry leaves the feed", _S_FEED, "deleted_comment_everywhere"),
    _d(_DR, "List reactions", "no longer listed", "spec 4.6", "likes_count"),
    _d(
        _DR,
        "the item's reactions",
        "no longer in its item's reactions array",
        "spec 2.2 reactions",
        "deleted_reaction_everywhere",
    ),
    _d(_DR, "activity", "its entry leaves the feed", _S_FEED, "deleted_reaction_everywhere"),
    _d(
        _DT,
        "List item tags",
        "no longer listed",
        "spec 4.8; spec 4.2 List item tags",
        "deleted_tag_everywhere",
        "stateful_model.tag_gone",
    ),
    _d(_DT, "the item's tags", "no longer in its item's tags", "spec 2.2 tags", "deleted_tag_everywhere"),
    _d(
        _DT,
        "List all tags",
        "its name no longer counts the item",
        "spec 2.5",
        "deleted_tag_everywhere",
        "tag_counts",
    ),
    _d(
        _DT,
        "List collection tags",
        "its name no longer counts the item",
        "spec 2.5",
        "deleted_tag_everywhere",
    ),
    _d(
        _DT,
        "List items tags",
        "the item no longer matches the tags filter",
        "spec 4.2 List items tags",
        "deleted_tag_everywhere",
    ),
    _d(
        _DT,
        "search tags",
        "the item is no longer found by the tag",
        "spec 4.9 tags",
        "deleted_tag_everywhere",
    ),
    _d(_DE, "List email addresses", "no longer listed", "spec 4.7", "email_deleted_gone"),
    _d(
        _DE,
        "include=emails",
        "no longer in the current user's emails",
        "spec 2.9 include",
        "email_deleted_gone",
    ),
    _d(
        _DE,
        "Get email availability",
        "the address is available again (code email_available)",
        "spec 4.4",
        "email_deleted_gone",
    ),
    _d(_RTM, "List team members", "no longer listed", "spec 4.3", "team_member_removed"),
    _d(
        _RTM,
        "Get a team",
        "no longer in its users; the user no longer reads the team",
        "spec 2.6; spec 4.3",
        "team_member_removed",
    ),
    _d(
        _RTM,
        "List teams",
        "the team leaves the user's List teams",
        "spec 4.3; spec 2.6",
        "team_member_removed",
    ),
    # ------------------------------------------------------------------ counters and feeds
    _c(
        _CI,
        "items_total_count",
        "a new item counts in its collection",
        "spec 2.1",
        "stateful_model.count",
        "items_pages",
    ),
    _c(
        _DI,
        "items_total_count",
        "a deleted item no longer counts",
        "spec 2.1; " + _S_GONE,
        "deleted_item_is_gone",
    ),
    _c(
        _DIS,
        "items_total_count",
        "deleted items no longer count",
        "spec 2.1; " + _S_GONE,
        "delete_items_gone",
    ),
    _c(
        _MOVE,
        "items_total_count",
        "source and destination counts follow a move",
        "spec 2.1; spec 3",
        "multiple_items_move",
    ),
    _c(
        _UIS,
        "items_total_count",
        "the destination counts transferred items",
        "spec 2.1; spec 3",
        "update_items_moves",
    ),
    _c(
        _COPY,
        "items_total_count",
        "a copy counts where it lands",
        "spec 2.1; spec 4.2 Copy items",
        "copy_counts_follow",
    ),
    _c(
        _CR,
        "reactions_total_count",
        "a like counts on its item",
        "spec 2.2; spec 4.6",
        "likes_count",
        "stateful_model.like",
    ),
    _c(
        _DR,
        "reactions_total_count",
        "a deleted like no longer counts",
        "spec 2.2; spec 4.6",
        "likes_count",
        "stateful_model.unlike",
    ),
    _c(
        _CI,
        "tags items_total_count",
        "items made with tags count under each name (all tags, collection tags)",
        "spec 2.5",
        "tag_counts",
        "stateful_model.tag_count",
        "stateful_model.coll_tags",
    ),
    _c(
        _CT,
        "tags items_total_count",
        "a created tag counts its item",
        "spec 2.5; spec 4.8",
        "created_tag_everywhere",
    ),
    _c(
        _UIS,
        "tags items_total_count",
        "items tagged by update items count under the name",
        "spec 2.5; spec 4.1",
        "stateful_model.tag_count",
    ),
    _c(
        _DT,
        "tags items_total_count",
        "a deleted tag no longer counts",
        "spec 2.5",
        "tag_counts",
        "deleted_tag_everywhere",
    ),
    _c(_AC, "users_total_count", "an added collaborator counts", "spec 2.1", "collaborators_count"),
    _c(
        _RC, "users_total_count", "a removed collaborator no longer counts", "spec 2.1", "collaborators_count"
    ),
    _c(
        _CC,
        "Get collections count",
        "total, owned and active grow by one",
        "spec 4.1 Get collections count",
        "collection_counts_follow",
        "collection_counts_flags",
    ),
    _c(
        _UC,
        "Get collections count archived",
        "archived=true counts under archived",
        "spec 4.1; spec 3",
        "collection_counts_follow",
    ),
    _c(
        _UC,
        "Get collections count highlighted",
        "highlighted=true and false move highlighted",
        "spec 4.1; spec 3",
        "collection_counts_flags",
    ),
    _c(
        _UC,
        "Get collections count active",
        "an archived collection is no longer active (--strict)",
        "docs/design.md, Collaborators: archived ones appear only under status=archived",
        "collection_counts_flags",
    ),
    _c(
        _DC,
        "Get collections count",
        "every count is back as before the collection was made",
        "spec 4.1 Get collections count",
        "collection_counts_follow",
    ),
    _c(
        _CC,
        "X-Total-Count of List collections",
        "a new collection counts",
        _S_TOTAL,
        "collections_total_follows",
    ),
    _c(_CI, "X-Total-Count of List items", "the list's total is its entries", _S_TOTAL, "items_pages"),
    _c(
        _COPY,
        "X-Total-Count of List items",
        "a copy counts in its collection's list",
        _S_TOTAL,
        "copy_counts_follow",
    ),
    _c(
        _DI,
        "X-Total-Count of search",
        "a deleted item no longer counts among the results",
        _S_TOTAL,
        "search_total_follows",
    ),
    _c(_CI, "X-Total-Count of search", "the total is the results listed", _S_TOTAL, "search_total_follows"),
    _c(
        _AT,
        "teams_total_count",
        "a new member's teams_total_count grows",
        "spec 2.9 include",
        "team_member_added",
    ),
    _c(
        _RTM,
        "teams_total_count",
        "a removed member's teams_total_count drops back",
        "spec 2.9 include",
        "team_member_removed",
    ),
    _c(
        _CM,
        "the item's comments",
        "a new comment is in its item's comments array",
        "spec 2.2 comments",
        "comment_notify_stored",
    ),
    *[
        _c(
            op,
            "activity",
            f"a new {kind} shows in the latest activity and moves its X-Total-Count",
            _S_FEED + "; " + _S_TOTAL,
            "activity_follows_creation",
        )
        for op, kind in ((_CC, "collection"), (_CI, "item"), (_CM, "comment"), (_CR, "reaction"))
    ],
]
