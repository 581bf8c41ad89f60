"""The run as a whole: setup checks and preflight exit statuses, progress, cleanup, reports, and the
CLI's exit codes.

Each setup mistake is tried as a server team makes it, against a real HTTP server: the mock
(`live`), or a tiny app of the test's own served the same way (a web page where the API should
be, a 404, a redirect, a plain-text health check).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.applications import Starlette
from starlette.requests import Request as StarletteRequest
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from csapi.cli import main
from csapi.conformance.results import PASS, SKIP, Outcome, Progress, Results
from csapi.conformance.runner import EXIT_UNREACHABLE, EXIT_USAGE, Verdict, check_setup, preflight, run
from csapi.conformance.settings import Settings, UsageError, User
from csapi.conformance.target import Target
from tests.conformance.conftest import API_KEY, Live, serve_app
from tests.conformance.faults import Answer, Forward, Request, World, wrap_with

PAGE = "<!doctype html><html><head><title>My app</title></head><body><div id=root></div></body></html>"


def test_an_unreachable_target_is_exit_3():
    out = io.StringIO()
    status = run(Settings("http://127.0.0.1:9", API_KEY, (User(1, "t"),)), out=out)
    assert status == EXIT_UNREACHABLE and "cannot reach" in out.getvalue()


def test_a_refused_key_is_exit_3(live: Live):
    out = io.StringIO()
    assert run(live.settings(api_key="wrong"), out=out) == EXIT_UNREACHABLE
    assert out.getvalue() == "csapi conform: the target refuses the API key (GET /v1/ping answered 401)\n"


def test_refused_credentials_are_exit_3(live: Live):
    out = io.StringIO()
    settings = live.settings()
    bad = live.settings(users=(settings.users[0], User(settings.users[1].id, "not-the-token")))
    assert run(bad, out=out) == EXIT_UNREACHABLE
    assert f"credentials of user {settings.users[1].id}" in out.getvalue()


def test_cli_bad_usage_is_exit_2():
    result = CliRunner().invoke(main, ["conform", "--base-url", "http://h", "--api-key", "k"], env={})
    assert result.exit_code == 2 and "--user is required" in result.output
    result = CliRunner().invoke(main, ["conform", "--base-url", "http://h", "--api-key", "k", "--user", "x"])
    assert result.exit_code == 2 and "ID:TOKEN" in result.output
    assert result.output.count("\n") == 1  # one line


def test_cli_unreachable_is_exit_3(tmp_path: Path):
    result = CliRunner().invoke(
        main, ["conform", "--base-url", "http://127.0.0.1:9", "--api-key", "k", "--user", "1:t"], env={}
    )
    assert result.exit_code == 3, result.output


# ---------------------------------------------------------------------- setup mistakes, before any request
class Counting:
    """An httpx client for the run that counts the requests it sends."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.client = httpx.Client(
            event_hooks={"request": [lambda r: self.sent.append(f"{r.method} {r.url}")]}
        )


def _refused(settings: Settings) -> str:
    """The one-line UsageError `run` raises for `settings`, after checking no request was sent."""
    counting = Counting()
    with pytest.raises(UsageError) as refused:
        run(settings, client=counting.client, out=io.StringIO())
    assert counting.sent == []
    message = str(refused.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("suffix", ["/v1", "/v1/", "/api/v1"])
def test_a_base_url_ending_in_the_version_is_refused_with_the_url_to_use(live: Live, suffix: str):
    settings = live.settings(base_url=live.base_url + suffix)
    message = _refused(settings)
    use = live.base_url + ("/api" if suffix == "/api/v1" else "")
    assert message.endswith(f"drop it, use --base-url {use}")
    assert "ends in /v1, which the suite adds itself" in message


def test_a_base_url_ending_in_v1_is_refused_on_the_command_line(live: Live):
    settings = live.settings()
    args = ["conform", "--base-url", live.base_url + "/v1/", "--api-key", API_KEY, "--quick"]
    args += [arg for user in settings.users for arg in ("--user", f"{user.id}:{user.token}")]
    result = CliRunner().invoke(main, args, env={})
    assert result.exit_code == EXIT_USAGE
    assert result.output == (
        f"csapi conform: --base-url {live.base_url}/v1 ends in /v1, which the suite adds itself (every path "
        f"of the document starts with /v1): drop it, use --base-url {live.base_url}\n"
    )


def test_a_base_url_with_another_path_is_not_refused(live: Live):
    check_setup(live.settings(base_url=live.base_url + "/api"))  # the suite asks /api/v1/...
    check_setup(live.settings(base_url=live.base_url + "/v1beta"))


@pytest.mark.parametrize(
    ("overrides", "says"),
    [
        (
            {"include": ("items.list_item",)},
            "--include items.list_item: no operationId or tag of that name in the document "
            "(nearest: items.list_items,",
        ),
        ({"include": ("search",)}, "--include search: no operationId or tag of that name in the document "),
        ({"exclude": ("Itemz",)}, "--exclude Itemz: no operationId or tag of that name in the document "),
        ({"include": ("Items", "colections.get_collection")}, "(nearest: collections.get_collection"),
    ],
)
def test_unknown_include_or_exclude_names_are_refused_with_the_nearest(live: Live, overrides: Any, says: str):
    message = _refused(live.settings(**overrides))
    assert says in message
    if overrides.get("include") == ("search",):
        assert "(nearest: Search" in message  # a tag, whatever the case
    if overrides.get("exclude") == ("Itemz",):
        assert "(nearest: Items" in message


def test_settings_that_select_no_check_are_refused(live: Live):
    message = _refused(live.settings(include=("auth.authenticate",), read_only=True))
    assert (
        message
        == "--include auth.authenticate with --read-only selects no check: the run would check nothing"
    )
    message = _refused(live.settings(include=("Items",), exclude=("Items",)))
    assert message.startswith("--include Items with --exclude Items selects no check")


def test_a_misspelt_include_is_exit_2_on_the_command_line_not_a_green_run(live: Live):
    settings = live.settings()
    args = ["conform", "--base-url", live.base_url, "--api-key", API_KEY, "--include", "items.list_item"]
    args += [arg for user in settings.users for arg in ("--user", f"{user.id}:{user.token}")]
    result = CliRunner().invoke(main, args, env={})
    assert result.exit_code == EXIT_USAGE
    assert result.output.startswith("csapi conform: --include items.list_item: no operationId or tag")
    assert result.output.count("\n") == 1


def test_a_run_that_ran_no_check_is_exit_2():
    skipped = Outcome("access", "teams.update_team", "members are refused", SKIP, message="needs --team-id")
    assert Verdict(Results(), [], {}).exit_status == EXIT_USAGE
    assert Verdict(Results(outcomes=[skipped]), [], {}).exit_status == EXIT_USAGE
    ran = Outcome("access", "auth.ping", "no key, no answer", PASS)
    assert Verdict(Results(outcomes=[skipped, ran]), [], {}).exit_status == 0


def test_run_says_why_a_run_that_ran_no_check_is_exit_2(live: Live, monkeypatch: pytest.MonkeyPatch):
    from csapi.conformance import runner

    skipped = Outcome("access", "teams.update_team", "members are refused", SKIP, message="needs --team-id")
    monkeypatch.setattr(runner, "run_checks", lambda *a, **k: Verdict(Results(outcomes=[skipped]), [], {}))
    out = io.StringIO()
    assert run(live.settings(), out=out) == EXIT_USAGE
    assert out.getvalue().endswith(
        "csapi conform: no check ran (1 skipped: needs --team-id): "
        "a run that checks nothing cannot pass (exit 2)\n"
    )


# ---------------------------------------------------------------------- a target that is not the API
def _app(*routes: tuple[str, Any]) -> Starlette:
    """An app answering `path` with `answer` (a Response), and every other path with a 404 page."""

    def endpoint(answer: Response) -> Any:
        async def answer_it(request: StarletteRequest) -> Response:
            return answer

        return answer_it

    async def not_found(request: StarletteRequest, exc: Exception) -> Response:
        return HTMLResponse("<html><body><h1>404 Not Found</h1></body></html>", status_code=404)

    return Starlette(
        routes=[Route(path, endpoint(answer)) for path, answer in routes],
        exception_handlers={404: not_found},
    )


SPA = Starlette(routes=[Route("/{path:path}", lambda request: HTMLResponse(PAGE))])


@contextmanager
def _served(app: Any) -> Iterator[str]:
    with serve_app(app) as base_url:
        yield base_url


@pytest.mark.parametrize(
    ("app", "says"),
    [
        (
            SPA,
            "answered 200 (text/html, 94 characters): a web page, not the API (a web server, a reverse",
        ),
        (
            _app(),
            "answered 404 (text/html, 48 characters): no such endpoint there, so this is not the API's root",
        ),
        (
            _app(("/v1/ping", JSONResponse({"detail": "Not Found"}, status_code=404))),
            "answered 404 (application/json, 22 characters): no such endpoint there",
        ),
        (_app(("/v1/ping", PlainTextResponse("OK"))), "answered 200 (text/plain, 2 characters): not JSON"),
        (
            _app(("/v1/ping", RedirectResponse("https://api.example.com/v1/ping", status_code=301))),
            "answered 301 (no Content-Type, empty): a redirect to https://api.example.com/v1/ping, not",
        ),
        (
            _app(("/v1/ping", HTMLResponse("<html>502 Bad Gateway</html>", status_code=502))),
            "answered 502 (text/html, 28 characters): a web page, not the API",
        ),
        (
            _app(("/v1/ping", JSONResponse({"code": "down"}, status_code=503))),
            "answered 503 (application/json, 15 characters): the API is down or not ready behind it",
        ),
    ],
    ids=["spa-page", "404-page", "404-json", "plain-text", "redirect", "proxy-502", "json-503"],
)
def test_a_target_that_is_not_the_api_is_exit_3_in_one_line(app: Any, says: str):
    with _served(app) as base_url:
        out = io.StringIO()
        settings = Settings(base_url, API_KEY, (User(1, "t"),))
        assert run(settings, out=out) == EXIT_UNREACHABLE
    line = out.getvalue()
    assert line.count("\n") == 1 and line.startswith(f"csapi conform: GET {base_url}/v1/ping answered ")
    assert says in line, line
    if "redirect" not in says:
        assert "check --base-url: its host, port and path prefix" in line


def test_a_web_page_on_the_command_line_is_exit_3_naming_what_came_back():
    with _served(SPA) as base_url:
        result = CliRunner().invoke(
            main, ["conform", "--base-url", base_url, "--api-key", "k", "--user", "1:t"], env={}
        )
    assert result.exit_code == EXIT_UNREACHABLE
    assert result.output.startswith(f"csapi conform: GET {base_url}/v1/ping answered 200 (text/html")
    assert result.output.count("\n") == 1


@pytest.mark.parametrize(
    "answer",
    [
        Answer.of(200, {"code": "pong"}),
        Answer.of(200, {"status": "ok", "version": "2.3"}),  # the spec leaves ping's answer open
        Answer.of(200, "pong"),
        Answer(204),
        Answer(200, [(b"content-type", b"application/json; charset=utf-8")], b"{}"),
    ],
    ids=["pong", "other-json", "json-string", "204-empty", "json-charset"],
)
def test_any_2xx_json_ping_is_the_api_no_false_red(answer: Answer):
    async def ping(request: Request, forward: Forward, world: World) -> Answer:
        return answer if request.on("GET", "/v1/ping") else await forward(request)

    from tests.conformance.conftest import live_mock

    with live_mock(wrap=wrap_with(ping)) as live:
        target = Target(live.settings())
        try:
            preflight(target)  # raises nothing
        finally:
            target.client.close()


# ---------------------------------------------------------------------- progress, piped
def test_a_piped_run_says_when_each_layer_starts_and_ends(live: Live):
    stream = io.StringIO()  # not a tty: whole lines
    out = io.StringIO()
    settings = live.settings(quick=True, include=("auth.ping",), settle=0.5)
    assert run(settings, out=out, progress=Progress(stream)) == 0, out.getvalue()
    lines = stream.getvalue().splitlines()
    layers = [line.split("] ", 1)[1] for line in lines]
    assert [text.split(":")[0] for text in layers] == ["contract", "contract", "behaviour", "behaviour"] + [
        "access",
        "access",
    ]
    assert layers[0] == "contract: started" and layers[1].startswith("contract: done in ")
    assert all("\r" not in line for line in lines)
