"""Fixtures of the mock's tests: a store on the "empty" fixtures with a fixed clock, the app
over it (response validation on), a client, credentials per user, and a small world of data.

Building the app costs about half a second (connexion parses the document), so one app per
session serves every test: it holds the store by reference, and the `store` fixture resets
that store (fresh "empty" data, clock back at its start) before each test. A test that
needs another app (e.g. a small body cap) calls `create_app` itself.

The tests of BOTH_PATHS that use the app run twice: `[fast]` on the default app and `[public]`
on `create_app(..., fast_paths=False)` (connexion's documented behaviour alone, no speedups),
each with its own store and clock; the answers must be the same.

"empty" is: users 1 (pro), 2 (free), 3 (free) and team 4 (plan team; manager 1, member 2).
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest

from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store
from csapi.mock_server.store.records import Account

API_KEY = "test-key"
START = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC)
PRO, FREE, STRANGER, TEAM = 1, 2, 3, 4  # the accounts of the "empty" set
LISBON = (38.7223, -9.1393)
PORTO = (41.1579, -8.6291)  # about 274 km north of Lisbon


class Clock:
    """A clock that stands still unless a test moves it (`advance`)."""

    def __init__(self, start: datetime = START):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float = 1) -> datetime:
        self.now += timedelta(seconds=seconds)
        return self.now


_EMPTY = generate("empty", 0)


def empty_data() -> dict[str, Any]:
    """A fresh copy of the "empty" set (a store keeps references into the data it loads)."""
    return copy.deepcopy(_EMPTY)


@dataclass
class _Shared:
    store: Store
    clock: Clock
    app: Any


def _build(fast_paths: bool) -> _Shared:
    clock = Clock()
    store = Store(clock=clock, data=empty_data())
    app = create_app(store, api_key=API_KEY, validate_responses=True, fast_paths=fast_paths)
    return _Shared(store, clock, app)


@pytest.fixture(scope="session")
def _shared() -> _Shared:
    """The default app (fast paths on); module-scoped fixtures of the tests use it directly."""
    return _build(fast_paths=True)


@pytest.fixture(scope="session")
def _shared_public() -> _Shared:
    """The app on connexion's documented behaviour alone: built only if a `[public]` test runs."""
    return _build(fast_paths=False)


# The modules whose tests of the HTTP API (those using the `app` fixture) run on both apps: the
# core of the API and what goes through connexion's validation and security. Others run [fast] only.
BOTH_PATHS = frozenset(
    {"test_app", "test_collections", "test_items", "test_comments", "test_security", "test_hostile"}
)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if module in BOTH_PATHS and "app" in metafunc.fixturenames:
        metafunc.parametrize("fast_paths", [True, False], ids=["fast", "public"], indirect=True)


@pytest.fixture
def fast_paths(request: pytest.FixtureRequest) -> bool:
    """create_app's `fast_paths` of the test's app: True unless the test runs `[public]`."""
    return bool(getattr(request, "param", True))


@pytest.fixture
def _current(request: pytest.FixtureRequest, fast_paths: bool) -> _Shared:
    return request.getfixturevalue("_shared" if fast_paths else "_shared_public")


@pytest.fixture
def clock(_current: _Shared) -> Clock:
    _current.clock.now = START
    return _current.clock


@pytest.fixture
def store(_current: _Shared, clock: Clock) -> Store:
    """The "empty" set with a fixed clock, fresh for each test."""
    _current.store.reset(empty_data())
    return _current.store


@pytest.fixture
def app(_current: _Shared, store: Store) -> Any:
    """create_app(store, api_key="test-key", validate_responses=True, fast_paths=fast_paths)."""
    return _current.app


@pytest.fixture
def client(app: Any) -> Iterator[Any]:
    with app.test_client() as test_client:
        yield test_client


def basic(user_id: int, token: str) -> str:
    return "Basic " + base64.b64encode(f"{user_id}:{token}".encode()).decode()


def auth_headers(store: Store, user_id: int) -> dict[str, str]:
    """X-API-Key plus Basic id:token of the user, as a client sends them."""
    return {"X-API-Key": API_KEY, "Authorization": basic(user_id, store.accounts[user_id].token)}


class Api:
    """The client, signed in as a user of the store (user 1 unless told), with no 5xx allowed."""

    def __init__(self, client: Any, store: Store):
        self.client = client
        self.store = store

    def request(self, method: str, path: str, *, user: int | None = PRO, **kwargs: Any) -> httpx.Response:
        headers = auth_headers(self.store, user) if user is not None else {"X-API-Key": API_KEY}
        headers.update(kwargs.pop("headers", {}))
        response = self.client.request(method, path, headers=headers, **kwargs)
        assert response.status_code < 500, f"{method} {path} -> {response.status_code}: {response.text}"
        return response

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("POST", path, **kwargs)

    def put(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("PUT", path, **kwargs)

    def delete(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.request("DELETE", path, **kwargs)


@pytest.fixture
def api(client: Any, store: Store) -> Api:
    return Api(client, store)


def user(store: Store, account_id: int) -> Account:
    return store.accounts[account_id]


@dataclass
class World:
    """A few collections and items made through the store (ids for the tests to use).

    - trips (private, user 1, collaborator user 2): link@Lisbon tagged travel+food, text note,
      image@Porto tagged travel, stack holding a video and an audio, a file ("other")
    - recipes (public, user 1): one text item, tagged food
    - team_board (private, team 4): one link item by user 1
    - free_notes (private, user 2): one text item
    """

    trips: int
    recipes: int
    team_board: int
    free_notes: int
    link: int
    note: int
    image: int
    stack: int
    video: int
    audio: int
    file: int
    recipe: int
    team_link: int
    free_note: int


@pytest.fixture
def world(store: Store, clock: Clock) -> World:
    pro, free = store.accounts[PRO], store.accounts[FREE]

    def collection(owner: Account, name: str, kind: str, **extra: Any) -> int:
        clock.advance()
        return store.create_collection(owner, {"name": name, "type": kind, **extra}).id

    def item(owner: Account, collection_id: int, **body: Any) -> int:
        clock.advance()
        return store.create_item(owner, collection_id, body)[0].id

    trips = collection(pro, "Trips", "private", description="Where we went", users=[FREE])
    recipes = collection(pro, "Recipes", "public")
    team_board = collection(pro, "Team board", "private", user_id=TEAM)
    free_notes = collection(free, "Free notes", "private")
    link = item(
        pro,
        trips,
        type="link",
        content="https://example.com/lisbon",
        name="Lisbon guide",
        latitude=LISBON[0],
        longitude=LISBON[1],
        tags=["travel", "food"],
    )
    note = item(pro, trips, type="text", content="Pack the sunscreen", name="Packing list")
    image = item(
        free,
        trips,
        type="image",
        content="https://example.com/porto.jpg",
        name="Porto bridge",
        latitude=PORTO[0],
        longitude=PORTO[1],
    )
    store.create_tag(pro, image, "travel")
    stack = item(pro, trips, type="stack", name="Day one")
    video = item(
        pro, trips, type="video", content="https://example.com/day1.mp4", name="Tram ride", parent_id=stack
    )
    audio = item(
        pro, trips, type="audio", content="https://example.com/fado.mp3", name="Fado", parent_id=stack
    )
    file = item(pro, trips, type="other", content="ticket.pdf", name="Ticket")
    recipe = item(pro, recipes, type="text", content="Bacalhau com natas", name="Cod", tags=["food"])
    team_link = item(pro, team_board, type="link", content="https://example.com/plan", name="Plan")
    free_note = item(free, free_notes, type="text", content="Buy milk", name="Milk")
    return World(
        trips,
        recipes,
        team_board,
        free_notes,
        link,
        note,
        image,
        stack,
        video,
        audio,
        file,
        recipe,
        team_link,
        free_note,
    )


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """The response is the error body `{code, message}` of docs/design.md with this status and code."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body["code"] == code
    assert isinstance(body["message"], str) and body["message"]
    return body
