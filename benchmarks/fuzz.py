"""Fuzz: schemathesis over every operation of the document against the mock, at a large budget
(issue 7, part 3).

    python -m benchmarks.fuzz [--max-examples 200] [--stateful-examples 300] [--seed 7] [--no-record]

In process (the ASGI app with response validation on, so an answer the document does not
allow is a server error too), over the "default" fixtures, as user 1 (pro): every phase of
schemathesis -- the document's examples; the coverage phase (boundaries, each missing or
mistyped field, wrong content types, undeclared methods); fuzzing (hypothesis), positive and
negative, `--max-examples` cases per operation; then `--stateful-examples` scenarios of up
to STATEFUL_STEPS calls chained by the document's links (and those schemathesis infers), each
from the fixtures' state. Ids drawn in [1, 100000] are mapped onto ids the store holds so
that requests reach real data, and the state is restored every RESET_EVERY calls so that
deletions do not empty it.

Checks: no 5xx, declared statuses, content types, headers and response schemas, 405 for
undeclared methods. Whether valid input is accepted and invalid input rejected needs the
false-positive filters of tests/mock_server/test_schemathesis.py, which runs those checks.

Exit status 1 on any failed check or engine error. Figures go to the `fuzz` section of
benchmarks/results.md (tests/mock_server/test_fuzz.py runs the same with the slow marker).
"""

from __future__ import annotations

import argparse
import copy
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchmarks.record import machine, replace_section
from csapi.conformance import driver
from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store
from csapi.openapi import document

Wrap = Callable[[Any], Any]
API_KEY = "fuzz-key"
RESET_EVERY = 1000
STATEFUL_STEPS = 8
_KEEP_ABOVE = 100_000  # larger ids stay as drawn: a huge id must be a 4xx, never a 500
# Whether valid input is accepted and invalid input rejected needs test_schemathesis.py's filters,
# and the stateful checks act on several identities: those are off.
CHECKS = (*driver.RESPONSE_CHECKS, *driver.METHOD_CHECKS)


@dataclass(kw_only=True)
class FuzzResult(driver.Tally):
    """The driver's tally of the run, with its budget, the state restores and the calls per phase."""

    max_examples: int
    stateful_examples: int
    seed: int
    seconds: float = 0.0
    resets: int = 0
    requests: Counter[str] = field(default_factory=Counter)  # calls that reached the app, by phase
    phase: str = "setup"
    restore: Callable[[], None] = lambda: None


def operations() -> set[str]:
    """`METHOD /path` of every operation of the document (schemathesis' labels)."""
    return {
        f"{method.upper()} {path}"
        for path, item in document()["paths"].items()
        for method, operation in item.items()
        if isinstance(operation, dict) and "operationId" in operation
    }


def build(
    max_examples: int, stateful_examples: int, seed: int, only: str | None = None, wrap: Wrap | None = None
) -> tuple[driver.Schema, FuzzResult]:
    """schemathesis over the mock in process, as user 1 (pro), on ids the store holds."""
    data = generate("default", 0)
    store = Store(data=copy.deepcopy(data))
    app = create_app(store, api_key=API_KEY, validate_responses=True)
    if wrap is not None:
        app = wrap(app)
    user = next(a for a in store.accounts.values() if a.plan == "pro")
    result = FuzzResult(max_examples=max_examples, stateful_examples=stateful_examples, seed=seed)
    calls = 0

    async def restoring(scope: dict[str, Any], receive: Any, send: Any) -> None:
        """The app, with the state restored every RESET_EVERY calls (deletions would leave less and less)."""
        nonlocal calls
        if scope["type"] == "http":
            calls += 1
            result.requests[result.phase] += 1
            if calls % RESET_EVERY == 0 and result.phase != "stateful":  # scenarios restore their own
                store.reset(copy.deepcopy(data))
                result.resets += 1
        await app(scope, receive, send)

    options = driver.Options(
        checks=CHECKS,
        mode="all",
        seed=seed,
        max_examples=max_examples,
        # The engine's stateful phase replays scenarios against a changed state, which hypothesis
        # takes for flaky and stops early: run_stateful runs them instead, each from the same state,
        # on the document's links and those schemathesis infers.
        phases=("examples", "coverage", "fuzzing"),
        infer_links=True,
        credentials=driver.Credentials(API_KEY, user.id, user.token),
    )
    schema = driver.from_app(restoring, options, only=only)
    ids = {
        "collection_id": sorted(store.collections),
        "item_id": sorted(store.items),
        "tag_id": sorted(store.tags),
        "comment_id": sorted(store.comments),
        "reaction_id": sorted(store.reactions),
        "email_id": sorted(store.emails),
        "user_id": sorted(store.accounts),
        "team_id": sorted(a.id for a in store.accounts.values() if a.is_team),
    }
    driver.map_ids(schema, driver.Ids(ids, keep_above=_KEEP_ABOVE))
    result.restore = lambda: store.reset(copy.deepcopy(data))
    return schema, result


class _Counted(driver.Scenario):
    """Each scenario from the fixtures' state; every call counted, then judged."""

    def __init__(self, result: FuzzResult) -> None:
        self.result = result

    def setup(self) -> None:
        self.result.restore()

    def validate(self, case: Any, response: Any, transport: Any, recorder: Any) -> None:
        self.result.cases["stateful"] += 1
        self.result.operations.add(case.operation.label)
        self.result.statuses[response.status_code] += 1
        super().validate(case, response, transport, recorder)


def run_stateful(schema: driver.Schema, result: FuzzResult) -> None:
    """`stateful_examples` scenarios of up to STATEFUL_STEPS calls chained by the document's links
    (and the links schemathesis infers), each from the fixtures' state; every call checked."""
    result.phase = "stateful"
    try:
        driver.run_stateful(schema, _Counted(result), examples=result.stateful_examples, steps=STATEFUL_STEPS)
    except Exception as exc:  # a failed check, shrunk by hypothesis: the run fails with it
        result.failed_checks["stateful scenario"] += 1
        result.examples.append(f"stateful: {type(exc).__name__}: {exc}"[:3000])


def run(
    max_examples: int = 200,
    stateful_examples: int = 300,
    seed: int = 7,
    *,
    only: str | None = None,
    wrap: Wrap | None = None,
) -> FuzzResult:
    """The run; `only` narrows it to matching operationIds, `wrap` puts ASGI middleware in front
    of the mock (the tests plant a fault there)."""
    schema, result = build(max_examples, stateful_examples, seed, only, wrap)
    started = time.monotonic()
    driver.run_phases(schema, result, on_phase=lambda phase: setattr(result, "phase", phase))
    if result.stateful_examples:
        run_stateful(schema, result)
    result.seconds = time.monotonic() - started
    return result


def report(result: FuzzResult) -> str:
    phases = ", ".join(f"{phase} {n}" for phase, n in result.cases.items())
    statuses = ", ".join(f"{status}: {n}" for status, n in sorted(result.statuses.items()))
    missing = sorted(operations() - result.operations)
    reached = f"{len(result.operations & operations())} of {len(operations())}"
    failed = ", ".join(f"{name} {n}" for name, n in result.failed_checks.items()) or "none"
    errors, minutes = len(result.errors), result.seconds / 60
    row = [
        str(result.total),
        reached,
        f"**{result.server_errors}**",
        f"**{failed}**",
        f"**{errors}**",
        f"{minutes:.1f} min",
    ]
    budget = (result.max_examples, result.stateful_examples, result.seed)
    command = "--max-examples {} --stateful-examples {} --seed {}".format(*budget)
    never = "Operations never reached: " + ", ".join(missing) if missing else "Every operation was called."
    return f"""## Fuzz (benchmarks/fuzz.py)

`python -m benchmarks.fuzz {command}`: schemathesis
{driver.SCHEMATHESIS_VERSION} in process against the mock (response validation on) over the "default"
fixtures; every phase, positive and negative modes.

Machine: {machine()}.

| test cases | operations | 5xx | failed checks | engine errors | time |
|---|---|---|---|---|---|
| {" | ".join(row)} |

Cases by phase: {phases}. Statuses: {statuses}.
State restored {result.resets} times (every {RESET_EVERY} calls). {never}
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-examples", type=int, default=200, help="fuzzing cases per operation")
    parser.add_argument("--stateful-examples", type=int, default=300, help="scenarios of the stateful phase")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-record", action="store_true", help="print only; leave results.md alone")
    args = parser.parse_args(argv)
    result = run(args.max_examples, args.stateful_examples, args.seed)
    text = report(result)
    for line in result.examples + result.errors:
        print("FAIL", line)
    print(text)
    if not args.no_record:
        replace_section("fuzz", text)
    return 1 if result.failures or result.server_errors or operations() - result.operations else 0


if __name__ == "__main__":
    sys.exit(main())
