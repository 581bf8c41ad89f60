"""The properties the stateful machine checks, declared in the registry (ids stateful_model.<name>),
and the spec rules they and the example checks stand for. `stateful_model` (machine.py) records an
outcome for each property a step exercised."""

from __future__ import annotations

from ...http import stateful_property

P_SETUP = stateful_property(
    "setup",
    "collections.create_collection",
    "the collections to work in are created",
    statements=("4.1/create-collection",),
)
P_CREATE = stateful_property(
    "create",
    "items.create_item",
    "a created item reads back with the fields sent",
    statements=(
        "4.2/create-item",
        "4.2/item-body.type",
        "4.2/item-body.content",
        "4.2/item-body.description",
        "4.2/item-body.latitude",
        "4.2/item-body.link",
        "4.2/item-body.metadata",
        "4.2/item-body.name",
        "4.2/item-body.parent_id",
        "4.2/item-body.shareable",
        "4.2/item-body.tags",
    ),
)
P_STACK_NEW = stateful_property(
    "stack_new",
    "items.create_item",
    "a new stack holds the items it was given",
    statements=("4.2/item-body.items",),
)
P_ITEM_READ = stateful_property(
    "item_read",
    "items.get_item",
    "an item reads back as last written",
    statements=("4.2/get-item", "4.2/update-item"),
)
P_STACK_ITEMS = stateful_property(
    "stack_items",
    "items.get_item",
    "include=stack_items lists a stack's children",
    statements=("1/item-stack", "2.2/item.parent_id"),
)
P_UPDATE = stateful_property(
    "update",
    "items.update_item",
    "an update persists (a later GET shows it)",
    statements=(
        "4.2/update-item",
        "4.2/item-body.content",
        "4.2/item-body.description",
        "4.2/item-body.latitude",
        "4.2/item-body.metadata",
        "4.2/item-body.name",
        "4.2/item-body.parent_id",
    ),
)
P_DELETE = stateful_property(
    "delete",
    "items.delete_item",
    "a deleted item is gone from get and lists",
    statements=("design/deleted-items.gone",),
)
P_DELETE_404 = stateful_property(
    "delete_404",
    "items.delete_item",
    "a deleted item's GET answers 404",
    strict=True,
    statements=("design/deleted-items.gone",),
)
P_STACK_DELETE = stateful_property(
    "stack_delete",
    "items.delete_item",
    "delete_items decides whether a stack's children go",
    statements=("4.2/delete-item.body",),
)
P_ORPHANS = stateful_property(
    "orphans",
    "items.delete_item",
    "a deleted stack's children move to top level",
    strict=True,
    statements=("design/stacks.orphans",),
)
P_MOVE = stateful_property(
    "move",
    "items.update_multiple_items",
    "moved items land in the destination as they were",
    statements=("3/move", "4.2/update-multiple-items", "4.2/update-multiple-items.body"),
)
P_MOVE_STACK = stateful_property(
    "move_stack",
    "items.update_multiple_items",
    "a moved stack takes its children",
    strict=True,
    statements=("design/further-behaviour.moving-items",),
)
P_TRANSFER = stateful_property(
    "transfer",
    "collections.update_items",
    "update items with collection_id moves the items",
    statements=("3/move", "4.1/update-items.items", "4.1/update-items.collection_id"),
)
P_TRANSFER_STACK = stateful_property(
    "transfer_stack",
    "collections.update_items",
    "a transferred stack takes its children",
    strict=True,
    statements=("design/further-behaviour.moving-items",),
)
P_STACK_INTO = stateful_property(
    "stack_into",
    "collections.update_items",
    "update items with parent_id stacks the items",
    statements=("3/stack", "4.1/update-items.parent_id"),
)
P_TAG_ITEMS = stateful_property(
    "tag_items",
    "collections.update_items",
    "update items with tags adds the tags",
    paid=True,
    statements=("4.1/update-items.tags",),
)
P_ORDER = stateful_property(
    "order",
    "collections.update_items",
    "update items order sets the positions asked",
    statements=("2.2/item.sort", "4.1/update-items-order.order"),
)
P_ORDER_LIST = stateful_property(
    "order_list",
    "collections.update_items",
    "update items order: the list follows it",
    strict=True,
    statements=("design/ordering.update-items-order", "design/ordering.items"),
)
P_COPY = stateful_property(
    "copy",
    "items.copy_items",
    "copies land where asked with tags and metadata, without comments",
    statements=("4.2/copy-items", "4.2/copy-items.what", "4.2/copy-items.body"),
)
P_COPY_STACK = stateful_property(
    "copy_stack",
    "items.copy_items",
    "a copied stack has copies of its children",
    strict=True,
    statements=("design/further-behaviour.copying-a-stack",),
)
P_LIST = stateful_property(
    "list",
    "items.list_items",
    "a collection's list holds exactly its live items",
    statements=("1/item-collection",),
)
P_FILTERS = stateful_property(
    "filters",
    "items.list_items",
    "filters keep exactly the matching items",
    statements=("3/item-type",),
)
P_COUNT = stateful_property(
    "count",
    "collections.get_collection",
    "items_total_count follows the changes",
    statements=("2.1/collection.items_total_count",),
)
P_EMBED = stateful_property(
    "embed",
    "collections.get_collection",
    "include=items embeds its live items (items_type filters them)",
    statements=("2.1/collection.include",),
)
P_SEARCH_FINDS = stateful_property(
    "search_finds",
    "search.search",
    "a live item is found by a word of its name",
    strict=True,
    statements=("4.9/search", "design/search-results.findable"),
)
P_UNSTACKED = stateful_property(
    "unstacked",
    "items.update_multiple_items",
    "a child moved without its stack goes to top level",
    strict=True,
    statements=("design/further-behaviour.moving-items",),
)
P_TAG_NEW = stateful_property(
    "tag_new",
    "tags.create_tag",
    "a created tag is listed with the item's tags",
    paid=True,
    statements=("2.5/item-tags", "4.2/list-item-tags"),
)
P_TAG_GONE = stateful_property(
    "tag_gone",
    "tags.delete_tag",
    "a deleted tag is gone from the item's tags",
    paid=True,
    statements=("4.8/delete-tag",),
)
P_TAG_COUNT = stateful_property(
    "tag_count",
    "tags.list_tags",
    "tag counts follow tagging, moves and deletions",
    paid=True,
    statements=("2.5/tag-counts",),
)
P_COLL_TAGS = stateful_property(
    "coll_tags",
    "collections.list_collection_tags",
    "a collection's tag counts follow its items",
    paid=True,
    statements=("2.5/tag-counts",),
)
P_COMMENT_NEW = stateful_property(
    "comment_new",
    "comments.create_comment",
    "a created comment is listed",
    statements=("4.5/list-comments", "4.5/create-comment"),
)
P_COMMENT_EDIT = stateful_property(
    "comment_edit",
    "comments.update_comment",
    "an edited comment is listed with its new body",
    statements=("4.5/update-comment",),
)
P_COMMENT_GONE = stateful_property(
    "comment_gone",
    "comments.delete_comment",
    "a deleted comment is gone from the list",
    statements=("4.5/delete-comment",),
)
P_LIKE = stateful_property(
    "like",
    "reactions.create_reaction",
    "a like counts in reactions_total_count",
    statements=("1/reaction-like", "2.2/item.reactions_total_count", "4.6/create-reaction"),
)
P_UNLIKE = stateful_property(
    "unlike",
    "reactions.delete_reaction",
    "a deleted like no longer counts",
    statements=("4.6/delete-reaction",),
)
P_SEARCH = stateful_property(
    "search",
    "search.search",
    "a deleted item is no longer found",
    statements=("design/deleted-items.gone",),
)
P_RUN = stateful_property(
    "run", "items.create_item", "the stateful run completes", "spec 4: every operation answers as documented"
)
