"""Users over HTTP (spec 4.4): the current user with its includes, updating it (uniqueness of
usernames and emails across users and teams, paid-only fields), contacts, and the email and
username availability checks."""

from __future__ import annotations

import pytest

from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Api
from tests.mock_server.world import assert_error, collection, ids, ok

USER_FIELDS = {"id", "name", "email", "username", "avatar", "status", "plan"}
ME = "/v1/users/me"


# ---------------------------------------------------------------------- get current user
def test_the_current_user_without_include(api: Api):
    body = ok(api.get(ME))
    assert set(body) == USER_FIELDS
    assert body == {
        "id": PRO,
        "name": "Megan Chang",
        "email": "megan_chang@example.org",
        "username": "megan_chang",
        "avatar": body["avatar"],
        "status": "active",
        "plan": "pro",
    }
    assert body["avatar"].startswith("http")
    assert (ok(api.get(ME, user=FREE))["id"], ok(api.get(ME, user=FREE))["plan"]) == (FREE, "free")


@pytest.mark.parametrize(
    "query",
    [
        "include=emails,teams,teams_total_count",
        "include[]=emails&include[]=teams&include[]=teams_total_count",
        "include=emails&include=teams&include=teams_total_count",
    ],
)
def test_include_emails_teams_and_their_count_in_every_encoding(api: Api, query):
    body = ok(api.get(f"{ME}?{query}"))
    assert set(body) == USER_FIELDS | {"emails", "teams", "teams_total_count"}
    assert body["emails"] == [{"id": 1, "email": "megan_chang@example.org"}]
    assert [(t["id"], t["user_kind"]) for t in body["teams"]] == [(TEAM, "manager")]
    assert body["teams_total_count"] == 1


@pytest.mark.parametrize(
    ("query", "extra"),
    [
        ("include=emails", {"emails"}),
        ("include=teams", {"teams"}),
        ("include=emails,teams", {"emails", "teams"}),
        ("include[]=teams_total_count", {"teams_total_count"}),
    ],
)
def test_include_gives_only_what_was_asked(api: Api, query, extra):
    assert set(ok(api.get(f"{ME}?{query}", user=FREE))) == USER_FIELDS | extra


def test_a_user_in_no_team_has_no_teams(api: Api):
    body = ok(api.get(f"{ME}?include=emails,teams,teams_total_count", user=STRANGER))
    assert (body["teams"], body["teams_total_count"]) == ([], 0)
    assert body["emails"] == [{"id": 3, "email": "wsullivan@example.org"}]


def test_an_unknown_include_is_400(api: Api):
    assert_error(api.get(f"{ME}?include=items"), 400, "invalid_input")


# ---------------------------------------------------------------------- update current user
def test_update_name_and_username(api: Api):
    body = ok(api.put(ME, json={"name": "Meg Chang", "username": "meg"}))
    assert set(body) == USER_FIELDS
    assert (body["id"], body["name"], body["username"]) == (PRO, "Meg Chang", "meg")
    assert ok(api.get(ME))["username"] == "meg"
    # the old username is free, the new one taken; collections show the new owner data
    ok(api.get("/v1/users/username", params={"username": "megan_chang"}))
    assert_error(api.get("/v1/users/username", params={"username": "MEG"}), 409, "username_unavailable")
    created = ok(api.post("/v1/collections", json={"name": "A", "type": "private"}), 201)
    assert (created["username"], created["user_name"]) == ("meg", "Meg Chang")


def test_a_user_may_send_their_own_username(api: Api):
    assert ok(api.put(ME, json={"username": "Megan_Chang"}))["username"] == "Megan_Chang"


@pytest.mark.parametrize("taken", ["rgreen", "RGREEN", "faulkner-howard", "Faulkner-Howard"])
def test_a_username_of_another_user_or_a_team_is_409(api: Api, taken):
    response = api.put(ME, json={"username": taken, "name": "Changed"})
    assert_error(response, 409, "username_unavailable")
    assert (ok(api.get(ME))["username"], ok(api.get(ME))["name"]) == ("megan_chang", "Megan Chang")


@pytest.mark.parametrize("taken", ["rgreen@example.org", "RGreen@Example.org", "faulkner-howard@example.com"])
def test_an_email_of_another_user_or_a_team_is_409(api: Api, taken):
    assert_error(api.put(ME, json={"email": taken}), 409, "email_unavailable")
    assert ok(api.get(f"{ME}?include=emails"))["emails"] == [{"id": 1, "email": "megan_chang@example.org"}]


def test_a_new_email_becomes_primary_and_joins_the_addresses(api: Api):
    body = ok(api.put(ME, json={"email": "meg@example.net"}))
    assert body["email"] == "meg@example.net"
    assert [e["email"] for e in ok(api.get("/v1/emails"))] == ["meg@example.net", "megan_chang@example.org"]
    assert_error(api.get("/v1/users/email", params={"email": "meg@example.net"}), 409, "email_unavailable")
    # signing in works with the new primary address
    password = api.store.accounts[PRO].password
    assert (
        ok(api.post("/v1/auth", user=None, json={"email": "meg@example.net", "password": password}), 201)[
            "id"
        ]
        == PRO
    )


def test_one_of_the_users_own_addresses_becomes_primary(api: Api):
    added = ok(api.post("/v1/emails", json={"email": "second@example.net"}), 201)
    assert ok(api.put(ME, json={"email": "second@example.net"}))["email"] == "second@example.net"
    assert ok(api.get("/v1/emails")) == [added, {"id": 1, "email": "megan_chang@example.org"}]


def test_an_own_address_in_another_case_becomes_primary_as_it_is_listed(api: Api):
    added = ok(api.post("/v1/emails", json={"email": "second@example.net"}), 201)
    assert ok(api.put(ME, json={"email": "SECOND@Example.NET"}))["email"] == "second@example.net"
    assert ok(api.get("/v1/emails")) == [added, {"id": 1, "email": "megan_chang@example.org"}]
    assert ok(api.get(ME))["email"] == ok(api.get("/v1/emails"))[0]["email"]


@pytest.mark.parametrize(
    "body",
    [
        {"username": "x"},
        {"username": "_x"},
        {"username": "a b"},
        {"email": "nope"},
        {"name": ""},
        {"view_mode": "flow"},
        {"sort_by": "size"},
        {"labels": "yes"},
    ],
)
def test_a_bad_update_is_400(api: Api, body):
    assert_error(api.put(ME, json=body), 400, "invalid_input")
    assert ok(api.get(ME))["username"] == "megan_chang"


PAID = [
    ("custom_domain", "megan.example.net"),
    ("labels", False),
    ("sort_by", "name"),
    ("sort_order", "desc"),
    ("view_mode", "shelf"),
]


@pytest.mark.parametrize(("field", "value"), PAID)
def test_paid_user_fields_are_402_for_a_free_user_and_nothing_changes(api: Api, store, field, value):
    before = getattr(store.accounts[FREE], field)
    assert_error(api.put(ME, user=FREE, json={field: value, "name": "Changed"}), 402, "paid_plan_required")
    assert getattr(store.accounts[FREE], field) == before
    assert ok(api.get(ME, user=FREE))["name"] == "Robert Green"


@pytest.mark.parametrize(("field", "value"), PAID)
def test_paid_user_fields_are_accepted_from_a_pro_user(api: Api, store, field, value):
    assert ok(api.put(ME, json={field: value}))["id"] == PRO
    assert getattr(store.accounts[PRO], field) == value


def test_a_custom_domain_shows_on_the_users_collections_and_team_membership(api: Api):
    ok(api.put(ME, json={"custom_domain": "megan.example.net"}))
    created = ok(api.post("/v1/collections", json={"name": "A", "type": "global"}), 201)
    assert created["custom_domain"] == "megan.example.net"
    assert ids(api.get("/v1/collections", user=STRANGER, params={"domain": "megan.example.net"})) == [
        created["id"]
    ]
    team = ok(api.get(f"/v1/teams/{TEAM}"))
    assert {m["id"]: m["custom_domain"] for m in team["users"]} == {PRO: "megan.example.net", FREE: None}


def test_a_free_user_updates_free_fields(api: Api):
    body = ok(api.put(ME, user=FREE, json={"name": "Bob Green", "username": "bob"}))
    assert (body["name"], body["username"], body["plan"]) == ("Bob Green", "bob", "free")


def test_update_with_a_form_body_is_the_same_as_json(api: Api, store):
    body = ok(api.put(ME, data={"name": "Meg Form", "labels": "false", "sort_by": "name"}))
    assert body["name"] == "Meg Form"
    assert (store.accounts[PRO].labels, store.accounts[PRO].sort_by) == (False, "name")
    assert_error(api.put(ME, user=FREE, data={"labels": "false"}), 402, "paid_plan_required")
    assert_error(
        api.put(ME, user=FREE, data={"username": "rgreen2", "email": "rgreen"}), 400, "invalid_input"
    )
    assert_error(api.put(ME, user=FREE, data={"username": "megan_chang"}), 409, "username_unavailable")


# ---------------------------------------------------------------------- contacts
def contacts(api: Api, user: int) -> list[int]:
    body = ok(api.get("/v1/users/contacts", user=user))
    for contact in body:
        assert set(contact) == USER_FIELDS
    return [contact["id"] for contact in body]


def test_contacts_are_team_members_never_the_caller(api: Api):
    assert contacts(api, PRO) == [FREE]
    assert contacts(api, FREE) == [PRO]
    assert contacts(api, STRANGER) == []


def test_contacts_include_people_sharing_collections_both_ways(api: Api):
    trips = collection(api, PRO, "Trips", users=[STRANGER])
    assert contacts(api, PRO) == [FREE, STRANGER]
    assert contacts(api, STRANGER) == [PRO]
    ok(api.post(f"/v1/collections/{trips}/users", json={"id": FREE}), 201)
    assert contacts(api, STRANGER) == [PRO, FREE]  # by name: Megan Chang, Robert Green
    ok(api.delete(f"/v1/collections/{trips}/users/{STRANGER}", user=STRANGER))
    assert contacts(api, STRANGER) == []
    assert contacts(api, PRO) == [FREE]


def test_a_team_on_a_collection_stands_for_its_members(api: Api):
    collection(api, STRANGER, "Mine", users=[TEAM])
    assert contacts(api, STRANGER) == [PRO, FREE]
    assert contacts(api, FREE) == [PRO, STRANGER]


def test_reading_a_public_collection_makes_no_contact(api: Api):
    public = collection(api, PRO, "Recipes", "global")
    assert ok(api.get(f"/v1/collections/{public}", user=STRANGER))[0]["id"] == public
    assert contacts(api, STRANGER) == []
    assert contacts(api, PRO) == [FREE]


# ---------------------------------------------------------------------- availability
def test_a_free_email_is_available(api: Api):
    assert ok(api.get("/v1/users/email", params={"email": "new@example.net"}))["code"] == "email_available"
    assert ok(api.get("/v1/users/email", user=STRANGER, params={"email": "new@example.net"}))["message"]


@pytest.mark.parametrize(
    "email", ["megan_chang@example.org", "RGREEN@example.org", "faulkner-howard@example.com"]
)
def test_a_used_email_is_409(api: Api, email):
    assert_error(api.get("/v1/users/email", params={"email": email}), 409, "email_unavailable")


def test_a_secondary_address_is_unavailable_and_free_again_once_deleted(api: Api):
    added = ok(api.post("/v1/emails", user=FREE, json={"email": "bob@example.net"}), 201)
    assert_error(api.get("/v1/users/email", params={"email": "bob@example.net"}), 409, "email_unavailable")
    ok(api.delete(f"/v1/emails/{added['id']}", user=FREE))
    assert ok(api.get("/v1/users/email", params={"email": "bob@example.net"}))["code"] == "email_available"


@pytest.mark.parametrize("email", ["nope", "a@b", "two@@example.org", "sp ace@example.org"])
def test_a_malformed_email_is_400(api: Api, email):
    assert_error(api.get("/v1/users/email", params={"email": email}), 400, "invalid_input")


def test_the_email_parameter_is_required(api: Api):
    assert_error(api.get("/v1/users/email"), 400, "invalid_input")
    assert_error(api.get("/v1/users/username"), 400, "invalid_input")


def test_a_free_username_is_available(api: Api):
    body = ok(api.get("/v1/users/username", params={"username": "new-name_2"}))
    assert body["code"] == "username_available"


@pytest.mark.parametrize("username", ["rgreen", "RGreen", "megan_chang", "faulkner-howard"])
def test_a_username_of_a_user_or_a_team_is_409(api: Api, username):
    assert_error(api.get("/v1/users/username", params={"username": username}), 409, "username_unavailable")


@pytest.mark.parametrize("username", ["a", "-dash", "_under", "has space", "x" * 41, "naïve!"])
def test_a_malformed_username_is_400(api: Api, username):
    assert_error(api.get("/v1/users/username", params={"username": username}), 400, "invalid_input")
