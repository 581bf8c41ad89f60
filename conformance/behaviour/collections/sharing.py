"""Behaviour checks of the collections operations (operationIds collections.*): sharing: collaborators,
contacts and what they see."""

from __future__ import annotations

from typing import Any

from ...failures import CheckSkipped, NotStored
from ...http import LAYER, Session, ids_of, me, session
from ...registry import RunContext, check
from ...settings import User
from ..common import refused_4xx


@check(
    LAYER,
    "collections.add_collaborator",
    "a collaborator body with none of id, email and username is refused",
    statements=("4.1/add-collaborator.exactly-one",),
)
def collaborator_body_needs_one(ctx: RunContext) -> None:
    with session(ctx) as s:  # what a wrong 2xx added goes with the collection at the end
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}/users"
        refused_4xx(s, s.call("POST", path, ok=(), json_body={}), f"POST {path} with {{}}")


def _added(s: Session, cid: int, team_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """Add the team with `body`, see it listed, remove it again; the collaborator answered."""
    path = f"/v1/collections/{cid}/users/{team_id}"
    added = s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body=body)
    s.register("collaborator", path)
    answer: dict[str, Any] = s.body(added)
    got = answer.get("id")
    s.expect(got == team_id, f"Add a collaborator {body} answered the collaborator id {got!r}", added)
    listed = ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list))
    s.expect(
        team_id in listed,
        f"after Add a collaborator {body}, List collaborators shows {listed}, not team {team_id}",
        kind=NotStored,
    )
    s.call("DELETE", path)
    s.gone(path)
    return answer


@check(
    LAYER,
    "collections.add_collaborator",
    "a team is added as a collaborator by id and by username",
    statements=("1/team-account", "1/team-collaborator", "2.8/collaborator", "4.1/add-collaborator.team"),
)
def team_as_collaborator(ctx: RunContext) -> None:
    team_id = ctx.settings.team_id
    if team_id is None:
        raise CheckSkipped("needs --team-id: a team to add as a collaborator")
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        username = _added(s, cid, team_id, {"id": team_id}).get("username")  # a Collaborator (spec 2.8)
        if not isinstance(username, str) or not username:
            raise CheckSkipped(
                f"team {team_id} was added by id; its collaborator entry has username {username!r}"
            )
        _added(s, cid, team_id, {"username": username})


def reads_as_collaborator(s: Session, cid: int, other: User, how: str) -> None:
    """`other` is listed by List collaborators of `cid` and reads it: what adding them must store."""
    listed = ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list))
    s.expect(other.id in listed, f"{how}: List collaborators of {cid} shows {listed}", kind=NotStored)
    seen = s.call("GET", f"/v1/collections/{cid}", ok=(), user=other)
    s.expect(
        seen.status == 200,
        f"{how}: user {other.id} reads collection {cid} with {seen.status}",
        seen,
        kind=NotStored,
    )


@check(
    LAYER,
    "collections.create_collection",
    "users in the body makes them collaborators",
    users=2,
    statements=("4.1/collection-body.users",),
)
def collection_users_invited(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s:
        made = s.new_collection(users=[other.id])["id"]
        later = s.new_collection()["id"]
        s.call("PUT", f"/v1/collections/{later}", json_body={"users": [other.id]})
        for cid, how in ((made, "Create a collection"), (later, "Update a collection")):
            s.register("collaborator", f"/v1/collections/{cid}/users/{other.id}")
            reads_as_collaborator(s, cid, other, f"{how} with users [{other.id}]")


@check(
    LAYER,
    "collections.add_collaborator",
    "a collaborator added by email or by username is stored",
    users=2,
    statements=("4.1/add-collaborator", "4.1/add-collaborator.body", "4.1/add-collaborator.exactly-one"),
)
def collaborator_by_email_or_username(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s:
        info = me(s, other)
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}/users/{other.id}"
        for key in ("email", "username"):
            s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={key: info.get(key)})
            s.register("collaborator", path)
            reads_as_collaborator(s, cid, other, f"added by {key}")
            s.call("DELETE", path)
            s.gone(path)
