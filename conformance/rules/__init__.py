"""The rule table: every rule the spec (sections 2-4) and docs/design.md state, as data.

A row names its family, the operation it is about, its subject (a query parameter, a body
field, a code), the rule in a few words with where it is written, and the ids of the checks
that cover it (`registry.by_id()`: a check's id is its function name).
tests/conformance/test_rules.py reads the document and fails when a query parameter or a
writable field has no row, or a row names no registered check.

Each module of this package adds its rows as a module-level `ROWS`; every module is imported
here, so a module dropped in adds its rows without being named anywhere.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass

# families (issue 15): what kind of rule a row states
PARAMETER = "parameter"  # a query parameter of an operation and its effect on the answer
PERSISTENCE = "persistence"  # a writable field, as a later, different read shows it
DELETION = "deletion"  # where a deleted thing must disappear
COUNTER = "counter"  # a counter or feed and the events that move it
WORDING = "wording"  # a fixed `code` or message of an answer
STATUS = "status"  # an answer's status code
SHAPE = "shape"  # an answer's shape
PAGING = "paging"  # paging defaults and limits
ACCESS = "access"  # who may see and do what
FAMILIES = (PARAMETER, PERSISTENCE, DELETION, COUNTER, WORDING, STATUS, SHAPE, PAGING, ACCESS)


@dataclass(frozen=True)
class Rule:
    family: str
    operation: str  # an operationId of the document
    subject: str  # e.g. "owner_id", "include=items", "sort_order", "code deleted"
    rule: str  # the rule in a few words
    source: str  # "spec 4.1 ..." or "docs/design.md, <heading>"
    checks: tuple[str, ...]  # ids of the checks covering it


ROWS: list[Rule] = []

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    ROWS.extend(importlib.import_module(f"{__name__}.{_module}").ROWS)


def rows(family: str | None = None, operation: str | None = None) -> list[Rule]:
    """The rows of a family and/or an operation."""
    return [
        r
        for r in ROWS
        if (family is None or r.family == family) and (operation is None or r.operation == operation)
    ]
