"""The behaviour layer's stateful check: a hypothesis `RuleBasedStateMachine` over a small
reference model of what the run made (collections, items and stacks, tags, comments, likes).
Every step changes the target through one operation and checks what the spec says follows (a
later GET shows it, lists, filters and counts follow). It records one outcome per property it
exercised, and when a step breaks one, a single failure for that property with the request
that showed it. The steps are in machine_items.py, machine_moves.py, machine_social.py and
machine_reads.py; the state and the helpers they share in machine_base.py.
"""

from __future__ import annotations

import functools
import random
import time

from hypothesis import HealthCheck, Phase, Verbosity
from hypothesis import seed as hypothesis_seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, get_state_machine_test, initialize, rule

from ...failures import CheckFailed
from ...http import LAYER, RECORDER, SERIAL, Session, unpaid
from ...registry import RunContext, check, record, recorded_by
from ...results import ERROR, FAIL, PASS, SKIP
from .items import ItemSteps
from .model import Action, MachineRun
from .moves import MoveSteps
from .properties import P_RUN, P_SETUP
from .reads import Observations
from .social import SocialSteps


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
        self.cols = []
        self.manual = set()  # collections ordered by manual position (sort_by null)
        self.items = {}
        self.deleted = []
        self.pool = [run.ctx.target.name(f"m{self.serial}{c}") for c in "ab"]  # shared tag names
        self.solo = []  # tag names made by Create a tag

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
    records_own=True,
    statements=(
        "4.1/get-collection.include",
        "4.1/get-collection.items_type",
        "4.2/list-items.collection_id",
    ),
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
    # hypothesis types the factory as type[RuleBasedStateMachine], but calls it with no arguments and
    # documents "a class or a function" (run_state_machine_as_test): a partial is one
    test = get_state_machine_test(
        functools.partial(BehaviourMachine, run),  # type: ignore[arg-type]
        settings=settings,
    )
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
