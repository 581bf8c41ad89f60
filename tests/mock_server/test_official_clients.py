"""The official clients against the mock, each request as its HTTP library puts it on the wire
(issue 14): the Ruby gem (Her over Faraday: form bodies, path ids in the body, every attribute
sent back on save) and the Swift SDK (Alamofire's URLEncoding: default parameters, `include[]`,
booleans as 1/0, a DELETE's parameters in the query). tests/mock_server/official_clients.py
builds the bytes and says what each client's models need back; docs/client-conflicts.md lists
where the spec and a client disagree.

- test_the_builders_write_what_the_libraries_write: the encoders, on the libraries' own cases.
- test_client_call: one table of calls per client, on the default (tolerant) app: the status,
  the answer's shape and what the client's model reads, and the effect where one is meant.
- test_gem_save_sends_the_record_back: Her's `save` of each resource, read-only fields and
  nils included, in the styles of Faraday 0.9.0 and of the later 0.x.
- test_journal_lists_the_findings: each deviation of those calls is a finding in the journal.
- test_spec_over_client and the two save tests after it: where the spec (or a documented choice
  of the mock) contradicts a client, the mock answers as the spec says; each is a line of
  docs/client-conflicts.md.
- test_strict_requests_refuses_off_contract_calls: `create_app(strict_requests=True)` refuses
  the calls that send fields or parameters the spec does not have, with 400 `{code, message}`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, FREE, PRO, STRANGER, TEAM, World
from tests.mock_server.official_clients import (
    DK_COLLECTION,
    DK_COMMENT,
    DK_ITEM,
    DK_ITEM_LISTED,
    DK_REACTION,
    DK_TAG,
    DK_TEAM,
    DK_USER,
    DK_USER_WITH_TOKEN,
    FARADAY_017,
    FARADAY_090,
    FARADAYS,
    SWIFT_ALL,
    SWIFT_COLLECTION,
    SWIFT_ITEM,
    SWIFT_PAGE,
    SWIFT_USER,
    Answer,
    Gem,
    ListOf,
    Request,
    UploadIO,
    alamofire_encode,
    array_of_one,
    counts,
    decodes,
    faraday_encode,
    gem,
    her_attributes,
    her_list,
    her_names,
    her_object,
    message,
    refused,
    swift,
    swift_problems,
    typed_entries,
    validated,
)

Ids = SimpleNamespace  # conftest.World's ids, plus comment, reaction, email, tag, team, credentials


@pytest.fixture
def ids(store: Store, world: World) -> Ids:
    """conftest's world, plus a comment of user 1 and a reaction of user 2 on the Lisbon link,
    a second address of user 1 and the id of the link's "travel" tag."""
    pro, free = store.accounts[PRO], store.accounts[FREE]
    return Ids(
        **dataclasses.asdict(world),
        comment=store.create_comment(pro, world.link, "Book the tram early").id,
        reaction=store.create_reaction(free, world.link).id,
        email=store.create_email_address(pro, "megan.work@example.org").id,
        tag=next(t.id for t in store.item_tags(world.link) if t.name == "travel"),
        team=TEAM,
        pro_email=pro.email,
        pro_password=pro.password,
        stranger_email=store.accounts[STRANGER].email,
    )


Effect = Callable[[Store, Ids], None]  # asserts on the state after the call


@dataclass(frozen=True)
class Call:
    """One client call: the request its library builds, the status, what must hold of the answer
    and of the state, and how the request leaves the contract (docs/design.md, request
    tolerance): `unknown` fields or parameters, `empty` values, DELETE parameters `in_query`."""

    name: str
    build: Callable[[Ids], Request]
    status: int
    answer: Answer
    after: Effect | None = None
    unknown: tuple[str, ...] = ()
    empty: tuple[str, ...] = ()
    in_query: tuple[str, ...] = ()
    user: int | None = PRO  # None: only the API key (/auth)
    total: bool = False  # a list the spec gives X-Total-Count (the gem's parser and pagers read it)


def send(call: Call, client: Any, store: Store, ids: Ids) -> Any:
    credentials = None if call.user is None else (call.user, store.accounts[call.user].token)
    return call.build(ids).send(client, credentials)


def table(rows: list[tuple[str, Call]]) -> Any:
    return pytest.mark.parametrize(("sdk", "call"), rows, ids=[f"{sdk}:{call.name}" for sdk, call in rows])


# ---------------------------------------------------------------------- the wire formats
NESTED = {"b": {"y": "two words", "x": True}, "a": [1, 2], "n": None, "e": [], "u": "https://h.example/p?q"}


@pytest.mark.parametrize(
    ("encode", "expected"),
    [
        # Faraday::NestedParamsEncoder: keys sorted, brackets escaped, + for a space, nil and [] per release
        (lambda p: faraday_encode(p, FARADAY_090),
         "a%5B%5D=1&a%5B%5D=2&b%5Bx%5D=true&b%5By%5D=two+words&&n=&u=https%3A%2F%2Fh.example%2Fp%3Fq"),
        (lambda p: faraday_encode(p, FARADAY_017),
         "a%5B%5D=1&a%5B%5D=2&b%5Bx%5D=true&b%5By%5D=two+words&e%5B%5D&n&u=https%3A%2F%2Fh.example%2Fp%3Fq"),
        # Alamofire 4.9 URLEncoding: keys sorted, booleans 1/0, %20 for a space, / and ? left as they are
        (lambda p: alamofire_encode({k: v for k, v in p.items() if v is not None}),
         "a%5B%5D=1&a%5B%5D=2&b%5Bx%5D=1&b%5By%5D=two%20words&u=https%3A//h.example/p?q"),
    ],
    ids=["faraday-0.9.0", "faraday-0.17", "alamofire-4.9"],
)  # fmt: skip
def test_the_builders_write_what_the_libraries_write(encode: Callable[[dict[str, Any]], str], expected: str):
    """The encoders of official_clients.py, on the cases the libraries' sources spell out."""
    assert encode(NESTED) == expected


# ---------------------------------------------------------------------- effects
def holds(predicate: Callable[[Store, Ids], bool], what: str) -> Effect:
    def check(store: Store, ids: Ids) -> None:
        assert predicate(store, ids), what

    return check


def ordered(*names: str) -> Effect:
    """The Trips collection's top-level items start with these, in this order."""

    def check(store: Store, ids: Ids) -> None:
        live = [i for i in store.items.values() if i.collection_id == ids.trips and i.deleted_at is None]
        order = [i.id for i in sorted(live, key=lambda i: i.sort) if i.parent_id is None]
        assert order[: len(names)] == [getattr(ids, name) for name in names]

    return check


def deleted(*names: str, kept: tuple[str, ...] = ()) -> Effect:
    def check(store: Store, ids: Ids) -> None:
        assert all(store.items[getattr(ids, name)].deleted_at is not None for name in names), names
        assert all(store.items[getattr(ids, name)].deleted_at is None for name in kept), kept

    return check


def only(*names: str) -> Answer:
    def check(response: Any, ids: Ids) -> None:
        assert [entry["id"] for entry in response.json()] == [getattr(ids, name) for name in names]

    return check


# ---------------------------------------------------------------------- the Ruby gem's calls
# From the gem's README and models. Her sends a create's path ids in its body too.
JPEG = UploadIO("photo.jpg", "image/jpeg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00photo")
README_COLLECTION = {"name": "New collection", "type": "private", "sort_by": "created_at",
                     "sort_order": "desc", "thumbnails": "square", "labels": "true"}  # fmt: skip
README_ITEM = {"type": "link", "name": "Logo", "content": "http://dropmark.com/assets/images/logo.png",
               "description": "Dropmark logo", "link": "http://dropmark.com",
               "thumbnail": "http://dropmark.com/assets/images/logo.png", "shareable": "true"}  # fmt: skip

# fmt: off
GEM_CALLS = [
    Call("Collection.all(page: 1, count: 20)", lambda i: gem.get("/collections", {"page": 1, "count": 20}),
         200, her_list, total=True),
    Call("Collection.count", lambda i: gem.get("/collections/count"), 200, counts),
    Call("Collection.create(README fields)", lambda i: gem.post("/collections", README_COLLECTION),
         201, her_object(name="New collection", sort_by="created_at", sort_order="desc", labels=True),
         unknown=("thumbnails",)),
    Call("collection.destroy", lambda i: gem.delete(f"/collections/{i.recipes}"),  # an empty form body
         200, message("deleted"), deleted("recipe")),
    Call("collection.sort_items(order)",
         lambda i: gem.put(f"/collections/{i.trips}/items", {"order": [i.file, i.stack, i.link]}),
         200, her_list, ordered("file", "stack", "link")),
    Call("collection.users", lambda i: gem.get(f"/collections/{i.trips}/users"), 200, her_list),
    Call("Item.create(collection_id:, type:, ... shareable: 'true')",
         lambda i: gem.post(f"/collections/{i.trips}/items", {"collection_id": i.trips, **README_ITEM}),
         201, her_object(type="link", name="Logo", link="http://dropmark.com", shareable=True),
         unknown=("collection_id",)),
    Call("Item.create(collection_id:, type:, content: Dropmark::File)",
         lambda i: gem.multipart("POST", f"/collections/{i.trips}/items",
                                 {"collection_id": i.trips, "type": "image", "content": JPEG}),
         201, her_object(type="image", mime="image/jpeg"), unknown=("collection_id",)),
    Call("Item.save_existing(id, name:)",
         lambda i: gem.put(f"/items/{i.note}", {"id": i.note, "name": "Memo"}),
         200, her_object(name="Memo"), unknown=("id",)),
    Call("item.destroy", lambda i: gem.delete(f"/items/{i.note}"), 200, message("deleted"), deleted("note")),
    Call("item.destroy(delete_items: true)",
         lambda i: gem.delete(f"/items/{i.stack}", {"delete_items": True}),
         200, message("deleted"), deleted("stack", "video", "audio")),
    Call("item.comments", lambda i: gem.get(f"/items/{i.link}/comments"), 200, her_list),
    Call("item.comments.create(body:)",
         lambda i: gem.post(f"/items/{i.link}/comments", {"body": "My comment", "item_id": i.link}),
         201, her_object(body="My comment"), unknown=("item_id",)),
    Call("comment.destroy", lambda i: gem.delete(f"/comments/{i.comment}"), 200, message("deleted")),
    Call("Reaction.create(item_id:)", lambda i: gem.post(f"/items/{i.note}/reactions", {"item_id": i.note}),
         201, her_object(item_id=int), unknown=("item_id",)),  # Create a reaction has no body at all
    Call("Reaction.where(item_id:)", lambda i: gem.get(f"/items/{i.link}/reactions"), 200, her_list),
    Call("reaction.destroy", lambda i: gem.delete(f"/reactions/{i.reaction}"),
         200, message("deleted"), user=FREE),
    Call("User.find('me')", lambda i: gem.get("/users/me"), 200, her_object(id=PRO)),
    Call("User.contacts", lambda i: gem.get("/users/contacts"), 200, her_list),
    Call("User.auth(email:, password:)",
         lambda i: gem.post("/auth", {"email": i.pro_email, "password": i.pro_password}),
         201, her_object(id=PRO, token=str), user=None),
    Call("Team.all", lambda i: gem.get("/teams"), 200, her_list),
    Call("Team.find(id)", lambda i: gem.get(f"/teams/{i.team}"), 200, her_object(id=TEAM)),
    Call("team.users", lambda i: gem.get(f"/teams/{i.team}/users"), 200, her_list),
    Call("Tag.get({})", lambda i: gem.get("/tags"), 200, her_names),
    Call("tag.destroy", lambda i: gem.delete(f"/tags/{i.tag}"), 200, message("deleted")),
    Call("Email.all", lambda i: gem.get("/emails"), 200, her_list),
    Call("Email.create(email:)", lambda i: gem.post("/emails", {"email": "megan+lisbon@example.org"}),
         201, her_object(email="megan+lisbon@example.org")),
    Call("email.destroy", lambda i: gem.delete(f"/emails/{i.email}"), 200, message("deleted")),
    Call("Activity.get(page: 1)", lambda i: gem.get("/activity", {"page": 1}), 200, her_list, total=True),
    Call("Search.where(q: 'lisbon')", lambda i: gem.get("/search", {"q": "lisbon"}),
         200, her_list, total=True),
]
# fmt: on

# ---------------------------------------------------------------------- the Swift SDK's calls
# DKPromise's functions with their default parameters; page 1 as DKPagingGenerator asks for it.
TILES = {"type": "link", "content": "https://www.museudoazulejo.gov.pt/", "name": "Tile museum"}
INCLUDE = ("include", "items_per_page")  # SWIFT_ITEM's, unknown to most operations
TRIPS_PAGE = {"page": 1, **SWIFT_PAGE, **SWIFT_ITEM}


def unlabelled(record: Any, name: str) -> bool:
    return (record.name, record.labels) == (name, False)


# fmt: off
SWIFT_CALLS = [
    Call("authenticate",
         lambda i: swift.request("POST", "/auth",
                                 {"email": i.pro_email, "password": i.pro_password, **SWIFT_USER}),
         201, decodes(DK_USER_WITH_TOKEN), unknown=("include",), user=None),
    Call("listCollections",
         lambda i: swift.request("GET", "/collections", {"page": 1, **SWIFT_PAGE, **SWIFT_COLLECTION}),
         200, decodes(ListOf(DK_COLLECTION)), unknown=("items_per_page", "items_not_type"), total=True),
    Call("createCollection",
         lambda i: swift.request("POST", "/collections", {"name": "Lisbon trip", "type": "private"},
                                 query={"include": ["users", "items"]}),
         201, decodes(DK_COLLECTION), unknown=("include",)),
    Call("updateCollection",
         lambda i: swift.request("PUT", f"/collections/{i.trips}", {"name": "Trips 2026", "labels": False},
                                 query=SWIFT_COLLECTION),
         200, decodes(DK_COLLECTION),
         holds(lambda s, i: unlabelled(s.collections[i.trips], "Trips 2026"), "labels=0 is false"),
         unknown=("include", "items_per_page", "items_not_type")),
    Call("deleteCollection", lambda i: swift.request("DELETE", f"/collections/{i.recipes}"),
         200, validated, deleted("recipe")),
    Call("listCollaboratorsInCollection", lambda i: swift.request("GET", f"/collections/{i.trips}/users"),
         200, decodes(ListOf(DK_USER))),
    Call("addCollaboratorToCollection",
         lambda i: swift.request("POST", f"/collections/{i.trips}/users", {"email": i.stranger_email}),
         201, validated, holds(lambda s, i: STRANGER in s.collections[i.trips].collaborators, "added")),
    Call("removeCollaboratorFromCollection",
         lambda i: swift.request("DELETE", f"/collections/{i.trips}/users/{FREE}"), 200, validated),
    Call("listCommentsForItem", lambda i: swift.request("GET", f"/items/{i.link}/comments", SWIFT_ALL),
         200, decodes(ListOf(DK_COMMENT)), unknown=("per_page",)),
    Call("createCommentForItem",
         lambda i: swift.request("POST", f"/items/{i.link}/comments",
                                 {"body": "See you @rgreen", "notify": True}),
         201, decodes(DK_COMMENT),
         holds(lambda s, i: any(n.user_id == FREE for n in s.notifications.values()), "notify=1 is true")),
    Call("updateComment",
         lambda i: swift.request("PUT", f"/comments/{i.comment}", {"body": "Book the tram at 8"}),
         200, decodes(DK_COMMENT)),
    Call("deleteComment", lambda i: swift.request("DELETE", f"/comments/{i.comment}"), 200, validated),
    Call("createEmail", lambda i: swift.request("POST", "/emails", {"email": "megan+ios@example.org"}),
         201, validated),
    Call("deleteEmail", lambda i: swift.request("DELETE", f"/emails/{i.email}"), 200, validated),
    Call("listItems", lambda i: swift.request("GET", "/items", {"collection_id": i.trips, **TRIPS_PAGE}),
         200, decodes(ListOf(DK_ITEM_LISTED)), unknown=INCLUDE, total=True),
    Call("listItems(tags:)",
         lambda i: swift.request("GET", "/items", {"tags": ["travel", "food"], **TRIPS_PAGE}),
         200, only("link"), unknown=INCLUDE, total=True),  # tags[]=travel&tags[]=food: both tags
    Call("listItems(parent_id: '') (the demo's top-level list, on the spec's path)",
         lambda i: swift.request("GET", "/items", {"collection_id": i.trips, "parent_id": "", **TRIPS_PAGE}),
         200, decodes(ListOf(DK_ITEM_LISTED)), unknown=INCLUDE, empty=("parent_id",), total=True),
    Call("createItemInCollection",
         lambda i: swift.request("POST", f"/collections/{i.trips}/items", TILES, query=SWIFT_ITEM),
         201, decodes(DK_ITEM), unknown=INCLUDE),
    Call("updateItemsInCollection(order:)",
         lambda i: swift.request("PUT", f"/collections/{i.trips}/items", {"order": [i.file, i.stack, i.link]},
                                 query=SWIFT_ITEM),
         200, decodes(ListOf(DK_ITEM_LISTED)), ordered("file", "stack", "link"), unknown=INCLUDE),
    Call("updateItemsInCollection(items:, parent_id:)",
         lambda i: swift.request("PUT", f"/collections/{i.trips}/items",
                                 {"items": [i.note], "parent_id": i.stack}, query=SWIFT_ITEM),
         200, decodes(ListOf(DK_ITEM_LISTED)),
         holds(lambda s, i: s.items[i.note].parent_id == i.stack, "stacked"), unknown=INCLUDE),
    Call("updateItems(items:, collection_id:)",
         lambda i: swift.request("PUT", "/items", {"items": [i.note, i.file], "collection_id": i.recipes}),
         200, decodes(ListOf(DK_ITEM_LISTED)),
         holds(lambda s, i: {s.items[i.note].collection_id, s.items[i.file].collection_id} == {i.recipes},
               "moved")),
    Call("updateItem",
         lambda i: swift.request("PUT", f"/items/{i.link}", {"name": "Lisbon", "shareable": True},
                                 query=SWIFT_ITEM),
         200, decodes(DK_ITEM), holds(lambda s, i: s.items[i.link].shareable is True, "shareable=1 is true"),
         unknown=INCLUDE),
    Call("deleteItem(delete_items: true)",
         lambda i: swift.request("DELETE", f"/items/{i.stack}", {"delete_items": True}),
         200, validated, deleted("stack", "video", "audio"), in_query=("delete_items",)),
    Call("deleteItem", lambda i: swift.request("DELETE", f"/items/{i.stack}"),
         200, validated, deleted("stack", kept=("video", "audio"))),
    Call("deleteItemsInCollection(items:)",
         lambda i: swift.request("DELETE", f"/collections/{i.trips}/items", {"items": [i.note, i.file]}),
         200, validated, deleted("note", "file", kept=("link",)), in_query=("items",)),
    Call("listReactionsForItem", lambda i: swift.request("GET", f"/items/{i.link}/reactions"),
         200, decodes(ListOf(DK_REACTION))),
    Call("createReactionForItem", lambda i: swift.request("POST", f"/items/{i.note}/reactions"),  # no body
         201, decodes(DK_REACTION)),
    Call("deleteReaction", lambda i: swift.request("DELETE", f"/reactions/{i.reaction}"),
         200, validated, user=FREE),
    Call("search(q:)", lambda i: swift.request("GET", "/search", {"q": "lisbon", **SWIFT_PAGE, **SWIFT_ITEM}),
         200, typed_entries, unknown=INCLUDE, total=True),
    Call("listTags", lambda i: swift.request("GET", "/tags", SWIFT_ALL),
         200, decodes(ListOf(DK_TAG)), unknown=("per_page",)),
    Call("listTagsForItem", lambda i: swift.request("GET", f"/items/{i.link}/tags", SWIFT_ALL),
         200, decodes(ListOf(DK_TAG)), unknown=("per_page",)),
    Call("deleteTag", lambda i: swift.request("DELETE", f"/tags/{i.tag}"), 200, validated),
    Call("listTeams", lambda i: swift.request("GET", "/teams", SWIFT_PAGE),
         200, decodes(ListOf(DK_TEAM)), unknown=("per_page",)),
    Call("getTeam", lambda i: swift.request("GET", f"/teams/{i.team}"), 200, decodes(DK_TEAM)),
    Call("updateTeam",
         lambda i: swift.request("PUT", f"/teams/{i.team}", {"name": "Faulkner & Howard", "labels": False}),
         200, decodes(DK_TEAM),
         holds(lambda s, i: unlabelled(s.accounts[TEAM], "Faulkner & Howard"), "labels=0 is false")),
    Call("listUsersInTeam", lambda i: swift.request("GET", f"/teams/{i.team}/users"),
         200, decodes(ListOf(DK_USER))),
    Call("deleteUserInTeam", lambda i: swift.request("DELETE", f"/teams/{i.team}/users/{FREE}"),
         200, validated),
    Call("getUser", lambda i: swift.request("GET", "/users/me", SWIFT_USER), 200, decodes(DK_USER)),
    Call("updateUser",
         lambda i: swift.request("PUT", "/users/me", {"name": "Megan C. Chang"}, query=SWIFT_USER),
         200, decodes(DK_USER), unknown=("include",)),
    Call("listContacts", lambda i: swift.request("GET", "/users/contacts", SWIFT_ALL),
         200, decodes(ListOf(DK_USER)), unknown=("per_page",)),
    Call("getEmailAvailability",
         lambda i: swift.request("GET", "/users/email", {"email": "new.one@example.org"}),
         200, message("email_available")),
    Call("getUsernameAvailability",
         lambda i: swift.request("GET", "/users/username", {"username": "new_one"}),
         200, message("username_available")),
]
# fmt: on

CALLS = [("gem", call) for call in GEM_CALLS] + [("swift", call) for call in SWIFT_CALLS]


@table(CALLS)
def test_client_call(client: Any, store: Store, ids: Ids, sdk: str, call: Call):
    request = call.build(ids)
    response = send(call, client, store, ids)
    assert response.status_code == call.status, f"{request.method} {request.url}: {response.text}"
    if call.total:
        assert response.headers["X-Total-Count"].isdigit()
    call.answer(response, ids)
    if call.after is not None:
        call.after(store, ids)


# ---------------------------------------------------------------------- Her's save
@dataclass(frozen=True)
class Save:
    """A record as the gem holds it (`read`, then `pick` from the answer), changed and saved with
    every attribute by a PUT to `write`: `fields` come back as they were, the change is made."""

    name: str
    read: Callable[[Ids], Request]
    pick: Callable[[Any, Ids], dict[str, Any]]
    write: Callable[[Ids], str]
    change: dict[str, Any]
    fields: tuple[str, ...]
    times: tuple[str, ...] = ("created_at", "updated_at")  # the model's callbacks make Times of these
    extra: dict[str, Any] = dataclasses.field(default_factory=dict)  # attributes the model adds


def by_id(name: str) -> Callable[[Any, Ids], dict[str, Any]]:
    return lambda body, ids: next(entry for entry in body if entry["id"] == getattr(ids, name))


def whole(body: Any, ids: Ids) -> dict[str, Any]:
    return body


# fmt: off
SAVES = [
    Save("collection.save", lambda i: gem.get("/collections"), by_id("trips"),
         lambda i: f"/collections/{i.trips}", {"name": "Trips 2026"},
         ("description", "type", "user_id", "sort_by", "sort_order", "labels", "view_mode", "thumbnail",
          "archived"),
         times=("created_at", "updated_at", "last_accessed_at")),
    # as the gem holds an item after Item.create (Item.find gets an array of one: a conflict)
    Save("item.save (PUT, Her's default)", lambda i: gem.get("/items", {"collection_id": i.trips}),
         by_id("link"), lambda i: f"/items/{i.link}", {"name": "Lisbon, the guide"},
         ("collection_id", "parent_id", "type", "content", "link", "latitude", "longitude", "shareable",
          "sort", "thumbnail", "tags", "metadata")),
    Save("comment.save", lambda i: gem.get(f"/items/{i.link}/comments"), by_id("comment"),
         lambda i: f"/comments/{i.comment}", {"body": "Book the tram early, at 8"},
         ("user_id", "annotation")),
    Save("user.save (users/me)", lambda i: gem.get("/users/me"), whole, lambda i: "/users/me",
         {"name": "Megan C. Chang"}, ("email", "username", "plan", "avatar"), times=()),
    Save("team.save", lambda i: gem.get(f"/teams/{i.team}"), whole, lambda i: f"/teams/{i.team}",
         {"name": "Faulkner & Howard"},
         ("username", "billing_email", "custom_domain", "labels", "view_mode", "sort_by"),
         times=(), extra={"metadata": {}}),  # Team's after_find: metadata = Her's (empty) metadata
]
# fmt: on


@pytest.mark.parametrize("faraday", FARADAYS)
@pytest.mark.parametrize("save", SAVES, ids=[s.name for s in SAVES])
def test_gem_save_sends_the_record_back(client: Any, store: Store, ids: Ids, save: Save, faraday: str):
    """Her sends every attribute back (send_only_modified_attributes is off): ids, Ruby's
    timestamps, URLs, `thumbnails[mini]`, `tags[][name]`, a nil as `key=` or a bare `key`, an
    empty array as nothing or `key[]`. What the spec does not have is ignored, a nil stays
    null, and only the change is made."""
    credentials = (PRO, store.accounts[PRO].token)
    before = save.pick(save.read(ids).send(client, credentials).json(), ids)
    attributes = {**her_attributes(before, save.times), **save.extra, **save.change}
    response = Gem(faraday).put(save.write(ids), attributes).send(client, credentials)
    assert response.status_code == 200, response.text
    her_object(**save.change)(response, ids)
    after = response.json()
    assert {f: after.get(f) for f in save.fields} == {f: before.get(f) for f in save.fields}


# ---------------------------------------------------------------------- the request journal
FINDING_KINDS = {
    "unknown": ("unknown_field", "unknown_parameter"),
    "empty": ("empty_value",),
    "in_query": ("delete_parameter_in_query",),
}
DEVIANT = [(sdk, call) for sdk, call in CALLS if call.unknown or call.empty or call.in_query]


@table(DEVIANT)
def test_journal_lists_the_findings(client: Any, store: Store, ids: Ids, sdk: str, call: Call):
    """GET /__mock__/requests: the call's entry names each deviation the mock let through."""
    request = call.build(ids)
    assert send(call, client, store, ids).status_code == call.status
    entry = client.get("/__mock__/requests", params={"limit": 1}).json()[0]
    assert (entry["method"], entry["path"]) == (request.method, f"/v1{request.path}")
    found = {(finding["kind"], finding.get("name")) for finding in entry["findings"]}
    for deviation, kinds in FINDING_KINDS.items():
        for name in getattr(call, deviation):
            assert any((kind, name) in found for kind in kinds), (deviation, name, entry["findings"])


# ---------------------------------------------------------------------- the spec over a client
def members(response: Any, ids: Ids) -> None:
    """Add / update team member (spec 4.3): an array of members, where the SDK decodes one DKUser."""
    body = response.json()
    assert isinstance(body, list) and all(swift_problems(DK_USER, member) == [] for member in body), body


def without_collection_id(response: Any, ids: Ids) -> None:
    """Activity entries (spec 2.12) have no collection_id, which the SDK's DKItem requires."""
    body = response.json()
    assert body and all("collection_id" not in entry for entry in body), body


def empty_link(response: Any, ids: Ids) -> None:
    """An item without a source has link "" (spec 2.2); the SDK decodes `link` as a URL."""
    note = next(entry for entry in response.json() if entry["id"] == ids.note)
    assert note["link"] == ""
    assert swift_problems(DK_ITEM, note) == ["DKItem.link: '' does not decode as URL"]


def item_types(response: Any, ids: Ids) -> None:
    """Search results of items carry the item's type (spec 2.11, 4.9: image, link, ...), which
    DKResponseListAny does not know (collection, item, reaction, comment, invite)."""
    items = [entry for entry in response.json() if entry.get("collection_id") is not None]
    assert {entry["id"]: entry["type"] for entry in items}.get(ids.link) == "link", items


# fmt: off
CONFLICTS = [
    Call("gem: Collection.find(id)", lambda i: gem.get(f"/collections/{i.trips}"), 200, array_of_one()),
    Call("gem: Item.find(id)", lambda i: gem.get(f"/items/{i.link}"), 200, array_of_one()),
    Call("swift: getCollection", lambda i: swift.request("GET", f"/collections/{i.trips}", SWIFT_COLLECTION),
         200, array_of_one(DK_COLLECTION)),
    Call("swift: getItem", lambda i: swift.request("GET", f"/items/{i.link}", SWIFT_ITEM),
         200, array_of_one(DK_ITEM)),
    Call("gem: item.save where Item has method_for :update, :post",
         lambda i: gem.post(f"/items/{i.link}", {"id": i.link, "name": "Memo"}),
         405, refused("method_not_allowed", allow="PUT")),
    Call("swift: createTagForItem", lambda i: swift.request("POST", f"/items/{i.link}", {"name": "museum"}),
         405, refused("method_not_allowed")),
    Call("swift: copyItems",
         lambda i: swift.request("POST", "/items/copy", {"items": [i.note], "collection_id": i.recipes}),
         405, refused("method_not_allowed", allow="PUT")),
    Call("gem: collection.items, Item.where(collection_id:)",
         lambda i: gem.get(f"/collections/{i.trips}/items"), 405, refused("method_not_allowed")),
    Call("swift: listItemsInCollection",
         lambda i: swift.request("GET", f"/collections/{i.trips}/items", {"page": 1, "parent_id": ""}),
         405, refused("method_not_allowed")),
    Call("gem: Item.count(collection_id:)", lambda i: gem.get(f"/collections/{i.trips}/items/count"),
         404, refused("not_found")),
    Call("swift: getItemsCountForCollection", lambda i: swift.request("GET", f"/collections/{i.trips}/count"),
         404, refused("not_found")),
    Call("gem: Collection.sort(order)", lambda i: gem.put("/collections", {"order": [i.recipes, i.trips]}),
         405, refused("method_not_allowed")),
    Call("gem: Tag.create(item_id:, name:)",
         lambda i: gem.post("/tags", {"item_id": i.link, "name": "museum"}),
         405, refused("method_not_allowed")),
    Call("gem: user.collections", lambda i: gem.get("/users/me/collections"), 404, refused("not_found")),
    Call("gem: team.collections", lambda i: gem.get(f"/teams/{i.team}/collections"),
         404, refused("not_found")),
    Call("gem: Email.where(user_id:) (older email.rb)", lambda i: gem.get(f"/users/{PRO}/emails"),
         404, refused("not_found")),
    Call("swift: createUserInTeam",
         lambda i: swift.request("POST", f"/teams/{i.team}/users",
                                 {"email": i.stranger_email, "kind": "user"}),
         201, members),
    Call("swift: updateUserInTeam",
         lambda i: swift.request("PUT", f"/teams/{i.team}/users/{FREE}", {"kind": "manager"}), 200, members),
    Call("swift: activity", lambda i: swift.request("GET", "/activity", {"page": 1, **SWIFT_PAGE}),
         200, without_collection_id),
    Call("swift: listItems (an item without a link)",
         lambda i: swift.request("GET", "/items", {"collection_id": i.trips, **TRIPS_PAGE}), 200, empty_link),
    Call("swift: search (the types of items)",
         lambda i: swift.request("GET", "/search", {"q": "lisbon", **SWIFT_PAGE, **SWIFT_ITEM}),
         200, item_types),
    Call("gem: collection.items.create(content:) (README, no type)",
         lambda i: gem.post(f"/collections/{i.trips}/items",
                            {"collection_id": i.trips, "content": "http://dropmark.com"}),
         400, refused("invalid_input")),
    Call("swift: createUser", lambda i: swift.request("POST", "/users/signup", {"name": "Ann"}),
         404, refused("not_found")),
    Call("swift: deleteUser", lambda i: swift.request("DELETE", "/users/me"),
         405, refused("method_not_allowed")),
]
# fmt: on


@pytest.mark.parametrize("call", CONFLICTS, ids=[call.name for call in CONFLICTS])
def test_spec_over_client(client: Any, store: Store, ids: Ids, call: Call):
    """docs/client-conflicts.md, row by row: the mock answers as the spec says, not as the client expects."""
    response = send(call, client, store, ids)
    assert response.status_code == call.status, response.text
    call.answer(response, ids)


def collection_as_the_gem_holds_it(client: Any, store: Store, user: int, name: str) -> dict[str, Any]:
    body = gem.get("/collections").send(client, (user, store.accounts[user].token)).json()
    record = next(entry for entry in body if entry["name"] == name)
    return her_attributes(record, ("created_at", "updated_at", "last_accessed_at"))


@pytest.mark.parametrize("faraday", FARADAYS)
def test_gem_save_of_a_free_accounts_collection_is_402(client: Any, store: Store, ids: Ids, faraday: str):
    """The gem sends the paid-only fields back unchanged (labels, view_mode, sort_by...): a free
    account's collection.save is a 402 (docs/design.md, paid-only fields), and nothing changes."""
    attributes = {**collection_as_the_gem_holds_it(client, store, FREE, "Free notes"), "name": "Notes"}
    credentials = (FREE, store.accounts[FREE].token)
    response = Gem(faraday).put(f"/collections/{ids.free_notes}", attributes).send(client, credentials)
    assert response.status_code == 402, response.text
    refused("paid_plan_required")(response, ids)
    assert store.collections[ids.free_notes].name == "Free notes"


def test_gem_save_of_a_collection_by_a_collaborator_is_403_unless_user_id_stays_out(
    client: Any, store: Store, ids: Ids
):
    """The gem sends `user_id` (the owner) back: from a collaborator that is a change of owner,
    which only the owner may make (403), even to the same owner. Without it (Her's
    send_only_modified_attributes) the save goes through."""
    store.accounts[FREE].plan = "pro"  # a paid collaborator: the paid fields are not the point here
    credentials = (FREE, store.accounts[FREE].token)
    attributes = {**collection_as_the_gem_holds_it(client, store, FREE, "Trips"), "name": "Porto"}
    response = gem.put(f"/collections/{ids.trips}", attributes).send(client, credentials)
    assert response.status_code == 403, response.text
    refused("forbidden")(response, ids)
    assert store.collections[ids.trips].name == "Trips"
    response = gem.put(f"/collections/{ids.trips}", {"name": "Porto"}).send(client, credentials)
    assert response.status_code == 200, response.text
    assert store.collections[ids.trips].name == "Porto"


# ---------------------------------------------------------------------- strict mode
OFF_CONTRACT = [(sdk, call) for sdk, call in CALLS if call.unknown]


@pytest.fixture(scope="module")
def strict_client(_shared: Any) -> Iterator[Any]:
    """`create_app(strict_requests=True)` over the tests' store (reset and filled by `ids`)."""
    app = create_app(_shared.store, api_key=API_KEY, strict_requests=True)
    with app.test_client() as test_client:
        yield test_client


@table(OFF_CONTRACT)
def test_strict_requests_refuses_off_contract_calls(
    strict_client: Any, store: Store, ids: Ids, sdk: str, call: Call
):
    before = store.snapshot()
    response = send(call, strict_client, store, ids)
    assert response.status_code == 400, response.text
    body = response.json()
    assert set(body) == {"code", "message"} and body["code"] == "invalid_input" and body["message"], body
    assert store.snapshot() == before  # nothing changed
