"""`csapi diff --accept FILE`: the known breaks a team accepts, each with its reason.

The file is a YAML list (or a mapping with the list under `accept`); each entry names where
(`operation`: "METHOD /path" or an operationId, and/or `pointer`: a JSON pointer, matching it and
everything below it), what (`kind`: the rule, e.g. `required-added`), why (`reason`) and optionally
until when (`expires`: a date, YYYY-MM-DD)::

    - operation: POST /v1/items/{item_id}/comments
      kind: required-added
      reason: every client sends `lang` since v2.3 (PROJ-412)
      expires: 2026-06-30

A change an entry matches is reported as accepted, with the entry's reason, and does not fail the
gate. So that the file cannot rot, an entry that matches nothing is reported, and an entry past its
expiry date accepts nothing, is reported and fails the gate.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..loader import DocumentError, loads_any, one_line
from .model import Change, Classification, Note, Report

KEYS = frozenset({"operation", "pointer", "kind", "reason", "expires"})


class AcceptError(Exception):
    """The accept file cannot be read or an entry is malformed."""


@dataclass(frozen=True)
class Entry:
    kind: str
    reason: str
    operation: str = ""
    pointer: str = ""
    expires: dt.date | None = None

    def matches(self, change: Change) -> bool:
        if change.classification is Classification.COMPATIBLE or change.rule != self.kind:
            return False
        if self.operation and self.operation not in (change.operation, change.operation_id):
            return False
        return (
            not self.pointer
            or change.pointer == self.pointer
            or change.pointer.startswith(self.pointer + "/")
        )

    def __str__(self) -> str:
        where = " ".join(part for part in (self.operation, self.pointer) if part)
        until = f" (expires {self.expires.isoformat()})" if self.expires else ""
        return f"{self.kind} at {where}{until}"


@dataclass(frozen=True)
class Acceptance:
    entries: tuple[Entry, ...]
    today: dt.date = field(default_factory=dt.date.today)

    def apply(self, report: Report) -> Report:
        """`report` with the changes the entries match accepted and a note per rotten entry."""
        notes: list[Note] = []
        changes = list(report.changes)
        for entry in self.entries:
            matched = [index for index, change in enumerate(changes) if entry.matches(change)]
            if entry.expires is not None and entry.expires < self.today:
                message = f"expired on {entry.expires.isoformat()}: renew it or fix the change"
                notes.append(Note(str(entry), message, fails=True))
                continue
            if not matched:
                notes.append(Note(str(entry), "matches no change: remove it", fails=False))
            for index in matched:
                changes[index] = changes[index].accept(entry.reason)
        return replace(report, changes=tuple(changes), notes=(*report.notes, *notes))


def load_accept(path: str | Path, today: dt.date | None = None) -> Acceptance:
    try:
        data = loads_any(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise AcceptError(f"cannot read {path}: {one_line(str(exc))}") from exc
    except DocumentError as exc:
        raise AcceptError(f"{path}: {exc}") from exc
    return parse_accept(data, str(path), today)


def parse_accept(data: Any, label: str = "accept file", today: dt.date | None = None) -> Acceptance:
    if isinstance(data, dict) and "accept" in data:
        data = data["accept"]
    if data is None:
        data = []
    if not isinstance(data, list):
        raise AcceptError(f"{label}: must be a list of entries (operation or pointer, kind, reason)")
    entries = tuple(_entry(item, f"{label}: entry {number}") for number, item in enumerate(data, 1))
    return Acceptance(entries) if today is None else Acceptance(entries, today)


def _entry(item: Any, where: str) -> Entry:
    if not isinstance(item, dict):
        raise AcceptError(f"{where}: must be a mapping, not {json.dumps(item)}")
    unknown = sorted(set(item) - KEYS)
    if unknown:
        raise AcceptError(f"{where}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(KEYS))})")
    text = {key: item[key] for key in KEYS if key in item}
    for key, value in text.items():
        if key != "expires" and not (isinstance(value, str) and value.strip()):
            raise AcceptError(f"{where}: {key} must be a non-empty string")
    if "kind" not in text or "reason" not in text:
        raise AcceptError(f"{where}: needs a kind (the rule, e.g. required-added) and a reason")
    if "operation" not in text and "pointer" not in text:
        raise AcceptError(f"{where}: needs an operation (METHOD /path or operationId) or a pointer")
    if "pointer" in text and not text["pointer"].startswith("/"):
        raise AcceptError(f"{where}: pointer must be a JSON pointer (starting with /)")
    expires = None
    if "expires" in text:
        try:
            expires = dt.date.fromisoformat(str(text["expires"]))
        except ValueError:
            raise AcceptError(f"{where}: expires must be a date, YYYY-MM-DD") from None
    return Entry(text["kind"], text["reason"], text.get("operation", ""), text.get("pointer", ""), expires)
