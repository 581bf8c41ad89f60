"""Collections in the store: create, update (paid fields, owner), delete, the list and its
filters, counts, collaborators (mock_server/store/collections.py)."""

from __future__ import annotations

import pytest

from csapi.mock_server.errors import Conflict, Forbidden, InvalidInput, NotFound, PaidPlanRequired
from csapi.mock_server.store.access import COLLABORATOR, OWNER
from tests.mock_server.conftest import FREE, PRO, START, STRANGER, TEAM, World


def ids(page) -> list[int]:
    return [c.id for c in page.entries]


# ---------------------------------------------------------------------- create
def test_create(store, pro, free, clock):
    collection = store.create_collection(pro, {"name": "A", "type": "public", "users": [FREE, FREE]})
    assert (collection.owner_id, collection.name, collection.type, collection.sort) == (PRO, "A", "public", 1)
    assert collection.created_at == collection.updated_at == collection.last_accessed_at == START
    assert (collection.sort_by, collection.sort_order, collection.view_mode) == (None, None, "tile")
    assert collection.collaborators == {FREE: True}  # invited once, subscribed
    assert store.create_collection(pro, {"name": "B", "type": "private"}).sort == 2
    assert store.create_collection(free, {"name": "C", "type": "private"}).sort == 1  # per owner


def test_create_for_a_team(store, pro, free, stranger):
    board = store.create_collection(pro, {"name": "Board", "type": "private", "user_id": TEAM})
    assert board.owner_id == TEAM
    assert store.role(pro, board) == OWNER and store.role(free, board) == COLLABORATOR
    for caller in (free, stranger):
        with pytest.raises(Forbidden):
            store.create_collection(caller, {"name": "X", "type": "private", "user_id": TEAM})
    with pytest.raises(NotFound):
        store.create_collection(pro, {"name": "X", "type": "private", "user_id": 999})


def test_create_checks_everything_before_creating(store, pro, free):
    with pytest.raises(PaidPlanRequired):
        store.create_collection(free, {"name": "X", "type": "private", "highlighted": False})
    with pytest.raises(NotFound):
        store.create_collection(pro, {"name": "X", "type": "private", "users": [FREE, 999]})
    with pytest.raises(InvalidInput):
        store.create_collection(pro, {"name": "", "type": "private"})
    assert store.collections == {}
    assert store.next_id("collections") == 1  # no id was used up


# ---------------------------------------------------------------------- update
def test_update(store, world: World, pro, clock):
    clock.advance(60)
    updated = store.update_collection(
        pro, world.trips, {"name": "Travels", "sort_by": "name", "view_mode": "list"}
    )
    assert (updated.name, updated.sort_by, updated.view_mode) == ("Travels", "name", "list")
    assert updated.updated_at == clock.now


@pytest.mark.parametrize("field", ["archived", "highlighted", "labels", "sort_by", "sort_order", "view_mode"])
def test_paid_fields_from_a_free_account_change_nothing(store, world: World, free, field):
    notes = store.collections[world.free_notes]
    before = (notes.name, getattr(notes, field), notes.updated_at)
    with pytest.raises(PaidPlanRequired, match=field):
        store.update_collection(free, world.free_notes, {"name": "Changed", field: None})
    assert (notes.name, getattr(notes, field), notes.updated_at) == before


def test_type_and_owner_need_admin(store, world: World, free, pro):
    with pytest.raises(Forbidden):
        store.update_collection(free, world.trips, {"type": "global"})
    with pytest.raises(Forbidden):
        store.update_collection(free, world.trips, {"user_id": FREE})
    assert store.update_collection(free, world.trips, {"type": "private"}).type == "private"  # no change
    assert store.update_collection(pro, world.trips, {"type": "global"}).type == "global"


def test_handing_over_to_a_team(store, world: World, pro, free):
    store.update_collection(pro, world.trips, {"user_id": TEAM})
    trips = store.collections[world.trips]
    assert trips.owner_id == TEAM
    assert store.role(pro, trips) == OWNER  # manager of the new owner
    assert world.trips in store.accessible_collection_ids(free)
    assert world.trips in ids(store.list_collections(pro))


# ---------------------------------------------------------------------- delete
def test_delete(store, world: World, pro, free):
    store.delete_collection(pro, world.trips)
    assert world.trips not in store.collections
    assert world.trips not in store.accessible_collection_ids(free)
    with pytest.raises(NotFound):
        store.get_collection(pro, world.trips)
    with pytest.raises(Forbidden):
        store.delete_collection(free, world.team_board)


# ---------------------------------------------------------------------- list
def test_list_filters(store, world: World, pro, free, stranger):
    assert ids(store.list_collections(pro)) == [world.trips, world.team_board, world.recipes]
    assert ids(store.list_collections(pro, owned=True)) == [world.trips, world.recipes]
    assert ids(store.list_collections(free, owner_id=PRO)) == [world.trips]
    assert ids(store.list_collections(free, owner_id=TEAM)) == [world.team_board]
    assert ids(store.list_collections(pro, q="where went")) == [world.trips]
    assert ids(store.list_collections(pro, q="nothing like it")) == []
    assert ids(store.list_collections(pro, sort="name")) == [world.recipes, world.team_board, world.trips]
    assert ids(store.list_collections(stranger)) == []  # public ones are not listed, only readable


def test_list_by_status(store, world: World, pro):
    store.update_collection(pro, world.recipes, {"archived": True})
    store.update_collection(pro, world.trips, {"highlighted": True})
    assert ids(store.list_collections(pro)) == [world.trips, world.team_board]
    assert ids(store.list_collections(pro, status=["archived"])) == [world.recipes]
    assert ids(store.list_collections(pro, status=["highlighted"])) == [world.trips]
    assert store.get_collections_count(pro) == {
        "active": 2,
        "archived": 1,
        "highlighted": 1,
        "owned": 2,
        "total": 3,
    }


def test_list_by_recent_access(store, world: World, pro, clock):
    clock.advance(60)
    store.get_collection(pro, world.team_board, log_access=True)
    assert store.collections[world.team_board].last_accessed_at == clock.now
    assert ids(store.list_collections(pro, sort="recent"))[0] == world.team_board
    store.get_collection(pro, world.trips)  # without log_access nothing is recorded
    assert store.collections[world.trips].last_accessed_at < clock.now


def test_list_by_dashboard_domain(store, world: World, pro, free, stranger):
    shown = store.create_collection(pro, {"name": "Shown", "type": "global"})
    domain = f"{pro.username}.example.com"
    assert ids(store.list_collections(stranger, host="example.com", domain=domain)) == [shown.id]
    assert ids(store.list_collections(free, host="example.com", domain=domain)) == [world.trips, shown.id]
    assert ids(store.list_collections(pro, host="example.com", domain="unknown.example.com")) == []
    pro.custom_domain = "photos.example.org"
    assert ids(store.list_collections(stranger, host="example.com", domain="PHOTOS.example.org")) == [
        shown.id
    ]


# ---------------------------------------------------------------------- collaborators
def test_collaborators_owner_first(store, world: World, pro, free, team):
    store.add_collaborator(pro, world.trips, {"id": TEAM})
    entries = [
        (a.id, kind, subscribed) for a, kind, subscribed in store.list_collaborators(free, world.trips)
    ]
    assert entries == [(PRO, "owner", True), (FREE, "user", True), (TEAM, "team", True)]


def test_add_collaborator(store, world: World, pro, free, stranger):
    account, kind, subscribed = store.add_collaborator(
        free, world.trips, {"username": stranger.username.upper()}
    )
    assert (account.id, kind, subscribed) == (STRANGER, "user", True)
    with pytest.raises(Conflict):
        store.add_collaborator(pro, world.trips, {"email": stranger.email})
    with pytest.raises(Conflict):
        store.add_collaborator(pro, world.trips, {"id": PRO})
    with pytest.raises(NotFound):
        store.add_collaborator(pro, world.trips, {"username": "nobody"})
    with pytest.raises(Forbidden):
        store.add_collaborator(stranger, world.recipes, {"id": STRANGER})  # a reader may not share


def test_remove_collaborator(store, world: World, pro, free, stranger):
    store.add_collaborator(pro, world.trips, {"id": STRANGER})
    store.remove_collaborator(stranger, world.trips, STRANGER)  # leaving
    assert store.role(stranger, store.collections[world.trips]) is None
    with pytest.raises(NotFound):
        store.remove_collaborator(pro, world.trips, STRANGER)
    with pytest.raises(NotFound):
        store.remove_collaborator(pro, world.trips, PRO)  # the owner is no collaborator
    store.remove_collaborator(pro, world.trips, FREE)
    assert world.trips not in store.accessible_collection_ids(free)
    assert store.collections[world.trips].collaborators == {}


def test_collection_tags(store, world: World, pro, stranger):
    assert store.list_collection_tags(pro, world.trips) == [("food", 1), ("travel", 2)]
    assert store.list_collection_tags(stranger, world.recipes) == [("food", 1)]
    with pytest.raises(NotFound):
        store.list_collection_tags(stranger, world.trips)
