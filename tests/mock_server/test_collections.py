"""Collections over HTTP (spec 4.1): the 13 operations, permissions per role, paid fields,
paging and counts, item order, moving and deleting items, collaborators."""

from __future__ import annotations

from typing import Any

import pytest

from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Api, Clock, World
from tests.mock_server.test_app import assert_error

OWNER_PERMISSIONS = {"admin": True, "edit": True, "share": True, "delete": True, "leave": False}
COLLABORATOR_PERMISSIONS = {"admin": False, "edit": True, "share": True, "delete": False, "leave": True}
READER_PERMISSIONS = {"admin": False, "edit": False, "share": False, "delete": False, "leave": False}


def ids(response: Any) -> list[int]:
    assert response.status_code == 200, response.text
    return [entry["id"] for entry in response.json()]


def get_one(api: Api, path: str, **kwargs: Any) -> dict[str, Any]:
    response = api.get(path, **kwargs)
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body) == 1
    return body[0]


# ---------------------------------------------------------------------- create
def test_create_answers_the_whole_new_collection(api: Api, store):
    response = api.post(
        "/v1/collections", json={"name": "Holidays", "type": "private", "description": "2026"}
    )
    assert response.status_code == 201, response.text
    body = response.json()
    assert body["id"] in store.collections
    assert (body["name"], body["type"], body["description"]) == ("Holidays", "private", "2026")
    assert body["user_id"] == PRO
    assert body["username"] == store.accounts[PRO].username
    assert body["user_plan"] == "pro"
    assert (body["sort_by"], body["sort_order"], body["view_mode"]) == (None, None, "tile")
    assert (body["archived"], body["highlighted"], body["labels"]) == (False, False, True)
    assert body["items_total_count"] == 0
    assert body["users_total_count"] == 1
    assert body["permissions"] == OWNER_PERMISSIONS
    assert body["created_at"] == body["updated_at"] == body["last_accessed_at"] == "2026-11-21T12:00:00Z"
    assert body["url"].endswith(f"/collections/{body['id']}")
    assert set(body["thumbnails"]) == {"mini", "small", "cropped", "uncropped", "large"}


def test_create_with_users_invites_them_at_once(api: Api):
    response = api.post("/v1/collections", json={"name": "Shared", "type": "private", "users": [FREE, TEAM]})
    assert response.status_code == 201, response.text
    assert response.json()["users_total_count"] == 3
    shared = response.json()["id"]
    assert get_one(api, f"/v1/collections/{shared}", user=FREE)["permissions"] == COLLABORATOR_PERMISSIONS


def test_a_new_collection_goes_last(api: Api):
    first = api.post("/v1/collections", json={"name": "B", "type": "private"}).json()
    second = api.post("/v1/collections", json={"name": "A", "type": "private"}).json()
    assert second["sort"] == first["sort"] + 1
    assert ids(api.get("/v1/collections")) == [first["id"], second["id"]]


def test_a_team_manager_creates_for_the_team_a_member_may_not(api: Api):
    response = api.post("/v1/collections", json={"name": "Team", "type": "private", "user_id": TEAM})
    assert response.status_code == 201, response.text
    assert response.json()["user_id"] == TEAM
    assert response.json()["user_plan"] == "team"
    assert response.json()["permissions"] == OWNER_PERMISSIONS  # manager counts as owner
    body = {"name": "Team", "type": "private", "user_id": TEAM}
    assert_error(api.post("/v1/collections", user=FREE, json=body), 403, "forbidden")
    assert_error(api.post("/v1/collections", user=STRANGER, json=body), 403, "forbidden")


@pytest.mark.parametrize(
    "body",
    [
        {"type": "private"},
        {"name": "A"},
        {"name": "", "type": "private"},
        {"name": "A", "type": "secret"},
        {"name": "A", "type": "private", "sort_by": "colour"},
        {"name": "A", "type": "private", "users": ["x"]},
    ],
)
def test_create_rejects_bad_bodies(api: Api, store, body):
    assert_error(api.post("/v1/collections", json=body), 400, "invalid_input")
    assert store.collections == {}


def test_create_inviting_an_unknown_account_is_404_and_creates_nothing(api: Api, store):
    response = api.post("/v1/collections", json={"name": "A", "type": "private", "users": [999]})
    assert_error(response, 404, "not_found")
    assert store.collections == {}


# ---------------------------------------------------------------------- paid fields
PAID_FIELDS = [
    ("archived", True),
    ("highlighted", True),
    ("labels", False),
    ("sort_by", "name"),
    ("sort_order", "desc"),
    ("view_mode", "list"),
]


@pytest.mark.parametrize(("field", "value"), PAID_FIELDS)
def test_paid_fields_are_402_for_a_free_user(api: Api, store, field, value):
    response = api.post("/v1/collections", user=FREE, json={"name": "A", "type": "private", field: value})
    assert_error(response, 402, "paid_plan_required")
    assert store.collections == {}
    created = api.post("/v1/collections", user=FREE, json={"name": "A", "type": "private"}).json()
    response = api.put(f"/v1/collections/{created['id']}", user=FREE, json={"name": "B", field: value})
    assert_error(response, 402, "paid_plan_required")
    assert get_one(api, f"/v1/collections/{created['id']}", user=FREE)["name"] == "A"


@pytest.mark.parametrize(("field", "value"), PAID_FIELDS)
def test_paid_fields_are_accepted_from_a_pro_user(api: Api, field, value):
    response = api.post("/v1/collections", json={"name": "A", "type": "private", field: value})
    assert response.status_code == 201, response.text
    assert response.json()[field] == value


# ---------------------------------------------------------------------- get and permissions
@pytest.mark.parametrize(
    ("caller", "collection", "permissions"),
    [
        (PRO, "trips", OWNER_PERMISSIONS),
        (FREE, "trips", COLLABORATOR_PERMISSIONS),
        (PRO, "team_board", OWNER_PERMISSIONS),  # manager of the owning team
        (FREE, "team_board", COLLABORATOR_PERMISSIONS),  # plain member of the owning team
        (STRANGER, "recipes", READER_PERMISSIONS),  # public collection
        (FREE, "recipes", READER_PERMISSIONS),
    ],
)
def test_permissions_object_per_role(api: Api, world: World, caller, collection, permissions):
    body = get_one(api, f"/v1/collections/{getattr(world, collection)}", user=caller)
    assert body["permissions"] == permissions


def test_a_stranger_gets_404_on_a_private_collection_and_its_items(api: Api, world: World):
    assert_error(api.get(f"/v1/collections/{world.trips}", user=STRANGER), 404, "not_found")
    assert_error(api.get(f"/v1/items/{world.note}", user=STRANGER), 404, "not_found")
    assert_error(api.get("/v1/items", user=STRANGER, params={"collection_id": world.trips}), 404, "not_found")
    assert_error(api.get(f"/v1/collections/{world.trips}/tags", user=STRANGER), 404, "not_found")
    assert_error(api.get(f"/v1/collections/{world.trips}/users", user=STRANGER), 404, "not_found")
    assert_error(api.get(f"/v1/collections/{world.free_notes}", user=PRO), 404, "not_found")


def test_an_unknown_collection_is_404(api: Api):
    assert_error(api.get("/v1/collections/999"), 404, "not_found")


def test_a_public_collection_is_readable_but_not_writable(api: Api, world: World):
    body = get_one(api, f"/v1/collections/{world.recipes}", user=STRANGER)
    assert body["name"] == "Recipes"
    assert ids(api.get("/v1/items", user=STRANGER, params={"collection_id": world.recipes})) == [world.recipe]
    item = {"type": "text", "content": "mine"}
    assert_error(
        api.post(f"/v1/collections/{world.recipes}/items", user=STRANGER, json=item), 403, "forbidden"
    )
    response = api.put(f"/v1/collections/{world.recipes}", user=STRANGER, json={"name": "Mine"})
    assert_error(response, 403, "forbidden")
    assert_error(api.delete(f"/v1/collections/{world.recipes}", user=STRANGER), 403, "forbidden")
    assert_error(api.put(f"/v1/items/{world.recipe}", user=STRANGER, json={"name": "x"}), 403, "forbidden")
    response = api.post(f"/v1/collections/{world.recipes}/users", user=STRANGER, json={"id": STRANGER})
    assert_error(response, 403, "forbidden")
    assert get_one(api, f"/v1/collections/{world.recipes}")["name"] == "Recipes"


def test_get_counts_items_and_users(api: Api, world: World):
    body = get_one(api, f"/v1/collections/{world.trips}")
    assert body["items_total_count"] == 7  # children of a stack count too
    assert body["users_total_count"] == 2


def test_get_with_include_users_lists_the_owner_first(api: Api, world: World, store):
    body = get_one(api, f"/v1/collections/{world.trips}", params={"include": "users"})
    assert [(u["id"], u["kind"]) for u in body["users"]] == [(PRO, "owner"), (FREE, "user")]
    assert "items" not in body


def test_get_with_include_items_pages_and_filters_them(api: Api, world: World):
    path = f"/v1/collections/{world.trips}"
    body = get_one(api, path, params={"include": "items"})
    assert [i["id"] for i in body["items"]] == [
        world.link,
        world.note,
        world.image,
        world.stack,
        world.video,
        world.audio,
        world.file,
    ]
    body = get_one(api, path, params={"include": "items", "items_page": 2, "items_per_page": 3})
    assert [i["id"] for i in body["items"]] == [world.stack, world.video, world.audio]
    body = get_one(api, path, params={"include": "items", "items_page": 4, "items_per_page": 3})
    assert body["items"] == []
    assert body["items_total_count"] == 7
    body = get_one(api, path, params={"include": "items", "items_type": "image"})
    assert [i["id"] for i in body["items"]] == [world.image]
    body = get_one(api, path, params={"include": "items", "items_not_type": "stack", "items_per_page": 2})
    assert [i["id"] for i in body["items"]] == [world.link, world.note]
    body = get_one(api, path, params={"include": "items", "items_parent_id": world.stack})
    assert [i["id"] for i in body["items"]] == [world.video, world.audio]
    body = get_one(api, path, params={"include": ["items", "users"]})
    assert len(body["items"]) == 7 and len(body["users"]) == 2


def test_get_with_log_access_records_the_access(api: Api, world: World, clock: Clock):
    path = f"/v1/collections/{world.trips}"
    before = get_one(api, path)["last_accessed_at"]
    clock.advance(3600)
    assert get_one(api, path)["last_accessed_at"] == before
    assert get_one(api, path, params={"log_access": "true"})["last_accessed_at"] == "2026-11-21T13:00:14Z"


def test_get_by_dashboard_domain(api: Api, world: World, store):
    host_domain = f"{store.accounts[PRO].username}.testserver"
    assert get_one(api, f"/v1/collections/{world.trips}", params={"domain": host_domain})["id"] == world.trips
    other = f"{store.accounts[FREE].username}.testserver"
    assert_error(api.get(f"/v1/collections/{world.trips}", params={"domain": other}), 404, "not_found")


# ---------------------------------------------------------------------- list
def test_list_shows_owned_shared_and_team_collections(api: Api, world: World):
    # by `sort` (each owner's own positions: trips 1, recipes 2, the team's board 1), then id
    assert ids(api.get("/v1/collections")) == [world.trips, world.team_board, world.recipes]
    assert sorted(ids(api.get("/v1/collections", user=FREE))) == [
        world.trips,
        world.team_board,
        world.free_notes,
    ]
    assert ids(api.get("/v1/collections", user=STRANGER)) == []


def test_list_filters(api: Api, world: World):
    assert ids(api.get("/v1/collections", params={"owned": "true"})) == [world.trips, world.recipes]
    assert ids(api.get("/v1/collections", params={"owner_id": TEAM})) == [world.team_board]
    assert ids(api.get("/v1/collections", user=FREE, params={"owner_id": PRO})) == [world.trips]
    assert ids(api.get("/v1/collections", params={"q": "went"})) == [world.trips]  # description
    assert ids(api.get("/v1/collections", params={"q": "RECIPES"})) == [world.recipes]
    assert ids(api.get("/v1/collections", params={"sort": "name"})) == [
        world.recipes,
        world.team_board,
        world.trips,
    ]


def test_list_by_recent_access(api: Api, world: World, clock: Clock):
    clock.advance(60)
    get_one(api, f"/v1/collections/{world.recipes}", params={"log_access": "true"})
    assert ids(api.get("/v1/collections", params={"sort": "recent"}))[0] == world.recipes


def test_archived_collections_only_under_status_archived(api: Api, world: World):
    assert api.put(f"/v1/collections/{world.recipes}", json={"archived": True}).status_code == 200
    assert ids(api.get("/v1/collections")) == [world.trips, world.team_board]
    assert ids(api.get("/v1/collections", params={"status": "archived"})) == [world.recipes]
    both = api.get("/v1/collections", params={"status": ["active", "archived"]})
    assert ids(both) == [world.trips, world.team_board, world.recipes]


def test_list_pages_with_total_count(api: Api, store):
    for n in range(30):
        store.create_collection(store.accounts[PRO], {"name": f"C{n:02}", "type": "private"})
    first = api.get("/v1/collections")
    assert len(first.json()) == 24 and first.headers["X-Total-Count"] == "30"
    second = api.get("/v1/collections", params={"page": 2})
    assert [c["name"] for c in second.json()] == [f"C{n:02}" for n in range(24, 30)]
    assert second.headers["X-Total-Count"] == "30"
    past = api.get("/v1/collections", params={"page": 3})
    assert past.json() == [] and past.headers["X-Total-Count"] == "30"
    assert len(api.get("/v1/collections", params={"per_page": 5}).json()) == 5
    assert len(api.get("/v1/collections", params={"count": 7}).json()) == 7  # older clients' alias
    assert len(api.get("/v1/collections", params={"count": 7, "per_page": 4}).json()) == 4  # per_page wins


def test_list_with_include_items(api: Api, world: World):
    body = api.get("/v1/collections", params={"include": "items", "owned": "true"}).json()
    assert [len(c["items"]) for c in body] == [7, 1]


def test_count(api: Api, world: World):
    api.put(f"/v1/collections/{world.recipes}", json={"archived": True, "highlighted": True})
    response = api.get("/v1/collections/count")
    assert response.status_code == 200
    assert response.json() == {"active": 2, "archived": 1, "highlighted": 1, "owned": 2, "total": 3}
    assert api.get("/v1/collections/count", user=STRANGER).json() == {
        "active": 0,
        "archived": 0,
        "highlighted": 0,
        "owned": 0,
        "total": 0,
    }


# ---------------------------------------------------------------------- update
def test_update_changes_what_was_sent(api: Api, world: World, clock: Clock):
    clock.advance(60)
    response = api.put(f"/v1/collections/{world.trips}", json={"name": "Travels", "description": None})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["name"], body["description"], body["type"]) == ("Travels", None, "private")
    assert body["updated_at"] == "2026-11-21T12:01:14Z"
    assert get_one(api, f"/v1/collections/{world.trips}")["name"] == "Travels"


def test_a_collaborator_edits_but_may_not_change_type_or_owner(api: Api, world: World):
    path = f"/v1/collections/{world.trips}"
    assert api.put(path, user=FREE, json={"name": "Ours"}).json()["name"] == "Ours"
    assert_error(api.put(path, user=FREE, json={"type": "public"}), 403, "forbidden")
    assert_error(api.put(path, user=FREE, json={"user_id": FREE}), 403, "forbidden")
    assert get_one(api, path)["type"] == "private"


def test_the_owner_hands_a_collection_to_their_team(api: Api, world: World):
    body = api.put(f"/v1/collections/{world.trips}", json={"user_id": TEAM}).json()
    assert body["user_id"] == TEAM
    assert body["permissions"] == OWNER_PERMISSIONS  # still: manager of the owning team


def test_update_with_users_invites(api: Api, world: World):
    body = api.put(f"/v1/collections/{world.recipes}", json={"users": [STRANGER]}).json()
    assert body["users_total_count"] == 2
    assert ids(api.get("/v1/collections", user=STRANGER)) == [world.recipes]


def test_sort_by_and_sort_order_order_the_items(api: Api, world: World):
    path = f"/v1/collections/{world.trips}"
    api.put(path, json={"sort_by": "name", "sort_order": "asc"})
    names = [i["name"] for i in api.get("/v1/items", params={"collection_id": world.trips}).json()]
    assert names == sorted(names, key=str.casefold)
    api.put(path, json={"sort_order": "desc"})
    again = [i["name"] for i in api.get("/v1/items", params={"collection_id": world.trips}).json()]
    assert again == names[::-1]
    api.put(path, json={"sort_by": None, "sort_order": None})
    assert ids(api.get("/v1/items", params={"collection_id": world.trips}))[0] == world.link


# ---------------------------------------------------------------------- delete
def test_delete_a_collection_takes_its_items(api: Api, world: World):
    response = api.delete(f"/v1/collections/{world.trips}")
    assert response.status_code == 200
    assert response.json()["code"] == "deleted"
    assert_error(api.get(f"/v1/collections/{world.trips}"), 404, "not_found")
    assert_error(api.get(f"/v1/items/{world.note}"), 404, "not_found")
    assert world.trips not in ids(api.get("/v1/collections", user=FREE))
    assert world.note not in ids(api.get("/v1/items"))


def test_only_the_owner_deletes(api: Api, world: World):
    assert_error(api.delete(f"/v1/collections/{world.trips}", user=FREE), 403, "forbidden")
    assert_error(api.delete(f"/v1/collections/{world.trips}", user=STRANGER), 404, "not_found")
    assert_error(api.delete(f"/v1/collections/{world.team_board}", user=FREE), 403, "forbidden")
    assert api.delete(f"/v1/collections/{world.team_board}").status_code == 200  # the team's manager


# ---------------------------------------------------------------------- collection tags
def test_collection_tags_count_items_per_name(api: Api, world: World):
    response = api.get(f"/v1/collections/{world.trips}/tags")
    assert response.status_code == 200
    assert response.json() == [
        {"items_total_count": 1, "name": "food"},
        {"items_total_count": 2, "name": "travel"},
    ]
    assert api.get(f"/v1/collections/{world.recipes}/tags", user=STRANGER).json() == [
        {"items_total_count": 1, "name": "food"}
    ]


# ---------------------------------------------------------------------- PUT items: order
def test_update_items_order_puts_the_listed_first(api: Api, world: World):
    path = f"/v1/collections/{world.trips}/items"
    response = api.put(path, json={"order": [world.file, world.note]})
    assert response.status_code == 200, response.text
    expected = [world.file, world.note, world.link, world.image, world.stack, world.video, world.audio]
    assert [i["id"] for i in response.json()] == expected
    assert [i["sort"] for i in response.json()] == list(range(1, 8))
    assert ids(api.get("/v1/items", params={"collection_id": world.trips})) == expected


def test_update_items_order_by_a_collaborator_and_not_by_a_reader(api: Api, world: World):
    assert (
        api.put(f"/v1/collections/{world.trips}/items", user=FREE, json={"order": [world.file]}).status_code
        == 200
    )
    response = api.put(
        f"/v1/collections/{world.recipes}/items", user=STRANGER, json={"order": [world.recipe]}
    )
    assert_error(response, 403, "forbidden")


def test_update_items_order_with_a_foreign_item_is_404(api: Api, world: World):
    response = api.put(f"/v1/collections/{world.trips}/items", json={"order": [world.note, world.recipe]})
    assert_error(response, 404, "not_found")
    assert ids(api.get("/v1/items", params={"collection_id": world.trips}))[:2] == [world.link, world.note]


# ---------------------------------------------------------------------- PUT items: items
def test_update_items_moves_them_to_another_collection(api: Api, world: World):
    body = {"items": [world.note, world.stack], "collection_id": world.recipes}
    response = api.put(f"/v1/collections/{world.trips}/items", json=body)
    assert response.status_code == 200, response.text
    assert [(i["id"], i["collection_id"]) for i in response.json()] == [
        (world.note, world.recipes),
        (world.stack, world.recipes),
    ]
    moved = ids(api.get("/v1/items", params={"collection_id": world.recipes}))
    assert moved == [
        world.recipe,
        world.note,
        world.stack,
        world.video,
        world.audio,
    ]  # a stack takes its children
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 3


def test_update_items_stacks_them_and_adds_tags(api: Api, world: World):
    body = {"items": [world.note, world.file], "parent_id": world.stack, "tags": ["day1"]}
    response = api.put(f"/v1/collections/{world.trips}/items", json=body)
    assert response.status_code == 200, response.text
    assert {i["parent_id"] for i in response.json()} == {world.stack}
    assert all([t["name"] for t in i["tags"]] == ["day1"] for i in response.json())
    assert ids(api.get("/v1/items", params={"parent_id": world.stack})) == [
        world.note,
        world.video,
        world.audio,
        world.file,
    ]


def test_update_items_parent_must_be_a_stack(api: Api, world: World):
    body = {"items": [world.note], "parent_id": world.link}
    assert_error(api.put(f"/v1/collections/{world.trips}/items", json=body), 400, "invalid_input")
    body = {"items": [world.stack], "parent_id": world.stack}
    assert_error(api.put(f"/v1/collections/{world.trips}/items", json=body), 400, "invalid_input")


def test_update_items_tags_are_paid(api: Api, world: World):
    body = {"items": [world.note], "tags": ["x"]}
    assert_error(
        api.put(f"/v1/collections/{world.trips}/items", user=FREE, json=body), 402, "paid_plan_required"
    )
    assert api.get(f"/v1/items/{world.note}/tags").json() == []


def test_update_items_body_needs_order_or_items(api: Api, world: World):
    assert_error(api.put(f"/v1/collections/{world.trips}/items", json={}), 400, "invalid_input")
    body = {"order": [world.note], "items": [world.note]}
    assert_error(api.put(f"/v1/collections/{world.trips}/items", json=body), 400, "invalid_input")


# ---------------------------------------------------------------------- DELETE items
def test_delete_items(api: Api, world: World):
    response = api.delete(f"/v1/collections/{world.trips}/items", json={"items": [world.note, world.stack]})
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "deleted"
    assert_error(api.get(f"/v1/items/{world.note}"), 404, "not_found")
    assert get_one(api, f"/v1/items/{world.video}")["parent_id"] is None  # children go to top level
    assert get_one(api, f"/v1/collections/{world.trips}")["items_total_count"] == 5


def test_delete_items_checks_every_id_first(api: Api, world: World):
    body = {"items": [world.note, world.recipe]}
    assert_error(api.delete(f"/v1/collections/{world.trips}/items", json=body), 404, "not_found")
    assert api.get(f"/v1/items/{world.note}").status_code == 200
    body = {"items": [world.recipe]}
    assert_error(
        api.delete(f"/v1/collections/{world.recipes}/items", user=STRANGER, json=body), 403, "forbidden"
    )


# ---------------------------------------------------------------------- collaborators
def test_list_collaborators_owner_first(api: Api, world: World, store):
    response = api.get(f"/v1/collections/{world.trips}/users", user=FREE)
    assert response.status_code == 200
    body = response.json()
    assert [(c["id"], c["kind"], c["is_subscribed"]) for c in body] == [
        (PRO, "owner", True),
        (FREE, "user", True),
    ]
    assert body[1]["username"] == store.accounts[FREE].username
    assert body[1]["email"] == store.accounts[FREE].email


@pytest.mark.parametrize("how", ["id", "email", "username"])
def test_add_a_collaborator_by_id_email_or_username(api: Api, world: World, store, how):
    account = store.accounts[STRANGER]
    response = api.post(f"/v1/collections/{world.trips}/users", json={how: getattr(account, how)})
    assert response.status_code == 201, response.text
    assert (response.json()["id"], response.json()["kind"]) == (STRANGER, "user")
    assert (
        get_one(api, f"/v1/collections/{world.trips}", user=STRANGER)["permissions"]
        == COLLABORATOR_PERMISSIONS
    )
    assert get_one(api, f"/v1/collections/{world.trips}")["users_total_count"] == 3


def test_add_a_team_as_collaborator_gives_its_members_access(api: Api, world: World, store):
    store.create_collection(store.accounts[STRANGER], {"name": "Lonely", "type": "private"})
    lonely = max(store.collections)
    response = api.post(f"/v1/collections/{lonely}/users", user=STRANGER, json={"id": TEAM})
    assert response.status_code == 201
    assert response.json()["kind"] == "team"
    assert get_one(api, f"/v1/collections/{lonely}", user=FREE)["permissions"] == COLLABORATOR_PERMISSIONS
    assert get_one(api, f"/v1/collections/{lonely}", user=PRO)["permissions"] == COLLABORATOR_PERMISSIONS


def test_add_collaborator_errors(api: Api, world: World):
    path = f"/v1/collections/{world.trips}/users"
    assert_error(api.post(path, json={"id": FREE}), 409, "conflict")
    assert_error(api.post(path, json={"id": PRO}), 409, "conflict")
    assert_error(api.post(path, json={"id": 999}), 404, "not_found")
    assert_error(api.post(path, json={"email": "nobody@example.net"}), 404, "not_found")
    assert_error(api.post(path, json={"id": FREE, "username": "x"}), 400, "invalid_input")
    assert_error(api.post(path, user=STRANGER, json={"id": STRANGER}), 404, "not_found")


def test_a_collaborator_may_share(api: Api, world: World):
    response = api.post(f"/v1/collections/{world.trips}/users", user=FREE, json={"id": STRANGER})
    assert response.status_code == 201


def test_remove_a_collaborator(api: Api, world: World):
    response = api.delete(f"/v1/collections/{world.trips}/users/{FREE}")
    assert response.status_code == 200
    assert response.json()["code"] == "deleted"
    assert_error(api.get(f"/v1/collections/{world.trips}", user=FREE), 404, "not_found")
    assert ids(api.get(f"/v1/collections/{world.trips}/users")) == [PRO]


def test_a_collaborator_leaves_but_removes_no_one_else(api: Api, world: World):
    api.post(f"/v1/collections/{world.trips}/users", json={"id": STRANGER})
    response = api.delete(f"/v1/collections/{world.trips}/users/{STRANGER}", user=FREE)
    assert response.status_code == 200  # a collaborator has the share permission
    assert api.delete(f"/v1/collections/{world.trips}/users/{FREE}", user=FREE).status_code == 200
    assert ids(api.get("/v1/collections", user=FREE)) == [world.team_board, world.free_notes]


def test_remove_collaborator_errors(api: Api, world: World):
    assert_error(api.delete(f"/v1/collections/{world.trips}/users/{STRANGER}"), 404, "not_found")
    assert_error(api.delete(f"/v1/collections/{world.trips}/users/{PRO}"), 404, "not_found")  # the owner
    assert_error(api.delete(f"/v1/collections/{world.trips}/users/{FREE}", user=STRANGER), 404, "not_found")
    api.put(f"/v1/collections/{world.recipes}", json={"users": [FREE]})
    response = api.delete(f"/v1/collections/{world.recipes}/users/{FREE}", user=STRANGER)
    assert_error(response, 403, "forbidden")
