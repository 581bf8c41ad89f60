"""Teams over HTTP (spec 4.3): list, get (members, usage, feed key), update, and the members'
operations, with the 403/404 matrix: managers may, a plain member gets 403, a stranger 404;
a team always keeps a manager (409 last_manager)."""

from __future__ import annotations

import pytest

from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Api
from tests.mock_server.world import assert_error, collection, ids, item, ok

QUOTA = 10 * 1024**3  # the team plan's quota in the fixtures, bytes
TEAM_LIST_FIELDS = set(
    ("id created_at name username avatar custom_domain plan plan_active billing_email user_kind").split()
)
TEAM_FIELDS = set(
    (
        "id name username avatar custom_domain sort_by sort_order view_mode labels plan plan_active "
        "plan_quantity billing_email status created_at feed_key usage"
    ).split()
)
MEMBER_FIELDS = {"id", "name", "email", "username", "avatar", "custom_domain", "plan", "status", "kind"}


def members(response) -> dict[int, str]:
    """{user id: kind} of a list of team members."""
    body = ok(response, response.status_code if response.status_code in (200, 201) else 200)
    for member in body:
        assert set(member) == MEMBER_FIELDS
    return {member["id"]: member["kind"] for member in body}


def team_members(api: Api) -> dict[int, str]:
    return members(api.get(f"/v1/teams/{TEAM}/users"))


# ---------------------------------------------------------------------- list
def test_list_teams_gives_each_user_their_kind(api: Api, store):
    team = store.accounts[TEAM]
    (entry,) = ok(api.get("/v1/teams"))
    assert set(entry) == TEAM_LIST_FIELDS
    assert entry["id"] == TEAM
    assert (entry["name"], entry["username"]) == (team.name, team.username)
    assert (entry["plan"], entry["plan_active"], entry["custom_domain"]) == ("team", True, None)
    assert entry["billing_email"] == team.billing_email
    assert entry["user_kind"] == "manager"
    assert entry["created_at"] == "2026-01-02T03:24:39Z"
    assert [(t["id"], t["user_kind"]) for t in ok(api.get("/v1/teams", user=FREE))] == [(TEAM, "user")]
    assert ok(api.get("/v1/teams", user=STRANGER)) == []


# ---------------------------------------------------------------------- get
@pytest.mark.parametrize(("user", "kind"), [(PRO, "manager"), (FREE, "user")])
def test_members_read_the_team_with_members_usage_and_feed_key(api: Api, store, user, kind):
    team = store.accounts[TEAM]
    body = ok(api.get(f"/v1/teams/{TEAM}", user=user))
    assert set(body) == TEAM_FIELDS | {"email", "user_kind", "users"}
    assert body["id"] == TEAM
    assert body["user_kind"] == kind
    assert body["email"] == team.email
    assert body["billing_email"] == team.billing_email
    assert (body["plan"], body["plan_quantity"], body["status"]) == ("team", 5, "active")
    assert body["feed_key"] == team.feed_key and len(body["feed_key"]) == 32
    assert body["usage"] == {"quota": QUOTA, "used": 0}
    assert (body["view_mode"], body["labels"], body["sort_by"], body["sort_order"]) == (
        "tile",
        True,
        None,
        None,
    )
    assert {m["id"]: m["kind"] for m in body["users"]} == {PRO: "manager", FREE: "user"}
    first = body["users"][0]
    assert set(first) == MEMBER_FIELDS
    assert (first["username"], first["email"], first["plan"]) == (
        "megan_chang",
        "megan_chang@example.org",
        "pro",
    )


@pytest.mark.parametrize("team_id", [TEAM, PRO, 999])
def test_a_team_is_404_to_a_stranger_and_an_id_that_is_no_team_is_404(api: Api, team_id):
    assert_error(api.get(f"/v1/teams/{team_id}", user=STRANGER), 404, "not_found")
    assert_error(api.get(f"/v1/teams/{team_id}/users", user=STRANGER), 404, "not_found")
    if team_id != TEAM:
        assert_error(api.get(f"/v1/teams/{team_id}"), 404, "not_found")


def test_usage_used_is_the_size_of_the_live_items_of_the_teams_collections(api: Api):
    def used() -> int:
        return ok(api.get(f"/v1/teams/{TEAM}", user=FREE))["usage"]["used"]

    board = collection(api, PRO, "Board", user_id=TEAM)
    archive = collection(api, PRO, "Archive", user_id=TEAM)
    item(api, PRO, board, "a", content="12345")  # 5 bytes
    doomed = item(api, FREE, board, "b", content="héllo")  # 6 bytes in UTF-8, by a plain member
    item(api, PRO, archive, "c", content="x" * 100)
    assert used() == 111
    # a collection of user 1 shared with the team is not the team's
    mine = collection(api, PRO, "Mine", users=[TEAM])
    item(api, PRO, mine, "d", content="y" * 1000)
    assert used() == 111
    ok(api.delete(f"/v1/items/{doomed}"))
    assert used() == 105
    ok(api.delete(f"/v1/collections/{archive}"))
    assert used() == 5
    assert ok(api.get(f"/v1/teams/{TEAM}"))["usage"] == {"quota": QUOTA, "used": 5}


# ---------------------------------------------------------------------- update
def test_a_manager_updates_the_team(api: Api, store):
    body = {
        "name": "Renamed",
        "billing_email": "pay@example.net",
        "custom_domain": "team.example.net",
        "labels": False,
        "sort_by": "name",
        "sort_order": "desc",
        "view_mode": "shelf",
        "username": "renamed",
    }
    answer = ok(api.put(f"/v1/teams/{TEAM}", json=body))
    assert set(answer) == TEAM_FIELDS  # the update shape: no email, user_kind, users
    assert {name: answer[name] for name in body} == body
    assert answer["usage"] == {"quota": QUOTA, "used": 0}
    got = ok(api.get(f"/v1/teams/{TEAM}", user=FREE))
    assert {name: got[name] for name in body} == body
    listed = ok(api.get("/v1/teams", user=FREE))[0]
    assert (listed["username"], listed["billing_email"], listed["custom_domain"]) == (
        "renamed",
        "pay@example.net",
        "team.example.net",
    )
    # the old username is free again, the new one is taken
    assert ok(api.get("/v1/users/username", params={"username": store.accounts[TEAM].username}), 409)
    ok(api.get("/v1/users/username", params={"username": "faulkner-howard"}))


def test_a_team_may_keep_its_own_username(api: Api, store):
    username = store.accounts[TEAM].username
    assert (
        ok(api.put(f"/v1/teams/{TEAM}", json={"username": username.upper()}))["username"] == username.upper()
    )


@pytest.mark.parametrize("taken", ["rgreen", "RGreen", "wsullivan", "megan_chang"])
def test_a_team_username_taken_by_a_user_is_409(api: Api, store, taken):
    before = store.accounts[TEAM].username
    response = api.put(f"/v1/teams/{TEAM}", json={"username": taken, "name": "Other"})
    assert_error(response, 409, "username_unavailable")
    got = ok(api.get(f"/v1/teams/{TEAM}"))
    assert (got["username"], got["name"]) == (before, store.accounts[TEAM].name)
    assert got["name"] != "Other"


@pytest.mark.parametrize(
    "body",
    [
        {"username": "a"},
        {"username": "no spaces"},
        {"view_mode": "flow"},
        {"name": ""},
        {"billing_email": "nope"},
        {"labels": "no"},
    ],
)
def test_a_bad_team_update_is_400(api: Api, body):
    assert_error(api.put(f"/v1/teams/{TEAM}", json=body), 400, "invalid_input")


@pytest.mark.parametrize(("user", "status", "code"), [(FREE, 403, "forbidden"), (STRANGER, 404, "not_found")])
def test_only_managers_update_a_team(api: Api, store, user, status, code):
    assert_error(api.put(f"/v1/teams/{TEAM}", user=user, json={"name": "Mine now"}), status, code)
    assert store.accounts[TEAM].name != "Mine now"


# ---------------------------------------------------------------------- members
@pytest.mark.parametrize("user", [PRO, FREE])
def test_members_list_the_members(api: Api, user):
    assert members(api.get(f"/v1/teams/{TEAM}/users", user=user)) == {PRO: "manager", FREE: "user"}


def test_a_manager_adds_a_member_by_id_and_they_see_the_team_at_once(api: Api):
    board = collection(api, PRO, "Board", user_id=TEAM)
    assert_error(api.get(f"/v1/collections/{board}", user=STRANGER), 404, "not_found")
    response = api.post(f"/v1/teams/{TEAM}/users", json={"id": STRANGER})
    assert members(response) == {PRO: "manager", FREE: "user", STRANGER: "user"}
    assert response.status_code == 201
    assert ok(api.get(f"/v1/teams/{TEAM}", user=STRANGER))["user_kind"] == "user"
    assert [t["id"] for t in ok(api.get("/v1/teams", user=STRANGER))] == [TEAM]
    assert ok(api.get(f"/v1/collections/{board}", user=STRANGER))[0]["id"] == board


def test_a_manager_adds_a_manager_by_email_any_case(api: Api):
    response = api.post(f"/v1/teams/{TEAM}/users", json={"email": "WSullivan@example.org", "kind": "manager"})
    assert response.status_code == 201, response.text
    assert members(response)[STRANGER] == "manager"
    ok(api.put(f"/v1/teams/{TEAM}", user=STRANGER, json={"name": "Now I manage"}))


def test_add_member_with_a_form_body_is_the_same_as_json(api: Api):
    response = api.post(f"/v1/teams/{TEAM}/users", data={"id": str(STRANGER), "kind": "manager"})
    assert response.status_code == 201, response.text
    assert members(response) == {PRO: "manager", FREE: "user", STRANGER: "manager"}


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"id": FREE}, 409, "conflict"),
        ({"id": PRO, "kind": "user"}, 409, "conflict"),
        ({"email": "rgreen@example.org"}, 409, "conflict"),
        ({"id": TEAM}, 400, "invalid_input"),
        ({"email": "faulkner-howard@example.com"}, 400, "invalid_input"),
        ({"id": 999}, 404, "not_found"),
        ({"email": "nobody@example.org"}, 404, "not_found"),
        ({}, 400, "invalid_input"),
        ({"id": STRANGER, "kind": "owner"}, 400, "invalid_input"),
        ({"user_id": STRANGER}, 400, "invalid_input"),
    ],
)
def test_add_member_errors_change_nothing(api: Api, body, status, code):
    assert_error(api.post(f"/v1/teams/{TEAM}/users", json=body), status, code)
    assert team_members(api) == {PRO: "manager", FREE: "user"}


@pytest.mark.parametrize(("user", "status", "code"), [(FREE, 403, "forbidden"), (STRANGER, 404, "not_found")])
def test_only_managers_add_update_and_remove_members(api: Api, user, status, code):
    path = f"/v1/teams/{TEAM}/users"
    assert_error(api.post(path, user=user, json={"id": STRANGER}), status, code)
    assert_error(api.put(f"{path}/{FREE}", user=user, json={"kind": "manager"}), status, code)
    assert_error(api.put(f"{path}/{PRO}", user=user, json={"kind": "user"}), status, code)
    assert_error(api.delete(f"{path}/{PRO}", user=user), status, code)
    assert_error(api.delete(f"{path}/{FREE}", user=user), status, code)  # not even themself
    assert team_members(api) == {PRO: "manager", FREE: "user"}


def test_a_manager_promotes_a_member_who_then_manages(api: Api):
    response = api.put(f"/v1/teams/{TEAM}/users/{FREE}", json={"kind": "manager"})
    assert members(response) == {PRO: "manager", FREE: "manager"}
    assert ok(api.get("/v1/teams", user=FREE))[0]["user_kind"] == "manager"
    ok(api.put(f"/v1/teams/{TEAM}", user=FREE, json={"name": "Promoted"}))
    # with two managers, the first may step down
    assert members(api.put(f"/v1/teams/{TEAM}/users/{PRO}", user=FREE, json={"kind": "user"})) == {
        PRO: "user",
        FREE: "manager",
    }
    assert_error(api.put(f"/v1/teams/{TEAM}", json={"name": "No longer"}), 403, "forbidden")


def test_update_member_with_a_form_body(api: Api):
    response = api.put(f"/v1/teams/{TEAM}/users/{FREE}", data={"kind": "manager"})
    assert members(response) == {PRO: "manager", FREE: "manager"}


@pytest.mark.parametrize(
    ("body", "status", "code"), [({"kind": "owner"}, 400, "invalid_input"), ({}, 400, "invalid_input")]
)
def test_a_bad_member_update_is_400(api: Api, body, status, code):
    assert_error(api.put(f"/v1/teams/{TEAM}/users/{FREE}", json=body), status, code)


@pytest.mark.parametrize("user_id", [STRANGER, 999, TEAM])
def test_updating_or_removing_a_non_member_is_404(api: Api, user_id):
    assert_error(api.put(f"/v1/teams/{TEAM}/users/{user_id}", json={"kind": "manager"}), 404, "not_found")
    assert_error(api.delete(f"/v1/teams/{TEAM}/users/{user_id}"), 404, "not_found")
    assert team_members(api) == {PRO: "manager", FREE: "user"}


def test_the_last_manager_can_be_neither_demoted_nor_removed(api: Api):
    assert_error(api.put(f"/v1/teams/{TEAM}/users/{PRO}", json={"kind": "user"}), 409, "last_manager")
    assert_error(api.delete(f"/v1/teams/{TEAM}/users/{PRO}"), 409, "last_manager")
    assert team_members(api) == {PRO: "manager", FREE: "user"}
    # a manager who stays a manager is no change
    assert members(api.put(f"/v1/teams/{TEAM}/users/{PRO}", json={"kind": "manager"}))[PRO] == "manager"


def test_a_manager_removes_a_member_who_then_loses_the_team(api: Api):
    board = collection(api, PRO, "Board", user_id=TEAM)
    assert ok(api.get(f"/v1/collections/{board}", user=FREE))[0]["id"] == board
    assert ok(api.delete(f"/v1/teams/{TEAM}/users/{FREE}"))["code"] == "deleted"
    assert team_members(api) == {PRO: "manager"}
    assert ok(api.get("/v1/teams", user=FREE)) == []
    assert_error(api.get(f"/v1/teams/{TEAM}", user=FREE), 404, "not_found")
    assert_error(api.get(f"/v1/collections/{board}", user=FREE), 404, "not_found")
    assert board not in ids(api.get("/v1/collections", user=FREE))
    assert_error(api.delete(f"/v1/teams/{TEAM}/users/{FREE}"), 404, "not_found")


def test_a_manager_leaves_when_another_manager_stays(api: Api):
    ok(api.post(f"/v1/teams/{TEAM}/users", json={"id": STRANGER, "kind": "manager"}), 201)
    body = ok(api.delete(f"/v1/teams/{TEAM}/users/{PRO}"))
    assert body["code"] == "deleted"
    assert_error(api.get(f"/v1/teams/{TEAM}"), 404, "not_found")
    assert members(api.get(f"/v1/teams/{TEAM}/users", user=STRANGER)) == {FREE: "user", STRANGER: "manager"}
