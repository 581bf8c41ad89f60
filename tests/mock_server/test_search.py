"""Search over HTTP (spec 4.9): collections, items and comments the caller may see, every word
of `q` required, `tags`, `type`, `owned`/`owner_id`, `ll`+`radius`, paging with X-Total-Count;
relevance is a decimal string (name x3), highest first, then newest."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tests.mock_server.conftest import FREE, LISBON, PORTO, PRO, STRANGER, Api, Clock
from tests.mock_server.world import assert_error, ok, total

RESULT_FIELDS = set(
    (
        "id name collection_id collection_name parent_id parent_name description link preview thumbnail "
        "size type mime latitude longitude created_at updated_at user_id user_name username user_email "
        "relevance is_url thumbnails collection_url url short_url"
    ).split()
)
ITEM_ONLY = ("parent_id", "parent_name", "link", "preview", "size", "mime", "latitude", "longitude")


@dataclass
class Corpus:
    trips: int  # user 1, private, collaborator user 2; description mentions Lisbon (1)
    guide: int  # link "Lisbon guide" at Lisbon, tags travel+food (name 3 + content 1 = 4)
    packing: int  # text "Packing list", content "Lisbon lisbon sunscreen" (2)
    bridge: int  # image "Porto bridge" at Porto, tag travel (0)
    stack: int  # stack "Day one"
    tram: int  # video "Tram in Lisbon", child of the stack (3)
    sunny: int  # comment by user 2 on packing: "Lisbon was sunny" (1)
    tips: int  # comment by user 1 on guide: "More Lisbon tips" (1)
    milk: int  # user 2's private item "Lisbon milk" (3)
    secret: int  # user 3's private item "Lisbon secret" (3)
    opened: int  # user 3's public collection "Open"
    public_item: int  # its item "Lisbon public" (3)
    world: int  # user 3's global collection "World", description "Lisbon everywhere" (1)
    world_item: int  # its item "Lisbon world" (3)
    gone: int  # user 1's deleted item "Lisbon gone"


@pytest.fixture
def corpus(api: Api, clock: Clock) -> Corpus:
    def make(user: int, path: str, body: dict[str, Any]) -> int:
        clock.advance()
        return ok(api.post(path, user=user, json=body), 201)["id"]

    def coll(user: int, name: str, kind: str, **body: Any) -> int:
        return make(user, "/v1/collections", {"name": name, "type": kind, **body})

    def thing(
        user: int, collection_id: int, name: str, content: str = "x", kind: str = "text", **body: Any
    ) -> int:
        return make(
            user,
            f"/v1/collections/{collection_id}/items",
            {"type": kind, "name": name, "content": content, **body},
        )

    trips = coll(PRO, "Trips", "private", description="Lisbon and Porto", users=[FREE])
    guide = thing(
        PRO,
        trips,
        "Lisbon guide",
        "https://example.com/lisbon",
        "link",
        latitude=LISBON[0],
        longitude=LISBON[1],
        tags=["travel", "food"],
    )
    packing = thing(PRO, trips, "Packing list", "Lisbon lisbon sunscreen")
    bridge = thing(
        FREE,
        trips,
        "Porto bridge",
        "https://example.com/porto.jpg",
        "image",
        latitude=PORTO[0],
        longitude=PORTO[1],
    )
    clock.advance()
    ok(api.post(f"/v1/items/{bridge}/tags", json={"name": "travel"}), 201)
    stack = thing(PRO, trips, "Day one", kind="stack")
    tram = thing(PRO, trips, "Tram in Lisbon", "https://example.com/tram.mp4", "video", parent_id=stack)
    sunny = make(FREE, f"/v1/items/{packing}/comments", {"body": "Lisbon was sunny"})
    tips = make(PRO, f"/v1/items/{guide}/comments", {"body": "More Lisbon tips"})
    milk = thing(FREE, coll(FREE, "Free notes", "private"), "Lisbon milk")
    secret = thing(STRANGER, coll(STRANGER, "Secret", "private"), "Lisbon secret")
    opened = coll(STRANGER, "Open", "public")
    public_item = thing(STRANGER, opened, "Lisbon public")
    world = coll(STRANGER, "World", "global", description="Lisbon everywhere")
    world_item = thing(STRANGER, world, "Lisbon world")
    gone = thing(PRO, trips, "Lisbon gone")
    make(PRO, f"/v1/items/{gone}/comments", {"body": "Lisbon comment on a doomed item"})
    ok(api.delete(f"/v1/items/{gone}"))
    return Corpus(
        trips,
        guide,
        packing,
        bridge,
        stack,
        tram,
        sunny,
        tips,
        milk,
        secret,
        opened,
        public_item,
        world,
        world_item,
        gone,
    )


def search(api: Api, user: int = PRO, **params: Any) -> list[tuple[str, int, str]]:
    """(type, id, relevance) of each result, in order; every result has the whole shape."""
    response = api.get("/v1/search", user=user, params=params)
    body = ok(response)
    for result in body:
        assert set(result) == RESULT_FIELDS
    assert total(response) >= len(body)
    return [(r["type"], r["id"], r["relevance"]) for r in body]


# ---------------------------------------------------------------------- what is found
def test_q_or_tags_is_required(api: Api, corpus: Corpus):
    assert_error(api.get("/v1/search"), 400, "invalid_input")
    assert_error(api.get("/v1/search", params={"type": "link"}), 400, "invalid_input")
    assert_error(api.get("/v1/search", params={"q": ""}), 400, "invalid_input")


def test_each_user_finds_exactly_what_they_may_see_by_relevance_then_newest(api: Api, corpus: Corpus):
    c = corpus
    assert search(api, PRO, q="lisbon") == [
        ("link", c.guide, "4"),
        ("text", c.world_item, "3"),
        ("video", c.tram, "3"),
        ("text", c.packing, "2"),
        ("collection", c.world, "1"),
        ("comment", c.tips, "1"),
        ("comment", c.sunny, "1"),
        ("collection", c.trips, "1"),
    ]
    assert search(api, FREE, q="Lisbon") == [
        ("link", c.guide, "4"),
        ("text", c.world_item, "3"),
        ("text", c.milk, "3"),
        ("video", c.tram, "3"),
        ("text", c.packing, "2"),
        ("collection", c.world, "1"),
        ("comment", c.tips, "1"),
        ("comment", c.sunny, "1"),
        ("collection", c.trips, "1"),
    ]
    assert search(api, STRANGER, q="LISBON") == [
        ("text", c.world_item, "3"),
        ("text", c.public_item, "3"),
        ("text", c.secret, "3"),
        ("collection", c.world, "1"),
    ]


def test_a_public_collection_of_another_user_is_readable_but_not_searched(api: Api, corpus: Corpus):
    assert ok(api.get(f"/v1/items/{corpus.public_item}"))[0]["name"] == "Lisbon public"
    assert search(api, q="public") == []
    assert search(api, STRANGER, q="public") == [("text", corpus.public_item, "3")]


def test_a_global_collection_becoming_private_leaves_the_search(api: Api, corpus: Corpus):
    ok(api.put(f"/v1/collections/{corpus.world}", user=STRANGER, json={"type": "private"}))
    assert search(api, q="world everywhere") == []
    assert search(api, STRANGER, q="everywhere") == [("collection", corpus.world, "1")]


def test_every_word_is_required_whole_and_without_case(api: Api, corpus: Corpus):
    assert search(api, q="lisbon sunscreen") == [("text", corpus.packing, "3")]
    assert search(api, q="SUNNY lisbon") == [("comment", corpus.sunny, "2")]
    assert search(api, q="lisbon nowhere") == []
    assert search(api, q="lisb") == []
    assert search(api, q="sunscreen sunscreen") == [("text", corpus.packing, "1")]  # a word counts once


def test_name_weighs_more_than_description_and_content(api: Api, clock: Clock):
    board = ok(api.post("/v1/collections", json={"name": "Board", "type": "private"}), 201)["id"]

    def thing(**body: Any) -> int:
        clock.advance()
        return ok(api.post(f"/v1/collections/{board}/items", json={"type": "text", **body}), 201)["id"]

    named = thing(name="Alpha", content="beta")
    described = thing(name="Beta", description="alpha alpha", content="gamma")
    contained = thing(name="Gamma", content="alpha")
    both = thing(name="alpha", description="Alpha", content="alpha, ALPHA")
    assert search(api, q="alpha") == [
        ("text", both, "6"),
        ("text", named, "3"),
        ("text", described, "2"),
        ("text", contained, "1"),
    ]


def test_an_edit_is_searched_at_once(api: Api, corpus: Corpus):
    ok(api.put(f"/v1/items/{corpus.bridge}", json={"name": "Ponte Lisbon"}))
    ok(api.put(f"/v1/comments/{corpus.sunny}", user=FREE, json={"body": "It rained"}))
    ok(api.put(f"/v1/collections/{corpus.trips}", json={"description": "Holidays"}))
    found = search(api, q="lisbon")
    assert ("image", corpus.bridge, "3") in found
    assert ("comment", corpus.sunny, "1") not in found and ("collection", corpus.trips, "1") not in found
    assert search(api, q="rained") == [("comment", corpus.sunny, "1")]
    assert search(api, q="porto bridge") == []


def test_deleted_things_never_appear(api: Api, corpus: Corpus):
    assert search(api, q="gone") == []
    assert search(api, q="doomed") == []
    ok(api.delete(f"/v1/comments/{corpus.tips}"))
    ok(api.delete(f"/v1/items/{corpus.packing}"))
    assert search(api, q="lisbon", type="comment") == []
    ok(api.delete(f"/v1/collections/{corpus.trips}"))
    assert search(api, q="lisbon") == [("text", corpus.world_item, "3"), ("collection", corpus.world, "1")]
    assert search(api, tags=["travel"]) == []


# ---------------------------------------------------------------------- filters
@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("collection", ["world", "trips"]),
        ("comment", ["tips", "sunny"]),
        ("link", ["guide"]),
        ("text", ["world_item", "packing"]),
        ("video", ["tram"]),
        ("image", []),
        ("stack", []),
    ],
)
def test_type_keeps_one_kind(api: Api, corpus: Corpus, kind, expected):
    assert [i for _, i, _ in search(api, q="lisbon", type=kind)] == [getattr(corpus, n) for n in expected]


def test_a_stack_is_found_by_name(api: Api, corpus: Corpus):
    assert search(api, q="day", type="stack") == [("stack", corpus.stack, "3")]


def test_owned_and_owner_id(api: Api, corpus: Corpus):
    c = corpus
    assert search(api, FREE, q="lisbon", owned="true") == [("text", c.milk, "3"), ("comment", c.sunny, "1")]
    assert search(api, PRO, q="lisbon", owner_id=STRANGER) == [
        ("text", c.world_item, "3"),
        ("collection", c.world, "1"),
    ]
    assert search(api, PRO, q="lisbon", owner_id=FREE) == [("comment", c.sunny, "1")]
    assert search(api, PRO, q="lisbon", owned="true", owner_id=PRO) == search(
        api, PRO, q="lisbon", owned="true"
    )
    response = api.get("/v1/search", params={"q": "lisbon", "owned": "true", "owner_id": FREE})
    assert (ok(response), total(response)) == ([], 0)


@pytest.mark.parametrize("query", ["tags=travel", "tags[]=travel", "tags=TRAVEL"])
def test_tags_alone_find_the_items_carrying_them(api: Api, corpus: Corpus, query):
    response = api.get(f"/v1/search?{query}")
    assert [(r["type"], r["id"], r["relevance"]) for r in ok(response)] == [
        ("image", corpus.bridge, "1"),
        ("link", corpus.guide, "1"),
    ]
    assert total(response) == 2


@pytest.mark.parametrize("query", ["tags=travel&tags=food", "tags[]=travel&tags[]=food", "tags=travel,food"])
def test_every_tag_is_required(api: Api, corpus: Corpus, query):
    assert [(r["id"], r["relevance"]) for r in ok(api.get(f"/v1/search?{query}"))] == [(corpus.guide, "2")]


def test_tags_with_q_add_one_per_tag_and_keep_only_items(api: Api, corpus: Corpus):
    assert search(api, q="lisbon", tags=["travel"]) == [("link", corpus.guide, "5")]
    assert search(api, q="porto", tags=["travel"]) == [("image", corpus.bridge, "5")]  # name, link, tag
    assert search(api, q="lisbon", tags=["nothing"]) == []
    assert search(api, STRANGER, tags=["travel"]) == []  # tags on items the caller cannot see


def test_ll_and_radius_keep_items_and_their_comments_within_the_radius(api: Api, corpus: Corpus):
    lisbon = f"{LISBON[0]},{LISBON[1]}"
    assert search(api, q="lisbon", ll=lisbon, radius=10_000) == [
        ("link", corpus.guide, "4"),
        ("comment", corpus.tips, "1"),
    ]
    assert search(api, tags=["travel"], ll=lisbon, radius=10_000) == [("link", corpus.guide, "1")]
    # Porto is about 274 km away
    assert search(api, tags=["travel"], ll=lisbon, radius=300_000) == [
        ("image", corpus.bridge, "1"),
        ("link", corpus.guide, "1"),
    ]
    assert search(api, q="lisbon", ll="0,0", radius=1000) == []


@pytest.mark.parametrize(
    "params",
    [
        {"ll": "38.7,-9.1"},
        {"radius": 100},
        {"ll": "95,0", "radius": 1},
        {"ll": "here", "radius": 1},
        {"ll": "38.7,-9.1", "radius": -1},
    ],
)
def test_ll_and_radius_go_together_and_must_be_valid(api: Api, corpus: Corpus, params):
    assert_error(api.get("/v1/search", params={"q": "lisbon", **params}), 400, "invalid_input")


@pytest.mark.parametrize(
    "params",
    [{"type": "item"}, {"owned": "maybe"}, {"page": 0}, {"per_page": 0}, {"owner_id": "x"}],
)
def test_bad_parameters_are_400(api: Api, corpus: Corpus, params):
    assert_error(api.get("/v1/search", params={"q": "lisbon", **params}), 400, "invalid_input")


# ---------------------------------------------------------------------- paging
def test_paging_with_x_total_count(api: Api, corpus: Corpus):
    everything = search(api, q="lisbon")
    pages = []
    for page in (1, 2, 3):
        response = api.get("/v1/search", params={"q": "lisbon", "per_page": 3, "page": page})
        assert total(response) == 8
        pages.append([(r["type"], r["id"], r["relevance"]) for r in ok(response)])
    assert [len(p) for p in pages] == [3, 3, 2]
    assert sum(pages, []) == everything
    past = api.get("/v1/search", params={"q": "lisbon", "per_page": 3, "page": 4})
    assert (ok(past), total(past)) == ([], 8)


def test_count_is_an_alias_of_per_page(api: Api, corpus: Corpus):
    response = api.get("/v1/search", params={"q": "lisbon", "count": 2})
    assert (len(ok(response)), total(response)) == (2, 8)
    assert [r["id"] for r in ok(response)] == [corpus.guide, corpus.world_item]
    response = api.get("/v1/search", params={"q": "lisbon", "count": 2, "per_page": 5})
    assert len(ok(response)) == 5  # per_page wins


# ---------------------------------------------------------------------- the result shape
def result(api: Api, user: int = PRO, **params: Any) -> dict[str, Any]:
    (found,) = ok(api.get("/v1/search", user=user, params=params))
    return found


def test_an_item_result(api: Api, corpus: Corpus, store):
    found = result(api, q="guide")
    assert (found["id"], found["type"], found["name"], found["relevance"]) == (
        corpus.guide,
        "link",
        "Lisbon guide",
        "3",
    )
    assert (found["collection_id"], found["collection_name"]) == (corpus.trips, "Trips")
    assert (found["parent_id"], found["parent_name"]) == (None, None)
    assert (found["link"], found["is_url"], found["mime"]) == (
        "https://example.com/lisbon",
        True,
        "text/uri-list",
    )
    assert found["size"] == len("https://example.com/lisbon")
    assert (found["latitude"], found["longitude"]) == LISBON
    assert (found["user_id"], found["username"], found["user_name"], found["user_email"]) == (
        PRO,
        "megan_chang",
        "Megan Chang",
        "megan_chang@example.org",
    )
    assert found["url"].endswith(f"/items/{corpus.guide}")
    assert found["collection_url"].endswith(f"/collections/{corpus.trips}")
    assert set(found["thumbnails"]) == {"mini", "small", "cropped", "uncropped", "large"}
    assert found["created_at"] == found["updated_at"] == "2026-11-21T12:00:02Z"


def test_a_stack_child_names_its_stack(api: Api, corpus: Corpus):
    found = result(api, q="tram")
    assert (found["parent_id"], found["parent_name"], found["type"]) == (corpus.stack, "Day one", "video")


def test_a_collection_result(api: Api, corpus: Corpus):
    found = result(api, FREE, q="porto", type="collection")
    assert (found["id"], found["type"], found["name"], found["description"]) == (
        corpus.trips,
        "collection",
        "Trips",
        "Lisbon and Porto",
    )
    assert (found["collection_id"], found["collection_name"], found["user_id"]) == (
        corpus.trips,
        "Trips",
        PRO,
    )
    assert {name: found[name] for name in ITEM_ONLY} == dict.fromkeys(ITEM_ONLY)
    assert found["is_url"] is False
    assert found["url"] == found["collection_url"]
    assert found["url"].endswith(f"/collections/{corpus.trips}")


def test_a_comment_result(api: Api, corpus: Corpus):
    found = result(api, q="sunny")
    assert (found["id"], found["type"], found["name"], found["relevance"]) == (
        corpus.sunny,
        "comment",
        "Lisbon was sunny",
        "1",
    )
    assert (found["user_id"], found["username"]) == (FREE, "rgreen")
    assert (found["collection_id"], found["collection_name"]) == (corpus.trips, "Trips")
    assert {name: found[name] for name in ITEM_ONLY} == dict.fromkeys(ITEM_ONLY)
    assert (found["description"], found["thumbnail"], found["is_url"]) == (None, None, False)
    assert found["url"].endswith(f"/items/{corpus.packing}")  # where the comment is read


def test_within_one_second_the_later_of_equal_relevance_lists_first(api: Api):
    board = ok(api.post("/v1/collections", json={"name": "Alpha", "type": "private"}), 201)["id"]
    body = {"type": "text", "name": "Alpha", "content": "x"}
    made = ok(api.post(f"/v1/collections/{board}/items", json=body), 201)["id"]
    said = ok(api.post(f"/v1/items/{made}/comments", json={"body": "alpha alpha alpha"}), 201)["id"]
    assert search(api, q="alpha") == [("comment", said, "3"), ("text", made, "3"), ("collection", board, "3")]
