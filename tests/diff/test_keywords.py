"""No changes must mean the two documents mean the same (issue 23, item 1; docs/design.md, Spec edits).

For every keyword an OpenAPI 3.0 or 3.1 document can hold (Schema Object with the JSON Schema 2020-12
vocabularies, Parameter, Request Body, Media Type, Encoding, Response, Header, Link, Example,
Operation, Path Item, Security Scheme and OAuth flows, Security Requirement, Server and its
variables, Info, Tag, External Docs, Components, callbacks, webhooks, jsonSchemaDialect) the test
builds a valid document and a second one that differs only in that keyword (added, removed or
changed), runs `csapi diff OLD NEW --format json --no-proof` through click's runner and asserts
that the difference is reported:

- exit 0 or 1 with at least one change whose pointer is at or under the edited place (the object
  that holds the keyword, or one of the few other places a case names: the component a `$ref`
  leads to, the security requirements that name an edited scheme, the part `/info`, `/servers`
  or `/tags` that the plan reports as a whole, the media type's `examples` for an Example
  Object, the `if` of a condition), and no `not-compared` change (that must exit 2), or
- exit 2 with a `not-compared` change that names the keyword at that place (the diff says it
  does not compare the keyword; the user judges by hand).

Never "No changes". Schema keywords are edited once in a request body schema and once in a
response schema, one level down in every place a subschema can sit, and in a component both
`$ref`. Every document is validated first (openapi-spec-validator; for 3.1 every
schema also against the OAS 3.1 dialect, and every local `$ref` must resolve), so no case can
pass or fail on an invalid document. The negative control: a document and the same document
with its keys reordered and a component renamed give exit 0 and no changes.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from csapi.cli import main
from tests.diff import keyword_document, keyword_objects
from tests.diff.documents import reverse_keys
from tests.diff.keyword_cases import ABSENT, Case, Document, object_cases, put
from tests.diff.keyword_schemas import component_cases, schema_cases, with_component
from tests.diff.validity import assert_valid

ALL: list[Case] = [
    *schema_cases(),
    *component_cases(),
    *object_cases([*keyword_objects.rows(), *keyword_document.rows()]),
]


# --------------------------------------------------------------------------------------------------
# Running the diff


@dataclass
class Outcome:
    exit_code: int
    output: str
    changes: list[dict[str, Any]] = field(default_factory=list)


def run_diff(tmp_path: Path, old: Document, new: Document) -> Outcome:
    """`csapi diff OLD NEW --format json --no-proof`, both written to `tmp_path` as JSON."""
    old_file, new_file = tmp_path / "old.json", tmp_path / "new.json"
    old_file.write_text(json.dumps(old), encoding="utf-8")
    new_file.write_text(json.dumps(new), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["diff", str(old_file), str(new_file), "--format", "json", "--no-proof"]
    )
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Outcome(result.exit_code, result.output, _report_changes(result.stdout))


def _report_changes(stdout: str) -> list[dict[str, Any]]:
    """The changes of the JSON report on stdout (there is none when a side could not be read)."""
    start = stdout.find("{")
    if start < 0:
        return []
    try:
        report, _ = json.JSONDecoder().raw_decode(stdout[start:])
    except json.JSONDecodeError:
        return []
    changes: list[dict[str, Any]] = report.get("changes", [])
    return changes


def _within(pointer: str, place: str) -> bool:
    return pointer == place or pointer.startswith(place.rstrip("/") + "/")


def _at_place(change: dict[str, Any], case: Case) -> bool:
    return any(_within(change["pointer"], place) for place in case.places)


def _names(change: dict[str, Any], case: Case) -> bool:
    words = f"{change.get('message', '')} {change.get('reason', '')}"
    return any(name in words for name in case.names)


def _shown(outcome: Outcome) -> str:
    listed = "\n".join(
        f"  {c['classification']} {c['pointer']} [{c['rule']}] {c['message']}" for c in outcome.changes
    )
    return f"exit {outcome.exit_code}; changes:\n{listed or '  (none)'}\noutput:\n{outcome.output[-1500:]}"


# --------------------------------------------------------------------------------------------------
# The tests


@pytest.mark.parametrize("case", ALL, ids=[case.id for case in ALL])
def test_a_keyword_changed_is_reported(case: Case, tmp_path: Path) -> None:
    assert_valid(case.old)
    assert_valid(case.new)
    # as JSON text: Python calls {"enum": [0]} and {"enum": [False]} equal, JSON does not
    assert json.dumps(case.old, sort_keys=True) != json.dumps(case.new, sort_keys=True), (
        "the case must differ"
    )
    outcome = run_diff(tmp_path, case.old, case.new)
    where = f"{case.keyword} at {' or '.join(case.places)}\n{_shown(outcome)}"
    if outcome.exit_code == 2:
        unread = [c for c in outcome.changes if c["rule"] == "not-compared"]
        assert any(_at_place(c, case) and _names(c, case) for c in unread), (
            f"exit 2 without a not-compared change naming {case.names}: {where}"
        )
        return
    assert outcome.exit_code in (0, 1), where
    unjudged = [c["pointer"] for c in outcome.changes if c["rule"] == "not-compared"]
    assert not unjudged, f"a not-compared change must make the CLI exit 2: {where}"
    assert "No changes" not in outcome.output, f"a silent 'No changes': {where}"
    assert outcome.changes, f"no change reported: {where}"
    assert any(_at_place(c, case) for c in outcome.changes), f"no change at the edited place: {where}"


@pytest.mark.parametrize("version", ["3.0", "3.1"])
def test_keys_reordered_and_a_component_renamed_is_no_change(version: str, tmp_path: Path) -> None:
    old = with_component(version, "Item")
    new = reverse_keys(with_component(version, "Thing"))
    assert_valid(old)
    assert_valid(new)
    outcome = run_diff(tmp_path, old, new)
    assert outcome.exit_code == 0, _shown(outcome)
    assert outcome.changes == [], _shown(outcome)


def test_every_case_differs_only_where_it_says() -> None:
    """The cases themselves: each edit touches one keyword of one object (a guard on the tables)."""
    for case in ALL:
        old, new = copy.deepcopy(case.old), copy.deepcopy(case.new)
        put(old, case.holder, case.keyword, ABSENT)
        put(new, case.holder, case.keyword, ABSENT)
        assert old == new, case.id
    assert len({case.id for case in ALL}) == len(ALL), "ids must be unique"
