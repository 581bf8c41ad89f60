"""The diff's data: a `Change` located, classified and explained, the `Report` of all of them, and the
effects the rules find before a change is placed in an operation (see the package docstring).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import Enum, StrEnum
from typing import Any

# `--fail-on`: `breaking` (the default) fails on breaking changes that are not accepted, `obligation`
# also on implementer obligations, `any` on every change, `none` never.
FAIL_ON = ("none", "breaking", "obligation", "any")
# The values of the old three-class model (issue 8): refused with this message (docs/design.md).
REMOVED_FAIL_ON = {
    "breaking-client": "use --fail-on breaking: a change that can fail an existing client",
    "breaking-server": "use --fail-on obligation: breaking changes and those that ask servers for more",
}


# The rule of a difference in a keyword the diff does not compare (docs/design.md, Spec edits).
NOT_COMPARED = "not-compared"


class Classification(StrEnum):
    BREAKING = "breaking"  # an existing client that follows OLD can fail against a server that follows NEW
    OBLIGATION = "obligation"  # only asks implementers (servers) for more
    COMPATIBLE = "compatible"  # neither


# How each classification is said in reports, in the order they are listed.
WORDS = {
    Classification.BREAKING: "breaking",
    Classification.OBLIGATION: "implementer obligation(s)",
    Classification.COMPATIBLE: "compatible",
}


class Direction(StrEnum):
    REQUEST = "request"
    RESPONSE = "response"


@dataclass(frozen=True)
class Change:
    """One difference between the documents, located, classified and explained."""

    operation: str  # "METHOD /path", the new path when the operation is in both
    operation_id: str
    summary: str
    pointer: str  # into the new document where the changed thing exists there, else the old one
    rule: str
    message: str  # what changed
    classification: Classification
    direction: str  # "request" or "response": which way the changed data travels
    reason: str  # why it is of its class, in a user's words
    accepted: str = ""  # the reason of the --accept entry that accepts this breaking change
    example: str = ""  # a payload that shows it (the payload proof), as JSON
    via: str = ""  # for a change inside a referenced file: the root document's `$ref` that leads there

    @property
    def breaking(self) -> bool:
        return self.classification is Classification.BREAKING

    @property
    def label(self) -> str:
        """The class as a report shows it: `breaking`, `accepted` (a breaking change accepted), ..."""
        return "accepted" if self.accepted else self.classification.value

    @property
    def where(self) -> str:
        """The pointer, with the `$ref` that leads there when it is in a referenced file."""
        return f"{self.pointer} (via {self.via})" if self.via else self.pointer

    def __str__(self) -> str:
        text = f"{self.label:<11} {self.where}: [{self.rule}] {self.message}: {self.reason}"
        if self.example:
            text += f" (e.g. {self.example})"
        return text + (f" [accepted: {self.accepted}]" if self.accepted else "")

    def as_dict(self) -> dict[str, str]:
        return {
            "operation": self.operation,
            "operation_id": self.operation_id,
            "summary": self.summary,
            "pointer": self.pointer,
            "rule": self.rule,
            "message": self.message,
            "classification": self.classification.value,
            "direction": self.direction,
            "reason": self.reason,
            "accepted": self.accepted,
            "example": self.example,
            "via": self.via,
        }

    def accept(self, reason: str) -> Change:
        return replace(self, accepted=reason)


@dataclass(frozen=True)
class Note:
    """Something about the `--accept` file itself: an entry that matches nothing, or has expired."""

    entry: str  # the entry as written, in one line
    message: str
    fails: bool  # an expired entry fails the gate; one that matches nothing is only reported

    def __str__(self) -> str:
        return f"accept file: {self.entry}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"entry": self.entry, "message": self.message, "fails": self.fails}


@dataclass(frozen=True)
class Report:
    """All changes from `old` to `new` (labels: a path or `git:REV`), in operation order."""

    old: str
    new: str
    changes: tuple[Change, ...]
    notes: tuple[Note, ...] = ()

    def count(self, classification: Classification) -> int:
        return sum(
            1 for change in self.changes if change.classification is classification and not change.accepted
        )

    @property
    def accepted(self) -> int:
        return sum(1 for change in self.changes if change.accepted)

    @property
    def unjudged(self) -> tuple[Change, ...]:
        """The changes in keywords the diff does not compare (rule `not-compared`), not accepted:
        a person must judge them, so the CLI exits 2 after the report."""
        return tuple(change for change in self.changes if change.rule == NOT_COMPARED and not change.accepted)

    def fails(self, fail_on: str) -> bool:
        """Whether the `--fail-on` condition (one of FAIL_ON) is met; an expired accept entry always is."""
        if any(note.fails for note in self.notes):
            return True
        classes = {
            "breaking": {Classification.BREAKING},
            "obligation": {Classification.BREAKING, Classification.OBLIGATION},
            "any": set(Classification),
        }.get(fail_on, set())
        return any(change.classification in classes and not change.accepted for change in self.changes)

    def groups(self) -> list[tuple[Change, list[Change]]]:
        """(first change, its operation's changes) per operation, in report order."""
        groups: dict[tuple[str, str], list[Change]] = {}
        for change in self.changes:
            groups.setdefault((change.operation, change.operation_id), []).append(change)
        return [(changes[0], changes) for changes in groups.values()]

    def counts(self) -> list[tuple[int, str]]:
        found = [(self.count(c), words) for c, words in WORDS.items()]
        return [*found, (self.accepted, "accepted")] if self.accepted else found

    def summary(self) -> str:
        if not self.changes:
            return f"No changes between {self.old} and {self.new}."
        counts = ", ".join(f"{count} {words}" for count, words in self.counts())
        return f"{len(self.changes)} change(s) from {self.old} to {self.new}: {counts}."

    def as_dict(self) -> dict[str, Any]:
        return {
            "old": self.old,
            "new": self.new,
            "summary": {
                "total": len(self.changes),
                **{c.value: self.count(c) for c in Classification},
                "accepted": self.accepted,
                "not_compared": len(self.unjudged),  # the CLI exits 2 when any: judge them by hand
            },
            "changes": [change.as_dict() for change in self.changes],
            "accept_notes": [note.as_dict() for note in self.notes],
        }

    def text(self) -> str:
        from .render import text

        return text(self)

    def markdown(self) -> str:
        """A pull-request comment: the summary, then a table per operation."""
        from .render import markdown

        return markdown(self)


# --------------------------------------------------------------------------------------------------
# Effects: what a rule finds, before the direction the data travels decides the class


class Effect(Enum):
    TIGHTEN = "tighten"  # fewer values are valid
    LOOSEN = "loosen"  # more values are valid
    BOTH = "both"  # some values lost, others gained (a type replaced)
    MEANING = "meaning"  # the same values, another meaning (a default changed)
    OBLIGATION = "obligation"  # servers must act on what they could ignore; readers lose nothing
    NEUTRAL = "neutral"


def classify(effect: Effect, direction: Direction) -> Classification:
    """The rule table of the package docstring (DESIGN.md, Spec edits)."""
    if effect is Effect.NEUTRAL:
        return Classification.COMPATIBLE
    if effect is Effect.MEANING:  # a client that leaves the value out gets other behaviour; answers carry it
        return Classification.BREAKING if direction is Direction.REQUEST else Classification.COMPATIBLE
    if effect is Effect.BOTH:
        return Classification.BREAKING
    if effect is Effect.OBLIGATION:
        return Classification.OBLIGATION if direction is Direction.REQUEST else Classification.COMPATIBLE
    narrows_requests = (effect is Effect.TIGHTEN) == (direction is Direction.REQUEST)
    return Classification.BREAKING if narrows_requests else Classification.OBLIGATION


def combine(*effects: Effect) -> Effect:
    kinds = {effect for effect in effects if effect is not Effect.NEUTRAL}
    if not kinds:
        return Effect.NEUTRAL
    return kinds.pop() if len(kinds) == 1 else Effect.BOTH


@dataclass(frozen=True)
class Finding:
    """A change before it is placed in an operation: `fixed` overrides the effect's classification.

    `why` overrides the reason the rule table gives (`reasons.reason`); `undecided` says the rules
    cannot tell the effect for sure (the payload proof may show a breaking payload).
    """

    pointer: str
    rule: str
    message: str
    effect: Effect = Effect.NEUTRAL
    fixed: Classification | None = None
    why: str = ""
    undecided: bool = False
    subject: str = ""  # the field the change is about, when its pointer does not name it
    only: Direction | None = None  # it concerns only requests (writeOnly) or only responses (readOnly)


def judge(finding: Finding, direction: Direction) -> tuple[Classification, str]:
    """The class of `finding` where its data travels `direction`, and a reason that overrides the
    rule table's ("" for none): a fixed class wins, then a finding that concerns the other direction
    only (a readOnly field in a request, a writeOnly one in a response) is compatible."""
    if finding.fixed is not None:
        return finding.fixed, ""
    if finding.only is not None and finding.only is not direction:
        return Classification.COMPATIBLE, _only_reason(finding)
    return classify(finding.effect, direction), ""


def _only_reason(finding: Finding) -> str:
    names = re.findall(r"/properties/([^/]+)", finding.pointer)
    name = finding.subject or (names[-1].replace("~1", "/").replace("~0", "~") if names else "")
    field = f"`{name}`" if name else "the value"
    if finding.rule == "read-only":
        return f"readOnly only says what clients send: answers carry {field} as before"
    if finding.rule == "write-only":
        return f"writeOnly only says what servers answer: requests carry {field} as before"
    if finding.only is Direction.RESPONSE:
        return f"{field} is readOnly: it concerns responses only"
    return f"{field} is writeOnly: it concerns requests only"


def opposite(effect: Effect) -> Effect:
    return {Effect.TIGHTEN: Effect.LOOSEN, Effect.LOOSEN: Effect.TIGHTEN}.get(effect, effect)
