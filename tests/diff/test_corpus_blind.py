"""A blind evaluation set of `csapi diff`: edits of the real document, written without reading the
tool's code or the corpus' expectations.

Each `corpus_blind/*.yaml` has the format of `corpus/` (see corpus/README.md: JSON Patch plus the
corpus' own operations, `class`, `reason` fragments, `why`) and is a change a team could make to
this API. The test runs each exactly as test_corpus does (its `_load`, `apply`, `run_diff` and
`assert_classified`), only with `--no-proof`: it checks what the structural rules decide. Each run
validates NEW (about a third of a second), so the default run takes the 46 entries without `slow:
true`, one or more of every rule family, in under 20 s; `pytest -m slow` adds the other 75. The
classes are DESIGN's: breaking when a client that follows OLD can fail against a server that follows
NEW, an obligation when servers must only do more, compatible for any other difference, none when
both documents mean the same API.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.diff.documents import real
from tests.diff.test_corpus import CLASSES, Entry, _load, apply, assert_classified, run_diff

BLIND = Path(__file__).parent / "corpus_blind"
PATHS = sorted(BLIND.glob("*.yaml"))
ENTRIES = [_load(path) for path in PATHS]
SLOW = {path.stem for path in PATHS if yaml.safe_load(path.read_text(encoding="utf-8")).get("slow")}
PARAMS = [
    pytest.param(entry, id=entry.name, marks=[pytest.mark.slow] if entry.name in SLOW else [])
    for entry in ENTRIES
]


def _sides(entry: Entry) -> tuple[dict[str, Any], dict[str, Any]]:
    old = apply(real(), entry.base)
    return old, apply(copy.deepcopy(old), entry.patch)


@pytest.mark.parametrize("entry", PARAMS)
def test_blind_edit_is_classified(entry: Entry, tmp_path: Path) -> None:
    old, new = _sides(entry)
    # without the payload proof: it would take a second an entry (test_corpus runs it)
    assert_classified(entry, *run_diff(old, new, tmp_path, proof=False))


def test_blind_set_has_60_edits_or_more_a_dozen_refactors_and_a_dozen_documentation_edits() -> None:
    counts = Counter(entry.expected for entry in ENTRIES)
    assert len(ENTRIES) >= 60
    assert set(counts) == set(CLASSES), counts
    assert counts["none"] >= 12, counts
    documentation = [e for e in ENTRIES if e.expected == "compatible" and "documentation" in e.why.lower()]
    assert len(documentation) >= 12, len(documentation)
    assert all(counts.get(cls) for cls in CLASSES) and len(ENTRIES) - len(SLOW) >= 40
    for entry in ENTRIES:  # an expectation without its ground is not reviewable
        assert entry.why and entry.expected in CLASSES, entry.name
        assert entry.reason or entry.expected == "none", entry.name


def test_every_blind_edit_applies_and_changes_the_document() -> None:
    """A patch whose pointer is wrong must fail here, not pass silently as `none`."""
    for entry in ENTRIES:
        old, new = _sides(entry)
        assert json.dumps(old) != json.dumps(new), entry.name
