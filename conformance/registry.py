"""The checks of the suite: one declaration for every check, one `Check` type, one registry.

A check names its layer, the operation it is about (an operationId of the document), what
it checks, the ids of the spec's statements it verifies (conformance/statements/: the inventory
reads its checks from here, `statements.checks_of`), and a unique, stable `id`. Its rule (what
its outcomes show) is the first of its statements, or its own `rule` for a choice of
docs/design.md. Two ways in, one family:
- `@check(...)` on a function: a check the runner runs (the id is the function's name);
- `declare(...)`: a property that another check exercises and records outcomes for (the
  behaviour layer's state machine), named by `recorded_by`; the runner never runs it itself.

The runner picks checks by --include/--exclude (operationIds or tags), leaves out writing
checks under --read-only and docs/design.md's gap choices unless --strict, and skips checks
that need more users than were given.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .results import Outcome, Results
from .settings import Settings
from .target import Exchange, Target

LAYERS = ("contract", "behaviour", "access")  # in the order they run


@dataclass
class RunContext:
    """What a check gets: the settings, the target over HTTP, where to record, a seeded RNG."""

    settings: Settings
    target: Target
    results: Results
    document: dict[str, Any]
    rng: random.Random = field(default_factory=random.Random)
    memo: dict[str, Any] = field(default_factory=dict)  # what checks of one run make once and share

    def selected(self, operation: str) -> bool:
        return unselected(self.document, self.settings, operation) is None


def unselected(document: dict[str, Any], settings: Settings, operation: str) -> str | None:
    """Why --include/--exclude (operationIds or tags) leave the operation out, or None when they keep it."""
    names = {operation, *_tags_of(document).get(operation, ())}
    if names & set(settings.exclude):
        return "excluded by --exclude"
    if settings.include and not names & set(settings.include):
        return "not in --include"
    return None


def _recorded_elsewhere(ctx: RunContext) -> None:
    """A declared property's func: its recorder runs it and records its outcomes."""


@dataclass(frozen=True)
class Check:
    layer: str
    operation: str
    name: str
    rule: str
    func: Callable[[RunContext], None] = _recorded_elsewhere
    writes: bool = True  # creates, changes or deletes data on the target
    strict: bool = False  # checks a gap choice of docs/design.md, only with --strict
    users: int = 1  # how many --user credentials it needs
    records_own: bool = False  # records its own outcomes (e.g. the schemathesis layer)
    id: str = ""  # unique and stable: --accept files and planted faults' tests name checks by it
    recorded_by: str = ""  # a declared property: the id of the check that records its outcomes
    paid: bool = False  # needs the first --user on a paid plan (tags)
    statements: tuple[str, ...] = ()  # ids of the spec's statements it verifies (conformance/statements/)


REGISTRY: list[Check] = []


def register(entry: Check) -> Check:
    """Add a check to the registry; its id must be new."""
    if not entry.id:
        raise ValueError(f"a check without an id: {entry.layer} {entry.operation}: {entry.name}")
    if any(c.id == entry.id for c in REGISTRY):
        raise ValueError(f"two checks with the id {entry.id!r}")
    if entry.statements:
        from .statements import by_id

        known = by_id()
        unknown = [s for s in entry.statements if s not in known]
        if unknown:
            raise ValueError(f"{entry.id}: no statement {unknown} in conformance/statements/")
        if not entry.rule:
            entry = replace(entry, rule=rule_of(entry.statements, entry.operation, entry.strict))
    REGISTRY.append(entry)
    return entry


def rule_of(statements: tuple[str, ...], operation: str = "", strict: bool = False) -> str:
    """The rule a check shows (its outcomes, the report, JUnit) when it states none of its own: the
    statement of its operation's row if it verifies it (4.x/<operation>, then one of that row's
    parameters or fields), else the first of an endpoint section (4.x), else its first; and the ids
    of a few more. A strict check (a choice of docs/design.md) shows its first docs/design.md rule."""
    from .statements import by_id

    row = operation.split(".")[-1].replace("_", "-")

    def rank(sid: str) -> int:
        section, _, slug = sid.partition("/")
        if strict and section == "design":
            return -1
        if not section.startswith("4."):  # an endpoint section, not the conventions of 4
            return 3
        return 0 if slug == row else 1 if slug.startswith(f"{row}.") else 2

    chosen = min(statements, key=rank)  # the first of the best rank
    first = by_id()[chosen]
    where = f"docs/design.md, {first.heading}" if first.heading else f"spec {first.section}"
    rule = f"{where}: {first.text}"
    more = [sid for sid in statements if sid != chosen]
    if more:
        rule += f" (also {', '.join(more[:3])}{', ...' if len(more) > 3 else ''})"
    return rule


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
    paid: bool = False,
    id: str | None = None,
    statements: tuple[str, ...] = (),
) -> Callable[[Callable[[RunContext], None]], Callable[[RunContext], None]]:
    """Register the decorated function as a check the runner runs; its id is the function's name
    unless `id` says otherwise (checks made in a loop). `statements`: the ids of the spec's
    statements it verifies; its rule is the first of them unless `rule` says otherwise (a choice of
    docs/design.md)."""

    def decorate(func: Callable[[RunContext], None]) -> Callable[[RunContext], None]:
        entry = Check(
            layer,
            operation,
            name,
            rule,
            func,
            writes,
            strict,
            users,
            records_own,
            paid=paid,
            statements=statements,
        )
        register(replace(entry, id=id or func.__name__))
        return func

    return decorate


def declare(
    layer: str,
    operation: str,
    name: str,
    rule: str = "",
    *,
    id: str,
    recorded_by: str,
    writes: bool = True,
    strict: bool = False,
    users: int = 1,
    paid: bool = False,
    statements: tuple[str, ...] = (),
) -> Check:
    """Register a property that the check `recorded_by` exercises and records (`record`).

    It is in the registry like any check (ids, statements, coverage of what the settings
    left out); the runner's call of it does nothing and records nothing (records_own)."""
    return register(
        Check(
            layer,
            operation,
            name,
            rule,
            writes=writes,
            strict=strict,
            users=users,
            records_own=True,
            id=id,
            recorded_by=recorded_by,
            paid=paid,
            statements=statements,
        )
    )


def by_id() -> dict[str, Check]:
    """Every registered check by its id."""
    return {c.id: c for c in REGISTRY}


def recorded_by(recorder: str) -> list[Check]:
    """The properties the check `recorder` records, in the order they were declared."""
    return [c for c in REGISTRY if c.recorded_by == recorder]


def record(
    ctx: RunContext,
    entry: Check,
    status: str,
    message: str = "",
    exchange: Exchange | None = None,
    *,
    kind: str = "",
    seconds: float = 0.0,
) -> None:
    """Record an outcome of a declared property (the recorder's way to report it)."""
    ctx.results.record(
        Outcome(
            entry.layer, entry.operation, entry.name, status, entry.rule, message, exchange, seconds, kind
        )
    )


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


def import_all(package: str, path: Iterable[str]) -> None:
    """Import every module of a layer's package (from its __init__), so that a module dropped into
    it registers its checks without being named anywhere. A subpackage is imported too; its own
    __init__ calls import_all for its modules (behaviour/items/, behaviour/machine/)."""
    for module in sorted(m.name for m in pkgutil.iter_modules(path)):
        importlib.import_module(f"{package}.{module}")
