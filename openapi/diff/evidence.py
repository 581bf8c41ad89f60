"""The proof hook: the payload proof (`proof.py`) run on the schema pairs the rules found changed.

Per operation, each request or response schema (a media type's or a parameter's) with changes is
a `Pair`. The proof runs on every pair:

- it finds a payload valid under OLD that NEW refuses (requests), or valid under NEW that OLD
  refuses (responses): the rules' breaking changes of that pair get the payload as their example
  (the confirmation of the verdict), an undecided one is confirmed breaking with it; with none
  breaking, a `payload-proof` change is added, breaking, with the payload. Never the other way: the
  rules' "breaking" is not lowered because no payload was found.
- it finds none: an undecided change stays breaking and says that no generated payload showed it,
  so a reader knows what to check by hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from ..refs import esc
from ..walk import Operation
from .model import Change, Classification, Direction, Finding


class Evidence(Protocol):
    payload: Any
    reason: str

    @property
    def path(self) -> tuple[str | int, ...]: ...


# (old schema, new schema, direction, old document, new document, undeclared fields?) -> a payload or None
Prover = Callable[[Any, Any, str, dict[str, Any], dict[str, Any], bool], Evidence | None]


@dataclass(frozen=True)
class Pair:
    old_schema: Any
    new_schema: Any
    direction: Direction
    where: str  # the new schema's pointer
    findings: tuple[Finding, ...]


def default_prover() -> Prover | None:
    """`proof.counterexample` with its fixed seed and bounds; None when the module is not there."""
    try:
        from .proof import counterexample
    except ImportError:  # pragma: no cover - the hook stays usable without it
        return None

    def prove(
        old: Any, new: Any, direction: str, old_doc: dict[str, Any], new_doc: dict[str, Any], undeclared: bool
    ) -> Any:
        side: Literal["request", "response"] = "request" if direction == "request" else "response"
        return counterexample(
            old, new, direction=side, old_doc=old_doc, new_doc=new_doc, undeclared=undeclared
        )

    return prove


def apply(
    prover: Prover,
    operation: Operation,
    changes: list[Change],
    pairs: list[Pair],
    documents: tuple[dict[str, Any], dict[str, Any]],
) -> list[Change]:
    """`changes` of one operation with what the proof shows about each pair."""
    for pair in pairs:
        pointers = {finding.pointer for finding in pair.findings}
        undecided = {finding.pointer for finding in pair.findings if finding.undecided}
        # the pair's own changes: one schema reached by a request and a response has a change of each
        mine = [c for c in changes if c.pointer in pointers and c.direction == pair.direction.value]
        shown = prover(pair.old_schema, pair.new_schema, pair.direction.value, *documents, False)
        if shown is None and any(change.breaking for change in mine):
            # a break the rules found may need a field no schema declares (an object closed)
            shown = prover(pair.old_schema, pair.new_schema, pair.direction.value, *documents, True)
        if shown is None:
            changes = [
                replace(c, reason=c.reason + " (no generated payload showed it: check by hand)")
                if c.pointer in undecided and c in mine
                else c
                for c in changes
            ]
            continue
        example = json.dumps(shown.payload, ensure_ascii=False)
        if undecided or any(change.breaking for change in mine):
            shows = _shown_by(shown.path, mine)
            changes = [
                _confirmed(c, example, shown.reason, c.pointer in undecided) if c in shows else c
                for c in changes
            ]
            continue
        context = mine[0].message.partition(": ")[0] if mine else pair.direction.value
        sent, refused = _parties(pair.direction, bool(operation.prefix))
        changes.append(
            Change(
                operation.label,
                operation.operation_id,
                operation.summary,
                pair.where,
                "payload-proof",
                f"{context}: a payload the rules did not foresee breaks across the change",
                Classification.BREAKING,
                pair.direction.value,
                f"a payload {sent} is refused by {refused}: {shown.reason}",
                example=example,
            )
        )
    return changes


def _shown_by(path: tuple[str | int, ...], mine: list[Change]) -> list[Change]:
    """The changes of a pair the payload shows: those about the field the refusal is at (its last
    name in the payload), when the pair has such a change; else all of the pair's."""
    names = [part for part in path if isinstance(part, str)]
    if not names:
        return mine
    field = f"/properties/{esc(names[-1])}"
    about = [c for c in mine if field in c.pointer or f"`{names[-1]}`" in c.message]
    return about or mine


def _confirmed(change: Change, example: str, why: str, undecided: bool) -> Change:
    """A breaking (or undecided) change of a pair with the payload that shows it; one example each
    (one schema may be reached through several media types)."""
    if change.example or not (change.breaking or undecided):
        return change
    if undecided:
        return replace(change, example=example, reason=f"{change.reason}; shown by a payload: {why}")
    return replace(change, example=example)


def _parties(direction: Direction, inverted: bool) -> tuple[str, str]:
    """Who sends the payload and who refuses it; for a webhook or callback (the API server sends the
    request, the receiver answers) the receiver plays the client."""
    if direction is Direction.REQUEST:
        if inverted:
            return "answered by a receiver that follows OLD", "the API server that follows NEW"
        return "sent by a client that follows OLD", "a server that follows NEW"
    if inverted:
        return "sent by the API server under NEW", "a receiver that follows OLD"
    return "answered under NEW", "a client that follows OLD"
