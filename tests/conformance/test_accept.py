"""`csapi conform --accept FILE`: known failures accepted with a reason, until they expire.

The file is `csapi diff --accept`'s format. A real run against the mock with a fault in front of
one operation (List all tags answers a markup name and no counts: test_report.py's) fails five
checks of three kinds: two of the contract layer (schemathesis' names), two behaviour checks
(registry ids) and one property the state machine records (its declared id). Accepting them turns
the run green, with each failure still shown; an expired entry fails the run.
"""

from __future__ import annotations

import datetime as dt
import importlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest
from click.testing import CliRunner

from csapi.cli import main
from csapi.conformance.accept import Acceptance, load
from csapi.conformance.registry import LAYERS
from csapi.conformance.report import markdown
from csapi.conformance.results import ERROR, FAIL, PASS, Outcome, Progress, Results
from csapi.conformance.runner import EXIT_FAILED, EXIT_OK, EXIT_USAGE, run
from csapi.conformance.settings import UsageError
from csapi.openapi import document
from tests.conformance.conftest import API_KEY, live_mock
from tests.conformance.faults import wrap_with
from tests.conformance.test_report import hostile_tags

TODAY = dt.date(2026, 5, 1)
FAILING = """\
accept:
  - operation: tags.list_tags
    kind: response_schema_conformance          # the contract layer: schemathesis' check name
    reason: markup names until PROJ-7
    expires: 2026-12-31
  - operation: GET /v1/tags                    # METHOD /path works too
    kind: ignored_auth
    reason: PROJ-8
  - operation: tags.list_tags
    kind: tag_counts                           # a behaviour check: its registry id
    reason: counts land in PROJ-9
  - operation: tags.list_tags
    kind: tags_listed_across_shared_collections
    reason: PROJ-9
  - operation: tags.list_tags
    kind: stateful_model.tag_count             # a property the state machine records
    reason: PROJ-9
"""


def _file(tmp_path: Path, text: str, name: str = "known.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _load(tmp_path: Path, text: str, today: dt.date = TODAY) -> Acceptance:
    """The file's entries, checked against the registry (the layers imported) and the document."""
    for layer in LAYERS:
        importlib.import_module(f"csapi.conformance.{layer}")
    return load(_file(tmp_path, text), document(), today)


# ---------------------------------------------------------------------- the file
def test_entries_name_an_operation_by_id_or_method_and_path(tmp_path: Path):
    acceptance = _load(tmp_path, FAILING)
    assert [k.operation_id for k in acceptance.entries] == ["tags.list_tags"] * 5
    assert acceptance.entries[0].entry.expires == dt.date(2026, 12, 31)


def test_a_plain_list_works_as_in_csapi_diff(tmp_path: Path):
    text = "- {operation: auth.ping, kind: not_a_server_error, reason: flaky proxy}\n"
    assert len(_load(tmp_path, text).entries) == 1


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (
            "- {operation: tags.list_tag, kind: tag_counts, reason: r}\n",
            "no operation 'tags.list_tag' in the document",
        ),
        ("- {operation: GET /v1/tag, kind: tag_counts, reason: r}\n", "(nearest: GET /v1/tags"),
        (
            "- {operation: tags.list_tags, kind: tag_count, reason: r}\n",
            "no check 'tag_count' (nearest: tag_counts",
        ),
        ("- {operation: auth.ping, kind: ignored_aut, reason: r}\n", "(nearest: ignored_auth"),
        (
            "- {operation: auth.ping, kind: ignored_auth}\n",
            "entry 1: needs reason (operation: an operationId",
        ),
        ("- {operation: auth.ping, reason: r}\n", "entry 1: needs kind"),
        ("- {kind: ignored_auth, reason: r}\n", "entry 1: needs operation"),
        ("- {pointer: /paths, kind: ignored_auth, reason: r}\n", "pointer is csapi diff's"),
        (
            "- {operation: auth.ping, kind: ignored_auth, reason: r, expires: soon}\n",
            "expires must be a date",
        ),
        ("- {operation: auth.ping, kind: ignored_auth, reason: r, until: x}\n", "unknown key(s) until"),
        ("- just a line\n", "entry 1: must be a mapping"),
        ("operation: auth.ping\n", "must be a list of entries"),
        ("- [unclosed\n", "not valid YAML or JSON"),
    ],
)
def test_a_bad_entry_is_a_usage_error_naming_it(tmp_path: Path, text: str, says: str):
    with pytest.raises(UsageError) as refused:
        _load(tmp_path, text)
    assert says in str(refused.value) and str(refused.value).startswith("--accept: ")


def test_a_missing_file_is_a_usage_error(tmp_path: Path):
    with pytest.raises(UsageError, match="--accept: cannot read"):
        load(tmp_path / "nope.yaml", document(), TODAY)


# ---------------------------------------------------------------------- applied to outcomes
def _outcomes() -> Results:
    results = Results()
    results.record(Outcome("contract", "tags.list_tags", "ignored_auth", FAIL, id="contract"))
    results.record(
        Outcome(
            "behaviour", "tags.list_tags", "tag counts follow tagging and deletions", FAIL, id="tag_counts"
        )
    )
    results.record(
        Outcome(
            "behaviour",
            "tags.list_tags",
            "stateful: tag counts follow tagging, moves and deletions",
            ERROR,
            id="stateful_model",
        )
    )
    results.record(Outcome("contract", "auth.ping", "ignored_auth", PASS, id="contract"))
    return results


def test_entries_accept_by_check_name_registry_id_and_declared_property(tmp_path: Path):
    results = _outcomes()
    _load(tmp_path, FAILING).apply(results)
    assert [o.accepted for o in results.outcomes] == ["PROJ-8", "counts land in PROJ-9", "PROJ-9", ""]
    assert results.ok
    unused = [n.entry for n in results.accept_notes]
    assert unused == [
        "response_schema_conformance at tags.list_tags (expires 2026-12-31)",
        "tags_listed_across_shared_collections at tags.list_tags",
    ]
    assert not any(n.fails for n in results.accept_notes)


def test_an_entry_matches_only_its_operation(tmp_path: Path):
    results = _outcomes()
    _load(tmp_path, "- {operation: auth.ping, kind: ignored_auth, reason: r}\n").apply(results)
    assert not any(o.accepted for o in results.outcomes) and not results.ok
    assert results.accept_notes[0].message == "matched no failure: remove it"


def test_an_expired_entry_accepts_nothing_and_fails_the_run(tmp_path: Path):
    results = Results()
    results.record(Outcome("contract", "tags.list_tags", "ignored_auth", FAIL, id="contract"))
    text = "- {operation: tags.list_tags, kind: ignored_auth, reason: r, expires: 2026-04-30}\n"
    _load(tmp_path, text).apply(results)
    assert not results.outcomes[0].accepted and not results.ok
    note = results.accept_notes[0]
    assert note.fails and note.message == "expired on 2026-04-30: renew it or fix the check"
    text = "- {operation: auth.ping, kind: ignored_auth, reason: r, expires: 2026-04-30}\n"
    results = Results()
    _load(tmp_path, text).apply(results)  # expired, and matching nothing: it still fails
    assert not results.ok


def test_the_last_day_is_still_accepted(tmp_path: Path):
    results = Results()
    results.record(Outcome("contract", "tags.list_tags", "ignored_auth", FAIL, id="contract"))
    text = "- {operation: tags.list_tags, kind: ignored_auth, reason: r, expires: 2026-05-01}\n"
    _load(tmp_path, text).apply(results)
    assert results.outcomes[0].accepted == "r" and results.outcomes[0].expires == "2026-05-01" and results.ok


# ---------------------------------------------------------------------- a real run
@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Two runs against the mock with the fault in front: every failure accepted; then one of them
    by an entry that expired."""
    folder = tmp_path_factory.mktemp("accept")
    known = _file(folder, FAILING)
    expired = _file(
        folder,
        FAILING.replace("reason: PROJ-8\n", "reason: PROJ-8\n    expires: 2026-01-01\n"),
        "expired.yaml",
    )
    found: dict[str, Any] = {}
    with live_mock(wrap=wrap_with(hostile_tags)) as live:
        for name, path in (("accepted", known), ("expired", expired)):
            out = io.StringIO()
            settings = live.settings(
                quick=True,
                settle=1.0,
                include=("tags.list_tags",),
                accept=path,
                junit_xml=folder / f"{name}.xml",
                coverage_json=folder / f"{name}.json",
                report=folder / f"{name}.html",
            )
            status = run(settings, out=out, progress=_quiet())
            data = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
            found[name] = (status, out.getvalue(), ET.parse(folder / f"{name}.xml").getroot(), data)
            found[f"{name} page"] = (folder / f"{name}.html").read_text(encoding="utf-8")
    yield found


def _quiet() -> Progress:
    return Progress(io.StringIO())


def test_accepted_failures_leave_the_run_green_and_shown(runs: dict[str, Any]):
    status, out, _, data = runs["accepted"]
    assert status == EXIT_OK, out
    assert "accepted failures (--accept; they fail nothing): 5" in out
    assert "accepted: markup names until PROJ-7, until 2026-12-31" in out
    assert "FAIL " not in out and out.rstrip().endswith("0 failed, 0 errors, 1 skipped, 5 accepted")
    assert data["verdict"] == "passed" and data["failures"] == []
    assert data["totals"]["checks"]["accepted"] == 5 and data["totals"]["checks"]["failed"] == 0
    accepted = {(a["operation_id"], a["check"]): a for a in data["accepted"]}
    first = accepted[("tags.list_tags", "response_schema_conformance")]
    assert first["reason"] == "markup names until PROJ-7" and first["expires"] == "2026-12-31"
    assert {a["reason"] for a in data["accepted"]} == {
        "markup names until PROJ-7",
        "PROJ-8",
        "counts land in PROJ-9",
        "PROJ-9",
    }
    tags = next(op for op in data["operations"] if op["operation_id"] == "tags.list_tags")
    assert tags["layers"]["contract"]["state"] == "accepted" and tags["layers"]["contract"]["accepted"] == 2


def test_the_report_keeps_accepted_failures_visible(runs: dict[str, Any]):
    page = runs["accepted page"]
    assert "<h4>Accepted failures (--accept)</h4>" in page and "markup names until PROJ-7" in page
    assert "class='cell accepted'" in page and "<span class='pill accepted'>accepted</span>" in page
    _, _, _, data = runs["accepted"]
    text = markdown(data)
    assert "## Accepted failures (5)" in text and "| `tags.list_tags` | ACCEPTED 2 accepted" in text
    assert "expired on 2026-01-01" in runs["expired page"]


def test_junit_has_accepted_failures_as_skipped(runs: dict[str, Any]):
    _, _, root, _ = runs["accepted"]
    assert all(suite.get("failures") == "0" and suite.get("errors") == "0" for suite in root)
    reasons = [s.get("message") for s in root.iter("skipped")]
    assert "accepted failure: markup names until PROJ-7 (until 2026-12-31)" in reasons
    assert sum(r.startswith("accepted failure: ") for r in reasons) == 5


def test_an_expired_entry_fails_the_run_and_its_failure_shows(runs: dict[str, Any]):
    status, out, root, data = runs["expired"]
    assert status == EXIT_FAILED
    assert "--accept entry ignored_auth at GET /v1/tags (expires 2026-01-01): expired on 2026-01-01" in out
    assert "(fails the run)" in out
    assert "FAIL tags.list_tags" in out and "[contract] tags.list_tags: ignored_auth" in out
    assert (
        "   to accept it (--accept FILE): - {operation: tags.list_tags, kind: ignored_auth, reason: ...}"
        in out
    )
    assert data["verdict"] == "failed" and [f["check"] for f in data["failures"]] == ["ignored_auth"]
    assert data["accept_notes"][0]["fails"] is True
    assert sum(suite.get("failures") == "1" for suite in root) == 1


def test_the_command_line_takes_accept_and_refuses_a_bad_file(tmp_path: Path):
    bad = _file(tmp_path, "- {operation: tags.list_tag, kind: tag_counts, reason: r}\n")
    args = [
        "conform",
        "--base-url",
        "http://127.0.0.1:9",
        "--api-key",
        API_KEY,
        "--user",
        "1:t",
        "--accept",
        str(bad),
    ]
    result = CliRunner().invoke(main, args, env={})
    assert result.exit_code == EXIT_USAGE  # before any request: the target is not even there
    assert result.output.startswith(f"csapi conform: --accept: {bad}: entry 1: no operation 'tags.list_tag'")
    assert result.output.count("\n") == 1
