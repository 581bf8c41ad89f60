"""Wording: the exact `code` the spec (2.13) or docs/design.md (Status codes, /auth and /ping) fixes
for an answer, provoked cheaply and compared (rule table: conformance/rules/wording.py).

The spec fixes `deleted`, `email_available` and `username_available`; the error codes are
docs/design.md's choices and are compared only with --strict.
"""

from __future__ import annotations

from typing import Any

from ..failures import CheckSkipped, WrongWording
from ..http import LAYER, Session, ids_of, session, unpaid
from ..registry import RunContext, check
from ..target import Exchange
from .parameters_users import unused_address

R_DELETED = "spec 2.13 message object; spec 4: a delete answers 200, message (code deleted)"
R_CODES = "docs/design.md, Status codes: every error is {code, message} with the code of its status"
R_PING = (
    "docs/design.md, /auth and /ping: ping answers 200 {code: pong}; a wrong password is 401 "
    "password_incorrect, an unknown email 401 user_invalid"
)
UNKNOWN_ID = 2**31 - 7


def says(s: Session, exchange: Exchange, status: int, code: str, what: str) -> None:
    """The answer is `status` with the message object of `code`."""
    body = exchange.json()
    got = body.get("code") if isinstance(body, dict) else None
    s.expect(
        exchange.status == status and got == code and isinstance(body.get("message"), str),
        f"{what} answered {exchange.status} with code {got!r}, expected {status}, code {code!r}, a message",
        exchange,
        kind=WrongWording,
    )


def deletes(s: Session, path: str, what: str) -> None:
    """DELETE something the check made: 200 {code: deleted}."""
    exchange = s.call("DELETE", path, ok=())
    if 200 <= exchange.status < 300:
        s.gone(path)
    says(s, exchange, 200, "deleted", what)


# ---------------------------------------------------------------------- spec 2.13: deleted
@check(LAYER, "collections.delete_collection", "Delete a collection says code deleted", R_DELETED)
def delete_collection_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        deletes(s, f"/v1/collections/{cid}", "Delete a collection")
        s.collections.remove(cid)


@check(LAYER, "items.delete_item", "Delete an item says code deleted", R_DELETED)
def delete_item_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        deletes(s, f"/v1/items/{item['id']}", "Delete an item")


def makes_and_deletes(s: Session, post: str, body: Any, kind: str, what: str) -> None:
    """POST a comment, reaction or email address (201), then DELETE it: 200 {code: deleted}."""
    made = s.body(s.call("POST", post, ok=(201,), json_body=body))
    path = f"/v1/{kind}s/{made.get('id')}"
    s.register(kind, path)
    deletes(s, path, what)


@check(LAYER, "comments.delete_comment", "Delete a comment says code deleted", R_DELETED)
def delete_comment_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        makes_and_deletes(s, f"/v1/items/{item['id']}/comments", {"body": "x"}, "comment", "Delete a comment")


@check(LAYER, "reactions.delete_reaction", "Delete a reaction says code deleted", R_DELETED)
def delete_reaction_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        makes_and_deletes(s, f"/v1/items/{item['id']}/reactions", None, "reaction", "Delete a reaction")


@check(LAYER, "emails.delete_email_address", "Delete an email address says code deleted", R_DELETED)
def delete_email_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        address = unused_address(s)
        makes_and_deletes(s, "/v1/emails", {"email": address}, "email", "Delete an email address")


@check(LAYER, "tags.delete_tag", "Delete a tag says code deleted", R_DELETED)
def delete_tag_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        made = s.call(
            "POST", f"/v1/items/{item['id']}/tags", ok=(201, 402), json_body={"name": ctx.target.name("t")}
        )
        if made.status == 402:
            raise unpaid("tags")
        path = f"/v1/tags/{s.body(made).get('id')}"
        s.register("tag", path)
        deletes(s, path, "Delete a tag")


@check(
    LAYER, "collections.remove_collaborator", "Remove a collaborator says code deleted", R_DELETED, users=2
)
def remove_collaborator_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid, other = s.new_collection()["id"], ctx.settings.users[1].id
        s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other})
        path = f"/v1/collections/{cid}/users/{other}"
        s.register("collaborator", path)
        deletes(s, path, "Remove a collaborator")


@check(LAYER, "teams.remove_team_member", "Remove team member says code deleted", R_DELETED, users=2)
def remove_member_says_deleted(ctx: RunContext) -> None:
    team, target = ctx.settings.team_id, ctx.target
    if team is None:
        raise CheckSkipped("needs --team-id, a team one of the --user accounts manages")
    with session(ctx) as s:
        # any --user who manages the team adds one who is not in it, and removes them again
        kinds = {
            u: (target.request("GET", f"/v1/teams/{team}", user=u).json() or {}) for u in ctx.settings.users
        }
        manager = next((u for u, seen in kinds.items() if seen.get("user_kind") == "manager"), None)
        if manager is None:
            raise CheckSkipped(f"no --user manages team {team}")
        listed = target.request("GET", f"/v1/teams/{team}/users", user=manager)
        members = set(ids_of(s.body(listed, list)))
        outsider = next((u.id for u in ctx.settings.users if u.id not in members), None)
        if outsider is None:
            raise CheckSkipped(f"every --user is a member of team {team}: none to add and remove")
        path = f"/v1/teams/{team}/users/{outsider}"
        added = target.request("POST", f"/v1/teams/{team}/users", user=manager, json_body={"id": outsider})
        s.expect(added.status == 201, f"adding user {outsider} to team {team} answered {added.status}", added)
        target.created("member", path, manager)  # removed again: the team is left as it was
        removed = target.request("DELETE", path, user=manager)
        if 200 <= removed.status < 300:
            target.forget(path)
        says(s, removed, 200, "deleted", "Remove team member")


# ---------------------------------------------------------------------- docs/design.md: codes
@check(LAYER, "auth.ping", "ping says code pong", R_PING, writes=False, strict=True)
def ping_says_pong(ctx: RunContext) -> None:
    with session(ctx) as s:
        says(s, ctx.target.request("GET", "/v1/ping", user=False), 200, "pong", "GET /v1/ping")


@check(
    LAYER,
    "auth.authenticate",
    "a wrong password and an unknown email say why",
    R_PING,
    writes=False,
    strict=True,
)
def auth_refusals_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        email = s.body(s.call("GET", "/v1/users/me")).get("email")
        for body, code in (
            ({"email": email, "password": ctx.target.name("wrong-password")}, "password_incorrect"),
            ({"email": f"{ctx.target.name('nobody')}@example.com", "password": "x" * 12}, "user_invalid"),
        ):
            got = ctx.target.request("POST", "/v1/auth", user=False, json_body=body)
            says(s, got, 401, code, f"POST /v1/auth with {code.replace('_', ' ')}")


@check(LAYER, "items.list_items", "invalid input says code invalid_input", R_CODES, writes=False, strict=True)
def invalid_input_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        says(
            s,
            s.call("GET", "/v1/items", ok=(), params={"page": 0}),
            400,
            "invalid_input",
            "GET /v1/items?page=0",
        )


@check(LAYER, "items.get_item", "an unknown id says code not_found", R_CODES, writes=False, strict=True)
def not_found_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        path = f"/v1/items/{UNKNOWN_ID}"
        says(s, s.call("GET", path, ok=()), 404, "not_found", f"GET {path}")


@check(
    LAYER,
    "collections.create_collection",
    "a free account's paid-only field says code paid_plan_required",
    R_CODES,
    strict=True,
)
def paid_plan_required_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        free = next(
            (
                u
                for u in ctx.settings.users
                if (ctx.target.request("GET", "/v1/users/me", user=u).json() or {}).get("plan") == "free"
            ),
            None,
        )
        if free is None:
            raise CheckSkipped("needs a --user on the free plan")
        body = {"name": ctx.target.name("paid"), "type": "private", "highlighted": True}
        got = ctx.target.request("POST", "/v1/collections", user=free, json_body=body)
        if got.status == 201:  # not refused: remove it with the run
            ctx.target.created("collection", f"/v1/collections/{(got.json() or {}).get('id')}", free)
        says(s, got, 402, "paid_plan_required", f"user {free.id} (free) creating a highlighted collection")


@check(
    LAYER,
    "collections.delete_collection",
    "a collaborator's delete says code forbidden",
    R_CODES,
    users=2,
    strict=True,
)
def forbidden_worded(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other.id})
        got = ctx.target.request("DELETE", f"/v1/collections/{cid}", user=other)
        if got.status == 200:
            s.collections.remove(cid)
            s.gone(f"/v1/collections/{cid}")
        says(s, got, 403, "forbidden", f"a collaborator (user {other.id}) deleting collection {cid}")


@check(LAYER, "reactions.create_reaction", "a second like says code conflict", R_CODES, strict=True)
def conflict_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        path = f"/v1/items/{s.add_item(s.new_collection()['id'])['id']}/reactions"
        for _ in range(2):
            got = s.call("POST", path, ok=())
            if got.status == 201:
                s.register("reaction", f"/v1/reactions/{(got.json() or {}).get('id')}")
        says(s, got, 409, "conflict", f"a second POST {path}")


@check(
    LAYER,
    "users.get_email_availability",
    "a taken address or username says why",
    R_CODES,
    writes=False,
    strict=True,
)
def taken_names_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        mine = s.body(s.call("GET", "/v1/users/me"))
        for name, path in (("email", "/v1/users/email"), ("username", "/v1/users/username")):
            got = s.call("GET", path, ok=(), params={name: mine.get(name)})
            says(s, got, 409, f"{name}_unavailable", f"GET {path} of the caller's own {name}")


@check(
    LAYER,
    "collections.create_collection",
    "a body of another media type says code unsupported_media_type",
    R_CODES,
    strict=True,
)
def unsupported_media_type_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        body: dict[str, Any] = {"name": ctx.target.name("plain"), "type": "private"}
        got = s.call("POST", "/v1/collections", ok=(), data=body, headers={"Content-Type": "text/plain"})
        if got.status == 201:  # taken anyway: remove it with the run
            ctx.target.created("collection", f"/v1/collections/{(got.json() or {}).get('id')}", s.me)
        says(s, got, 415, "unsupported_media_type", "POST /v1/collections with Content-Type text/plain")
