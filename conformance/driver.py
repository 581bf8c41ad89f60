"""The one module that drives schemathesis, for everything in csapi that runs it.

- conformance/contract/ (`csapi conform`, the contract layer): a schema from the document for a
  server at a URL (`from_document`); each operation's cases drawn one by one (`fuzz`), sent by
  the layer itself (it makes them safe first) and judged here (`judge`, `probe_auth`); the
  document's links (`run_stateful`).
- conformance/drift.py (`csapi validate --drift`): a schema from an app in process (`from_app`),
  drawn ids mapped onto ids the caller owns (`map_ids`), `fuzz` and `judge` by RESPONSE_CHECKS.
- benchmarks/fuzz.py: `from_app`, `map_ids`, every phase through schemathesis' engine
  (`run_phases`), then `run_stateful`.
- tests/mock_server/test_schemathesis.py: `from_app`, `map_ids`, schemathesis' pytest
  integration (`schema.parametrize()`, public) and `run_stateful`.

The checks are named once, here, in four groups (RESPONSE_CHECKS, INPUT_CHECKS, METHOD_CHECKS,
STATEFUL_CHECKS); `Options.checks` says which a run turns on, and every other built-in check is
off, so that none runs by accident and a new release's new check changes nothing unseen.

Only public names of schemathesis are used here; what it does not promise to keep is in
compat/schemathesis.py, which also checks the release range when imported.
"""

from __future__ import annotations

import copy
import hashlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias

import hypothesis
import schemathesis
from hypothesis import HealthCheck, Phase, Verbosity
from hypothesis.errors import HypothesisException, Unsatisfiable

from .compat import schemathesis as internals

if TYPE_CHECKING:
    # schemathesis' Case is generic in its operation (itself generic in four types): any here.
    Case: TypeAlias = schemathesis.Case[Any]
else:
    Case = schemathesis.Case
Response = schemathesis.Response
Schema = schemathesis.BaseSchema
SCHEMATHESIS_VERSION = internals.VERSION

# ---------------------------------------------------------------------------- the checks
#: What every answer is judged by: the answer against the document.
RESPONSE_CHECKS = (
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
)
#: What generated input must get: valid input accepted, invalid input rejected, credentials required.
INPUT_CHECKS = ("positive_data_acceptance", "negative_data_rejection", "ignored_auth")
#: A method the document does not list for a path is a 405 (the coverage phase sends them).
METHOD_CHECKS = ("unsupported_method",)
#: What the stateful phase adds along the document's links.
STATEFUL_CHECKS = ("use_after_free", "ensure_resource_availability")
#: Every check schemathesis has, by name (to turn off those a run does not name).
BUILTIN_CHECKS = internals.builtin_checks()
#: The phases of schemathesis' engine and pytest integration.
PHASES = ("examples", "coverage", "fuzzing", "stateful")
#: How many failures a Tally keeps as examples (`check: curl`).
MAX_EXAMPLES_SHOWN = 20


@dataclass(frozen=True)
class Credentials:
    """Put on every generated request (schemathesis' `auth`): the API key and a user's Basic credentials."""

    api_key: str
    user_id: int
    token: str


@dataclass(frozen=True)
class Options:
    """How schemathesis generates and judges, as one run wants it.

    `phases` are those of schemathesis' engine and pytest integration; None leaves its defaults
    (the per-operation loop of `fuzz` and `run_stateful` do not read them). `infer_links` adds
    the links schemathesis infers from the document to its own for the stateful phase.
    """

    checks: tuple[str, ...] = RESPONSE_CHECKS
    mode: str = "positive"  # "positive", "negative" or "all"
    seed: int | None = None
    max_examples: int | None = None
    deterministic: bool = False
    phases: tuple[str, ...] | None = None
    stateful_steps: int | None = None
    infer_links: bool = False
    credentials: Credentials | None = None
    base_url: str | None = None
    expected_statuses: Mapping[str, Sequence[str]] = field(default_factory=dict)
    constants: bool = True  # literals of the app's source as generation hints (in process only)


def _config(options: Options) -> schemathesis.Config:
    """schemathesis' configuration for the options (what `schemathesis.toml` would say)."""
    data: dict[str, Any] = {
        "generation": {
            "mode": options.mode,
            "deterministic": options.deterministic,
            "database": "none",
            # Credentials come from `auth` (or the caller); generated (and, in negative mode,
            # removed) X-API-Key and Authorization headers would be overwritten by them, so a
            # case negative only there would not be negative. ignored_auth tests credentials.
            "with-security-parameters": False,
        },
        "phases": _phases(options),
        "checks": _checks(options),
    }
    if options.max_examples is not None:
        data["generation"]["max-examples"] = options.max_examples
    if options.seed is not None:
        data["seed"] = options.seed
    if options.base_url is not None:
        data["base-url"] = options.base_url
    if options.credentials is not None:
        data["auth"] = _auth(options.credentials)
    if not options.constants:
        data["analysis"] = {"constants": {"enabled": False}}
    return schemathesis.Config.from_dict(data)


def _phases(options: Options) -> dict[str, Any]:
    """The phases the options name on, the others off; the stateful phase's links and steps."""
    stateful: dict[str, Any] = {
        "inference": {"algorithms": ["dependency-analysis"] if options.infer_links else []}
    }
    if options.stateful_steps is not None:
        stateful["max-steps"] = options.stateful_steps
    phases: dict[str, Any] = {"stateful": stateful}
    if options.phases is not None:
        for phase in PHASES:
            phases.setdefault(phase, {})["enabled"] = phase in options.phases
    return phases


def _checks(options: Options) -> dict[str, Any]:
    """Every built-in check: on if the options name it, else off; expected statuses where given."""
    checks: dict[str, Any] = {}
    for name in BUILTIN_CHECKS:
        checks[name] = {"enabled": name in options.checks}
        if name in options.expected_statuses:
            checks[name]["expected-statuses"] = list(options.expected_statuses[name])
    return checks


def _auth(credentials: Credentials) -> dict[str, Any]:
    """The document's two security schemes (apiKey and basicAuth), filled in on every request."""
    return {
        "openapi": {
            "apiKey": {"api_key": credentials.api_key},
            "basicAuth": {"username": str(credentials.user_id), "password": credentials.token},
        }
    }


# ---------------------------------------------------------------------------- schemas and operations
def from_document(document: Mapping[str, Any], options: Options) -> Schema:
    """schemathesis over the server at `options.base_url`, by the document given as data."""
    schema = schemathesis.openapi.from_dict(copy.deepcopy(dict(document)), config=_config(options))
    schema.hook("after_call")(_after_call)  # schema-wide: also its include()d copies
    return schema


# Who hears of every call a schema of from_document makes (the coverage of `csapi conform`); a
# ContextVar, so that runs in other threads do not mix.
_OBSERVER: ContextVar[Callable[[Case, Response], None] | None] = ContextVar("observer", default=None)


@contextmanager
def observing(observer: Callable[[Case, Response], None]) -> Iterator[None]:
    """While inside, `observer(case, response)` after each call (`response.request`: what was sent)."""
    token = _OBSERVER.set(observer)
    try:
        yield
    finally:
        _OBSERVER.reset(token)


def _after_call(context: Any, case: Case, response: Response) -> None:
    observer = _OBSERVER.get()
    if observer is not None:
        observer(case, response)


def from_app(
    app: Any, options: Options, *, only: str | None = None, path: str = "/v1/openapi.json"
) -> Schema:
    """schemathesis over an ASGI app in process, by the document it serves at `path`; `only`: a
    regular expression of the operationIds to keep."""
    schema = schemathesis.openapi.from_asgi(path, app, config=_config(options))
    return schema.include(operation_id_regex=only) if only is not None else schema


@dataclass(frozen=True)
class Operation:
    """An operation of a loaded schema: operationId, method (upper case), path template, tags, and
    schemathesis' own operation, which cases are drawn from."""

    id: str
    method: str
    path: str
    tags: tuple[str, ...]
    api: Any

    @property
    def label(self) -> str:
        return f"{self.method} {self.path}"


def operations(schema: Schema) -> list[Operation]:
    """The operations schemathesis could load, in the document's order."""
    found = []
    for api in internals.operations(schema):
        raw = internals.definition(api)
        tags = tuple(tag for tag in raw.get("tags") or () if isinstance(tag, str))
        found.append(
            Operation(str(raw.get("operationId", api.label)), api.method.upper(), api.path, tags, api)
        )
    return found


# ---------------------------------------------------------------------------- ids
#: Body fields that hold ids, and the parameter whose ids they take when there are none of their own name.
ID_FIELDS = {
    "users": "user_id",
    "id": "user_id",
    "items": "item_id",
    "order": "item_id",
    "parent_id": "item_id",
}


@dataclass(frozen=True)
class Ids:
    """Ids to put in generated requests in place of drawn ones, so that valid requests reach real data
    instead of stopping at a 404: by the name of the path parameter, query parameter or body field
    (ID_FIELDS for body fields named otherwise). A drawn id n (1 <= n, and n <= keep_above if set)
    becomes the (n-1)-th, cyclically; anything that is not an id is left alone, so a negative case
    stays negative, and so does an id above `keep_above` (a huge id must be a 4xx, never a 500).
    """

    by_name: Mapping[str, Sequence[int]]
    query: bool = False  # also in query parameters
    keep_above: int | None = None

    def pool(self, name: str) -> Sequence[int]:
        return self.by_name.get(name) or self.by_name.get(ID_FIELDS.get(name, ""), ())

    def known(self, name: str, value: Any) -> Any:
        pool = self.pool(name)
        if not pool or type(value) is not int or value < 1:
            return value
        if self.keep_above is not None and value > self.keep_above:
            return value
        return pool[(value - 1) % len(pool)]

    def mapped(self, values: dict[str, Any] | None) -> dict[str, Any] | None:
        """Parameters or a body's fields, each id mapped (a list of ids entry by entry)."""
        if not values:
            return values
        return {
            name: [self.known(name, v) for v in value] if isinstance(value, list) else self.known(name, value)
            for name, value in values.items()
        }


def map_ids(schema: Schema, ids: Ids) -> None:
    """Register schemathesis hooks on the schema that put `ids` in every generated request."""

    def map_path_parameters(context: Any, path_parameters: dict[str, Any] | None) -> dict[str, Any] | None:
        return ids.mapped(path_parameters)

    def map_query(context: Any, query: dict[str, Any] | None) -> dict[str, Any] | None:
        return ids.mapped(query)

    def map_body(context: Any, body: Any) -> Any:
        return ids.mapped(body) if isinstance(body, dict) else body

    schema.hook(map_path_parameters)
    schema.hook(map_body)
    if ids.query:
        schema.hook(map_query)


# ---------------------------------------------------------------------------- cases
def phase_of(case: Case) -> str | None:
    """The phase that generated the case: "examples", "coverage", "fuzzing" or "stateful"."""
    return internals.phase_of(case)


def coverage_scenario(case: Case) -> Any:
    """What the coverage phase varied in the case, or None."""
    return internals.coverage_scenario(case)


def is_negative(case: Case) -> bool:
    """Was the case generated to be invalid by the document?"""
    return internals.generation_mode(case) == "negative"


def body_validator(operation: Any) -> Any | None:
    """A jsonschema validator of the operation's JSON request body (None: it has none)."""
    return internals.body_validator(operation)


def checks_of(failure: BaseException) -> tuple[str, ...]:
    """The checks that raise this kind of failure (for a `filter_failure` hook)."""
    return internals.failure_checks(failure)


def derive_seed(seed: int, label: str) -> int:
    """A seed of its own for each part of a run (an operation, a mode), fixed by the run's seed."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{label}".encode()).digest()[:8], "big")


def _survey(examples: int, **extra: Any) -> hypothesis.settings:
    """Settings of a loop that records failures itself: the first failing example is kept (no
    shrinking), nothing is printed, and the seed the caller gives fixes the run."""
    return hypothesis.settings(
        max_examples=max(1, examples),
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        **extra,
    )


def _asserting(examples: int, **extra: Any) -> hypothesis.settings:
    """Settings of a run whose failure is raised, as in a test: derandomized, shrunk by hypothesis."""
    return hypothesis.settings(
        max_examples=max(1, examples),
        database=None,
        deadline=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
        **extra,
    )


class CannotDraw(Exception):
    """schemathesis or hypothesis could not make (or serialize) requests for an operation."""

    def __init__(self, error: BaseException) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error


def reject() -> NoReturn:
    """Inside `send` or a scenario's `before_call`: this case is not sent (hypothesis draws another)."""
    hypothesis.reject()


def fuzz(operation: Operation, mode: str, examples: int, seed: int, send: Callable[[Case], None]) -> None:
    """Draw up to `examples` cases of the operation, valid ("positive") or invalid ("negative") by
    the document, and hand each to `send`, which sends and judges it (or calls `reject`).

    No shrinking: `send` keeps what it finds. Returns quietly when no case can be drawn within the
    document's constraints; raises CannotDraw when schemathesis or hypothesis fail on it.
    """

    @hypothesis.seed(seed)
    @_survey(examples)
    @hypothesis.given(case=operation.api.as_strategy(generation_mode=schemathesis.GenerationMode(mode)))
    def test(case: Case) -> None:
        send(case)

    try:
        test()
    except Unsatisfiable:
        pass
    except (HypothesisException, schemathesis.errors.SchemathesisError) as exc:
        raise CannotDraw(exc) from exc


# ---------------------------------------------------------------------------- judging
@dataclass(frozen=True)
class Failed:
    """A check that failed on an answer: its name, schemathesis' title and message."""

    check: str
    title: str
    message: str = ""
    case_id: str | None = None  # the request that failed it, when the check sent its own

    @property
    def text(self) -> str:
        return f"{self.title}: {self.message}" if self.message else self.title


def judge(
    case: Case,
    response: Response,
    checks: Iterable[str],
    *,
    transport: Mapping[str, Any] | None = None,
    recorder: Any = None,
) -> list[Failed]:
    """The named checks that fail on the answer, in the order given (empty: it passes).

    All at once first (the common case: they pass), then one by one to tell which failed.
    `transport` is what the case was sent with (the keyword arguments of `case.call`), for checks
    that send requests of their own; `recorder`, a state machine's, for the stateful checks.
    """
    names = list(checks)
    if not names or _failure(case, response, names, transport, recorder) is None:
        return []
    found = []
    for name in names:
        failure = _failure(case, response, [name], transport, recorder)
        if failure is not None:
            found.append(Failed(name, *internals.failure_parts(failure)))
    return found


def _failure(
    case: Case, response: Response, names: list[str], transport: Mapping[str, Any] | None, recorder: Any
) -> BaseException | None:
    """The first failure of the named checks on the answer, or None."""
    try:
        case.validate_response(
            response,
            checks=[BUILTIN_CHECKS[name] for name in names],
            headers=dict(transport["headers"]) if transport and "headers" in transport else None,
            transport_kwargs=dict(transport) if transport else None,
            recorder=recorder,
        )
    except schemathesis.errors.FailureGroup as group:
        return group.exceptions[0]
    except AssertionError as exc:  # a check's plain assertion, outside schemathesis' failure classes
        return exc
    return None


@dataclass(frozen=True)
class AuthProbe:
    """What ignored_auth found: its failure and the answer that failed it; every 401 it got."""

    failed: Failed | None
    answer: Response | None
    unauthorized: list[Response]


def probe_auth(case: Case, response: Response, transport: Mapping[str, Any]) -> AuthProbe:
    """schemathesis' ignored_auth on a case that passed: it is sent again without credentials and with
    wrong ones, each of which must be refused."""
    probes = internals.Probes("ignored_auth", case)
    failed = judge(case, response, ["ignored_auth"], transport=transport, recorder=probes.recorder)
    answer = probes.response(failed[0].case_id) if failed else None
    unauthorized = [probe for probe in probes.responses() if probe.status_code == 401]
    return AuthProbe(failed[0] if failed else None, answer, unauthorized)


def assert_valid(case: Case, response: Response, transport: Mapping[str, Any] | None, recorder: Any) -> None:
    """The checks the schema's options turn on; raises schemathesis' FailureGroup if any fails."""
    case.validate_response(
        response, transport_kwargs=dict(transport) if transport else None, recorder=recorder
    )


# ---------------------------------------------------------------------------- the stateful phase
class Scenario:
    """What a caller does around each call of a stateful scenario; override what you need."""

    def setup(self) -> None:
        """Before each scenario (e.g. restore the data, so that every scenario starts alike)."""

    def before_call(self, case: Case) -> None:
        """Before a call; may change the case, or `reject()` it."""

    def call_kwargs(self, case: Case) -> dict[str, Any]:
        """The keyword arguments of `case.call` (base URL, headers, session, ...)."""
        return {}

    def after_call(self, case: Case, response: Response) -> None:
        """After a call, before it is judged."""

    def validate(self, case: Case, response: Response, transport: Mapping[str, Any], recorder: Any) -> None:
        """Judge the answer; by default the checks the options turn on, raising on a failure."""
        assert_valid(case, response, transport, recorder)


def run_stateful(
    schema: Schema,
    scenario: Scenario,
    *,
    examples: int,
    steps: int,
    seed: int | None = None,
    operation_ids: Sequence[str] | None = None,
) -> bool:
    """`examples` scenarios of up to `steps` calls chained by the document's links (those schemathesis
    infers too, with `infer_links`), among `operation_ids` (default: all).

    With a `seed`, a survey: no shrinking, nothing printed (the scenario records what it finds);
    without, as a test: derandomized, and a failure is raised, shrunk. False when there is no link
    to follow among the operations.
    """
    if operation_ids is not None:
        schema = schema.include(operation_id=list(operation_ids))
    internals.enable_stateful(schema)
    try:
        machine = _machine(schema.as_state_machine(), scenario)
    except schemathesis.errors.SchemathesisError:  # no links among the operations
        return False
    if seed is not None:
        hypothesis.seed(seed)(machine)
        settings = _survey(examples, stateful_step_count=steps)
    else:
        settings = _asserting(examples, stateful_step_count=steps)
    try:
        machine.run(settings=settings)
    except (Unsatisfiable, schemathesis.errors.NoLinksFound):
        return False
    return True


def _machine(base: Any, scenario: Scenario) -> Any:
    """schemathesis' state machine for the schema, calling the scenario's hooks."""

    class Machine(base):  # type: ignore[misc]  # base is Any: schemathesis' generated class
        def setup(self) -> None:
            scenario.setup()

        def before_call(self, case: Case) -> None:
            scenario.before_call(case)

        def get_call_kwargs(self, case: Case) -> dict[str, Any]:
            return scenario.call_kwargs(case)

        def after_call(self, response: Response, case: Case) -> None:
            super().after_call(response, case)  # recorded, for the stateful checks
            scenario.after_call(case, response)

        def validate_response(self, response: Response, case: Case, *args: Any, **kwargs: Any) -> None:
            scenario.validate(case, response, kwargs, internals.machine_recorder(self))

    return Machine


# ---------------------------------------------------------------------------- the engine
@dataclass
class Tally:
    """What a run sent and found, as plain data: cases by phase, statuses, failed checks (with the
    first MAX_EXAMPLES_SHOWN as `check: curl`), engine errors, and the operations reached."""

    cases: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    failed_checks: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    operations: set[str] = field(default_factory=set)

    @property
    def total(self) -> int:
        return sum(self.cases.values())

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)

    @property
    def failures(self) -> int:
        return sum(self.failed_checks.values()) + len(self.errors)

    def fail(self, check: str, example: Callable[[], str]) -> None:
        """Count a failed check; keep its example (made only if kept) among the first ones."""
        self.failed_checks[check] += 1
        if len(self.examples) < MAX_EXAMPLES_SHOWN:
            self.examples.append(example())


def run_phases(schema: Schema, tally: Tally, on_phase: Callable[[str], None] = lambda phase: None) -> None:
    """schemathesis' engine over the schema, as `st run` runs it: every phase the options turn on
    (the document's examples; the coverage phase: boundaries, each missing or mistyped field, wrong
    content types, undeclared methods; fuzzing), positive and negative as `mode` says; each
    operation's cases judged by the checks the options turn on, and counted into `tally`.
    `on_phase` hears each phase's name as it starts."""
    for event in internals.run_engine(schema):
        if isinstance(event, internals.PhaseStarted):
            on_phase(event.phase)
        elif isinstance(event, internals.ScenarioDone):
            tally.cases[event.phase] += event.cases
            if event.label:
                tally.operations.add(event.label)
            tally.statuses.update(event.statuses)
            for check, case in event.failures:
                tally.fail(check, _curl_example(check, case))
        else:
            error = event.error
            tally.errors.append(f"{event.label}: {type(error).__name__}: {error}"[:500])


def _curl_example(check: str, case: Any) -> Callable[[], str]:
    """A failed check's example, `check: curl`, made only when called (a Tally keeps the first few)."""
    return lambda: f"{check}: {case.as_curl_command()}"
