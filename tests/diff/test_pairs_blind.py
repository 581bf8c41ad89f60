"""A blind evaluation set for `csapi diff`: pairs written from the definition alone.

Each pair in tests/diff/pairs_blind/*.yaml (format: pairs_blind/README.md) is two small OpenAPI
documents, the class the most severe change must have by the definition of docs/design.md
("Spec edits") and why. The pairs were written without reading the diff's code or its other
corpora, so they measure the tool rather than repeat it. Every document is checked valid first:
a pair must not pass or fail because its document is invalid (pairs expecting `error` aside).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from openapi_schema_validator import OAS31Validator
from openapi_spec_validator import validate

from csapi.cli import main

PAIRS_DIR = Path(__file__).parent / "pairs_blind"
SEVERITY = ["none", "compatible", "obligation", "breaking"]
CLASSES = {*SEVERITY, "error"}


def _load_pairs() -> list[dict[str, Any]]:
    pairs: list[dict[str, Any]] = []
    for path in sorted(PAIRS_DIR.glob("*.yaml")):
        for pair in yaml.safe_load(path.read_text()):
            pair["topic"] = path.stem
            pairs.append(pair)
    return pairs


PAIRS = _load_pairs()


def _complete(pair: dict[str, Any], body: Any, version: str) -> Any:
    """A string is written as is; a mapping gets `openapi` and `info` unless it names a version."""
    if isinstance(body, str) or "openapi" in body or "swagger" in body:
        return copy.deepcopy(body)
    return {"openapi": version, "info": {"title": pair["name"], "version": "1.0.0"}, **copy.deepcopy(body)}


def _document(pair: dict[str, Any], side: str) -> Any:
    """OLD (a shared base changed by `old_patch`), or NEW: written out, or OLD changed by `patch`."""
    document = _complete(pair, pair["old"], pair["openapi"])
    for operation in pair.get("old_patch", []):
        document = _apply(document, operation)
    if side == "old":
        return document
    version = pair.get("openapi_new", pair["openapi"])
    if "new" in pair:
        return _complete(pair, pair["new"], version)
    if "openapi" in document:
        document["openapi"] = version
    for operation in pair["patch"]:
        document = _apply(document, operation)
    return document


def _apply(document: Any, operation: dict[str, Any]) -> Any:
    """One JSON Patch (RFC 6902) operation: add, remove or replace."""
    tokens = [t.replace("~1", "/").replace("~0", "~") for t in operation["path"].split("/")[1:]]
    parent = document
    for token in tokens[:-1]:
        parent = parent[int(token)] if isinstance(parent, list) else parent[token]
    last, op = tokens[-1], operation["op"]
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if op == "add":
            parent.insert(index, copy.deepcopy(operation["value"]))
        elif op == "remove":
            del parent[index]
        else:
            parent[index] = copy.deepcopy(operation["value"])
    elif op == "remove":
        del parent[last]
    else:
        assert op in ("add", "replace"), operation
        assert op == "add" or last in parent, operation
        parent[last] = copy.deepcopy(operation["value"])
    return document


def _dump(content: Any, fmt: str) -> str:
    if isinstance(content, str):
        return content
    if fmt == "json":
        return json.dumps(content, indent=2)
    return yaml.safe_dump(content, sort_keys=False)


def _write_side(pair: dict[str, Any], side: str, root: Path) -> Path:
    """Write one side into its own folder: the root document and the files its `$ref`s name."""
    fmt = pair.get("format", "yaml")
    folder = root / side
    folder.mkdir()
    main_file = folder / f"openapi.{fmt}"
    main_file.write_text(_dump(_document(pair, side), fmt))
    files = pair.get("files", {})
    for relative, content in files.get(side, files.get("old", {})).items():
        target = folder / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_dump(content, "json" if relative.endswith(".json") else "yaml"))
    return main_file


def _check_valid(path: Path, document: dict[str, Any]) -> None:
    validate(document, base_uri=path.as_uri())
    if str(document["openapi"]).startswith("3.1"):
        for schema in _schemas(document):
            OAS31Validator.check_schema(schema)


def _schemas(node: Any, key: str = "") -> list[Any]:
    """Every Schema Object of a 3.1 document (which openapi-spec-validator does not look into)."""
    found: list[Any] = []
    if isinstance(node, dict):
        if key == "schema":
            found.append(node)
        if key == "components" and isinstance(node.get("schemas"), dict):
            found.extend(node["schemas"].values())
        for name, value in node.items():
            found.extend(_schemas(value, name))
    elif isinstance(node, list):
        for value in node:
            found.extend(_schemas(value))
    return found


def test_pairs_are_well_formed() -> None:
    names = [pair["name"] for pair in PAIRS]
    assert len(names) == len(set(names)), "pair names must be unique"
    for pair in PAIRS:
        assert pair["class"] in CLASSES, pair["name"]
        assert pair.get("why"), pair["name"]
        assert ("new" in pair) != ("patch" in pair), pair["name"]
        assert pair["openapi"] in ("3.0.3", "3.1.0"), pair["name"]


@pytest.mark.parametrize("pair", PAIRS, ids=[pair["name"] for pair in PAIRS])
def test_pair(pair: dict[str, Any], tmp_path: Path) -> None:
    old = _write_side(pair, "old", tmp_path)
    new = _write_side(pair, "new", tmp_path)
    expected = pair["class"]
    if expected != "error":
        for path, side in ((old, "old"), (new, "new")):
            _check_valid(path, _document(pair, side))
    result = CliRunner().invoke(
        main, ["diff", str(old), str(new), "--format", "json", "--fail-on", "breaking", "--no-proof"]
    )
    context = f"{pair['name']}: expected {expected} ({pair['why']})\n{result.output}"
    if expected == "error":
        assert result.exit_code == 2, context
        return
    assert result.exit_code in (0, 1), context
    changes = json.loads(result.stdout)["changes"]
    classes = [change["classification"] for change in changes]
    got = max(classes, key=SEVERITY.index) if classes else "none"
    assert got == expected, context
    assert result.exit_code == (1 if expected == "breaking" else 0), context
