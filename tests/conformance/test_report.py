"""The report of `csapi conform --report`: a page a person reads, from a run with a failure.

The run is real: the mock is served with a hostile answer in front of one operation (List all
tags answers markup where its tags should be), so the report has a failure to show, and text
from the server that must come out escaped.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from csapi.conformance.report import html, markdown, write_report
from csapi.conformance.runner import EXIT_FAILED, run
from tests.conformance.conftest import live_mock
from tests.conformance.faults import Answer, Forward, Request, World, wrap_with

HOSTILE = "<script>alert('owned')</script>"


async def hostile_tags(request: Request, forward: Forward, world: World) -> Answer:
    """GET /v1/tags answers a list whose entry is markup, not a tag (no items_total_count)."""
    if request.on("GET", "/v1/tags"):
        return Answer.of(200, [{"id": 1, "name": HOSTILE}])
    return await forward(request)


@pytest.fixture(scope="module")
def failed_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[int, str, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("report")
    with live_mock(wrap=wrap_with(hostile_tags)) as live:
        settings = live.settings(
            quick=True,
            include=("tags.list_tags", "auth.ping"),
            report=out / "r.html",
            coverage_json=out / "c.json",
        )
        status = run(settings)
    page = (out / "r.html").read_text(encoding="utf-8")
    yield status, page, json.loads((out / "c.json").read_text(encoding="utf-8"))


def test_the_run_fails_and_says_so_first(failed_run: tuple[int, str, dict[str, Any]]):
    status, page, data = failed_run
    assert status == EXIT_FAILED and data["verdict"] == "failed"
    body = page[page.index("<body>") :]
    assert body.index("FAILED") < body.index("Operations × layers")
    assert "Failed checks" in page  # the list of failures in the summary, each a link below


def test_the_matrix_has_a_row_per_operation_and_a_coloured_cell_per_layer(
    failed_run: tuple[int, str, dict[str, Any]],
):
    _, page, data = failed_run
    matrix = page[page.index("<table class='matrix'>") : page.index("</table>", page.index("class='matrix'"))]
    assert [h for h in re.findall(r"<th>(\w+)</th>", matrix) if h in ("contract", "behaviour", "access")] == [
        "contract",
        "behaviour",
        "access",
    ]
    rows = re.findall(r"<tr><td><a href='#op-([^']+)'>.*?</tr>", matrix)
    assert len(rows) == len(data["operations"]) == 49
    row = re.search(r"<tr><td><a href='#op-tags.list_tags'>.*?</tr>", matrix)
    assert row and "class='cell failed'" in row.group(0)
    ping = re.search(r"<tr><td><a href='#op-auth.ping'>.*?</tr>", matrix)
    assert ping and "class='cell passed'" in ping.group(0) and "class='cell failed'" not in ping.group(0)
    teams = re.search(r"<tr><td><a href='#op-teams.list_teams'>.*?</tr>", matrix)
    assert teams and "cell failed" not in teams.group(0) and "cell passed" not in teams.group(0)
    assert "not in --include" in teams.group(0)  # why, on hover


def test_failures_come_before_coverage_with_rule_kind_curl_and_response(
    failed_run: tuple[int, str, dict[str, Any]],
):
    _, page, data = failed_run
    failures, coverage = page.index("<h2>Failures ("), page.index("<h2>Coverage per operation")
    assert page.index("<table class='matrix'>") < failures < coverage
    first = page[page.index("<article class='failure'") : page.index("</article>")]
    failure = data["failures"][0]
    assert failure["operation_id"] == "tags.list_tags"
    assert "curl -sS -X GET" in first and "/v1/tags" in first and "HTTP 200" in first
    assert "<dt>rule</dt>" in first and "<dt>kind</dt>" in first and failure["kind"] in first
    assert all(f["rule"] and f["kind"] for f in data["failures"] if f["status"] == "fail")


def test_text_from_the_server_is_escaped(failed_run: tuple[int, str, dict[str, Any]]):
    _, page, _ = failed_run
    assert HOSTILE not in page and "<script" not in page
    assert "&lt;script&gt;alert(&#x27;owned&#x27;)&lt;/script&gt;" in page


def test_the_page_is_self_contained(failed_run: tuple[int, str, dict[str, Any]]):
    _, page, _ = failed_run
    assert page.startswith("<!doctype html>") and "<style>" in page
    assert not re.search(r"<(link|img|iframe|script)\b|src=|href=['\"]?(https?:)?//", page)
    assert all(href.startswith("#") for href in re.findall(r"href='([^']*)'", page))


def test_coverage_per_operation_is_grouped_by_tag(failed_run: tuple[int, str, dict[str, Any]]):
    _, page, data = failed_run
    coverage = page[page.index("<h2>Coverage per operation") :]
    tags = re.findall(r"<h3>([^<]+)</h3>", coverage)
    assert tags[:3] == ["Collections", "Items", "Tags"]
    section = coverage[coverage.index("id='op-tags.list_tags'") :]
    section = section[: section.index("</details>")]
    assert " open>" in section[:120]  # an operation with a failure is shown unfolded
    assert "Parameters" in section and "Statuses" in section and "Checks" in section
    statuses = next(op for op in data["operations"] if op["operation_id"] == "tags.list_tags")["statuses"]
    assert "200 ×" in section and statuses["not_seen"]
    assert all(f"{status} not seen" in section for status in statuses["not_seen"])
    teams = coverage[coverage.index("id='op-teams.list_teams'") :]
    assert "not in --include" in teams[: teams.index("</details>")]


def test_markdown_for_an_md_file(failed_run: tuple[int, str, dict[str, Any]], tmp_path: Path):
    _, _, data = failed_run
    write_report(data, tmp_path / "r.md")
    text = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert text.startswith("# csapi conform: FAILED")
    assert text.index("## Operations × layers") < text.index("## Failures") < text.index("## Coverage")
    assert "| `tags.list_tags` | FAIL " in text and "```sh\ncurl" in text
    assert markdown(data) == text and html(data).startswith("<!doctype html>")
