"""Rows of the wording family: each fixed `code` the spec (2.13, 4) or docs/design.md (Error body,
Status codes, /auth and /ping, Small rules, Further behaviour) names for an answer."""

from __future__ import annotations

from . import WORDING, Rule

_DELETED = "spec 2.13 message object; spec 4: Delete answers 200, message (code deleted)"
_CODES = "docs/design.md, Status codes; Error body"


def _row(operation: str, subject: str, rule: str, source: str, *checks: str) -> Rule:
    return Rule(WORDING, operation, subject, rule, source, checks)


ROWS = [
    # -- spec 2.13: deletions and availability checks
    _row(
        "collections.delete_collection",
        "code deleted",
        "200 {code: deleted}",
        _DELETED,
        "delete_collection_says_deleted",
    ),
    _row(
        "collections.remove_collaborator",
        "code deleted",
        "200 {code: deleted}",
        _DELETED,
        "remove_collaborator_says_deleted",
    ),
    _row("items.delete_item", "code deleted", "200 {code: deleted}", _DELETED, "delete_item_says_deleted"),
    _row(
        "comments.delete_comment",
        "code deleted",
        "200 {code: deleted}",
        _DELETED,
        "delete_comment_says_deleted",
    ),
    _row(
        "reactions.delete_reaction",
        "code deleted",
        "200 {code: deleted}",
        _DELETED,
        "delete_reaction_says_deleted",
    ),
    _row(
        "emails.delete_email_address",
        "code deleted",
        "200 {code: deleted}",
        _DELETED,
        "delete_email_says_deleted",
    ),
    _row("tags.delete_tag", "code deleted", "200 {code: deleted}", _DELETED, "delete_tag_says_deleted"),
    _row(
        "teams.remove_team_member",
        "code deleted",
        "200 {code: deleted}",
        _DELETED,
        "remove_member_says_deleted",
    ),
    _row(
        "users.get_email_availability",
        "code email_available",
        "an unused address: 200 {code: email_available}",
        "spec 2.13, spec 4.4",
        "email_availability",
    ),
    _row(
        "users.get_username_availability",
        "code username_available",
        "an unused username: 200 {code: username_available}",
        "spec 2.13, spec 4.4",
        "username_availability",
    ),
    # -- docs/design.md: /ping and /auth
    _row("auth.ping", "code pong", "200 {code: pong}", "docs/design.md, /auth and /ping", "ping_says_pong"),
    _row(
        "auth.authenticate",
        "code password_incorrect",
        "a wrong password: 401 password_incorrect",
        "docs/design.md, /auth and /ping",
        "auth_refusals_worded",
    ),
    _row(
        "auth.authenticate",
        "code user_invalid",
        "an unknown email: 401 user_invalid",
        "docs/design.md, /auth and /ping",
        "auth_refusals_worded",
    ),
    # -- docs/design.md: one code per error status
    _row(
        "items.list_items",
        "code invalid_input",
        "invalid input (page 0): 400 invalid_input",
        f"{_CODES}; Paging",
        "invalid_input_worded",
    ),
    _row(
        "items.get_item",
        "code not_found",
        "an unknown id: 404 not_found",
        f"{_CODES}; Further behaviour",
        "not_found_worded",
    ),
    _row(
        "collections.create_collection",
        "code paid_plan_required",
        "a free account sending a paid-only field: 402 paid_plan_required",
        f"{_CODES}; Further behaviour, paid-only fields",
        "paid_plan_required_worded",
    ),
    _row(
        "collections.delete_collection",
        "code forbidden",
        "a collaborator deleting the collection: 403 forbidden",
        f"{_CODES}; Permissions object",
        "forbidden_worded",
    ),
    _row(
        "reactions.create_reaction",
        "code conflict",
        "a second like: 409 conflict",
        f"{_CODES}; Further behaviour, a second like",
        "conflict_worded",
    ),
    _row(
        "users.get_email_availability",
        "code email_unavailable",
        "a taken address: 409 email_unavailable",
        f"{_CODES}; Small rules",
        "taken_names_worded",
    ),
    _row(
        "users.get_username_availability",
        "code username_unavailable",
        "a taken username: 409 username_unavailable",
        f"{_CODES}; Small rules",
        "taken_names_worded",
    ),
    _row(
        "collections.create_collection",
        "code unsupported_media_type",
        "a body that is not JSON, a form or multipart: 415 unsupported_media_type",
        f"{_CODES}; Request encoding",
        "unsupported_media_type_worded",
    ),
    _row(
        "users.get_current_user",
        "code unauthorized",
        "no user credentials: 401 unauthorized, with WWW-Authenticate: Basic",
        f"{_CODES}; spec 5",
        "challenge_no_user_users_get_current_user",
    ),
]
