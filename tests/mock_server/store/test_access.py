"""Who may see and do what: roles, the permissions object, 404 versus 403, paid fields,
credentials (mock_server/store/access.py, accounts.py)."""

from __future__ import annotations

import pytest

from csapi.mock_server.errors import Forbidden, NotFound, PaidPlanRequired, Unauthorized
from csapi.mock_server.store.access import COLLABORATOR, OWNER, PERMISSIONS, READER
from tests.mock_server.conftest import World


def test_the_permissions_object_per_role():
    assert PERMISSIONS[OWNER] == {"admin": True, "edit": True, "share": True, "delete": True, "leave": False}
    assert PERMISSIONS[COLLABORATOR] == {
        "admin": False,
        "edit": True,
        "share": True,
        "delete": False,
        "leave": True,
    }
    assert PERMISSIONS[READER] == dict.fromkeys(("admin", "edit", "share", "leave", "delete"), False)


def test_roles(store, world: World, pro, free, stranger):
    trips, recipes, board = (store.collections[i] for i in (world.trips, world.recipes, world.team_board))
    assert store.role(pro, trips) == OWNER
    assert store.role(free, trips) == COLLABORATOR
    assert store.role(stranger, trips) is None
    assert store.role(pro, board) == OWNER  # manager of the owning team
    assert store.role(free, board) == COLLABORATOR  # plain member of the owning team
    assert store.role(stranger, board) is None
    assert store.role(stranger, recipes) == READER
    assert store.role(free, recipes) == READER


def test_global_collections_are_readable_too(store, pro, stranger):
    shown = store.create_collection(pro, {"name": "Shown", "type": "global"})
    assert store.role(stranger, shown) == READER


def test_a_collaborating_team_brings_its_members(store, pro, free, stranger, team):
    mine = store.create_collection(stranger, {"name": "Mine", "type": "private"})
    assert store.role(free, mine) is None
    store.add_collaborator(stranger, mine.id, {"id": team.id})
    assert store.role(free, mine) == COLLABORATOR
    assert store.role(pro, mine) == COLLABORATOR  # a manager of a collaborating team is no owner
    assert mine.id in store.accessible_collection_ids(free)


def test_visible_collection_hides_what_the_caller_may_not_see(store, world: World, stranger):
    with pytest.raises(NotFound):
        store.visible_collection(stranger, world.trips)
    with pytest.raises(NotFound):
        store.visible_collection(stranger, 999)
    assert store.visible_collection(stranger, world.recipes)[1] == READER


@pytest.mark.parametrize(
    ("who", "collection", "permission", "error"),
    [
        ("stranger", "recipes", "edit", Forbidden),
        ("stranger", "trips", "edit", NotFound),
        ("free", "trips", "delete", Forbidden),
        ("free", "trips", "admin", Forbidden),
        ("free", "team_board", "delete", Forbidden),
    ],
)
def test_collection_for_is_404_when_invisible_and_403_when_not_allowed(
    store, world: World, request, who, collection, permission, error
):
    with pytest.raises(error):
        store.collection_for(request.getfixturevalue(who), getattr(world, collection), permission)


@pytest.mark.parametrize(
    ("who", "collection", "permission"),
    [
        ("free", "trips", "edit"),
        ("free", "trips", "share"),
        ("pro", "team_board", "delete"),
        ("pro", "trips", "admin"),
    ],
)
def test_collection_for_allows(store, world: World, request, who, collection, permission):
    caller = request.getfixturevalue(who)
    assert store.collection_for(caller, getattr(world, collection), permission).id == getattr(
        world, collection
    )


def test_a_shareable_item_is_readable_by_anyone_but_not_writable(store, world: World, pro, stranger):
    with pytest.raises(NotFound):
        store.visible_item(stranger, world.note)
    store.update_item(pro, world.note, {"shareable": True})
    item, role = store.visible_item(stranger, world.note)
    assert (item.id, role) == (world.note, READER)
    with pytest.raises(Forbidden):
        store.item_for(stranger, world.note, "edit")
    assert world.note not in {i.id for i in store.list_items(stranger).entries}


def test_a_deleted_item_is_not_visible(store, world: World, pro):
    store.delete_item(pro, world.note)
    with pytest.raises(NotFound):
        store.visible_item(pro, world.note)
    assert not store.can_see_item(pro, world.note)


def test_accessible_collections(store, world: World, pro, free, stranger):
    assert store.accessible_collection_ids(pro) == {world.trips, world.recipes, world.team_board}
    assert store.accessible_collection_ids(free) == {world.trips, world.team_board, world.free_notes}
    assert store.accessible_collection_ids(stranger) == set()


def test_require_paid(store, pro, free, team):
    store.require_paid(pro, {"sort_by": "name"}, ("sort_by", "labels"))
    store.require_paid(team, {"sort_by": "name"}, ("sort_by",))
    store.require_paid(free, {"name": "x"}, ("sort_by", "labels"))
    with pytest.raises(PaidPlanRequired, match="sort_by, labels") as caught:
        store.require_paid(free, {"labels": False, "sort_by": None}, ("sort_by", "labels"))
    assert (caught.value.status, caught.value.code) == (402, "paid_plan_required")


def test_user_for_credentials(store, pro, team):
    assert store.user_for_credentials(str(pro.id), pro.token) is pro
    assert store.user_for_credentials(str(pro.id), "wrong") is None
    assert store.user_for_credentials("999", pro.token) is None
    assert store.user_for_credentials("one", pro.token) is None
    assert store.user_for_credentials(str(team.id), team.token) is None  # a team never signs in


def test_authenticate(store, pro, team):
    assert store.authenticate(pro.email.upper(), pro.password) is pro
    with pytest.raises(Unauthorized) as wrong:
        store.authenticate(pro.email, "wrong")
    assert wrong.value.code == "password_incorrect"
    with pytest.raises(Unauthorized) as unknown:
        store.authenticate("nobody@example.net", "x")
    assert unknown.value.code == "user_invalid"
    with pytest.raises(Unauthorized) as as_team:
        store.authenticate(team.email, "")
    assert as_team.value.code == "user_invalid"


def test_create_user_continues_the_account_sequence(store, clock):
    user = store.create_user(plan="pro", name="Ana")
    assert (user.id, user.plan, user.name, user.created_at) == (5, "pro", "Ana", clock.now)
    assert store.user_for_credentials("5", user.token) is user
    assert store.authenticate(user.email, user.password) is user
    assert store.create_user().id == 6
