"""CORS (mock_server/cors.py, docs/design.md "Browsers and CORS"), in process: preflights on every
kind of path, simple and credentialed requests, errors and cached answers readable by the page,
`--cors-origin` limiting and `--no-cors`. A real browser is in test_browser.py."""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from csapi import cli
from csapi.mock_server import serve
from csapi.mock_server.app import create_app
from csapi.mock_server.cors import normalize_origin
from csapi.mock_server.serve import ServeOptions, ServeUsageError
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, PRO, World, assert_error, auth_headers

PAGE = "http://localhost:3000"
OTHER = "https://evil.example"
ASKED_HEADERS = "X-API-Key, Authorization, Content-Type, X-Custom"


def preflight(client: Any, path: str, method: str = "POST", origin: str = PAGE) -> Any:
    headers = {
        "Origin": origin,
        "Access-Control-Request-Method": method,
        "Access-Control-Request-Headers": ASKED_HEADERS,
    }
    return client.options(path, headers=headers)


def methods(response: Any) -> list[str]:
    return [m.strip() for m in response.headers["Access-Control-Allow-Methods"].split(",")]


def assert_allowed(response: Any, origin: str = PAGE) -> None:
    """The answer lets the page on `origin` read it, with credentials and X-Total-Count."""
    assert response.headers["Access-Control-Allow-Origin"] == origin
    assert response.headers["Access-Control-Allow-Credentials"] == "true"
    assert "Origin" in [v.strip() for v in response.headers["Vary"].split(",")]
    exposed = [h.strip().lower() for h in response.headers["Access-Control-Expose-Headers"].split(",")]
    assert "x-total-count" in exposed


def assert_no_cors(response: Any) -> None:
    assert not [name for name in response.headers if name.lower().startswith("access-control-")]


# ---------------------------------------------------------------------- preflights
def test_a_preflight_on_an_api_path_allows_its_methods_and_the_asked_headers(client, store, world: World):
    generation = store.generation
    response = preflight(client, f"/v1/collections/{world.trips}", method="PUT")
    assert response.status_code == 204
    assert response.content == b""
    assert response.headers["Access-Control-Allow-Origin"] == PAGE
    assert response.headers["Access-Control-Allow-Credentials"] == "true"
    assert sorted(methods(response)) == ["DELETE", "GET", "PUT"]
    assert response.headers["Access-Control-Allow-Headers"] == ASKED_HEADERS
    assert int(response.headers["Access-Control-Max-Age"]) > 0
    assert "Origin" in response.headers["Vary"]
    assert store.generation == generation  # nothing ran: not counted as a write


def test_a_preflight_needs_no_credentials_and_names_the_path_s_own_methods(client):
    assert sorted(methods(preflight(client, "/v1/collections"))) == ["GET", "POST"]
    assert sorted(methods(preflight(client, "/v1/collections/count", method="GET"))) == ["GET"]
    # a method the path does not have is left out: the browser refuses the request itself
    response = preflight(client, "/v1/collections", method="DELETE")
    assert response.status_code == 204
    assert "DELETE" not in methods(response)


@pytest.mark.parametrize("path", ["/v1/ui/", "/v1/openapi.json", "/v1/no-such-thing"])
def test_a_preflight_on_a_path_outside_the_document_is_204_too(client, path: str):
    response = preflight(client, path)
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == PAGE
    assert {"GET", "POST"} <= set(methods(response))
    assert response.headers["Access-Control-Allow-Headers"] == ASKED_HEADERS


def test_an_options_request_that_is_no_preflight_is_still_a_405(client):
    response = client.options("/v1/collections")  # no Origin
    assert_error(response, 405, "method_not_allowed")
    assert_no_cors(response)
    response = client.options("/v1/collections", headers={"Origin": PAGE})  # no Access-Control-Request-Method
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["Allow"] == "GET, POST"
    assert_allowed(response)  # a 405 the page can read


# ---------------------------------------------------------------------- simple and credentialed requests
def test_a_credentialed_read_exposes_x_total_count(client, store, world: World):
    response = client.get("/v1/collections", headers={**auth_headers(store, PRO), "Origin": PAGE})
    assert response.status_code == 200
    assert_allowed(response)
    assert int(response.headers["X-Total-Count"]) == len(response.json())


def test_a_simple_request_without_credentials_gets_the_headers(client):
    response = client.get("/v1/openapi.json", headers={"Origin": PAGE})
    assert response.status_code == 200
    assert_allowed(response)
    response = client.get("/v1/openapi.json", headers={"Origin": "null"})  # a page opened from a file
    assert response.status_code == 200
    assert_allowed(response, "null")


@pytest.mark.parametrize("origin", [PAGE, "null"])
def test_the_admin_api_gets_no_cors_for_any_origin(client, origin: str):
    """shield.py: a page cannot read the credentials nor preflight an admin write."""
    response = client.get("/__mock__/credentials", headers={"Origin": origin})
    assert response.status_code == 200  # answered, but the browser keeps it from the page
    assert_no_cors(response)
    for path in ("/__mock__/credentials", "/__mock__/reset"):
        response = preflight(client, path, origin=origin)
        assert response.status_code == 405
        assert_no_cors(response)


def test_a_write_gets_the_headers(client, store, world: World):
    headers = {**auth_headers(store, PRO), "Origin": PAGE}
    created = client.post("/v1/collections", headers=headers, json={"name": "From a page", "type": "private"})
    assert created.status_code == 201
    assert_allowed(created)
    deleted = client.delete(f"/v1/collections/{world.trips}", headers=headers)
    assert deleted.status_code == 200
    assert_allowed(deleted)


@pytest.mark.parametrize(
    ("method", "path", "kwargs", "status", "code"),
    [
        ("GET", "/v1/collections", {"user": None}, 401, "unauthorized"),
        ("GET", "/v1/collections/999999", {}, 404, "not_found"),
        ("POST", "/v1/collections", {"json": {"type": "nonsense"}}, 400, "invalid_input"),
        ("PATCH", "/v1/collections", {}, 405, "method_not_allowed"),
        ("GET", "/v1/no-such-thing", {}, 404, "not_found"),
    ],
)
def test_errors_carry_the_headers(client, store, method, path, kwargs, status, code):
    kwargs = dict(kwargs)
    headers = {"X-API-Key": API_KEY} if kwargs.pop("user", PRO) is None else auth_headers(store, PRO)
    response = client.request(method, path, headers={**headers, "Origin": PAGE}, **kwargs)
    assert_error(response, status, code)
    assert_allowed(response)


def test_the_read_cache_s_answers_carry_the_headers_of_their_own_request(client, store, world: World):
    headers = auth_headers(store, PRO)
    plain = client.get("/v1/collections", headers=headers)
    first = client.get("/v1/collections", headers={**headers, "Origin": PAGE})
    again = client.get("/v1/collections", headers={**headers, "Origin": PAGE})  # from the cache
    plain_again = client.get("/v1/collections", headers=headers)
    other = client.get("/v1/collections", headers={**headers, "Origin": "http://127.0.0.1:5173"})
    assert first.content == again.content == plain.content == other.content
    for response in (first, again):
        assert_allowed(response)
        assert response.headers["Vary"] == "Origin"  # not added twice to the kept answer
    assert_allowed(other, "http://127.0.0.1:5173")
    assert_no_cors(plain)
    assert_no_cors(plain_again)
    assert "Vary" not in plain_again.headers


def test_a_request_without_origin_gets_no_cors_header(client, store, world: World):
    response = client.get("/v1/collections", headers=auth_headers(store, PRO))
    assert response.status_code == 200
    assert_no_cors(response)


# ---------------------------------------------------------------------- --cors-origin, --no-cors
@pytest.fixture(scope="session")
def _limited_app(_shared):
    return create_app(_shared.store, api_key=API_KEY, cors_origins=[PAGE + "/", "http://127.0.0.1:5173"])


@pytest.fixture(scope="session")
def _no_cors_app(_shared):
    return create_app(_shared.store, api_key=API_KEY, cors=False)


@pytest.fixture
def limited(_limited_app, store: Store) -> Any:
    with _limited_app.test_client() as client:
        yield client


@pytest.fixture
def no_cors(_no_cors_app, store: Store) -> Any:
    with _no_cors_app.test_client() as client:
        yield client


def test_cors_origins_allow_only_those_origins(limited, store, world: World):
    assert_allowed(limited.get("/v1/collections", headers={**auth_headers(store, PRO), "Origin": PAGE}))
    response = preflight(limited, "/v1/collections", origin="http://127.0.0.1:5173")
    assert response.status_code == 204
    assert response.headers["Access-Control-Allow-Origin"] == "http://127.0.0.1:5173"

    refused = limited.get("/v1/collections", headers={**auth_headers(store, PRO), "Origin": OTHER})
    assert refused.status_code == 200  # answered as without CORS: the browser keeps it from the page
    assert_no_cors(refused)
    refused = preflight(limited, "/v1/collections", origin=OTHER)
    assert_error(refused, 405, "method_not_allowed")
    assert_no_cors(refused)
    assert_no_cors(limited.get("/v1/nothing", headers={"Origin": OTHER}))


def test_without_cors_there_are_no_headers_and_options_is_405(no_cors, store, world: World):
    response = preflight(no_cors, "/v1/collections")
    assert_error(response, 405, "method_not_allowed")
    assert_no_cors(response)
    response = no_cors.get("/v1/collections", headers={**auth_headers(store, PRO), "Origin": PAGE})
    assert response.status_code == 200
    assert_no_cors(response)
    assert_no_cors(no_cors.get("/v1/collections", headers={"Origin": PAGE}))  # a 401


@pytest.mark.parametrize(
    ("given", "origin"),
    [
        ("http://localhost:3000", "http://localhost:3000"),
        ("HTTP://LocalHost:3000/", "http://localhost:3000"),
        ("https://app.example.com", "https://app.example.com"),
        ("null", "null"),
    ],
)
def test_normalize_origin(given: str, origin: str):
    assert normalize_origin(given) == origin


@pytest.mark.parametrize("bad", ["localhost:3000", "http://localhost:3000/app", "http://", "http://h:x", "*"])
def test_serve_refuses_an_origin_that_is_not_one(bad: str):
    with pytest.raises(ServeUsageError, match="--cors-origin"):
        serve.check(ServeOptions(cors_origins=(bad,)))
    result = CliRunner().invoke(cli.main, ["serve", "--cors-origin", bad])
    assert result.exit_code == 2
    assert "--cors-origin" in result.output


def test_serve_refuses_cors_origin_with_no_cors():
    with pytest.raises(ServeUsageError, match="contradict"):
        serve.check(ServeOptions(cors=False, cors_origins=(PAGE,)))


def test_the_cli_options_reach_the_app(monkeypatch: pytest.MonkeyPatch):
    seen: list[ServeOptions] = []
    monkeypatch.setattr(serve, "run", lambda options, **kwargs: seen.append(options))
    runner = CliRunner()
    assert runner.invoke(cli.main, ["serve"]).exit_code == 0
    assert runner.invoke(cli.main, ["serve", "--no-cors"]).exit_code == 0
    args = ["serve", "--cors-origin", PAGE, "--cors-origin", "http://127.0.0.1:5173"]
    assert runner.invoke(cli.main, args).exit_code == 0
    assert [(o.cors, o.cors_origins) for o in seen] == [
        (True, ()),
        (False, ()),
        (True, (PAGE, "http://127.0.0.1:5173")),
    ]
    monkeypatch.undo()
    app, _, _ = serve.build(ServeOptions(fixtures="empty", cors_origins=(PAGE,)))
    with app.test_client(base_url="http://127.0.0.1") as client:  # serve checks Host
        assert_allowed(client.get("/v1/openapi.json", headers={"Origin": PAGE}))
        assert_no_cors(client.get("/v1/openapi.json", headers={"Origin": OTHER}))
