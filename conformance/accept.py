"""`csapi conform --accept FILE`: the known failures a team accepts, each with its reason, so that
the gate can land in CI before everything is fixed.

The file is `csapi diff --accept`'s (openapi/diff/accept.py reads it, with the same rules): a YAML
list, or a mapping with the list under `accept`; each entry names where (`operation`: an
operationId, or "METHOD /path" of the document), what (`kind`: the check, by its registry id,
e.g. `collection_create_fields_persist`, or by the name its outcome shows, as the contract layer's
schemathesis checks are named: `positive_data_acceptance`), why (`reason`) and optionally until
when (`expires`: YYYY-MM-DD)::

    accept:
      - operation: items.create_item
        kind: positive_data_acceptance
        reason: file uploads land in PROJ-88
        expires: 2026-09-30

A failure (or error) an entry matches is shown, marked accepted with the entry's reason, and fails
nothing (JUnit: a skipped testcase). So that the file cannot rot, an entry past its expiry date
accepts nothing, is reported and fails the run; an entry that matched no failure is listed as
unused. Entries naming an operation or a check that does not exist are refused before the run
(a UsageError, exit 2), with the nearest names.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..openapi.diff.accept import AcceptError, Entry, parse_accept
from ..openapi.loader import DocumentError, loads_any, one_line
from .registry import REGISTRY
from .results import AcceptNote, Outcome, Results
from .settings import UsageError

METHODS = ("get", "put", "post", "delete", "patch")


@dataclass(frozen=True)
class Known:
    """An entry of the file, its operation read as the document's operationId."""

    entry: Entry
    operation_id: str

    def __str__(self) -> str:
        until = f" (expires {self.entry.expires.isoformat()})" if self.entry.expires else ""
        return f"{self.entry.kind} at {self.entry.operation}{until}"


@dataclass
class Acceptance:
    """The entries of an --accept file, applied to a run's results (`apply`)."""

    entries: tuple[Known, ...]
    today: dt.date = field(default_factory=dt.date.today)

    def apply(self, results: Results) -> None:
        """Mark the failures the entries match as accepted, and note each entry that accepted
        nothing: expired (it fails the run) or unused."""
        for known in self.entries:
            entry = known.entry
            matched = [
                o
                for o in results.outcomes
                if o.failed and o.operation == known.operation_id and _is(o, entry.kind)
            ]
            if entry.expires is not None and entry.expires < self.today:
                message = f"expired on {entry.expires.isoformat()}: renew it or fix the check"
                results.accept_notes.append(AcceptNote(str(known), message, fails=True))
                continue
            if not matched:
                results.accept_notes.append(
                    AcceptNote(str(known), "matched no failure: remove it", fails=False)
                )
            for outcome in matched:
                outcome.accepted = entry.reason
                outcome.expires = entry.expires.isoformat() if entry.expires else ""


def _is(outcome: Outcome, kind: str) -> bool:
    """Whether `kind` names the check of the outcome: its registry id, the name it shows (the
    contract layer's schemathesis checks), or the id of the declared property it records."""
    if kind in (outcome.id, outcome.check):
        return True
    return any(
        c.id == kind
        and c.layer == outcome.layer
        and c.name == outcome.check
        and c.operation == outcome.operation
        for c in REGISTRY
    )


def load(path: Path, document: dict[str, Any], today: dt.date | None = None) -> Acceptance:
    """The --accept file, checked against the document and the registry (the layers imported);
    a UsageError naming what is wrong and the nearest known names."""
    try:
        data = loads_any(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"--accept: cannot read {path}: {one_line(str(exc))}") from None
    except DocumentError as exc:
        raise UsageError(f"--accept: {path}: {exc}") from None
    items = data["accept"] if isinstance(data, dict) and "accept" in data else data
    for number, item in enumerate(items if isinstance(items, list) else [], 1):
        _check_item(item, f"--accept: {path}: entry {number}")
    try:
        parsed = parse_accept(data, f"--accept: {path}", today)
    except AcceptError as exc:
        raise UsageError(str(exc)) from None
    operations = operation_ids(document)
    kinds = check_names()
    entries = []
    for number, entry in enumerate(parsed.entries, 1):
        where = f"--accept: {path}: entry {number}"
        operation_id = _operation_id(entry.operation, operations)
        if operation_id is None:
            near = _nearest(entry.operation, [*operations.values(), *operations])
            raise UsageError(f"{where}: no operation {entry.operation!r} in the document{near}")
        if entry.kind not in kinds:
            raise UsageError(f"{where}: no check {entry.kind!r}{_nearest(entry.kind, sorted(kinds))}")
        entries.append(Known(entry, operation_id))
    return Acceptance(tuple(entries), parsed.today)


def _check_item(item: Any, where: str) -> None:
    """What conform needs of an entry, said in conform's words (parse_accept checks the rest)."""
    if not isinstance(item, dict):
        raise UsageError(
            f"{where}: must be a mapping (operation, kind, reason, expires), not {json.dumps(item)}"
        )
    if "pointer" in item:
        raise UsageError(f"{where}: pointer is csapi diff's; csapi conform matches an operation and a check")
    missing = [key for key in ("operation", "kind", "reason") if key not in item]
    if missing:
        raise UsageError(
            f"{where}: needs {', '.join(missing)} (operation: an operationId or METHOD /path; kind: the "
            "check's id or name, e.g. positive_data_acceptance; reason: why it is accepted)"
        )


def operation_ids(document: dict[str, Any]) -> dict[str, str]:
    """ "METHOD /path" -> operationId, for every operation of the document."""
    return {
        f"{method.upper()} {path}": op["operationId"]
        for path, item in document["paths"].items()
        for method, op in item.items()
        if method in METHODS and isinstance(op, dict) and "operationId" in op
    }


def _operation_id(name: str, operations: dict[str, str]) -> str | None:
    if name in operations.values():
        return name
    method, _, path = name.strip().partition(" ")
    return operations.get(f"{method.upper()} {path.strip()}")


def check_names() -> set[str]:
    """Every name `kind` may give: the registry's ids and names, and the contract layer's checks."""
    from .contract.data import RULES  # the contract layer's schemathesis checks, by name

    names: set[str] = set(RULES) | {"schemathesis", "stateful links"}
    for check in REGISTRY:
        names |= {check.id, check.name}
    return names


def _nearest(name: str, known: list[str]) -> str:
    near = difflib.get_close_matches(name, known, n=3, cutoff=0.5)
    return f" (nearest: {', '.join(near)})" if near else ""
