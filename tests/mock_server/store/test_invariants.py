"""Store.check_invariants(): the indexes every count is read from agree with a recount of the
tables after every kind of change, and each kind of drift is reported (mock_server/store/core.py)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from csapi.mock_server.store import Store
from csapi.mock_server.store.records import Account, Reaction, Tag
from tests.mock_server.conftest import FREE, STRANGER, TEAM, World


def test_a_fresh_store_and_the_fixture_sets_hold(store: Store, world: World):
    assert store.check_invariants() == []
    store.search_index  # noqa: B018  # built: now it is compared too
    assert store.check_invariants() == []


def test_every_kind_of_change_keeps_the_indexes_true(store: Store, world: World, pro: Account, free: Account):
    store.search_index  # noqa: B018  # kept up to date from here on, so checked too

    def holds(after: str) -> None:
        assert store.check_invariants() == [], after

    store.create_item(pro, world.trips, {"type": "stack", "name": "S", "items": [world.note, world.file]})
    holds("a stack made of items")
    store.update_items(pro, world.trips, {"items": [world.link], "parent_id": world.stack})
    holds("an item put into a stack")
    store.update_items_order(pro, world.trips, [world.image, world.stack])
    holds("reorder")
    store.update_multiple_items(pro, [world.stack], world.recipes)
    holds("a stack moved to another collection with its children")
    store.update_items(pro, world.recipes, {"items": [world.video], "collection_id": world.trips})
    holds("a child moved out of its stack and back")
    store.update_item(pro, world.image, {"name": "Ponte", "tags": ["bridge", "Travel"]})
    holds("an item's name and tags replaced")
    store.delete_tag(pro, store.create_tag(pro, world.recipe, "fish").id)
    holds("a tag added and deleted")
    store.copy_items(pro, [world.stack], world.trips)
    holds("a stack copied")
    comment = store.create_comment(free, world.image, "nice", notify=True)
    store.delete_reaction(free, store.create_reaction(free, world.image).id)
    store.create_reaction(pro, world.image)
    holds("a comment, a like taken back, a like")
    store.delete_comment(pro, comment.id)
    holds("a comment deleted")
    store.delete_item(pro, world.stack)
    holds("a stack deleted, its children kept")
    store.delete_items(pro, world.trips, [world.image, world.video])
    holds("items deleted")
    store.add_collaborator(pro, world.recipes, {"id": STRANGER})
    store.remove_collaborator(pro, world.recipes, STRANGER)
    holds("shared and unshared")
    store.update_collection(pro, world.recipes, {"user_id": TEAM})
    holds("a collection given to a team")
    store.add_team_member(pro, TEAM, {"id": STRANGER})
    store.remove_team_member(pro, TEAM, STRANGER)
    holds("a team member added and removed")
    store.update_current_user(free, {"email": "second@example.org", "username": "renamed"})
    holds("an email address and a username changed")
    store.delete_collection(pro, world.trips)
    holds("a collection deleted")
    store.create_user(plan="pro")
    holds("a new user")
    assert Store(data=store.snapshot()).check_invariants() == []


def test_deleting_a_collection_unlinks_its_stacked_items(store: Store, world: World, pro: Account):
    """Regression: its stacks' children stayed in the children index (a leak; found by the soak's check)."""
    store.delete_collection(pro, world.trips)
    assert store.check_invariants() == []
    assert store.children(world.stack) == []


def _live_of(store: Store, world: World) -> None:
    store._live[world.trips].pop(world.note)


def _stale_text(store: Store, world: World) -> None:
    store.search_index  # noqa: B018
    store.items[world.note].name = "renamed without reindexing"


def _second_tag(store: Store, world: World) -> None:
    tag = Tag(id=store.next_id("tags"), item_id=world.recipe, name="FOOD", created_at=store.now())
    store.tags[tag.id] = tag


def _second_like(store: Store, world: World) -> None:
    for _ in range(2):
        like = Reaction(
            id=store.next_id("reactions"), item_id=world.recipe, user_id=FREE, created_at=store.now()
        )
        store.reactions[like.id] = like
        store._reactions_of.setdefault(world.recipe, {})[like.id] = None


def _nested_stack(store: Store, world: World) -> None:
    store.items[world.stack].parent_id = world.stack


def _behind_sequence(store: Store, world: World) -> None:
    store._sequences["items"] = world.note


def _orphan_tag(store: Store, world: World) -> None:
    store.tags[999] = replace(next(iter(store.tags.values())), id=999, item_id=12345)
    store._sequences["tags"] = 999


def _sort_set_in_place(store: Store, world: World) -> None:
    store.next_sort(world.trips)  # kept from here on
    store.items[world.note].sort += 100  # without sort_changed


@pytest.mark.parametrize(
    ("drift", "reported"),
    [
        (_live_of, "_live["),
        (_stale_text, "search index: the postings differ"),
        (_second_tag, "has the tag 'food' 2 times"),
        (_second_like, "likes item"),
        (_nested_stack, "is not a live stack beside it"),
        (_behind_sequence, "items: id"),
        (_orphan_tag, "item_id 12345 does not exist"),
        (_sort_set_in_place, "highest item sort kept"),
    ],
)
def test_each_kind_of_drift_is_reported(store: Store, world: World, drift, reported: str):
    drift(store, world)
    problems = store.check_invariants()
    assert any(reported in problem for problem in problems), problems
