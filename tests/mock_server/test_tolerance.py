"""Request tolerance (issue 14; docs/design.md, "Request tolerance" and "Request encoding").

By default the mock takes what the real service takes and the official clients send: unknown
query parameters and body fields are ignored, an empty value of a field that is not text is
null (nullable) or absent, a DELETE's parameters may come in the query string, forms nest keys
as Rails/Faraday and Alamofire write them, booleans may be 1/0. Each deviation is a finding at
`scope["csapi.findings"]`. What the document states is still a 400 that changes nothing.
`create_app(strict_requests=True)` (`serve --strict-requests`) refuses unknown fields and
parameters as before.

First the guard alone (what it hands connexion, and its findings), then the app end to end in
both modes, with the requests the gem (Her + Faraday) and the Swift SDK (Alamofire) make.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any
from urllib.parse import urlencode

import pytest
from click.testing import CliRunner

from csapi.cli import main
from csapi.mock_server.app import create_app
from csapi.mock_server.forms import form_to_json
from csapi.mock_server.guards import FINDINGS, REFUSED, GuardMiddleware
from csapi.mock_server.serve import ServeOptions, build
from tests.mock_server.conftest import API_KEY, FREE, PRO, Api, World, assert_error, auth_headers
from tests.mock_server.official_clients import FARADAY_017, alamofire_encode, faraday_encode

FORM = {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}  # as Alamofire sends it


# ---------------------------------------------------------------------- the clients' encodings
def faraday(params: dict[str, Any]) -> str:
    """Faraday's NestedParamsEncoder (the gem; official_clients.py): `a[b]=c`, `a[]=1`, `a[][b]=c`,
    nil as a bare key."""
    return faraday_encode(params, FARADAY_017)


alamofire = alamofire_encode  # URLEncoding.default: keys sorted, `a[]=1` arrays, `a[b]` objects, booleans 1/0


# ---------------------------------------------------------------------- the guard alone
def through_guard(
    method: str,
    path: str,
    query: str = "",
    body: bytes = b"",
    content_type: str | None = None,
    *,
    strict: bool = False,
    findings: list[dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], dict[str, Any], int]:
    """(the scope the guard was given, the scope and body it handed on, the status sent)."""
    handed: dict[str, Any] = {}
    statuses: list[int] = []

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        message = await receive()
        handed.update(scope=scope, body=message["body"])
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    headers = [(b"content-type", content_type.encode())] if content_type else []
    headers.append((b"content-length", str(len(body)).encode()))
    scope = {
        "type": "http",
        "method": method,
        "path": path,
        "query_string": query.encode(),
        "headers": headers,
    }
    if findings is not None:
        scope[FINDINGS] = findings
    asyncio.run(GuardMiddleware(inner, max_body=1 << 20, strict=strict)(scope, receive, send))
    return scope, handed, statuses[0]


def kinds(findings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    for finding in findings:
        assert set(finding) == {"kind", "name", "in", "message"}
        assert finding["message"].endswith(".") and finding["name"] in finding["message"]
    return [(f["kind"], f["name"], f["in"]) for f in findings]


def test_declared_parameters_pass_untouched_and_make_no_findings():
    scope, handed, _ = through_guard("GET", "/v1/items", "page=2&per_page=5&tags=a")
    assert handed["scope"]["query_string"] == b"page=2&per_page=5&tags=a"
    assert FINDINGS not in scope
    scope, handed, _ = through_guard("GET", "/v1/items")
    assert FINDINGS not in scope and handed["body"] == b""


def test_unknown_query_parameters_are_dropped_with_a_finding_each():
    # the Swift SDK's List items: its list and item defaults, one of them an operation's own
    scope, handed, _ = through_guard("GET", "/v1/items", "include%5B%5D=items&items_per_page=4&per_page=24")
    assert handed["scope"]["query_string"] == b"per_page=24"
    assert kinds(scope[FINDINGS]) == [
        ("unknown_parameter", "include", "query"),
        ("unknown_parameter", "items_per_page", "query"),
    ]


def test_empty_query_values_are_absent_unless_text():
    scope, handed, _ = through_guard("GET", "/v1/items", "parent_id=&type=&tags=&q=x&owned=")
    assert handed["scope"]["query_string"] == b"q=x"
    assert kinds(scope[FINDINGS]) == [
        ("empty_value", "parent_id", "query"),
        ("empty_value", "type", "query"),  # a string of an enum is not text
        ("empty_value", "tags", "query"),
        ("empty_value", "owned", "query"),
    ]
    _, handed, _ = through_guard("GET", "/v1/search", "q=")  # free text stays (minLength refuses it)
    assert handed["scope"]["query_string"] == b"q="


@pytest.mark.parametrize("strict", [False, True])
def test_boolean_query_parameters_may_be_1_or_0(strict: bool):
    scope, handed, _ = through_guard("GET", "/v1/collections/7", "log_access=1", strict=strict)
    assert handed["scope"]["query_string"] == b"log_access=true"
    _, handed, _ = through_guard("GET", "/v1/items", "owned=0&page=1", strict=strict)
    assert handed["scope"]["query_string"] == b"owned=false&page=1"
    assert FINDINGS not in scope  # an encoding, not a deviation


@pytest.mark.parametrize("query", ["tags[]=a&tags[]=b", "tags[0]=a&tags[1]=b", "tags=a,b", "tags=a&tags=b"])
def test_array_parameters_in_every_encoding(query: str):
    scope, handed, _ = through_guard("GET", "/v1/items", query)
    assert handed["scope"]["query_string"] == b"tags=a&tags=b"
    assert FINDINGS not in scope


def test_a_delete_takes_its_body_fields_from_the_query_string():
    query = "items%5B%5D=4&items%5B%5D=5&per_page=24"  # Alamofire: a DELETE's parameters go in the URL
    scope, handed, _ = through_guard("DELETE", "/v1/collections/3/items", query)
    assert handed["scope"]["query_string"] == b""
    assert json.loads(handed["body"]) == {"items": [4, 5]}
    assert (b"content-type", b"application/json") in handed["scope"]["headers"]
    assert kinds(scope[FINDINGS]) == [
        ("delete_parameter_in_query", "items", "query"),
        ("unknown_parameter", "per_page", "query"),
    ]
    _, handed, _ = through_guard("DELETE", "/v1/items/9", "delete_items=1")
    assert json.loads(handed["body"]) == {"delete_items": True}
    # a body sent as well wins over the query string
    body = b'{"delete_items": false}'
    _, handed, _ = through_guard("DELETE", "/v1/items/9", "delete_items=1", body, "application/json")
    assert json.loads(handed["body"]) == {"delete_items": False}


def test_a_whole_resource_sent_back_keeps_only_the_fields_of_the_operation():
    item = {  # what Get an item answers, changed and sent back (the gem's save)
        "id": 9,
        "collection_id": 3,
        "name": "Renamed",
        "created_at": "2026-11-21T12:00:00Z",
        "thumbnails": {"mini": "https://example.com/m.png"},
        "tags": ["travel"],
        "shareable": "",
        "parent_id": "",
        "sort_by": "",
    }
    body = json.dumps(item).encode()
    scope, handed, _ = through_guard("PUT", "/v1/items/9", body=body, content_type="application/json")
    assert json.loads(handed["body"]) == {"name": "Renamed", "tags": ["travel"], "parent_id": None}
    assert kinds(scope[FINDINGS]) == [
        ("unknown_field", "id", "body"),
        ("unknown_field", "collection_id", "body"),
        ("unknown_field", "created_at", "body"),
        ("unknown_field", "thumbnails", "body"),
        ("empty_value", "shareable", "body"),
        ("empty_value", "parent_id", "body"),
        ("unknown_field", "sort_by", "body"),
    ]
    assert "null" in scope[FINDINGS][5]["message"] and "absent" in scope[FINDINGS][4]["message"]


def test_a_nested_form_as_faraday_writes_it():
    form = faraday(
        {
            "name": "Renamed",
            "description": None,  # nil: a bare key, text: ""
            "parent_id": None,
            "shareable": None,
            "thumbnails": {"mini": "https://example.com/m.png"},
            "reactions": [{"id": 1, "user_id": 2}, {"id": 3, "user_id": 4}],
            "tags": ["travel", "food"],
            "metadata": {"gate": "A12"},
        }
    )
    scope, handed, _ = through_guard(
        "PUT", "/v1/items/9", body=form.encode(), content_type=FORM["Content-Type"]
    )
    assert json.loads(handed["body"]) == {
        "name": "Renamed",
        "description": None,  # a nullable text: nil sent as a bare key is null again
        "parent_id": None,
        "tags": ["travel", "food"],
        "metadata": {"gate": "A12"},
    }
    assert sorted(kinds(scope[FINDINGS])) == [
        ("empty_value", "description", "body"),
        ("empty_value", "parent_id", "body"),
        ("empty_value", "shareable", "body"),
        ("unknown_field", "reactions", "body"),
        ("unknown_field", "thumbnails", "body"),
    ]


def test_a_key_nested_deeper_than_its_field_is_a_field_of_its_own():
    # an item's answer has tags and metadata as objects; the gem sends them back so
    item = {"name": "x", "tags": [{"id": 1, "name": "travel"}], "metadata": [{"key": "gate", "value": "A12"}]}
    form = faraday(item).encode()
    scope, handed, _ = through_guard("PUT", "/v1/items/9", body=form, content_type=FORM["Content-Type"])
    assert json.loads(handed["body"]) == {"name": "x"}
    assert sorted(kinds(scope[FINDINGS])) == [
        ("unknown_field", "metadata[][key]", "body"),
        ("unknown_field", "metadata[][value]", "body"),
        ("unknown_field", "tags[][id]", "body"),
        ("unknown_field", "tags[][name]", "body"),
    ]
    assert form_to_json("PUT", "/v1/items/9", [("metadata[]", ""), ("tags[]", "")]) == {
        "metadata": {},
        "tags": [],
    }


def test_nested_form_keys_read_as_rails_reads_them():
    pairs = [("a[][b]", "1"), ("a[][c]", "2"), ("a[][b]", "3"), ("x[y][z]", "4"), ("l[]", "5"), ("l[]", "6")]
    assert form_to_json("PUT", "/v1/items/9", pairs) == {
        "a": [{"b": "1", "c": "2"}, {"b": "3"}],
        "x": {"y": {"z": "4"}},
        "l": ["5", "6"],
    }
    pairs = [("items[0]", "4"), ("items[1]", "5"), ("include[]", "items")]  # a known array, indexed
    assert form_to_json("PUT", "/v1/items", pairs) == {"items": [4, 5], "include": ["items"]}


@pytest.mark.parametrize("strict", [False, True])
def test_a_hostile_form_key_is_a_name_of_its_own(strict: bool):
    key = "x" + "[a]" * 5000  # nesting it would recurse past Python's limit (a 500)
    form = urlencode({key: "1", "body": "hi"}).encode()
    scope, handed, status = through_guard(
        "POST", "/v1/items/9/comments", body=form, content_type=FORM["Content-Type"], strict=strict
    )
    if strict:  # refused once authenticated, the name cut short in the message
        refused = handed["scope"][REFUSED]
        assert key[:97] + "..." in refused and len(refused) < 300
    else:
        assert json.loads(handed["body"]) == {"body": "hi"}
        [finding] = scope[FINDINGS]
        assert finding["name"] == key[:97] + "..." and len(finding["message"]) < 200


def test_the_fields_of_a_oneof_body_are_those_of_its_alternative():
    body = json.dumps({"order": [4, 5], "tags": ["x"]}).encode()  # tags belong to Update items
    scope, handed, _ = through_guard(
        "PUT", "/v1/collections/3/items", body=body, content_type="application/json"
    )
    assert json.loads(handed["body"]) == {"order": [4, 5]}
    assert kinds(scope[FINDINGS]) == [("unknown_field", "tags", "body")]


def test_a_body_on_an_operation_without_one_is_a_finding():
    scope, handed, _ = through_guard(
        "POST", "/v1/items/9/reactions", body=b'{"x": 1}', content_type="application/json"
    )
    assert kinds(scope[FINDINGS]) == [("unknown_field", "x", "body")]


def test_findings_go_to_the_list_made_above_and_every_copy_of_the_scope_shares_it():
    made: list[dict[str, Any]] = []
    scope, handed, _ = through_guard(
        "POST",
        "/v1/items/9/comments",
        "items_per_page=4",
        b"body=hi&item_id=9",
        FORM["Content-Type"],
        findings=made,
    )
    assert scope[FINDINGS] is made and handed["scope"] is not scope and handed["scope"][FINDINGS] is made
    assert kinds(made) == [
        ("unknown_parameter", "items_per_page", "query"),
        ("unknown_field", "item_id", "body"),
    ]
    assert json.loads(handed["body"]) == {"body": "hi"}


def test_strict_refuses_unknown_body_fields_and_leaves_the_rest_to_connexion():
    body = b'{"name": "A", "type": "private", "colour": "red", "size": 1}'
    scope, handed, _ = through_guard(
        "POST", "/v1/collections", body=body, content_type="application/json", strict=True
    )
    # refused by the operation once authenticated (app._bind), and the journal is told which fields
    assert "colour, size" in handed["scope"][REFUSED]
    refused = [(f["kind"], f["name"]) for f in scope[FINDINGS]]
    assert refused == [("unknown_field", "colour"), ("unknown_field", "size")]
    query = "bogus=1&delete_items=1"  # connexion's strict validation refuses these
    scope, handed, _ = through_guard("DELETE", "/v1/items/9", query, strict=True)
    assert handed["scope"]["query_string"] == query.encode() and json.loads(handed["body"]) == {}
    body = b'{"shareable": ""}'
    _, handed, status = through_guard(
        "PUT", "/v1/items/9", body=body, content_type="application/json", strict=True
    )
    assert (status, handed["body"]) == (204, body)  # handed on as it came: the schema refuses it


# ---------------------------------------------------------------------- the app, tolerant (the default)
def test_the_gems_save_of_a_collection_sends_it_whole_as_a_form(api: Api, world: World, store):
    collection = api.get(f"/v1/collections/{world.trips}").json()[0]
    form = faraday({**collection, "name": "Trips 2026"})
    response = api.put(f"/v1/collections/{world.trips}", content=form, headers=FORM)
    assert response.status_code == 200, response.text
    after = api.get(f"/v1/collections/{world.trips}").json()[0]
    assert after["name"] == "Trips 2026"
    same = ("type", "description", "sort_by", "sort_order", "view_mode", "labels", "archived", "user_id")
    assert {key: after[key] for key in same} == {key: collection[key] for key in same}


def test_the_gems_create_sends_path_ids_in_the_body(api: Api, world: World):
    form = faraday({"collection_id": world.trips, "type": "text", "content": "From the gem"})
    item = api.post(f"/v1/collections/{world.trips}/items", content=form, headers=FORM)
    assert item.status_code == 201, item.text
    form = faraday({"item_id": item.json()["id"], "body": "Nice"})
    comment = api.post(f"/v1/items/{item.json()['id']}/comments", content=form, headers=FORM)
    assert comment.status_code == 201, comment.text
    assert comment.json()["body"] == "Nice"


def test_the_sdks_requests_with_their_default_parameters(api: Api, world: World, store):
    sdk = {"include": ["users", "items"], "items_per_page": 4, "items_not_type": "stack", "per_page": 24}
    listed = api.get(f"/v1/collections?{alamofire(sdk)}")
    assert listed.status_code == 200, listed.text
    assert {"items", "users"} <= listed.json()[0].keys()
    assert api.get(
        f"/v1/items?{alamofire({'include': ['items'], 'items_per_page': 4, 'per_page': 24})}"
    ).json()
    assert api.get("/v1/tags?per_page=1000").status_code == 200
    query = alamofire({"include": ["users", "items"], "items_per_page": 4, "items_not_type": "stack"})
    created = api.post(
        f"/v1/collections?{query}", content=alamofire({"name": "SDK", "type": "private"}), headers=FORM
    )
    assert created.status_code == 201, created.text
    account = store.accounts[PRO]
    body = alamofire({"email": account.email, "password": account.password, "include": ["teams"]})
    signed_in = api.post("/v1/auth", user=None, content=body, headers=FORM)
    assert signed_in.status_code == 201, signed_in.text


def test_the_sdks_deletes_send_their_parameters_in_the_query(api: Api, world: World):
    response = api.delete(f"/v1/items/{world.stack}?{alamofire({'delete_items': True})}")
    assert response.status_code == 200, response.text
    assert api.get(f"/v1/items/{world.video}").status_code == 404  # the children went with it
    response = api.delete(
        f"/v1/collections/{world.trips}/items?{alamofire({'items': [world.note, world.link]})}"
    )
    assert response.status_code == 200, response.text
    assert [api.get(f"/v1/items/{i}").status_code for i in (world.note, world.link, world.image)] == [
        404,
        404,
        200,
    ]


@pytest.mark.parametrize("encoding", ["json", "form"])
def test_empty_values_are_null_or_absent(api: Api, world: World, encoding: str):
    assert api.put(f"/v1/items/{world.note}", json={"shareable": True}).status_code == 200
    before = {"latitude": 1.5, "description": "Tram"}
    assert api.put(f"/v1/items/{world.video}", json=before).status_code == 200
    body = {"shareable": "", "parent_id": "", "latitude": "", "description": "", "name": "Moved out"}
    sent = {"json": body} if encoding == "json" else {"content": urlencode(body), "headers": FORM}
    response = api.put(f"/v1/items/{world.video}", **sent)
    assert response.status_code == 200, response.text
    item = response.json()
    assert (item["parent_id"], item["latitude"], item["description"]) == (None, None, None)  # nullable
    assert (item["shareable"], item["name"]) == (None, "Moved out")  # shareable: absent, as it was
    assert api.put(f"/v1/items/{world.note}", **sent).json()["shareable"] is True  # absent: unchanged


@pytest.mark.parametrize(
    "body",
    [
        {"name": "A", "type": "secret", "colour": "red"},  # outside an enum
        {"name": "A", "type": "private", "users": "me", "id": 1},  # a wrong type
        {"type": "private", "created_at": "2026-01-01T00:00:00Z"},  # a required field missing
        {"name": "A", "type": "private", "highlighted": "maybe", "thumbnails": {}},
    ],
)
def test_what_the_document_states_is_still_enforced(api: Api, store, body):
    assert_error(api.post("/v1/collections", json=body), 400, "invalid_input")
    assert_error(api.post("/v1/collections", content=faraday(body), headers=FORM), 400, "invalid_input")
    assert store.collections == {}


def test_a_whole_item_sent_back_as_json_is_held_to_the_types(api: Api, world: World, store):
    """In JSON a value has its type: tags as the answer's objects are a wrong type, not a new field."""
    item = api.get(f"/v1/items/{world.link}").json()[0]
    before = json.dumps(store.snapshot(), sort_keys=True)
    assert_error(api.put(f"/v1/items/{world.link}", json={**item, "name": "x"}), 400, "invalid_input")
    assert json.dumps(store.snapshot(), sort_keys=True) == before
    # shareable is null in the answer and a boolean in a request: null there is a wrong type too
    kept = {key: value for key, value in item.items() if key not in ("tags", "metadata", "shareable")}
    response = api.put(f"/v1/items/{world.link}", json={**kept, "name": "Lisbon, the guide"})
    assert response.status_code == 200, response.text
    assert response.json()["name"] == "Lisbon, the guide"
    assert [t["name"] for t in response.json()["tags"]] == [t["name"] for t in item["tags"]]


def test_empty_values_of_required_fields_are_missing(api: Api, world: World, store):
    before = json.dumps(store.snapshot(), sort_keys=True)
    assert_error(
        api.post(f"/v1/collections/{world.trips}/items", json={"type": "", "content": "x"}),
        400,
        "invalid_input",
    )
    assert_error(api.put(f"/v1/collections/{world.trips}/items", json={"items": ""}), 400, "invalid_input")
    assert json.dumps(store.snapshot(), sort_keys=True) == before


# ---------------------------------------------------------------------- the app, strict
@pytest.fixture(scope="module")
def _strict_app(_shared):
    return create_app(_shared.store, api_key=API_KEY, validate_responses=True, strict_requests=True)


@pytest.fixture
def strict(_strict_app, store) -> Any:
    """A client of the strict app over the test's store (the shared one, fresh)."""
    with _strict_app.test_client() as client:
        yield Api(client, store)


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "named"),
    [
        ("POST", "/v1/collections", {"json": {"name": "A", "type": "private", "colour": "red"}}, "colour"),
        (
            "POST",
            "/v1/collections",
            {"data": {"name": "A", "type": "private", "thumbnails[mini]": "x"}},
            "thumbnails",
        ),
        (
            "POST",
            "/v1/auth",
            {"data": {"email": "a@example.net", "password": "p", "include[]": "teams"}},
            "include",
        ),
        ("GET", "/v1/collections?bogus=1", {}, "bogus"),
        ("GET", "/v1/items?per_page=5&items_per_page=4", {}, "items_per_page"),
        ("DELETE", "/v1/items/{note}?delete_items=1", {}, "delete_items"),
        ("DELETE", "/v1/collections/{trips}/items?items[]={note}", {}, "items[]"),
    ],
)
def test_strict_refuses_what_the_document_does_not_have(
    strict: Api, world: World, store, method, path, kwargs, named
):
    before = json.dumps(store.snapshot(), sort_keys=True)
    body = assert_error(strict.request(method, path.format(**vars(world)), **kwargs), 400, "invalid_input")
    assert named in body["message"]
    assert json.dumps(store.snapshot(), sort_keys=True) == before


def test_strict_asks_for_credentials_before_it_looks_at_the_fields(strict: Api, world: World, store):
    """A request without credentials is a 401 whatever its body (conform's ignored_auth)."""
    body = {"name": "A", "type": "private", "colour": "red"}
    before = json.dumps(store.snapshot(), sort_keys=True)
    anonymous = strict.post("/v1/collections", json=body, user=None)
    assert_error(anonymous, 401, "unauthorized")
    assert_error(strict.post("/v1/collections", json=body), 400, "invalid_input")
    assert json.dumps(store.snapshot(), sort_keys=True) == before


def test_strict_keeps_the_encodings_and_refuses_empty_values_of_json(strict: Api, world: World):
    assert_error(strict.put(f"/v1/items/{world.note}", json={"shareable": ""}), 400, "invalid_input")
    assert strict.put(f"/v1/items/{world.video}", data={"parent_id": ""}).json()["parent_id"] is None
    assert strict.get(f"/v1/items?{alamofire({'owned': True, 'tags': ['travel']})}").status_code == 200
    assert strict.delete(f"/v1/items/{world.stack}", data={"delete_items": "1"}).status_code == 200


def test_strict_refusals_are_journaled_with_what_was_refused(store):
    """--strict-requests holds a client to the letter; the journal still names each deviation."""
    app, served, _ = build(ServeOptions(fixtures="empty", api_key=API_KEY, strict_requests=True))
    with app.test_client(base_url="http://127.0.0.1") as client:  # serve checks Host
        headers = auth_headers(served, PRO)
        client.get("/v1/collections?items_per_page=4", headers=headers)
        client.post("/v1/collections", headers=headers, data={"name": "A", "type": "private", "id": "7"})
        posted, listed = client.get("/__mock__/requests").json()
    assert posted["status"] == listed["status"] == 400
    assert [(f["kind"], f["name"], f["in"]) for f in posted["findings"]] == [("unknown_field", "id", "body")]
    assert [(f["kind"], f["name"]) for f in listed["findings"]] == [("unknown_parameter", "items_per_page")]
    assert all("refused" in finding["message"] for finding in posted["findings"] + listed["findings"])


def test_serve_strict_requests(store):
    app, served, _ = build(ServeOptions(fixtures="empty", api_key=API_KEY, strict_requests=True))
    body = {"name": "A", "type": "private", "colour": "red"}
    with app.test_client(base_url="http://127.0.0.1") as client:  # serve checks Host
        response = client.post("/v1/collections", headers=auth_headers(served, PRO), json=body)
        assert_error(response, 400, "invalid_input")
    app, served, _ = build(ServeOptions(fixtures="empty", api_key=API_KEY))
    with app.test_client(base_url="http://127.0.0.1") as client:  # serve checks Host
        assert (
            client.post("/v1/collections", headers=auth_headers(served, FREE), json=body).status_code == 201
        )
    assert "--strict-requests" in CliRunner().invoke(main, ["serve", "--help"]).output
