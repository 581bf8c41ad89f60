"""The access layer against the mock over HTTP: no false positive (plain, --strict, one user,
--read-only, no team), nothing left behind or changed, and planted faults found by name.

A fault is a small ASGI middleware in front of the mock app; `Fault.users` is filled in once
the served mock's users are known.
"""

from __future__ import annotations

import ast
import base64
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from csapi.conformance.results import FAIL, PASS, SKIP, Outcome, summary
from csapi.conformance.runner import Verdict, run_checks
from csapi.conformance.settings import Settings, User
from csapi.conformance.target import Target
from tests.conformance.conftest import API_KEY, Live, live_mock

ACCESS = ("access",)


def run_access(settings: Settings) -> tuple[Verdict, float]:
    start, target = time.monotonic(), Target(settings)
    try:
        verdict = run_checks(settings, target, layers=ACCESS)
    finally:
        target.client.close()
    return verdict, time.monotonic() - start


def failed_operations(verdict: Verdict) -> set[str]:
    return {o.operation for o in verdict.results.outcomes if o.status != PASS and o.status != SKIP}


def failures(verdict: Verdict) -> list[Outcome]:
    return [o for o in verdict.results.outcomes if o.status == FAIL]


def leftovers(live: Live, prefix: str) -> list[str]:
    """What the run made that is still alive in the mock's store."""
    store = live.store
    return (
        [f"collection {c.name}" for c in store.collections.values() if c.name.startswith(prefix)]
        + [
            f"item {i.name}"
            for i in store.items.values()
            if (i.name or "").startswith(prefix) and i.deleted_at is None
        ]
        + [f"comment {c.body}" for c in store.comments.values() if "accessword" in c.body]
    )


def team_state(live: Live, team_id: int) -> tuple[str, dict[int, str]]:
    team = live.store.accounts[team_id]
    return team.name, dict(team.members)


# ---------------------------------------------------------------------- no false positive
@pytest.mark.parametrize("strict", [False, True], ids=["default", "strict"])
def test_the_mock_passes_every_access_check(strict):
    with live_mock() as live:
        settings = live.settings(strict=strict)
        team_before = team_state(live, settings.team_id)
        verdict, seconds = run_access(settings)
        assert verdict.results.ok, [(o.operation, o.check, o.message) for o in verdict.results.outcomes]
        assert verdict.results.count(SKIP) == 0
        assert verdict.left_behind == []
        assert leftovers(live, settings.prefix) == []
        assert team_state(live, settings.team_id) == team_before
        assert seconds < 10
    assert {o.layer for o in verdict.results.outcomes} == {"access"}
    checks = {o.check for o in verdict.results.outcomes}
    strict_only = {"the owner's permissions object", "a collaborator's permissions object"}
    assert strict_only <= checks if strict else not strict_only & checks


def test_one_user_skips_the_multi_user_checks_with_a_note():
    with live_mock() as live:
        full = live.settings()
        settings = live.settings(users=full.users[:1])
        verdict, _ = run_access(settings)
    outcomes = verdict.results.outcomes
    assert verdict.results.ok
    skipped = [o for o in outcomes if o.status == SKIP]
    assert skipped and all("needs 2 users" in o.message for o in skipped)
    assert {o.operation for o in skipped} >= {
        "collections.get_collection",
        "collections.remove_collaborator",
        "teams.update_team",
        "search.search",
    }
    assert any(o.status == PASS and o.operation == "users.get_current_user" for o in outcomes)


def test_two_users_make_user_2_the_stranger():
    with live_mock() as live:
        verdict, _ = run_access(live.settings(users=live.settings().users[:2]))
    assert verdict.results.ok
    assert verdict.results.count(SKIP) == 0


def test_no_team_id_skips_the_managers_only_checks_with_a_note():
    with live_mock() as live:
        verdict, _ = run_access(live.settings(team_id=None))
    skipped = [o for o in verdict.results.outcomes if o.status == SKIP]
    assert verdict.results.ok
    assert {o.operation for o in skipped} == {
        "teams.update_team",
        "teams.add_team_member",
        "teams.update_team_member",
        "teams.remove_team_member",
    }
    assert all("--team-id" in o.message for o in skipped)


class Recorder:
    """Passes everything through and notes each request's method and path."""

    def __init__(self, app: Any):
        self.app, self.seen = app, []

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            self.seen.append((scope["method"], scope["path"]))
        await self.app(scope, receive, send)


def test_read_only_sends_only_gets():
    recorders: list[Recorder] = []

    def wrap(app):
        recorders.append(Recorder(app))
        return recorders[0]

    with live_mock(wrap=wrap) as live:
        verdict, _ = run_access(live.settings(read_only=True))
    assert verdict.results.ok
    assert len(verdict.results.outcomes) >= 10
    assert {method for method, _ in recorders[0].seen} == {"GET"}


# ---------------------------------------------------------------------- planted faults
def basic(user: User) -> bytes:
    return b"Basic " + base64.b64encode(f"{user.id}:{user.token}".encode())


class Fault:
    """A middleware that hands each HTTP request to `fix(fault, method, path, headers)`: it may
    change the headers in place, or return (status, body) to answer without the mock."""

    def __init__(self, app: Any, fix: Callable[..., tuple[int, dict] | None]):
        self.app, self.fix = app, fix
        self.users: tuple[User, ...] = ()

    def credentials(self, index: int) -> bytes:
        return basic(self.users[index])

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not self.users:
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        answer = self.fix(self, scope["method"], scope["path"], headers)
        if answer is not None:
            status, body = answer
            payload = json.dumps(body).encode()
            await send(
                {
                    "type": "http.response.start",
                    "status": status,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", b"%d" % len(payload)),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": payload})
            return
        await self.app({**scope, "headers": list(headers.items())}, receive, send)


def auth_ignored(fault: Fault, method: str, path: str, headers: dict[bytes, bytes]) -> None:
    """Requests lacking credentials get valid ones: the API key and user 1's."""
    headers.setdefault(b"x-api-key", API_KEY.encode())
    headers.setdefault(b"authorization", fault.credentials(0))


def cross_user_leak(fault: Fault, method: str, path: str, headers: dict[bytes, bytes]) -> None:
    """User 3 is answered what user 1 would see."""
    if headers.get(b"authorization") == fault.credentials(2):
        headers[b"authorization"] = fault.credentials(0)


def manager_check_missing(fault: Fault, method: str, path: str, headers: dict[bytes, bytes]) -> None:
    """User 2's changes to teams go through as if a manager made them."""
    if (
        method == "PUT"
        and path.startswith("/v1/teams")
        and headers.get(b"authorization") == fault.credentials(1)
    ):
        headers[b"authorization"] = fault.credentials(0)


def public_writable(fault: Fault, method: str, path: str, headers: dict[bytes, bytes]) -> None:
    """User 3's writes to collections and items go through as the owner's."""
    writes = (method == "PUT" and path.startswith(("/v1/collections/", "/v1/items/"))) or (
        method == "POST" and path.startswith("/v1/collections/") and path.endswith("/items")
    )
    if writes and headers.get(b"authorization") == fault.credentials(2):
        headers[b"authorization"] = fault.credentials(0)


def removal_ineffective(fault: Fault, method: str, path: str, headers: dict[bytes, bytes]):
    """Removing a collaborator answers 200 and does nothing."""
    parts = path.strip("/").split("/")
    if method == "DELETE" and len(parts) == 5 and parts[1] == "collections" and parts[3] == "users":
        return 200, {"code": "deleted", "message": f"Collaborator {parts[4]} was deleted."}
    return None


FAULTS = {
    "auth ignored": (
        auth_ignored,
        {
            "auth.ping",
            "users.get_current_user",
            "collections.list_collections",
            "items.list_items",
            "activity.list_activity",
            "collections.create_collection",
        },
    ),
    "cross-user leak": (
        cross_user_leak,
        {
            "collections.get_collection",
            "items.get_item",
            "comments.list_comments",
            "collections.list_collaborators",
            "collections.list_collections",
            "items.list_items",
            "search.search",
            "activity.list_activity",
            "tags.list_tags",
            "items.copy_items",
            "items.update_multiple_items",
            "comments.create_comment",
            "comments.update_comment",
            # a reader writes as the owner; and a stranger can see before being added, after removal
            "collections.update_collection",
            "items.create_item",
            "items.update_item",
            "collections.add_collaborator",
            "collections.remove_collaborator",
        },
    ),
    "manager check missing": (manager_check_missing, {"teams.update_team", "teams.update_team_member"}),
    "public collection writable": (
        public_writable,
        {"collections.update_collection", "items.create_item", "items.update_item"},
    ),
    "collaborator removal not effective": (removal_ineffective, {"collections.remove_collaborator"}),
}


@pytest.mark.parametrize("fault_name", list(FAULTS))
def test_a_planted_fault_fails_the_layer_and_names_the_operation(fault_name):
    fix, operations = FAULTS[fault_name]
    faults: list[Fault] = []

    def wrap(app):
        faults.append(Fault(app, fix))
        return faults[0]

    with live_mock(wrap=wrap) as live:
        settings = live.settings()
        team_before = team_state(live, settings.team_id)
        faults[0].users = settings.users
        verdict, _ = run_access(settings)
        faults[0].users = ()  # cleanup and the checks' own undoing are done; look at the store as it is
        assert team_state(live, settings.team_id) == team_before  # the team checks did no harm
        assert verdict.left_behind == []
        assert leftovers(live, settings.prefix) == []
    assert not verdict.results.ok
    failed = failed_operations(verdict)
    # exactly the operations the fault breaks fail: named, and nothing else blamed
    assert failed == operations, (failed ^ operations, [(o.operation, o.message) for o in failures(verdict)])
    for outcome in failures(verdict):
        assert outcome.exchange is not None and outcome.message, outcome
    text = summary(verdict.results)  # the verdict names each operation and shows a request to replay
    assert all(f"FAIL {operation}" in text for operation in operations)
    assert "curl -sS -X " in text


# ---------------------------------------------------------------------- black box
def test_the_conformance_package_never_imports_the_mock():
    package = Path(__file__).resolve().parents[2] / "conformance"
    for module in package.glob("*.py"):
        tree = ast.parse(module.read_text(encoding="utf-8"))
        names = [
            alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        ]
        names += [node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)]
        assert not [n for n in names if n.split(".")[0] == "mock_server"], module.name
