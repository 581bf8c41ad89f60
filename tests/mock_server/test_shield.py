"""The front door (mock_server/shield.py): on raw ASGI scopes, then end to end with `csapi serve`."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from csapi.mock_server.serve import ServeOptions, bind_warning, build, resolve_seed
from csapi.mock_server.shield import Shield, ShieldOptions, host_name
from tests.mock_server.served import Served

PAGE = "http://localhost:3000"


# ---------------------------------------------------------------------- on raw scopes
def call(
    options: ShieldOptions, method: str, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, Any] | None, dict[str, Any] | None]:
    """(status, the error body or None, the scope the app below got or None)."""
    seen: list[dict[str, Any]] = []

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen.append(scope)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()]
    scope = {"type": "http", "method": method, "path": path, "headers": raw}
    asyncio.run(Shield(app, options)(scope, receive, send))
    status = sent[0]["status"]
    body = json.loads(sent[1]["body"]) if status != 200 else None
    return status, body, seen[0] if seen else None


LOOPBACK = ShieldOptions(allowed_hosts=frozenset({"mock.test"}))


@pytest.mark.parametrize(
    "host", ["127.0.0.1:8000", "localhost", "LOCALHOST:1", "[::1]:8000", "127.3.4.5", "mock.test:80"]
)
def test_a_loopback_host_or_an_allowed_one_passes(host: str):
    for path in ("/v1/collections", "/__mock__/credentials"):
        assert call(LOOPBACK, "GET", path, {"Host": host})[0] == 200


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "[::2]", "10.0.0.1"]
)
def test_another_host_is_refused_on_a_loopback_bind(host: str):
    for path in ("/v1/collections", "/__mock__/credentials"):
        status, body, below = call(LOOPBACK, "GET", path, {"Host": host})
        assert status == 421 and below is None
        assert (
            body is not None and body["code"] == "misdirected_request" and "--allowed-host" in body["message"]
        )


def test_no_host_passes_and_no_check_off_loopback():
    assert call(LOOPBACK, "GET", "/v1/collections")[0] == 200  # HTTP/1.0
    assert call(ShieldOptions(), "GET", "/v1/collections", {"Host": "evil.example"})[0] == 200


def test_host_name():
    assert host_name("Example.COM:80") == "example.com"
    assert host_name("[::1]:8000") == "[::1]"
    assert host_name("::1") == "::1"


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/json"],
)
def test_an_admin_write_of_another_type_is_a_415(content_type: str):
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        headers = {"Content-Type": content_type, "Content-Length": "2"}
        status, body, below = call(ShieldOptions(), method, "/__mock__/reset", headers)
        assert status == 415 and below is None
        assert body == {"code": "unsupported_media_type", "message": body["message"]}


def test_an_admin_write_with_a_body_and_no_type_is_a_415_without_a_body_it_passes():
    assert call(ShieldOptions(), "POST", "/__mock__/reset", {"Content-Length": "2"})[0] == 415
    assert call(ShieldOptions(), "POST", "/__mock__/reset", {"Transfer-Encoding": "chunked"})[0] == 415
    assert call(ShieldOptions(), "POST", "/__mock__/reset", {"Content-Length": "0"})[0] == 200
    json_type = {"Content-Type": "application/json; charset=utf-8", "Content-Length": "2"}
    assert call(ShieldOptions(), "POST", "/__mock__/reset", json_type)[0] == 200
    # the service's own routes are the guards' business: forms are welcome there
    form = {"Content-Type": "application/x-www-form-urlencoded", "Content-Length": "2"}
    assert call(ShieldOptions(), "POST", "/v1/collections", form)[0] == 200


def test_an_admin_request_from_another_origin_loses_its_origin_and_a_write_is_refused():
    status, _, below = call(ShieldOptions(), "GET", "/__mock__/credentials", {"Origin": PAGE})
    assert status == 200 and below is not None and b"origin" not in dict(below["headers"])
    status, body, _ = call(ShieldOptions(), "POST", "/__mock__/reset", {"Origin": PAGE, "Host": "127.0.0.1"})
    assert status == 403 and body is not None and "--admin-origin" in body["message"]
    same = {"Origin": "http://127.0.0.1:8000", "Host": "127.0.0.1:8000"}
    assert call(ShieldOptions(), "POST", "/__mock__/reset", same)[0] == 200  # the server's own page
    # a service route keeps its Origin: CORS for any page
    _, _, below = call(ShieldOptions(), "GET", "/v1/collections", {"Origin": PAGE})
    assert below is not None and (b"origin", PAGE.encode()) in below["headers"]


def test_an_admin_origin_keeps_its_origin_and_may_write():
    options = ShieldOptions(admin_origins=(PAGE + "/",))
    status, _, below = call(options, "GET", "/__mock__/credentials", {"Origin": PAGE})
    assert status == 200 and below is not None and (b"origin", PAGE.encode()) in below["headers"]
    headers = {"Origin": PAGE, "Content-Type": "application/json", "Content-Length": "2"}
    assert call(options, "POST", "/__mock__/reset", headers)[0] == 200
    assert call(options, "POST", "/__mock__/reset", {**headers, "Origin": "http://localhost:3001"})[0] == 403


def test_the_admin_token():
    options = ShieldOptions(admin_token="s3cret", admin_origins=(PAGE,))
    status, body, _ = call(options, "GET", "/__mock__/credentials")
    assert status == 401 and body is not None and body["code"] == "unauthorized"
    assert call(options, "GET", "/__mock__/credentials", {"X-Mock-Admin-Token": "s3cre"})[0] == 401
    assert call(options, "GET", "/__mock__/credentials", {"X-Mock-Admin-Token": "s3cret"})[0] == 200
    assert call(options, "GET", "/v1/collections")[0] == 200  # the service's routes need none
    preflight = {"Origin": PAGE, "Access-Control-Request-Method": "POST"}
    assert call(options, "OPTIONS", "/__mock__/reset", preflight)[0] == 200  # a browser's preflight


def test_serve_options_make_the_shield():
    assert resolve_seed(ServeOptions()).seed == 0
    assert resolve_seed(ServeOptions(host="0.0.0.0", seed=7)).seed == 7
    drawn = {resolve_seed(ServeOptions(host="0.0.0.0")).seed for _ in range(5)}
    assert len(drawn) > 1
    assert bind_warning("0.0.0.0", admin=True, admin_token="t") is None
    app, _, _ = build(ServeOptions(fixtures="empty", allowed_hosts=("mock.test",)))
    with app.test_client(base_url="http://mock.test") as client:
        assert client.get("/__mock__/credentials").status_code == 200
    with app.test_client(base_url="http://evil.example") as client:
        assert client.get("/__mock__/credentials").status_code == 421


# ---------------------------------------------------------------------- end to end
def test_served_on_loopback_the_admin_api_is_out_of_reach_of_pages():
    with Served("--fixtures", "empty", "--allowed-host", "mock.test") as mock:
        client = mock.client
        assert client.get("/v1/openapi.json", headers={"Host": "evil.example"}).status_code == 421
        refused = client.get("/__mock__/credentials", headers={"Host": "evil.example:80"})
        assert refused.status_code == 421 and refused.json()["code"] == "misdirected_request"
        assert client.get("/__mock__/credentials", headers={"Host": "mock.test"}).status_code == 200
        assert client.get("/__mock__/credentials", headers={"Host": "localhost"}).status_code == 200

        before = client.get("/__mock__/snapshot").json()
        assert client.post("/__mock__/users", json={}).status_code == 201
        changed = client.get("/__mock__/snapshot").json()
        assert changed != before
        forms = [
            {"content": b'{"fixtures": "empty"}', "headers": {"Content-Type": "text/plain"}},
            {"data": {"fixtures": "empty"}},  # urlencoded
            {"files": {"f": ("a.txt", b"x")}},  # multipart
        ]
        for form in forms:
            response = client.post("/__mock__/reset", **form)  # type: ignore[arg-type]
            assert response.status_code == 415, response.text
            assert response.json()["code"] == "unsupported_media_type"
        assert client.get("/__mock__/snapshot").json() == changed  # nothing reset
        assert client.post("/__mock__/reset", json={"fixtures": "empty"}).status_code == 200
        assert client.get("/__mock__/snapshot").json() == before

        page = {"Origin": PAGE}
        response = client.get("/__mock__/credentials", headers=page)
        assert not [h for h in response.headers if h.lower().startswith("access-control-")]
        preflight = {**page, "Access-Control-Request-Method": "POST"}
        assert client.options("/__mock__/reset", headers=preflight).status_code != 204
        response = client.get("/v1/openapi.json", headers=page)
        assert response.headers["Access-Control-Allow-Origin"] == PAGE  # the service keeps CORS


def test_served_with_an_admin_origin_that_page_gets_cors():
    with Served("--fixtures", "empty", "--admin-origin", PAGE) as mock:
        response = mock.client.get("/__mock__/credentials", headers={"Origin": PAGE})
        assert response.headers["Access-Control-Allow-Origin"] == PAGE
        preflight = {"Origin": PAGE, "Access-Control-Request-Method": "POST"}
        assert mock.client.options("/__mock__/reset", headers=preflight).status_code == 204
        other = mock.client.get("/__mock__/credentials", headers={"Origin": "http://localhost:3001"})
        assert "Access-Control-Allow-Origin" not in other.headers


def test_served_on_every_interface_the_admin_api_needs_a_token():
    with Served("--host", "0.0.0.0", "--fixtures", "empty") as mock:
        assert mock.client.get("/__mock__/credentials").status_code == 404
        assert "admin:    off" in mock.banner
        assert "drawn at random" in mock.banner
        # the Host check is a loopback bind's: here a name of the machine is expected
        assert mock.client.get("/v1/openapi.json", headers={"Host": "myhost.example"}).status_code == 200
    with Served("--host", "0.0.0.0", "--fixtures", "empty", "--admin-token", "t0ken", "--seed", "3") as mock:
        assert mock.client.get("/__mock__/credentials").status_code == 401
        token = {"X-Mock-Admin-Token": "t0ken"}
        assert mock.client.get("/__mock__/credentials", headers=token).status_code == 200
        assert "drawn at random" not in mock.banner


def test_served_credentials_differ_off_loopback_without_a_seed():
    def first_token(*args: str) -> str:
        with Served("--fixtures", "empty", *args) as mock:
            line = next(line for line in mock.banner.splitlines() if line.startswith("  user:"))
            return line.rsplit("token ", 1)[1]

    assert first_token() == first_token()  # seed 0 on loopback, as before
    assert first_token("--host", "0.0.0.0") != first_token("--host", "0.0.0.0")
