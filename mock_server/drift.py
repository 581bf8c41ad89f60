"""`csapi validate --drift`: does the mock still do what an edited document says?

The mock is built on the edited document (connexion routes and validates by it, with response
validation on), in process, over the "default" fixtures; then a quick schemathesis pass sends
a few valid requests to every operation (positive mode, fixed seed, SEED and EXAMPLES) as user
1, the pro user, and judges each answer against the edited document. An operation drifts when
an answer does not match it:

- connexion's response validation refuses the mock's answer (e.g. a field the document now
  requires that the mock does not produce, a value outside a narrowed enum): the app turns
  that into a 400 naming the field, which is reported as such;
- schemathesis' checks: no server error, a documented status, content type and headers, and a
  body matching the schema of its status.

A document the mock cannot even be built on (an operation without a handler, invalid
OpenAPI) is one problem for the whole run. Ids in paths and bodies are drawn from what user 1
owns, so that valid requests reach real data rather than 404s; the store is restored before
each operation, so every operation starts from the same data and the run is reproducible.

What it cannot see: a new request field or parameter the mock silently ignores (connexion
passes a handler only the arguments it takes), and behaviour no schema states.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import hypothesis
import schemathesis
from hypothesis import HealthCheck, Phase, Verbosity
from hypothesis.errors import HypothesisException, Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.core.errors import SchemathesisError
from schemathesis.core.failures import FailureGroup
from schemathesis.core.result import Ok
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi import checks as oas

from ..openapi import DOCUMENT_PATH
from ..openapi.diff import parse
from ..openapi.lint import DocumentError

SEED = 20261121
EXAMPLES = 5
API_KEY = "csapi-drift-key"
CLOCK = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC)
CHECKS: list[tuple[str, Callable[..., Any]]] = [
    ("not_a_server_error", not_a_server_error),
    ("status_code_conformance", oas.status_code_conformance),
    ("content_type_conformance", oas.content_type_conformance),
    ("response_headers_conformance", oas.response_headers_conformance),
    ("response_schema_conformance", oas.response_schema_conformance),
]
# The details of connexion's NonConformingResponse errors, which the app renders as a 400.
_NONCONFORMING = ("Response body does not conform", "Response headers do not conform")
MESSAGE_CHARS = 400


@dataclass(frozen=True)
class Outcome:
    """One operation's verdict: "ok", "drifted" (with the first failure) or "not-run" (why)."""

    operation_id: str
    operation: str  # "METHOD /path"
    status: str
    message: str = ""
    request: str = ""
    cases: int = 0

    def __str__(self) -> str:
        head = f"{self.status:<8} {self.operation} [{self.operation_id}]"
        if self.status == "ok":
            return f"{head} ({self.cases} requests)"
        return f"{head}: {self.message}" + (f"\n         request: {self.request}" if self.request else "")

    def as_dict(self) -> dict[str, Any]:
        return {
            "operation_id": self.operation_id,
            "operation": self.operation,
            "status": self.status,
            "message": self.message,
            "request": self.request,
            "cases": self.cases,
        }


@dataclass(frozen=True)
class DriftReport:
    document: Path
    outcomes: tuple[Outcome, ...]
    error: str = ""  # the mock could not be built on the document
    seconds: float = 0.0

    @property
    def drifted(self) -> list[Outcome]:
        return [outcome for outcome in self.outcomes if outcome.status != "ok"]

    @property
    def valid(self) -> bool:
        return not self.error and not self.drifted

    def summary(self) -> str:
        if self.error:
            return f"drift: not run on {self.document}: {self.error}"
        if self.valid:
            count = len(self.outcomes)
            return f"OK: the mock matches {self.document} ({count} operations, {self.seconds:.1f} s)"
        return (
            f"drift: {len(self.drifted)} of {len(self.outcomes)} operation(s) of the mock do not match "
            f"{self.document} ({self.seconds:.1f} s)"
        )

    def lines(self) -> list[str]:
        """The operations that drifted, then the summary."""
        return [*(str(outcome) for outcome in self.drifted), self.summary()]

    def as_dict(self) -> dict[str, Any]:
        return {
            "document": str(self.document),
            "valid": self.valid,
            "error": self.error,
            "seconds": round(self.seconds, 2),
            "outcomes": [outcome.as_dict() for outcome in self.outcomes],
        }


def check_drift(
    document: str | Path = DOCUMENT_PATH,
    *,
    include: Iterable[str] = (),
    examples: int = EXAMPLES,
    seed: int = SEED,
) -> DriftReport:
    """Run the mock on `document` and judge a few valid requests per operation against it.

    `include` narrows the run to these operationIds or tags (all operations when empty).
    """
    with _quiet("connexion"):  # it logs each refused answer and operation; the report says it once
        return _check_drift(Path(document), set(include), examples, seed)


@contextlib.contextmanager
def _quiet(name: str) -> Iterator[None]:
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)


def _check_drift(document: Path, wanted: set[str], examples: int, seed: int) -> DriftReport:
    started = time.monotonic()
    unknown = wanted - _names(document)
    if unknown:  # a typo must not quietly narrow the run (checked before the costly build)
        error = f"no operation is named by {', '.join(sorted(unknown))}"
        return DriftReport(document, (), error, time.monotonic() - started)
    try:
        run = _Run(document, seed)
    except Exception as exc:  # whatever connexion or schemathesis refuse: the document's problem
        error = f"the mock cannot be built on it: {type(exc).__name__}: {_short(str(exc))}"
        return DriftReport(document, (), error, time.monotonic() - started)
    selected = [
        (operation_id, operation)
        for operation_id, operation in run.operations()
        if not wanted or operation_id in wanted or wanted & set(operation.tags or ())
    ]
    outcomes = [run.operation(operation_id, operation, examples) for operation_id, operation in selected]
    return DriftReport(document, tuple(outcomes), "", time.monotonic() - started)


def _names(document: Path) -> set[str]:
    """The operationIds and tags of the document (nothing when it cannot be read: the build says why)."""
    try:
        data = parse(document.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, DocumentError):
        return set()
    names: set[str] = set()
    for item in data.get("paths", {}).values() if isinstance(data.get("paths"), dict) else ():
        for operation in item.values() if isinstance(item, dict) else ():
            if isinstance(operation, dict):
                names.add(str(operation.get("operationId")))
                names.update(str(tag) for tag in operation.get("tags") or () if isinstance(tag, str))
    return names


class _Run:
    """The mock on the document, its data, and schemathesis over it."""

    def __init__(self, document: Path, seed: int) -> None:
        from ..fixtures import generate
        from .app import create_app
        from .store import Store

        self.seed = seed
        self.data = generate("default", 0)
        self.store = Store(clock=lambda: CLOCK, data=copy.deepcopy(self.data))
        self.caller = self.store.accounts[1]
        app = create_app(
            self.store,
            api_key=API_KEY,
            clock=lambda: CLOCK,
            validate_responses=True,
            cache=False,
            document=document,
        )
        self.schema = schemathesis.openapi.from_asgi("/v1/openapi.json", app, config=self._config())
        self.ids = self._ids()
        self._register_hooks()

    def _config(self) -> schemathesis.Config:
        return schemathesis.Config.from_dict(
            {
                "seed": self.seed,
                "generation": {
                    "mode": "positive",
                    "deterministic": True,
                    "database": "none",
                    "with-security-parameters": False,  # the credentials come from `auth`
                },
                "auth": {
                    "openapi": {
                        "apiKey": {"api_key": API_KEY},
                        "basicAuth": {"username": str(self.caller.id), "password": self.caller.token},
                    }
                },
            }
        )

    def _ids(self) -> dict[str, list[int]]:
        """Ids of what user 1 owns (or belongs to), by the name of the parameter or body field."""
        store, me = self.store, self.caller.id
        collections = sorted(c.id for c in store.collections.values() if c.owner_id == me)
        items = sorted(i.id for i in store.items.values() if i.collection_id in set(collections))
        on_items = set(items)
        teams = sorted(a.id for a in store.accounts.values() if a.kind == "team" and me in a.members)
        ids = {
            "collection_id": collections,
            "item_id": items,
            "parent_id": [i.id for i in store.items.values() if i.id in on_items and i.type == "stack"]
            or items,
            "tag_id": sorted(t.id for t in store.tags.values() if t.item_id in on_items),
            "comment_id": sorted(
                c.id for c in store.comments.values() if c.item_id in on_items and c.user_id == me
            ),
            "reaction_id": sorted(
                r.id for r in store.reactions.values() if r.item_id in on_items and r.user_id == me
            ),
            "email_id": sorted(e.id for e in store.emails.values() if e.user_id == me),
            "team_id": teams,
            "user_id": sorted(store.accounts),
        }
        return {name: values for name, values in ids.items() if values}

    def _known(self, name: str, value: Any) -> Any:
        """A drawn id made one user 1 has; anything that is not an id is left as drawn."""
        ids = self.ids.get(name)
        if not ids or type(value) is not int or value < 1:
            return value
        return ids[value % len(ids)]

    def _register_hooks(self) -> None:
        known = self._known
        body_names = {"items": "item_id", "order": "item_id", "users": "user_id", "id": "user_id"}

        def map_path_parameters(context: Any, parameters: dict[str, Any] | None) -> dict[str, Any] | None:
            return (
                {name: known(name, value) for name, value in parameters.items()} if parameters else parameters
            )

        def map_query(context: Any, query: dict[str, Any] | None) -> dict[str, Any] | None:
            return {name: known(name, value) for name, value in query.items()} if query else query

        def map_body(context: Any, body: Any) -> Any:
            if not isinstance(body, dict):
                return body
            mapped = {}
            for name, value in body.items():
                kind = body_names.get(name, name)
                mapped[name] = (
                    [known(kind, v) for v in value] if isinstance(value, list) else known(kind, value)
                )
            return mapped

        for hook in (map_path_parameters, map_query, map_body):
            self.schema.hook(hook)

    def operations(self) -> list[tuple[str, Any]]:
        found = []
        for result in self.schema.get_all_operations():
            if isinstance(result, Ok):
                operation = result.ok()
                found.append((str(operation.definition.raw.get("operationId", operation.label)), operation))
        return found

    def operation(self, operation_id: str, operation: Any, examples: int) -> Outcome:
        label = f"{operation.method.upper()} {operation.path}"
        self.store.reset(copy.deepcopy(self.data))  # every operation from the same data
        found: list[Outcome] = []
        cases = 0

        @hypothesis.seed(
            int.from_bytes(hashlib.sha256(f"{self.seed}:{operation_id}".encode()).digest()[:8], "big")
        )
        @hypothesis.settings(
            max_examples=max(1, examples),
            database=None,
            deadline=None,
            derandomize=False,  # the seed above fixes the run
            phases=[Phase.explicit, Phase.generate],  # no shrinking: the first failing request is kept
            suppress_health_check=list(HealthCheck),
            verbosity=Verbosity.quiet,
        )
        @hypothesis.given(case=operation.as_strategy(generation_mode=GenerationMode.POSITIVE))
        def test(case: Any) -> None:
            nonlocal cases
            if found:
                return
            cases += 1
            response = case.call()
            message = self._judge(case, response)
            if message:
                found.append(
                    Outcome(operation_id, label, "drifted", message, _request(case, response), cases)
                )

        try:
            test()
        except Unsatisfiable:
            pass
        except (HypothesisException, SchemathesisError) as exc:
            return Outcome(operation_id, label, "not-run", f"cannot draw requests: {_one_line(str(exc))}")
        return found[0] if found else Outcome(operation_id, label, "ok", cases=cases)

    def _judge(self, case: Any, response: Any) -> str:
        """Why the answer does not match the document; "" when it does."""
        if response.status_code == 400:
            detail = _message(response)
            if detail.startswith(_NONCONFORMING):
                return f"the mock's answer does not match the document: {_short(detail)}"
        try:
            case.validate_response(response, checks=[check for _, check in CHECKS])
        except FailureGroup as group:
            failure = group.exceptions[0]
            text = failure.title + (f": {failure.message}" if failure.message else "")
            return _short(text)
        except AssertionError as exc:
            return _short(str(exc))
        return ""


def _message(response: Any) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("message", "")) if isinstance(body, dict) else ""


def _request(case: Any, response: Any) -> str:
    request = getattr(response, "request", None)
    url = getattr(request, "url", None) or case.formatted_path
    return f"{case.method.upper()} {url} -> {response.status_code}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _short(text: str) -> str:
    text = _one_line(text)
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"
