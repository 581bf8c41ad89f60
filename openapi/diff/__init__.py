"""`csapi diff`: what changed between two versions of an OpenAPI document, and whom it breaks.

Reading comes first (sources.py, bundle.py): each side is a file or `git:REV`; `$ref`s into
other files are followed (each relative to the file that writes it, at the side's revision) and
bundled under the root key `x-csapi-files`, so the rest sees one document with local references
only; both sides are validated as OpenAPI 3.0 or 3.1. Swagger 2.0, a file that is not OpenAPI,
another version, an invalid document or an unresolvable reference is a `SourceError` (exit 2).
A change inside a bundled file is reported at the file's pointer (`schemas/pet.yaml#/...`) and
`via` the `$ref` of the root document that leads there.

Then pure functions over the two documents (`compare(old, new)`); `$ref`s are followed (with
cycle protection) and `allOf` members are read as one schema, so moving a field
into a shared component, renaming a component or reordering keys changes nothing. Operations
are matched by method and path with path parameter names blanked: `/v1/items/{id}` and
`/v1/items/{item_id}` are the same operation, and the rename alone is compatible (the URL on
the wire does not change). Parameters are matched by where they are and their name (path
parameters by position); responses by status; media types, headers and links by name.

Every change is a `Change`: the operation (summary, "METHOD /path", operationId), a JSON
pointer into the NEW document where the changed thing exists there, else into the OLD one,
a rule, a message, a classification (docs/design.md, Spec edits) and the reason in words
(reasons.py):

- ``breaking``: an existing client that follows OLD can fail against a server that follows
  NEW: a request it sends is now refused, or an answer it gets is one it cannot read.
- ``obligation`` (implementer obligation): servers must do more; no such client can fail.
- ``compatible``: neither (documentation, a rename that does not reach the wire, a default).

The model (model.classify). Most rules find an *effect*: a schema (or a list of parameters,
media types, statuses) accepts fewer values (*tighten*), more (*loosen*), or both (a type
replaced); some only change a *meaning* (a default), some add an *obligation* (a new optional
field: servers must act on it, readers lose nothing). What an effect means depends on the way
the data travels; a schema used in a request and in a response is classified where reached:

==========================  =====================  =====================
effect                      in a request           in a response
==========================  =====================  =====================
tighten (fewer values)      breaking               obligation
loosen (more values)        obligation             breaking
both                        breaking               breaking
obligation (a new field)    obligation             compatible
meaning (a default)         breaking               compatible
neutral                     compatible             compatible
==========================  =====================  =====================

A few rules fix their class instead (``operation-added``: obligation, ``operation-removed``:
breaking, ``response-added``: breaking for a success status, compatible for an error one,
``response-removed``: breaking for a success status, an obligation for an error one).
Webhooks and callbacks (walk.webhooks, walk.callbacks) are operations the server calls: their
roles are inverted (the server sends the request, the receiver answers), so a request finding is
classified in the response column and the other way round. Outside schemas, every field of every
OpenAPI 3.0 and 3.1 object has an entry in op_keys.py's tables (a rule, documentation,
extension); a key no table knows is ``not-compared`` as well, and parts outside operations
(info, servers, tags, unused components) are reported once each as compatible (op_document.py).
Where the rules cannot tell (a ``oneOf`` alternative that may overlap another, a ``not``
replaced) the finding is *undecided*: it counts as breaking, and the payload proof
(evidence.py, proof.py) confirms it with a payload or says none was found. The proof also
runs on every other changed schema and adds a ``payload-proof`` change when a payload breaks
that the rules did not foresee; it never lowers a class. `--accept` (accept.py) then marks
known breaks as accepted. The README's "Editing the spec" has the table of rules in a user's
words.

Compared by content, not position: ``oneOf``/``anyOf`` alternatives (reordering them is no
change), parameters at path-item or operation level, schemas inline or behind a `$ref`.
Schemas (schemas.py and its schema_*.py rules) are read in one normal form whatever the version
(normalize.py): 3.0 `nullable` and 3.1 `type: [.., "null"]`, boolean and numeric exclusive
bounds, `const` and a one-value `enum` are the same, a 3.1 `$ref` with siblings is the target and
the siblings, so a 3.0 -> 3.1 migration that keeps the meaning reports nothing. Every keyword of
3.0 and 3.1 (JSON Schema 2020-12) is in one table (`schemas.KEYWORDS`) with the rule comparing
it; annotations are ``documentation-changed`` and extensions ``extension-changed`` (both
compatible), any other key that differs is ``not-compared`` (breaking, for a person to judge).
By meaning: a readOnly property's findings concern responses only and a writeOnly one's requests
only (`Finding.only`, `model.judge`); a pattern that matches every string is no pattern; an
`anyOf` branch another one already covers changes nothing; a union branch disjoint from all the
others only adds values, a `oneOf` branch inside another only takes some away, one that may
overlap is both; a nullable wrap (`oneOf: [{type: 'null'}, X]`) is compared with X itself.
`null` in an `enum` counts under ``nullable``, not as an enum value. `allOf` members are merged
(properties and `required` united, the tightest bound kept); conflicting members are not
analysed further.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .accept import Acceptance, AcceptError, load_accept
from .bundle import located
from .evidence import default_prover
from .model import (
    FAIL_ON,
    NOT_COMPARED,
    REMOVED_FAIL_ON,
    Change,
    Classification,
    Direction,
    Effect,
    Report,
    classify,
)
from .operations import Differ
from .sides import Side, Stability
from .sources import SourceError, load_source

__all__ = [
    "FAIL_ON",
    "NOT_COMPARED",
    "REMOVED_FAIL_ON",
    "AcceptError",
    "Acceptance",
    "load_accept",
    "Change",
    "Classification",
    "Direction",
    "Effect",
    "Report",
    "SourceError",
    "Stability",
    "classify",
    "compare",
    "diff",
    "load_source",
]


def compare(
    old: dict[str, Any],
    new: dict[str, Any],
    old_label: str = "old",
    new_label: str = "new",
    *,
    proof: bool = True,
    accept: Acceptance | None = None,
) -> Report:
    """The report of every change from `old` to `new` (two parsed documents).

    `proof`: run the payload proof on changed schemas (evidence.py); `accept`: the known breaks a
    team accepts (accept.py).
    """
    report = Report(old_label, new_label, tuple(diff(old, new, proof=proof)))
    return _accepted(report, accept) if accept is not None else report


def diff(old: dict[str, Any], new: dict[str, Any], *, proof: bool = False) -> list[Change]:
    """Every change from `old` to `new`, grouped by operation (new document order, removed last).

    A change inside a referenced file (bundled by `load_source`) is shown at the file's pointer,
    with `via` the root document's `$ref` that leads there (bundle.py).
    """
    changes = Differ(Side(old), Side(new), default_prover() if proof else None).run()
    return located(changes, old, new)


def _accepted(report: Report, accept: Acceptance) -> Report:
    """`accept` applied; an entry's pointer (into the root document) matches a change inside a
    referenced file at its `via`, the place in the root document it is reached from."""
    if not any(change.via for change in report.changes):
        return accept.apply(report)
    rooted = replace(report, changes=tuple(replace(c, pointer=c.via or c.pointer) for c in report.changes))
    judged = accept.apply(rooted)
    changes = tuple(
        replace(c, accepted=j.accepted) for c, j in zip(report.changes, judged.changes, strict=True)
    )
    return replace(judged, changes=changes)
