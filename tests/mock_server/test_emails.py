"""Email addresses over HTTP (spec 4.7): the current user's addresses, primary first; an
address belongs to one account; the primary one cannot be deleted (409 primary_email)."""

from __future__ import annotations

import pytest

from tests.mock_server.conftest import FREE, PRO, STRANGER, Api
from tests.mock_server.world import assert_error, ok

PRIMARY = {"id": 1, "email": "megan_chang@example.org"}


def addresses(api: Api, user: int = PRO) -> list[dict]:
    return ok(api.get("/v1/emails", user=user))


def test_each_user_lists_only_their_own_addresses(api: Api):
    assert addresses(api) == [PRIMARY]
    assert addresses(api, FREE) == [{"id": 2, "email": "rgreen@example.org"}]
    assert addresses(api, STRANGER) == [{"id": 3, "email": "wsullivan@example.org"}]


def test_create_answers_the_new_address_which_lists_after_the_primary(api: Api):
    first = ok(api.post("/v1/emails", json={"email": "b@example.net"}), 201)
    second = ok(api.post("/v1/emails", json={"email": "a@example.net"}), 201)
    assert first == {"id": 4, "email": "b@example.net"}
    assert second == {"id": 5, "email": "a@example.net"}
    assert addresses(api) == [PRIMARY, first, second]
    assert addresses(api, FREE) == [{"id": 2, "email": "rgreen@example.org"}]
    assert ok(api.get("/v1/users/me?include=emails"))["emails"] == [PRIMARY, first, second]


def test_the_primary_address_lists_first_after_it_changes(api: Api):
    added = ok(api.post("/v1/emails", json={"email": "new@example.net"}), 201)
    ok(api.put("/v1/users/me", json={"email": "new@example.net"}))
    assert addresses(api) == [added, PRIMARY]


def test_create_with_a_form_body(api: Api):
    assert ok(api.post("/v1/emails", data={"email": "form@example.net"}), 201)["email"] == "form@example.net"


@pytest.mark.parametrize(
    "email",
    [
        "megan_chang@example.org",
        "MEGAN_CHANG@example.org",
        "rgreen@example.org",
        "WSullivan@Example.org",
        "faulkner-howard@example.com",
    ],
)
def test_an_address_in_use_by_anyone_is_409(api: Api, email):
    assert_error(api.post("/v1/emails", json={"email": email}), 409, "email_unavailable")
    assert addresses(api) == [PRIMARY]


def test_an_address_added_by_another_user_is_409(api: Api):
    ok(api.post("/v1/emails", user=FREE, json={"email": "shared@example.net"}), 201)
    assert_error(api.post("/v1/emails", json={"email": "shared@example.net"}), 409, "email_unavailable")
    assert_error(
        api.post("/v1/emails", user=FREE, json={"email": "Shared@example.net"}), 409, "email_unavailable"
    )


@pytest.mark.parametrize("body", [{"email": "nope"}, {"email": ""}, {}, {"email": ["a@example.net"]}])
def test_a_bad_address_is_400(api: Api, body):
    assert_error(api.post("/v1/emails", json=body), 400, "invalid_input")
    assert addresses(api) == [PRIMARY]


def test_delete_a_secondary_address(api: Api):
    added = ok(api.post("/v1/emails", json={"email": "gone@example.net"}), 201)
    body = ok(api.delete(f"/v1/emails/{added['id']}"))
    assert body["code"] == "deleted" and body["message"]
    assert addresses(api) == [PRIMARY]
    assert_error(api.delete(f"/v1/emails/{added['id']}"), 404, "not_found")
    # the address is free again, for anyone
    assert (
        ok(api.post("/v1/emails", user=FREE, json={"email": "gone@example.net"}), 201)["email"]
        == "gone@example.net"
    )


def test_the_primary_address_cannot_be_deleted(api: Api):
    assert_error(api.delete("/v1/emails/1"), 409, "primary_email")
    assert addresses(api) == [PRIMARY]
    # once another address is primary, the old one can go
    added = ok(api.post("/v1/emails", json={"email": "new@example.net"}), 201)
    ok(api.put("/v1/users/me", json={"email": "new@example.net"}))
    assert_error(api.delete(f"/v1/emails/{added['id']}"), 409, "primary_email")
    ok(api.delete("/v1/emails/1"))
    assert addresses(api) == [added]


@pytest.mark.parametrize("email_id", [2, 3, 999])
def test_another_users_address_is_404_and_stays(api: Api, email_id):
    assert_error(api.delete(f"/v1/emails/{email_id}"), 404, "not_found")
    assert addresses(api, FREE) == [{"id": 2, "email": "rgreen@example.org"}]
    assert addresses(api, STRANGER) == [{"id": 3, "email": "wsullivan@example.org"}]
