"""One loader for every reader of a document: the mock, the linter, the diff and conformance.

YAML or JSON into the JSON data model (string keys, timestamps left as strings): PyYAML's defaults
would turn `2026-11-21T12:00:00Z` into a datetime and `200:` into an int key, which no JSON client
ever sees. libyaml parses when PyYAML has it (the document is some 3,000 lines: ten times faster);
whatever it does not take goes through the pure-Python parser, for its error message.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml


class DocumentError(Exception):
    """The file cannot be turned into JSON-like data (unreadable, bad YAML, not JSON-shaped)."""


class _JsonLikeLoader(yaml.SafeLoader):
    """SafeLoader without the YAML 1.1 timestamp type."""

    yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }


if TYPE_CHECKING:
    _CLoader = yaml.SafeLoader  # what mypy checks against: CSafeLoader has the same interface
else:
    _CLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, when PyYAML has it


class _FastLoader(_CLoader):
    yaml_implicit_resolvers = _JsonLikeLoader.yaml_implicit_resolvers


def loads(text: str) -> dict[str, Any]:
    """Parse YAML or JSON text into JSON-like data whose top level is a mapping."""
    try:
        data = json.loads(json.dumps(yaml.load(text, Loader=_FastLoader)))  # noqa: S506  # a safe loader
    except (yaml.YAMLError, TypeError, ValueError, RecursionError):
        data = None
    if isinstance(data, dict):
        return data
    data = loads_any(text)  # the slow parser, for its message
    if not isinstance(data, dict):
        raise DocumentError(f"the top level must be a mapping, not {type(data).__name__}")
    return data


def loads_any(text: str) -> Any:
    """Parse YAML or JSON text into JSON-like data of any shape (the pure-Python parser)."""
    try:
        data = yaml.load(text, Loader=_JsonLikeLoader)  # noqa: S506  # a SafeLoader subclass
    except (yaml.YAMLError, RecursionError) as exc:
        raise DocumentError(f"not valid YAML or JSON: {one_line(str(exc))}") from exc
    try:
        return json.loads(json.dumps(data))
    except (TypeError, ValueError, RecursionError) as exc:
        raise DocumentError(f"not JSON-compatible data: {one_line(str(exc))}") from exc


def load(path: str | Path) -> dict[str, Any]:
    """The document at `path` (see `loads`); DocumentError when it cannot be read or parsed."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise DocumentError(f"cannot read {path}: {one_line(str(exc))}") from exc
    return loads(text)


def one_line(text: str) -> str:
    return " ".join(text.split())
