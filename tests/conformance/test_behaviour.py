"""The behaviour layer against the mock over HTTP: it passes on a conforming server, changes
nothing it did not make, and finds faults planted in front of the mock (the planted set of
tests/conformance/faults*.py), naming the operation that broke."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from csapi.conformance import runner
from csapi.conformance.registry import REGISTRY
from csapi.conformance.results import FAIL, PASS, SKIP, Outcome
from csapi.conformance.target import Target
from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store
from tests.conformance.conftest import API_KEY, SETTLE_AT_ONCE, Live, live_mock, serve_app
from tests.conformance.faults import (
    FAULTS,
    ITEM,
    Answer,
    Asgi,
    Forward,
    Handler,
    Request,
    World,
    wrap_with,
)


def run_layer(live: Live, **overrides: Any) -> list[Outcome]:
    """Only this layer's checks (the runner's selection rules), then the run's cleanup."""
    settings = live.settings(**overrides)
    target = Target(settings)
    try:
        verdict = runner.run_checks(settings, target, layers=("behaviour",))
    finally:
        target.client.close()
    assert not verdict.left_behind, verdict.left_behind
    return verdict.results.outcomes


@pytest.fixture(scope="module")
def mock() -> tuple[Store, Asgi]:
    """One mock app for the tests that need no seed of their own (building one takes seconds);
    the layer removes what it makes, so they can share it."""
    store = Store(data=generate("default", 3))
    return store, create_app(store, api_key=API_KEY)


@contextmanager
def serving(mock: tuple[Store, Asgi], wrap: Callable[[Asgi], Asgi] | None = None) -> Iterator[Live]:
    store, app = mock
    with serve_app(wrap(app) if wrap else app) as base_url:
        yield Live(base_url, store)


def failures(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if o.status not in (PASS, SKIP)]


def shown(outcomes: list[Outcome]) -> str:
    return "\n".join(f"{o.status} {o.operation}: {o.check}: {o.message}" for o in failures(outcomes))


# ---------------------------------------------------------------------- a conforming server
@pytest.mark.parametrize(
    ("seed", "overrides"),
    [(0, {}), (1, {"quick": True, "seed": 1}), (2, {"quick": True, "strict": True, "seed": 2})],
    ids=["default", "quick", "quick-strict"],
)
def test_passes_against_the_mock_and_changes_only_its_own(seed: int, overrides: dict[str, Any]) -> None:
    with live_mock(seed) as live:
        before = live.store.snapshot()
        outcomes = run_layer(live, **overrides)
        after = live.store.snapshot()
    assert not failures(outcomes), shown(outcomes)
    operations = {o.operation for o in outcomes if o.status == PASS}
    for operation in (
        "items.list_items",
        "items.update_item",
        "items.delete_item",
        "items.copy_items",
        "collections.update_items",
        "items.update_multiple_items",
        "tags.list_tags",
    ):
        assert operation in operations
    assert any(o.check.startswith("stateful: ") for o in outcomes)
    if overrides.get("strict"):
        assert any(o.check == "a deleted item's GET answers 404" for o in outcomes)
    else:
        assert not any(o.check == "a deleted item's GET answers 404" for o in outcomes)
    for table in ("accounts", "emails", "collections", "items", "tags", "comments", "reactions"):
        old = {row["id"]: row for row in before[table]}
        kept = {row["id"]: row for row in after[table] if row["id"] in old}
        assert kept == {i: r for i, r in old.items() if i in kept}, (
            f"the layer changed {table} it did not make"
        )
        if table not in ("items",):  # items are soft-deleted: the rows stay with deleted_at set
            assert set(kept) == set(old), f"the layer deleted {table} it did not make"
    live_items = [row for row in after["items"] if row["id"] not in {r["id"] for r in before["items"]}]
    assert all(row["deleted_at"] for row in live_items), "the layer left items behind"
    assert len(after["collections"]) == len(before["collections"]), "the layer left collections behind"


def test_read_only_runs_only_the_checks_that_write_nothing(mock: tuple[Store, Asgi]) -> None:
    store, _ = mock
    with serving(mock) as live:
        before = store.snapshot()
        outcomes = run_layer(live, read_only=True)
        assert store.snapshot()["collections"] == before["collections"]
    reading = {c.name for c in REGISTRY if c.layer == "behaviour" and not c.writes}
    assert {o.check for o in outcomes} <= reading


def test_a_free_first_user_skips_the_tag_checks_with_a_note(mock: tuple[Store, Asgi]) -> None:
    with serving(mock) as live:
        users = live.settings().users
        outcomes = run_layer(live, users=(users[2], users[0]), quick=True)
    assert not failures(outcomes), shown(outcomes)
    skipped = [o for o in outcomes if o.status == SKIP]
    assert {o.operation for o in skipped} >= {
        "tags.list_tags",
        "items.list_items",
        "collections.update_items",
    }
    # the others skip for want of a team the first user manages or of a third user, never silently
    others = [o for o in skipped if "paid plan" not in o.message]
    assert all(re.search(r"needs \d+ users|team", o.message) for o in others), shown(others)


def test_include_keeps_to_the_operations_named(mock: tuple[Store, Asgi]) -> None:
    with serving(mock) as live:
        outcomes = run_layer(live, quick=True, include=("items.update_item", "comments.create_comment"))
    assert {o.operation for o in outcomes} == {"items.update_item", "comments.create_comment"}
    assert not failures(outcomes), shown(outcomes)


# ---------------------------------------------------------------------- planted faults
# and what reads them: Get collections count is judged against the lists it counts
LISTS = ("items.list_items", "collections.list_collections", "collections.get_collections_count")


def planted(name: str) -> Callable[[Asgi], Asgi]:
    """The mock behind one of the planted faults (faults*.py); these need no users to act."""
    return wrap_with(FAULTS[name].handler)


async def update_not_persisted(request: Request, forward: Forward, world: World) -> Answer:
    """Update an item answers the item with the change, and stores nothing (the planted set's
    lost-update does this to collections, item-update-partly-lost to some fields only)."""
    if not request.on("PUT", ITEM):
        return await forward(request)
    answer = await forward(request.get(request.path))
    found, change = answer.entries(), request.json_object()
    if answer.status != 200 or len(found) != 1:
        return answer
    item = found[0]
    item.update({k: v for k, v in change.items() if k not in ("metadata", "tags", "items")})
    if isinstance(change.get("metadata"), dict):
        item["metadata"] = [{"key": k, "value": v} for k, v in change["metadata"].items()]
    return answer.with_body(item)


@pytest.mark.parametrize(
    ("fault", "operation", "words"),
    [
        ("total-count-off-by-one", "collections.list_collections", "X-Total-Count"),
        ("type-filter-ignored", "items.list_items", "type="),
        (update_not_persisted, "items.update_item", "a GET after Update an item"),
        ("deleted-collection-still-listed", "collections.delete_collection", "still"),
    ],
    ids=["total-count-off-by-one", "type-filter-ignored", "update-not-persisted", "deleted-still-listed"],
)
def test_a_planted_fault_fails_the_operation_that_has_it(
    mock: tuple[Store, Asgi], fault: str | Handler, operation: str, words: str
) -> None:
    with serving(mock, planted(fault) if isinstance(fault, str) else wrap_with(fault)) as live:
        outcomes = run_layer(live, quick=True, settle=SETTLE_AT_ONCE)
    failed = failures(outcomes)
    assert failed, "the layer passed a faulty server"
    assert all(o.status == FAIL for o in failed), shown(outcomes)
    ours = [o for o in failed if o.operation == operation]
    assert ours, shown(outcomes)
    assert any(words in o.message and o.exchange is not None for o in ours), shown(outcomes)
    # other operations fail only where they read what the fault changed (e.g. X-Total-Count);
    # the lists show what the faults change in them in many ways (paging, filters, counts)
    stray = [o for o in failed if o.operation not in (operation, *LISTS)]
    assert all(words in o.message or words in o.check for o in stray), shown(outcomes)
    stateful = [o for o in failed if o.check.startswith("stateful: ")]
    assert len(stateful) <= 1  # a broken stateful run is one failure, not one per step


def test_a_stateful_failure_names_the_property_and_the_request(mock: tuple[Store, Asgi]) -> None:
    with serving(mock, wrap_with(update_not_persisted)) as live:
        outcomes = run_layer(live, quick=True, include=("items.update_item",))
    (failed,) = [o for o in failures(outcomes) if o.check.startswith("stateful: ")]
    assert failed.check == "stateful: an update persists (a later GET shows it)"
    assert "stateful run: example" in failed.message and "--seed 0" in failed.message
    assert failed.exchange is not None and failed.exchange.method == "GET"
    assert re.search(r"/v1/items/\d+$", failed.exchange.url)
