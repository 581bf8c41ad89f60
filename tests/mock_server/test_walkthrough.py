"""An end-to-end walk over HTTP, as three client apps would make it (issue 4): user 1 shares a
collection with team 4, member 2 comments on an item with a mention and notify, user 1 likes
it; then the activity feed and the search of each of users 1, 2 and 3 show exactly what each
may see, and nothing more once member 2 leaves the team."""

from __future__ import annotations

from typing import Any

from tests.mock_server.conftest import FREE, LISBON, PRO, STRANGER, TEAM, Api, Clock
from tests.mock_server.world import assert_error, notifications, ok, total


def feed(api: Api, user: int) -> list[tuple[str, int, str]]:
    response = api.get("/v1/activity", user=user)
    body = ok(response)
    assert total(response) == len(body)
    return [(e["type"], e["id"], e["name"]) for e in body]


def search(api: Api, user: int, **params: Any) -> list[tuple[str, int, str]]:
    response = api.get("/v1/search", user=user, params=params)
    body = ok(response)
    assert total(response) == len(body)
    return [(r["type"], r["id"], r["relevance"]) for r in body]


def test_share_with_a_team_comment_with_mention_and_notify_like_then_each_user_sees_their_share(
    api: Api, clock: Clock
):
    def post(user: int, path: str, body: dict[str, Any] | None = None, status: int = 201) -> dict[str, Any]:
        clock.advance()
        return ok(api.post(path, user=user, **({"json": body} if body is not None else {})), status)

    # user 1: a private collection kept to themself, and one to share
    private = post(PRO, "/v1/collections", {"name": "Diary", "type": "private"})["id"]
    diary = post(
        PRO,
        f"/v1/collections/{private}/items",
        {"type": "text", "name": "Dear diary", "content": "Tram rides all day"},
    )["id"]
    trip = post(PRO, "/v1/collections", {"name": "Lisbon trip", "type": "private"})["id"]
    tram = post(
        PRO,
        f"/v1/collections/{trip}/items",
        {
            "type": "link",
            "name": "Tram 28",
            "content": "https://example.com/tram",
            "latitude": LISBON[0],
            "longitude": LISBON[1],
        },
    )["id"]
    # user 3, on their own: a private note and a global collection everyone may find
    notes = post(STRANGER, "/v1/collections", {"name": "Notes", "type": "private"})["id"]
    ticket = post(
        STRANGER,
        f"/v1/collections/{notes}/items",
        {"type": "text", "name": "Tram ticket", "content": "keep it"},
    )["id"]
    world = post(STRANGER, "/v1/collections", {"name": "Transport", "type": "global"})["id"]
    postcard = post(
        STRANGER,
        f"/v1/collections/{world}/items",
        {"type": "text", "name": "Old tram postcard", "content": "1930s"},
    )["id"]

    # before sharing, member 2 sees none of user 1's trip
    assert_error(api.get(f"/v1/items/{tram}", user=FREE), 404, "not_found")

    # 1. user 1 shares the trip with the team, by the team's username
    added = post(PRO, f"/v1/collections/{trip}/users", {"username": "faulkner-howard"})
    assert (added["id"], added["kind"], added["is_subscribed"]) == (TEAM, "team", True)
    shared = ok(api.get(f"/v1/collections/{trip}", user=FREE))[0]
    assert shared["permissions"] == {
        "admin": False,
        "edit": True,
        "share": True,
        "leave": True,
        "delete": False,
    }
    assert shared["users_total_count"] == 2

    # 2. member 2 comments with a mention and notify: the owner is notified, once, not the author
    said = post(
        FREE, f"/v1/items/{tram}/comments", {"body": "@megan_chang tram 28 at night?", "notify": True}
    )
    assert said["body"] == "@megan_chang tram 28 at night?"
    assert [
        (n["user_id"], n["comment_id"], n["item_id"], n["collection_id"]) for n in notifications(api)
    ] == [(PRO, said["id"], tram, trip)]

    # 3. user 1 likes the item
    liked = post(PRO, f"/v1/items/{tram}/reactions")
    assert_error(api.post(f"/v1/items/{tram}/reactions"), 409, "conflict")
    for user in (PRO, FREE):
        item = ok(api.get(f"/v1/items/{tram}", user=user))[0]
        assert [c["id"] for c in item["comments"]] == [said["id"]]
        assert ([r["id"] for r in item["reactions"]], item["reactions_total_count"]) == ([liked["id"]], 1)
    for path in (f"/v1/items/{tram}", f"/v1/items/{tram}/comments", f"/v1/items/{tram}/reactions"):
        assert_error(api.get(path, user=STRANGER), 404, "not_found")

    # 4. each user's feed: newest first, only their collections
    trip_feed = [
        ("reaction", liked["id"], "Tram 28"),
        ("comment", said["id"], "@megan_chang tram 28 at night?"),
        ("item", tram, "Tram 28"),
        ("collection", trip, "Lisbon trip"),
    ]
    assert feed(api, PRO) == [*trip_feed, ("item", diary, "Dear diary"), ("collection", private, "Diary")]
    assert feed(api, FREE) == trip_feed
    assert feed(api, STRANGER) == [
        ("item", postcard, "Old tram postcard"),
        ("collection", world, "Transport"),
        ("item", ticket, "Tram ticket"),
        ("collection", notes, "Notes"),
    ]

    # 5. each user's search for "tram": relevance first (name x3), then newest
    assert search(api, PRO, q="tram") == [
        ("link", tram, "4"),  # name + link
        ("text", postcard, "3"),  # a global collection of user 3
        ("comment", said["id"], "1"),
        ("text", diary, "1"),
    ]
    assert search(api, FREE, q="tram") == [
        ("link", tram, "4"),
        ("text", postcard, "3"),
        ("comment", said["id"], "1"),
    ]
    assert search(api, STRANGER, q="tram") == [("text", postcard, "3"), ("text", ticket, "3")]
    assert search(api, FREE, q="tram", type="comment") == [("comment", said["id"], "1")]
    assert search(api, FREE, q="tram", owned="true") == [("comment", said["id"], "1")]
    near = {"q": "tram", "ll": f"{LISBON[0]},{LISBON[1]}", "radius": 1000}
    assert search(api, FREE, **near) == [("link", tram, "4"), ("comment", said["id"], "1")]
    assert search(api, STRANGER, **near) == []

    # contacts follow the sharing
    assert [c["id"] for c in ok(api.get("/v1/users/contacts", user=FREE))] == [PRO]
    assert ok(api.get("/v1/users/contacts", user=STRANGER)) == []

    # 6. member 2 leaves the team: the trip, its feed and its search results are gone for them
    ok(api.delete(f"/v1/teams/{TEAM}/users/{FREE}"))
    assert feed(api, FREE) == []
    assert search(api, FREE, q="tram") == [("text", postcard, "3")]
    assert_error(api.get(f"/v1/items/{tram}", user=FREE), 404, "not_found")
    assert_error(api.put(f"/v1/comments/{said['id']}", user=FREE, json={"body": "edit"}), 404, "not_found")
    assert feed(api, PRO)[:2] == trip_feed[:2]  # user 1 keeps the comment and the like
