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

import hypothesis
import schemathesis
from schemathesis.engine import Status, events, from_schema
from schemathesis.generation.stateful import run_state_machine_as_test

from benchmarks.record import machine, replace_section
from csapi.fixtures import generate
from csapi.mock_server.app import create_app
from csapi.mock_server.store import Store
from csapi.openapi import document

Wrap = Callable[[Any], Any]
API_KEY = "fuzz-key"
RESET_EVERY = 1000
STATEFUL_STEPS = 8
_KEEP_ABOVE = 100_000  # larger ids stay as drawn: a huge id must be a 4xx, never a 500
CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
    "unsupported_method",
)
OFF = (  # need test_schemathesis.py's filters, or act on several identities
    "negative_data_rejection",
    "positive_data_acceptance",
    "use_after_free",
    "ensure_resource_availability",
    "ignored_auth",
    "missing_required_header",
)


@dataclass
class FuzzResult:
    max_examples: int
    stateful_examples: int
    seed: int
    seconds: float = 0.0
    cases: Counter[str] = field(default_factory=Counter)  # by phase
    statuses: Counter[int] = field(default_factory=Counter)
    failed_checks: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)  # the first failures, as curl lines
    errors: list[str] = field(default_factory=list)  # engine errors (an exception while testing)
    operations: set[str] = field(default_factory=set)
    resets: int = 0
    requests: Counter[str] = field(default_factory=Counter)  # calls that reached the app, by phase
    phase: str = "setup"
    restore: Callable[[], None] = lambda: None

    @property
    def total(self) -> int:
        return sum(self.cases.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    @property
    def failures(self) -> int:
        return sum(self.failed_checks.values()) + len(self.errors)


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
) -> tuple[Any, FuzzResult]:
    data = generate("default", 0)
    store = Store(data=copy.deepcopy(data))
    app = create_app(store, api_key=API_KEY, validate_responses=True)
    if wrap is not None:
        app = wrap(app)
    user = next(a for a in store.accounts.values() if a.plan == "pro")
    result = FuzzResult(max_examples, stateful_examples, seed)
    config = schemathesis.Config.from_dict(
        {
            "seed": seed,
            "generation": {
                "mode": "all",
                "max-examples": max_examples,
                "database": "none",
                # the credentials below go on every case; generated ones would be overwritten
                "with-security-parameters": False,
            },
            "phases": {
                "examples": {"enabled": True},
                "coverage": {"enabled": True},
                "fuzzing": {"enabled": True},
                # Run below, each scenario from the same state: the engine's run replays scenarios
                # against a changed state, which hypothesis takes for flaky and stops early.
                "stateful": {"enabled": False, "inference": {"algorithms": ["dependency-analysis"]}},
            },
            "auth": {
                "openapi": {
                    "apiKey": {"api_key": API_KEY},
                    "basicAuth": {"username": str(user.id), "password": user.token},
                }
            },
            "checks": {
                **{name: {"enabled": True} for name in CHECKS},
                **{name: {"enabled": False} for name in OFF},
            },
        }
    )
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

    schema = schemathesis.openapi.from_asgi("/v1/openapi.json", restoring, config=config)
    if only is not None:
        schema = schema.include(operation_id_regex=only)
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
    in_body = {
        "user_id": "user_id", "users": "user_id", "id": "user_id", "collection_id": "collection_id",
        "parent_id": "item_id", "items": "item_id", "order": "item_id",
    }  # fmt: skip

    def known(kind: str, value: Any) -> Any:
        if type(value) is int and 1 <= value <= _KEEP_ABOVE and ids[kind]:
            return ids[kind][(value - 1) % len(ids[kind])]
        return value

    @schema.hook
    def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
        if not path_parameters:
            return path_parameters
        return {k: known(k, v) if k in ids else v for k, v in path_parameters.items()}

    @schema.hook
    def map_body(context: Any, body: Any) -> Any:
        if not isinstance(body, dict):
            return body
        out = dict(body)
        for name, kind in in_body.items():
            if isinstance(body.get(name), list):
                out[name] = [known(kind, v) for v in body[name]]
            elif name in body:
                out[name] = known(kind, body[name])
        return out

    result.restore = lambda: store.reset(copy.deepcopy(data))
    return schema, result


def run_stateful(schema: Any, result: FuzzResult) -> None:
    """`stateful_examples` scenarios of up to STATEFUL_STEPS calls chained by the document's links
    (and the links schemathesis infers), each from the fixtures' state; every call checked."""
    result.phase = "stateful"
    schema.config.phases.stateful.enabled = True  # off for the engine (above); on for the links

    class Scenarios(schema.as_state_machine()):  # type: ignore[misc]
        def setup(self) -> None:
            result.restore()

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            result.cases["stateful"] += 1
            result.operations.add(case.operation.label)
            result.statuses[response.status_code] += 1
            super().validate_response(response, case, **kwargs)

    settings = hypothesis.settings(
        max_examples=result.stateful_examples,
        stateful_step_count=STATEFUL_STEPS,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(hypothesis.HealthCheck),
    )
    try:
        run_state_machine_as_test(Scenarios, settings=settings)
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
    for event in from_schema(schema).execute():
        if isinstance(event, events.PhaseStarted):
            result.phase = str(event.phase.name.value)
        if isinstance(event, events.ScenarioFinished) and event.is_test_scenario:
            recorder = event.recorder
            result.cases[event.phase.name.lower()] += len(recorder.cases)
            if event.label:
                result.operations.add(event.label)
            for interaction in recorder.interactions.values():
                if interaction.response is not None:
                    result.statuses[interaction.response.status_code] += 1
            for case_id, checks in recorder.checks.items():
                for check in checks:
                    if check.status == Status.FAILURE:
                        result.failed_checks[check.name] += 1
                        if len(result.examples) < 20:
                            case = recorder.cases[case_id].value
                            result.examples.append(f"{check.name}: {case.as_curl_command()}")
        elif isinstance(event, events.NonFatalError | events.FatalError):
            error = getattr(event, "value", None) or getattr(event, "exception", None)
            result.errors.append(f"{getattr(event, 'label', '')}: {type(error).__name__}: {error}"[:500])
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
{schemathesis.__version__} in process against the mock (response validation on) over the "default"
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
