"""The behaviour layer's stateful check: a hypothesis `RuleBasedStateMachine` over a small
reference model of what the run made (collections, items and stacks, tags, comments, likes).
Every step changes the target through one operation and checks what the spec says follows (a
later GET shows it, lists, filters and counts follow). It records one outcome per property it
exercised, and when a step breaks one, a single failure for that property with the request
that showed it. The steps are in machine_items.py, machine_moves.py, machine_social.py and
machine_reads.py.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity
from hypothesis import seed as hypothesis_seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, get_state_machine_test, initialize, rule

from ..failures import CheckFailed, NotGone, NotStored
from ..http import LAYER, RECORDER, SERIAL, Session, differences, metadata, tag_names, unique, unpaid
from ..registry import Check, RunContext, check, record, recorded_by
from ..results import ERROR, FAIL, PASS, SKIP
from .machine_items import ItemSteps
from .machine_moves import MoveSteps
from .machine_reads import Observations
from .machine_social import SocialSteps
from .model import Action, MachineRun, Model
from .properties import P_RUN, P_SETUP


class BehaviourMachine(ItemSteps, MoveSteps, SocialSteps, Observations, RuleBasedStateMachine):
    """Steps over two collections of the run; each checks what the spec says follows from it.

    One rule picks the next action with a Random that hypothesis seeds. Hypothesis' own choice
    among many rules starts with its all-zero example (the same rule at every step) and turns
    random subsets of rules off per example (swarm testing): with the few examples that HTTP
    steps afford, most properties went unexercised. Picking uniformly among the actions that
    are possible keeps every property in play and a --seed still replays the run.
    """

    ACTIONS: tuple[Action, ...] = ()  # filled in below the class

    def __init__(self, run: MachineRun):
        if run.failure is not None:  # hypothesis replays a failure: it is known, spend no requests
            raise run.failure
        super().__init__()
        self.run = run
        run.examples += 1
        self.s = Session(run.ctx, run.exercised)
        self.serial = next(SERIAL)
        self.cols: list[int] = []
        self.manual: set[int] = set()  # collections ordered by manual position (sort_by null)
        self.items: dict[int, Model] = {}
        self.deleted: list[Model] = []
        self.pool = [run.ctx.target.name(f"m{self.serial}{c}") for c in "ab"]  # shared tag names
        self.solo: list[str] = []  # tag names made by Create a tag

    # -- the model
    def live(self, col: int | None = None) -> list[Model]:
        return [m for m in self.items.values() if col is None or m.collection == col]

    def top(self, col: int) -> list[Model]:
        return [m for m in self.live(col) if m.parent is None]

    def loose(self, col: int) -> list[Model]:
        return [m for m in self.top(col) if m.type != "stack"]

    def stacks(self, col: int) -> list[Model]:
        return [m for m in self.live(col) if m.type == "stack"]

    def children(self, stack: int) -> list[Model]:
        return [m for m in self.items.values() if m.parent == stack]

    def has(self, pick: Callable[[int], list[Model]]) -> list[int]:
        return [c for c in self.cols if pick(c)]

    def new_token(self) -> tuple[str, str]:
        token = unique(self.s)
        return f"{self.s.target.name('m')} {token}", token

    def adopt(self, data: dict[str, Any], like: Model | None = None) -> Model:
        """An item the target made (a copy of `like`, a copied child): registered and modelled;
        where it is and its likes (which the spec does not say a copy keeps) as answered."""
        self.s.register("item", f"/v1/items/{data['id']}")
        if like is not None:
            item = replace(
                like, id=data["id"], tags=dict(like.tags), metadata=dict(like.metadata), comments={}
            )
        else:
            name = str(data.get("name", ""))
            item = Model(
                data["id"],
                data.get("collection_id"),
                str(data.get("type")),
                name,
                name.rsplit(" ", 1)[-1],
                str(data.get("content", "")),
                data.get("description"),
                metadata(data.get("metadata")) or {},
                tags={n: n for n in tag_names(data.get("tags")) or ()},
            )
        item.collection, item.parent = data.get("collection_id"), data.get("parent_id")
        item.likes, item.my_like = data.get("reactions_total_count") or 0, None
        for reaction in data.get("reactions") or []:
            if isinstance(reaction, dict) and reaction.get("user_id") == self.s.me.id:
                item.my_like = reaction.get("id")
        self.items[item.id] = item
        return item

    def compare(
        self, item: Model, got: dict[str, Any], what: str, prop: Check, kind: type[CheckFailed] = NotStored
    ) -> None:
        """The item as read shows what the model says (a write not stored, or a count not moved: `kind`)."""
        expected = {
            "collection_id": item.collection,
            "parent_id": item.parent,
            "type": item.type,
            "name": item.name,
            "metadata": item.metadata,
        }
        if item.description is not None:  # not sent: null or "" are both fine
            expected["description"] = item.description
        if item.type in ("text", "link"):
            expected["content"] = item.content
        if self.run.paid:
            expected["tags"] = list(item.tags.values())
        diffs = differences(expected, got)
        if got.get("reactions_total_count") != item.likes:
            diffs.append(
                f"reactions_total_count {got.get('reactions_total_count')!r} (expected {item.likes})"
            )
        self.s.expect(not diffs, f"{what} item {item.id} shows " + "; ".join(diffs), prop=prop, kind=kind)

    def listed(self, col: int, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        query = {"collection_id": col} if col else {}
        return self.s.listing("/v1/items", {**query, **(params or {})})

    def check_scope(
        self,
        found: list[Any],
        must: set[int],
        may: set[int],
        what: str,
        prop: Check,
        kind: type[CheckFailed] | None = None,
    ) -> None:
        """`found` (ids) holds every id of `must` and nothing outside `may`: a miss is a write not
        stored, an extra a thing not gone, unless `kind` (a filter: not honoured) says otherwise."""
        have = set(found)
        missing, extra = must - have, have - may
        self.s.expect(not missing, f"{what} misses {sorted(missing)}", prop=prop, kind=kind or NotStored)
        self.s.expect(
            not extra,
            f"{what} lists {sorted(extra)}, which do not belong there",
            prop=prop,
            kind=kind or NotGone,
        )

    def scope(self, items: list[Model], exact: bool = False) -> tuple[set[int], set[int]]:
        """What a list of these items must hold and may hold: stack children are listed by
        List items in docs/design.md (--strict); the spec itself only makes top-level items certain."""
        every = {m.id for m in items}
        if exact or self.s.strict:
            return every, every
        return {m.id for m in items if m.parent is None}, every

    # -- setup and teardown
    @initialize()
    def make_collections(self) -> None:
        self.s.at(P_SETUP)
        try:
            for _ in range(2):
                data = self.s.new_collection(description="stateful run")
                self.cols.append(data["id"])
                if data.get("sort_by") is None:
                    self.manual.add(data["id"])
        except Exception as exc:
            self.run.broke(exc, P_SETUP, "make_collections")
            raise

    def teardown(self) -> None:
        self.s.dispose()

    @rule(draw=st.integers(min_value=0, max_value=2**32 - 1))
    def act(self, draw: int) -> None:
        run = self.run
        # hypothesis' first example draws only zeros: the step's number still varies the choices
        rnd = random.Random(f"{draw}:{run.examples}:{run.steps}")
        possible = [a for a in self.ACTIONS if run.on(a.prop, a.feeds) and (a.when is None or a.when(self))]
        chosen = rnd.choices(possible, weights=[a.weight for a in possible])[0]
        self.s.at(chosen.prop)
        run.steps += 1
        try:
            chosen.func(self, rnd)
        except Exception as exc:
            run.broke(exc, self.s.prop, chosen.func.__name__)
            raise


# the steps in the order they were written: a --seed replays the same run
BehaviourMachine.ACTIONS = tuple(
    v
    for steps in (ItemSteps, MoveSteps, SocialSteps, Observations)
    for v in vars(steps).values()
    if isinstance(v, Action)
)


def _machine_budget(ctx: RunContext) -> tuple[int, int]:
    """Examples and steps per example: a step costs about four requests (some 40 ms on the mock)."""
    if ctx.settings.quick:
        return 3, 12
    return max(2, round(ctx.settings.examples / 2)), 40


@check(
    LAYER,
    "items.create_item",
    "stateful model of collections, items, stacks, tags, comments, likes",
    "spec 4.1, 4.2, 4.5, 4.6, 4.8",
    records_own=True,
)
def stateful_model(ctx: RunContext) -> None:
    """Run the machine, then record one outcome per property it exercised (one failure at most)."""
    if not any(ctx.selected(p.operation) for p in recorded_by(RECORDER)):
        return
    run = MachineRun(ctx)
    examples, steps = _machine_budget(ctx)
    settings = hypothesis_settings(
        max_examples=examples,
        stateful_step_count=steps,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: every step costs requests
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )
    # the test run_state_machine_as_test runs, taken as such so that hypothesis.seed applies to it
    test = get_state_machine_test(functools.partial(BehaviourMachine, run), settings=settings)
    start = time.monotonic()
    try:
        hypothesis_seed(ctx.settings.seed)(test)()
    except Exception as exc:  # what hypothesis re-raises (possibly wrapped); the first failure is in run
        if run.failure is None:
            run.failure, run.failed_prop = exc, P_RUN
    seconds = time.monotonic() - start
    _record_machine(ctx, run, seconds)


def _record_machine(ctx: RunContext, run: MachineRun, seconds: float) -> None:
    """One outcome per property exercised (through the registry), the failure on the one it broke;
    the paid properties are skips when the plan turned out to be free."""
    strict = ctx.settings.strict
    failed = run.failed_prop or (P_RUN if run.failure else None)
    props = set(run.exercised) | ({failed} if failed else set())
    summary = f"{run.examples} example(s), {run.steps} steps, --seed {ctx.settings.seed}"
    for prop in sorted(props, key=lambda p: (p.operation, p.name)):
        if prop is not failed and (not ctx.selected(prop.operation) or (prop.strict and not strict)):
            continue
        failure = run.failure
        if prop is not failed:
            record(ctx, prop, PASS, summary)
        elif isinstance(failure, CheckFailed):
            message = f"{failure.message} [stateful run: {run.failed_at}; {summary}]"
            record(ctx, prop, FAIL, message, failure.exchange, kind=failure.kind, seconds=seconds)
        else:
            message = f"{type(failure).__name__}: {failure} [stateful run: {run.failed_at}]"
            record(ctx, prop, ERROR, message, seconds=seconds)
    if run.paid is False:
        for prop in sorted({p for p in recorded_by(RECORDER) if p.paid}, key=lambda p: (p.operation, p.name)):
            if ctx.selected(prop.operation):
                record(ctx, prop, SKIP, str(unpaid("tags")))
