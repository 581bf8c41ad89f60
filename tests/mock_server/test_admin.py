"""The mock-only admin API under /__mock__/ (docs/design.md): credentials, reset, new users,
snapshots, recorded notifications; no auth; off with admin=False."""

from __future__ import annotations

import json

import pytest

from csapi.mock_server.app import create_app
from tests.mock_server.conftest import API_KEY, FREE, PRO, STRANGER, TEAM, Api, World, basic
from tests.mock_server.test_app import assert_error


def test_credentials_list_the_key_users_and_teams(client, store):
    response = client.get("/__mock__/credentials")
    assert response.status_code == 200
    body = response.json()
    assert body["api_key"] == API_KEY
    assert [(u["id"], u["plan"]) for u in body["users"]] == [(PRO, "pro"), (FREE, "free"), (STRANGER, "free")]
    first = body["users"][0]
    account = store.accounts[PRO]
    assert (first["username"], first["email"], first["password"], first["token"]) == (
        account.username,
        account.email,
        account.password,
        account.token,
    )
    [team] = body["teams"]
    assert (team["id"], team["managers"], team["members"]) == (TEAM, [PRO], [FREE])


def test_credentials_work_for_basic_and_for_auth(client):
    users = client.get("/__mock__/credentials").json()["users"]
    for user in users:
        headers = {"X-API-Key": API_KEY, "Authorization": basic(user["id"], user["token"])}
        assert client.get("/v1/collections", headers=headers).status_code == 200
        signed_in = client.post(
            "/v1/auth",
            headers={"X-API-Key": API_KEY},
            json={"email": user["email"], "password": user["password"]},
        )
        assert signed_in.status_code == 201
        assert signed_in.json()["token"] == user["token"]


def test_reset_restores_the_fixtures(client, api: Api, world: World):
    response = client.post("/__mock__/reset", json={"fixtures": "empty", "seed": 0})
    assert response.status_code == 200
    assert response.json()["code"] == "reset"
    assert api.get("/v1/collections").json() == []
    assert_error(api.get(f"/v1/items/{world.link}"), 404, "not_found")


def test_reset_to_the_default_fixtures_and_seed(client, api: Api):
    assert client.post("/__mock__/reset", json={"fixtures": "default", "seed": 3}).status_code == 200
    first = client.get("/__mock__/snapshot").json()
    assert len(first["collections"]) > 0 and len(first["items"]) > 0
    client.post("/__mock__/reset", json={"fixtures": "default", "seed": 3})
    assert client.get("/__mock__/snapshot").json() == first  # a seed reproduces the state
    assert client.post("/__mock__/reset").status_code == 200  # no body: default fixtures, seed 0
    assert client.get("/__mock__/snapshot").json() != first


@pytest.mark.parametrize(
    "body",
    [{"fixtures": "huge"}, {"seed": "one"}, {"seed": True}, [1, 2], "not json"],
)
def test_reset_rejects_bad_bodies_and_keeps_the_state(client, store, world: World, body):
    before = store.snapshot()
    content = body if isinstance(body, str) else json.dumps(body)
    response = client.post("/__mock__/reset", content=content, headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_input")
    assert store.snapshot() == before


def test_create_a_user(client, api: Api):
    response = client.post("/__mock__/users", json={"plan": "pro", "name": "Ana Silva"})
    assert response.status_code == 201
    user = response.json()
    assert user["id"] == 5  # after the accounts 1-4
    assert user["plan"] == "pro"
    assert user["password"] and user["token"]
    headers = {"X-API-Key": API_KEY, "Authorization": basic(user["id"], user["token"])}
    assert client.get("/v1/collections", headers=headers).status_code == 200
    created = client.post(
        "/v1/collections", headers=headers, json={"name": "A", "type": "private", "view_mode": "list"}
    )
    assert created.status_code == 201  # a pro user may use paid fields
    assert created.json()["user_name"] == "Ana Silva"
    plain = client.post("/__mock__/users")
    assert (plain.status_code, plain.json()["plan"], plain.json()["id"]) == (201, "free", 6)
    ids = [u["id"] for u in client.get("/__mock__/credentials").json()["users"]]
    assert ids == [PRO, FREE, STRANGER, 5, 6]


@pytest.mark.parametrize("body", [{"plan": "team"}, {"plan": "gold"}, {"name": 7}])
def test_create_user_rejects_bad_bodies(client, store, body):
    assert_error(client.post("/__mock__/users", json=body), 400, "invalid_input")
    assert len(store.accounts) == 4


def test_snapshot_round_trip(client, api: Api, world: World):
    saved = client.get("/__mock__/snapshot")
    assert saved.status_code == 200
    snapshot = saved.json()
    assert snapshot["format"] == "csapi-state"
    assert [c["name"] for c in snapshot["collections"]] == ["Trips", "Recipes", "Team board", "Free notes"]
    api.delete(f"/v1/collections/{world.trips}")
    api.post("/v1/collections", json={"name": "Later", "type": "private"})
    restored = client.put("/__mock__/snapshot", json=snapshot)
    assert restored.status_code == 200
    assert restored.json()["code"] == "restored"
    assert client.get("/__mock__/snapshot").json() == snapshot
    assert api.get(f"/v1/items/{world.video}").json()[0]["parent_id"] == world.stack
    assert [c["name"] for c in api.get("/v1/collections").json()] == ["Trips", "Team board", "Recipes"]
    new = api.post("/v1/collections", json={"name": "Next", "type": "private"}).json()
    assert new["id"] == 5  # the sequences came back too


@pytest.mark.parametrize(
    "snapshot",
    [
        {"format": "something-else", "version": 1},
        {"format": "csapi-state", "version": 1, "collections": [{"id": 1, "colour": "red"}]},
        {"format": "csapi-state", "version": 1, "items": "many"},
    ],
)
def test_a_bad_snapshot_is_400_and_keeps_the_state(client, store, world: World, snapshot):
    before = store.snapshot()
    assert_error(client.put("/__mock__/snapshot", json=snapshot), 400, "invalid_input")
    assert store.snapshot() == before


@pytest.mark.parametrize(
    ("table", "field", "value"),
    [
        ("collections", "owner_id", 999),
        ("items", "parent_id", 999),
        ("tags", "item_id", 999),
        ("collections", "collaborators", {"999": True}),
        ("items", "collection_id", 999),
    ],
)
def test_a_snapshot_with_a_dangling_id_is_400(client, store, world: World, table, field, value):
    before = store.snapshot()
    broken = store.snapshot()
    broken[table][0][field] = value
    body = assert_error(client.put("/__mock__/snapshot", json=broken), 400, "invalid_input")
    assert "999" in body["message"]
    assert store.snapshot() == before


def test_notifications_record_new_comments(client, store, world: World, clock):
    assert client.get("/__mock__/notifications").json() == []
    clock.advance(60)
    comment = store.create_comment(store.accounts[PRO], world.link, "Look at this", notify=True)
    store.create_comment(store.accounts[PRO], world.link, "Quietly", notify=False)
    store.generation += 1  # written behind the API's back: drop the cached answers
    response = client.get("/__mock__/notifications")
    assert response.status_code == 200
    assert response.json() == [
        {
            "id": 1,
            "kind": "new_comment",
            "user_id": FREE,
            "comment_id": comment.id,
            "item_id": world.link,
            "collection_id": world.trips,
            "created_at": "2026-11-21T12:01:14Z",
        },
    ]


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [("POST", "/__mock__/snapshot", "GET, PUT"), ("DELETE", "/__mock__/credentials", "GET"),
     ("GET", "/__mock__/reset", "POST"), ("PUT", "/__mock__/users", "POST")],
)  # fmt: skip
def test_a_wrong_method_on_an_admin_path_is_405_with_allow(client, store, method, path, allow):
    before = store.snapshot()
    response = client.request(method, path)
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["Allow"] == allow
    assert store.snapshot() == before


def test_admin_needs_no_auth_and_can_be_turned_off(store):
    app = create_app(store, api_key=API_KEY, admin=False)
    with app.test_client() as client:
        assert client.get("/__mock__/credentials").status_code == 404
        assert client.post("/__mock__/reset").status_code == 404
        assert client.get("/v1/ping", headers={"X-API-Key": API_KEY}).status_code == 200
