"""Per-request control and faults (docs/design.md, "Per-request control with Prefer", "Faults").

- `Prefer: code=404` (Prism's convention) answers that status as the operation documents it:
  an error status with the `{code, message}` body, without running the operation; a documented
  2xx is computed normally. `Prefer: example=NAME` answers the document's example of that name
  (of the response `code=` names, else of the first response, 2xx first, that has one) with its
  status. `Prefer: delay=250` answers 250 ms later (at most MAX_DELAY_MS). They combine:
  `Prefer: code=503, delay=100`. A status the operation does not document, an unknown example
  or a malformed value is a 400 naming what the operation documents.
- Faults, for resilience tests: `serve --latency 50-200` (ms, uniform), `--error-rate 0.02` (an
  error status from FAULT_STATUSES at that rate) and, at run time, `POST /__mock__/faults`:
  `{"operation": "items.create_item" | "*", "status": 503 | "drop" | "slow", "times": 3,
  "probability": 1.0, "delay_ms": 0}`. `times` counts the times it fires (null: until deleted);
  `slow` waits delay_ms, then answers normally; `drop` closes the connection without an answer.

The document lists no 5xx and no 429 (the spec is silent on both), yet every server may answer
them: FAULT_STATUSES (operations.py) count as documented for every operation, here only.

Order on a request to an operation: the seeded draws (latency, error rate; one each per request,
whatever else happens, so that the same seed and the same sequence of requests give the same
faulted requests), then a malformed Prefer is refused (400), then the delays, then a run-time
fault fires, else Prefer answers, else the error rate does, else the operation runs. Nothing here
runs the operation when it answers, so nothing here changes state. It all happens before
authentication and validation: `Prefer: code=404` needs no valid request. Requests outside the
document's operations (the admin API, Swagger UI, unknown paths) are never controlled.

`drop` needs the connection: serve runs uvicorn with the protocol of compat/uvicorn.py, which
puts it in the request's lifespan state, `scope["state"][TRANSPORT]`; in process (a test client)
there is none, and a drop answers 503 with a message saying so.

All of it lives in one `Controls` per session (the journal too; sessions.py), a plain object
without globals; `--latency`, `--error-rate` and the run's totals are the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..openapi import document
from .errors import InvalidInput, NotFound
from .guards import FINDINGS, read_json, whole_number
from .journal import DEFAULT_SIZE, OPERATION, Finding, Journal, finding
from .operations import FAULT_STATUSES, Operation, Operations
from .sessions import SESSION

PREFER = b"prefer"  # the request header of Prefer
TRANSPORT = "csapi.transport"  # scope["state"] key: the connection's asyncio transport (compat/uvicorn.py)
ARRIVED = "csapi.arrived"  # scope["state"] key: time.monotonic() when its bytes were read (compat/uvicorn.py)
MAX_DELAY_MS = 60_000
_CODES = {
    400: "invalid_input",
    401: "unauthorized",
    402: "paid_plan_required",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    **FAULT_STATUSES,
}


def error_code(status: int) -> str:
    """The snake_case `code` of an error status (docs/design.md, status codes)."""
    if status in _CODES:
        return _CODES[status]
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        return "error"
    return re.sub(r"[^a-z0-9]+", "_", phrase.lower()).strip("_")


# ---------------------------------------------------------------------- Prefer
class PreferError(ValueError):
    """A Prefer header the operation cannot honour: the message says what it documents."""


@dataclass
class Preference:
    """What a Prefer header asks of one operation; `status`/`body` set when it answers itself."""

    text: str
    delay_ms: float = 0
    status: int | None = None
    body: Any = None
    run: bool = True  # the operation runs (no code, or a documented 2xx without example)
    headers: dict[str, str] = field(default_factory=dict)


def parse_prefer(text: str, operation: Operation) -> Preference:
    """`code=404, example=default, delay=250` (`;` separates too; other preferences are ignored)."""
    wanted: dict[str, str] = {}
    for part in re.split(r"[,;]", text):
        name, sep, value = part.strip().partition("=")
        name = name.strip().lower()
        if name in ("code", "example", "delay"):
            value = value.strip().strip('"')
            if not value:
                raise PreferError(f"Prefer: {name} needs a value ({name}=...)")
            wanted[name] = value
    preference = Preference(text=text.strip())
    if "delay" in wanted:
        delay = whole_number(wanted["delay"])
        if delay is None:
            shown = _short(wanted["delay"])
            raise PreferError(f"Prefer: delay={shown} is not a whole number of milliseconds")
        preference.delay_ms = min(delay, MAX_DELAY_MS)
    code = None
    if "code" in wanted:
        code = whole_number(wanted["code"], minimum=100, maximum=599)
        if code is None:
            raise PreferError(f"Prefer: code={_short(wanted['code'])} is not an HTTP status")
        if not operation.answers(code):
            raise PreferError(
                f"Prefer: code={code} is not an answer of this operation: {operation.documented()}"
            )
    if "example" in wanted:
        name = wanted["example"]
        by_status = operation.examples.get(name, {})
        status = code if code is not None else _first_status(by_status)
        if status is None or status not in by_status:
            where = f" for {code}" if code is not None else ""
            raise PreferError(
                f"Prefer: example={name}: {operation.operation_id} has no example of that name{where}; "
                f"it documents the examples {operation.example_names()}"
            )
        preference.status, preference.body, preference.run = status, by_status[status], False
        if status in operation.counted and isinstance(preference.body, list):
            preference.headers["X-Total-Count"] = str(len(preference.body))
    elif code is not None and not 200 <= code < 300:
        message = f"Prefer: code={code} asked for this answer; {operation.operation_id} did not run."
        preference.status, preference.body, preference.run = code, _error_body(code, message), False
    return preference


def _short(text: str, most: int = 40) -> str:
    """A value quoted in a message, cut when long (a 5000-digit number says how long it was)."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def _first_status(by_status: dict[int, Any]) -> int | None:
    return min(by_status, key=lambda status: (not 200 <= status < 300, status), default=None)


def _error_body(status: int, message: str) -> dict[str, str]:
    return {"code": error_code(status), "message": message}


# ---------------------------------------------------------------------- faults
@dataclass
class Fault:
    id: int
    operation: str  # an operationId or "*"
    status: int | str  # an error status, "drop" or "slow"
    times: int | None  # how many more times it fires; None: until deleted
    probability: float
    delay_ms: int
    fired: int = 0

    def view(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "operation": self.operation,
            "status": self.status,
            "times": self.times,
            "probability": self.probability,
            "delay_ms": self.delay_ms,
            "fired": self.fired,
        }

    def applies_to(self, operation: Operation) -> bool:
        if self.operation not in ("*", operation.operation_id):
            return False
        return not isinstance(self.status, int) or operation.answers(self.status)


_FAULT_KEYS = {"operation", "status", "times", "probability", "delay_ms"}


def parse_latency(text: str) -> tuple[float, float]:
    """`50-200` (ms, a uniform draw between) or `100` (always 100 ms)."""
    low, sep, high = text.strip().partition("-")
    try:
        bounds = (float(low), float(high) if sep else float(low))
    except ValueError:
        raise ValueError(f"{text!r} is not MS or MIN-MAX, in milliseconds (e.g. 50-200)") from None
    if not 0 <= bounds[0] <= bounds[1] <= MAX_DELAY_MS:
        raise ValueError(f"{text!r}: want 0 <= MIN <= MAX <= {MAX_DELAY_MS} ms")
    return bounds


class Controls:
    """The journal, the faults and the seeded draws of one session (sessions.py): the app's
    default session holds the one `create_app` gets, and `for_session()` makes the others'.

    `seed` makes the latency, the error rate and fault probabilities reproducible; `size` bounds
    the journal's ring. `sleep` is how delays are waited (a test may record them instead).
    `operations` shares another Controls' parse of the document."""

    def __init__(
        self,
        seed: int = 0,
        size: int = DEFAULT_SIZE,
        *,
        latency: tuple[float, float] | None = None,
        error_rate: float = 0.0,
        spec: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
        operations: Operations | None = None,
    ):
        if not 0 <= error_rate <= 1:
            raise ValueError("the error rate is between 0 and 1")
        self.seed = seed
        if operations is None:
            operations = Operations(spec if spec is not None else document())
        self.operations = operations
        self.journal = Journal(size, clock)
        self.latency = latency if latency and latency[1] > 0 else None
        self.error_rate = error_rate
        self.sleep = sleep
        self._latency_draws = random.Random(f"latency:{seed}")
        self._error_draws = random.Random(f"errors:{seed}")
        self._fault_draws = random.Random(f"faults:{seed}")
        self.faults: dict[int, Fault] = {}
        self._next_fault = 1
        self.shared_fire: Callable[[int], bool] | None = None  # set by a shared engine (engine/)
        self.active = False  # anything to do for a request without Prefer
        self._update()

    def _update(self) -> None:
        self.active = bool(self.faults) or self.error_rate > 0 or self.latency is not None

    def for_session(self) -> Controls:
        """The controls of another session: a journal ring and faults of its own, draws seeded
        alike (the same requests in a session fault alike), and the server-wide rest shared:
        `--latency`, `--error-rate`, the operations, and the run's totals (the report)."""
        journal = self.journal
        other = Controls(
            self.seed,
            journal.size,
            latency=self.latency,
            error_rate=self.error_rate,
            clock=journal.clock,
            sleep=self.sleep,
            operations=self.operations,
        )
        other.journal.usage, other.journal.started = journal.usage, journal.started
        return other

    # seeded draws: one of each per request to an operation
    def draw_latency(self) -> float:
        if self.latency is None:
            return 0.0
        return self._latency_draws.uniform(*self.latency)

    def draw_error(self, operation: Operation) -> int | None:
        if self.error_rate <= 0:
            return None
        if self._error_draws.random() >= self.error_rate:
            return None
        documented = [s for s in operation.statuses if s >= 500 or s == 429]
        return self._error_draws.choice(sorted({*documented, *FAULT_STATUSES}))

    # run-time faults
    def add_fault(self, body: dict[str, Any]) -> Fault:
        """A fault from the admin API's body; InvalidInput says what is wrong with it."""
        unknown = sorted(set(body) - _FAULT_KEYS)
        if unknown:
            raise InvalidInput(
                f"unknown field(s) {', '.join(unknown)}; a fault has {', '.join(sorted(_FAULT_KEYS))}"
            )
        operation = body.get("operation", "*")
        if not isinstance(operation, str) or (operation != "*" and operation not in self.operations.by_id):
            raise InvalidInput(f'operation must be "*" or an operationId of the document, not {operation!r}')
        status = body.get("status")
        if status in ("drop", "slow"):
            pass
        elif isinstance(status, int) and not isinstance(status, bool):
            target = self.operations.by_id.get(operation)
            known = target.answers(status) if target else status in self.operations.statuses_anywhere()
            if not (status >= 400 and (known or status in FAULT_STATUSES)):
                what = (
                    target.documented()
                    if target
                    else f"a fault status ({', '.join(map(str, FAULT_STATUSES))})"
                )
                raise InvalidInput(f"status {status} cannot be a fault here; want an error status: {what}")
        else:
            raise InvalidInput('status must be an error status (e.g. 503), "drop" or "slow"')
        times = body.get("times")
        if times is not None and (not isinstance(times, int) or isinstance(times, bool) or times < 1):
            raise InvalidInput("times must be a whole number above 0, or null (until deleted)")
        probability = body.get("probability", 1.0)
        if (
            not isinstance(probability, int | float)
            or isinstance(probability, bool)
            or not 0 < probability <= 1
        ):
            raise InvalidInput("probability must be a number above 0, at most 1")
        delay_ms = body.get("delay_ms", 0)
        if not isinstance(delay_ms, int) or isinstance(delay_ms, bool) or not 0 <= delay_ms <= MAX_DELAY_MS:
            raise InvalidInput(f"delay_ms must be a whole number from 0 to {MAX_DELAY_MS}")
        fault = Fault(self._next_fault, operation, status, times, float(probability), delay_ms)
        self._next_fault += 1
        self.faults[fault.id] = fault
        self._update()
        return fault

    def delete_fault(self, fault_id: int) -> bool:
        found = self.faults.pop(fault_id, None) is not None
        self._update()
        return found

    def clear_faults(self) -> None:
        self.faults.clear()
        self._update()

    def fault_state(self) -> dict[str, Any]:
        """The faults as JSON-ready data, for a shared engine's snapshot."""
        return {"faults": [fault.view() for fault in self.faults.values()], "next_fault": self._next_fault}

    def restore_faults(self, state: dict[str, Any]) -> None:
        self.faults = {view["id"]: Fault(**view) for view in state["faults"]}
        self._next_fault = state["next_fault"]
        self._update()

    def take_fault(self, operation: Operation) -> Fault | None:
        """The first fault (oldest first) that applies and fires now; it counts down. On a shared
        engine, `fire` goes through the engine's log (`shared_fire`), so that a fault set to fire
        three times fires three times across every worker."""
        fire = self.shared_fire or self.fire
        for fault in list(self.faults.values()):
            if not fault.applies_to(operation):
                continue
            if fault.probability < 1 and self._fault_draws.random() >= fault.probability:
                continue
            if fire(fault.id):
                return fault
        return None

    def fire(self, fault_id: int) -> bool:
        """Count one firing of the fault; False when it is gone (it fired its last time)."""
        fault = self.faults.get(fault_id)
        if fault is None:
            return False
        fault.fired += 1
        if fault.times is not None:
            fault.times -= 1
            if fault.times <= 0:
                del self.faults[fault.id]
                self._update()
        return True


# ---------------------------------------------------------------------- ASGI middleware
class ControlMiddleware:
    """Prefer, faults, latency and the error rate; put it inside the journal (whose match of the
    operation, `scope[OPERATION]`, it acts on), outside the cache. The controls are those of the
    request's session (`scope[SESSION]`), else `controls`."""

    def __init__(self, app: Any, controls: Controls):
        self.app = app
        self.controls = controls

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        session = scope.get(SESSION)
        controls = session.controls if session is not None else self.controls
        prefer = None
        for name, value in scope["headers"]:
            if name == PREFER:
                prefer = value if prefer is None else prefer + b"," + value
        if prefer is None and not controls.active:  # the common case: nothing to do
            await self.app(scope, receive, send)
            return
        operation = scope.get(OPERATION)  # matched by the journal above (absent: not the API)
        if operation is None:
            await self.app(scope, receive, send)
            return
        await self._control(controls, operation, prefer, scope, receive, send)

    async def _control(
        self,
        controls: Controls,
        operation: Operation,
        prefer: bytes | None,
        scope: dict[str, Any],
        receive: Any,
        send: Any,
    ) -> None:
        findings: list[Finding] = scope.get(FINDINGS, [])
        delay = controls.draw_latency()
        error_status = controls.draw_error(operation)
        preference = None
        if prefer is not None:
            try:
                preference = parse_prefer(prefer.decode("latin-1"), operation)
            except PreferError as exc:
                findings.append(finding("prefer", f"refused: {exc}"))
                await _answer(send, 400, _error_body(400, str(exc)))
                return
            delay += preference.delay_ms
        fault = controls.take_fault(operation)
        if fault is not None:
            delay += fault.delay_ms
        if delay > 0:
            await controls.sleep(delay / 1000)
        if fault is not None:
            findings.append(finding("fault", _fault_note(fault), fault=fault.id, remaining=fault.times))
            if fault.status == "drop":
                await _drop(scope, receive, send)
                return
            if isinstance(fault.status, int):
                message = f"Fault {fault.id} answered {fault.status}; {operation.operation_id} did not run."
                await _answer(send, fault.status, _error_body(fault.status, message))
                return
        if preference is not None:
            findings.append(finding("prefer", _prefer_note(preference)))
            if not preference.run and preference.status is not None:
                await _answer(send, preference.status, preference.body, preference.headers)
                return
        if error_status is not None:
            findings.append(finding("fault", f"--error-rate answered {error_status}", status=error_status))
            message = f"--error-rate answered {error_status}; {operation.operation_id} did not run."
            await _answer(send, error_status, _error_body(error_status, message))
            return
        await self.app(scope, receive, send)


def _fault_note(fault: Fault) -> str:
    """The same words each time a fault fires (the report counts findings by their message)."""
    where = "every operation" if fault.operation == "*" else fault.operation
    if fault.status == "slow":
        return f"fault {fault.id} ({where}): slow, {fault.delay_ms} ms"
    return f"fault {fault.id} ({where}): {fault.status}"


def _prefer_note(preference: Preference) -> str:
    if preference.run:
        return f"Prefer: {preference.text}: the operation ran"
    return f"Prefer: {preference.text}: answered {preference.status} without running the operation"


async def _answer(send: Any, status: int, body: Any, headers: dict[str, str] | None = None) -> None:
    content = json.dumps(body).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(content)).encode())]
    raw += [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in (headers or {}).items()
    ]
    if status == 401:
        raw.append((b"www-authenticate", b'Basic realm="csapi"'))
    if status in (429, 503):
        raw.append((b"retry-after", b"1"))
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": content})


async def _drop(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """Close the connection without an answer, then return once the server has seen it go (so
    uvicorn reports nothing). Without a connection (in process) answer 503 and say why."""
    transport = (scope.get("state") or {}).get(TRANSPORT)
    if transport is None:
        message = (
            "A drop fault fired, but in process there is no connection to close "
            "(it needs `csapi serve`); answered 503 instead."
        )
        await _answer(send, 503, _error_body(503, message))
        return
    transport.abort()
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(5):
            while (await receive())["type"] != "http.disconnect":
                pass


# ---------------------------------------------------------------------- admin routes
def admin_routes(
    controls_of: Callable[[Request], Controls],
    submit: Callable[..., Any],
) -> list[tuple[str, Callable[..., Any], list[str]]]:
    """`/__mock__/faults`: POST one (201 `{"id", ...}`), GET them, DELETE all or `/{id}` one;
    `controls_of(request)` gives the controls they act on (those of the request's session), and
    `submit(request, kind, **args)` makes each change (admin.py: through a shared engine if any)."""

    async def create_fault(request: Request) -> JSONResponse:
        raw = await request.body()
        try:
            body = read_json(raw) if raw.strip() else None
        except ValueError as exc:  # malformed, too deep, an integer of 5000 digits: a 400, said
            raise InvalidInput(str(exc)) from None
        if not isinstance(body, dict):
            raise InvalidInput('the body must be a JSON object, e.g. {"operation": "*", "status": 503}')
        return JSONResponse(submit(request, "add_fault", body=body).view(), status_code=201)

    async def list_faults(request: Request) -> JSONResponse:
        controls = controls_of(request)
        return JSONResponse([fault.view() for fault in controls.faults.values()])

    async def clear_faults(request: Request) -> Response:
        submit(request, "clear_faults")
        return Response(status_code=204)

    async def delete_fault(request: Request) -> Response:
        raw = str(request.path_params["fault_id"])
        fault_id = whole_number(raw, minimum=1)  # any text: never int() on 5000 digits
        if fault_id is None or not submit(request, "delete_fault", fault_id=fault_id):
            raise NotFound(f"No fault {_short(raw)}; GET /__mock__/faults lists them.")
        return Response(status_code=204)

    return [
        ("/faults", create_fault, ["POST"]),
        ("/faults", list_faults, ["GET"]),
        ("/faults", clear_faults, ["DELETE"]),
        ("/faults/{fault_id}", delete_fault, ["DELETE"]),
    ]
