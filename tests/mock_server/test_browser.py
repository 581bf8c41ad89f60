"""A real browser calls the mock from another origin (docs/design.md, Browsers and CORS).

`csapi serve` runs as a subprocess; a page served by a tiny http.server on another port (another
origin) lists, creates, updates and deletes a collection with fetch, the API key header and Basic
credentials built in JavaScript, and writes what it saw into the DOM. Headless chromium loads the
page and prints the DOM (`--dump-dom`). With `--no-cors` the same calls must fail in the browser.

Chromium is Debian's `chromium`; .ci/run installs it when it is missing.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlencode

import pytest

from tests.mock_server.conftest import basic
from tests.mock_server.served import Served

API_KEY = "browser-key"
NAME = "Made in a browser"

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><title>csapi from another origin</title></head>
<body><pre id="result">running</pre>
<script>
(async () => {
  const q = new URLSearchParams(location.search);
  const api = q.get("api");
  const headers = {
    "X-API-Key": q.get("key"),
    "Authorization": "Basic " + btoa(q.get("id") + ":" + q.get("token")),
  };
  const json = {...headers, "Content-Type": "application/json"};
  const result = {origin: location.origin};
  async function step(name, call) {
    try {
      const response = await call();
      const text = await response.text();
      result[name] = {status: response.status, total: response.headers.get("X-Total-Count"),
                      body: text ? JSON.parse(text) : null};
    } catch (error) {
      result[name] = {error: String(error)};
    }
    return result[name];
  }
  await step("list", () => fetch(api + "/v1/collections", {headers}));
  const created = await step("create", () => fetch(api + "/v1/collections", {
    method: "POST", headers: json, body: JSON.stringify({name: "__NAME__", type: "private"})}));
  const id = created.body ? created.body.id : 1;
  await step("listed", () => fetch(api + "/v1/collections", {headers}));
  await step("update", () => fetch(api + "/v1/collections/" + id, {
    method: "PUT", headers: json, body: JSON.stringify({name: "__NAME__, renamed"})}));
  await step("delete", () => fetch(api + "/v1/collections/" + id, {method: "DELETE", headers}));
  await step("gone", () => fetch(api + "/v1/collections/" + id, {headers, credentials: "include"}));
  document.getElementById("result").textContent = JSON.stringify(result);
})();
</script></body></html>
""".replace("__NAME__", NAME)


# A page on another origin that goes for the admin API (mock_server/shield.py): it reads the
# credentials, posts a reset and a fault as JSON, as text/plain and without a body, and submits a
# plain form into a hidden frame; then it calls a service route, which must still work.
ATTACK = """<!doctype html>
<html><head><meta charset="utf-8"><title>a page after the admin API</title></head>
<body><pre id="result">running</pre>
<iframe name="sink" id="sink" style="display:none"></iframe>
<form id="form" method="POST" enctype="text/plain" target="sink">
<input name='{"fixtures": "default", "x": "' value='"}'></form>
<script>
(async () => {
  const q = new URLSearchParams(location.search);
  const api = q.get("api");
  const result = {origin: location.origin};
  async function step(name, call) {
    try {
      const response = await call();
      result[name] = {type: response.type, status: response.status, text: await response.text()};
    } catch (error) {
      result[name] = {error: String(error)};
    }
  }
  const reset = JSON.stringify({fixtures: "default"});
  const fault = JSON.stringify({operation: "*", status: "drop"});
  await step("read", () => fetch(api + "/__mock__/credentials"));
  await step("read_included", () => fetch(api + "/__mock__/credentials", {credentials: "include"}));
  await step("read_opaque", () => fetch(api + "/__mock__/credentials", {mode: "no-cors"}));
  await step("reset_json", () => fetch(api + "/__mock__/reset", {
    method: "POST", headers: {"Content-Type": "application/json"}, body: reset}));
  const simple = {method: "POST", mode: "no-cors"};  // no preflight: text/plain, or no body
  await step("reset_plain", () => fetch(api + "/__mock__/reset", {...simple, body: reset}));
  await step("reset_empty", () => fetch(api + "/__mock__/reset", simple));
  await step("fault_plain", () => fetch(api + "/__mock__/faults", {...simple, body: fault}));
  await new Promise((done) => {
    const frame = document.getElementById("sink");
    frame.onload = done;
    const form = document.getElementById("form");
    form.action = api + "/__mock__/reset";
    form.submit();
    setTimeout(done, 3000);
  });
  result.form = "submitted";
  const headers = {"X-API-Key": q.get("key"),
                   "Authorization": "Basic " + btoa(q.get("id") + ":" + q.get("token"))};
  await step("service", () => fetch(api + "/v1/collections", {headers}));
  document.getElementById("result").textContent = JSON.stringify(result);
})();
</script></body></html>
"""


def chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        pytest.fail(
            "chromium is not installed (looked for `chromium` on PATH): this test drives a real browser. "
            "`.ci/run` installs it; locally: apt-get install -y --no-install-recommends chromium"
        )
    return found


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802  # http.server's name
        body = (ATTACK if self.path.startswith("/attack") else PAGE).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


@pytest.fixture(scope="module")
def page_origin() -> Iterator[str]:
    """http://127.0.0.1:PORT serving PAGE: another port than the mock's, so another origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def run_page(page_origin: str, mock: Served, page: str = "/") -> dict[str, Any]:
    """Load the page in headless chromium against `mock`; what the page wrote into the DOM."""
    user = mock.client.get("/__mock__/credentials").json()["users"][0]
    query = urlencode({"api": mock.base_url, "key": API_KEY, "id": user["id"], "token": user["token"]})
    url = f"{page_origin}{page}?{query}"
    with tempfile.TemporaryDirectory(prefix="csapi-chromium-") as profile:
        command = [
            chromium(),
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            f"--user-data-dir={profile}",
            "--virtual-time-budget=15000",
            "--dump-dom",
            url,
        ]
        done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    match = re.search(r'<pre id="result">(.*?)</pre>', done.stdout, re.S)
    assert done.returncode == 0 and match, f"chromium exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    text = html.unescape(match.group(1))
    assert text != "running", f"the page did not finish:\n{done.stderr}"
    result: dict[str, Any] = json.loads(text)
    assert result["origin"] == page_origin and page_origin != mock.base_url
    return result


@pytest.mark.parametrize("listed", [False, True], ids=["any-origin", "cors-origin"])
def test_a_page_on_another_origin_lists_creates_updates_and_deletes(page_origin: str, listed: bool):
    args = ("--cors-origin", page_origin) if listed else ()
    with Served("--fixtures", "empty", "--api-key", API_KEY, *args) as mock:
        result = run_page(page_origin, mock)
        names = [c["name"] for c in mock.client.get("/v1/collections", headers=_auth(mock)).json()]
        mock.stop()
    assert not [step for step in result.values() if isinstance(step, dict) and "error" in step], result
    assert result["list"]["status"] == 200
    assert int(result["list"]["total"]) == len(result["list"]["body"])  # X-Total-Count, exposed
    assert result["create"]["status"] == 201
    assert result["create"]["body"]["name"] == NAME
    assert result["listed"]["total"] == "1"
    assert [c["id"] for c in result["listed"]["body"]] == [result["create"]["body"]["id"]]
    assert result["update"]["status"] == 200
    assert result["update"]["body"]["name"] == f"{NAME}, renamed"
    assert result["delete"]["status"] == 200
    assert result["gone"]["status"] == 404  # an error the page can read, credentials: "include"
    assert result["gone"]["body"]["code"] == "not_found"
    assert not any(name.startswith(NAME) for name in names)


@pytest.mark.parametrize(
    "args", [("--no-cors",), ("--cors-origin", "http://localhost:1")], ids=["no-cors", "another-origin"]
)
def test_without_cors_the_browser_refuses_the_same_calls(page_origin: str, args: tuple[str, ...]):
    with Served("--fixtures", "empty", "--api-key", API_KEY, *args) as mock:
        result = run_page(page_origin, mock)
        names = [c["name"] for c in mock.client.get("/v1/collections", headers=_auth(mock)).json()]
        mock.stop()
    for step in ("list", "create", "listed", "update", "delete", "gone"):
        assert "Failed to fetch" in result[step].get("error", ""), result  # fetch rejected
    assert not any(name.startswith(NAME) for name in names)  # the preflight stopped the writes


def _auth(mock: Served) -> dict[str, str]:
    user = mock.client.get("/__mock__/credentials").json()["users"][0]
    return {"X-API-Key": API_KEY, "Authorization": basic(user["id"], user["token"])}


def test_a_page_on_another_origin_can_neither_read_nor_steer_the_admin_api(page_origin: str):
    with Served("--fixtures", "empty", "--api-key", API_KEY) as mock:
        mock.client.post("/__mock__/users", json={"name": "Only here"})  # a reset would drop it
        before = mock.client.get("/__mock__/snapshot").json()
        result = run_page(page_origin, mock, "/attack")
        after = mock.client.get("/__mock__/snapshot").json()
        faults = mock.client.get("/__mock__/faults").json()
        mock.stop()
    for step in ("read", "read_included", "reset_json"):
        assert "Failed to fetch" in result[step].get("error", ""), result  # no CORS: fetch rejected
    assert result["read_opaque"] == {"type": "opaque", "status": 0, "text": ""}, result  # nothing to read
    for step in ("reset_plain", "reset_empty", "fault_plain"):
        assert result[step].get("type") == "opaque", result  # sent, answered 415 or 403, unread
    assert result["form"] == "submitted"
    assert after == before  # neither the fetches nor the form reset anything
    assert faults == []
    assert result["service"]["status"] == 200, result  # the service routes still serve the page
    assert result["service"]["type"] == "cors"
