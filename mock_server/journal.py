"""The request journal and the client's contract report (docs/design.md, "Request journal").

`JournalMiddleware` sits outside the read cache and the per-request controls, so it sees every
answer of the API: computed, cached, controlled (Prefer, a fault) or an error. For each request
it appends one small tuple to a bounded ring (`Journal.entries`, newest last) and adds the
request to the run's totals per operation (`Journal.usage`, what `serve --report` writes). The
JSON of an entry is only built when someone asks (`GET /__mock__/requests`).

A finding is a dict `{"kind": ..., "message": ...}` (more members may follow): what a request
did that the document does not describe. The list of the request's findings is created here, at
`scope[FINDINGS]` (guards.FINDINGS), before anything below runs, so that every layer below (the
tolerance of guards.py, the controls) appends to the same list, whatever copies of the scope it
makes. Kinds found here: `no_such_operation`, `missing_header`; control.py adds `prefer` and
`fault`.

Requests to the admin API and to Swagger UI are not journaled: they are not the API.

An entry is bounded whatever the request (issue 24): the list at `scope[FINDINGS]` is a `Findings`,
which keeps the first MAX_FINDINGS and only counts the rest (one body of 600k unknown fields no
longer keeps 600k findings), the entry ends them with one `more_findings` finding ("and N more"),
every string a finding quotes is cut to MAX_QUOTE characters, and the path and query the entry
keeps to MAX_LINE. A journal of `size` entries therefore holds at most about
`size * ENTRY_BOUND` bytes.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from time import perf_counter
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .errors import InvalidInput
from .findings import MAX_FINDINGS, Findings
from .guards import FINDINGS, INT64_MAX, whole_number
from .sessions import SESSION

if TYPE_CHECKING:
    from starlette.types import Send

    from .control import Controls
    from .operations import Operation, Operations

OPERATION = "csapi.operation"  # scope key: the request's Operation (None: no operation matches)
NOT_API = ("/__mock__", "/v1/ui", "/v1/openapi.json")  # not journaled, never controlled
DEFAULT_SIZE = 1000
MAX_DISTINCT_FINDINGS = 200  # per operation in the report; the rest is only counted
MAX_QUOTE = 300  # characters of a string a finding keeps (a field name, a value, its message)
MAX_LINE = 2048  # characters of the path, bytes of the query, an entry keeps
MORE = "more_findings"
# What one entry may hold, estimated generously (the path and query, MAX_FINDINGS + 1 findings
# of four strings each at most, Python's overhead): the tests check the journal stays under it.
ENTRY_BOUND = 2 * MAX_LINE + (MAX_FINDINGS + 1) * (4 * (MAX_QUOTE + 80) + 400) + 600

Finding = dict[str, Any]
# (time, method, path, query, operationId, status, duration in s, findings): one request
Entry = tuple[float, str, str, bytes, "str | None", "int | None", float, "list[Finding] | tuple[()]"]


def bounded(findings: list[Finding]) -> list[Finding]:
    """What an entry keeps of a request's findings: at most MAX_FINDINGS, each string in them cut
    to MAX_QUOTE characters, then one `more_findings` finding with the count of the others."""
    more = (findings.more if isinstance(findings, Findings) else 0) + max(0, len(findings) - MAX_FINDINGS)
    kept = [_quoted(item) for item in itertools.islice(findings, MAX_FINDINGS)]
    if more:
        kept.append(
            {
                "kind": MORE,
                "message": f"and {more} more (the journal keeps {MAX_FINDINGS} per request)",
                "count": more,
            }
        )
    return kept


def _quoted(item: Any) -> Any:
    """The finding with every string of it (a name, a value, the message) cut to MAX_QUOTE."""
    if not isinstance(item, dict):
        return _cut(str(item))
    if all(not isinstance(v, str) or len(v) <= MAX_QUOTE for v in item.values()) and len(item) <= 16:
        return item
    return {
        _cut(str(k)): (_cut(v) if isinstance(v, str) else _small(v))
        for k, v in itertools.islice(item.items(), 16)
    }


def _small(value: Any) -> Any:
    """A value of a finding that is not a string: kept if it is a plain number, true, false or
    null, else its text, cut."""
    if value is None or isinstance(value, (bool, int, float)) and len(repr(value)) <= MAX_QUOTE:
        return value
    return _cut(repr(value)[: MAX_QUOTE + 1])


def _cut(text: str, bound: int = MAX_QUOTE) -> str:
    return text if len(text) <= bound else text[: bound - 3] + "..."


def finding(kind: str, message: str, **extra: Any) -> Finding:
    return {"kind": kind, "message": message, **extra}


def kind_of(item: Any) -> str:
    """The kind of a finding, whoever made it (a dict with `kind`, else `type` or `code`)."""
    if isinstance(item, dict):
        return str(item.get("kind") or item.get("type") or item.get("code") or "finding")
    return "finding"


def message_of(item: Any) -> str:
    if isinstance(item, dict):
        return str(item.get("message") or item.get("detail") or "")
    return str(item)


def view(entry: Entry) -> dict[str, Any]:
    """One journal entry as JSON."""
    when, method, path, query, operation_id, status, duration, findings = entry
    return {
        "time": iso_time(when),
        "method": method,
        "path": path,
        "query": query.decode("latin-1"),
        "operationId": operation_id,
        "status": status,
        "duration_ms": round(duration * 1000, 2),
        "findings": [dict(item) if isinstance(item, dict) else item for item in findings],
    }


def iso_time(seconds: float) -> str:
    """ISO 8601 in UTC with the Z designator, to the millisecond (requests come faster than 1/s)."""
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class Usage:
    """What the run did with one operation (or, under the key None, with no operation)."""

    statuses: dict[int | None, int] = field(default_factory=dict)  # None: no answer (e.g. a drop)
    findings: dict[tuple[str, str], int] = field(default_factory=dict)  # (kind, message) -> count
    other_findings: int = 0  # past MAX_DISTINCT_FINDINGS distinct ones

    @property
    def requests(self) -> int:  # each request counts once, under its status: one count per request
        return sum(self.statuses.values())


class Journal:
    """A ring of the last `size` requests plus the run's totals per operation; no globals, so a
    session holds one by reference (the sessions of a server share the totals). `clock` gives the
    wall time in seconds."""

    def __init__(self, size: int = DEFAULT_SIZE, clock: Callable[[], float] = time.time):
        if size < 1:
            raise ValueError("the journal keeps at least one request")
        self.size = size
        self.clock = clock
        self.entries: deque[Entry] = deque(maxlen=size)
        self.usage: dict[str | None, Usage] = {}
        self.started = clock()

    def record(
        self,
        method: str,
        path: str,
        query: bytes,
        operation_id: str | None,
        status: int | None,
        duration: float,
        findings: list[Finding],
    ) -> None:
        # An empty list is not kept: the ring outlives a thousand requests, and what it keeps of each
        # is freed long after, from memory gone cold meanwhile (a cost per request under load).
        kept: list[Finding] | tuple[()] = bounded(findings) if findings else ()  # `more` only past 20
        if len(path) > MAX_LINE:
            path = _cut(path, MAX_LINE)
        if len(query) > MAX_LINE:
            query = query[: MAX_LINE - 3] + b"..."
        self.entries.append((self.clock(), method, path, query, operation_id, status, duration, kept))
        usage = self.usage.get(operation_id)
        if usage is None:
            usage = self.usage[operation_id] = Usage()
        statuses = usage.statuses
        statuses[status] = statuses.get(status, 0) + 1
        if kept:
            self._count(usage, kept)

    def _count(self, usage: Usage, findings: list[Finding]) -> None:
        for item in findings:
            kind = kind_of(item)
            if kind == MORE:  # one key for all of them, counted by what they stand for
                key, count = (MORE, f"findings past the {MAX_FINDINGS} kept per request"), item["count"]
                usage.findings[key] = usage.findings.get(key, 0) + count
                continue
            key = (kind, message_of(item))
            if key in usage.findings or len(usage.findings) < MAX_DISTINCT_FINDINGS:
                usage.findings[key] = usage.findings.get(key, 0) + 1
            else:
                usage.other_findings += 1

    def clear(self) -> None:
        """Empty the ring; the run's totals (the report) stay."""
        self.entries.clear()

    def reset(self) -> None:
        """Forget everything, the run's totals too: as new."""
        self.entries.clear()
        self.usage.clear()
        self.started = self.clock()

    def render(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The entries as JSON, newest first."""
        return [view(entry) for entry in itertools.islice(reversed(self.entries), limit)]

    def report(self, operations: Operations) -> dict[str, Any]:
        """The client's contract report (serve --report): every operation of the document, used
        or not, with the statuses it answered and the findings of its requests."""
        rows = []
        for operation in operations.all():
            rows.append(_row(operation, self.usage.get(operation.operation_id)))
        unmatched = self.usage.get(None)
        requests = sum(u.requests for u in self.usage.values())
        non_2xx = sum(
            count
            for u in self.usage.values()
            for status, count in u.statuses.items()
            if status is None or not 200 <= status < 300
        )
        by_kind: dict[str, int] = {}
        for usage in self.usage.values():
            for (kind, _), count in usage.findings.items():
                by_kind[kind] = by_kind.get(kind, 0) + count
            if usage.other_findings:
                by_kind["more"] = by_kind.get("more", 0) + usage.other_findings
        return {
            "format": "csapi-contract-report",
            "version": 1,
            "started_at": iso_time(self.started),
            "generated_at": iso_time(self.clock()),
            "summary": {
                "operations": len(rows),
                "used": sum(1 for row in rows if row["used"]),
                "requests": requests,
                "findings": sum(by_kind.values()),
                "findings_by_kind": dict(sorted(by_kind.items(), key=lambda pair: -pair[1])),
                "non_2xx": non_2xx,
                "no_such_operation": unmatched.requests if unmatched else 0,
            },
            "operations": rows,
            "unmatched": {
                "requests": unmatched.requests if unmatched else 0,
                "statuses": _statuses(unmatched),
                "findings": _findings(unmatched),
            },
        }


def _statuses(usage: Usage | None) -> dict[str, int]:
    if usage is None:
        return {}
    ordered = sorted(usage.statuses.items(), key=lambda pair: (pair[0] is None, pair[0] or 0))
    return {("none" if status is None else str(status)): count for status, count in ordered}


def _findings(usage: Usage | None) -> list[dict[str, Any]]:
    if usage is None:
        return []
    rows = [
        {"kind": kind, "message": message, "count": count}
        for (kind, message), count in sorted(usage.findings.items(), key=lambda pair: (pair[0][0], -pair[1]))
    ]
    if usage.other_findings:
        rows.append({"kind": "more", "message": "further distinct findings", "count": usage.other_findings})
    return rows


def _row(operation: Operation, usage: Usage | None) -> dict[str, Any]:
    seen = _statuses(usage)
    documented = [str(status) for status in operation.statuses]
    return {
        "operationId": operation.operation_id,
        "method": operation.method.upper(),
        "path": operation.template,
        "summary": operation.summary,
        "tag": operation.tag,
        "used": usage is not None,
        "requests": usage.requests if usage else 0,
        "statuses": seen,
        "documented_statuses": documented,
        "undocumented_statuses": [s for s in seen if s not in documented],
        "findings": _findings(usage),
    }


# ---------------------------------------------------------------------- ASGI middleware
class JournalMiddleware:
    """Journals every API request; put it outside the read cache and the controls. The journal
    is that of the request's session (`scope[SESSION]`), else that of `controls`.

    When the app right below can answer a request at once (the read cache with an answer kept:
    its `answer_now(scope)` gives the messages), the journal sends that answer itself, knowing its
    status: no wrapper of `send`, nothing below to call."""

    LINES = 4096  # request lines remembered, with their operations (`_lines`)
    LONGEST_LINE = 1024  # a longer path and query is not remembered (4096 of 64 KB: 256 MB)

    def __init__(self, app: Any, controls: Controls):
        self.app = app
        self.controls = controls
        self.answer_now: Callable[[dict[str, Any]], Any] | None = getattr(app, "answer_now", None)
        self._lines: dict[tuple[str, str, bytes], tuple[tuple[str, str, bytes], Operation | None]] = {}

    def _new_line(self, line: tuple[str, str, bytes], controls: Controls) -> tuple[Any, Operation | None]:
        """Remember a request line not seen lately (`_lines`), with its operation."""
        seen = (line, controls.operations.match(line[0], line[1]))
        if len(line[1]) + len(line[2]) > self.LONGEST_LINE:  # not remembered: a key of its size would stay
            return seen
        if len(self._lines) >= self.LINES:
            self._lines.clear()
        self._lines[line] = seen
        return seen

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = perf_counter()
        session = scope.get(SESSION)
        controls = session.controls if session is not None else self.controls
        # The request line as it came (the guards below rewrite the query), as first seen: the ring
        # keeps the strings of a thousand requests, freed long after from memory gone cold
        # meanwhile, so a line seen before (most requests repeat one) costs it nothing new to keep.
        line = (scope["method"], scope["path"], scope.get("query_string", b""))
        (method, path, query), operation = self._lines.get(line) or self._new_line(line, controls)
        if operation is None and path.startswith(NOT_API):  # none of them is an operation's path
            await self.app(scope, receive, send)
            return
        findings: list[Finding] = Findings()
        scope[FINDINGS] = findings
        scope[OPERATION] = operation
        status: int | None = None
        messages = self.answer_now(scope) if self.answer_now is not None else None
        try:
            if messages is None:
                # A plain function, not a coroutine: each message of the answer goes on to `send`
                # without a frame of ours to create and await.
                def watch(message: dict[str, Any]) -> Awaitable[None]:
                    nonlocal status
                    if message["type"] == "http.response.start":
                        status = message["status"]
                    return send(message)

                await self.app(scope, receive, watch)
            else:
                status = messages[0]["status"]
                await send(messages[0])
                await send(messages[1])
        except Exception:
            status = status or 500  # the server error middleware outside answers 500
            raise
        finally:
            if operation is None:
                findings.append(_no_such_operation(method, path))
            elif operation.required_headers and (status is None or status >= 400 or findings):
                # Without a required header (the API key) a request is refused, unless a control
                # answered it: an answer that went through needs no look, the hot path stays short.
                _missing_headers(operation, scope["headers"], findings)
            controls.journal.record(
                method,
                path,
                query,
                operation.operation_id if operation is not None else None,
                status,
                perf_counter() - start,
                findings,
            )


def _no_such_operation(method: str, path: str) -> Finding:
    return finding("no_such_operation", f"{method} {path} matches no operation of the document")


def _missing_headers(operation: Operation, headers: Any, findings: list[Finding]) -> None:
    present = {name for name, _ in headers}
    for name, label in operation.required_headers:
        if name not in present:
            message = f"{label} is required by {operation.operation_id} and was not sent"
            findings.append(finding("missing_header", message, header=name.decode("latin-1")))


# ---------------------------------------------------------------------- admin routes
def admin_routes(
    controls_of: Callable[[Request], Controls],
) -> list[tuple[str, Callable[..., Any], list[str]]]:
    """`GET /__mock__/requests?limit=N` (newest first) and `DELETE /__mock__/requests`, of the
    journal of `controls_of(request)` (that of the request's session)."""

    async def list_requests(request: Request) -> JSONResponse:
        raw = request.query_params.get("limit")
        limit = None
        if raw is not None:
            limit = whole_number(raw, minimum=1)  # never int() on 5000 digits, nor islice past maxsize
            if limit is None:
                raise InvalidInput(f"limit must be a whole number from 1 to {INT64_MAX}")
        return JSONResponse(controls_of(request).journal.render(limit))

    async def clear_requests(request: Request) -> Response:
        controls_of(request).journal.clear()
        return Response(status_code=204)

    return [("/requests", list_requests, ["GET"]), ("/requests", clear_requests, ["DELETE"])]
