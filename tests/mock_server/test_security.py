"""Security of the serve side (issue 7, part 4): credentials made with `secrets` and compared in
constant time (any input, never a 5xx); a warning when the credential-leaking admin API is
reachable from other machines; HTTPS with --tls or --certfile/--keyfile; and error bodies that
never carry a traceback or an internal path."""

from __future__ import annotations

import base64
import hmac
import json
import secrets
import ssl
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import trustme
from click.testing import CliRunner

from csapi import cli
from csapi.mock_server import app as app_module
from csapi.mock_server import serve
from csapi.mock_server.app import MAX_BODY_BYTES
from csapi.mock_server.serve import ServeOptions, bind_warning, build, is_loopback, load_state
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, FREE, PRO, TEAM, World, auth_headers, basic, empty_data
from tests.mock_server.served import Served


# ---------------------------------------------------------------------- credentials
@pytest.fixture
def compared(monkeypatch) -> list[tuple[Any, Any]]:
    """Every hmac.compare_digest call from here on (the real one still answers)."""
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", spy)
    return calls


def test_the_api_key_and_the_user_token_are_compared_in_constant_time(client, store, compared):
    token = store.accounts[PRO].token
    assert client.get("/v1/collections", headers=auth_headers(store, PRO)).status_code == 200
    assert (API_KEY.encode(), API_KEY.encode()) in [tuple(sorted(c)) for c in compared]
    assert (token.encode(), token.encode()) in compared
    compared.clear()
    headers = {"X-API-Key": "wrong-key", "Authorization": basic(PRO, "wrong-token")}
    assert client.get("/v1/collections", headers=headers).status_code == 401
    assert any(b"wrong-key" in pair for pair in compared)


def test_the_password_is_compared_in_constant_time(store, compared):
    user = store.accounts[PRO]
    assert store.authenticate(user.email, user.password) is user
    assert (user.password.encode(), user.password.encode()) in compared


@pytest.mark.parametrize(
    "user_id, token",
    [
        ("999", "é-not-ascii"),  # an unknown id still costs a comparison, of bytes
        (str(PRO), "é-not-ascii"),
        ("²", "x"),  # a digit to str.isdigit, not to int()
        ("9" * 5000, "x"),  # beyond int()'s 4300 digits
        (str(TEAM), "x"),  # a team cannot sign in
        ("", ""),
        ("-1", "x"),
    ],
)
def test_any_basic_credentials_are_a_401_never_a_500(client, store, user_id: str, token: str):
    raw = base64.b64encode(f"{user_id}:{token}".encode()).decode()
    response = client.get("/v1/collections", headers={"X-API-Key": API_KEY, "Authorization": f"Basic {raw}"})
    assert response.status_code == 401, response.text
    assert store.user_for_credentials(user_id, token) is None


def test_tokens_passwords_and_the_api_key_come_from_secrets(store, monkeypatch):
    made: list[str] = []

    def spy(name: str) -> Any:
        real = getattr(secrets, name)

        def make(*args: Any) -> str:
            made.append(name)
            return real(*args)

        return make

    monkeypatch.setattr(secrets, "token_hex", spy("token_hex"))
    monkeypatch.setattr(secrets, "token_urlsafe", spy("token_urlsafe"))
    user = store.create_user(plan="free")
    assert made == ["token_urlsafe", "token_hex"] and len(user.token) == 32 and len(user.password) >= 16
    made.clear()
    monkeypatch.setattr(
        app_module, "create_app", lambda store, **kwargs: SimpleNamespace(state=SimpleNamespace())
    )
    _, _, api_key = build(ServeOptions(fixtures="empty"))  # no --api-key, no state file
    assert made == ["token_hex"] and len(api_key) == 32


# ---------------------------------------------------------------------- where it listens
@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "[::1]", "localhost", "LOCALHOST"])
def test_no_warning_on_loopback(host: str):
    assert is_loopback(host)
    assert bind_warning(host, admin=True) is None


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.20", "10.0.0.1", "myhost.example.com"])
def test_a_warning_on_other_interfaces_with_the_admin_api_on(host: str):
    warning = bind_warning(host, admin=True)
    assert warning is not None and host in warning and "/__mock__/credentials" in warning
    assert "--no-admin" in warning
    assert bind_warning(host, admin=False) is None  # the API itself still needs the key and a user


@pytest.fixture
def no_server(monkeypatch) -> list[dict[str, Any]]:
    """`csapi serve` up to uvicorn.run, which records its arguments instead of serving
    (and no app is built: that is not what these tests are about, and it costs a second)."""
    import uvicorn

    runs: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: runs.append(kwargs))
    app = SimpleNamespace(state=SimpleNamespace(keeper=None))  # no --state: nothing saved at stop
    monkeypatch.setattr(serve, "build", lambda options, warn: (app, Store(data=empty_data()), "k"))
    return runs


@pytest.mark.parametrize(
    "host, shown",
    [
        ("0.0.0.0", "127.0.0.1"),
        ("::", "[::1]"),
        ("::1", "[::1]"),
        ("localhost", "localhost"),
        ("10.1.2.3", "10.1.2.3"),
    ],
)
def test_the_banner_shows_a_url_a_client_can_use(host: str, shown: str):
    assert serve.url_host(host) == shown


def test_serve_prints_the_warning_on_stderr(no_server):
    result = CliRunner().invoke(cli.main, ["serve", "--host", "0.0.0.0", "--fixtures", "empty"])
    assert result.exit_code == 0, result.output
    assert "WARNING" in result.stderr and "0.0.0.0" in result.stderr
    assert "WARNING" not in result.stdout
    assert "http://127.0.0.1:8000/v1/ui/" in result.stdout  # 0.0.0.0 is no address to call
    assert no_server[0]["host"] == "0.0.0.0"
    quiet = CliRunner().invoke(cli.main, ["serve", "--fixtures", "empty"])
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert no_server[1]["host"] == "127.0.0.1"  # the default


# ---------------------------------------------------------------------- HTTPS
def test_tls_serves_https_trusted_through_the_printed_ca(tmp_path: Path):
    state = tmp_path / "state.json"

    def trust(banner: str) -> ssl.SSLContext:
        cafile = next(line.split()[2] for line in banner.splitlines() if line.startswith("  TLS CA:"))
        return ssl.create_default_context(cafile=cafile)

    args = ["--tls", "--fixtures", "empty", "--api-key", "k", "--state", str(state)]
    with Served(*args, scheme="https", verify=trust) as served:
        cafile = Path(next(line.split()[2] for line in served.banner.splitlines() if "TLS CA:" in line))
        assert cafile.is_file()
        assert f"csapi mock server on https://127.0.0.1:{served.port}" in served.banner
        assert f"curl -s --cacert {cafile} -H 'X-API-Key: k'" in served.banner
        user = served.client.get("/__mock__/credentials").json()["users"][0]
        response = served.client.post(
            "/v1/collections",
            json={"name": "Over TLS", "type": "private"},
            headers={"X-API-Key": "k"},
            auth=(str(user["id"]), user["token"]),
        )
        assert response.status_code == 201
        with pytest.raises(httpx.ConnectError):  # not trusted without the CA
            httpx.get(f"{served.base_url}/v1/ui/")
        status, _, err = served.stop()
    assert status == 0, err
    assert [c["name"] for c in load_state(state)[0]["collections"]] == ["Over TLS"]
    assert not cafile.parent.exists()  # the throwaway CA and key went with the server


def _certificate(folder: Path) -> tuple[Path, Path]:
    ca = trustme.CA()
    cert = ca.issue_cert("127.0.0.1", "localhost")
    certfile, keyfile = folder / "cert.pem", folder / "key.pem"
    cert.cert_chain_pems[0].write_to_path(str(certfile))
    cert.private_key_pem.write_to_path(str(keyfile))
    return certfile, keyfile


def test_certfile_and_keyfile_serve_https_with_the_callers_certificate(tmp_path: Path, no_server):
    certfile, keyfile = _certificate(tmp_path)
    args = ["serve", "--fixtures", "empty", "--certfile", str(certfile), "--keyfile", str(keyfile)]
    result = CliRunner().invoke(cli.main, args)
    assert result.exit_code == 0, result.output
    assert no_server[0]["ssl_certfile"] == str(certfile) and no_server[0]["ssl_keyfile"] == str(keyfile)
    assert "https://127.0.0.1:8000" in result.stdout and "--cacert" not in result.stdout


@pytest.mark.parametrize("given", [["--certfile"], ["--keyfile"]])
def test_certfile_and_keyfile_go_together(tmp_path: Path, no_server, given: list[str]):
    certfile, _ = _certificate(tmp_path)
    result = CliRunner().invoke(cli.main, ["serve", *given, str(certfile)])
    assert result.exit_code == 2
    assert "--certfile and --keyfile go together" in result.stderr
    assert no_server == []


def test_a_certificate_that_cannot_be_loaded_is_a_usage_error(tmp_path: Path, no_server):
    certfile, keyfile = tmp_path / "cert.pem", tmp_path / "key.pem"
    certfile.write_text("not a certificate")
    keyfile.write_text("not a key")
    result = CliRunner().invoke(cli.main, ["serve", "--certfile", str(certfile), "--keyfile", str(keyfile)])
    assert result.exit_code == 2 and "cannot load" in result.stderr and "Traceback" not in result.output
    assert no_server == []


def test_the_help_documents_the_exit_statuses():
    text = CliRunner().invoke(cli.main, ["serve", "--help"]).output
    assert f"{serve.EXIT_STATE_FILE} the --state file" in " ".join(text.split())
    assert f"{serve.EXIT_CANNOT_LISTEN} cannot listen" in text


# ---------------------------------------------------------------------- error bodies
LEAKS = ("Traceback", "/work/", ".py", 'File "', "mock_server", "connexion", "starlette", "site-packages")


def assert_clean(response: httpx.Response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.text
    for leak in LEAKS:
        assert leak not in response.text, (leak, response.text)
    body = response.json()
    assert isinstance(body.get("code"), str) and isinstance(body.get("message"), str), body
    assert set(body) <= {"code", "message", "errors"}, body
    return body


def test_error_bodies_carry_no_traceback_or_path(client, store, world: World):
    headers = auth_headers(store, PRO)
    as_json = {**headers, "Content-Type": "application/json"}
    cases = [
        (400, "POST", "/v1/collections", {"content": b"{bad", "headers": as_json}),
        (400, "POST", "/v1/collections", {"content": b"\xff\xfe", "headers": as_json}),
        (400, "POST", "/v1/collections", {"content": b"[" * 5000 + b"]" * 5000, "headers": as_json}),
        (400, "POST", "/v1/collections", {"json": {"name": 5, "type": "private"}, "headers": headers}),
        (400, "POST", "/v1/collections", {"json": {"name": "x", "type": "nope"}, "headers": headers}),
        (400, "GET", "/v1/collections?page=abc", {"headers": headers}),
        (401, "GET", "/v1/collections", {}),
        (401, "GET", "/v1/collections", {"headers": {"X-API-Key": API_KEY, "Authorization": "Basic !!"}}),
        (403, "DELETE", f"/v1/collections/{world.trips}", {"headers": auth_headers(store, FREE)}),
        (404, "GET", "/v1/nothing/here", {"headers": headers}),
        (404, "GET", "/v1/collections/999999", {"headers": headers}),
        (405, "PATCH", "/v1/collections", {"headers": headers}),
        (
            415,
            "POST",
            "/v1/collections",
            {"content": b"<x/>", "headers": {**headers, "Content-Type": "text/xml"}},
        ),
        (
            400,
            "PUT",
            "/__mock__/snapshot",
            {"content": b"{bad", "headers": {"Content-Type": "application/json"}},
        ),
        (415, "PUT", "/__mock__/snapshot", {"content": b"{bad"}),
        (400, "PUT", "/__mock__/snapshot", {"json": {"format": "csapi-state", "version": 1, "items": [{}]}}),
        (405, "DELETE", "/__mock__/snapshot", {}),
    ]
    for status, method, path, kwargs in cases:
        assert_clean(client.request(method, path, **kwargs), status)


def test_too_large_bodies_are_clean_413s(client, store):
    headers = {**auth_headers(store, PRO), "Content-Type": "application/json"}
    body = json.dumps({"name": "x" * MAX_BODY_BYTES, "type": "private"}).encode()
    assert_clean(client.post("/v1/collections", content=body, headers=headers), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: caught while it streams in
        for _ in range(MAX_BODY_BYTES // 2**20 + 2):
            yield b" " * 2**20

    assert_clean(client.post("/v1/collections", content=chunks(), headers=headers), 413)


def test_an_unexpected_exception_is_a_plain_body_and_goes_to_the_log(client, store, monkeypatch, caplog):
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError('File "/work/main/mock_server/store/secret.py", line 1: Traceback of a bug')

    monkeypatch.setattr(store, "list_collections", broken)
    monkeypatch.setattr(store, "snapshot", broken)
    body = assert_clean(client.get("/v1/collections", headers=auth_headers(store, PRO)), 500)
    assert body == {"code": "internal_error", "message": "The mock failed on this request; see its log."}
    assert_clean(client.get("/__mock__/snapshot"), 500)
    assert "secret.py" in caplog.text  # the developer still sees it all, in the server's log


def test_a_store_rejecting_a_state_file_names_no_internal_path(tmp_path: Path):
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"format": "csapi-state", "version": 1, "items": [{"id": 1, "nope": 2}]}))
    with pytest.raises(serve.StateFileError) as raised:
        build(ServeOptions(state=path))
    message = str(raised.value)
    assert "state.json" in message and "nope" in message
    assert not any(leak in message.replace(str(path), "") for leak in LEAKS)
