"""Per-request control and faults (control.py; docs/design.md, "Per-request control with Prefer",
"Faults"): Prefer's code, example and delay; run-time faults through /__mock__/faults; the seeded
latency and error rate; and, against a real `csapi serve`, a `drop` that closes the connection."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from csapi.mock_server.control import Controls, error_code, parse_latency
from csapi.mock_server.operations import FAULT_STATUSES
from csapi.mock_server.serve import ServeOptions, ServeUsageError, check
from csapi.openapi import document, resolve
from tests.mock_server.conftest import API_KEY, assert_error
from tests.mock_server.controlled import Controlled, statuses
from tests.mock_server.served import Served


@pytest.fixture(scope="module")
def mock() -> Controlled:
    return Controlled()


@pytest.fixture
def client(mock: Controlled) -> Iterator[Any]:
    mock.fresh()
    with mock.app.test_client() as test_client:
        yield test_client


def example(path: str, method: str, status: int) -> Any:
    response = resolve(document()["paths"][path][method]["responses"][str(status)])
    return resolve(response["content"]["application/json"]["examples"]["default"])["value"]


# ---------------------------------------------------------------------- Prefer
def test_prefer_code_404_answers_the_error_without_running_the_operation(mock: Controlled, client: Any):
    cid = mock.collection(client)
    before, generation = mock.store.snapshot(), mock.store.generation
    response = client.get(f"/v1/collections/{cid}", headers=mock.headers(Prefer="code=404"))
    body = assert_error(response, 404, "not_found")
    assert "code=404" in body["message"]
    deleted = client.delete(f"/v1/collections/{cid}", headers=mock.headers(Prefer="code=403"))
    assert_error(deleted, 403, "forbidden")
    assert mock.store.snapshot() == before and mock.store.generation == generation
    assert client.get(f"/v1/collections/{cid}", headers=mock.headers()).status_code == 200


def test_prefer_code_of_a_documented_2xx_runs_the_operation(mock: Controlled, client: Any):
    created = client.post(
        "/v1/collections", headers=mock.headers(Prefer="code=201"), json={"name": "Kept", "type": "private"}
    )
    assert created.status_code == 201, created.text
    assert [c.name for c in mock.store.collections.values()] == ["Kept"]
    listed = client.get("/v1/collections", headers=mock.headers(Prefer="code=200"))
    assert [c["name"] for c in listed.json()] == ["Kept"]


@pytest.mark.parametrize(
    ("status", "code"),
    [(401, "unauthorized"), (429, "rate_limited"), (500, "internal_error"), (503, "service_unavailable")],
)
def test_prefer_code_of_an_error_gives_its_code_and_headers(
    mock: Controlled, client: Any, status: int, code: str
):
    response = client.get("/v1/ping", headers={"X-API-Key": API_KEY, "Prefer": f"code={status}"})
    assert_error(response, status, code)
    assert ("www-authenticate" in response.headers) == (status == 401)
    assert ("retry-after" in response.headers) == (status in (429, 503))


def test_prefer_example_answers_the_document_s_example(mock: Controlled, client: Any):
    cid = mock.collection(client)
    got = client.get(f"/v1/collections/{cid}", headers=mock.headers(Prefer="example=default"))
    assert got.status_code == 200
    assert got.json() == example("/v1/collections/{collection_id}", "get", 200)
    listed = client.get("/v1/collections", headers=mock.headers(Prefer="example=default"))
    assert listed.json() == example("/v1/collections", "get", 200)
    assert listed.headers["x-total-count"] == str(len(listed.json()))
    missing = client.get(f"/v1/collections/{cid}", headers=mock.headers(Prefer='code=404, example="default"'))
    assert missing.status_code == 404
    assert missing.json() == example("/v1/collections/{collection_id}", "get", 404)


def test_prefer_delay_answers_later(mock: Controlled, client: Any):
    start = time.perf_counter()
    assert client.get("/v1/ping", headers={"X-API-Key": API_KEY, "Prefer": "delay=150"}).status_code == 200
    assert 0.14 <= time.perf_counter() - start < 2
    start = time.perf_counter()
    combined = client.get("/v1/ping", headers={"X-API-Key": API_KEY, "Prefer": "code=500, delay=100"})
    assert_error(combined, 500, "internal_error")
    assert 0.09 <= time.perf_counter() - start < 2


@pytest.mark.parametrize(
    ("prefer", "names"),
    [
        ("code=418", ["200", "400", "401", "404"]),
        ("code=201", ["200", "404"]),  # a 2xx the operation does not document
        ("code=abc", ["not an HTTP status"]),
        ("example=nope", ["default (200, 400, 401, 404)"]),
        ("code=401, example=nope", ["default"]),
        ("delay=-5", ["milliseconds"]),
        ("delay=soon", ["milliseconds"]),
        ("example", ["needs a value"]),
    ],
)
def test_a_prefer_the_operation_cannot_honour_is_400_naming_what_it_documents(
    mock: Controlled, client: Any, prefer: str, names: list[str]
):
    cid = mock.collection(client)
    before = mock.store.snapshot()
    response = client.get(f"/v1/collections/{cid}", headers=mock.headers(Prefer=prefer))
    body = assert_error(response, 400, "invalid_input")
    for name in names:
        assert name in body["message"]
    assert mock.store.snapshot() == before


def test_prefer_applies_to_operations_only(mock: Controlled, client: Any):
    prefer = {"Prefer": "code=500"}
    assert client.get("/__mock__/credentials", headers=prefer).status_code == 200
    assert client.get("/v1/openapi.json", headers=prefer).status_code == 200
    assert_error(client.get("/v1/nothing-here", headers=prefer), 404, "not_found")
    other = client.get("/v1/ping", headers={"X-API-Key": API_KEY, "Prefer": "return=minimal"})
    assert other.status_code == 200  # preferences other than code, example and delay are ignored


def test_error_codes_are_snake_case_from_the_status():
    assert error_code(404) == "not_found" and error_code(402) == "paid_plan_required"
    assert error_code(418) == "i_m_a_teapot" and error_code(507) == "insufficient_storage"
    assert [error_code(s) for s in (429, 500, 503)] == [
        "rate_limited",
        "internal_error",
        "service_unavailable",
    ]


# ---------------------------------------------------------------------- faults
def test_a_fault_answers_the_next_requests_then_goes(mock: Controlled, client: Any):
    planted = client.post(
        "/__mock__/faults", json={"operation": "collections.create_collection", "status": 503, "times": 2}
    )
    assert planted.status_code == 201, planted.text
    assert planted.json()["id"] >= 1
    before, generation = mock.store.snapshot(), mock.store.generation
    body = {"name": "Again", "type": "private"}
    failed = [client.post("/v1/collections", headers=mock.headers(), json=body) for _ in range(2)]
    assert statuses(failed) == [503, 503]
    assert_error(failed[0], 503, "service_unavailable")
    assert mock.store.snapshot() == before and mock.store.generation == generation
    assert client.post("/v1/collections", headers=mock.headers(), json=body).status_code == 201
    assert client.get("/__mock__/faults").json() == []


def test_faults_are_listed_with_their_remaining_times_and_deleted(mock: Controlled, client: Any):
    first = client.post("/__mock__/faults", json={"operation": "auth.ping", "status": 500, "times": 3}).json()
    second = client.post("/__mock__/faults", json={"operation": "*", "status": "slow", "delay_ms": 1}).json()
    assert_error(client.get("/v1/ping", headers={"X-API-Key": API_KEY}), 500, "internal_error")
    listed = client.get("/__mock__/faults").json()
    assert listed == [
        {
            "id": first["id"],
            "operation": "auth.ping",
            "status": 500,
            "times": 2,
            "probability": 1.0,
            "delay_ms": 0,
            "fired": 1,
        },
        {**second, "times": None, "fired": 0},
    ]
    assert client.delete(f"/__mock__/faults/{first['id']}").status_code == 204
    assert_error(client.delete(f"/__mock__/faults/{first['id']}"), 404, "not_found")
    assert_error(client.delete("/__mock__/faults/nope"), 404, "not_found")
    assert [f["id"] for f in client.get("/__mock__/faults").json()] == [second["id"]]
    assert client.delete("/__mock__/faults").status_code == 204
    assert client.get("/__mock__/faults").json() == []
    assert client.put("/__mock__/faults").status_code == 405


@pytest.mark.parametrize(
    "body",
    [
        {"operation": "items.no_such_thing", "status": 503},
        {"operation": 5, "status": 503},
        {"operation": "*", "status": 200},
        {"operation": "*", "status": 418},
        {"operation": "auth.ping", "status": 404},  # Ping documents no 404
        {"operation": "*", "status": "boom"},
        {"operation": "*"},
        {"operation": "*", "status": 503, "times": 0},
        {"operation": "*", "status": 503, "times": True},
        {"operation": "*", "status": 503, "probability": 1.5},
        {"operation": "*", "status": 503, "probability": 0},
        {"operation": "*", "status": "slow", "delay_ms": -1},
        {"operation": "*", "status": "slow", "delay_ms": 60_001},
        {"operation": "*", "status": 503, "when": "always"},
        [],
    ],
)
def test_a_fault_body_is_validated(client: Any, body: Any):
    assert_error(client.post("/__mock__/faults", json=body), 400, "invalid_input")
    assert client.get("/__mock__/faults").json() == []


def test_a_wildcard_fault_hits_the_operations_that_document_its_status(mock: Controlled, client: Any):
    cid = mock.collection(client)
    client.post("/__mock__/faults", json={"operation": "*", "status": 404, "times": 1})
    assert client.get("/v1/ping", headers={"X-API-Key": API_KEY}).status_code == 200  # Ping has no 404
    assert_error(client.get(f"/v1/collections/{cid}", headers=mock.headers()), 404, "not_found")
    assert client.get(f"/v1/collections/{cid}", headers=mock.headers()).status_code == 200


def test_a_slow_fault_waits_then_answers_normally(mock: Controlled, client: Any):
    client.post(
        "/__mock__/faults", json={"operation": "auth.ping", "status": "slow", "delay_ms": 120, "times": 1}
    )
    start = time.perf_counter()
    assert client.get("/v1/ping", headers={"X-API-Key": API_KEY}).json()["code"] == "pong"
    assert time.perf_counter() - start >= 0.11


def test_a_drop_in_process_answers_503_and_says_why(client: Any):
    client.post("/__mock__/faults", json={"operation": "auth.ping", "status": "drop"})
    body = assert_error(client.get("/v1/ping", headers={"X-API-Key": API_KEY}), 503, "service_unavailable")
    assert "csapi serve" in body["message"]


def test_a_fault_with_a_probability_fires_on_some_requests_reproducibly():
    def run() -> list[int]:
        controls = Controls(seed=3)
        controls.add_fault({"operation": "auth.ping", "status": 503, "probability": 0.5, "times": 5})
        ping = controls.operations.by_id["auth.ping"]
        return [i for i in range(40) if controls.take_fault(ping) is not None]

    fired = run()
    assert len(fired) == 5 and fired != list(range(5))
    assert run() == fired


# ---------------------------------------------------------------------- seeded latency and error rate
def _run_seeded(seed: int) -> tuple[list[int], list[float]]:
    """40 requests to a mock with --error-rate 0.25 and --latency 50-200, delays recorded, not waited."""
    slept: list[float] = []

    async def record(seconds: float) -> None:
        slept.append(seconds)

    mock = Controlled(seed=seed, error_rate=0.25, latency=(50, 200), sleep=record)
    with mock.app.test_client() as client:
        answers = [client.get("/v1/ping", headers={"X-API-Key": API_KEY}) for _ in range(40)]
        for response in answers:
            if response.status_code != 200:
                assert response.json()["code"] == FAULT_STATUSES[response.status_code]
        assert client.get("/__mock__/credentials").status_code == 200  # the admin API: neither
    return statuses(answers), slept


def test_the_error_rate_and_the_latency_are_reproducible_with_a_seed():
    first, slept = _run_seeded(seed=11)
    assert set(first) - {200} and first.count(200) >= 20  # some faulted, most not
    assert set(first) <= {200, *FAULT_STATUSES}
    assert len(slept) == 40 and all(0.05 <= s <= 0.2 for s in slept)
    assert _run_seeded(seed=11) == (first, slept)
    other, other_slept = _run_seeded(seed=12)
    assert other != first and other_slept != slept


def test_serve_options_of_the_faults_are_checked(tmp_path: Any):
    assert parse_latency("50-200") == (50, 200) and parse_latency("100") == (100, 100)
    for bad in ("fast", "200-50", "-5", "1-70000"):
        with pytest.raises(ValueError):
            parse_latency(bad)
        with pytest.raises(ServeUsageError, match="--latency"):
            check(ServeOptions(latency=bad))
    with pytest.raises(ServeUsageError, match="--error-rate"):
        check(ServeOptions(error_rate=1.5))
    with pytest.raises(ServeUsageError, match="--report"):
        check(ServeOptions(report=tmp_path / "missing" / "report.html"))


# ---------------------------------------------------------------------- drop, for real
def test_a_drop_closes_the_connection_without_an_answer():
    with Served("--api-key", "k", "--fixtures", "empty") as served:
        planted = served.client.post(
            "/__mock__/faults", json={"operation": "auth.ping", "status": "drop", "times": 1}
        )
        assert planted.status_code == 201, planted.text
        with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
            served.client.get("/v1/ping", headers={"X-API-Key": "k"})
        assert served.client.get("/v1/ping", headers={"X-API-Key": "k"}).status_code == 200
        [answered, dropped] = served.client.get("/__mock__/requests").json()
        assert dropped["status"] is None and [f["kind"] for f in dropped["findings"]] == ["fault"]
        status, _, err = served.stop()
    assert status == 0
    assert err.strip() == ""  # uvicorn saw the disconnect: nothing alarming in its log
