"""The app as a whole: security (API key AND Basic), ping and auth, the guards in front of
connexion (405 Allow, UTF-8, body cap, unknown query parameters ignored, array and form encodings),
and the one error body `{code, message}`; a rejected request changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from csapi.mock_server.app import create_app
from tests.mock_server.conftest import (  # noqa: F401  (assert_error re-exported for other tests)
    API_KEY,
    FREE,
    PRO,
    STRANGER,
    TEAM,
    Api,
    World,
    assert_error,
    auth_headers,
    basic,
)


def assert_unauthorized(response: Any, code: str = "unauthorized") -> None:
    assert_error(response, 401, code)
    assert response.headers["WWW-Authenticate"].startswith("Basic")


# ---------------------------------------------------------------------- ping
def test_ping_needs_only_the_api_key(api: Api):
    response = api.get("/v1/ping", user=None)
    assert response.status_code == 200
    assert response.json()["code"] == "pong"
    assert isinstance(response.json()["message"], str)


@pytest.mark.parametrize("headers", [{}, {"X-API-Key": "wrong-key"}, {"X-API-Key": ""}])
def test_ping_without_the_right_key_is_401(client, headers):
    assert_unauthorized(client.get("/v1/ping", headers=headers))


# ---------------------------------------------------------------------- credentials
def test_key_and_basic_credentials_open_the_api(api: Api):
    response = api.get("/v1/collections", user=FREE)
    assert response.status_code == 200
    assert response.json() == []
    assert response.headers["X-Total-Count"] == "0"


def test_basic_credentials_alone_are_not_enough(client, store):
    headers = auth_headers(store, PRO)
    del headers["X-API-Key"]
    assert_unauthorized(client.get("/v1/collections", headers=headers))


def test_the_api_key_alone_is_not_enough(client):
    assert_unauthorized(client.get("/v1/collections", headers={"X-API-Key": API_KEY}))


@pytest.mark.parametrize(
    "authorization",
    [
        pytest.param(lambda s: basic(PRO, "not-the-token"), id="wrong-token"),
        pytest.param(lambda s: basic(FREE, s.accounts[PRO].token), id="another-users-token"),
        pytest.param(lambda s: basic(999, "whatever"), id="unknown-user"),
        pytest.param(lambda s: basic(TEAM, "whatever"), id="team-account"),
        pytest.param(lambda s: "Basic bm90LWJhc2U2NA", id="not-id-colon-token"),
        pytest.param(lambda s: "Bearer " + s.accounts[PRO].token, id="bearer"),
    ],
)
def test_wrong_user_credentials_are_401(client, store, authorization):
    headers = {"X-API-Key": API_KEY, "Authorization": authorization(store)}
    assert_unauthorized(client.get("/v1/collections", headers=headers))


def test_a_wrong_key_with_right_credentials_is_401(client, store):
    headers = {**auth_headers(store, PRO), "X-API-Key": "wrong-key"}
    assert_unauthorized(client.get("/v1/collections", headers=headers))


# ---------------------------------------------------------------------- POST /v1/auth
def test_auth_answers_the_user_and_a_token_that_works(api: Api, store):
    account = store.accounts[FREE]
    response = api.post("/v1/auth", user=None, json={"email": account.email, "password": account.password})
    assert response.status_code == 201
    body = response.json()
    assert body["id"] == FREE
    assert body["email"] == account.email
    assert body["username"] == account.username
    assert body["plan"] == "free"
    assert body["token"] == account.token
    headers = {"X-API-Key": API_KEY, "Authorization": basic(body["id"], body["token"])}
    assert api.client.get("/v1/collections", headers=headers).status_code == 200


def test_auth_email_is_case_insensitive(api: Api, store):
    account = store.accounts[PRO]
    body = {"email": account.email.upper(), "password": account.password}
    response = api.post("/v1/auth", user=None, json=body)
    assert response.status_code == 201
    assert response.json()["id"] == PRO


def test_auth_accepts_a_form_body(api: Api, store):
    account = store.accounts[PRO]
    response = api.post("/v1/auth", user=None, data={"email": account.email, "password": account.password})
    assert response.status_code == 201
    assert response.json()["token"] == account.token


def test_auth_wrong_password_is_password_incorrect(api: Api, store):
    body = {"email": store.accounts[PRO].email, "password": "not-the-password"}
    assert_unauthorized(api.post("/v1/auth", user=None, json=body), "password_incorrect")


def test_auth_unknown_email_is_user_invalid(api: Api):
    body = {"email": "nobody@example.net", "password": "whatever"}
    assert_unauthorized(api.post("/v1/auth", user=None, json=body), "user_invalid")


def test_auth_needs_the_api_key(client, store):
    account = store.accounts[PRO]
    response = client.post("/v1/auth", json={"email": account.email, "password": account.password})
    assert_unauthorized(response)


def test_auth_without_a_password_is_400(api: Api, store):
    assert_error(
        api.post("/v1/auth", user=None, json={"email": store.accounts[PRO].email}), 400, "invalid_input"
    )


# ---------------------------------------------------------------------- routing errors
@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("DELETE", "/v1/ping", "GET"),
        ("PATCH", "/v1/collections/1", "GET, PUT, DELETE"),
        ("POST", "/v1/items", "GET, PUT"),
        ("GET", "/v1/items/copy", "PUT"),
        ("PUT", "/v1/collections/1/users", "GET, POST"),
        ("POST", "/v1/tags/1", "DELETE"),
    ],
)
def test_405_lists_every_allowed_method(api: Api, method, path, allow):
    response = api.request(method, path)
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["Allow"] == allow


def test_an_unknown_path_is_404_with_the_error_body(api: Api):
    assert_error(api.get("/v1/nothing-here"), 404, "not_found")


def test_an_unknown_query_parameter_is_ignored(api: Api):
    """docs/design.md, request tolerance (`serve --strict-requests` refuses it: test_tolerance.py)."""
    response = api.get("/v1/collections", params={"bogus": "1"})
    assert response.status_code == 200, response.text


def test_a_parameter_of_the_wrong_type_is_400(api: Api):
    assert_error(api.get("/v1/collections", params={"page": "first"}), 400, "invalid_input")
    assert_error(api.get("/v1/collections", params={"page": "0"}), 400, "invalid_input")


def test_a_path_id_that_is_not_a_number_is_404(api: Api):
    assert_error(api.get("/v1/collections/abc"), 404, "not_found")


# ---------------------------------------------------------------------- bodies
def test_a_json_body_that_is_not_utf8_is_400(api: Api):
    raw = '{"name": "caf\u00e9", "type": "private"}'.encode("latin-1")
    response = api.post("/v1/collections", content=raw, headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_input")


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity", b"1e400"])
def test_a_json_body_with_a_non_finite_number_is_400(api: Api, world: World, store, number):
    before = store.snapshot()
    raw = b'{"type": "text", "content": "x", "latitude": ' + number + b', "longitude": 0}'
    response = api.post(
        f"/v1/collections/{world.trips}/items", content=raw, headers={"Content-Type": "application/json"}
    )
    assert_error(response, 400, "invalid_input")
    assert store.snapshot() == before


def test_a_malformed_json_body_is_400(api: Api):
    response = api.post("/v1/collections", content=b'{"name": ', headers={"Content-Type": "application/json"})
    assert_error(response, 400, "invalid_input")


def test_an_unknown_body_field_is_ignored(api: Api, store):
    """docs/design.md, request tolerance (`serve --strict-requests` refuses it: test_tolerance.py)."""
    response = api.post("/v1/collections", json={"name": "A", "type": "private", "colour": "red"})
    assert response.status_code == 201, response.text
    assert [c.name for c in store.collections.values()] == ["A"]


def test_an_unsupported_media_type_is_415(api: Api):
    response = api.post("/v1/collections", content=b"name=A", headers={"Content-Type": "text/plain"})
    assert_error(response, 415, "unsupported_media_type")


@pytest.fixture(scope="session")
def _small_app(_shared):
    return create_app(_shared.store, api_key=API_KEY, validate_responses=True, max_body=64)


@pytest.fixture
def small_app(_small_app, store):
    """The app over the test's store with a body cap of 64 bytes."""
    return _small_app


def test_a_body_over_the_cap_is_413(small_app, store):
    with small_app.test_client() as client:
        body = {"name": "x" * 100, "type": "private"}
        response = client.post("/v1/collections", headers=auth_headers(store, PRO), json=body)
        assert_error(response, 413, "payload_too_large")
        small = client.post(
            "/v1/collections", headers=auth_headers(store, PRO), json={"name": "A", "type": "private"}
        )
        assert small.status_code == 201
    assert [c.name for c in store.collections.values()] == ["A"]


def test_a_streamed_body_over_the_cap_is_413(small_app, store):
    def chunks():
        for _ in range(10):
            yield b'{"name": "' + b"x" * 20

    with small_app.test_client() as client:
        headers = {**auth_headers(store, PRO), "Content-Type": "application/json"}
        assert_error(
            client.post("/v1/collections", headers=headers, content=chunks()), 413, "payload_too_large"
        )
    assert store.collections == {}


# ---------------------------------------------------------------------- forms
def test_a_urlencoded_body_is_typed_by_the_schema(api: Api, store):
    form = {
        "name": "Form made",
        "type": "public",
        "highlighted": "true",
        "users[]": [str(FREE), str(STRANGER)],
    }
    response = api.post("/v1/collections", data=form)
    assert response.status_code == 201, response.text
    body = response.json()
    assert (body["name"], body["type"], body["highlighted"]) == ("Form made", "public", True)
    assert body["users_total_count"] == 3


def test_a_multipart_body_creates_a_file_item_from_its_content_part(api: Api, world: World, store):
    response = api.post(
        f"/v1/collections/{world.trips}/items",
        data={"type": "other", "name": "Boarding pass", "metadata[gate]": "A12", "tags": "travel,pass"},
        files={"content": ("boarding.pdf", b"%PDF-1.4 ...", "application/pdf")},
    )
    assert response.status_code == 201, response.text
    item = response.json()
    assert item["type"] == "other"
    assert item["name"] == "Boarding pass"
    # the file's URL on the mock, its size and type from the uploaded bytes
    assert item["content"].startswith("http://testserver/files/")
    assert item["content"].endswith("/boarding.pdf")
    assert item["is_url"] is True
    assert item["size"] == len(b"%PDF-1.4 ...")
    assert item["mime"] == "application/pdf"
    assert item["metadata"] == [{"key": "gate", "value": "A12"}]
    assert sorted(t["name"] for t in item["tags"]) == ["pass", "travel"]


def test_a_form_value_of_the_wrong_type_is_400(api: Api, store):
    response = api.post("/v1/collections", data={"name": "A", "type": "private", "highlighted": "maybe"})
    assert_error(response, 400, "invalid_input")
    assert store.collections == {}


def test_a_urlencoded_delete_body(api: Api, world: World):
    response = api.delete(f"/v1/items/{world.stack}", data={"delete_items": "true"})
    assert response.status_code == 200, response.text
    assert api.get(f"/v1/items/{world.video}").status_code == 404


# ---------------------------------------------------------------------- array query parameters
@pytest.mark.parametrize(
    "query",
    [
        "tags=travel&tags=food",
        "tags[]=travel&tags[]=food",
        "tags%5B%5D=travel&tags%5B%5D=food",
        "tags=travel,food",
        "tags=travel%2Cfood",
    ],
)
def test_array_query_parameters_in_every_encoding(api: Api, world: World, query):
    response = api.get(f"/v1/items?{query}")
    assert response.status_code == 200, response.text
    assert [i["id"] for i in response.json()] == [world.link]


# ---------------------------------------------------------------------- a rejected request changes nothing
def test_rejected_requests_change_nothing(api: Api, world: World, store, small_app):
    before = json.dumps(store.snapshot(), sort_keys=True)
    rejected = [
        (FREE, "PUT", f"/v1/collections/{world.free_notes}", {"json": {"name": "B", "archived": True}}, 402),
        (
            FREE,
            "POST",
            f"/v1/collections/{world.free_notes}/items",
            {"json": {"type": "text", "content": "x", "tags": ["t"]}},
            402,
        ),
        (PRO, "POST", "/v1/collections", {"json": {"name": "A", "type": "secret", "colour": "red"}}, 400),
        (STRANGER, "PUT", f"/v1/collections/{world.trips}", {"json": {"name": "Mine now"}}, 404),
        (STRANGER, "PUT", f"/v1/collections/{world.recipes}", {"json": {"name": "Mine now"}}, 403),
        (STRANGER, "DELETE", f"/v1/items/{world.recipe}", {}, 403),
        (FREE, "DELETE", f"/v1/collections/{world.trips}", {}, 403),
        (
            PRO,
            "PUT",
            f"/v1/collections/{world.trips}/items",
            {"json": {"items": [world.note], "parent_id": world.link}},
            400,
        ),
        (
            PRO,
            "PUT",
            "/v1/items",
            {"json": {"items": [world.note, world.free_note], "collection_id": world.recipes}},
            404,
        ),
        (PRO, "PUT", "/v1/items/copy", {"json": {"items": [world.note, 9999]}}, 404),
        (
            PRO,
            "DELETE",
            f"/v1/collections/{world.trips}/items",
            {"json": {"items": [world.note, world.recipe]}},
            404,
        ),
        (
            PRO,
            "POST",
            "/v1/collections",
            {"content": b'{"name": "\xe9"}', "headers": {"Content-Type": "application/json"}},
            400,
        ),
    ]
    for user_id, method, path, kwargs, status in rejected:
        response = api.request(method, path, user=user_id, **kwargs)
        assert response.status_code == status, (method, path, response.text)
    with small_app.test_client() as client:
        body = {"name": "x" * 100, "type": "private"}
        assert client.post("/v1/collections", headers=auth_headers(store, PRO), json=body).status_code == 413
    assert json.dumps(store.snapshot(), sort_keys=True) == before
