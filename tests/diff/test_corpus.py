"""The acceptance corpus of `csapi diff`: edits of the real document, each with its class and reason.

Each `corpus/*.yaml` (see corpus/README.md) is a small edit of `openapi/openapi.yaml`. The test
writes OLD and NEW to temporary files, runs `csapi diff OLD NEW --fail-on breaking --format json`
through click's runner, and asserts what a user of the gate sees: the exit status (1 exactly when
the edit is breaking), the most severe class among the reported changes, and that a change of that
class gives the expected reason. The classes are DESIGN.md's (breaking / implementer obligation /
compatible); the JSON may spell them `breaking`, `implementer-obligation` or `obligation`, and
`compatible`.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner

from csapi.cli import main
from csapi.openapi.diff import diff
from tests.diff.documents import real, reverse_keys

CORPUS = Path(__file__).parent / "corpus"
CLASSES = ("none", "compatible", "obligation", "breaking")  # least to most severe


@dataclass(frozen=True)
class Entry:
    name: str
    expected: str
    reason: tuple[str, ...]
    operation: str | None
    base: tuple[dict[str, Any], ...]
    patch: tuple[dict[str, Any], ...]
    why: str


def _load(path: Path) -> Entry:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return Entry(
        path.stem,
        data["class"],
        tuple(data.get("reason") or ()),
        data.get("operation"),
        tuple(data.get("base") or ()),
        tuple(data.get("patch") or ()),
        data["why"],
    )


ENTRIES = [_load(path) for path in sorted(CORPUS.glob("*.yaml"))]


# --------------------------------------------------------------------------------------------------
# Applying an edit: JSON Patch plus the corpus' own operations (corpus/README.md)


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    assert pointer.startswith("/"), pointer
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _parent(doc: Any, pointer: str) -> tuple[Any, str]:
    tokens = _tokens(pointer)
    node = doc
    for token in tokens[:-1]:
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node, tokens[-1]


def _get(doc: Any, pointer: str) -> Any:
    if pointer == "":
        return doc
    parent, last = _parent(doc, pointer)
    return parent[int(last)] if isinstance(parent, list) else parent[last]


def _add(doc: Any, pointer: str, value: Any) -> None:
    parent, last = _parent(doc, pointer)
    if isinstance(parent, list):
        parent.insert(len(parent) if last == "-" else int(last), value)
    else:
        parent[last] = value


def _remove(doc: Any, pointer: str) -> Any:
    parent, last = _parent(doc, pointer)
    return parent.pop(int(last) if isinstance(parent, list) else last)


def _retarget(node: Any, old: str, new: str) -> None:
    if isinstance(node, dict):
        if node.get("$ref") == old:
            node["$ref"] = new
        for value in node.values():
            _retarget(value, old, new)
    elif isinstance(node, list):
        for value in node:
            _retarget(value, old, new)


def apply(doc: dict[str, Any], operations: tuple[dict[str, Any], ...]) -> dict[str, Any]:
    """`doc` with the operations applied in order; a pointer that does not exist fails the test."""
    for operation in operations:
        op, where = operation["op"], operation.get("path", "")
        if op == "add":
            _add(doc, where, copy.deepcopy(operation["value"]))
        elif op == "remove":
            _remove(doc, where)
        elif op == "replace":
            _get(doc, where)  # must exist
            parent, last = _parent(doc, where)
            parent[int(last) if isinstance(parent, list) else last] = copy.deepcopy(operation["value"])
        elif op == "move":
            _add(doc, where, _remove(doc, operation["from"]))
        elif op == "copy":
            _add(doc, where, copy.deepcopy(_get(doc, operation["from"])))
        elif op == "remove-value":
            _get(doc, where).remove(operation["value"])
        elif op == "reverse":
            _get(doc, where).reverse()
        elif op == "reverse-keys":
            if where == "":
                doc = reverse_keys(doc)
            else:
                parent, last = _parent(doc, where)
                parent[last] = reverse_keys(parent[last])
        elif op == "retarget-refs":
            _retarget(doc, operation["from"], operation["to"])
        else:
            raise AssertionError(f"unknown corpus operation {op!r}")
    return doc


# --------------------------------------------------------------------------------------------------
# Reading the report


def class_of(change: dict[str, Any]) -> str:
    """A change's class in the corpus' words, whatever key and spelling the JSON uses."""
    value = str(change.get("classification", change.get("class", ""))).lower()
    if "obligation" in value:
        return "obligation"
    if value.startswith("breaking"):  # today's breaking-client / breaking-server too
        return "breaking"
    if value == "compatible":
        return "compatible"
    raise AssertionError(f"unknown classification {value!r} in {change}")


def text_of(change: dict[str, Any]) -> str:
    """Every text the change shows a user (message, reason, rule, pointer, ...), lowercased."""
    parts: list[str] = []

    def collect(value: Any) -> None:
        if isinstance(value, str):
            parts.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                collect(item)
        elif isinstance(value, list):
            for item in value:
                collect(item)

    collect(change)
    return " ".join(parts).lower()


def shows(change: dict[str, Any], reason: tuple[str, ...]) -> bool:
    text = text_of(change)
    return all(any(word.lower() in text for word in fragment.split("|")) for fragment in reason)


def run_diff(
    old: dict[str, Any], new: dict[str, Any], folder: Path, *, proof: bool = True
) -> tuple[int, dict[str, Any]]:
    old_path, new_path = folder / "old.json", folder / "new.json"
    old_path.write_text(json.dumps(old), encoding="utf-8")
    new_path.write_text(json.dumps(new), encoding="utf-8")
    args = ["diff", str(old_path), str(new_path), "--fail-on", "breaking", "--format", "json"]
    result = CliRunner().invoke(main, args if proof else [*args, "--no-proof"])
    assert result.exit_code in (0, 1), result.output  # 2: a side is not valid OpenAPI, or not-compared
    return result.exit_code, json.loads(result.output)


def assert_classified(entry: Entry, exit_code: int, report: dict[str, Any]) -> None:
    """The report holds the entry's class as its most severe, with a change that shows its reason."""
    changes = report["changes"]
    seen = [f"{class_of(c)}: {c.get('rule')}: {c.get('pointer')}: {c.get('message')}" for c in changes]
    worst = max((class_of(c) for c in changes), key=CLASSES.index, default="none")
    assert worst == entry.expected, (entry.why, seen)
    assert exit_code == (1 if entry.expected == "breaking" else 0), seen
    if entry.expected == "none":
        return
    matching = [c for c in changes if class_of(c) == entry.expected and shows(c, entry.reason)]
    assert matching, (f"no {entry.expected} change shows {entry.reason}", seen)
    if entry.operation:
        operations = {c.get("operation") for c in matching}
        assert entry.operation in operations, (entry.operation, operations)


# --------------------------------------------------------------------------------------------------
# The tests


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_edit_is_classified(entry: Entry, tmp_path: Path) -> None:
    old = apply(real(), entry.base)
    new = apply(copy.deepcopy(old), entry.patch)
    assert_classified(entry, *run_diff(old, new, tmp_path))


def test_corpus_has_50_edits_or_more_of_every_class() -> None:
    counts = Counter(entry.expected for entry in ENTRIES)
    assert len(ENTRIES) >= 50
    assert set(counts) == set(CLASSES), counts
    for entry in ENTRIES:  # an expectation without its ground is not reviewable
        assert entry.why, entry.name
        assert entry.expected in CLASSES, entry.name
        assert entry.reason or entry.expected == "none", entry.name


def test_every_edit_applies_and_changes_the_document_unless_it_is_a_no_op() -> None:
    """A patch whose pointer is wrong must fail here, not pass silently as `none`."""
    for entry in ENTRIES:
        old = apply(real(), entry.base)
        new = apply(copy.deepcopy(old), entry.patch)
        if entry.name != "document-with-itself":
            assert json.dumps(old) != json.dumps(new), entry.name


def test_the_proof_finds_a_break_the_structural_rules_alone_miss() -> None:
    """A oneOf alternative loosened reads as an obligation to the rules; a generated payload shows
    that what OLD clients send now matches two alternatives, and the gate closes."""
    entry = next(entry for entry in ENTRIES if entry.name == "oneof-branch-required-dropped")
    old = apply(real(), entry.base)
    new = apply(copy.deepcopy(old), entry.patch)
    rules_alone = diff(old, new, proof=False)
    assert rules_alone and not any(change.breaking for change in rules_alone), rules_alone
    proven = [change for change in diff(old, new, proof=True) if change.breaking]
    assert proven, "the proof found nothing"
    for change in proven:  # each shows the payload, and why NEW refuses it
        assert change.rule == "payload-proof" and change.example, change
        assert "valid under each of" in change.reason + change.message, change
