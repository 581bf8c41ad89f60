"""The permission matrix (issue 7, part 4): every operation of the document x six roles, each
cell one request with the outcome docs/design.md's rules give (visibility, permissions object,
paid fields, teams).

Roles, as (caller, the collection the request aims at):
- owner: user 1 (pro) on P, a private collection of theirs
- collaborator: user 2 (free) on P, which is shared with them
- team manager: user 5 (pro) on T, a private collection of team 4, which they manage
- team member: user 6 (free), a plain member of team 4, on T
- stranger: user 3 (free) on P: invisible, so 404
- public reader: user 3 on Q, a public collection of user 1: readable, not writable

Each of P, T and Q holds an item (tagged, commented on and liked by the collection's owner
side: user 1, or the manager for T), a second item, a stack with a child, and a second
collaborator (user 7), whom the remove cells remove. Account-level operations (users,
emails, ping, auth) act on the caller's own account; team operations on team 4. For lists,
search, activity and tags a cell also says whether the aimed-at thing is listed.

A refused request (and every read) leaves the state as it was; the state is restored after
every cell that may have changed it, so cells are independent.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from csapi.mock_server.store import Store
from csapi.openapi import document
from tests.mock_server.conftest import API_KEY, START, Clock, assert_error, auth_headers, empty_data

OWNER, COLLAB, STRANGER, TEAM, MANAGER, MEMBER, EXTRA, INVITEE = 1, 2, 3, 4, 5, 6, 7, 8
ROLES = {  # role -> (caller, the collection aimed at)
    "owner": (OWNER, "P"),
    "collaborator": (COLLAB, "P"),
    "team manager": (MANAGER, "T"),
    "team member": (MEMBER, "T"),
    "stranger": (STRANGER, "P"),
    "public reader": (STRANGER, "Q"),
}


@dataclass(frozen=True)
class Aim:
    """What a cell's request names: the collection's things, and the caller's own."""

    collection: int
    owner: int  # the account owning the collection
    item: int  # tagged, commented on and liked by the owner side
    item2: int  # nothing on it
    tag: int
    comment: int
    reaction: int
    word: str  # only in this collection's item name, for search
    tag_name: str
    caller: int
    email: int  # the caller's second address


def _build() -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The world's snapshot, and per collection letter the ids of its things."""
    clock = Clock()
    store = Store(clock=clock, data=empty_data())
    for plan in ("pro", "free", "free", "free"):  # 5, 6, 7, 8
        store.create_user(plan=plan)
    acc = store.accounts
    store.add_team_member(acc[OWNER], TEAM, {"id": MANAGER, "kind": "manager"})
    store.add_team_member(acc[OWNER], TEAM, {"id": MEMBER})
    store.remove_team_member(acc[OWNER], TEAM, COLLAB)
    store.remove_team_member(acc[MANAGER], TEAM, OWNER)  # team 4 is now manager 5, member 6
    for user in (OWNER, COLLAB, STRANGER, MANAGER, MEMBER):
        store.create_email_address(acc[user], f"second{user}@example.net")
    things: dict[str, dict[str, Any]] = {}
    for letter, kind, owner, author, users in (
        ("P", "private", OWNER, OWNER, [COLLAB, EXTRA]),
        ("Q", "public", OWNER, OWNER, [EXTRA]),
        ("T", "private", TEAM, MANAGER, [EXTRA]),
    ):
        clock.advance()
        body = {"name": f"Collection {letter}", "type": kind, "user_id": owner, "users": users}
        collection = store.create_collection(acc[author], body).id
        word = f"find{letter.lower()}word"

        def item(author: int = author, collection: int = collection, **body: Any) -> int:
            clock.advance()
            return store.create_item(acc[author], collection, {"type": "text", "content": "x", **body})[0].id

        first = item(name=f"First {word}", tags=[f"{letter.lower()}tag"])
        second = item(name="Second")
        stack = item(type="stack", name="Stack")
        item(name="Child", parent_id=stack)
        things[letter] = {
            "collection": collection, "owner": owner, "item": first, "item2": second,
            "tag": store.item_tags(first)[0].id, "comment": store.create_comment(acc[author], first, "Hi").id,
            "reaction": store.create_reaction(acc[author], first).id, "word": word,
            "tag_name": f"{letter.lower()}tag",
        }  # fmt: skip
    assert store.check_invariants() == []
    return store.snapshot(), things


SNAPSHOT, THINGS = _build()
EMAILS = {row["user_id"]: row["id"] for row in SNAPSHOT["emails"] if row["email"].startswith("second")}


def aim(role: str) -> Aim:
    caller, letter = ROLES[role]
    return Aim(**THINGS[letter], caller=caller, email=EMAILS[caller])


Request = tuple[str, str, dict[str, Any]]
# What each operation's cell sends, given its aim.
REQUESTS: dict[str, Callable[[Aim], Request]] = {
    "collections.list_collections": lambda a: ("GET", "/v1/collections", {}),
    "collections.create_collection": lambda a: (
        "POST", "/v1/collections", {"json": {"name": "New", "type": "private", "user_id": a.owner}}),
    "collections.get_collections_count": lambda a: ("GET", "/v1/collections/count", {}),
    "collections.get_collection": lambda a: ("GET", f"/v1/collections/{a.collection}", {}),
    "collections.update_collection": lambda a: (
        "PUT", f"/v1/collections/{a.collection}", {"json": {"name": "R"}}),
    "collections.delete_collection": lambda a: ("DELETE", f"/v1/collections/{a.collection}", {}),
    "collections.list_collection_tags": lambda a: ("GET", f"/v1/collections/{a.collection}/tags", {}),
    "items.create_item": lambda a: (
        "POST", f"/v1/collections/{a.collection}/items", {"json": {"type": "text", "content": "new"}}),
    "collections.update_items": lambda a: (
        "PUT", f"/v1/collections/{a.collection}/items", {"json": {"order": [a.item2, a.item]}}),
    "collections.delete_items": lambda a: (
        "DELETE", f"/v1/collections/{a.collection}/items", {"json": {"items": [a.item2]}}),
    "collections.list_collaborators": lambda a: ("GET", f"/v1/collections/{a.collection}/users", {}),
    "collections.add_collaborator": lambda a: (
        "POST", f"/v1/collections/{a.collection}/users", {"json": {"id": INVITEE}}),
    "collections.remove_collaborator": lambda a: (
        "DELETE", f"/v1/collections/{a.collection}/users/{EXTRA}", {}),
    "items.list_items": lambda a: ("GET", "/v1/items", {"params": {"collection_id": a.collection}}),
    "items.update_multiple_items": lambda a: (
        "PUT", "/v1/items", {"json": {"items": [a.item2], "collection_id": a.collection}}),
    "items.copy_items": lambda a: ("PUT", "/v1/items/copy", {"json": {"items": [a.item2]}}),
    "items.get_item": lambda a: ("GET", f"/v1/items/{a.item}", {}),
    "items.update_item": lambda a: ("PUT", f"/v1/items/{a.item}", {"json": {"name": "Renamed"}}),
    "items.delete_item": lambda a: ("DELETE", f"/v1/items/{a.item2}", {}),
    "items.list_item_tags": lambda a: ("GET", f"/v1/items/{a.item}/tags", {}),
    "tags.create_tag": lambda a: ("POST", f"/v1/items/{a.item2}/tags", {"json": {"name": "new"}}),
    "comments.list_comments": lambda a: ("GET", f"/v1/items/{a.item}/comments", {}),
    "comments.create_comment": lambda a: ("POST", f"/v1/items/{a.item}/comments", {"json": {"body": "Hi"}}),
    "comments.update_comment": lambda a: ("PUT", f"/v1/comments/{a.comment}", {"json": {"body": "Edited"}}),
    "comments.delete_comment": lambda a: ("DELETE", f"/v1/comments/{a.comment}", {}),
    "reactions.list_reactions": lambda a: ("GET", f"/v1/items/{a.item}/reactions", {}),
    "reactions.create_reaction": lambda a: ("POST", f"/v1/items/{a.item2}/reactions", {}),
    "reactions.delete_reaction": lambda a: ("DELETE", f"/v1/reactions/{a.reaction}", {}),
    "teams.list_teams": lambda a: ("GET", "/v1/teams", {}),
    "teams.get_team": lambda a: ("GET", f"/v1/teams/{TEAM}", {}),
    "teams.update_team": lambda a: ("PUT", f"/v1/teams/{TEAM}", {"json": {"name": "Renamed team"}}),
    "teams.list_team_members": lambda a: ("GET", f"/v1/teams/{TEAM}/users", {}),
    "teams.add_team_member": lambda a: ("POST", f"/v1/teams/{TEAM}/users", {"json": {"id": INVITEE}}),
    "teams.update_team_member": lambda a: (
        "PUT", f"/v1/teams/{TEAM}/users/{MEMBER}", {"json": {"kind": "user"}}),
    "teams.remove_team_member": lambda a: ("DELETE", f"/v1/teams/{TEAM}/users/{MEMBER}", {}),
    "users.get_current_user": lambda a: ("GET", "/v1/users/me", {}),
    "users.update_current_user": lambda a: ("PUT", "/v1/users/me", {"json": {"name": "Someone Else"}}),
    "users.list_contacts": lambda a: ("GET", "/v1/users/contacts", {}),
    "users.get_email_availability": lambda a: (
        "GET", "/v1/users/email", {"params": {"email": "free@example.net"}}),
    "users.get_username_availability": lambda a: (
        "GET", "/v1/users/username", {"params": {"username": "freename"}}),
    "emails.list_email_addresses": lambda a: ("GET", "/v1/emails", {}),
    "emails.create_email_address": lambda a: (
        "POST", "/v1/emails", {"json": {"email": f"new{a.caller}@example.net"}}),
    "emails.delete_email_address": lambda a: ("DELETE", f"/v1/emails/{a.email}", {}),
    "tags.list_tags": lambda a: ("GET", "/v1/tags", {}),
    "tags.delete_tag": lambda a: ("DELETE", f"/v1/tags/{a.tag}", {}),
    "search.search": lambda a: ("GET", "/v1/search", {"params": {"q": a.word}}),
    "activity.list_activity": lambda a: ("GET", "/v1/activity", {"params": {"per_page": 100}}),
    "auth.ping": lambda a: ("GET", "/v1/ping", {}),
    "auth.authenticate": lambda a: ("POST", "/v1/auth", {}),
}  # fmt: skip

# Outcomes in the order of ROLES: owner, collaborator, team manager, team member, stranger,
# public reader. "200+" / "200-": 200, and the aimed-at thing is / is not in the list.
READ = "200 200 200 200 404 200"
EDIT = "200 200 200 200 404 403"  # the edit (and share) permission: owner, collaborator, either team role
AUTHOR = "200 403 200 403 404 403"  # only the comment's author (or the liker): the owner side
MANAGERS = "404 404 200 403 404 404"  # team 4: its manager may, a plain member may not, others see nothing
MINE = "200 200 200 200 200 200"  # the caller's own account
LISTED = "200+ 200+ 200+ 200+ 200- 200-"  # lists of what the caller owns or shares (not public ones)
EXPECTED: dict[str, str] = {
    "collections.list_collections": LISTED,
    "collections.create_collection": "201 403 201 403 403 403",  # for the aim's owner: oneself or one's team
    "collections.get_collections_count": MINE,
    "collections.get_collection": READ,
    "collections.update_collection": EDIT,
    "collections.delete_collection": "200 403 200 403 404 403",  # delete: the owner (a manager counts as one)
    "collections.list_collection_tags": READ,
    "items.create_item": EDIT.replace("200", "201"),
    "collections.update_items": EDIT,
    "collections.delete_items": EDIT,
    "collections.list_collaborators": READ,
    "collections.add_collaborator": EDIT.replace("200", "201"),
    "collections.remove_collaborator": EDIT,
    "items.list_items": READ,
    "items.update_multiple_items": EDIT,
    "items.copy_items": EDIT.replace("200", "201"),
    "items.get_item": READ,
    "items.update_item": EDIT,
    "items.delete_item": EDIT,
    "items.list_item_tags": READ,
    "tags.create_tag": "201 402 201 402 404 403",  # tags are paid: the free collaborator and member get 402
    "tags.delete_tag": EDIT,
    "tags.list_tags": LISTED,
    "comments.list_comments": READ,
    "comments.create_comment": READ.replace("200", "201"),  # anyone who sees an item may comment and like
    "comments.update_comment": AUTHOR,
    "comments.delete_comment": AUTHOR,  # the author or the collection's owner: here both the owner side
    "reactions.list_reactions": READ,
    "reactions.create_reaction": READ.replace("200", "201"),
    "reactions.delete_reaction": AUTHOR,
    "teams.list_teams": "200- 200- 200+ 200+ 200- 200-",
    "teams.get_team": "404 404 200 200 404 404",
    "teams.update_team": MANAGERS,
    "teams.list_team_members": "404 404 200 200 404 404",
    "teams.add_team_member": MANAGERS.replace("200", "201"),
    "teams.update_team_member": MANAGERS,
    "teams.remove_team_member": MANAGERS,
    "users.get_current_user": MINE,
    "users.update_current_user": MINE,
    "users.list_contacts": MINE,
    "users.get_email_availability": MINE,
    "users.get_username_availability": MINE,
    "emails.list_email_addresses": MINE,
    "emails.create_email_address": MINE.replace("200", "201"),
    "emails.delete_email_address": MINE,
    "search.search": LISTED,
    "activity.list_activity": LISTED,
    "auth.ping": MINE,
    "auth.authenticate": MINE.replace("200", "201"),
}
CODES = {402: "paid_plan_required", 403: "forbidden", 404: "not_found"}


def operation_ids() -> set[str]:
    return {
        op["operationId"]
        for item in document()["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and "operationId" in op
    }


def test_the_matrix_covers_every_operation_of_the_document_and_every_role():
    assert set(REQUESTS) == set(EXPECTED) == operation_ids()
    assert len(operation_ids()) == 49
    assert all(len(row.split()) == len(ROLES) for row in EXPECTED.values())


def listed(operation: str, body: Any, a: Aim) -> bool:
    """Whether the aimed-at thing is in a list answer."""
    if operation == "collections.list_collections":
        return a.collection in [c["id"] for c in body]
    if operation == "tags.list_tags":
        return a.tag_name in [t["name"] for t in body]
    if operation == "search.search":
        return a.item in [r["id"] for r in body if r["type"] != "collection"]
    if operation == "activity.list_activity":
        return a.collection in [e["id"] for e in body if e["type"] == "collection"]
    if operation == "teams.list_teams":
        return TEAM in [t["id"] for t in body]
    raise AssertionError(f"no listing rule for {operation}")


class _Restorer:
    """Restores the shared store to the world before a cell, when the last cell may have changed it."""

    def __init__(self, shared: Any):
        self.shared = shared
        self.dirty = True

    def __call__(self, method: str) -> Store:
        if self.dirty:
            self.shared.store.reset(copy.deepcopy(SNAPSHOT))
            self.shared.clock.now = START
        self.dirty = method != "GET"
        return self.shared.store


@pytest.fixture(scope="module")
def matrix(_shared: Any) -> Iterator[tuple[Any, _Restorer]]:
    restorer = _Restorer(_shared)
    with _shared.app.test_client() as client:
        yield client, restorer
    _shared.store.reset(empty_data())  # as the other modules expect to find it


CELLS = [(operation, role) for operation in sorted(EXPECTED) for role in ROLES]


@pytest.mark.parametrize(("operation", "role"), CELLS, ids=[f"{op}-{role}" for op, role in CELLS])
def test_cell(matrix, operation: str, role: str):
    client, restore = matrix
    a = aim(role)
    method, path, kwargs = REQUESTS[operation](a)
    store = restore(method)
    kwargs = dict(kwargs)
    if operation == "auth.authenticate":  # the caller signs in with their own address and password
        account = store.accounts[a.caller]
        kwargs["json"] = {"email": account.email, "password": account.password}
    headers = {"X-API-Key": API_KEY} if operation.startswith("auth.") else auth_headers(store, a.caller)
    before = json.dumps(store.snapshot(), sort_keys=True)
    response = client.request(method, path, headers=headers, **kwargs)
    expected = EXPECTED[operation].split()[list(ROLES).index(role)]
    status = int(expected.rstrip("+-"))
    if status >= 400:
        assert_error(response, status, CODES[status])
    else:
        assert response.status_code == status, response.text
    if expected[-1] in "+-":
        assert listed(operation, response.json(), a) == (expected[-1] == "+"), response.text
    if status >= 400 or method == "GET":
        assert json.dumps(store.snapshot(), sort_keys=True) == before, (
            "a refused request or a read changed the state"
        )
        restore.dirty = False
