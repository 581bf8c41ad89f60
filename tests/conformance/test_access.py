"""The access layer against the mock over HTTP: no false positive (plain, --strict, one user,
--read-only, no team), nothing left behind or changed, and planted faults found by name.

The faults are the planted ones of tests/conformance/faults_access.py, put in front of the mock
by the one fault harness (faults.py) once the served mock's users are known.
"""

from __future__ import annotations

import ast
import time
from pathlib import Path

import pytest

from csapi.conformance.results import FAIL, PASS, SKIP, Outcome, summary
from csapi.conformance.runner import Verdict, run_checks
from csapi.conformance.settings import Settings
from csapi.conformance.target import Target
from tests.conformance.conftest import Live, live_mock
from tests.conformance.faults import FAULTS, Answer, Forward, Request, Switch, World, wrap_with

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


def test_read_only_sends_only_gets():
    seen: list[str] = []

    async def note(request: Request, forward: Forward, world: World) -> Answer:
        seen.append(request.method)
        return await forward(request)

    with live_mock(wrap=wrap_with(note)) as live:
        verdict, _ = run_access(live.settings(read_only=True))
    assert verdict.results.ok
    assert len(verdict.results.outcomes) >= 10
    assert set(seen) == {"GET"}


# ---------------------------------------------------------------------- planted faults
# each of faults_access.py's planted faults, and exactly the operations whose checks it fails
BROKEN = {
    "auth-ignored": {
        "users.get_current_user",
        "collections.list_collections",
        "items.list_items",
        "activity.list_activity",
        "collections.create_collection",
    },
    # a stranger can see the collection, and can see it before being added and after removal
    "cross-user-leak": {
        "collections.get_collection",
        "collections.add_collaborator",
        "collections.remove_collaborator",
    },
    "manager-check-missing": {"teams.update_team"},
    "public-collection-writable": {"collections.update_collection"},
    "collaborator-removal-ineffective": {"collections.remove_collaborator"},
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_planted_fault_fails_the_layer_and_names_the_operation(name):
    operations, switch = BROKEN[name], Switch()
    with live_mock(wrap=switch.wrap) as live:
        settings = live.settings()
        team_before = team_state(live, settings.team_id)
        with switch.planted(FAULTS[name], World(settings.users, settings.api_key)):
            verdict, _ = run_access(settings)
        # cleanup and the checks' own undoing are done; look at the store as it is
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
