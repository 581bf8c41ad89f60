"""Contacts (spec 2.9): "Contacts are the team members or users with whom the current user shares
collections", listed by List contacts (spec 4.4) as current-user-shaped objects.

The third --user is in no team and shares nothing with the others (README, Check your server);
the check asserts that someone is NOT a contact only of a user it has just seen sharing nothing:
in no team, and no collection they can list has another collaborator. While it runs, it takes the
third user out of --team-id and out of the run's own collections shared with them (the contract
layer's things, e.g. its membership of the team), and puts them back afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..failures import AccessLeak, CheckSkipped, NotGone, NotStored
from ..http import LAYER, SERIAL, Session, create_collection, entry, ids_of, me, session, settled
from ..registry import RunContext, check
from ..settings import User

R_CONTACTS = (
    'spec 2.9: "Contacts are the team members or users with whom the current user shares collections"; '
    "spec 4.4 List contacts: an array of current-user-shaped objects"
)
CONTACTS = "/v1/users/contacts"
MAX_SHARED = 20  # collections of a user looked at to know they share nothing; more: not known


# ---------------------------------------------------------------------- shared with other modules
@contextmanager
def shared_collection(s: Session, owner: User, guest: User) -> Iterator[int]:
    """A private collection `owner` makes and shares with `guest` (Add a collaborator); `owner`
    deletes it afterwards (it is registered for the run's cleanup until then)."""
    target = s.target
    cid = create_collection(s.ctx, f"c{next(SERIAL)}", "private", owner)
    path = f"/v1/collections/{cid}"
    try:
        added = target.request("POST", f"{path}/users", user=owner, json_body={"id": guest.id})
        s.last = added
        s.expect(
            added.status in (200, 201),
            f"user {owner.id} adding user {guest.id} as a collaborator of collection {cid} answered "
            f"{added.status}",
            added,
        )
        yield cid
    finally:
        if target.request("DELETE", path, user=owner).status in (200, 204, 404):
            target.forget(path)


def contacts_of(s: Session, user: User) -> list[dict[str, Any]]:
    """List contacts as `user`: its objects."""
    return [e for e in s.body(s.call("GET", CONTACTS, user=user), list) if isinstance(e, dict)]


def shares_nothing(s: Session, user: User) -> bool:
    """`user` is in no team and no collection it can list (archived ones too) has anyone else in
    it: it shares nothing with anyone. False when that cannot be known cheaply."""
    teams = s.call("GET", "/v1/teams", user=user).json()
    if not isinstance(teams, list) or teams:
        return False
    listed = _every_collection(s, user)
    if len(listed) >= MAX_SHARED:
        return False
    for collection in listed:
        if collection.get("user_id") != user.id:
            return False
        people = s.call("GET", f"/v1/collections/{collection.get('id')}/users", user=user, ok=()).json()
        if not isinstance(people, list) or set(ids_of(people)) - {user.id}:
            return False
    return True


# ---------------------------------------------------------------------- the check
def _shaped_as(s: Session, found: dict[str, Any], user: User, whose: User) -> None:
    """A contact entry is the user as Get current user shows them (its id, name, username, email)."""
    own = me(s, user)
    keys = [k for k in ("id", "name", "username", "email") if k in found]
    wrong = [k for k in keys if found.get(k) != own.get(k)]
    shown = {k: own.get(k) for k in keys}
    s.expect(
        "id" in found and "username" in found and not wrong,
        f"user {whose.id}'s contact entry of user {user.id} is {found}; Get current user as user "
        f"{user.id} shows {shown} (spec 4.4: current-user-shaped objects)",
    )


@check(
    LAYER,
    "users.list_contacts",
    "contacts are the team members and the users one shares collections with",
    R_CONTACTS,
    users=3,
)
def contacts_are_sharers(ctx: RunContext) -> None:
    first, second, third = ctx.settings.users[:3]
    with session(ctx) as s, _out_of_team(s, third), _out_of_runs_collections(s, third):
        stranger = shares_nothing(s, third)
        if stranger:
            listed = _shows(s, first, third, False)
            s.expect(
                third.id not in listed,
                f"user {third.id}, in no team and sharing no collection with anyone, is among "
                f"user {first.id}'s contacts {listed}",
                kind=AccessLeak,
            )
        team = _team_members(s)
        if first.id in team and second.id in team:
            for user, other in ((first, second), (second, first)):
                listed = _shows(s, user, other, True)
                s.expect(
                    other.id in listed,
                    f"users {first.id} and {second.id} are members of team {ctx.settings.team_id}, "
                    f"yet user {user.id}'s contacts are {listed}",
                    kind=NotStored,
                )
        with shared_collection(s, first, third) as cid:
            for user, other in ((first, third), (third, first)):
                listed = _shows(s, user, other, True)
                s.expect(
                    other.id in listed,
                    f"user {first.id} shares collection {cid} with user {third.id} (a collaborator), "
                    f"yet user {user.id}'s contacts are {listed}",
                    kind=NotStored,
                )
                found = entry(contacts_of(s, user), other.id)
                s.expect(found is not None, f"user {user.id}'s contacts lack user {other.id}", kind=NotStored)
                assert found is not None
                _shaped_as(s, found, other, user)
            path = f"/v1/collections/{cid}/users/{third.id}"
            s.call("DELETE", path)
            if stranger:
                _no_longer(s, first, third, f"user {third.id} left collection {cid}")
        if not stranger:
            raise CheckSkipped(
                f"user {third.id} is in a team or shares a collection here: whom they are NOT a contact "
                "of was not checked"
            )
        with shared_collection(s, first, third) as cid:
            listed = _shows(s, first, third, True)
            s.expect(third.id in listed, f"user {first.id}'s contacts are {listed}", kind=NotStored)
            s.call("DELETE", f"/v1/collections/{cid}")
            s.target.forget(f"/v1/collections/{cid}")
            _no_longer(s, first, third, f"collection {cid}, the one they shared, was deleted")


def _shows(s: Session, user: User, other: User, present: bool) -> list[Any]:
    """`user`'s contact ids, read until `other` is (or is not) among them, or --settle passed."""
    return settled(
        s, "contacts", lambda: ids_of(contacts_of(s, user)), lambda ids: (other.id in ids) == present
    )


def _no_longer(s: Session, first: User, third: User, why: str) -> None:
    for user, other in ((first, third), (third, first)):
        listed = _shows(s, user, other, False)
        s.expect(
            other.id not in listed,
            f"{why}, and users {first.id} and {third.id} share nothing else; user {other.id} is still among "
            f"user {user.id}'s contacts {listed}",
            kind=NotGone,
        )


@contextmanager
def _out_of_team(s: Session, user: User) -> Iterator[None]:
    """`user` out of --team-id while the check runs, when someone (e.g. the contract layer's own
    membership) put them in it; put back afterwards with the kind they had, also on failure."""
    team_id = s.ctx.settings.team_id
    listed = s.call("GET", f"/v1/teams/{team_id}/users", ok=()).json() if team_id is not None else None
    found = entry(listed, user.id)
    path = f"/v1/teams/{team_id}/users/{user.id}"
    out = found is not None and s.call("DELETE", path, ok=()).status in (200, 204)
    try:
        yield
    finally:
        if out and found is not None:
            body = {"id": user.id, "kind": found.get("kind") or "user"}
            s.target.request("POST", f"/v1/teams/{team_id}/users", json_body=body)


def _every_collection(s: Session, user: User) -> list[dict[str, Any]]:
    """The collections `user` can list, by default and under status=archived (no list is asked with
    two statuses at once: how a query carries an array the spec does not show), a small page at a
    time (spec 8 sets no maximum page size); at most MAX_SHARED of each."""
    found: dict[Any, dict[str, Any]] = {}
    for status in ({}, {"status": "archived"}):
        for page in (1, 2):
            params = {**status, "page": page, "per_page": MAX_SHARED // 2}
            chunk = s.call("GET", "/v1/collections", user=user, params=params, ok=()).json()
            if not isinstance(chunk, list) or not chunk:
                break
            found.update((c.get("id"), c) for c in chunk if isinstance(c, dict))
    return list(found.values())


@contextmanager
def _out_of_runs_collections(s: Session, user: User) -> Iterator[None]:
    """`user` leaves the collections this run made (named with its prefix, e.g. by the contract
    layer's generated requests) that someone else shared with them, while the check runs; added
    back afterwards by the first user (their owner or a manager of it), else by their owner."""
    prefix = s.target.name("")
    left: list[tuple[Any, Any]] = []
    for collection in _every_collection(s, user):
        if collection.get("user_id") != user.id and str(collection.get("name")).startswith(prefix):
            path = f"/v1/collections/{collection.get('id')}/users/{user.id}"
            if s.call("DELETE", path, user=user, ok=()).status in (200, 204):
                left.append((collection.get("id"), collection.get("user_id")))
    try:
        yield
    finally:
        owners = {u.id: u for u in s.ctx.settings.users}
        for cid, owner in left:
            for who in (s.me, owners.get(owner)):
                path, body = f"/v1/collections/{cid}/users", {"id": user.id}
                if who is not None and s.target.request("POST", path, user=who, json_body=body).status < 300:
                    break


def _team_members(s: Session) -> set[Any]:
    """The ids of --team-id's members as the first user reads them (empty without --team-id)."""
    team_id = s.ctx.settings.team_id
    if team_id is None:
        return set()
    exchange = s.call("GET", f"/v1/teams/{team_id}/users", ok=())
    members = exchange.json()
    return set(ids_of(members)) if exchange.status == 200 and isinstance(members, list) else set()
