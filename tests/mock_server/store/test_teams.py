"""Teams in the store (spec 4.3), without HTTP: who reads and changes a team, membership
and what it opens, the last manager, usage."""

from __future__ import annotations

import pytest

from csapi.mock_server.errors import Conflict, Forbidden, InvalidInput, NotFound
from csapi.mock_server.store import Store
from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Clock


def kinds(store: Store) -> dict[int, str]:
    return {user.id: kind for user, kind in store.members_of(store.accounts[TEAM])}


def test_list_and_get_give_the_callers_kind(store: Store):
    pro, free, stranger = (store.accounts[i] for i in (PRO, FREE, STRANGER))
    assert [(t.id, k) for t, k in store.list_teams(pro)] == [(TEAM, "manager")]
    assert [(t.id, k) for t, k in store.list_teams(free)] == [(TEAM, "user")]
    assert store.list_teams(stranger) == []
    assert store.get_team(free, TEAM) == (store.accounts[TEAM], "user")
    for team_id in (TEAM, PRO, 999):
        with pytest.raises(NotFound):
            store.get_team(stranger, team_id)


def test_members_are_listed_by_id(store: Store):
    store.add_team_member(store.accounts[PRO], TEAM, {"email": "wsullivan@example.org", "kind": "manager"})
    assert list(kinds(store).items()) == [(PRO, "manager"), (FREE, "user"), (STRANGER, "manager")]


def test_managers_only(store: Store):
    free, stranger = store.accounts[FREE], store.accounts[STRANGER]
    for caller, error in ((free, Forbidden), (stranger, NotFound)):
        with pytest.raises(error):
            store.update_team(caller, TEAM, {"name": "x"})
        with pytest.raises(error):
            store.add_team_member(caller, TEAM, {"id": STRANGER})
        with pytest.raises(error):
            store.update_team_member(caller, TEAM, FREE, "manager")
        with pytest.raises(error):
            store.remove_team_member(caller, TEAM, FREE)
    assert kinds(store) == {PRO: "manager", FREE: "user"}


def test_a_new_member_reaches_the_teams_collections_and_loses_them_on_removal(store: Store):
    pro, stranger = store.accounts[PRO], store.accounts[STRANGER]
    board = store.create_collection(pro, {"name": "Board", "type": "private", "user_id": TEAM})
    assert board.id not in store.accessible_collection_ids(stranger)
    store.add_team_member(pro, TEAM, {"id": STRANGER})
    assert board.id in store.accessible_collection_ids(stranger)
    assert store.role(stranger, board) == "collaborator"
    store.update_team_member(pro, TEAM, STRANGER, "manager")
    assert store.role(stranger, board) == "owner"
    store.remove_team_member(pro, TEAM, STRANGER)
    assert board.id not in store.accessible_collection_ids(stranger)
    assert store.role(stranger, board) is None


def test_add_member_errors(store: Store):
    pro = store.accounts[PRO]
    with pytest.raises(Conflict):
        store.add_team_member(pro, TEAM, {"id": FREE})
    with pytest.raises(InvalidInput):
        store.add_team_member(pro, TEAM, {"id": TEAM})
    with pytest.raises(NotFound):
        store.add_team_member(pro, TEAM, {"email": "nobody@example.org"})
    assert kinds(store) == {PRO: "manager", FREE: "user"}


def test_a_team_keeps_a_manager(store: Store):
    pro = store.accounts[PRO]
    with pytest.raises(Conflict) as demoted:
        store.update_team_member(pro, TEAM, PRO, "user")
    with pytest.raises(Conflict) as removed:
        store.remove_team_member(pro, TEAM, PRO)
    assert demoted.value.code == removed.value.code == "last_manager"
    store.update_team_member(pro, TEAM, FREE, "manager")
    store.remove_team_member(pro, TEAM, PRO)
    assert kinds(store) == {FREE: "manager"}
    assert store.list_teams(pro) == []


def test_update_renames_and_keeps_usernames_unique(store: Store):
    pro, team = store.accounts[PRO], store.accounts[TEAM]
    old = team.username
    with pytest.raises(Conflict) as taken:
        store.update_team(pro, TEAM, {"username": "RGreen", "name": "Never"})
    assert taken.value.code == "username_unavailable"
    assert (team.username, team.name) == (old, "Faulkner-Howard")
    store.update_team(pro, TEAM, {"username": "crew", "name": "Crew", "view_mode": "shelf"})
    assert (team.username, team.name, team.view_mode) == ("crew", "Crew", "shelf")
    assert store.account_by_username("CREW") is team
    assert store.account_by_username(old) is None


def test_usage_counts_the_live_items_of_collections_the_team_owns(store: Store, clock: Clock):
    pro = store.accounts[PRO]
    team = store.accounts[TEAM]
    assert store.team_usage(team) == {"quota": 10 * 1024**3, "used": 0}
    board = store.create_collection(pro, {"name": "Board", "type": "private", "user_id": TEAM})
    shared = store.create_collection(pro, {"name": "Shared", "type": "private", "users": [TEAM]})
    kept, _ = store.create_item(pro, board.id, {"type": "text", "content": "1234"})
    gone, _ = store.create_item(pro, board.id, {"type": "text", "content": "x" * 10})
    store.create_item(pro, shared.id, {"type": "text", "content": "y" * 100})
    store.create_item(pro, board.id, {"type": "stack", "name": "Empty stack"})
    assert store.team_usage(team)["used"] == 14
    store.delete_item(pro, gone.id)
    assert store.team_usage(team)["used"] == kept.size == 4
