"""Items in the store: the geo radius (haversine, meters), stacks, soft delete, copy,
prevent_duplicate, order and moves (mock_server/store/items.py)."""

from __future__ import annotations

import math

import pytest

from csapi.mock_server.errors import Forbidden, InvalidInput, NotFound
from csapi.mock_server.store import ItemFilter, parse_near
from csapi.mock_server.store.items import haversine_m, is_url, mime_of
from tests.mock_server.conftest import LISBON, PORTO, World

EARTH_RADIUS_M = 6_371_008.8


# ---------------------------------------------------------------------- geo radius
def test_haversine_known_distances():
    assert haversine_m(*LISBON, *LISBON) == 0
    assert haversine_m(*LISBON, *PORTO) == pytest.approx(274_296, abs=50)
    assert haversine_m(*PORTO, *LISBON) == pytest.approx(haversine_m(*LISBON, *PORTO))
    assert haversine_m(0, 0, 1, 0) == pytest.approx(EARTH_RADIUS_M * math.pi / 180)  # one degree of latitude
    assert haversine_m(0, 0, 0, 180) == pytest.approx(EARTH_RADIUS_M * math.pi)  # half way round
    assert haversine_m(0, 179.5, 0, -179.5) == pytest.approx(haversine_m(0, 0, 0, 1))  # across the date line


def test_parse_near():
    assert parse_near(None, None) is None
    assert parse_near("38.7223,-9.1393", 500) == (38.7223, -9.1393, 500)
    for ll, radius in [("38.7,-9.1", None), (None, 500), ("91,0", 10), ("0,181", 10)]:
        with pytest.raises(InvalidInput):
            parse_near(ll, radius)


def test_radius_filter_in_meters(store, world: World, pro):
    def near(lat: float, lng: float, radius: float) -> list[int]:
        where = ItemFilter(near=(lat, lng, radius))
        return sorted(i.id for i in store.list_items(pro, where=where).entries)

    assert near(*LISBON, 0) == [world.link]  # the very spot
    assert near(*LISBON, 274_000) == [world.link]
    assert near(*LISBON, 275_000) == [world.link, world.image]
    assert near(*PORTO, 10) == [world.image]
    assert near(LISBON[0] + 0.009, LISBON[1], 1000) == []  # 1000.8 m north
    assert near(LISBON[0] + 0.009, LISBON[1], 1001) == [world.link]
    assert near(0, 0, 20_000_000) == [world.link, world.image]  # items without coordinates never match


# ---------------------------------------------------------------------- stacks
def test_stack_children_and_siblings(store, world: World):
    stack = store.items[world.stack]
    assert [i.id for i in store.stack_children(stack)] == [world.video, world.audio]
    assert [i.id for i in store.stack_children(stack, ItemFilter(type="audio"))] == [world.audio]
    assert store.stack_children(store.items[world.note]) == []
    assert [i.id for i in store.siblings(store.items[world.video])] == [world.audio]
    top = [i.id for i in store.siblings(store.items[world.note])]
    assert top == [world.link, world.image, world.stack, world.file]


def test_a_stack_of_new_items(store, world: World, pro):
    stack, created = store.create_item(pro, world.trips, {"type": "stack", "items": [world.note, world.file]})
    assert created
    assert (stack.content, stack.link, stack.mime) == ("", "", "application/x-stack")
    assert store.items[world.note].parent_id == stack.id
    assert [i.id for i in store.children(stack.id)] == [world.note, world.file]


@pytest.mark.parametrize(
    "body",
    [
        {"type": "stack", "parent_id": "stack"},
        {"type": "stack", "items": ["stack"]},
        {"type": "text", "content": "x", "items": ["note"]},
        {"type": "text", "content": "x", "parent_id": "link"},
        {"type": "text", "content": "x", "parent_id": "recipe"},
        {"type": "text", "content": "x", "parent_id": 999},
        {"type": "text"},
    ],
)
def test_stacks_hold_no_stacks_and_only_stacks_hold(store, world: World, pro, body):
    body = {k: [getattr(world, i) for i in v] if k == "items" else v for k, v in body.items()}
    if isinstance(body.get("parent_id"), str):
        body["parent_id"] = getattr(world, body["parent_id"])
    before = len(store.items)
    with pytest.raises(InvalidInput):
        store.create_item(pro, world.trips, body)
    assert len(store.items) == before


def test_update_keeps_stacks_flat(store, world: World, pro):
    with pytest.raises(InvalidInput):
        store.update_item(pro, world.stack, {"type": "text", "content": "x"})  # it has children
    with pytest.raises(InvalidInput):
        store.update_item(pro, world.video, {"type": "stack"})  # it is in a stack
    with pytest.raises(InvalidInput):
        store.update_item(pro, world.stack, {"parent_id": world.stack})
    with pytest.raises(InvalidInput):
        store.update_items(pro, world.trips, {"items": [world.stack], "parent_id": world.stack})
    assert (store.items[world.stack].type, store.items[world.video].type) == ("stack", "video")
    moved = store.update_item(pro, world.video, {"type": "stack", "parent_id": None})
    assert (moved.type, moved.parent_id, moved.content) == ("stack", None, "")


def test_update_replaces_a_stacks_children(store, world: World, pro):
    store.update_item(pro, world.stack, {"items": [world.note]})
    assert [i.id for i in store.children(world.stack)] == [world.note]
    assert store.items[world.video].parent_id is None


def test_deleting_a_stack_moves_its_children_to_top_level(store, world: World, pro):
    store.delete_item(pro, world.stack)
    assert store.items[world.stack].deleted_at is not None
    for child in (world.video, world.audio):
        assert (store.items[child].parent_id, store.items[child].deleted_at) == (None, None)
    assert store.children(world.stack) == []


def test_deleting_a_stack_with_delete_items_deletes_its_children(store, world: World, pro, clock):
    clock.advance(60)
    store.delete_item(pro, world.stack, delete_items=True)
    assert {store.items[i].deleted_at for i in (world.stack, world.video, world.audio)} == {clock.now}


def test_moving_a_stack_takes_its_children_and_a_child_alone_leaves_its_stack(store, world: World, pro):
    store.update_multiple_items(pro, [world.stack], world.recipes)
    assert {store.items[i].collection_id for i in (world.stack, world.video, world.audio)} == {world.recipes}
    assert store.items[world.video].parent_id == world.stack
    store.update_multiple_items(pro, [world.audio], world.trips)
    assert (store.items[world.audio].collection_id, store.items[world.audio].parent_id) == (world.trips, None)
    assert [i.id for i in store.children(world.stack)] == [world.video]


def test_moved_items_go_last_in_their_new_collection(store, world: World, pro):
    store.update_multiple_items(pro, [world.note, world.file], world.recipes)
    assert [i.id for i in store.collection_items(store.collections[world.recipes])] == [
        world.recipe,
        world.note,
        world.file,
    ]


def test_move_checks_edit_on_the_items_and_the_target(store, world: World, free):
    with pytest.raises(Forbidden):
        store.update_multiple_items(free, [world.note], world.recipes)
    with pytest.raises(Forbidden):
        store.update_multiple_items(free, [world.recipe], world.free_notes)
    with pytest.raises(NotFound):
        store.update_multiple_items(free, [999], world.free_notes)
    assert store.items[world.note].collection_id == world.trips


# ---------------------------------------------------------------------- soft delete
def test_soft_delete(store, world: World, pro, clock):
    clock.advance(60)
    store.delete_item(pro, world.link)
    link = store.items[world.link]
    assert link.deleted_at == clock.now  # the record stays, marked
    assert world.link not in {i.id for i in store.live_items(world.trips)}
    assert world.link not in {i.id for i in store.list_items(pro).entries}
    assert store.list_items(pro, collection_id=world.trips).total == 6
    assert store.list_items(pro, where=ItemFilter(tags=("food",))).total == 1  # only the recipe now
    assert store.list_collection_tags(pro, world.trips) == [("travel", 1)]
    with pytest.raises(NotFound):
        store.get_item(pro, world.link)
    with pytest.raises(NotFound):
        store.delete_item(pro, world.link)
    with pytest.raises(NotFound):
        store.update_item(pro, world.link, {"name": "back"})


def test_soft_deleted_items_stay_deleted_through_a_snapshot(store, world: World, pro, clock):
    store.delete_item(pro, world.link)
    snapshot = store.snapshot()
    [row] = [r for r in snapshot["items"] if r["id"] == world.link]
    assert row["deleted_at"] == "2026-11-21T12:00:14Z"
    store.reset(snapshot)
    assert store.items[world.link].deleted_at is not None
    assert world.link not in {i.id for i in store.list_items(pro).entries}


def test_deleting_a_collection_soft_deletes_its_items(store, world: World, pro):
    store.delete_collection(pro, world.trips)
    assert world.trips not in store.collections
    assert all(store.items[i].deleted_at is not None for i in (world.link, world.video, world.file))
    assert store.list_items(pro).total == 2
    store.reset(store.snapshot())  # the orphaned, deleted items still load
    assert store.list_items(pro).total == 2


# ---------------------------------------------------------------------- copy
def test_copy_takes_tags_and_metadata_not_comments_or_reactions(store, world: World, pro, free, clock):
    store.update_item(pro, world.link, {"metadata": {"source": "blog"}})
    store.create_comment(pro, world.link, "Nice")
    store.create_reaction(free, world.link)
    clock.advance(60)
    [copy] = store.copy_items(pro, [world.link], world.recipes)
    original = store.items[world.link]
    assert copy.id not in (original.id,) and copy.collection_id == world.recipes
    for field in ("type", "name", "content", "link", "latitude", "longitude", "mime", "size", "user_id"):
        assert getattr(copy, field) == getattr(original, field), field
    assert (copy.created_at, copy.updated_at, copy.deleted_at) == (clock.now, clock.now, None)
    assert copy.metadata == {"source": "blog"} and copy.metadata is not original.metadata
    copy_tags, original_tags = store.item_tags(copy.id), store.item_tags(original.id)
    assert sorted(t.name for t in copy_tags) == ["food", "travel"]
    assert {t.id for t in copy_tags}.isdisjoint(t.id for t in original_tags)
    assert store.item_comments(copy.id) == [] and store.item_reactions(copy.id) == []
    assert len(store.item_comments(original.id)) == 1 and len(store.item_reactions(original.id)) == 1
    assert copy.sort == 2  # last in the target


def test_copy_of_a_stack_copies_its_children_under_the_new_stack(store, world: World, pro):
    [copy] = store.copy_items(pro, [world.stack])
    assert copy.collection_id == world.trips
    children = store.children(copy.id)
    assert [c.name for c in children] == ["Tram ride", "Fado"]
    assert {c.id for c in children}.isdisjoint({world.video, world.audio})
    assert [i.id for i in store.children(world.stack)] == [world.video, world.audio]


def test_copy_of_a_child_alone_lands_at_top_level(store, world: World, pro):
    [copy] = store.copy_items(pro, [world.video])
    assert copy.parent_id is None


def test_copy_needs_read_on_the_items_and_edit_on_the_target(store, world: World, free, stranger):
    mine = store.create_collection(stranger, {"name": "Mine", "type": "private"})
    assert store.copy_items(stranger, [world.recipe], mine.id)[0].collection_id == mine.id
    with pytest.raises(Forbidden):
        store.copy_items(stranger, [world.recipe])  # into the public collection itself
    with pytest.raises(NotFound):
        store.copy_items(stranger, [world.note], mine.id)
    with pytest.raises(Forbidden):
        store.copy_items(free, [world.note], world.recipes)


# ---------------------------------------------------------------------- create details
def test_prevent_duplicate(store, world: World, pro):
    body = {"type": "link", "content": "https://example.com/lisbon", "prevent_duplicate": True}
    existing, created = store.create_item(pro, world.trips, body)
    assert (existing.id, created) == (world.link, False)
    fresh, created = store.create_item(pro, world.recipes, body)
    assert created and fresh.id != world.link
    text, created = store.create_item(pro, world.trips, {**body, "type": "text"})
    assert created  # only link items are matched


def test_new_items_go_last(store, world: World, pro):
    item, _ = store.create_item(pro, world.trips, {"type": "text", "content": "x"})
    assert item.sort == 8


def test_update_items_order(store, world: World, pro, clock):
    image_touched = store.items[world.image].updated_at
    clock.advance(60)
    items = store.update_items_order(pro, world.trips, [world.note, world.link])
    expected = [world.note, world.link, world.image, world.stack, world.video, world.audio, world.file]
    assert [i.id for i in items] == expected
    assert [i.sort for i in items] == list(range(1, 8))
    assert store.items[world.note].updated_at == clock.now  # moved
    assert store.items[world.image].updated_at == image_touched  # kept its place


@pytest.mark.parametrize(
    ("kind", "content", "mime"),
    [
        ("image", "https://x.org/a.JPG", "image/jpeg"),
        ("image", "https://x.org/picture", "image/*"),
        ("video", "https://x.org/v", "video/*"),
        ("audio", "https://x.org/a.ogg", "audio/ogg"),
        ("other", "notes.bin", "application/octet-stream"),
        ("link", "https://x.org/a.png", "text/uri-list"),
        ("text", "plain words", "text/plain"),
        ("stack", "", "application/x-stack"),
    ],
)
def test_mime_of(kind, content, mime):
    assert mime_of(kind, content) == mime


def test_is_url():
    assert is_url("https://example.com/a") and is_url("http://example.com")
    assert not is_url("example.com") and not is_url("ftp://example.com/a") and not is_url("")
