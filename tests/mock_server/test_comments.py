"""Comments over HTTP (spec 4.5): anyone who sees an item comments on it; only the author edits;
the author or the collection's owner deletes; `notify=true` records one New Comment
notification per opted-in collaborator other than the author (GET /__mock__/notifications)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Api, Clock
from tests.mock_server.world import assert_error, collection, comment, get_item, ids, item, notifications, ok

COMMENT_FIELDS = set("id user_id username name email avatar body annotation created_at updated_at".split())


@dataclass
class Shared:
    trips: int  # private, user 1, collaborator user 2
    note: int  # an item of trips, by user 1
    public: int  # public, user 1
    recipe: int  # an item of public


@pytest.fixture
def shared(api: Api) -> Shared:
    trips = collection(api, PRO, "Trips", users=[FREE])
    public = collection(api, PRO, "Recipes", "public")
    return Shared(trips, item(api, PRO, trips, "Packing list"), public, item(api, PRO, public, "Cod"))


def comments_of(api: Api, item_id: int, user: int = PRO) -> list[dict]:
    return ok(api.get(f"/v1/items/{item_id}/comments", user=user))


# ---------------------------------------------------------------------- create and list
def test_create_keeps_mentions_verbatim_and_answers_the_comment(api: Api, shared: Shared):
    text = "@megan_chang look at this, and @nobody too"
    body = ok(api.post(f"/v1/items/{shared.note}/comments", user=FREE, json={"body": text}), 201)
    assert set(body) == COMMENT_FIELDS
    assert body["body"] == text
    assert (body["user_id"], body["username"], body["name"], body["email"]) == (
        FREE,
        "rgreen",
        "Robert Green",
        "rgreen@example.org",
    )
    assert body["annotation"] is None
    assert body["created_at"] == body["updated_at"] == "2026-11-21T12:00:00Z"
    assert body["avatar"].startswith("http")
    assert comments_of(api, shared.note) == [body]
    assert get_item(api, PRO, shared.note)["comments"] == [body]
    assert notifications(api) == []  # without notify, nobody is notified


def test_comments_list_oldest_first(api: Api, shared: Shared, clock: Clock):
    first = comment(api, PRO, shared.note, "first")
    clock.advance()
    second = comment(api, FREE, shared.note, "second")
    assert ids(api.get(f"/v1/items/{shared.note}/comments", user=FREE)) == [first, second]
    assert [c["id"] for c in get_item(api, FREE, shared.note)["comments"]] == [first, second]
    assert comments_of(api, shared.recipe) == []


def test_create_with_a_form_body_is_the_same_as_json(api: Api, shared: Shared):
    response = api.post(
        f"/v1/items/{shared.note}/comments", user=FREE, data={"body": "@megan_chang hi", "notify": "true"}
    )
    body = ok(response, 201)
    assert (body["body"], body["user_id"]) == ("@megan_chang hi", FREE)
    assert [(n["user_id"], n["comment_id"]) for n in notifications(api)] == [(PRO, body["id"])]


def test_readers_of_a_public_collection_and_of_a_shareable_item_comment(api: Api, shared: Shared):
    assert ok(api.post(f"/v1/items/{shared.recipe}/comments", user=STRANGER, json={"body": "yum"}), 201)
    assert [c["body"] for c in comments_of(api, shared.recipe, STRANGER)] == ["yum"]
    assert_error(
        api.post(f"/v1/items/{shared.note}/comments", user=STRANGER, json={"body": "hi"}), 404, "not_found"
    )
    ok(api.put(f"/v1/items/{shared.note}", json={"shareable": True}))
    assert ok(api.post(f"/v1/items/{shared.note}/comments", user=STRANGER, json={"body": "hi"}), 201)
    assert [c["body"] for c in comments_of(api, shared.note)] == ["hi"]


def test_a_stranger_sees_no_comments_of_a_private_item(api: Api, shared: Shared):
    comment(api, PRO, shared.note, "private")
    assert_error(api.get(f"/v1/items/{shared.note}/comments", user=STRANGER), 404, "not_found")


@pytest.mark.parametrize("body", [{}, {"body": ""}, {"body": 5}, {"body": "x", "notify": "yes"}])
def test_a_bad_comment_is_400(api: Api, shared: Shared, body):
    assert_error(api.post(f"/v1/items/{shared.note}/comments", json=body), 400, "invalid_input")
    assert comments_of(api, shared.note) == []


def test_deleted_and_unknown_items_take_no_comments(api: Api, shared: Shared):
    ok(api.delete(f"/v1/items/{shared.note}"))
    assert_error(api.post(f"/v1/items/{shared.note}/comments", json={"body": "x"}), 404, "not_found")
    assert_error(api.get(f"/v1/items/{shared.note}/comments"), 404, "not_found")
    assert_error(api.post("/v1/items/999/comments", json={"body": "x"}), 404, "not_found")


# ---------------------------------------------------------------------- notify
def recipients(api: Api) -> list[tuple[int, int]]:
    return [(n["user_id"], n["comment_id"]) for n in notifications(api)]


def test_notify_records_one_notification_per_collaborator_but_the_author(api: Api, shared: Shared):
    ok(api.post(f"/v1/collections/{shared.trips}/users", json={"id": STRANGER}), 201)
    made = ok(
        api.post(
            f"/v1/items/{shared.note}/comments",
            user=FREE,
            json={"body": "@wsullivan see this", "notify": True},
        ),
        201,
    )
    (first, second) = notifications(api)
    assert first == {
        "id": 1,
        "kind": "new_comment",
        "user_id": PRO,
        "comment_id": made["id"],
        "item_id": shared.note,
        "collection_id": shared.trips,
        "created_at": made["created_at"],
    }
    assert (second["user_id"], second["comment_id"]) == (STRANGER, made["id"])
    comment(api, PRO, shared.note, "no notify", notify=False)
    assert len(notifications(api)) == 2


def test_a_team_collaborator_stands_for_its_members_each_notified_once(api: Api):
    mine = collection(api, STRANGER, "Mine", users=[TEAM, FREE])
    note = item(api, STRANGER, mine, "note")
    made = comment(api, STRANGER, note, "hello team", notify=True)
    assert recipients(api) == [(PRO, made), (FREE, made)]  # the author is never notified
    by_member = comment(api, FREE, note, "thanks", notify=True)
    assert recipients(api)[2:] == [(STRANGER, by_member), (PRO, by_member)]


def test_members_of_an_owning_team_are_notified(api: Api):
    board = collection(api, PRO, "Board", user_id=TEAM)
    note = item(api, FREE, board, "note")
    made = comment(api, FREE, note, "ping", notify=True)
    assert recipients(api) == [(PRO, made)]


def test_a_collaborator_who_opted_out_is_not_notified(api: Api, store, shared: Shared):
    ok(api.post(f"/v1/collections/{shared.trips}/users", json={"id": STRANGER}), 201)
    store.collections[shared.trips].collaborators[FREE] = False  # no operation sets is_subscribed
    users = ok(api.get(f"/v1/collections/{shared.trips}/users"))
    assert {u["id"]: u["is_subscribed"] for u in users} == {PRO: True, FREE: False, STRANGER: True}
    made = comment(api, STRANGER, shared.note, "hi", notify=True)
    assert recipients(api) == [(PRO, made)]


def test_a_reader_commenting_with_notify_notifies_the_collection(api: Api, shared: Shared):
    made = comment(api, STRANGER, shared.recipe, "great", notify=True)
    assert recipients(api) == [(PRO, made)]


# ---------------------------------------------------------------------- update
def test_only_the_author_edits_a_comment(api: Api, shared: Shared, clock: Clock):
    made = ok(api.post(f"/v1/items/{shared.note}/comments", user=FREE, json={"body": "draft"}), 201)
    clock.advance(60)
    body = ok(api.put(f"/v1/comments/{made['id']}", user=FREE, json={"body": "final @megan_chang"}))
    assert {**body, "body": made["body"], "updated_at": made["updated_at"]} == made
    assert (body["body"], body["updated_at"]) == ("final @megan_chang", "2026-11-21T12:01:00Z")
    assert comments_of(api, shared.note) == [body]
    # the owner of the collection sees it but may not edit it; a stranger does not see it
    assert_error(api.put(f"/v1/comments/{made['id']}", json={"body": "owner"}), 403, "forbidden")
    assert_error(api.put(f"/v1/comments/{made['id']}", user=STRANGER, json={"body": "x"}), 404, "not_found")
    assert_error(api.put("/v1/comments/999", json={"body": "x"}), 404, "not_found")
    assert [c["body"] for c in comments_of(api, shared.note)] == ["final @megan_chang"]


def test_an_edit_needs_a_body(api: Api, shared: Shared):
    made = comment(api, PRO, shared.note, "keep")
    for body in ({}, {"body": ""}, {"body": ["x"]}):
        assert_error(api.put(f"/v1/comments/{made}", json=body), 400, "invalid_input")
    assert ok(api.put(f"/v1/comments/{made}", data={"body": "form"}))["body"] == "form"


# ---------------------------------------------------------------------- delete
def test_the_author_deletes_a_comment(api: Api, shared: Shared):
    made = comment(api, FREE, shared.note, "oops")
    kept = comment(api, PRO, shared.note, "kept")
    body = ok(api.delete(f"/v1/comments/{made}", user=FREE))
    assert body["code"] == "deleted" and body["message"]
    assert ids(api.get(f"/v1/items/{shared.note}/comments")) == [kept]
    assert [c["id"] for c in get_item(api, PRO, shared.note)["comments"]] == [kept]
    assert_error(api.delete(f"/v1/comments/{made}", user=FREE), 404, "not_found")
    assert_error(api.put(f"/v1/comments/{made}", user=FREE, json={"body": "x"}), 404, "not_found")


def test_the_collection_owner_deletes_anyones_comment_a_collaborator_may_not(api: Api, shared: Shared):
    by_owner = comment(api, PRO, shared.note, "owner's")
    by_member = comment(api, FREE, shared.note, "member's")
    assert_error(api.delete(f"/v1/comments/{by_owner}", user=FREE), 403, "forbidden")
    assert_error(api.delete(f"/v1/comments/{by_owner}", user=STRANGER), 404, "not_found")
    ok(api.delete(f"/v1/comments/{by_member}"))
    assert ids(api.get(f"/v1/items/{shared.note}/comments")) == [by_owner]


def test_a_manager_of_the_owning_team_deletes_comments_a_plain_member_may_not(api: Api):
    board = collection(api, PRO, "Board", user_id=TEAM)
    note = item(api, PRO, board, "note")
    by_manager = comment(api, PRO, note, "manager's")
    by_member = comment(api, FREE, note, "member's")
    assert_error(api.delete(f"/v1/comments/{by_manager}", user=FREE), 403, "forbidden")
    ok(api.delete(f"/v1/comments/{by_member}"))
    assert ids(api.get(f"/v1/items/{note}/comments", user=FREE)) == [by_manager]


def test_a_public_reader_deletes_their_own_comment_only(api: Api, shared: Shared):
    mine = comment(api, STRANGER, shared.recipe, "mine")
    owners = comment(api, PRO, shared.recipe, "owner's")
    assert_error(api.delete(f"/v1/comments/{owners}", user=STRANGER), 403, "forbidden")
    assert_error(api.put(f"/v1/comments/{owners}", user=STRANGER, json={"body": "x"}), 403, "forbidden")
    ok(api.delete(f"/v1/comments/{mine}", user=STRANGER))
    assert ids(api.get(f"/v1/items/{shared.recipe}/comments", user=STRANGER)) == [owners]


def test_comments_of_a_deleted_item_are_gone(api: Api, shared: Shared):
    made = comment(api, FREE, shared.note, "on a doomed item")
    ok(api.delete(f"/v1/items/{shared.note}"))
    assert_error(api.put(f"/v1/comments/{made}", user=FREE, json={"body": "x"}), 404, "not_found")
    assert_error(api.delete(f"/v1/comments/{made}"), 404, "not_found")


def test_a_collaborator_who_leaves_loses_their_comments(api: Api, shared: Shared):
    made = comment(api, FREE, shared.note, "bye")
    ok(api.delete(f"/v1/collections/{shared.trips}/users/{FREE}", user=FREE))
    assert_error(api.put(f"/v1/comments/{made}", user=FREE, json={"body": "x"}), 404, "not_found")
    assert [c["body"] for c in comments_of(api, shared.note)] == ["bye"]
