"""Sessions (mock_server/sessions.py, docs/design.md "Sessions"): `X-Mock-Session: NAME` selects a
sandbox of the whole state, made on first use from the server's fixtures and seed.

First the registry alone (a fake clock), then over HTTP in process (one app, seed 7, at most
MAX named sessions), then a real `csapi serve` with two clients in threads."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.control import Controls
from csapi.mock_server.serve import ServeOptions, ServeUsageError, check
from csapi.mock_server.sessions import BadSessionName, Session, Sessions, Template, TooManySessions
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, assert_error, basic, empty_data
from tests.mock_server.served import Served

SEED = 7
MAX = 4


# ---------------------------------------------------------------------- the registry alone
class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def _controls() -> Controls:
    return Controls()


def registry(controls: Controls, clock: FakeClock, **bounds: Any) -> Sessions:
    default = Session(None, Store(data=empty_data()), controls)
    return Sessions(default, Template("empty", 0), clock=clock, **bounds)


def test_a_session_is_made_on_first_use_then_reused(_controls: Controls):
    sessions = registry(_controls, FakeClock())
    a = sessions.get("a")
    assert sessions.get("a") is a and sessions.get(None) is sessions.default
    b = sessions.get("b")
    assert b is not a and b.store is not a.store and b.controls is not a.controls
    assert b.controls.journal is not a.controls.journal and b.controls.faults is not a.controls.faults
    assert b.controls.operations is _controls.operations  # server-wide: shared
    assert b.controls.journal.usage is _controls.journal.usage  # the run's totals (the report)
    assert sessions.names() == ["a", "b"] and len(sessions) == 2
    assert a.store.snapshot() == Store(data=generate("empty", 0)).snapshot()
    a.store.create_user(plan="free", name="only in a")
    assert len(b.store.accounts) == len(a.store.accounts) - 1  # each loads its own copy


def test_an_idle_session_expires_after_the_ttl(_controls: Controls):
    clock = FakeClock()
    sessions = registry(_controls, clock, ttl=10)
    a, other = sessions.get("a"), sessions.get("other")
    clock.now += 9
    assert sessions.get("a") is a  # used: idle from now on
    clock.now += 9
    assert sessions.get("a") is a
    assert sessions.names() == ["a"]  # `other` was idle 18 s
    clock.now += 10.5
    fresh = sessions.get("a")
    assert fresh is not a and fresh.store is not a.store
    assert sessions.get("other") is not other


def test_past_the_maximum_making_one_is_refused_until_one_expires(_controls: Controls):
    clock = FakeClock()
    sessions = registry(_controls, clock, max_sessions=2, ttl=100)
    a = sessions.get("a")
    clock.now += 30
    sessions.get("b")
    with pytest.raises(TooManySessions) as refused:
        sessions.get("c")
    assert refused.value.retry_after == 70  # when `a` is dropped
    assert sessions.get("a") is a and sessions.get(None) is sessions.default  # the others still work
    clock.now += 101
    assert sessions.get("c").name == "c"
    assert sessions.names() == ["c"]


def test_the_default_session_is_never_dropped_nor_counted(_controls: Controls):
    clock = FakeClock()
    sessions = registry(_controls, clock, max_sessions=0, ttl=1)
    default = sessions.get(None)
    clock.now += 10_000
    assert sessions.get(None) is default and len(sessions) == 0
    with pytest.raises(TooManySessions):
        sessions.get("a")


@pytest.mark.parametrize("name", ["", "a b", "x" * 65, "é", "a,b", "../a", "a.b"])
def test_a_name_is_letters_digits_underscores_and_dashes(_controls: Controls, name: str):
    sessions = registry(_controls, FakeClock())
    with pytest.raises(BadSessionName):
        sessions.get(name)
    assert sessions.get("A-z_09" + "x" * 58).name == "A-z_09" + "x" * 58  # 64 characters
    assert sessions.names() == ["A-z_09" + "x" * 58]


def test_requests_that_open_a_new_session_together_share_one(_controls: Controls):
    sessions = registry(_controls, FakeClock(), max_sessions=1)
    built: list[Store] = []
    new_store = sessions.new_store

    def counted() -> Store:
        built.append(new_store())
        return built[-1]

    sessions.new_store = counted  # type: ignore[method-assign]

    async def both() -> list[Session]:
        return list(await asyncio.gather(sessions.open("x"), sessions.open("x"), sessions.open("x")))

    first, second, third = asyncio.run(both())
    assert first is second is third and len(built) == 1 and first.store is built[0]


# ---------------------------------------------------------------------- over HTTP, in process
@pytest.fixture(scope="module")
def _app() -> Any:
    return create_app(api_key=API_KEY, seed=SEED, max_sessions=MAX)


@pytest.fixture
def client(_app: Any) -> Iterator[Any]:
    with _app.test_client() as test_client:
        yield test_client
    for name in _app.state.sessions.names():
        _app.state.sessions.drop(name)


def credentials(client: Any, session: str | None) -> dict[str, Any]:
    response = client.get("/__mock__/credentials", headers=_in(session))
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _in(session: str | None) -> dict[str, str]:
    return {"X-Mock-Session": session} if session is not None else {}


class As:
    """User 1 of a session (the default one for None), signed in with that session's credentials."""

    def __init__(self, client: Any, session: str | None):
        self.client = client
        user = credentials(client, session)["users"][0]
        self.headers = {
            "X-API-Key": API_KEY,
            "Authorization": basic(user["id"], user["token"]),
            **_in(session),
        }

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        response: httpx.Response = self.client.request(method, path, headers=self.headers, **kwargs)
        return response

    def create(self, name: str) -> int:
        response = self.request("POST", "/v1/collections", json={"name": name, "type": "private"})
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    def names(self) -> set[str]:
        response = self.request("GET", "/v1/collections", params={"per_page": 100})
        assert response.status_code == 200, response.text
        return {c["name"] for c in response.json()}


def test_sessions_never_see_each_others_data(client: Any):
    default, alice, bob = As(client, None), As(client, "alice"), As(client, "bob")
    before = default.names()  # the default session's read is kept in the read cache now
    assert alice.names() == bob.names() == before  # the same fixtures and seed
    a1, a2 = alice.create("alice-1"), alice.create("alice-2")
    b1 = bob.create("bob-1")
    assert b1 == a1  # the same ids in another sandbox: other collections
    assert alice.names() == before | {"alice-1", "alice-2"}
    assert bob.names() == before | {"bob-1"}
    assert default.names() == before
    assert alice.request("DELETE", f"/v1/collections/{a1}").status_code == 200
    assert alice.names() == before | {"alice-2"}
    assert bob.names() == before | {"bob-1"}
    assert bob.request("GET", f"/v1/collections/{a2}").status_code == 404
    assert default.request("GET", f"/v1/collections/{b1}").status_code == 404
    default.create("default-1")
    assert "default-1" not in alice.names() | bob.names()


def test_each_sessions_credentials_are_those_of_a_fresh_mock(client: Any):
    fresh = create_app(api_key=API_KEY, seed=SEED)
    with fresh.test_client() as other:
        expected = credentials(other, None)
    client.post("/__mock__/users", json={"plan": "pro"})  # the default session changes: no matter
    assert credentials(client, "one") == expected
    created = client.post("/__mock__/users", json={"plan": "pro"}, headers=_in("one")).json()
    assert credentials(client, "two") == expected
    signed_in = {"X-API-Key": API_KEY, "Authorization": basic(created["id"], created["token"])}
    assert client.get("/v1/collections", headers={**signed_in, **_in("one")}).status_code == 200
    assert_error(client.get("/v1/collections", headers={**signed_in, **_in("two")}), 401, "unauthorized")


def test_the_admin_api_acts_on_the_requests_session(client: Any):
    alice, bob = As(client, "alice"), As(client, "bob")
    alice.create("kept")
    saved = client.get("/__mock__/snapshot", headers=_in("alice")).json()
    assert "kept" in {c["name"] for c in saved["collections"]}
    assert "kept" not in {c["name"] for c in client.get("/__mock__/snapshot").json()["collections"]}
    restored = client.put("/__mock__/snapshot", json=saved, headers=_in("bob"))
    assert restored.status_code == 200
    assert "kept" in bob.names()
    assert client.post("/__mock__/reset", json={"seed": SEED}, headers=_in("alice")).status_code == 200
    assert "kept" not in alice.names() and "kept" in bob.names()
    # the journal
    client.delete("/__mock__/requests", headers=_in("bob"))
    alice.names()
    alice_seen = client.get("/__mock__/requests", headers=_in("alice")).json()
    assert alice_seen[0]["path"] == "/v1/collections" and alice_seen[0]["status"] == 200
    assert client.get("/__mock__/requests", headers=_in("bob")).json() == []
    assert client.delete("/__mock__/requests", headers=_in("alice")).status_code == 204
    bob.names()
    assert client.get("/__mock__/requests", headers=_in("alice")).json() == []
    assert len(client.get("/__mock__/requests", headers=_in("bob")).json()) == 1


def test_a_fault_fires_only_in_its_session(client: Any):
    default, alice, bob = As(client, None), As(client, "alice"), As(client, "bob")
    fault = {"operation": "collections.list_collections", "status": 503}
    assert client.post("/__mock__/faults", json=fault, headers=_in("alice")).status_code == 201
    try:
        assert_error(alice.request("GET", "/v1/collections"), 503, "service_unavailable")
        assert bob.request("GET", "/v1/collections").status_code == 200
        assert default.request("GET", "/v1/collections").status_code == 200
        assert client.get("/__mock__/faults", headers=_in("bob")).json() == []
        assert client.get("/__mock__/faults").json() == []
        assert [f["operation"] for f in client.get("/__mock__/faults", headers=_in("alice")).json()] == [
            fault["operation"]
        ]
    finally:
        client.delete("/__mock__/faults", headers=_in("alice"))
    assert alice.request("GET", "/v1/collections").status_code == 200


def test_past_the_maximum_a_new_session_is_a_429(client: Any):
    for n in range(MAX):
        assert client.get("/__mock__/credentials", headers=_in(f"s{n}")).status_code == 200
    response = client.get("/v1/ping", headers={"X-API-Key": API_KEY, **_in("one-too-many")})
    assert_error(response, 429, "too_many_sessions")
    assert int(response.headers["Retry-After"]) >= 1
    assert client.get("/v1/ping", headers={"X-API-Key": API_KEY, **_in("s0")}).status_code == 200
    assert client.get("/v1/ping", headers={"X-API-Key": API_KEY}).status_code == 200


@pytest.mark.parametrize("value", ["", "a b", "x" * 65, "café".encode(), "a,b"])
def test_a_bad_session_name_is_a_400(client: Any, _app: Any, value: str | bytes):
    response = client.get("/v1/ping", headers={"X-API-Key": API_KEY, "X-Mock-Session": value})
    body = assert_error(response, 400, "invalid_input")
    assert "X-Mock-Session" in body["message"]
    assert_error(client.get("/__mock__/credentials", headers={"X-Mock-Session": value}), 400, "invalid_input")
    assert _app.state.sessions.names() == []


def test_two_session_headers_are_a_400(client: Any):
    headers = [("X-API-Key", API_KEY), ("X-Mock-Session", "a"), ("X-Mock-Session", "b")]
    assert_error(client.get("/v1/ping", headers=headers), 400, "invalid_input")


def test_a_preflight_needs_no_session_and_errors_carry_cors(client: Any):
    origin = {"Origin": "http://localhost:3000"}
    preflight = client.options(
        "/v1/collections",
        headers={
            **origin,
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "x-mock-session",
        },
    )
    assert preflight.status_code == 204
    assert preflight.headers["Access-Control-Allow-Headers"].lower() == "x-mock-session"
    refused = client.get("/v1/ping", headers={**origin, "X-Mock-Session": "no good"})
    assert refused.status_code == 400
    assert refused.headers["Access-Control-Allow-Origin"] == origin["Origin"]


def test_serve_refuses_bad_bounds():
    with pytest.raises(ServeUsageError, match="--max-sessions"):
        check(ServeOptions(max_sessions=-1))
    with pytest.raises(ServeUsageError, match="--session-ttl"):
        check(ServeOptions(session_ttl=0))


# ---------------------------------------------------------------------- a real server, two clients
def test_two_clients_in_their_sessions_never_see_each_other(tmp_path: Path):
    state = tmp_path / "state.json"
    rounds = 30
    with Served("--fixtures", "empty", "--max-sessions", "2", "--state", str(state)) as served:
        seen: dict[str, list[set[str]]] = {}
        errors: list[BaseException] = []

        def work(session: str) -> None:
            try:
                with httpx.Client(base_url=served.base_url, timeout=10) as http:
                    headers = {"X-Mock-Session": session}
                    user = http.get("/__mock__/credentials", headers=headers).json()
                    api_key, pro = user["api_key"], user["users"][0]
                    headers |= {"X-API-Key": api_key, "Authorization": basic(pro["id"], pro["token"])}
                    views = seen[session] = []
                    for n in range(rounds):
                        made = http.post(
                            "/v1/collections",
                            headers=headers,
                            json={"name": f"{session}-{n}", "type": "private"},
                        )
                        assert made.status_code == 201, made.text
                        listed = http.get("/v1/collections", headers=headers, params={"per_page": 100})
                        assert listed.status_code == 200, listed.text
                        views.append({c["name"] for c in listed.json()})
                        gone = http.delete(f"/v1/collections/{made.json()['id']}", headers=headers)
                        assert gone.status_code == 200, gone.text
            except BaseException as exc:  # reported by the main thread
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(name,)) for name in ("left", "right")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert not errors, errors
        for name, views in seen.items():
            assert views == [{f"{name}-{n}"} for n in range(rounds)]  # its own, one at a time
        third = served.client.get("/v1/ping", headers={"X-Mock-Session": "third"})
        assert third.status_code == 429 and third.json()["code"] == "too_many_sessions"
        assert served.client.get("/__mock__/snapshot").json()["collections"] == []
        status, _, err = served.stop()
    assert status == 0, err
    assert json.loads(state.read_text())["collections"] == []  # --state: the default session only
