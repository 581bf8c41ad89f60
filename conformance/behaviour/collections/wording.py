"""Behaviour checks of the collections operations (operationIds collections.*): wording: fixed codes
and messages."""

from __future__ import annotations

from typing import Any

from ...failures import CheckSkipped
from ...http import LAYER, session
from ...registry import RunContext, check
from ..common import MESSAGE, deletes, says


@check(
    LAYER,
    "collections.delete_collection",
    "Delete a collection says code deleted",
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.1/delete-collection",
    ),
)
def delete_collection_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        deletes(s, f"/v1/collections/{cid}", "Delete a collection")
        s.collections.remove(cid)


@check(
    LAYER,
    "collections.remove_collaborator",
    "Remove a collaborator says code deleted",
    users=2,
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.1/remove-collaborator",
    ),
)
def remove_collaborator_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid, other = s.new_collection()["id"], ctx.settings.users[1].id
        s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other})
        path = f"/v1/collections/{cid}/users/{other}"
        s.register("collaborator", path)
        deletes(s, path, "Remove a collaborator")


@check(
    LAYER,
    "collections.create_collection",
    "a free account's paid-only field says code paid_plan_required",
    strict=True,
    statements=("1/paid", "8/paid", "8/unpaid", "design/status-codes.402", "design/error-body.message"),
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
    users=2,
    strict=True,
    statements=("design/status-codes.403", "design/error-body.message"),
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


@check(
    LAYER,
    "collections.create_collection",
    "a body of another media type says code unsupported_media_type",
    strict=True,
    statements=("design/status-codes.415", "design/error-body.message"),
)
def unsupported_media_type_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        body: dict[str, Any] = {"name": ctx.target.name("plain"), "type": "private"}
        got = s.call("POST", "/v1/collections", ok=(), data=body, headers={"Content-Type": "text/plain"})
        if got.status == 201:  # taken anyway: remove it with the run
            ctx.target.created("collection", f"/v1/collections/{(got.json() or {}).get('id')}", s.me)
        says(s, got, 415, "unsupported_media_type", "POST /v1/collections with Content-Type text/plain")
