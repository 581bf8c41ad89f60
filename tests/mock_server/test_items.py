"""Items over HTTP (spec 4.2 and the item operations of 4.1): every filter of List items,
creation of each type, prevent_duplicate, includes of Get an item, update, move, soft
delete of items and stacks, copy with tags and metadata but not comments."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mock_server.conftest import FREE, LISBON, PRO, STRANGER, Api, Clock, World
from tests.mock_server.test_app import assert_error
from tests.mock_server.test_collections import get_one, ids

ALL_VISIBLE_TO_PRO = "team_link recipe file audio video stack image note link".split()  # newest first


def names(world: World, *fields: str) -> list[int]:
    return [getattr(world, f) for f in fields]


def resolved(world: World, value: Any) -> Any:
    """ "@name" is the id of that world record, also inside lists."""
    if isinstance(value, list):
        return [resolved(world, v) for v in value]
    if isinstance(value, str) and value.startswith("@"):
        return getattr(world, value[1:])
    return value


# ---------------------------------------------------------------------- list and its filters
def test_list_without_filters_is_every_visible_item_newest_first(api: Api, world: World):
    response = api.get("/v1/items")
    assert ids(response) == names(world, *ALL_VISIBLE_TO_PRO)
    assert response.headers["X-Total-Count"] == "9"
    assert ids(api.get("/v1/items", user=STRANGER)) == []


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({"collection_id": "@trips"}, ["link", "note", "image", "stack", "video", "audio", "file"]),
        ({"collection_id": "@recipes"}, ["recipe"]),
        ({"owned": "true"}, [f for f in ALL_VISIBLE_TO_PRO if f != "image"]),
        ({"owner_id": FREE}, ["image"]),
        ({"owned": "true", "owner_id": FREE}, []),
        ({"parent_id": "@stack"}, ["video", "audio"]),
        ({"q": "porto"}, ["image"]),
        ({"q": "SUNSCREEN"}, ["note"]),  # content
        ({"q": "lisbon guide"}, ["link"]),  # every term
        ({"q": "lisbon milk"}, []),
        ({"tags": "travel"}, ["image", "link"]),
        ({"tags": ["travel", "food"]}, ["link"]),
        ({"tags": "FOOD"}, ["recipe", "link"]),
        ({"type": "video"}, ["video"]),
        ({"type": "stack"}, ["stack"]),
        ({"not_type": "link"}, ["recipe", "file", "audio", "video", "stack", "image", "note"]),
        ({"collection_id": "@trips", "type": "image"}, ["image"]),
        ({"collection_id": "@trips", "not_type": "stack", "parent_id": "@stack"}, ["video", "audio"]),
    ],
)
def test_list_filters(api: Api, world: World, params, expected):
    params = {name: resolved(world, value) for name, value in params.items()}
    assert ids(api.get("/v1/items", params=params)) == names(world, *expected)


def test_list_within_a_radius_in_meters(api: Api, world: World):
    ll = f"{LISBON[0]},{LISBON[1]}"
    assert ids(api.get("/v1/items", params={"ll": ll, "radius": 1000})) == [world.link]
    assert ids(api.get("/v1/items", params={"ll": ll, "radius": 274_000})) == [world.link]  # Porto: 274.3 km
    assert ids(api.get("/v1/items", params={"ll": ll, "radius": 275_000})) == [world.image, world.link]
    assert ids(api.get("/v1/items", params={"ll": "38.7313,-9.1393", "radius": 1000})) == []  # 1000.8 m away
    assert ids(api.get("/v1/items", params={"ll": "0,0", "radius": 0})) == []


@pytest.mark.parametrize(
    "params",
    [
        {"ll": "38.7,-9.1"},
        {"radius": 100},
        {"ll": "north", "radius": 100},
        {"ll": "91,0", "radius": 100},
        {"ll": "0,0", "radius": -1},
        {"type": "picture"},
        {"per_page": 0},
        {"page": 0},
    ],
)
def test_list_rejects_bad_filters(api: Api, world: World, params):
    assert_error(api.get("/v1/items", params=params), 400, "invalid_input")


def test_list_of_a_collection_the_caller_cannot_see_is_404(api: Api, world: World):
    assert_error(api.get("/v1/items", params={"collection_id": world.free_notes}), 404, "not_found")
    assert_error(api.get("/v1/items", params={"collection_id": 999}), 404, "not_found")


def test_list_pages(api: Api, world: World):
    everything = names(world, *ALL_VISIBLE_TO_PRO)
    page = api.get("/v1/items", params={"per_page": 4, "page": 2})
    assert ids(page) == everything[4:8]
    assert page.headers["X-Total-Count"] == "9"
    assert ids(api.get("/v1/items", params={"per_page": 4, "page": 3})) == everything[8:]
    past = api.get("/v1/items", params={"per_page": 4, "page": 4})
    assert past.json() == [] and past.headers["X-Total-Count"] == "9"
    assert ids(api.get("/v1/items", params={"count": 2})) == everything[:2]
    assert ids(api.get("/v1/items", params={"count": 2, "per_page": 3})) == everything[:3]
    filtered = api.get("/v1/items", params={"tags": "travel", "per_page": 1})
    assert ids(filtered) == [world.image] and filtered.headers["X-Total-Count"] == "2"


def test_list_clamps_per_page_to_100(api: Api, store, world: World):
    pro = store.accounts[PRO]
    for n in range(110):
        store.create_item(pro, world.recipes, {"type": "text", "content": f"n{n}"})
    response = api.get("/v1/items", params={"collection_id": world.recipes, "per_page": 500})
    assert len(response.json()) == 100
    assert response.headers["X-Total-Count"] == "111"
    assert len(api.get("/v1/items", params={"collection_id": world.recipes}).json()) == 24


# ---------------------------------------------------------------------- create
@pytest.mark.parametrize(
    ("kind", "content", "mime", "is_url"),
    [
        ("image", "https://example.com/photo.png", "image/png", True),
        ("video", "https://example.com/clip.mp4", "video/mp4", True),
        ("audio", "https://example.com/song.mp3", "audio/mpeg", True),
        ("link", "https://example.com/article", "text/uri-list", True),
        ("text", "Remember the milk", "text/plain", False),
        ("other", "https://example.com/report.pdf", "application/pdf", True),
    ],
)
def test_create_an_item_of_each_type(api: Api, world: World, kind, content, mime, is_url):
    response = api.post(
        f"/v1/collections/{world.trips}/items", json={"type": kind, "content": content, "name": "N"}
    )
    assert response.status_code == 201, response.text
    item = response.json()
    assert (item["type"], item["content"], item["mime"], item["is_url"]) == (kind, content, mime, is_url)
    assert item["link"] == (content if kind == "link" else "")
    assert item["size"] == len(content.encode())
    assert (item["collection_id"], item["user_id"], item["parent_id"]) == (world.trips, PRO, None)
    assert item["sort"] == 8  # after the seven of the collection
    assert item["deleted_at"] is None
    assert (item["tags"], item["metadata"], item["comments"], item["reactions"]) == ([], [], [], [])
    assert item["reactions_total_count"] == 0
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 8


def test_create_a_stack_with_its_children(api: Api, world: World):
    body = {"type": "stack", "name": "Day two", "items": [world.note, world.file]}
    response = api.post(f"/v1/collections/{world.trips}/items", json=body)
    assert response.status_code == 201, response.text
    stack = response.json()
    assert (stack["type"], stack["content"], stack["link"]) == ("stack", "", "")
    assert ids(api.get("/v1/items", params={"parent_id": stack["id"]})) == [world.note, world.file]


def test_create_an_item_into_a_stack(api: Api, world: World):
    body = {"type": "text", "content": "x", "parent_id": world.stack}
    response = api.post(f"/v1/collections/{world.trips}/items", json=body)
    assert response.status_code == 201
    assert response.json()["parent_id"] == world.stack


@pytest.mark.parametrize(
    "body",
    [
        {"type": "text"},  # content is required unless stack
        {"content": "x"},
        {"type": "poem", "content": "x"},
        {"type": "text", "content": "x", "parent_id": "@link"},  # not a stack
        {"type": "text", "content": "x", "parent_id": "@recipe"},  # another collection's
        {"type": "stack", "parent_id": "@stack"},  # no stack in a stack
        {"type": "text", "content": "x", "items": ["@note"]},  # children only for a stack
        {"type": "stack", "items": ["@stack"]},
        {"type": "text", "content": "x", "latitude": 91},
        {"type": "text", "content": "x", "tags": [""]},
        {"type": "text", "content": "x", "shareable": "yes"},
    ],
)
def test_create_rejects_bad_bodies(api: Api, world: World, store, body):
    body = {name: resolved(world, value) for name, value in body.items()}
    before = len(store.items)
    assert_error(api.post(f"/v1/collections/{world.trips}/items", json=body), 400, "invalid_input")
    assert len(store.items) == before


def test_create_needs_the_edit_permission(api: Api, world: World):
    body = {"type": "text", "content": "x"}
    assert api.post(f"/v1/collections/{world.trips}/items", user=FREE, json=body).status_code == 201
    assert api.post(f"/v1/collections/{world.team_board}/items", user=FREE, json=body).status_code == 201
    assert_error(api.post(f"/v1/collections/{world.recipes}/items", user=FREE, json=body), 403, "forbidden")
    assert_error(api.post(f"/v1/collections/{world.trips}/items", user=STRANGER, json=body), 404, "not_found")
    assert_error(api.post("/v1/collections/999/items", json=body), 404, "not_found")


def test_tags_on_an_item_are_paid(api: Api, world: World):
    body = {"type": "text", "content": "x", "tags": ["mine"]}
    assert_error(
        api.post(f"/v1/collections/{world.trips}/items", user=FREE, json=body), 402, "paid_plan_required"
    )
    assert_error(
        api.put(f"/v1/items/{world.note}", user=FREE, json={"tags": ["mine"]}), 402, "paid_plan_required"
    )
    created = api.post(f"/v1/collections/{world.trips}/items", json=body)
    assert [t["name"] for t in created.json()["tags"]] == ["mine"]


def test_a_blank_tag_name_changes_nothing(api: Api, world: World, store):
    before = store.snapshot()
    body = {"type": "text", "content": "x", "tags": ["fine", "  "]}
    assert_error(api.post(f"/v1/collections/{world.trips}/items", json=body), 400, "invalid_input")
    assert_error(
        api.put(f"/v1/items/{world.note}", json={"name": "Renamed", "tags": ["  "]}), 400, "invalid_input"
    )
    body = {"items": [world.note], "collection_id": world.recipes, "tags": ["fine", " "]}
    assert_error(api.put(f"/v1/collections/{world.trips}/items", json=body), 400, "invalid_input")
    assert store.snapshot() == before


def test_prevent_duplicate_answers_the_existing_link_item(api: Api, world: World, store):
    path = f"/v1/collections/{world.trips}/items"
    body = {"type": "link", "content": "https://example.com/lisbon", "prevent_duplicate": True}
    response = api.post(path, json=body)
    assert response.status_code == 200, response.text
    assert response.json()["id"] == world.link
    assert response.json()["name"] == "Lisbon guide"
    same_link = {
        "type": "link",
        "content": "https://example.com/elsewhere",
        "link": "https://example.com/lisbon",
        "prevent_duplicate": True,
    }
    assert api.post(path, json=same_link).json()["id"] == world.link
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 7
    other = api.post(path, json={**body, "content": "https://example.com/porto"})
    assert other.status_code == 201
    again = api.post(path, json={"type": "link", "content": "https://example.com/lisbon"})
    assert again.status_code == 201  # without prevent_duplicate a copy is made
    elsewhere = api.post(f"/v1/collections/{world.recipes}/items", json=body)
    assert elsewhere.status_code == 201  # only the same collection counts


def test_prevent_duplicate_ignores_deleted_items(api: Api, world: World):
    api.delete(f"/v1/items/{world.link}")
    body = {"type": "link", "content": "https://example.com/lisbon", "prevent_duplicate": True}
    response = api.post(f"/v1/collections/{world.trips}/items", json=body)
    assert response.status_code == 201
    assert response.json()["id"] != world.link


# ---------------------------------------------------------------------- get and includes
def test_get_an_item(api: Api, world: World, store):
    item = get_one(api, f"/v1/items/{world.link}")
    assert (item["id"], item["name"], item["type"]) == (world.link, "Lisbon guide", "link")
    assert (item["latitude"], item["longitude"]) == LISBON
    assert sorted(t["name"] for t in item["tags"]) == ["food", "travel"]
    assert item["user_name"] == store.accounts[PRO].name
    assert item["created_at"] == "2026-11-21T12:00:05Z"
    assert "parent" not in item and "items" not in item


def test_get_with_include_parent_and_siblings(api: Api, world: World):
    child = get_one(api, f"/v1/items/{world.video}", params={"include": ["parent", "siblings"]})
    assert child["parent"]["id"] == world.stack
    assert [i["id"] for i in child["siblings"]] == [world.audio]
    top = get_one(api, f"/v1/items/{world.note}", params={"include": "parent,siblings"})
    assert "parent" not in top  # a top-level item has none
    assert [i["id"] for i in top["siblings"]] == [world.link, world.image, world.stack, world.file]


def test_get_with_include_stack_items_and_items(api: Api, world: World):
    path = f"/v1/items/{world.stack}"
    assert [i["id"] for i in get_one(api, path, params={"include": "stack_items"})["stack_items"]] == [
        world.video,
        world.audio,
    ]

    def embedded(**params: Any) -> list[int]:
        return [i["id"] for i in get_one(api, path, params={"include": "items", **params})["items"]]

    assert embedded() == [world.video, world.audio]
    assert embedded(items_per_page=1) == [world.video]
    assert embedded(items_per_page=1, items_page=2) == [world.audio]
    assert embedded(items_per_page=1, items_page=3) == []
    assert embedded(items_type="audio") == [world.audio]
    assert embedded(items_not_type="audio") == [world.video]
    plain = get_one(api, f"/v1/items/{world.note}", params={"include": ["items", "stack_items"]})
    assert plain["items"] == [] and plain["stack_items"] == []


def test_get_rejects_an_unknown_include(api: Api, world: World):
    assert_error(api.get(f"/v1/items/{world.note}", params={"include": "friends"}), 400, "invalid_input")


def test_a_shareable_item_in_a_private_collection_is_readable_by_anyone(api: Api, world: World):
    assert_error(api.get(f"/v1/items/{world.note}", user=STRANGER), 404, "not_found")
    assert api.put(f"/v1/items/{world.note}", json={"shareable": True}).json()["shareable"] is True
    assert get_one(api, f"/v1/items/{world.note}", user=STRANGER)["content"] == "Pack the sunscreen"
    assert api.get(f"/v1/items/{world.note}/tags", user=STRANGER).status_code == 200
    assert_error(api.put(f"/v1/items/{world.note}", user=STRANGER, json={"name": "x"}), 403, "forbidden")
    assert_error(api.delete(f"/v1/items/{world.note}", user=STRANGER), 403, "forbidden")
    assert_error(api.get(f"/v1/collections/{world.trips}", user=STRANGER), 404, "not_found")
    assert world.note not in ids(api.get("/v1/items", user=STRANGER))


# ---------------------------------------------------------------------- update
def test_update_changes_what_was_sent(api: Api, world: World, clock: Clock):
    clock.advance(60)
    body = {
        "name": "Packing",
        "description": "for two",
        "content": "Hats",
        "latitude": 10.5,
        "longitude": -20,
        "metadata": {"season": "summer"},
        "tags": ["trip"],
    }
    response = api.put(f"/v1/items/{world.note}", json=body)
    assert response.status_code == 200, response.text
    item = response.json()
    assert (item["name"], item["description"], item["content"]) == ("Packing", "for two", "Hats")
    assert (item["latitude"], item["longitude"], item["size"]) == (10.5, -20, 4)
    assert item["metadata"] == [{"key": "season", "value": "summer"}]
    assert [t["name"] for t in item["tags"]] == ["trip"]
    assert item["updated_at"] == "2026-11-21T12:01:14Z"
    assert item["created_at"] == "2026-11-21T12:00:06Z"
    again = api.put(f"/v1/items/{world.note}", json={"tags": [], "metadata": {}, "latitude": None})
    assert (again.json()["tags"], again.json()["metadata"], again.json()["latitude"]) == ([], [], None)


def test_update_moves_an_item_into_and_out_of_a_stack(api: Api, world: World):
    assert (
        api.put(f"/v1/items/{world.note}", json={"parent_id": world.stack}).json()["parent_id"] == world.stack
    )
    assert ids(api.get("/v1/items", params={"parent_id": world.stack})) == [
        world.note,
        world.video,
        world.audio,
    ]
    assert api.put(f"/v1/items/{world.note}", json={"parent_id": None}).json()["parent_id"] is None
    assert ids(api.get("/v1/items", params={"parent_id": world.stack})) == [world.video, world.audio]


def test_update_rejects_what_breaks_stacks(api: Api, world: World):
    assert_error(
        api.put(f"/v1/items/{world.stack}", json={"type": "text", "content": "x"}), 400, "invalid_input"
    )
    assert_error(api.put(f"/v1/items/{world.note}", json={"parent_id": world.link}), 400, "invalid_input")
    assert_error(api.put(f"/v1/items/{world.stack}", json={"parent_id": world.stack}), 400, "invalid_input")
    assert_error(api.put(f"/v1/items/{world.note}", json={"items": [world.file]}), 400, "invalid_input")
    assert_error(api.put(f"/v1/items/{world.video}", json={"type": "stack"}), 400, "invalid_input")
    assert get_one(api, f"/v1/items/{world.stack}")["type"] == "stack"
    assert get_one(api, f"/v1/items/{world.video}")["type"] == "video"


def test_update_permissions(api: Api, world: World):
    assert (
        api.put(f"/v1/items/{world.note}", user=FREE, json={"name": "by a collaborator"}).status_code == 200
    )
    assert_error(api.put(f"/v1/items/{world.recipe}", user=FREE, json={"name": "x"}), 403, "forbidden")
    assert_error(api.put(f"/v1/items/{world.free_note}", json={"name": "x"}), 404, "not_found")
    assert_error(api.put("/v1/items/999", json={"name": "x"}), 404, "not_found")


# ---------------------------------------------------------------------- PUT /v1/items (move)
def test_update_multiple_items_moves_them(api: Api, world: World):
    body = {"items": [world.note, world.stack], "collection_id": world.recipes}
    response = api.put("/v1/items", json=body)
    assert response.status_code == 200, response.text
    assert [(i["id"], i["collection_id"]) for i in response.json()] == [
        (world.note, world.recipes),
        (world.stack, world.recipes),
    ]
    assert ids(api.get("/v1/items", params={"collection_id": world.recipes})) == [
        world.recipe,
        world.note,
        world.stack,
        world.video,
        world.audio,
    ]
    assert get_one(api, f"/v1/items/{world.video}")["parent_id"] == world.stack
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 3


def test_moving_a_child_alone_takes_it_out_of_its_stack(api: Api, world: World):
    api.put("/v1/items", json={"items": [world.video], "collection_id": world.recipes})
    moved = get_one(api, f"/v1/items/{world.video}")
    assert (moved["collection_id"], moved["parent_id"]) == (world.recipes, None)


def test_update_multiple_items_needs_edit_on_both_sides(api: Api, world: World):
    response = api.put(
        "/v1/items", user=FREE, json={"items": [world.note], "collection_id": world.free_notes}
    )
    assert response.status_code == 200  # collaborator of trips, owner of free notes
    response = api.put(
        "/v1/items", user=FREE, json={"items": [world.recipe], "collection_id": world.free_notes}
    )
    assert_error(response, 403, "forbidden")
    response = api.put("/v1/items", user=FREE, json={"items": [world.image], "collection_id": world.recipes})
    assert_error(response, 403, "forbidden")
    assert get_one(api, f"/v1/items/{world.image}")["collection_id"] == world.trips
    assert_error(api.put("/v1/items", json={"items": [999], "collection_id": world.trips}), 404, "not_found")
    assert_error(api.put("/v1/items", json={"items": []}), 400, "invalid_input")


# ---------------------------------------------------------------------- delete
def test_delete_is_soft_and_the_item_disappears(api: Api, world: World, store, clock: Clock):
    clock.advance(60)
    response = api.delete(f"/v1/items/{world.note}")
    assert response.status_code == 200
    assert response.json()["code"] == "deleted"
    assert store.items[world.note].deleted_at is not None  # kept, marked
    assert_error(api.get(f"/v1/items/{world.note}"), 404, "not_found")
    assert world.note not in ids(api.get("/v1/items"))
    assert world.note not in ids(api.get("/v1/items", params={"collection_id": world.trips}))
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 6
    assert_error(api.delete(f"/v1/items/{world.note}"), 404, "not_found")
    assert_error(api.put(f"/v1/items/{world.note}", json={"name": "x"}), 404, "not_found")


def test_deleting_a_stack_moves_its_children_to_top_level(api: Api, world: World):
    assert api.delete(f"/v1/items/{world.stack}").status_code == 200
    for child in (world.video, world.audio):
        assert get_one(api, f"/v1/items/{child}")["parent_id"] is None
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 6


def test_deleting_a_stack_with_delete_items_takes_its_children(api: Api, world: World):
    assert api.delete(f"/v1/items/{world.stack}", json={"delete_items": True}).status_code == 200
    assert_error(api.get(f"/v1/items/{world.video}"), 404, "not_found")
    assert_error(api.get(f"/v1/items/{world.audio}"), 404, "not_found")
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 4


def test_delete_permissions(api: Api, world: World):
    assert api.delete(f"/v1/items/{world.note}", user=FREE).status_code == 200  # a collaborator edits
    assert_error(api.delete(f"/v1/items/{world.recipe}", user=FREE), 403, "forbidden")
    assert_error(api.delete(f"/v1/items/{world.free_note}"), 404, "not_found")


# ---------------------------------------------------------------------- copy
def test_copy_takes_tags_and_metadata_but_not_comments(api: Api, world: World, store):
    pro = store.accounts[PRO]
    store.update_item(pro, world.link, {"metadata": {"source": "blog"}})
    store.create_comment(pro, world.link, "Great read")
    store.create_reaction(store.accounts[FREE], world.link)
    response = api.put("/v1/items/copy", json={"items": [world.link], "collection_id": world.recipes})
    assert response.status_code == 201, response.text
    [copy] = response.json()
    original = get_one(api, f"/v1/items/{world.link}")
    assert copy["id"] != world.link
    assert copy["collection_id"] == world.recipes
    for field in ("name", "content", "link", "type", "latitude", "longitude", "mime", "size"):
        assert copy[field] == original[field], field
    assert sorted(t["name"] for t in copy["tags"]) == ["food", "travel"]
    assert {t["id"] for t in copy["tags"]}.isdisjoint(t["id"] for t in original["tags"])
    assert copy["metadata"] == [{"key": "source", "value": "blog"}]
    assert copy["comments"] == [] and copy["reactions"] == [] and copy["reactions_total_count"] == 0
    assert len(original["comments"]) == 1 and original["reactions_total_count"] == 1
    assert ids(api.get("/v1/items", params={"collection_id": world.recipes})) == [world.recipe, copy["id"]]


def test_copy_without_a_collection_copies_in_place(api: Api, world: World):
    response = api.put("/v1/items/copy", json={"items": [world.note, world.file]})
    assert response.status_code == 201
    assert [i["collection_id"] for i in response.json()] == [world.trips, world.trips]
    assert [i["name"] for i in response.json()] == ["Packing list", "Ticket"]
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 9


def test_copying_a_stack_copies_its_children(api: Api, world: World):
    [copy] = api.put("/v1/items/copy", json={"items": [world.stack], "collection_id": world.recipes}).json()
    children = api.get("/v1/items", params={"parent_id": copy["id"]}).json()
    assert [c["name"] for c in children] == ["Tram ride", "Fado"]
    assert {c["collection_id"] for c in children} == {world.recipes}
    assert ids(api.get("/v1/items", params={"parent_id": world.stack})) == [world.video, world.audio]


def test_copy_from_a_public_collection_into_ones_own(api: Api, world: World, store):
    mine = store.create_collection(store.accounts[STRANGER], {"name": "Mine", "type": "private"}).id
    response = api.put("/v1/items/copy", user=STRANGER, json={"items": [world.recipe], "collection_id": mine})
    assert response.status_code == 201
    assert response.json()[0]["user_id"] == STRANGER  # the copy is the copier's item


def test_copy_errors(api: Api, world: World, store):
    before = len(store.items)
    response = api.put("/v1/items/copy", user=STRANGER, json={"items": [world.recipe]})
    assert_error(response, 403, "forbidden")  # may read, may not add to the public collection
    assert_error(api.put("/v1/items/copy", json={"items": [world.free_note]}), 404, "not_found")
    response = api.put(
        "/v1/items/copy", user=FREE, json={"items": [world.note], "collection_id": world.recipes}
    )
    assert_error(response, 403, "forbidden")
    assert len(store.items) == before
