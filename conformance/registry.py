"""The checks of the suite, registered by the layer modules with the `check` decorator.

A check names its layer, the operation it is about (an operationId of the document), what
it checks and the spec rule it stands for. The runner picks checks by --include/--exclude
(operationIds or tags), leaves out writing checks under --read-only and docs/design.md's gap
choices unless --strict, and skips checks that need more users than were given.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .results import Results
from .settings import Settings
from .target import Target


@dataclass
class RunContext:
    """What a check gets: the settings, the target over HTTP, where to record, a seeded RNG."""

    settings: Settings
    target: Target
    results: Results
    document: dict[str, Any]
    rng: random.Random = field(default_factory=random.Random)

    def selected(self, operation: str) -> bool:
        tags = set(_tags_of(self.document).get(operation, ()))
        names = {operation, *tags}
        include, exclude = set(self.settings.include), set(self.settings.exclude)
        return (not include or bool(names & include)) and not names & exclude


@dataclass(frozen=True)
class Check:
    layer: str
    operation: str
    name: str
    rule: str
    func: Callable[[RunContext], None]
    writes: bool = True  # creates, changes or deletes data on the target
    strict: bool = False  # checks a gap choice of docs/design.md, only with --strict
    users: int = 1  # how many --user credentials it needs
    records_own: bool = False  # records its own outcomes (e.g. the schemathesis layer)


REGISTRY: list[Check] = []


def check(
    layer: str,
    operation: str,
    name: str,
    rule: str = "",
    *,
    writes: bool = True,
    strict: bool = False,
    users: int = 1,
    records_own: bool = False,
) -> Callable[[Callable[[RunContext], None]], Callable[[RunContext], None]]:
    def register(func: Callable[[RunContext], None]) -> Callable[[RunContext], None]:
        REGISTRY.append(Check(layer, operation, name, rule, func, writes, strict, users, records_own))
        return func

    return register


_TAGS: dict[int, dict[str, list[str]]] = {}


def _tags_of(document: dict[str, Any]) -> dict[str, list[str]]:
    """operationId -> its tags, per document."""
    key = id(document)
    if key not in _TAGS:
        _TAGS[key] = {
            op["operationId"]: op.get("tags", [])
            for item in document["paths"].values()
            for op in item.values()
            if isinstance(op, dict) and "operationId" in op
        }
    return _TAGS[key]
