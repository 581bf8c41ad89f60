"""The pairs corpus of `csapi diff`: small OpenAPI documents, each pair with its class and reason.

Each `pairs/<topic>.yaml` (see pairs/README.md) lists pairs of small documents, OLD and NEW, in
OpenAPI 3.0 or 3.1, written as YAML or JSON, in one file or several. The test writes both sides to
a temporary folder, runs `csapi diff OLD NEW --format json --fail-on breaking` through click's
runner and asserts what a user of the gate sees: the exit status (1 exactly when the pair is
breaking, 2 when a side cannot be read or holds a keyword the diff does not compare), the most
severe class among the changes, a change of that class showing the expected reason, and, for a
pair marked `proof`, the generated payload that shows the break.
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
from tests.diff.test_corpus import CLASSES, class_of, shows

PAIRS = Path(__file__).parent / "pairs"
SLOT = "<<slot>>"
INFO = {"title": "pairs", "version": "1.0.0"}
TEMPLATES: dict[str, Any] = yaml.safe_load((PAIRS / "_templates.yaml").read_text(encoding="utf-8"))


@dataclass(frozen=True)
class Pair:
    name: str
    topic: str
    expected: str
    versions: tuple[str, str]  # "raw" writes the side as given, without `openapi` and `info`
    format: str
    old: Any
    new: Any
    files: dict[str, dict[str, Any]]
    reason: tuple[str, ...]
    why: str
    proof: bool
    template: str | None  # a `_templates.yaml` entry: `old`/`new` then fill its `<<slot>>`

    def side(self, which: str) -> Any:
        """OLD or NEW as written to disk: the template filled, the boilerplate added (a raw side
        may be text: a file that is not YAML at all)."""
        value = copy.deepcopy(self.old if which == "old" else self.new)
        return _document(value, self.template, self.versions[0 if which == "old" else 1])

    @property
    def is_31(self) -> bool:
        return any(version.startswith("3.1") for version in self.versions)


def _fill(node: Any, value: Any) -> Any:
    """The template `node` with every `<<slot>>` string replaced by `value`."""
    if node == SLOT:
        return copy.deepcopy(value)
    if isinstance(node, dict):
        return {key: _fill(item, value) for key, item in node.items()}
    if isinstance(node, list):
        return [_fill(item, value) for item in node]
    return node


def _merge(into: dict[str, Any], extra: dict[str, Any]) -> None:
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            _merge(into[key], value)
        else:
            into[key] = value


def _document(value: Any, template: str | None, version: str) -> Any:
    if template is not None:
        extra: dict[str, Any] = {}
        if isinstance(value, dict) and "$slot" in value:  # the slot plus top-level parts (components)
            extra = {key: item for key, item in value.items() if key != "$slot"}
            value = value["$slot"]
        value = _fill(TEMPLATES[template], value)
        _merge(value, extra)
    if version == "raw":
        return value
    document: dict[str, Any] = {"openapi": version, "info": dict(INFO)}
    document.update(value)
    return document


def _versions(value: Any) -> tuple[str, str]:
    if isinstance(value, dict):
        return str(value["old"]), str(value["new"])
    return str(value), str(value)


def _load(path: Path) -> list[Pair]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    pairs = []
    for item in data["pairs"]:
        files = item.get("files") or {}
        reason = item.get("reason") or ()
        pairs.append(
            Pair(
                name=item["name"],
                topic=path.stem,
                expected=item["class"],
                versions=_versions(item.get("openapi", data.get("openapi", "3.0.3"))),
                format=item.get("format", data.get("format", "yaml")),
                old=item["old"],
                new=item["new"],
                files={side: {**files.get("both", {}), **files.get(side, {})} for side in ("old", "new")},
                reason=tuple(str(item) for item in ([reason] if isinstance(reason, str) else reason)),
                why=item.get("why", ""),
                proof=bool(item.get("proof", False)),
                template=item.get("template", data.get("template")),
            )
        )
    return pairs


ALL = [pair for path in sorted(PAIRS.glob("[!_]*.yaml")) for pair in _load(path)]


# --------------------------------------------------------------------------------------------------
# Writing a side and running the gate


def _dump(value: Any, path: Path, fmt: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    elif isinstance(value, str):  # a file given as text (a broken or non-OpenAPI one)
        path.write_text(value, encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(value, sort_keys=False), encoding="utf-8")


def write_side(pair: Pair, which: str, folder: Path) -> Path:
    """The side's root document in `folder/which/api/` and its other files relative to that folder
    (`../lib/x.yaml` lands in `folder/which/lib/`, still apart from the other side); the root's path."""
    base = folder / which / "api"
    root = base / f"openapi.{pair.format}"
    _dump(pair.side(which), root, pair.format)
    for relpath, content in pair.files[which].items():
        _dump(content, base / relpath, "json" if relpath.endswith(".json") else "yaml")
    return root


def run(pair: Pair, folder: Path) -> tuple[int, str, str]:
    """The exit status, stdout and all output of `csapi diff` on the pair."""
    old, new = write_side(pair, "old", folder), write_side(pair, "new", folder)
    args = ["diff", str(old), str(new), "--format", "json", "--fail-on", "breaking"]
    if not pair.proof:
        args.append("--no-proof")
    result = CliRunner().invoke(main, args)
    return result.exit_code, result.stdout, result.output


def _report(stdout: str) -> dict[str, Any]:
    """The JSON report at the start of stdout (a line may follow it)."""
    value, _ = json.JSONDecoder().raw_decode(stdout.lstrip())
    assert isinstance(value, dict)
    return value


# --------------------------------------------------------------------------------------------------
# The tests


@pytest.mark.parametrize("pair", ALL, ids=lambda pair: pair.name)
def test_pair_is_classified(pair: Pair, tmp_path: Path) -> None:
    exit_code, stdout, output = run(pair, tmp_path)
    if pair.expected == "error":
        assert exit_code == 2, (pair.why, output[-2000:])
        # one line names what cannot be read or compared: the last (a not-compared keyword's
        # report comes before it)
        last = [line for line in output.splitlines() if line.strip()][-1]
        assert shows({"line": last}, pair.reason), (pair.reason, output[-2000:])
        return
    assert exit_code in (0, 1), (pair.why, output[-2000:])
    changes = _report(stdout)["changes"]
    seen = [f"{class_of(c)}: {c.get('rule')}: {c.get('pointer')}: {c.get('message')}" for c in changes]
    worst = max((class_of(c) for c in changes), key=CLASSES.index, default="none")
    assert worst == pair.expected, (pair.why, seen)
    assert exit_code == (1 if pair.expected == "breaking" else 0), seen
    if pair.expected == "none":
        return
    matching = [c for c in changes if class_of(c) == pair.expected and shows(c, pair.reason)]
    assert matching, (f"no {pair.expected} change shows {pair.reason}", seen)
    if pair.proof:
        proven = [c for c in changes if class_of(c) == "breaking" and c.get("example")]
        assert proven, ("no breaking change carries a payload", seen)


def test_the_corpus_is_large_and_varied() -> None:
    assert len(ALL) >= 200, len(ALL)
    assert sum(pair.is_31 for pair in ALL) >= 70
    assert sum(pair.format == "json" for pair in ALL) >= 40
    assert sum(bool(pair.files["old"] or pair.files["new"]) for pair in ALL) >= 20
    assert sum(pair.proof for pair in ALL) >= 10
    names = Counter(pair.name for pair in ALL)
    assert not [name for name, count in names.items() if count > 1], "pair names must be unique"
    classes = Counter(pair.expected for pair in ALL)
    assert set(classes) == {*CLASSES, "error"}, classes
    for pair in ALL:  # an expectation without its ground is not reviewable
        assert pair.why.strip(), pair.name
        assert pair.format in ("yaml", "json"), pair.name
        assert pair.reason or pair.expected == "none", pair.name
        assert not pair.proof or pair.expected == "breaking", pair.name


def test_every_pair_differs_unless_it_is_a_refactor() -> None:
    """A pair whose sides came out equal tests nothing; only `none` pairs may be equal in meaning,
    and even they must differ in how they are written."""
    for pair in ALL:
        old = (pair.side("old"), pair.files["old"], pair.format)
        new = (pair.side("new"), pair.files["new"], pair.format)
        assert json.dumps(old) != json.dumps(new), pair.name
