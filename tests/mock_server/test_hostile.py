"""Hostile input (issue 7, part 3): each request gets a 4xx with the `{code, message}` body (or,
where docs/design.md says so, a plain answer: an oversized per_page is clamped), never a 5xx, and
the state is exactly as it was. test_app.py already covers a non-UTF-8 JSON body, NaN and
1e400, malformed JSON, text/plain, page=0 and the body cap through the test client (and
test_tolerance.py what is ignored rather than refused: unknown fields, empty values);
test_schemathesis.py pins 950- and 100000-level nesting and owner_id=2**63.

Here also: the body cap holds at the ASGI level, where it matters (a huge Content-Length is
refused unread, an endless chunked body is read only to the cap).
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from csapi.mock_server.app import MAX_BODY_BYTES
from tests.mock_server.conftest import PRO, TEAM, Api, World, assert_error, auth_headers

BIG = 2**64  # beyond int64
DIGITS = "9" * 5000  # past Python's int-to-str limit (4300 digits): int() raises ValueError
JSON = {"Content-Type": "application/json"}
FORM = {"Content-Type": "application/x-www-form-urlencoded"}


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {"leaf": "x"}
    for _ in range(depth):
        value = {"k": value}
    return value


# (id, method, path, request arguments, status, code); {trips}, {note}... are the world's ids
CASES: list[tuple[str, str, str, dict[str, Any], int, str | None]] = [
    # paging: docs/design.md clamps per_page to 100 and answers [] past the end, however large
    ("per_page a million is clamped", "GET", "/v1/items?per_page=1000000", {}, 200, None),
    ("per_page beyond 64 bits is clamped", "GET", f"/v1/items?per_page={BIG}", {}, 200, None),
    ("page beyond 64 bits is past the end", "GET", f"/v1/items?page={BIG}", {}, 200, None),
    ("negative page", "GET", "/v1/items?page=-1", {}, 400, "invalid_input"),
    ("negative per_page", "GET", "/v1/collections?per_page=-5", {}, 400, "invalid_input"),
    ("zero per_page", "GET", "/v1/collections?per_page=0", {}, 400, "invalid_input"),
    ("NUL in a number", "GET", "/v1/collections?page=1%00", {}, 400, "invalid_input"),
    ("NUL in a search is text", "GET", "/v1/search?q=a%00b", {}, 200, None),
    # a parameter that takes one value, given twice
    ("page twice", "GET", "/v1/collections?page=1&page=2", {}, 400, "invalid_input"),
    ("per_page twice", "GET", "/v1/items?per_page=1&per_page=2", {}, 400, "invalid_input"),
    ("q twice", "GET", "/v1/search?q=lisbon&q=porto", {}, 400, "invalid_input"),
    ("collection_id twice", "GET", "/v1/items?collection_id={trips}&collection_id={recipes}", {}, 400,
     "invalid_input"),
    # ids beyond 64 bits, in the path, the query and the body
    ("path id beyond 64 bits", "GET", f"/v1/collections/{BIG}", {}, 400, "invalid_input"),
    ("path id of 400 digits", "DELETE", "/v1/items/" + "9" * 400, {}, 400, "invalid_input"),
    ("path id 2**63", "PUT", f"/v1/comments/{2**63}", {"json": {"body": "x"}}, 400, "invalid_input"),
    ("negative path id", "GET", "/v1/items/-1", {}, 400, "invalid_input"),
    ("NUL in a path id", "GET", "/v1/collections/1%00", {}, 404, "not_found"),
    ("invalid UTF-8 in a path id", "GET", "/v1/items/%ff", {}, 404, "not_found"),
    ("query id beyond 64 bits", "GET", f"/v1/items?collection_id={BIG}", {}, 400, "invalid_input"),
    # numbers past Python's int-to-str limit (issue 24): int() raised ValueError, a 500
    ("path id of 5000 digits", "GET", f"/v1/items/{DIGITS}", {}, 400, "invalid_input"),
    ("path id of 5000 digits on a delete", "DELETE", f"/v1/collections/{DIGITS}", {}, 400,
     "invalid_input"),
    ("second path id of 5000 digits", "DELETE", f"/v1/teams/{TEAM}/users/{DIGITS}", {}, 400,
     "invalid_input"),
    ("page of 5000 digits", "GET", f"/v1/items?page={DIGITS}", {}, 400, "invalid_input"),
    ("per_page of 5000 digits", "GET", f"/v1/collections?per_page={DIGITS}", {}, 400, "invalid_input"),
    ("query id of 5000 digits", "GET", f"/v1/items?collection_id={DIGITS}", {}, 400, "invalid_input"),
    ("body id of 5000 digits", "PUT", "/v1/items",
     {"content": f'{{"items": [{DIGITS}]}}'.encode(), "headers": JSON}, 400, "invalid_input"),
    ("body id of minus 5000 digits", "POST", "/v1/collections",
     {"content": f'{{"name": "n", "type": "private", "users": [-{DIGITS}]}}'.encode(), "headers": JSON},
     400, "invalid_input"),
    ("unknown body field of 5000 digits", "PUT", "/v1/items/{note}",
     {"content": f'{{"name": "x", "unknown": {DIGITS}}}'.encode(), "headers": JSON}, 400, "invalid_input"),
    ("form field of 5000 digits", "PUT", "/v1/items",
     {"content": f"items={DIGITS}".encode(), "headers": FORM},
     400, "invalid_input"),
    ("Prefer delay of 5000 digits", "GET", "/v1/ping", {"headers": {"Prefer": f"delay={DIGITS}"}}, 400,
     "invalid_input"),
    ("Prefer code of 5000 digits", "GET", "/v1/ping", {"headers": {"Prefer": f"code={DIGITS}"}}, 400,
     "invalid_input"),
    ("Prefer delay of a superscript digit", "GET", "/v1/ping", {"headers": {"Prefer": "delay=²".encode()}},
     400, "invalid_input"),
    ("body ids beyond 64 bits", "PUT", "/v1/items", {"json": {"items": [BIG]}}, 400, "invalid_input"),
    ("body collection_id beyond 64 bits", "PUT", "/v1/items",
     {"json": {"items": ["{note}"], "collection_id": BIG}}, 400, "invalid_input"),
    ("invited user beyond 64 bits", "POST", "/v1/collections",
     {"json": {"name": "n", "type": "private", "users": [BIG]}}, 400, "invalid_input"),
    ("parent_id beyond 64 bits", "POST", "/v1/collections/{trips}/items",
     {"json": {"type": "text", "content": "x", "parent_id": BIG}}, 400, "invalid_input"),
    ("order beyond 64 bits", "PUT", "/v1/collections/{trips}/items", {"json": {"order": [BIG]}}, 400,
     "invalid_input"),
    ("team member id beyond 64 bits", "POST", f"/v1/teams/{TEAM}/users", {"json": {"id": BIG}}, 400,
     "invalid_input"),
    # bytes that are not (JSON) text
    ("raw NUL in a JSON string", "POST", "/v1/collections",
     {"content": b'{"name": "a\x00b", "type": "private"}', "headers": JSON}, 400, "invalid_input"),
    ("NUL after the JSON", "POST", "/v1/collections",
     {"content": b'{"name": "a", "type": "private"}\x00', "headers": JSON}, 400, "invalid_input"),
    ("lone surrogate in an item's content", "POST", "/v1/collections/{trips}/items",
     {"content": b'{"type": "text", "content": "a\\ud800b"}', "headers": JSON}, 400, "invalid_input"),
    ("lone surrogate in a comment", "POST", "/v1/items/{note}/comments",
     {"content": b'{"body": "\\udc00"}', "headers": JSON}, 400, "invalid_input"),
    ("lone surrogate in a name", "PUT", "/v1/users/me",
     {"content": b'{"name": "x\\uDBFF"}', "headers": JSON}, 400, "invalid_input"),
    ("nested 40 deep inside an object", "POST", "/v1/collections/{trips}/items",
     {"json": {"type": "text", "content": "x", "metadata": nested(40)}}, 400, "invalid_input"),
    # content types
    ("a body without Content-Type", "POST", "/v1/collections",
     {"content": b'{"name": "a", "type": "private"}'}, 415, "unsupported_media_type"),
    ("a body without Content-Type on an update", "PUT", "/v1/items/{note}",
     {"content": b'{"name": "renamed"}'}, 415, "unsupported_media_type"),
    ("application/xml", "POST", "/v1/collections",
     {"content": b"<name>a</name>", "headers": {"Content-Type": "application/xml"}}, 415,
     "unsupported_media_type"),
    ("a made-up media type", "PUT", "/v1/collections/{trips}",
     {"content": b'{"name": "a"}', "headers": {"Content-Type": "garbage"}}, 415, "unsupported_media_type"),
    ("an empty Content-Type", "POST", "/v1/collections",
     {"content": b'{"name": "a", "type": "private"}', "headers": {"Content-Type": ""}}, 415,
     "unsupported_media_type"),
    # JSON of the wrong type
    ("a number for a name", "POST", "/v1/collections", {"json": {"name": 123, "type": "private"}}, 400,
     "invalid_input"),
    ("an array body", "POST", "/v1/collections", {"json": ["name", "type"]}, 400, "invalid_input"),
    ("a string body", "POST", "/v1/collections", {"json": "name"}, 400, "invalid_input"),
    ("a number body", "PUT", "/v1/items/{note}", {"json": 5}, 400, "invalid_input"),
    ("a null body", "POST", "/v1/collections", {"json": None}, 400, "invalid_input"),
    ("a null optional body", "DELETE", "/v1/items/{note}", {"content": b"null", "headers": JSON}, 400,
     "invalid_input"),
    ("a string for an array", "POST", "/v1/collections",
     {"json": {"name": "a", "type": "private", "users": "2"}}, 400, "invalid_input"),
    ("a string for a boolean", "PUT", "/v1/collections/{trips}", {"json": {"highlighted": "true"}}, 400,
     "invalid_input"),
    ("an array for a string", "POST", "/v1/collections/{trips}/items",
     {"json": {"type": "text", "content": ["x"]}}, 400, "invalid_input"),
    ("a string for a number", "PUT", "/v1/items/{note}", {"json": {"latitude": "38.7"}}, 400,
     "invalid_input"),
    ("an object in metadata", "PUT", "/v1/items/{note}", {"json": {"metadata": {"a": {"b": 1}}}}, 400,
     "invalid_input"),
    ("a number for a tag", "POST", "/v1/items/{note}/tags", {"json": {"name": 7}}, 400, "invalid_input"),
    ("booleans for ids", "PUT", "/v1/collections/{trips}/items", {"json": {"order": [True]}}, 400,
     "invalid_input"),
    ("fractions for ids", "DELETE", "/v1/collections/{trips}/items", {"json": {"items": [1.5]}}, 400,
     "invalid_input"),
]  # fmt: skip


def _fill(value: Any, world: World) -> Any:
    """The case with the world's ids in place of {trips}, {note}, ..."""
    ids = vars(world)
    if isinstance(value, str):
        return ids[value[1:-1]] if value[1:-1] in ids and value[0] == "{" else value.format(**ids)
    if isinstance(value, list):
        return [_fill(v, world) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, world) for k, v in value.items()}
    return value


def _state(store: Any) -> str:
    return json.dumps(store.snapshot(), sort_keys=True)


@pytest.mark.parametrize(("method", "path", "extra", "status", "code"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])  # fmt: skip
def test_hostile_request_is_refused_and_changes_nothing(
    api: Api,
    world: World,
    store,
    method: str,
    path: str,
    extra: dict[str, Any],
    status: int,
    code: str | None,
):
    before = _state(store)
    extra = _fill(extra, world) if "json" in extra else dict(extra)
    response = api.request(method, path.format(**vars(world)), **extra)
    if code is None:
        assert response.status_code == status, response.text
        assert isinstance(response.json(), list)
    else:
        assert_error(response, status, code)
    assert _state(store) == before


def test_oversized_pages_are_clamped_and_past_the_end_empty(api: Api, world: World):
    huge = api.get("/v1/items", params={"per_page": BIG})
    assert len(huge.json()) == int(huge.headers["X-Total-Count"]) == 9  # every live item user 1 can see
    assert api.get("/v1/items", params={"page": BIG}).json() == []


def test_a_surrogate_pair_is_text_and_kept(api: Api, world: World):
    """The guard refuses lone surrogates only: an escaped pair is one character (here an emoji)."""
    raw = b'{"type": "text", "content": "\\ud83d\\ude00", "name": "\\ud83c\\udf09 bridge"}'
    response = api.post(f"/v1/collections/{world.trips}/items", content=raw, headers=JSON)
    assert response.status_code == 201, response.text
    assert (response.json()["content"], response.json()["name"]) == ("\U0001f600", "\U0001f309 bridge")
    assert response.json()["size"] == 4  # bytes of the emoji in UTF-8


def test_a_5_mb_name_is_kept_whole_and_an_11_mb_one_refused(api: Api, world: World, store):
    """Spec 8 sets no length limit; the mock's only one is its 10 MiB body cap (spec-gaps)."""
    name = "n" * 5_000_000
    response = api.put(f"/v1/collections/{world.recipes}", json={"name": name})
    assert response.status_code == 200, response.text[:200]
    assert api.get(f"/v1/collections/{world.recipes}").json()[0]["name"] == name
    before = _state(store)
    assert_error(api.put(f"/v1/collections/{world.recipes}", json={"name": "m" * 11_000_000}), 413,
                 "payload_too_large")  # fmt: skip
    assert _state(store) == before


def test_a_chunked_body_under_the_cap_is_read(api: Api, store):
    """Regression: without Content-Length connexion took the body for none (400 "RequestBody is required")."""

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "streamed", '
        yield b'"type": "private"}'

    response = api.post("/v1/collections", content=chunks(), headers=JSON)
    assert response.status_code == 201, response.text
    assert [c.name for c in store.collections.values()] == ["streamed"]


# ---------------------------------------------------------------------- the body cap, at the ASGI level
def _call(app: Any, headers: dict[str, str], chunks: Iterator[bytes]) -> tuple[int, dict[str, Any], int]:
    """POST /v1/collections straight through the ASGI interface: (status, body, bytes the app read)."""
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        chunk = next(chunks, None)
        if chunk is None:
            return {"type": "http.request", "body": b"", "more_body": False}
        read += len(chunk)
        return {"type": "http.request", "body": chunk, "more_body": True}

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
        "path": "/v1/collections", "raw_path": b"/v1/collections", "query_string": b"", "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 50000), "server": ("testserver", 80),
    }  # fmt: skip
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return status, json.loads(body), read


def test_a_huge_content_length_is_refused_before_reading(app, store):
    headers = {**auth_headers(store, PRO), **JSON, "Content-Length": str(10**12)}
    status, body, read = _call(app, headers, itertools.repeat(b"x" * 65536))
    assert (status, body["code"], read) == (413, "payload_too_large", 0)
    assert store.collections == {}


def test_an_endless_chunked_body_is_read_only_to_the_cap(app, store):
    chunk = b"x" * 65536
    headers = {**auth_headers(store, PRO), **JSON, "Transfer-Encoding": "chunked"}  # no Content-Length
    status, body, read = _call(app, headers, itertools.repeat(chunk))
    assert (status, body["code"]) == (413, "payload_too_large")
    assert MAX_BODY_BYTES < read <= MAX_BODY_BYTES + len(chunk)
    assert store.collections == {}
    # and the app answers the next request as usual
    status, body, _ = _call(app, headers, iter([b'{"name": "after", "type": "private"}']))
    assert status == 201, body
    assert body["name"] == "after"


# ---------------------------------------------------------------------- issue 24: the admin API, served
DEEP = b"[" * 100_000  # Python's json recursed into a RecursionError on it
ADMIN_CASES: list[tuple[str, str, str, dict[str, Any], int]] = [
    ("limit of 10^20", "GET", f"/__mock__/requests?limit={10**20}", {}, 400),
    ("limit of 5000 digits", "GET", f"/__mock__/requests?limit={DIGITS}", {}, 400),
    ("negative limit", "GET", "/__mock__/requests?limit=-1", {}, 400),
    ("limit of a word", "GET", "/__mock__/requests?limit=ten", {}, 400),
    ("limit of a superscript digit", "GET", "/__mock__/requests?limit=%C2%B2", {}, 400),
    ("fault id of 5000 digits", "DELETE", f"/__mock__/faults/{DIGITS}", {}, 404),
    ("fault id of a superscript digit", "DELETE", "/__mock__/faults/%C2%B2", {}, 404),
    ("deep JSON reset", "POST", "/__mock__/reset", {"content": DEEP, "headers": JSON}, 400),
    ("deep text/plain reset", "POST", "/__mock__/reset",
     {"content": DEEP, "headers": {"Content-Type": "text/plain"}}, 0),
    ("deep JSON snapshot", "PUT", "/__mock__/snapshot", {"content": b'{"a":' * 50_000, "headers": JSON}, 400),
    ("deep JSON fault", "POST", "/__mock__/faults", {"content": DEEP, "headers": JSON}, 400),
    ("a seed of 5000 digits", "POST", "/__mock__/reset",
     {"content": f'{{"fixtures": "empty", "seed": {DIGITS}}}'.encode(), "headers": JSON}, 400),
    ("fault times of 5000 digits", "POST", "/__mock__/faults",
     {"content": f'{{"status": 503, "times": {DIGITS}}}'.encode(), "headers": JSON}, 400),
    ("a user's plan of 5000 digits", "POST", "/__mock__/users",
     {"content": f'{{"plan": {DIGITS}}}'.encode(), "headers": JSON}, 400),
    # JSON without its Content-Type is refused or read, never taken for an empty form
    ("JSON sent as a form", "POST", "/__mock__/reset",
     {"content": b'{"fixtures": "empty"}', "headers": FORM}, 0),
    ("JSON without a Content-Type", "POST", "/__mock__/reset", {"content": b'{"fixtures": "empty"}'}, 0),
    ("a fault sent as a form", "POST", "/__mock__/faults",
     {"content": b'{"status": 503}', "headers": FORM}, 0),
]  # fmt: skip


@pytest.fixture(scope="module")
def served() -> Iterator[Any]:
    from tests.mock_server.served import Served

    with Served("--api-key", "k") as server:
        yield server


def _admin_state(served: Any) -> tuple[Any, ...]:
    client = served.client
    return (
        client.get("/__mock__/snapshot").json(),
        client.get("/__mock__/faults").json(),
        client.get("/__mock__/credentials").json(),
    )


@pytest.mark.parametrize(("method", "path", "extra", "status"), [c[1:] for c in ADMIN_CASES],
                         ids=[c[0] for c in ADMIN_CASES])  # fmt: skip
def test_hostile_admin_request_to_a_real_server_is_4xx_and_changes_nothing(
    served: Any, method: str, path: str, extra: dict[str, Any], status: int
):
    """Status 0: any 4xx (the front layer may refuse the Content-Type first, 415, or the reader
    say the body is not what it wants, 400): never a 5xx, never a silent success."""
    before = _admin_state(served)
    response = served.client.request(method, path, **extra)
    assert 400 <= response.status_code < 500, response.text
    if status:
        assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"code", "message"} and len(body["message"]) < 1000
    assert _admin_state(served) == before


@pytest.mark.parametrize(
    ("method", "path", "extra"),
    [
        ("GET", f"/v1/items/{DIGITS}", {}),
        ("DELETE", f"/v1/collections/{DIGITS}", {}),
        ("GET", f"/v1/items?page={DIGITS}", {}),
        ("POST", "/v1/collections", {"content": f'{{"name": "n", "type": "private", "position": {DIGITS}}}'}),
        ("PUT", "/v1/items", {"content": f'{{"items": [{DIGITS}]}}'}),
    ],
    ids=["path id", "path id, delete", "page", "body field", "body id"],
)
def test_numbers_of_5000_digits_to_a_real_server_are_400(
    served: Any, method: str, path: str, extra: dict[str, Any]
):
    user = served.client.get("/__mock__/credentials").json()["users"][0]
    before = _admin_state(served)
    response = served.client.request(
        method, path, headers={"X-API-Key": "k", **JSON}, auth=(str(user["id"]), user["token"]), **extra
    )
    assert_error(response, 400, "invalid_input")
    assert _admin_state(served) == before
