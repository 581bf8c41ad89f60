"""The client's contract report (journal.py, report.py; `serve --report FILE`): every operation of
the document, used or not, the statuses seen and the findings grouped by operation; JSON, or one
HTML page for a person (no script, no external asset); written when `csapi serve` stops."""

from __future__ import annotations

import json
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from csapi.mock_server.report import render_html, write_report
from csapi.openapi import load_inventory
from tests.mock_server.conftest import API_KEY
from tests.mock_server.controlled import Controlled
from tests.mock_server.served import Served

OPERATIONS = len(load_inventory())  # 49


@pytest.fixture(scope="module")
def mock() -> Controlled:
    return Controlled()


@pytest.fixture
def report(mock: Controlled) -> Iterator[dict[str, Any]]:
    """The report after a small client session: 4 operations used, some errors, some findings."""
    mock.fresh()
    with mock.app.test_client() as client:
        cid = mock.collection(client)
        client.get(f"/v1/collections/{cid}", headers=mock.headers())
        client.get(f"/v1/collections/{cid}", headers=mock.headers(Prefer="code=404"))
        client.get("/v1/collections/999", headers=mock.headers())
        for _ in range(2):
            client.get("/v1/ping")  # no X-API-Key: 401 and a finding, twice the same
        client.get("/v1/ping", headers={"X-API-Key": API_KEY})
        client.post("/__mock__/faults", json={"operation": "tags.list_tags", "status": 503, "times": 1})
        client.get("/v1/tags", headers=mock.headers())
        client.get("/v1/<b>nothing</b>", headers=mock.headers())
    yield mock.controls.journal.report(mock.controls.operations)


def test_the_report_covers_every_operation(report: dict[str, Any]):
    assert report["format"] == "csapi-contract-report" and report["version"] == 1
    assert report["summary"] == {
        "operations": OPERATIONS,
        "used": 4,
        "requests": 9,
        "findings": 5,
        "findings_by_kind": {"missing_header": 2, "prefer": 1, "fault": 1, "no_such_operation": 1},
        "non_2xx": 6,
        "no_such_operation": 1,
    }
    rows = {row["operationId"]: row for row in report["operations"]}
    assert len(rows) == OPERATIONS
    got = rows["collections.get_collection"]
    assert got["used"] and got["requests"] == 3
    assert got["statuses"] == {"200": 1, "404": 2}
    assert got["documented_statuses"] == ["200", "400", "401", "404"] and got["undocumented_statuses"] == []
    assert [f["kind"] for f in got["findings"]] == ["prefer"]
    ping = rows["auth.ping"]
    assert ping["statuses"] == {"200": 1, "401": 2}
    assert ping["findings"] == [
        {"kind": "missing_header", "message": ping["findings"][0]["message"], "count": 2}
    ]
    tags = rows["tags.list_tags"]
    assert tags["statuses"] == {"503": 1} and tags["undocumented_statuses"] == ["503"]
    assert not rows["teams.get_team"]["used"] and rows["teams.get_team"]["statuses"] == {}
    assert report["unmatched"]["requests"] == 1 and report["unmatched"]["statuses"] == {"404": 1}
    assert report["unmatched"]["findings"][0]["kind"] == "no_such_operation"


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.links: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.links += [value or "" for name, value in attrs if name in ("src", "href")]

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_the_html_report_reads_at_a_glance(report: dict[str, Any], tmp_path: Path):
    path = tmp_path / "report.html"
    write_report(path, report)
    html = path.read_text(encoding="utf-8")
    assert html == render_html(report)
    page = _Page()
    page.feed(html)
    text = " ".join(" ".join(page.text).split())
    assert "script" not in page.tags and "link" not in page.tags and page.links == []  # self-contained
    assert text.index(f"4/{OPERATIONS} operations used") < text.index("Operations")  # the summary first
    for label in ("9 requests", "5 findings", "6 non-2xx answers", "1 no such operation"):
        assert label in text
    for row in report["operations"]:
        assert row["operationId"] in text
    assert "<b>nothing</b>" in text and "<b>nothing" not in html  # escaped, not markup
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_a_report_file_not_ending_in_html_is_json(report: dict[str, Any], tmp_path: Path):
    path = tmp_path / "report.json"
    write_report(path, report)
    assert json.loads(path.read_text(encoding="utf-8")) == report


def test_serve_writes_the_report_when_it_stops(tmp_path: Path):
    path = tmp_path / "contract.json"
    with Served("--api-key", "k", "--fixtures", "empty", "--report", str(path)) as served:
        assert served.client.get("/v1/ping", headers={"X-API-Key": "k"}).status_code == 200
        assert served.client.get("/v1/tags").status_code == 401
        assert not path.exists()
        status, _, err = served.stop()
    assert status == 0, err
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written["summary"]["used"] == 2 and written["summary"]["requests"] == 2
    assert written["summary"]["operations"] == OPERATIONS and written["summary"]["non_2xx"] == 1
