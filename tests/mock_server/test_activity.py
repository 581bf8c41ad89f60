"""The activity feed over HTTP (spec 4.10): one entry per collection, item, comment or reaction
created in the collections the caller owns or collaborates on (directly or through a team),
newest first, paged with X-Total-Count; never anything the caller may not see."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mock_server.conftest import FREE, LISBON, PRO, STRANGER, TEAM, Api, Clock
from tests.mock_server.world import assert_error, ok, total

ENTRY_FIELDS = set(
    (
        "id name description thumbnail type latitude longitude created_at updated_at user_id user_name "
        "username user_email user_avatar thumbnails url short_url"
    ).split()
)


def feed(api: Api, user: int = PRO, **params: Any) -> list[tuple[str, int]]:
    """(type, id) of each entry, in order; every entry has the whole shape."""
    response = api.get("/v1/activity", user=user, params=params)
    body = ok(response)
    for entry in body:
        assert set(entry) == ENTRY_FIELDS
    assert total(response) >= len(body)
    return [(e["type"], e["id"]) for e in body]


class Maker:
    """Creates things over HTTP one second apart, so the feed's order is known."""

    def __init__(self, api: Api, clock: Clock):
        self.api, self.clock = api, clock

    def _post(self, user: int, path: str, body: dict[str, Any] | None = None) -> int:
        self.clock.advance()
        kwargs = {"json": body} if body is not None else {}
        return ok(self.api.post(path, user=user, **kwargs), 201)["id"]

    def collection(self, user: int, name: str, kind: str = "private", **body: Any) -> int:
        return self._post(user, "/v1/collections", {"name": name, "type": kind, **body})

    def item(self, user: int, collection_id: int, name: str, **body: Any) -> int:
        body = {"type": "text", "content": "x", "name": name, **body}
        return self._post(user, f"/v1/collections/{collection_id}/items", body)

    def comment(self, user: int, item_id: int, text: str) -> int:
        return self._post(user, f"/v1/items/{item_id}/comments", {"body": text})

    def like(self, user: int, item_id: int) -> int:
        return self._post(user, f"/v1/items/{item_id}/reactions")


@pytest.fixture
def make(api: Api, clock: Clock) -> Maker:
    return Maker(api, clock)


def test_an_empty_feed(api: Api):
    response = api.get("/v1/activity")
    assert (ok(response), total(response)) == ([], 0)


def test_each_kind_of_entry_newest_first(api: Api, make: Maker):
    trips = make.collection(PRO, "Trips", description="Where we went", users=[FREE])
    guide = make.item(
        FREE, trips, "Lisbon guide", description="tips", latitude=LISBON[0], longitude=LISBON[1]
    )
    said = make.comment(PRO, guide, "Nice @rgreen")
    liked = make.like(FREE, guide)
    assert feed(api) == [("reaction", liked), ("comment", said), ("item", guide), ("collection", trips)]
    reaction, comment, item, collection = ok(api.get("/v1/activity", user=FREE))
    assert (collection["name"], collection["description"], collection["user_id"]) == (
        "Trips",
        "Where we went",
        PRO,
    )
    assert (collection["latitude"], collection["longitude"]) == (None, None)
    assert collection["url"].endswith(f"/collections/{trips}")
    assert collection["created_at"] == "2026-11-21T12:00:01Z"
    assert (item["name"], item["description"], item["user_id"], item["username"]) == (
        "Lisbon guide",
        "tips",
        FREE,
        "rgreen",
    )
    assert (item["latitude"], item["longitude"]) == LISBON
    assert item["url"].endswith(f"/items/{guide}")
    assert (comment["name"], comment["description"], comment["user_id"]) == ("Nice @rgreen", None, PRO)
    assert (comment["latitude"], comment["longitude"]) == (None, None)
    assert comment["url"] == item["url"]  # where the comment is read
    assert (reaction["name"], reaction["user_id"], reaction["user_email"]) == (
        "Lisbon guide",
        FREE,
        "rgreen@example.org",
    )
    assert reaction["url"] == item["url"]
    assert reaction["created_at"] == reaction["updated_at"] == "2026-11-21T12:00:04Z"
    assert set(reaction["thumbnails"]) == {"mini", "small", "cropped", "uncropped", "large"}


def test_the_feed_covers_only_collections_the_caller_owns_or_shares(api: Api, make: Maker):
    mine = make.collection(PRO, "Mine")
    secret = make.collection(STRANGER, "Secret")
    note = make.item(STRANGER, secret, "hidden")
    theirs = make.collection(FREE, "Theirs")
    assert feed(api, PRO) == [("collection", mine)]
    assert feed(api, FREE) == [("collection", theirs)]
    assert feed(api, STRANGER) == [("item", note), ("collection", secret)]


def test_public_and_global_collections_of_others_stay_out_of_the_feed(api: Api, make: Maker):
    public = make.collection(PRO, "Recipes", "public")
    world = make.collection(PRO, "World", "global")
    cod = make.item(PRO, public, "Cod")
    make.item(PRO, world, "Map")
    make.comment(STRANGER, cod, "yum")  # a reader may comment
    make.like(STRANGER, cod)
    assert feed(api, STRANGER) == []
    assert len(feed(api, PRO)) == 6


def test_a_collaborator_sees_a_shared_collection_until_leaving(api: Api, make: Maker):
    trips = make.collection(PRO, "Trips")
    note = make.item(PRO, trips, "Note")
    assert feed(api, STRANGER) == []
    ok(api.post(f"/v1/collections/{trips}/users", json={"id": STRANGER}), 201)
    assert feed(api, STRANGER) == [("item", note), ("collection", trips)]  # what came before, too
    said = make.comment(STRANGER, note, "thanks")
    assert feed(api, PRO) == [("comment", said), ("item", note), ("collection", trips)]
    ok(api.delete(f"/v1/collections/{trips}/users/{STRANGER}", user=STRANGER))
    assert feed(api, STRANGER) == []


def test_team_members_see_the_teams_collections_and_lose_them_on_leaving(api: Api, make: Maker):
    board = make.collection(PRO, "Board", user_id=TEAM)
    plan = make.item(FREE, board, "Plan")
    shared = make.collection(STRANGER, "For the team", users=[TEAM])
    assert feed(api, FREE) == [("collection", shared), ("item", plan), ("collection", board)]
    assert feed(api, PRO) == feed(api, FREE)
    assert feed(api, STRANGER) == [("collection", shared)]
    ok(api.delete(f"/v1/teams/{TEAM}/users/{FREE}"))
    assert feed(api, FREE) == []
    entry = ok(api.get("/v1/activity"))[2]
    assert (entry["name"], entry["user_id"], entry["username"]) == ("Board", TEAM, "faulkner-howard")


def test_deleted_things_leave_the_feed(api: Api, make: Maker):
    trips = make.collection(PRO, "Trips", users=[FREE])
    kept = make.item(PRO, trips, "Kept")
    doomed = make.item(PRO, trips, "Doomed")
    make.comment(FREE, doomed, "on the doomed item")
    make.like(FREE, doomed)
    said = make.comment(FREE, kept, "gone soon")
    liked = make.like(FREE, kept)
    ok(api.delete(f"/v1/items/{doomed}"))
    assert feed(api) == [("reaction", liked), ("comment", said), ("item", kept), ("collection", trips)]
    ok(api.delete(f"/v1/comments/{said}", user=FREE))
    ok(api.delete(f"/v1/reactions/{liked}", user=FREE))
    assert feed(api, FREE) == [("item", kept), ("collection", trips)]
    ok(api.delete(f"/v1/collections/{trips}"))
    assert feed(api) == feed(api, FREE) == []


def test_paging_with_x_total_count_and_count(api: Api, make: Maker):
    board = make.collection(PRO, "Board")
    made = [make.item(PRO, board, f"Item {n}") for n in range(5)]
    everything = feed(api)
    assert everything == [("item", i) for i in reversed(made)] + [("collection", board)]
    response = api.get("/v1/activity", params={"per_page": 4, "page": 2})
    assert ([(e["type"], e["id"]) for e in ok(response)], total(response)) == (everything[4:], 6)
    response = api.get("/v1/activity", params={"count": 2})
    assert ([(e["type"], e["id"]) for e in ok(response)], total(response)) == (everything[:2], 6)
    response = api.get("/v1/activity", params={"page": 3, "per_page": 4})
    assert (ok(response), total(response)) == ([], 6)


def test_per_page_is_clamped_to_100(api: Api, store, clock: Clock):
    board = store.create_collection(store.accounts[PRO], {"name": "Big", "type": "private"})
    for n in range(105):
        store.create_item(store.accounts[PRO], board.id, {"type": "text", "content": "x", "name": f"{n}"})
    response = api.get("/v1/activity", params={"per_page": 500})
    assert (len(ok(response)), total(response)) == (100, 106)
    assert (len(ok(api.get("/v1/activity"))), total(api.get("/v1/activity"))) == (24, 106)


@pytest.mark.parametrize("params", [{"page": 0}, {"per_page": 0}, {"count": 0}, {"page": "x"}])
def test_bad_paging_is_400(api: Api, params):
    assert_error(api.get("/v1/activity", params=params), 400, "invalid_input")


def test_within_one_second_what_is_made_later_lists_first(api: Api):
    # the clock stands still: a client making a collection, an item, a comment and a like within
    # one second (timestamps have whole seconds) still reads them newest first
    board = ok(api.post("/v1/collections", json={"name": "Board", "type": "private"}), 201)["id"]
    first = ok(api.post(f"/v1/collections/{board}/items", json={"type": "text", "content": "a"}), 201)["id"]
    second = ok(api.post(f"/v1/collections/{board}/items", json={"type": "text", "content": "b"}), 201)["id"]
    said = ok(api.post(f"/v1/items/{first}/comments", json={"body": "hi"}), 201)["id"]
    liked = ok(api.post(f"/v1/items/{first}/reactions"), 201)["id"]
    assert feed(api) == [
        ("reaction", liked),
        ("comment", said),
        ("item", second),
        ("item", first),
        ("collection", board),
    ]
