"""The spec's statements, and docs/design.md's rules, each with the checks that verify it (issue 22,
items 2 and 3): the one inventory of the rules conform checks.

An inventory of spec/api-spec.md, sections 1-5 and 8 (4.11, the notes, included): every sentence
of prose or of a bullet, and every table row but the header, as a `Statement`: a stable `id`,
the `section` it is in, its `text` as the spec reads (whitespace collapsed; a table row is its
cells joined with " | ", trailing empty cells dropped), and either checks that verify it or the
`reason` it cannot be checked from outside over HTTP, or both when only a part can be (the
reason then says which part is not checked).

The mapping is written once, at the check: a check declares the ids of the statements it
verifies (`@check(..., statements=(...))`, registry.Check.statements), and `checks_of(statement)`
(`Statement.checks`) reads them from the registry. What the contract layer's schemathesis checks
judge against the document is written here (`contract`), as those are no checks of this suite.

tests/conformance/test_statements.py reads the spec copy itself at test time and fails when a
statement of the spec has no entry here (matched by section and text: a row that occurs twice in
a section, e.g. `include` in 4.1's two query tables, needs two entries), when an entry's text is
no longer in the spec, when an entry has neither checks nor a reason, or when it names a check
that is not registered.

How checks are named:
- a registry id (`registry.by_id()`), of the checks that declare the statement;
- `contract:<name>` for what the contract layer's schemathesis checks judge against the
  document (conformance/contract/data.py RULES: `contract:response_schema_conformance` for a
  field's type, nullability, format and values, `contract:status_code_conformance` for a
  status, `contract:response_headers_conformance` for X-Total-Count, ...). The contract layer is
  one registered check, `contract`, that records its outcomes under those names; declaring each
  as a registry entry of its own (`contract.<name>`, recorded_by "contract") would break
  tests/conformance/test_contract.py's "the layer is registered as one check", so the inventory
  names the one check and the outcome it records instead, and the test checks both parts.

A query-parameter or body-field row of section 4 also names the `operations` it belongs to and
its `subjects` (the parameters or fields of its first cell; a prose statement about parameters
or body fields, through s4_endpoints.SUBJECTS): tests/conformance/test_rules.py reads the
document and fails when a query parameter or a writable field has no statement with checks.

design.py holds docs/design.md's rules that checks verify where the spec sets none (section
"design", each quoting docs/design.md under its heading); a check of one shows
"docs/design.md, <heading>: <text>" as its rule.

A "not shown" sentence sets no rule: conform accepts any answer there (NOT_SHOWN); where a
check judges docs/design.md's choice for the gap with --strict, the entry names it too.

Each module of this package (one per spec section) adds its entries as a module-level
`STATEMENTS`; every module is imported here, so a module dropped in is read without being named.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True)
class Statement:
    id: str  # stable: "2.1/collection.sort_by", "4.1/update-items-order.order", "5.4"
    section: str  # the spec's section number: "2.1", "4.11"
    text: str  # as the spec reads, whitespace collapsed; a table row's cells joined with " | "
    contract: tuple[str, ...] = ()  # contract:<schemathesis check>, the outcomes that judge it
    reason: str = ""  # why (a part of) it cannot be checked from outside over HTTP
    operations: tuple[str, ...] = ()  # a parameter or body row: the operationIds it belongs to
    subjects: tuple[str, ...] = ()  # a parameter or body row: the parameters or fields it names
    heading: str = ""  # section "design" (design.py): the heading of docs/design.md it is under

    @property
    def checks(self) -> tuple[str, ...]:
        return checks_of(self)


def checks_of(statement: Statement) -> tuple[str, ...]:
    """The contract outcomes that judge the statement, then the ids of the registered checks that
    declare it (every layer is imported first, so the registry is whole)."""
    from ..registry import LAYERS, REGISTRY

    for layer in LAYERS:
        importlib.import_module(f"{__package__.rsplit('.', 1)[0]}.{layer}")
    return statement.contract + tuple(c.id for c in REGISTRY if statement.id in c.statements)


# -- the contract layer's outcomes (conformance/contract/data.py RULES), as statements name them
CONTRACT = "contract"
SCHEMA = f"{CONTRACT}:response_schema_conformance"
STATUS = f"{CONTRACT}:status_code_conformance"
HEADERS = f"{CONTRACT}:response_headers_conformance"
CONTENT_TYPE = f"{CONTRACT}:content_type_conformance"
REJECTED = f"{CONTRACT}:negative_data_rejection"
ACCEPTED = f"{CONTRACT}:positive_data_acceptance"
AUTH = f"{CONTRACT}:ignored_auth"

# -- reasons
NOT_SHOWN = "sets no rule; conform accepts any answer (docs/spec-gaps.md)"
CAPTION = "introduces the table or list that follows; its rows are statements of their own"
NOTATION = "defines how the spec writes its tables; the statements written that way are checked"
VALUE_SEEN = "'a value seen' gives an example, not the set of values (spec 2.14): no rule on the value"
NOTIFICATION = (
    "the New Comment notification is sent outside the API (spec 6: channel and payload not shown): "
    "that it is sent, and to whom, cannot be observed over HTTP"
)
SHOWN_BY_CLIENTS = "what a client shows (labels hidden in lists) is not observable over the API"


def statement(
    section: str,
    slug: str,
    text: str,
    *contract: str,
    reason: str = "",
    sid: str | None = None,
    operations: tuple[str, ...] = (),
    subjects: tuple[str, ...] = (),
    heading: str = "",
) -> Statement:
    """An entry of section `section`; its id is "<section>/<slug>" (or `sid`); `contract`: the
    contract layer's outcomes (contract:<name>) that judge it."""
    unknown = [c for c in contract if not c.startswith(f"{CONTRACT}:")]
    if unknown:
        raise ValueError(f"{section}/{slug}: {unknown}: a check declares its statements (statements=)")
    return Statement(
        sid or f"{section}/{slug}",
        section,
        " ".join(text.split()),
        tuple(dict.fromkeys(contract)),
        reason,
        operations,
        subjects,
        heading,
    )


STATEMENTS: list[Statement] = []

for _module in sorted(m.name for m in pkgutil.iter_modules(__path__)):
    STATEMENTS.extend(importlib.import_module(f"{__name__}.{_module}").STATEMENTS)


@cache
def by_id() -> dict[str, Statement]:
    """Every statement by its id (made once: the inventory is whole once this package is imported;
    every check's registration looks its statements up here)."""
    return {s.id: s for s in STATEMENTS}
