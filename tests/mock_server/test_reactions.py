"""Reactions over HTTP (spec 4.6): a like per user and item (a second one is 409), the item's
`reactions` and `reactions_total_count` follow, and only the liker takes a like back."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.mock_server.conftest import FREE, PRO, STRANGER, Api, Clock
from tests.mock_server.world import assert_error, collection, get_item, ids, item, like, ok

REACTION_FIELDS = set("id item_id user_id username name email avatar created_at updated_at".split())


@dataclass
class Shared:
    trips: int  # private, user 1, collaborator user 2
    note: int
    public: int
    recipe: int


@pytest.fixture
def shared(api: Api) -> Shared:
    trips = collection(api, PRO, "Trips", users=[FREE])
    public = collection(api, PRO, "Recipes", "public")
    return Shared(trips, item(api, PRO, trips, "Packing list"), public, item(api, PRO, public, "Cod"))


def likers(api: Api, item_id: int, user: int = PRO) -> list[int]:
    """User ids of the item's reactions, as its `reactions` array lists them (the count checked)."""
    shown = get_item(api, user, item_id)
    assert shown["reactions_total_count"] == len(shown["reactions"])
    assert shown["reactions"] == ok(api.get(f"/v1/items/{item_id}/reactions", user=user))
    return [r["user_id"] for r in shown["reactions"]]


def test_a_like_answers_the_reaction(api: Api, shared: Shared):
    body = ok(api.post(f"/v1/items/{shared.note}/reactions", user=FREE), 201)
    assert set(body) == REACTION_FIELDS
    assert (body["item_id"], body["user_id"], body["username"], body["name"], body["email"]) == (
        shared.note,
        FREE,
        "rgreen",
        "Robert Green",
        "rgreen@example.org",
    )
    assert body["created_at"] == body["updated_at"] == "2026-11-21T12:00:00Z"
    assert body["avatar"].startswith("http")
    assert get_item(api, FREE, shared.note)["reactions"] == [body]


def test_likes_add_up_and_a_second_like_is_409(api: Api, shared: Shared, clock: Clock):
    assert likers(api, shared.note) == []
    like(api, PRO, shared.note)
    clock.advance()
    like(api, FREE, shared.note)
    assert likers(api, shared.note) == [PRO, FREE]
    assert_error(api.post(f"/v1/items/{shared.note}/reactions", user=FREE), 409, "conflict")
    assert_error(api.post(f"/v1/items/{shared.note}/reactions"), 409, "conflict")
    assert likers(api, shared.note, FREE) == [PRO, FREE]
    assert likers(api, shared.recipe) == []  # another item is untouched


def test_a_public_reader_likes_a_stranger_cannot(api: Api, shared: Shared):
    like(api, STRANGER, shared.recipe)
    assert likers(api, shared.recipe, STRANGER) == [STRANGER]
    assert_error(api.post(f"/v1/items/{shared.note}/reactions", user=STRANGER), 404, "not_found")
    assert_error(api.get(f"/v1/items/{shared.note}/reactions", user=STRANGER), 404, "not_found")
    assert likers(api, shared.note) == []


def test_deleted_and_unknown_items_take_no_likes(api: Api, shared: Shared):
    ok(api.delete(f"/v1/items/{shared.note}"))
    assert_error(api.post(f"/v1/items/{shared.note}/reactions"), 404, "not_found")
    assert_error(api.get(f"/v1/items/{shared.note}/reactions"), 404, "not_found")
    assert_error(api.post("/v1/items/999/reactions"), 404, "not_found")


def test_the_liker_takes_a_like_back_and_may_like_again(api: Api, shared: Shared):
    mine = like(api, FREE, shared.note)
    like(api, PRO, shared.note)
    body = ok(api.delete(f"/v1/reactions/{mine}", user=FREE))
    assert body["code"] == "deleted" and body["message"]
    assert likers(api, shared.note) == [PRO]
    assert_error(api.delete(f"/v1/reactions/{mine}", user=FREE), 404, "not_found")
    again = like(api, FREE, shared.note)
    assert again != mine
    assert likers(api, shared.note) == [PRO, FREE]


def test_nobody_else_takes_a_like_back(api: Api, shared: Shared):
    mine = like(api, FREE, shared.note)
    assert_error(api.delete(f"/v1/reactions/{mine}"), 403, "forbidden")  # the collection's owner
    assert_error(api.delete(f"/v1/reactions/{mine}", user=STRANGER), 404, "not_found")
    assert_error(api.delete("/v1/reactions/999"), 404, "not_found")
    assert likers(api, shared.note) == [FREE]


def test_reactions_sort_a_collection(api: Api, shared: Shared, clock: Clock):
    other = item(api, PRO, shared.trips, "Other")
    like(api, PRO, other)
    like(api, FREE, other)
    like(api, FREE, shared.note)
    ok(api.put(f"/v1/collections/{shared.trips}", json={"sort_by": "reactions", "sort_order": "desc"}))
    assert ids(api.get("/v1/items", params={"collection_id": shared.trips})) == [other, shared.note]


def test_likes_of_a_deleted_item_are_gone(api: Api, shared: Shared):
    mine = like(api, FREE, shared.note)
    ok(api.delete(f"/v1/items/{shared.note}"))
    assert_error(api.delete(f"/v1/reactions/{mine}", user=FREE), 404, "not_found")
