"""The fixture sets: deterministic, keeping docs/design.md's guarantees, consistent, loadable by the mock.

"large" is generated once per module (about two seconds); every check that runs over all sets
shares that one copy, so the tests must never change the data they are given.
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from csapi.fixtures import NAMES, credentials, generate
from csapi.fixtures.sets import DEFAULT, build
from csapi.fixtures.world import World

ROOT = Path(__file__).resolve().parents[1]
TABLES = ("accounts", "emails", "collections", "items", "tags", "comments", "reactions", "notifications")
TIME_FIELDS = {
    "accounts": ("created_at",),
    "collections": ("created_at", "updated_at", "last_accessed_at"),
    "items": ("created_at", "updated_at", "deleted_at"),
    "tags": ("created_at",),
    "comments": ("created_at", "updated_at"),
    "reactions": ("created_at",),
}
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
USERNAME = re.compile(r"^[a-z0-9][a-z0-9_-]{1,39}$")
ITEM_TYPES = {"image", "video", "audio", "link", "text", "other", "stack"}
FILE_TYPES = {"image", "video", "audio", "other"}
FIXED_MIME = {"link": "text/uri-list", "text": "text/plain", "stack": "application/x-stack"}
Data = dict[str, Any]


@pytest.fixture(scope="module")
def large() -> Data:
    return generate("large")


@pytest.fixture(scope="module", params=NAMES)
def data(request: pytest.FixtureRequest) -> Data:
    """Each set with seed 0; "large" is the module's one copy."""
    if request.param == "large":
        return request.getfixturevalue("large")
    return generate(request.param)


@pytest.fixture(scope="module", params=["default", "large"])
def full(request: pytest.FixtureRequest) -> Data:
    """The sets that hold content, not only accounts."""
    return request.getfixturevalue("large") if request.param == "large" else generate("default")


def by_id(data: Data, table: str) -> dict[int, dict[str, Any]]:
    return {row["id"]: row for row in data[table]}


def viewers(data: Data) -> dict[int, set[int]]:
    """Collection id -> users who see it without it being public (owner, collaborators, their teams)."""
    accounts = by_id(data, "accounts")

    def users_of(account_id: int) -> set[int]:
        account = accounts[account_id]
        return {account_id} if account["kind"] == "user" else {int(key) for key in account["members"]}

    out = {}
    for collection in data["collections"]:
        users = users_of(collection["owner_id"])
        for account_id in collection["collaborators"]:
            users |= users_of(int(account_id))
        out[collection["id"]] = users
    return out


def dumped(data: Data) -> bytes:
    return json.dumps(data, sort_keys=True).encode()


# ---------------------------------------------------------------------- API and determinism
def test_names_and_unknown_name():
    assert NAMES == ("empty", "default", "large")
    with pytest.raises(ValueError, match="unknown fixture set"):
        generate("huge")


@pytest.mark.parametrize("name", ["empty", "default"])
@pytest.mark.parametrize("seed", [0, 7])
def test_same_seed_gives_the_same_bytes(name: str, seed: int):
    assert dumped(generate(name, seed)) == dumped(generate(name, seed))


def test_large_is_deterministic_too(large: Data):
    assert generate("large") == large


def test_same_bytes_in_another_process():
    """No dependence on hash randomisation, import order or the clock."""
    code = (
        "import hashlib, json; from csapi import fixtures; "
        "data = json.dumps(fixtures.generate('default', 3), sort_keys=True); "
        "print(hashlib.sha256(data.encode()).hexdigest())"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == hashlib.sha256(dumped(generate("default", 3))).hexdigest()


@pytest.mark.parametrize("name", ["empty", "default"])
def test_another_seed_gives_other_data(name: str):
    assert dumped(generate(name, 1)) != dumped(generate(name, 2))


def test_guaranteed_accounts_are_the_same_in_every_set(large: Data):
    """For one seed, users 1-3 and team 4 (credentials included) do not depend on the set."""
    empty = generate("empty")
    for other in (generate("default"), large):
        assert other["accounts"][:4] == empty["accounts"]
        assert other["emails"][:3] == empty["emails"]


# ---------------------------------------------------------------------- guarantees
def test_guaranteed_accounts(data: Data):
    accounts = by_id(data, "accounts")
    assert [accounts[i]["kind"] for i in (1, 2, 3, 4)] == ["user", "user", "user", "team"]
    assert [accounts[i]["plan"] for i in (1, 2, 3, 4)] == ["pro", "free", "free", "team"]
    team = accounts[4]
    assert team["members"] == {"1": "manager", "2": "user"}
    assert team["email"] and team["billing_email"] and team["plan_quantity"] > 0
    assert re.fullmatch(r"[0-9a-f]{32}", team["feed_key"]) and team["quota"] == 10 * 1024**3
    for account in accounts.values():
        assert account["status"] == "active" and account["plan_active"] is True
        assert "avatar" not in account
    teams = [account for account in accounts.values() if account["kind"] == "team"]
    assert all("3" not in team["members"] for team in teams)


def test_users_have_credentials(data: Data):
    users = [account for account in data["accounts"] if account["kind"] == "user"]
    for user in users:
        assert re.fullmatch(r"[A-Za-z0-9_-]{16,32}", user["password"])
        assert re.fullmatch(r"[0-9a-f]{32}", user["token"])
        assert user["members"] == {} and user["plan"] in ("free", "pro")
    assert len({user["token"] for user in users}) == len(users)


def test_user_3_shares_nothing(data: Data):
    """The stranger is in no team, nobody shares with them, they act only in their own collections."""
    own = {c["id"] for c in data["collections"] if c["owner_id"] == 3}
    for collection in data["collections"]:
        assert "3" not in collection["collaborators"]
        if collection["id"] in own:
            assert collection["type"] == "private" and collection["collaborators"] == {}
    assert {collection_id for collection_id, users in viewers(data).items() if 3 in users} == own
    items = by_id(data, "items")
    assert all(items[i]["collection_id"] in own for i in _acts_of(data, 3))
    assert all(item["collection_id"] in own for item in data["items"] if item["user_id"] == 3)


def _acts_of(data: Data, user_id: int) -> list[int]:
    """Ids of the items a user commented on or reacted to."""
    return [
        row["item_id"]
        for table in ("comments", "reactions")
        for row in data[table]
        if row["user_id"] == user_id
    ]


def test_empty_holds_only_the_guaranteed_accounts():
    data = generate("empty")
    assert [account["id"] for account in data["accounts"]] == [1, 2, 3, 4]
    assert [(email["user_id"], email["email"]) for email in data["emails"]] == [
        (account["id"], account["email"]) for account in data["accounts"][:3]
    ]
    assert all(data[table] == [] for table in TABLES[2:])


def test_usernames_and_emails_are_unique(data: Data):
    accounts = data["accounts"]
    usernames = [account["username"] for account in accounts]
    assert all(USERNAME.match(name) for name in usernames), usernames
    assert len({name.lower() for name in usernames}) == len(usernames)
    addresses = [email["email"].lower() for email in data["emails"]]
    addresses += [account["email"].lower() for account in accounts if account["kind"] == "team"]
    assert len(set(addresses)) == len(addresses)
    rows_of: dict[int, set[str]] = {}
    for email in data["emails"]:
        rows_of.setdefault(email["user_id"], set()).add(email["email"])
    kinds = {account["id"]: account["kind"] for account in accounts}
    assert all(kinds[user_id] == "user" for user_id in rows_of)
    for account in accounts:
        if account["kind"] == "user":
            assert account["email"] in rows_of[account["id"]]


def test_ids_and_sequences(data: Data):
    assert (data["format"], data["version"]) == ("csapi-state", 1)
    assert set(data) == {"format", "version", "sequences", *TABLES}
    for table in TABLES:
        ids = [row["id"] for row in data[table]]
        assert ids == list(range(1, len(ids) + 1)), table
        assert data["sequences"][table] == len(ids), table


def test_timestamps(data: Data):
    for table, names in TIME_FIELDS.items():
        for row in data[table]:
            for name in names:
                value = row[name]
                if value is None and name == "deleted_at":
                    continue
                assert TIMESTAMP.match(value) and "2026-01-01" <= value < "2026-11-01", (table, row["id"])


def test_times_move_forward(data: Data):
    accounts, collections, items = by_id(data, "accounts"), by_id(data, "collections"), by_id(data, "items")
    for collection in collections.values():
        assert accounts[collection["owner_id"]]["created_at"] <= collection["created_at"]
        assert collection["created_at"] <= collection["updated_at"] <= collection["last_accessed_at"]
    for item in items.values():
        assert collections[item["collection_id"]]["created_at"] <= item["created_at"] <= item["updated_at"]
        assert item["deleted_at"] is None or item["updated_at"] <= item["deleted_at"]
        if item["parent_id"] is not None:
            assert items[item["parent_id"]]["created_at"] <= item["created_at"]
    for table in ("tags", "comments", "reactions"):
        for row in data[table]:
            assert items[row["item_id"]]["created_at"] <= row["created_at"], (table, row["id"])
    assert all(comment["created_at"] <= comment["updated_at"] for comment in data["comments"])


# ---------------------------------------------------------------------- integrity
def test_collections_refer_to_accounts(data: Data):
    accounts = by_id(data, "accounts")
    sorts: dict[int, list[int]] = {}
    for collection in data["collections"]:
        assert collection["owner_id"] in accounts and collection["type"] in ("private", "public", "global")
        assert all(
            int(key) in accounts and int(key) != collection["owner_id"] for key in collection["collaborators"]
        )
        assert all(isinstance(on, bool) for on in collection["collaborators"].values())
        sorts.setdefault(collection["owner_id"], []).append(collection["sort"])
    assert all(values == list(range(1, len(values) + 1)) for values in sorts.values())


def test_items_refer_to_collections_and_stacks(data: Data):
    collections, items = by_id(data, "collections"), by_id(data, "items")
    seen = viewers(data)
    sorts: dict[int, list[int]] = {}
    children: Counter[int] = Counter()
    for item in items.values():
        assert item["collection_id"] in collections and item["user_id"] in seen[item["collection_id"]]
        sorts.setdefault(item["collection_id"], []).append(item["sort"])
        if item["parent_id"] is not None:
            parent = items[item["parent_id"]]
            assert parent["type"] == "stack" and parent["collection_id"] == item["collection_id"]
            assert parent["deleted_at"] is None
            children[parent["id"]] += 1
    assert all(values == list(range(1, len(values) + 1)) for values in sorts.values())
    stacks = [item["id"] for item in items.values() if item["type"] == "stack"]
    assert all(2 <= children[stack] <= 3 for stack in stacks)


def test_tags_comments_reactions_refer_to_items(data: Data):
    items, seen = by_id(data, "items"), viewers(data)
    tags: set[tuple[int, str]] = set()
    for tag in data["tags"]:
        key = (tag["item_id"], tag["name"].lower())
        assert tag["item_id"] in items and key not in tags
        tags.add(key)
    reacted: set[tuple[int, int]] = set()
    for table in ("comments", "reactions"):
        for row in data[table]:
            assert row["user_id"] in seen[items[row["item_id"]]["collection_id"]], (table, row["id"])
    for reaction in data["reactions"]:
        assert (reaction["item_id"], reaction["user_id"]) not in reacted
        reacted.add((reaction["item_id"], reaction["user_id"]))
    assert data["notifications"] == []


def test_item_content_follows_its_type(data: Data):
    for item in data["items"]:
        kind, content = item["type"], item["content"]
        assert kind in ITEM_TYPES and item["size"] == len(content.encode())
        if kind == "link":
            assert content.startswith("https://") and item["link"] == content
        elif kind in FILE_TYPES:
            assert content.startswith("https://files.example.com/") and item["link"] == ""
            assert item["mime"] == mimetypes.guess_type(urlsplit(content).path)[0], content
        elif kind == "text":
            assert content and not content.startswith("http") and item["link"] == ""
        else:
            assert content == "" and item["link"] == "" and item["parent_id"] is None
        if kind in FIXED_MIME:
            assert item["mime"] == FIXED_MIME[kind]
        assert (item["latitude"] is None) == (item["longitude"] is None)
        if item["latitude"] is not None:
            assert -90 <= item["latitude"] <= 90 and -180 <= item["longitude"] <= 180
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in item["metadata"].items())


# ---------------------------------------------------------------------- variety and size
def test_every_kind_of_thing_is_there(full: Data):
    collections, items = full["collections"], full["items"]
    assert {c["type"] for c in collections} == {"private", "public", "global"}
    assert {i["type"] for i in items} == ITEM_TYPES
    assert any(c["archived"] for c in collections) and any(c["highlighted"] for c in collections)
    assert any(i["deleted_at"] for i in items) and any(i["shareable"] is True for i in items)
    assert any(i["description"] is None for i in items) and any(i["description"] for i in items)
    assert any(i["latitude"] is not None for i in items) and any(i["metadata"] for i in items)
    assert full["tags"] and full["comments"] and full["reactions"]
    owners = {c["owner_id"] for c in collections}
    assert {1, 2, 4} <= owners
    assert any(c["owner_id"] == 1 and "2" in c["collaborators"] for c in collections)
    assert [c["owner_id"] for c in collections if "4" in c["collaborators"]] in ([1], [2])


def test_comments_mention_real_usernames(full: Data):
    usernames = {account["username"] for account in full["accounts"]}
    mentioned = [m for c in full["comments"] for m in re.findall(r"@([a-z0-9_-]+)", c["body"])]
    assert mentioned and set(mentioned) <= usernames


def test_default_is_a_handful():
    data = generate("default")
    users = [account for account in data["accounts"] if account["kind"] == "user"]
    assert 5 <= len(users) <= 8 and len(data["collections"]) <= 40 and len(data["items"]) <= 400


def test_large_sizes(large: Data):
    assert len(large["items"]) >= 100_000
    assert len(large["collections"]) >= 1_000
    assert sum(account["kind"] == "user" for account in large["accounts"]) == 1_000


def test_item_count_is_topped_up():
    """When the random counts fall short of `min_items`, the last collection gets the rest."""
    world = World(0)
    build(world, replace(DEFAULT, min_items=600))
    data = world.data()
    assert len(data["items"]) >= 600
    test_items_refer_to_collections_and_stacks(data)


# ---------------------------------------------------------------------- credentials and the mock
def test_credentials():
    data = generate("default")
    body = credentials(data, "secret")
    assert body["api_key"] == "secret"
    users = [account for account in data["accounts"] if account["kind"] == "user"]
    assert [user["id"] for user in body["users"]] == [user["id"] for user in users]
    assert body["users"][0] == {
        key: users[0][key] for key in ("id", "username", "email", "password", "token", "plan")
    }
    assert body["teams"] == [
        {"id": 4, "username": data["accounts"][3]["username"], "managers": [1], "members": [2]}
    ]
    json.dumps(body)


def _round_trip(data: Data) -> Data:
    store_module = pytest.importorskip("csapi.mock_server.store")
    snapshot = store_module.Store(data=data).snapshot()
    assert len(snapshot["accounts"]) == len(data["accounts"])
    assert snapshot["sequences"] == data["sequences"]
    assert all(len(snapshot[table]) == len(data[table]) for table in TABLES)
    return snapshot


@pytest.mark.parametrize("name", ["empty", "default"])
def test_the_mock_loads_the_set(name: str):
    """The store reads the set back unchanged: every field the fixtures give survives a snapshot."""
    data = generate(name)
    snapshot = _round_trip(data)
    for table in TABLES:
        for mine, theirs in zip(data[table], snapshot[table], strict=True):
            assert {key: theirs.get(key) for key in mine} == mine, (table, mine["id"])


@pytest.mark.slow
def test_the_mock_loads_the_large_set(large: Data):
    """Counts only: loading and snapshotting 100,000 items takes the store about four seconds."""
    _round_trip(large)
