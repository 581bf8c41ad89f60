"""Section 2, resources and their fields: the contract layer judges every field's type, nullability,
format and values against the document (contract:response_schema_conformance); where a row's
notes say more (whose data a field is, what it means), the checks of that are named too."""

from __future__ import annotations

from . import NOT_SHOWN, NOTATION, SCHEMA, SHOWN_BY_CLIENTS, VALUE_SEEN, Statement, statement

_AVAILABLE = ("email_availability", "username_availability")


def _s(section: str, slug: str, text: str, *checks: str, reason: str = "") -> Statement:
    return statement(section, slug, text, *checks, reason=reason)


def _field(section: str, resource: str, text: str, *checks: str, reason: str = "") -> Statement:
    """A row of a field table: the contract layer judges its type; `checks` what its notes say."""
    name = text.split(" | ")[0].split(",")[0].split(";")[0].strip().replace(" ", "-")
    return statement(section, f"{resource}.{name}", text, SCHEMA, *checks, reason=reason)


STATEMENTS = [
    _s(
        "2",
        "timestamps",
        "Timestamps are ISO 8601 UTC strings.",
        SCHEMA,
    ),
    _s(
        "2",
        "urls",
        "The fields `url`, `short_url`, `avatar`, `user_avatar` and all `thumbnails` values are "
        "absolute URL strings.",
        SCHEMA,  # format uri (a scheme: absolute) on every one of them
    ),
    _s(
        "2",
        "lists",
        "Lists are returned as JSON arrays.",
        SCHEMA,
    ),
    _s("2", "null", "A field shown as null is nullable.", reason=NOTATION),
    _s(
        "2", "type-column", "The column Type gives the type of the value when it is present.", reason=NOTATION
    ),
    # ------------------------------------------------------------------ 2.1 Collection
    _field("2.1", "collection", "id | Integer"),
    _field(
        "2.1",
        "collection",
        "user_id | Integer | owner's user id",
    ),
    _field(
        "2.1",
        "collection",
        "name | String",
    ),
    _field(
        "2.1",
        "collection",
        "description | String or null",
    ),
    _field(
        "2.1",
        "collection",
        "type | String | private, public, global",
    ),
    _field("2.1", "collection", "sort | Integer"),
    _field(
        "2.1",
        "collection",
        "sort_by | String or null | created_at, updated_at, name, type, size, reactions; null means "
        "sort by manual drag-and-drop position",
    ),
    _field(
        "2.1",
        "collection",
        "sort_order | String or null | asc, desc",
    ),
    _field(
        "2.1",
        "collection",
        "view_mode | String | tile (default), shelf, flow, list",
    ),
    _field(
        "2.1",
        "collection",
        "thumbnail | String or null",
    ),
    _field(
        "2.1",
        "collection",
        "labels | Boolean | false hides item labels in lists",
        reason=SHOWN_BY_CLIENTS,
    ),
    _field(
        "2.1",
        "collection",
        "highlighted | Boolean",
    ),
    _field(
        "2.1",
        "collection",
        "archived | Boolean",
    ),
    _field(
        "2.1",
        "collection",
        "last_accessed_at, created_at, updated_at | Timestamp",
    ),
    _field(
        "2.1",
        "collection",
        "items_total_count | Integer",
    ),
    _field(
        "2.1",
        "collection",
        "user_name, username, user_email | String | owner's data",
    ),
    _field("2.1", "collection", "user_avatar | URL"),
    _field(
        "2.1",
        "collection",
        "custom_domain | String or null",
    ),
    _field("2.1", "collection", "user_plan | String | a value seen is pro", reason=VALUE_SEEN),
    _field("2.1", "collection", "user_plan_active | Boolean"),
    _field(
        "2.1",
        "collection",
        "users_total_count | Integer",
    ),
    _field("2.1", "collection", "url, short_url | URL"),
    _field(
        "2.1",
        "collection",
        "thumbnails | Object | keys mini, small, cropped, uncropped, large; each a URL",
    ),
    _field(
        "2.1",
        "collection",
        "permissions | Object | Boolean keys admin, edit, share, leave, delete",
    ),
    _s(
        "2.1",
        "collection.include",
        "When `include` is given, the response also carries the included objects (items, users).",
    ),
    # ------------------------------------------------------------------ 2.2 Item
    _field(
        "2.2",
        "item",
        "id, collection_id, user_id | Integer",
    ),
    _field(
        "2.2",
        "item",
        "parent_id | Integer or null | id of the parent stack",
    ),
    _field(
        "2.2",
        "item",
        "name | String",
    ),
    _field(
        "2.2",
        "item",
        "description | String or null",
    ),
    _field(
        "2.2",
        "item",
        "content | String | depends on type: URL, plain text or file",
        reason="a file's content: how a file is sent is not shown (spec 4.11), so no file is sent",
    ),
    _field(
        "2.2",
        "item",
        "link | String | original source URL; empty string when none",
    ),
    _field(
        "2.2",
        "item",
        "preview, thumbnail | String or null",
    ),
    _field(
        "2.2",
        "item",
        "shareable | Boolean or null | true makes the item publicly visible even in a private collection",
    ),
    _field("2.2", "item", "size | Integer"),
    _field(
        "2.2",
        "item",
        "sort | Integer | position within the collection",
    ),
    _field(
        "2.2",
        "item",
        "type | String | image, video, audio, link, text, other, stack",
    ),
    _field("2.2", "item", "mime | String"),
    _field(
        "2.2",
        "item",
        "latitude, longitude | Number or null",
    ),
    _field(
        "2.2",
        "item",
        "created_at, updated_at | Timestamp",
    ),
    _field(
        "2.2",
        "item",
        "deleted_at | Timestamp or null",
        reason="the lifecycle it implies is not shown (spec 3); a deleted item is no longer served",
    ),
    _field(
        "2.2",
        "item",
        "reactions_total_count | Integer",
    ),
    _field("2.2", "item", "user_name, user_email, user_plan | String"),
    _field("2.2", "item", "url, short_url | URL"),
    _field("2.2", "item", "thumbnails | Object"),
    _field(
        "2.2",
        "item",
        "reactions | Array",
    ),
    _field("2.2", "item", "is_url | Boolean"),
    _field(
        "2.2",
        "item",
        "comments | Array",
    ),
    _field(
        "2.2",
        "item",
        "tags | Array",
    ),
    _field(
        "2.2",
        "item",
        "metadata | Array",
    ),
    # ------------------------------------------------------------------ 2.3 Comment, 2.4 Reaction
    _field("2.3", "comment", "id, user_id | Integer"),
    _field("2.3", "comment", "username, name, email | String"),
    _field("2.3", "comment", "avatar | URL"),
    _field(
        "2.3",
        "comment",
        "body | String (may contain @username mentions)",
    ),
    _field("2.3", "comment", "annotation | null in the shape given", reason=NOT_SHOWN + " (its type)"),
    _field(
        "2.3",
        "comment",
        "created_at, updated_at | Timestamp",
    ),
    _field(
        "2.4",
        "reaction",
        "id, item_id, user_id | Integer",
    ),
    _field("2.4", "reaction", "username, name, email | String"),
    _field("2.4", "reaction", "avatar | URL"),
    _field(
        "2.4",
        "reaction",
        "created_at, updated_at | Timestamp",
    ),
    # ------------------------------------------------------------------ 2.5 Tag shapes
    _s(
        "2.5",
        "tag-counts",
        "List of all tags; list of a collection's tags | items_total_count (Integer), name (String)",
        SCHEMA,
    ),
    _s(
        "2.5",
        "item-tags",
        "List of an item's tags; created tag | id (Integer), name (String)",
        SCHEMA,
    ),
    # ------------------------------------------------------------------ 2.6 Team
    _s("2.6", "team-list-entry", "Team list entry:", reason="captions the table that follows"),
    _field("2.6", "team", "id | Integer"),
    _field(
        "2.6",
        "team",
        "created_at | Timestamp",
    ),
    _field(
        "2.6",
        "team",
        "name, username | String",
    ),
    _field("2.6", "team", "avatar | URL"),
    _field(
        "2.6",
        "team",
        "custom_domain | String or null",
    ),
    _field("2.6", "team", "plan | String (a value seen is team)", reason=VALUE_SEEN),
    _field("2.6", "team", "plan_active | Boolean"),
    _field(
        "2.6",
        "team",
        "billing_email | String",
    ),
    _field(
        "2.6",
        "team",
        "user_kind | String (the current user's kind in the team: manager or user)",
    ),
    _s(
        "2.6",
        "team-detail",
        "Team detail (get a team): id, name, email (String or null), username, avatar, custom_domain, "
        "sort_by, sort_order, view_mode (tile default, shelf), labels (Boolean), plan, plan_active, "
        "plan_quantity (Integer), billing_email, status (String; a value seen is active), created_at, "
        "feed_key (String, opaque), usage (Object: quota Integer, used Integer), user_kind, users "
        "(Array of team members).",
        SCHEMA,
        reason="the values seen of status and the default of view_mode (a team is not made by the "
        "API) set no rule",
    ),
    _s(
        "2.6",
        "team-update-shape",
        "The update-a-team response carries the same fields except email, user_kind and users.",
        SCHEMA,  # the document's Team (update shape): every detail field but those three, required
    ),
    # ------------------------------------------------------------------ 2.7-2.13
    _s(
        "2.7",
        "team-member",
        "Fields: id (Integer), name, email, username, avatar (URL), custom_domain (String or null), "
        "plan (String; a value seen is free), status (String; a value seen is active), kind (String: "
        "user or manager).",
        SCHEMA,
        reason=VALUE_SEEN + " (plan, status)",
    ),
    _s(
        "2.8",
        "collaborator",
        "Fields: id (Integer), name, email, user_avatar (URL), username, plan, billing_email (String "
        "or null), kind (String; owner is a value seen), is_subscribed (Boolean).",
        SCHEMA,
        reason=VALUE_SEEN + " (kind)",
    ),
    _s(
        "2.9",
        "current-user",
        "Fields: id (Integer), name, email, username, avatar (URL), status (String; a value seen is "
        "active), plan (String; a value seen is free).",
        SCHEMA,
        reason=VALUE_SEEN + " (status, plan)",
    ),
    _s(
        "2.9",
        "include",
        "With `include` on the current user, the additional attributes emails, teams and "
        "teams_total_count can be returned.",
    ),
    _s(
        "2.9",
        "contacts",
        "Contacts are the team members or users with whom the current user shares collections.",
    ),
    _s(
        "2.10",
        "email",
        "Fields: id (Integer), email (String).",
        SCHEMA,
    ),
    _s(
        "2.11",
        "search-result",
        "Fields: id, name, collection_id, collection_name, parent_id, parent_name, description, link, "
        "preview, thumbnail, size, type, mime, latitude, longitude, created_at, updated_at, user_id, "
        "user_name, username, user_email, relevance (String holding a decimal number), is_url "
        "(Boolean), thumbnails (Object), collection_url (URL), url (URL), short_url (URL).",
        SCHEMA,  # relevance: a pattern of digits and one point
    ),
    _s(
        "2.12",
        "activity-entry",
        "Fields: id, name, description, thumbnail, type (a value seen is collection), latitude, "
        "longitude, created_at, updated_at, user_id, user_name, username, user_email, user_avatar "
        "(URL), thumbnails (Object), url (URL), short_url (URL).",
        SCHEMA,
        reason=VALUE_SEEN + " (type)",
    ),
    _s(
        "2.13",
        "message.returned-by",
        "Returned by deletions and availability checks.",
    ),
    _s(
        "2.13",
        "message.fields",
        "Fields: code (String), message (String, human-readable).",
        SCHEMA,
        reason="that the message is human-readable is not judged",
    ),
    _s(
        "2.13",
        "message.codes",
        "Codes used: deleted, email_available, username_available.",
    ),
    # ------------------------------------------------------------------ 2.14 gaps
    _s(
        "2.14",
        "null-types",
        "Types of fields that only appear as null in the shapes (annotation, preview, sort_by on a new "
        "collection and similar): not shown beyond what is written above.",
        reason=NOT_SHOWN,
    ),
    _s(
        "2.14",
        "open-structures",
        "Structure of the entries of metadata, of the embedded reactions and comments arrays of an "
        "item, and of the keys of an item's thumbnails object: not shown.",
        reason=NOT_SHOWN,
    ),
    _s(
        "2.14",
        "plan-status-values",
        "Full set of values of plan and status for users and teams: not shown beyond the values noted above.",
        reason=NOT_SHOWN,
    ),
]
