"""Planted faults: small, named deviations from the spec, for testing the tester (issue 5 item 5).

Each fault is an ASGI middleware in front of the mock, which itself stays correct: the
deviation lives only here. A fault's handler sees every request as a `Request`; it may change
it, answer it itself, or `forward` it to the mock, which hands back the mock's buffered
`Answer` for the fault to change in turn (Content-Length is fixed on the way out).

Every fault names the operations it concerns (to narrow a run with --include), and the
layer expected to catch it: contract (schemathesis), behaviour (the state machine and the
example checks) or access (several users).

This is the one fault harness of tests/conformance: the planted set (FAULTS) is declared with
`@fault` here and in faults_*.py; a test that needs a deviation of its own writes a handler of
the same signature and puts it in front of the mock with `wrap_with`, without adding it to
FAULTS. `Switch` plants a fault in front of one served mock once the run's users are known.

Its mirror image: the spec-allowed variants (VARIANTS), declared with `@variant` in variants_*.py.
A variant is a server correct by the spec that differs from the mock where the spec leaves the
choice open (a 422 for invalid input, errors of another shape, other page sizes, timestamps with
`+00:00`, ...); `csapi conform` without --strict must pass it (tests/conformance/test_variants.py).
"""

from __future__ import annotations

import base64
import binascii
import importlib
import json
import re
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from csapi.conformance.settings import User

Asgi = Callable[[dict, Callable, Callable], Awaitable[None]]
CONTRACT, BEHAVIOUR, ACCESS = "contract", "behaviour", "access"


# ---------------------------------------------------------------------- requests and answers
@dataclass(frozen=True)
class Request:
    method: str
    path: str
    query_string: bytes = b""  # as sent: a fault that does not touch the query passes it on as it came
    headers: tuple[tuple[bytes, bytes], ...] = ()
    body: bytes = b""

    def on(self, method: str, pattern: str) -> re.Match[str] | None:
        """The path's match when the method is `method` and the whole path matches `pattern`."""
        return re.fullmatch(pattern, self.path) if self.method == method else None

    @property
    def query(self) -> list[tuple[str, str]]:
        return parse_qsl(self.query_string.decode("latin-1"), keep_blank_values=True)

    def param(self, name: str) -> str | None:
        return next((v for k, v in self.query if k == name), None)

    def without(self, *names: str) -> Request:
        """The request without these query parameters."""
        if not any(k in names for k, _ in self.query):
            return self
        return replace(
            self, query_string=urlencode([(k, v) for k, v in self.query if k not in names]).encode()
        )

    def with_param(self, name: str, value: str) -> Request:
        return replace(self, query_string=urlencode([*self.without(name).query, (name, value)]).encode())

    def header(self, name: str) -> bytes | None:
        return next((v for k, v in self.headers if k == name.lower().encode()), None)

    def with_header(self, name: str, value: bytes) -> Request:
        key = name.lower().encode()
        return replace(self, headers=tuple((k, v) for k, v in self.headers if k != key) + ((key, value),))

    def as_user(self, user: User) -> Request:
        return self.with_header("authorization", basic(user))

    @property
    def user_id(self) -> int | None:
        """The user id of its Basic credentials."""
        value = (self.header("authorization") or b"").decode("latin-1")
        if not value.lower().startswith("basic "):
            return None
        try:
            user_id = base64.b64decode(value[6:]).decode().partition(":")[0]
        except (binascii.Error, UnicodeDecodeError):
            return None
        return int(user_id) if user_id.isdigit() else None

    def json(self) -> Any:
        """A JSON body; None for another (or no) body: a fault changes JSON requests only."""
        if not self.is_json:
            return None
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    @property
    def is_json(self) -> bool:
        return (self.header("content-type") or b"").startswith(b"application/json")

    def json_object(self) -> dict[str, Any]:
        """A JSON object body; {} for anything else."""
        data = self.json()
        return data if isinstance(data, dict) else {}

    def ids(self) -> list[int]:
        """The item ids of a JSON body's `items` (Copy, Update multiple items)."""
        items = self.json_object().get("items")
        return list(dict.fromkeys(i for i in items if type(i) is int)) if isinstance(items, list) else []

    def get(self, path: str, **query: Any) -> Request:
        """A GET of `path` with this request's credentials."""
        return Request("GET", path, urlencode(query).encode(), self.headers)

    def to(self, method: str, path: str, body: Any = None) -> Request:
        """Another request to the mock with this one's credentials (and a JSON body, if given)."""
        sent = replace(self.get(path), method=method)
        return sent.with_json(body) if body is not None else sent

    def with_json(self, data: Any) -> Request:
        return replace(self, body=json.dumps(data).encode()).with_header("content-type", b"application/json")


@dataclass
class Answer:
    status: int
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    body: bytes = b""

    @classmethod
    def of(cls, status: int, data: Any) -> Answer:
        return cls(status, [(b"content-type", b"application/json")], json.dumps(data).encode())

    def json(self) -> Any:
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    def entries(self) -> list[dict[str, Any]]:
        """The resources of a 2xx JSON answer (one, or each of a list)."""
        data = self.json() if 200 <= self.status < 300 else None
        return [e for e in (data if isinstance(data, list) else [data]) if isinstance(e, dict)]

    def header(self, name: str) -> str | None:
        return next((v.decode() for k, v in self.headers if k == name.lower().encode()), None)

    def set_header(self, name: str, value: str | None) -> None:
        key = name.lower().encode()
        self.headers = [(k, v) for k, v in self.headers if k != key]
        if value is not None:
            self.headers.append((key, value.encode()))

    def edit(self, change: Callable[[dict[str, Any]], Any]) -> Answer:
        """Apply `change` to the resource of a 2xx JSON answer, or to each one of a list of them."""
        data = self.json()
        if 200 <= self.status < 300 and data is not None:
            for entry in data if isinstance(data, list) else [data]:
                if isinstance(entry, dict):
                    change(entry)
            self.body = json.dumps(data).encode()
        return self

    def with_body(self, data: Any) -> Answer:
        self.body = json.dumps(data).encode()
        return self

    def move_total(self, by: int) -> None:
        """X-Total-Count moved by `by` (from 0 where it is missing)."""
        self.set_header("x-total-count", str(int(self.header("x-total-count") or 0) + by))


Forward = Callable[[Request], Awaitable[Answer]]


@dataclass
class World:
    """What a fault knows and remembers: the run's users and API key (set once the mock is
    served), and its own notes across requests."""

    users: tuple[User, ...] = ()
    api_key: str = ""
    notes: dict[str, Any] = field(default_factory=dict)

    def note(self, name: str, default: Any) -> Any:
        return self.notes.setdefault(name, default)


Handler = Callable[[Request, Forward, World], Awaitable[Answer]]


@dataclass(frozen=True)
class Fault:
    name: str
    description: str
    operations: tuple[str, ...]  # operationIds (or tags) for --include
    layer: str  # the layer expected to catch it
    handler: Handler
    missing_check: str = ""  # why no layer catches it yet (the test is then a strict xfail)
    strict: bool = False  # a deviation from a docs/design.md choice: only a --strict run must catch it

    def wrap(self, app: Asgi, world: World) -> Asgi:
        return middleware(app, self.handler, world)


@dataclass(frozen=True)
class Variant:
    """A server the spec allows that differs from the mock where the spec leaves the choice open."""

    name: str
    description: str  # what it does differently, and the spec sentence that leaves it open
    operations: tuple[str, ...]  # operationIds (or tags) for --include; () : it touches every operation
    handler: Handler

    def wrap(self, app: Asgi, world: World) -> Asgi:
        return middleware(app, self.handler, world)


def basic(user: User) -> bytes:
    return b"Basic " + base64.b64encode(f"{user.id}:{user.token}".encode())


# ---------------------------------------------------------------------- the middleware
def middleware(app: Asgi, handler: Handler, world: World) -> Asgi:
    """Every HTTP request goes through `handler`, with the mock behind `forward`."""

    async def serve(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            return await app(scope, receive, send)
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        request = Request(
            scope["method"], scope["path"], scope["query_string"], tuple(scope["headers"]), body
        )

        async def forward(sent: Request) -> Answer:
            return await _call(app, scope, sent)

        answer = await handler(request, forward, world)
        headers = [(k, v) for k, v in answer.headers if k.lower() != b"content-length"]
        headers.append((b"content-length", str(len(answer.body)).encode()))
        await send({"type": "http.response.start", "status": answer.status, "headers": headers})
        await send({"type": "http.response.body", "body": answer.body})

    return serve


async def _call(app: Asgi, scope: dict, request: Request) -> Answer:
    """The mock's answer to `request`, buffered."""
    headers = [(k, v) for k, v in request.headers if k not in (b"content-length", b"transfer-encoding")]
    if request.body or request.method in ("POST", "PUT", "PATCH", "DELETE"):
        headers.append((b"content-length", str(len(request.body)).encode()))
    inner = {
        **scope,
        "method": request.method,
        "path": request.path,
        "raw_path": scope.get("raw_path", b"") if request.path == scope["path"] else request.path.encode(),
        "query_string": request.query_string,
        "headers": headers,
    }
    delivered = False

    async def receive() -> dict:
        nonlocal delivered
        if delivered:
            return {"type": "http.disconnect"}
        delivered = True
        return {"type": "http.request", "body": request.body, "more_body": False}

    answer = Answer(500)

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer.status, answer.headers = message["status"], list(message.get("headers", []))
        elif message["type"] == "http.response.body":
            answer.body += message.get("body", b"")

    await app(inner, receive, send)
    return answer


def wrap_with(handler: Handler, world: World | None = None) -> Callable[[Asgi], Asgi]:
    """A test's own fault, not one of the planted set: `wrap(app)` puts `handler` in front of it."""
    return lambda app: middleware(app, handler, world or World())


class Switch:
    """One served mock (`live_mock(wrap=switch.wrap)`), with a fault planted in front of it
    for a while: `with switch.planted(fault, World(settings.users, settings.api_key)): ...`."""

    def __init__(self) -> None:
        self.front: Asgi | None = None

    def wrap(self, app: Asgi) -> Asgi:
        self.app = app

        async def serve(scope: dict, receive: Callable, send: Callable) -> None:
            await (self.front or app)(scope, receive, send)

        return serve

    @contextmanager
    def planted(self, fault: Fault | Variant, world: World) -> Iterator[None]:
        self.front = fault.wrap(self.app, world)
        try:
            yield
        finally:
            self.front = None


# ---------------------------------------------------------------------- the faults
FAULTS: dict[str, Fault] = {}


def fault(
    name: str,
    description: str,
    operations: tuple[str, ...],
    layer: str,
    missing_check: str = "",
    *,
    strict: bool = False,
) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        assert name not in FAULTS, f"two faults are named {name}"
        FAULTS[name] = Fault(name, description, operations, layer, handler, missing_check, strict)
        return handler

    return register


# ---------------------------------------------------------------------- the spec-allowed variants
VARIANTS: dict[str, Variant] = {}
EVERY: tuple[str, ...] = ()  # a variant's operations: all of them (it changes every answer)
# operations (and tags) a variant may name for --include
CONFLICTS = ("Teams", "Emails", "Users", "reactions.create_reaction", "collections.add_collaborator")
PAID = (
    "collections.create_collection",
    "collections.update_collection",
    "collections.update_items",
    "items.create_item",
    "items.update_item",
    "tags.create_tag",
    "users.update_current_user",
)
DELETIONS = (
    "collections.delete_collection",
    "collections.delete_items",
    "collections.remove_collaborator",
    "items.delete_item",
    "comments.delete_comment",
    "reactions.delete_reaction",
    "tags.delete_tag",
    "emails.delete_email_address",
    "teams.remove_team_member",
    "users.get_email_availability",
    "users.get_username_availability",
)
PAGED = (
    "collections.list_collections",
    "collections.get_collection",
    "items.list_items",
    "items.get_item",
    "search.search",
    "activity.list_activity",
)
CREDENTIALS = (  # where the access layer tries missing and wrong credentials
    "auth.ping",
    "users.get_current_user",
    "collections.list_collections",
    "collections.create_collection",
    "items.list_items",
    "activity.list_activity",
)
UNPAGED_LISTS = (
    "Tags",
    "Comments",
    "Reactions",
    "Teams",
    "Emails",
    "collections.list_collection_tags",
    "collections.list_collaborators",
    "collections.get_collection",
    "items.list_item_tags",
    "items.get_item",
    "users.list_contacts",
    "users.get_current_user",
)


def variant(name: str, description: str, operations: tuple[str, ...] = EVERY) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        assert name not in VARIANTS, f"two variants are named {name}"
        VARIANTS[name] = Variant(name, description, operations, handler)
        return handler

    return register


def ignoring(method: str, pattern: str, *names: str, value: str | None = None) -> Handler:
    """A handler that drops these query parameters (only when set to `value`, if given)."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        if request.on(method, pattern) and (value is None or request.param(names[0]) == value):
            request = request.without(*names)
        return await forward(request)

    return handler


def editing(method: str, pattern: str, change: Callable[[dict[str, Any]], Any]) -> Handler:
    """A handler that applies `change` to the resources of the mock's 2xx JSON answers to these
    requests (`Answer.edit`)."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        answer = await forward(request)
        return answer.edit(change) if request.on(method, pattern) else answer

    return handler


async def undone(
    request: Request, forward: Forward, read: str, back: Callable[[Any, dict[str, Any]], Any]
) -> Answer:
    """Forward the write, then write back what a GET of `read` showed before: `back(what the GET
    answered, the body sent)` picks the body of the write back."""
    before = await forward(request.get(read))
    answer = await forward(request)
    if 200 <= answer.status < 300 and before.status == 200:
        await forward(request.with_json(back(before.json(), request.json_object())))
    return answer


def undoing(pattern: str, back: Callable[[Any, dict[str, Any]], Any]) -> Handler:
    """A handler that answers a PUT to `pattern` as done, and writes back what a GET of the same
    path showed before (`undone`)."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        if not request.on("PUT", pattern):
            return await forward(request)
        return await undone(request, forward, request.path, back)

    return handler


COLLECTION = r"/v1/collections/(\d+)"
COLLECTIONS = r"/v1/collections(?:/\d+)?"
ITEM = r"/v1/items/(\d+)"
ITEMS = r"/v1/items(?:/\d+)?"


# ---------------------------------------------------------------------- the other fault modules
# every tests/conformance/faults_*.py registers its faults here (after the harness they import),
# and every variants_*.py its variants
_HERE = Path(__file__).parent
for _module in sorted([*_HERE.glob("faults_*.py"), *_HERE.glob("variants_*.py")]):
    importlib.import_module(f"{__package__}.{_module.stem}")
