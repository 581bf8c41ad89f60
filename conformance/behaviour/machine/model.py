"""The stateful machine's reference model: what the run believes is on the target, what one
run of the machine shares, and the machine's kinds of step (`Action`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ...registry import Check, RunContext


# ---------------------------------------------------------------------- the reference model
@dataclass
class Model:
    """An item as the run believes it is on the target."""

    id: int
    collection: int
    type: str
    name: str
    token: str  # the word of its name
    content: str = ""
    description: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    parent: int | None = None
    tags: dict[str, str] = field(default_factory=dict)  # casefolded name -> name
    comments: dict[int, str] = field(default_factory=dict)
    likes: int = 0
    my_like: int | None = None


@dataclass
class MachineRun:
    """What the examples of one stateful run share: the context, what was exercised, the failure."""

    ctx: RunContext
    exercised: set[Check] = field(default_factory=set)
    failure: BaseException | None = None
    failed_prop: Check | None = None
    failed_at: str = ""
    paid: bool | None = None  # None until a tag was sent, False once one was refused (402)
    examples: int = 0
    steps: int = 0

    def broke(self, exc: BaseException, prop: Check | None, where: str) -> None:
        """Remember the first failure: the one to report, and what hypothesis' replays re-raise."""
        if self.failure is None:
            self.failure, self.failed_prop = exc, getattr(exc, "check", None) or prop
            self.failed_at = f"example {self.examples}, step {self.steps} ({where})"

    def on(self, prop: Check, feeds: tuple[str, ...] = ()) -> bool:
        """Whether steps about `prop` run: its operation is selected, or one that needs what it makes
        (items are made in any case); tag steps stop once the plan turned out to be free."""
        if prop.paid and self.paid is False:
            return False
        wanted = (prop.operation, *feeds)
        return prop.operation == "items.create_item" or any(self.ctx.selected(op) for op in wanted)


@dataclass(frozen=True)
class Action:
    """One kind of step of the machine, about `prop`; possible when `when(machine)` holds."""

    prop: Check
    func: Callable[..., None]
    when: Callable[[Any], Any] | None = None
    weight: int = 1
    feeds: tuple[str, ...] = ()  # operations whose steps need what this one makes


def action(
    prop: Check, when: Callable[[Any], Any] | None = None, weight: int = 1, feeds: tuple[str, ...] = ()
) -> Callable[[Callable[..., None]], Action]:
    def decorate(func: Callable[..., None]) -> Action:
        return Action(prop, func, when, weight, feeds)

    return decorate
