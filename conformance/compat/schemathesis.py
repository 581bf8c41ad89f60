"""The internals of schemathesis that csapi uses, behind one door (conformance/driver.py calls it).

schemathesis promises its loaders (`schemathesis.openapi.from_dict`, `from_asgi`), `Config`,
`Case` (`call`, `validate_response`, `call_and_validate`, `as_curl_command`), an operation's
`as_strategy`, hooks, `schemathesis.errors`, state machines (`as_state_machine()`, `.run()`) and
the pytest integration (`schema.parametrize()`). The driver needs a few things beyond that, all
reached here through undocumented names:

1. the built-in checks as functions, by name (the registry behind `schemathesis.checks`), and
   which checks a failure comes from (`Failure.checks`), with its title, message and case id;
2. the operations of a loaded schema (`get_all_operations` yields `Ok`/`Err` results) and an
   operation's raw definition (its operationId and tags);
3. a validator of an operation's JSON request body, schemathesis' own (its format checkers), to
   read a form body back the way the server may (the contract layer and the mock's tests);
4. a generated case's phase, coverage scenario and generation mode (`Case.meta`);
5. recorders (`ScenarioRecorder`): where ignored_auth's own requests and a state machine's steps
   are kept, and the stateful phase's switch (`config.phases.stateful.enabled`) that link
   inference reads;
6. the engine (`schemathesis.engine`): every phase (the document's examples, the coverage phase,
   fuzzing) outside pytest, as `st run` runs them, its events read into plain data.

Everything here is written for, and tested on, the release range below (the pin of
pyproject.toml; tests/conformance/test_compat_schemathesis.py keeps them equal).
"""

from __future__ import annotations

from ...openapi.compat import require

VERSION = require("schemathesis", "4.32", "4.33")  # before the imports below can fail in another release

from collections.abc import Callable, Iterator  # noqa: E402
from dataclasses import dataclass  # noqa: E402
from typing import Any  # noqa: E402

from schemathesis.checks import CHECKS, load_all_checks  # noqa: E402
from schemathesis.core.jsonschema import make_validator  # noqa: E402
from schemathesis.core.result import Ok  # noqa: E402
from schemathesis.engine import Status, events, from_schema  # noqa: E402
from schemathesis.engine.recorder import ScenarioRecorder  # noqa: E402

__all__ = [
    "VERSION",
    "EngineError",
    "PhaseStarted",
    "Probes",
    "ScenarioDone",
    "body_validator",
    "builtin_checks",
    "coverage_scenario",
    "definition",
    "enable_stateful",
    "failure_checks",
    "failure_parts",
    "generation_mode",
    "machine_recorder",
    "operations",
    "phase_of",
    "run_engine",
]


# ---------------------------------------------------------------------------- checks and failures
def builtin_checks() -> dict[str, Callable[..., Any]]:
    """Every built-in check, by the name the configuration and the reports use."""
    load_all_checks()
    return {name: CHECKS.get_one(name) for name in CHECKS.get_all_names()}


def failure_checks(failure: BaseException) -> tuple[str, ...]:
    """The checks that raise this kind of failure (none for an exception that is not a check's)."""
    return tuple(getattr(type(failure), "checks", ()))


def failure_parts(failure: BaseException) -> tuple[str, str, str | None]:
    """A failure's title, message and the id of the case that failed (a plain AssertionError: its text)."""
    title = getattr(failure, "title", None)
    if title is None:
        return str(failure), "", None
    return str(title), str(getattr(failure, "message", "") or ""), getattr(failure, "case_id", None)


# ---------------------------------------------------------------------------- operations and cases
def operations(schema: Any) -> list[Any]:
    """The operations of the schema that schemathesis could load (an operation it cannot is left out)."""
    return [result.ok() for result in schema.get_all_operations() if isinstance(result, Ok)]


def definition(operation: Any) -> dict[str, Any]:
    """The operation's object as the document writes it (operationId, tags, security, ...)."""
    return dict(operation.definition.raw)


def body_validator(operation: Any) -> Any | None:
    """A JSON Schema validator of the operation's JSON request body, as schemathesis builds it; None
    when the operation takes no JSON body."""
    body = operation.get_body_for_media_type("application/json")
    if body is None:
        return None
    return make_validator(body.optimized_schema, operation.schema.adapter.jsonschema_validator_cls)


def phase_of(case: Any) -> str | None:
    """The phase that generated the case ("examples", "coverage", "fuzzing", "stateful"), if known."""
    return str(case.meta.phase.name.value) if case.meta is not None else None


def coverage_scenario(case: Any) -> Any:
    """What the coverage phase varied in the case (e.g. a missing field), or None."""
    return getattr(case.meta.phase.data, "scenario", None) if case.meta is not None else None


def generation_mode(case: Any) -> str | None:
    """ "positive" (valid by the document) or "negative" (invalid somewhere), if known."""
    return str(case.meta.generation.mode.value) if case.meta is not None else None


# ---------------------------------------------------------------------------- recorders
class Probes:
    """A recorder for a check that sends requests of its own (ignored_auth): what it sent and got back."""

    def __init__(self, label: str, case: Any) -> None:
        self.recorder = ScenarioRecorder(label=label)
        self.recorder.record_case(case=case)

    def response(self, case_id: str | None) -> Any | None:
        return self.recorder.find_response(case_id=case_id) if case_id else None

    def responses(self) -> list[Any]:
        """Every answer recorded, in the order of the cases."""
        found = (self.recorder.find_response(case_id=case_id) for case_id in list(self.recorder.cases))
        return [response for response in found if response is not None]


def machine_recorder(machine: Any) -> Any:
    """The recorder of a running state machine (the stateful checks look up earlier steps in it)."""
    return machine.recorder


def enable_stateful(schema: Any) -> None:
    """Turn the stateful phase on for the schema: link inference only runs when it is."""
    schema.config.phases.stateful.enabled = True


# ---------------------------------------------------------------------------- the engine
@dataclass(frozen=True)
class PhaseStarted:
    phase: str


@dataclass(frozen=True)
class ScenarioDone:
    """One operation's scenario of a phase: how many cases, the statuses answered, the failed checks."""

    phase: str
    label: str | None
    cases: int
    statuses: list[int]
    failures: list[tuple[str, Any]]  # (check, the case that failed it)


@dataclass(frozen=True)
class EngineError:
    label: str
    error: BaseException | None


def run_engine(schema: Any) -> Iterator[PhaseStarted | ScenarioDone | EngineError]:
    """schemathesis' engine over the schema (the phases its config enables), as plain events."""
    for event in from_schema(schema).execute():
        if isinstance(event, events.PhaseStarted):
            yield PhaseStarted(str(event.phase.name.value))
        elif isinstance(event, events.ScenarioFinished) and event.is_test_scenario:
            yield _scenario(event)
        elif isinstance(event, events.NonFatalError | events.FatalError):
            error = getattr(event, "value", None) or getattr(event, "exception", None)
            yield EngineError(str(getattr(event, "label", "") or ""), error)


def _scenario(event: Any) -> ScenarioDone:
    recorder = event.recorder
    statuses = [i.response.status_code for i in recorder.interactions.values() if i.response is not None]
    failures = [
        (check.name, recorder.cases[case_id].value)
        for case_id, checks in recorder.checks.items()
        for check in checks
        if check.status == Status.FAILURE
    ]
    return ScenarioDone(str(event.phase.value), event.label, len(recorder.cases), statuses, failures)
