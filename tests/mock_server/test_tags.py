"""Tags over HTTP (spec 4.8): the caller's tag names with counts, tagging an item (paid),
deleting a tag, an item's tags; the collection tags are in test_collections."""

from __future__ import annotations

from tests.mock_server.conftest import FREE, PRO, STRANGER, Api, World
from tests.mock_server.test_app import assert_error
from tests.mock_server.test_collections import get_one


def test_list_tags_counts_items_per_name_over_what_the_caller_can_see(api: Api, world: World):
    response = api.get("/v1/tags")
    assert response.status_code == 200
    assert response.json() == [
        {"items_total_count": 2, "name": "food"},
        {"items_total_count": 2, "name": "travel"},
    ]
    # user 2 collaborates on trips (link: travel, food; image: travel) and sees no recipes
    assert api.get("/v1/tags", user=FREE).json() == [
        {"items_total_count": 1, "name": "food"},
        {"items_total_count": 2, "name": "travel"},
    ]
    assert api.get("/v1/tags", user=STRANGER).json() == []


def test_tag_names_count_without_case(api: Api, world: World):
    api.post(f"/v1/items/{world.note}/tags", json={"name": "Travel"})
    assert {"items_total_count": 3, "name": "travel"} in api.get("/v1/tags").json()


def test_deleted_items_leave_the_counts(api: Api, world: World):
    api.delete(f"/v1/items/{world.link}")
    assert api.get("/v1/tags").json() == [
        {"items_total_count": 1, "name": "food"},
        {"items_total_count": 1, "name": "travel"},
    ]


def test_create_a_tag(api: Api, world: World):
    response = api.post(f"/v1/items/{world.note}/tags", json={"name": "packing"})
    assert response.status_code == 201, response.text
    tag = response.json()
    assert tag["name"] == "packing"
    assert api.get(f"/v1/items/{world.note}/tags").json() == [tag]
    assert get_one(api, f"/v1/items/{world.note}")["tags"] == [tag]
    assert [i["id"] for i in api.get("/v1/items", params={"tags": "packing"}).json()] == [world.note]


def test_tagging_twice_with_one_name_answers_the_existing_tag(api: Api, world: World):
    first = api.post(f"/v1/items/{world.note}/tags", json={"name": "packing"}).json()
    again = api.post(f"/v1/items/{world.note}/tags", json={"name": "PACKING"})
    assert again.status_code == 201
    assert again.json() == first
    assert len(api.get(f"/v1/items/{world.note}/tags").json()) == 1


def test_create_tag_is_paid_and_needs_edit(api: Api, world: World):
    assert_error(
        api.post(f"/v1/items/{world.note}/tags", user=FREE, json={"name": "x"}), 402, "paid_plan_required"
    )
    assert api.get(f"/v1/items/{world.note}/tags").json() == []
    assert_error(api.post(f"/v1/items/{world.free_note}/tags", json={"name": "x"}), 404, "not_found")
    api.put(f"/v1/collections/{world.recipes}", json={"users": [FREE]})
    store_user_pro_recipe = api.post(f"/v1/items/{world.recipe}/tags", json={"name": "dinner"})
    assert store_user_pro_recipe.status_code == 201


def test_a_public_reader_may_not_tag(api: Api, world: World, store):
    store.accounts[STRANGER].plan = "pro"  # paid, but only a reader of the public collection
    assert_error(
        api.post(f"/v1/items/{world.recipe}/tags", user=STRANGER, json={"name": "x"}), 403, "forbidden"
    )


def test_create_tag_rejects_a_blank_name(api: Api, world: World):
    assert_error(api.post(f"/v1/items/{world.note}/tags", json={"name": ""}), 400, "invalid_input")
    assert_error(api.post(f"/v1/items/{world.note}/tags", json={"name": "   "}), 400, "invalid_input")
    assert_error(api.post(f"/v1/items/{world.note}/tags", json={}), 400, "invalid_input")
    assert api.get(f"/v1/items/{world.note}/tags").json() == []


def test_delete_a_tag(api: Api, world: World):
    [travel] = [t for t in api.get(f"/v1/items/{world.link}/tags").json() if t["name"] == "travel"]
    response = api.delete(f"/v1/tags/{travel['id']}")
    assert response.status_code == 200
    assert response.json()["code"] == "deleted"
    assert [t["name"] for t in api.get(f"/v1/items/{world.link}/tags").json()] == ["food"]
    assert [i["id"] for i in api.get("/v1/items", params={"tags": "travel"}).json()] == [world.image]
    assert_error(api.delete(f"/v1/tags/{travel['id']}"), 404, "not_found")


def test_delete_tag_permissions(api: Api, world: World):
    [food] = api.get(f"/v1/items/{world.recipe}/tags").json()
    assert_error(api.delete(f"/v1/tags/{food['id']}", user=STRANGER), 403, "forbidden")  # public reader
    [travel] = [t for t in api.get(f"/v1/items/{world.image}/tags").json()]
    assert_error(api.delete(f"/v1/tags/{travel['id']}", user=STRANGER), 404, "not_found")  # private
    assert api.delete(f"/v1/tags/{travel['id']}", user=FREE).status_code == 200  # a collaborator edits
    assert_error(api.delete("/v1/tags/999"), 404, "not_found")


def test_item_tags(api: Api, world: World):
    response = api.get(f"/v1/items/{world.link}/tags")
    assert response.status_code == 200
    assert sorted(t["name"] for t in response.json()) == ["food", "travel"]
    assert api.get(f"/v1/items/{world.recipe}/tags", user=STRANGER).json()[0]["name"] == "food"
    assert_error(api.get(f"/v1/items/{world.link}/tags", user=STRANGER), 404, "not_found")
    assert_error(api.get("/v1/items/999/tags"), 404, "not_found")
    assert api.get(f"/v1/items/{world.note}/tags", user=PRO).json() == []
