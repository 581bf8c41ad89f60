"""Behaviour checks of the users operations (operationIds users.*), grouped by rule family."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..failures import AccessLeak, CheckSkipped, NotGone, NotStored
from ..http import LAYER, SERIAL, Session, entry, ids_of, me, session, settled, unique, unpaid
from ..registry import RunContext, check
from ..settings import User
from .common import honoured, says, shared_collection, stored, unused_address, username_for

# -- helpers


CONTACTS = "/v1/users/contacts"


MAX_SHARED = 20  # collections of a user looked at to know they share nothing; more: not known

# -- persistence: what a write stores, as a later, different read shows it


PAID_USER = ("custom_domain",)


@check(
    LAYER,
    "users.update_current_user",
    "name, username, email and custom_domain persist (me, a collection's owner data, emails)",
    statements=(
        "2.1/collection.user_name",
        "2.1/collection.custom_domain",
        "2.9/current-user",
        "4.4/update-current-user",
        "4.4/update-current-user.body",
    ),
)
def current_user_update_persists(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        original = me(s)
        owner = s.collection(cid)
        word = unique(s)
        sent: dict[str, Any] = {
            "name": ctx.target.name(f"me {word}"),
            "username": username_for(s, f"u{word[-6:]}"),
            "email": f"{word}@example.com",
            "custom_domain": f"{word}.example.com",
        }
        # labels, sort_by, sort_order and view_mode are left out: no read of the spec shows a user's
        # (spec 2.9), so the suite could neither check them nor put them back
        back = {
            "name": original.get("name"),
            "username": original.get("username"),
            "email": original.get("email"),
        }
        back["custom_domain"] = owner.get("custom_domain")
        left: list[str] = []
        try:
            exchange = s.call("PUT", "/v1/users/me", ok=(200, 402), json_body=sent)
            if exchange.status == 402:
                left, sent = list(PAID_USER), {k: v for k, v in sent.items() if k not in PAID_USER}
                s.call("PUT", "/v1/users/me", json_body=sent)
            got = me(s)
            wrong = {k: got.get(k) for k in ("name", "username", "email") if got.get(k) != sent[k]}
            stored(s, not wrong, f"after Update current user, Get current user shows {wrong}")
            data = s.collection(cid)
            shown = {"user_name": sent["name"], "username": sent["username"], "user_email": sent["email"]}
            if "custom_domain" in sent:
                shown["custom_domain"] = sent["custom_domain"]
            wrong = {k: data.get(k) for k, v in shown.items() if data.get(k) != v}
            stored(
                s,
                not wrong,
                f"after Update current user, the owner data of their collection {cid} show {wrong}",
            )
            addresses = [
                e.get("email") for e in s.body(s.call("GET", "/v1/emails"), list) if isinstance(e, dict)
            ]
            stored(
                s,
                sent["email"] in addresses,
                f"after Update current user email, List email addresses shows {addresses}",
            )
        finally:  # the user is not the run's: what changed goes back, the new address is deleted
            ctx.target.request(
                "PUT",
                "/v1/users/me",
                json_body={k: back[k] for k in sent if back.get(k) is not None or k == "custom_domain"},
            )
            listed = ctx.target.request("GET", "/v1/emails").json()
            made = entry(listed, sent["email"], key="email")
            if made is not None and made.get("email") != back["email"]:
                ctx.target.request("DELETE", f"/v1/emails/{made.get('id')}")
        if left:
            raise unpaid(*left, partly=True)


# -- parameters: query parameters, paging and filters, and their effect on the answer


@check(
    LAYER,
    "users.get_current_user",
    "include=emails, teams, teams_total_count add them",
    statements=("2.9/include", "4.4/get-current-user"),
)
def current_user_includes(ctx: RunContext) -> None:
    with session(ctx) as s:
        address = unused_address(s)
        made = s.body(s.call("POST", "/v1/emails", ok=(201,), json_body={"email": address}))
        s.register("email", f"/v1/emails/{made.get('id')}")
        emails = me(s, include="emails").get("emails")
        honoured(
            s,
            isinstance(emails, list) and made.get("id") in ids_of(emails),
            f"include=emails gives {emails!r:.300}, without the new address {address}",
        )
        teams = set(ids_of(s.body(s.call("GET", "/v1/teams"), list)))
        got = me(s, include=["teams", "teams_total_count"])
        listed = got.get("teams")
        honoured(
            s,
            isinstance(listed, list) and set(ids_of(listed)) == teams,
            f"include=teams gives {ids_of(listed or [])}, List teams {sorted(teams)}",
        )
        honoured(
            s,
            got.get("teams_total_count") == len(teams),
            f"include=teams_total_count gives {got.get('teams_total_count')!r}, List teams has {len(teams)}",
        )


def _available(s: Session, path: str, name: str, value: str, code: str, taken: str) -> None:
    free = s.call("GET", path, ok=(), params={name: value})
    body = free.json() if isinstance(free.json(), dict) else {}
    honoured(
        s,
        free.status == 200 and body.get("code") == code and isinstance(body.get("message"), str),
        f"GET {path}?{name}={value} (unused) answered {free.status} {body.get('code')!r}, "
        f"expected 200 with code {code}",
        free,
    )
    used = s.call("GET", path, ok=(), params={name: taken})
    body = used.json() if isinstance(used.json(), dict) else {}
    honoured(
        s,
        not (200 <= used.status < 300 and body.get("code") == code),
        f"GET {path}?{name}={taken} (the caller's own) answered {used.status} {code}",
        used,
    )


@check(
    LAYER,
    "users.get_email_availability",
    "an unused address is available, the caller's is not",
    writes=False,
    statements=("2.13/message.returned-by", "2.13/message.codes", "4.4/email-availability"),
)
def email_availability(ctx: RunContext) -> None:
    with session(ctx) as s:
        own = me(s).get("email")
        _available(s, "/v1/users/email", "email", unused_address(s), "email_available", str(own))


@check(
    LAYER,
    "users.get_username_availability",
    "an unused username is available, the caller's is not",
    writes=False,
    statements=("2.13/message.returned-by", "2.13/message.codes", "4.4/username-availability"),
)
def username_availability(ctx: RunContext) -> None:
    with session(ctx) as s:
        own = me(s).get("username")
        unused = f"zq{ctx.target.run_id}u{next(SERIAL)}"
        _available(s, "/v1/users/username", "username", unused, "username_available", str(own))


# -- sharing: collaborators, contacts and what they see


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
    users=3,
    statements=("2.9/contacts", "4.4/list-contacts"),
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


# -- wording: fixed codes and messages


@check(
    LAYER,
    "users.get_email_availability",
    "a taken address or username says why",
    writes=False,
    strict=True,
    statements=("design/status-codes.409", "design/error-body.message"),
)
def taken_names_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        mine = s.body(s.call("GET", "/v1/users/me"))
        for name, path in (("email", "/v1/users/email"), ("username", "/v1/users/username")):
            got = s.call("GET", path, ok=(), params={name: mine.get(name)})
            says(s, got, 409, f"{name}_unavailable", f"GET {path} of the caller's own {name}")
