"""The contract layer against the mock over real HTTP: no false positives (two seeds, one of
them --strict), nothing changed that the run did not make and nothing left behind, GETs only
under --read-only, and faults planted in front of the mock by tiny ASGI middlewares found,
each named by its operation with a curl line to reproduce it."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from csapi.conformance.contract import contract
from csapi.conformance.registry import REGISTRY, RunContext
from csapi.conformance.results import ERROR, FAIL, PASS, Outcome, Results
from csapi.conformance.target import Target
from csapi.openapi import document
from tests.conformance.conftest import Live, live_mock

Change = Callable[[int, list[tuple[bytes, bytes]], bytes], tuple[int, list[tuple[bytes, bytes]], bytes]]


def run_contract(live: Live, **overrides: Any) -> tuple[list[Outcome], list[str]]:
    """The contract layer alone, then the run's cleanup: its outcomes and what was left behind."""
    settings = live.settings(**overrides)
    target = Target(settings)
    results = Results()
    try:
        contract(RunContext(settings, target, results, document(), random.Random(settings.seed)))
    finally:
        left = target.cleanup()
        target.client.close()
    return results.outcomes, left


def failures(outcomes: list[Outcome]) -> list[Outcome]:
    return [o for o in outcomes if o.status in (FAIL, ERROR)]


def shown(outcomes: list[Outcome]) -> str:
    lines = []
    for o in failures(outcomes):
        lines.append(f"{o.status} {o.operation} {o.check}: {o.message[:400]}")
        lines.append(f"  {o.exchange.curl()[:300] if o.exchange else ''}")
    return "\n".join(lines)


def failed(outcomes: list[Outcome], operation: str, check: str) -> Outcome:
    found = [o for o in failures(outcomes) if o.operation == operation and o.check == check]
    assert found, f"no {check} failure on {operation}:\n{shown(outcomes)}"
    return found[0]


def state(live: Live) -> dict[str, Any]:
    """The mock's tables, keyed by row id, as JSON would show them."""
    snapshot = json.loads(json.dumps(live.store.snapshot(), default=str))
    return {
        table: {json.dumps(row.get("id", row), sort_keys=True): row for row in rows}
        for table, rows in snapshot.items()
        if isinstance(rows, list)
    }


def rewrite(method: str, path: str, change: Change) -> Callable[[Any], Any]:
    """A fault: answers to `method` on paths matching `path` go through change(status, headers, body)."""
    pattern = re.compile(path)

    def wrap(app: Any) -> Any:
        async def faulty(scope: dict, receive: Callable, send: Callable) -> None:
            if scope["type"] != "http" or scope["method"] != method or not pattern.fullmatch(scope["path"]):
                await app(scope, receive, send)
                return
            start: dict[str, Any] = {}
            chunks: list[bytes] = []

            async def capture(message: dict) -> None:
                if message["type"] == "http.response.start":
                    start.update(message)
                    return
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                status, headers, body = change(start["status"], list(start["headers"]), b"".join(chunks))
                headers = [(k, v) for k, v in headers if k.lower() != b"content-length"]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({"type": "http.response.start", "status": status, "headers": headers})
                await send({"type": "http.response.body", "body": body})

            await app(scope, receive, capture)

        return faulty

    return wrap


def without_header(name: bytes, when: int | None = None) -> Change:
    def change(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> Any:
        if when is None or status == when:
            headers = [(k, v) for k, v in headers if k.lower() != name]
        return status, headers, body

    return change


JSON = [(b"content-type", b"application/json")]


# ---------------------------------------------------------------------- the layer itself
def test_the_layer_is_registered_as_one_check_that_records_its_own_outcomes() -> None:
    (entry,) = [c for c in REGISTRY if c.layer == "contract"]
    assert entry.records_own and not entry.writes and not entry.strict
    assert entry.func is contract


def test_the_mock_passes_and_is_left_as_it_was() -> None:
    """Every operation, valid and invalid input, the links: no false positive; and safe on a
    real server: every write names only ids the run made, the run changes nothing it did not
    make, and it leaves nothing behind."""
    writes: list[str] = []

    def spy(app: Any) -> Any:
        async def noted(scope: dict, receive: Callable, send: Callable) -> None:
            if scope["type"] == "http" and scope["method"] != "GET":
                writes.append(f"{scope['method']} {scope['path']}")
            await app(scope, receive, send)

        return noted

    with live_mock(seed=3, wrap=spy) as live:
        before = state(live)
        outcomes, left = run_contract(live, quick=True, max_examples=2, seed=11)
        after = state(live)
    assert not failures(outcomes), shown(outcomes)
    assert left == []
    operations = {o.operation for o in outcomes if o.status == PASS}
    assert operations == {op for _, op in _operation_ids()}
    checks = {o.check for o in outcomes if o.status == PASS}
    assert {"response_schema_conformance", "negative_data_rejection", "ignored_auth"} <= checks
    assert {"unsupported_method", "use_after_free", "ensure_resource_availability"} <= checks
    for write in writes:
        for kind, ident in re.findall(
            r"/v1/(collections|items|comments|tags|reactions|emails)/([^/]+)", write
        ):
            assert _owned_or_no_id(ident, before[kind]), f"{write}: names a {kind[:-1]} the run did not make"
    for table, rows in before.items():
        changed = [key for key, row in rows.items() if after[table].get(key) != row]
        assert not changed, f"{table}: the run changed {changed[:5]}, which it did not make"
    for kind in ("collections", "items", "emails"):  # the run's own are deleted
        new = [row for key, row in after[kind].items() if key not in before[kind]]
        assert all(row.get("deleted_at") for row in new), f"{kind} left behind: {new[:3]}"


def _owned_or_no_id(text: str, strangers: dict[str, Any]) -> bool:
    """A path segment names an id the run made, or nothing a lenient parser could read as an id."""
    try:
        number = float(text)
    except ValueError:
        return re.search("[1-9]", text) is None  # parseInt("5abc") is 5
    return number < 1 or (number.is_integer() and str(int(number)) not in strangers)


def test_the_mock_passes_in_strict_mode_with_another_seed() -> None:
    with live_mock(seed=5) as live:
        outcomes, left = run_contract(live, quick=True, max_examples=2, seed=12, strict=True)
    assert not failures(outcomes), shown(outcomes)
    assert left == []


def test_read_only_sends_only_gets_and_changes_nothing() -> None:
    with live_mock() as live:
        before = state(live)
        outcomes, _ = run_contract(live, quick=True, max_examples=2, read_only=True)
        after = state(live)
    assert not failures(outcomes), shown(outcomes)
    gets = {op for method, op in _operation_ids() if method == "get"}
    assert {o.operation for o in outcomes} == gets
    assert not {o.check for o in outcomes} & {"use_after_free", "unsupported_method"}
    assert after == before


def _operation_ids() -> list[tuple[str, str]]:
    return [
        (method, op["operationId"])
        for item in document()["paths"].values()
        for method, op in item.items()
        if isinstance(op, dict) and "operationId" in op
    ]


# ---------------------------------------------------------------------- planted faults
def _drop_name(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> Any:
    data = json.loads(body)
    if status == 200 and isinstance(data, list):
        for entry in data:
            entry.pop("name", None)
    return status, headers, json.dumps(data).encode()


def _crash(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> Any:
    return 500, JSON, b'{"code": "internal", "message": "boom"}'


def _let_in(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> Any:
    return (200, JSON, b"[]") if status == 401 else (status, headers, body)


def _plain_400(status: int, headers: list[tuple[bytes, bytes]], body: bytes) -> Any:
    if status == 400:
        return 400, [(b"content-type", b"text/plain")], b"bad request"
    return status, headers, body


def fake_delete(path: str) -> Callable[[Any], Any]:
    """A fault: an authenticated DELETE on `path` answers 200 and deletes nothing."""
    pattern = re.compile(path)

    def wrap(app: Any) -> Any:
        async def faulty(scope: dict, receive: Callable, send: Callable) -> None:
            authenticated = scope["type"] == "http" and any(
                k == b"authorization" for k, _ in scope["headers"]
            )
            if not (authenticated and scope["method"] == "DELETE" and pattern.fullmatch(scope["path"])):
                await app(scope, receive, send)
                return
            body = b'{"code": "deleted", "message": "deleted"}'
            headers = [*JSON, (b"content-length", str(len(body)).encode())]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})

        return faulty

    return wrap


# (the fault, the operation and check it must fail, words of the verdict)
FAULTS = {
    "required-field-missing": (
        rewrite("GET", r"/v1/collections/\d+", _drop_name),
        ("collections.get_collection", "response_schema_conformance"),
        ("name", "/v1/collections/"),
    ),
    "server-error": (
        rewrite("GET", "/v1/tags", _crash),
        ("tags.list_tags", "not_a_server_error"),
        ("500", "/v1/tags"),
    ),
    "total-count-missing": (
        rewrite("GET", "/v1/items", without_header(b"x-total-count")),
        ("items.list_items", "response_headers_conformance"),
        ("X-Total-Count", "/v1/items"),
    ),
    "auth-ignored": (
        rewrite("GET", "/v1/teams", _let_in),
        ("teams.list_teams", "ignored_auth"),
        ("401", "/v1/teams"),
    ),
    "challenge-missing": (
        rewrite("GET", "/v1/emails", without_header(b"www-authenticate", when=401)),
        ("emails.list_email_addresses", "response_headers_conformance"),
        ("WWW-Authenticate", "/v1/emails"),
    ),
    "unsupported-method-answered": (
        rewrite("PATCH", "/v1/activity", lambda s, h, b: (200, JSON, b"[]")),
        ("activity.list_activity", "unsupported_method"),
        ("PATCH", "405"),
    ),
}


@pytest.fixture(scope="module")
def faulty_run() -> tuple[str, list[Outcome]]:
    """One --quick run, narrowed with --include to the operations the faults concern, on the
    mock behind every fault at once (each on its own operation)."""

    def wrap(app: Any) -> Any:
        for fault, _, _ in FAULTS.values():
            app = fault(app)
        return app

    include = tuple(operation for _, (operation, _), _ in FAULTS.values())
    with live_mock(wrap=wrap) as live:
        outcomes, _ = run_contract(live, quick=True, include=include)
    assert {o.operation for o in outcomes} == set(include)  # --include narrows the run
    return live.base_url, outcomes


@pytest.mark.parametrize("name", FAULTS)
def test_a_planted_fault_is_found_and_shown_with_a_curl_line(name: str, faulty_run: Any) -> None:
    base_url, outcomes = faulty_run
    _, expected, words = FAULTS[name]
    outcome = failed(outcomes, *expected)
    assert outcome.layer == "contract" and outcome.rule
    assert outcome.exchange is not None
    curl = outcome.exchange.curl()
    assert curl.startswith("curl ") and base_url in curl
    verdict = f"{outcome.message}\n{curl}\n{outcome.exchange.shown()}"
    for word in words:
        assert word in verdict, verdict


def test_an_error_body_off_the_design_fails_only_in_strict_mode() -> None:
    """docs/design.md chose the {code, message} JSON error body; outside --strict any 4xx will do."""
    fault = rewrite("GET", r"/v1/items/[^/]+", _plain_400)
    with live_mock(wrap=fault) as live:
        lenient, _ = run_contract(live, quick=True, include=("items.get_item",))
        strict, _ = run_contract(live, quick=True, include=("items.get_item",), strict=True)
    assert not failures(lenient), shown(lenient)
    outcome = failed(strict, "items.get_item", "content_type_conformance")
    assert outcome.exchange is not None and outcome.exchange.status == 400


def test_the_links_find_a_resource_that_outlives_its_delete() -> None:
    """The stateful phase: a DELETE that answers 200 but deletes nothing is a use after free."""
    fault = fake_delete(r"/v1/collections/\d+")
    include = ("collections.create_collection", "collections.get_collection", "collections.delete_collection")
    with live_mock(wrap=fault) as live:
        outcomes, _ = run_contract(live, max_examples=12, include=include)
    outcome = failed(outcomes, "collections.get_collection", "use_after_free")
    assert outcome.exchange is not None and "/v1/collections/" in outcome.exchange.curl()
