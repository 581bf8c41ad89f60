"""`csapi validate --drift`: does a server built on an edited document still do what it says?

The server (the mock: cli.py hands over `mock_server.drift.mock_on`) is built on the edited
document, in process, and seen only through its ASGI app and plain data: the API key, a user's
credentials and the ids that user owns. A quick schemathesis pass (conformance/driver.py) sends
a few valid requests to every operation (positive mode, fixed seed, SEED and EXAMPLES) as that
user and judges each answer against the edited document. An operation drifts when an answer
does not match it:

- the server refuses its own answer: the mock validates its responses and turns one the document
  does not allow (e.g. a field the document now requires that the mock does not produce, a value
  outside a narrowed enum) into a 400 naming the field, which is reported as such;
- schemathesis' response checks (driver.RESPONSE_CHECKS): no server error, a documented status,
  content type and headers, and a body matching the schema of its status.

A document the server cannot even be built on (an operation without a handler, invalid OpenAPI)
is one problem for the whole run. Ids in paths, queries and bodies are drawn from what the user
owns, so that valid requests reach real data rather than 404s; the server's data is reset before
each operation, so every operation starts from the same data and the run is reproducible.

What it cannot see: a new request field or parameter the server silently ignores, and behaviour
no schema states.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from ..openapi.loader import DocumentError
from ..openapi.loader import loads as parse
from . import driver

SEED = 20261121
EXAMPLES = 5
# The details of connexion's NonConformingResponse errors, which the mock renders as a 400.
_NONCONFORMING = ("Response body does not conform", "Response headers do not conform")
MESSAGE_CHARS = 400


class Server(Protocol):
    """A server in process, built on the document, as drift sees it."""

    @property
    def app(self) -> Any:
        """Its ASGI app, which serves the document at /v1/openapi.json."""

    @property
    def api_key(self) -> str: ...

    @property
    def user_id(self) -> int:
        """The user the requests are sent as (on a paid plan, so that paid fields are accepted)."""

    @property
    def token(self) -> str: ...

    @property
    def ids(self) -> Mapping[str, Sequence[int]]:
        """Ids of what that user owns, by path parameter or body field name (driver.Ids)."""

    def reset(self) -> None:
        """Back to the data it started with."""


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
    error: str = ""  # the server could not be built on the document
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
    document: str | Path,
    build: Callable[[Path], Server],
    *,
    include: Iterable[str] = (),
    examples: int = EXAMPLES,
    seed: int = SEED,
) -> DriftReport:
    """Build the server on `document` with `build` and judge a few valid requests per operation against it.

    `include` narrows the run to these operationIds or tags (all operations when empty).
    """
    started = time.monotonic()
    path, wanted = Path(document), set(include)
    unknown = wanted - _names(path)
    if unknown:  # a typo must not quietly narrow the run (checked before the costly build)
        error = f"no operation is named by {', '.join(sorted(unknown))}"
        return DriftReport(path, (), error, time.monotonic() - started)
    try:
        server = build(path)
        operations = driver.operations(_schema(server, seed))
    except Exception as exc:  # whatever the server or schemathesis refuse: the document's problem
        error = f"the mock cannot be built on it: {type(exc).__name__}: {_short(str(exc))}"
        return DriftReport(path, (), error, time.monotonic() - started)
    selected = [op for op in operations if not wanted or op.id in wanted or wanted & set(op.tags)]
    outcomes = tuple(_operation(server, operation, examples, seed) for operation in selected)
    return DriftReport(path, outcomes, "", time.monotonic() - started)


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


def _schema(server: Server, seed: int) -> driver.Schema:
    """schemathesis over the server's app: valid requests, as its user, on ids that user owns."""
    options = driver.Options(
        checks=driver.RESPONSE_CHECKS,
        mode="positive",
        seed=seed,
        deterministic=True,
        credentials=driver.Credentials(server.api_key, server.user_id, server.token),
    )
    schema = driver.from_app(server.app, options)
    driver.map_ids(schema, driver.Ids(server.ids, query=True))
    return schema


def _operation(server: Server, operation: driver.Operation, examples: int, seed: int) -> Outcome:
    """Up to `examples` valid requests to the operation, from the server's first data; the first that
    drifts is the verdict."""
    server.reset()
    found: list[Outcome] = []
    cases = 0

    def send(case: driver.Case) -> None:
        nonlocal cases
        if found:
            return
        cases += 1
        response = case.call()
        message = _judge(case, response)
        if message:
            request = _request(case, response)
            found.append(Outcome(operation.id, operation.label, "drifted", message, request, cases))

    try:
        driver.fuzz(operation, "positive", examples, driver.derive_seed(seed, operation.id), send)
    except driver.CannotDraw as exc:
        message = f"cannot draw requests: {_one_line(str(exc.error))}"
        return Outcome(operation.id, operation.label, "not-run", message)
    return found[0] if found else Outcome(operation.id, operation.label, "ok", cases=cases)


def _judge(case: driver.Case, response: driver.Response) -> str:
    """Why the answer does not match the document; "" when it does."""
    if response.status_code == 400:
        detail = _message(response)
        if detail.startswith(_NONCONFORMING):
            return f"the mock's answer does not match the document: {_short(detail)}"
    failed = driver.judge(case, response, driver.RESPONSE_CHECKS)
    return _short(failed[0].text) if failed else ""


def _message(response: driver.Response) -> str:
    try:
        body = response.json()
    except ValueError:
        return ""
    return str(body.get("message", "")) if isinstance(body, dict) else ""


def _request(case: driver.Case, response: driver.Response) -> str:
    request = getattr(response, "request", None)
    url = getattr(request, "url", None) or case.formatted_path
    return f"{case.method.upper()} {url} -> {response.status_code}"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _short(text: str) -> str:
    text = _one_line(text)
    return text if len(text) <= MESSAGE_CHARS else text[: MESSAGE_CHARS - 1] + "…"
