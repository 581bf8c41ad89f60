"""A check for every statement of the spec (issue 22 item 2): the inventory (conformance/statements/)
against spec/api-spec.md as it reads now, and against the registered checks.

The statements are read from the spec copy at test time (tests/spec_md.py `statements`): each
sentence and each table row of sections 1-5 and 8. An entry matches a statement by section and
text; a text that occurs n times in a section needs n entries. docs/design.md's rules (design.py,
section "design") are matched against docs/design.md instead (tests/conformance/test_rules.py)."""

from __future__ import annotations

import importlib
from collections import Counter

from csapi.conformance import registry, runner
from csapi.conformance.contract.data import RULES
from csapi.conformance.statements import CONTRACT, STATEMENTS, Statement, by_id
from csapi.conformance.statements.design import DESIGN
from tests.spec_md import STATEMENT_SECTIONS, statements


def _registered() -> dict[str, registry.Check]:
    for layer in runner.LAYERS:  # the registry is complete once every layer package is imported
        importlib.import_module(f"csapi.conformance.{layer}")
    return registry.by_id()


def _known(name: str, checks: dict[str, registry.Check]) -> bool:
    """A registered id, or contract:<name>: an outcome the registered contract check records."""
    recorder, _, outcome = name.partition(":")
    return name in checks if not outcome else recorder == CONTRACT in checks and outcome in RULES


SPEC = [s for s in STATEMENTS if s.section != DESIGN]  # the spec's statements


def _key(entry: Statement) -> tuple[str, str]:
    return entry.section, entry.text


def test_the_spec_is_read() -> None:
    """The extraction is not vacuous: every section in scope has statements."""
    found = statements()
    assert len(found) >= 250
    assert {section.split(".")[0] for section, _ in found} == set(STATEMENT_SECTIONS)


def test_every_statement_of_the_spec_has_an_entry() -> None:
    listed = Counter(_key(s) for s in SPEC)
    missing = Counter(statements()) - listed
    assert not missing, "statements of the spec without an entry in conformance/statements/:\n" + "\n".join(
        f"  {section}: {text!r}" + (f" (x{n})" if n > 1 else "") for (section, text), n in missing.items()
    )


def test_no_entry_is_stale() -> None:
    stale = Counter(_key(s) for s in SPEC) - Counter(statements())
    assert not stale, "entries whose text is no longer in the spec (or is listed too often):\n" + "\n".join(
        f"  {section}: {text!r}" for section, text in stale
    )


def test_every_entry_has_checks_or_a_reason() -> None:
    bare = [s.id for s in STATEMENTS if not s.checks and not s.reason.strip()]
    assert not bare, f"entries with neither checks nor a reason: {bare}"


def test_ids_are_unique_and_stable() -> None:
    ids = Counter(s.id for s in STATEMENTS)
    assert [i for i, n in ids.items() if n > 1] == []
    for entry in STATEMENTS:
        assert entry.id.startswith(entry.section.split(".")[0]), entry.id
        assert len(set(entry.checks)) == len(entry.checks), f"{entry.id} names a check twice"


def test_every_check_named_is_registered() -> None:
    checks = _registered()
    unknown = sorted({name for s in STATEMENTS for name in s.checks if not _known(name, checks)})
    named_by = {name: [s.id for s in STATEMENTS if name in s.checks] for name in unknown}
    assert not unknown, "statements name checks that are not registered:\n" + "\n".join(
        f"  {name}: {', '.join(ids)}" for name, ids in named_by.items()
    )


def test_every_check_declares_known_statements() -> None:
    """A check names statements by id; registering one that names an unknown id fails, so every
    declared id is in the inventory, and each statement lists the checks that declare it."""
    checks = _registered()
    for entry in checks.values():
        for sid in entry.statements:
            assert entry.id in by_id()[sid].checks, (entry.id, sid)
