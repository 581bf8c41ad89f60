"""A new item's or collection's `sort` is 1 + the highest of its siblings', whatever happened
before: the kept highest sorts (core.py `_sort_top`, `_owned_sort_top`) give exactly the values
a scan of the live items gives, across random creates, moves, reorders, sort edits and deletes;
and a page of a collection read off its kept order (`collection_page`) is the page of the full list."""

from __future__ import annotations

import random

import pytest

from csapi.mock_server.store import Store, paginate
from csapi.mock_server.store.items import ANY_ITEM
from csapi.mock_server.store.records import Account
from tests.mock_server.conftest import TEAM, World


def _highest(store: Store, collection_id: int) -> int:
    return max((i.sort for i in store.live_items(collection_id)), default=0)


def _highest_owned(store: Store, owner_id: int) -> int:
    return max((c.sort for c in store.collections.values() if c.owner_id == owner_id), default=0)


@pytest.mark.parametrize("seed", range(6))
def test_new_item_sorts_are_as_a_scan_gives_them(store: Store, world: World, pro: Account, seed: int):
    rng = random.Random(seed)
    cids = [world.trips, world.recipes]
    for step in range(120):
        cid = rng.choice(cids)
        other = cids[1 - cids.index(cid)]
        live = store.live_items(cid)
        top_level = [i for i in live if i.parent_id is None and i.type != "stack"]
        stacks = [i for i in live if i.type == "stack"]
        op = rng.choice(
            ["create", "create", "sorted", "stack", "into", "move", "order", "edit", "copy", "delete"]
        )
        expected, expected_other = _highest(store, cid) + 1, _highest(store, other) + 1
        if op == "create":
            assert store.create_item(pro, cid, {"type": "text", "content": "x"})[0].sort == expected
        elif op == "sorted":  # an explicit sort, maybe below or above the others
            body = {"type": "text", "content": "x", "sort": rng.randint(0, expected + 3)}
            assert store.create_item(pro, cid, body)[0].sort == body["sort"]
        elif op == "stack":
            children = [i.id for i in rng.sample(top_level, min(2, len(top_level)))]
            assert store.create_item(pro, cid, {"type": "stack", "items": children})[0].sort == expected
        elif op == "into" and stacks:
            body = {"type": "text", "content": "x", "parent_id": rng.choice(stacks).id}
            assert store.create_item(pro, cid, body)[0].sort == expected
        elif op == "move" and live:
            before = {i.id for i in store.live_items(other)}
            store.update_items(pro, cid, {"items": [rng.choice(live).id], "collection_id": other})
            arrived = sorted(
                i.sort for i in store.live_items(other) if i.id not in before
            )  # a stack's children too
            assert arrived == list(range(expected_other, expected_other + len(arrived)))
        elif op == "order" and live:
            store.update_items_order(pro, cid, [i.id for i in rng.sample(live, len(live) // 2)])
        elif op == "edit" and live:
            store.update_item(pro, rng.choice(live).id, {"sort": rng.randint(0, expected + 3)})
        elif op == "copy" and live:
            assert store.copy_items(pro, [rng.choice(live).id], other)[0].sort == expected_other
        elif op == "delete" and live:
            store.delete_item(pro, rng.choice(live).id, delete_items=rng.random() < 0.5)
        assert store.check_invariants() == [], f"step {step}: {op}"
        page, per_page = rng.randint(1, 4), rng.randint(1, 6)
        for collection in (store.collections[cid], store.collections[other]):
            wanted = paginate(store.collection_items(collection), page, per_page)
            assert store.collection_page(collection, ANY_ITEM, page, per_page) == wanted, f"step {step}"
    assert Store(data=store.snapshot()).check_invariants() == []


def test_new_collection_sorts_are_as_a_scan_gives_them(store: Store, world: World, pro: Account):
    def create(**body: object) -> int:
        owner = body.get("user_id", pro.id)
        assert isinstance(owner, int)
        expected = _highest_owned(store, owner) + 1
        collection = store.create_collection(pro, {"name": "c", "type": "private", **body})
        assert collection.sort == expected
        assert store.check_invariants() == []
        return collection.id

    first, second = create(), create()
    create(user_id=TEAM)
    store.update_collection(pro, second, {"user_id": TEAM})  # the team's highest rises, pro's falls
    assert store.check_invariants() == []
    create(user_id=TEAM)
    create()
    store.delete_collection(pro, first)
    create()
    store.delete_collection(pro, create())
    create()
