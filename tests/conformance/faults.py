"""Planted faults: small, named deviations from the spec, for testing the tester (issue 5 item 5).

Each fault is an ASGI middleware in front of the mock, which itself stays correct: the
deviation lives only here. A fault's handler sees every request as a `Request`; it may change
it, answer it itself, or `forward` it to the mock, which hands back the mock's buffered
`Answer` for the fault to change in turn (Content-Length is fixed on the way out).

Every fault names the operations it concerns (to narrow a run with --include), and the
layer expected to catch it: contract (schemathesis), behaviour (the state machine and the
example checks) or access (several users).
"""

from __future__ import annotations

import base64
import binascii
import importlib
import itertools
import json
import re
from collections.abc import Awaitable, Callable
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


def basic(user: User) -> bytes:
    return b"Basic " + base64.b64encode(f"{user.id}:{user.token}".encode())


# ---------------------------------------------------------------------- the middleware
def middleware(app: Asgi, handler: Handler, world: World) -> Asgi:
    """Every HTTP request goes through `handler`, with the mock behind `forward`."""

    async def serve(scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or not world.users:  # not planted yet (or no longer)
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


COLLECTION = r"/v1/collections/(\d+)"
COLLECTIONS = r"/v1/collections(?:/\d+)?"
ITEM = r"/v1/items/(\d+)"
ITEMS = r"/v1/items(?:/\d+)?"
_serial = itertools.count(1)


# -- the contract: shapes, statuses, headers, content types, errors
@fault(
    "items-total-count-dropped",
    "collections are answered without their required items_total_count",
    ("collections.list_collections", "collections.get_collection"),
    CONTRACT,
)
async def items_total_count_dropped(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", COLLECTIONS):
        answer.edit(lambda collection: collection.pop("items_total_count", None))
    return answer


@fault("item-id-as-string", "Get an item answers the id as a string", ("items.get_item",), CONTRACT)
async def item_id_as_string(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", ITEM):
        answer.edit(lambda item: item.update(id=str(item.get("id"))))
    return answer


@fault(
    "create-answers-200",
    "Create a collection answers 200 instead of 201",
    ("collections.create_collection",),
    CONTRACT,
)
async def create_answers_200(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("POST", "/v1/collections") and answer.status == 201:
        answer.status = 200
    return answer


@fault(
    "total-count-header-missing",
    "List items answers without the X-Total-Count header",
    ("items.list_items",),
    CONTRACT,
)
async def total_count_header_missing(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/items"):
        answer.set_header("x-total-count", None)
    return answer


@fault("wrong-content-type", "List teams answers its JSON as text/html", ("teams.list_teams",), CONTRACT)
async def wrong_content_type(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/teams"):
        answer.set_header("content-type", "text/html; charset=utf-8")
    return answer


@fault(
    "server-error-when-paged",
    "List activity crashes (500) when page or per_page is given",
    ("activity.list_activity",),
    CONTRACT,
)
async def server_error_when_paged(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", "/v1/activity") and (request.param("page") or request.param("per_page")):
        return Answer(500, [(b"content-type", b"text/plain")], b"Internal Server Error")
    return await forward(request)


@fault(
    "nullable-violation",
    "an item without a source link answers link null instead of an empty string",
    ("items.list_items", "items.get_item"),
    CONTRACT,
)
async def nullable_violation(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", ITEMS):
        answer.edit(lambda item: item.update(link=item.get("link") or None))
    return answer


@fault(
    "collection-as-object",
    "Get a collection answers the collection itself, not an array of one",
    ("collections.get_collection",),
    CONTRACT,
)
async def collection_as_object(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    found = answer.entries()
    if request.on("GET", COLLECTION) and len(found) == 1:
        answer.with_body(found[0])
    return answer


@fault(
    "invalid-input-accepted",
    "Create an email address takes a JSON body without a valid address (stores a placeholder)",
    ("emails.create_email_address",),
    CONTRACT,
)
async def invalid_input_accepted(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    valid = set(body) == {"email"} and isinstance(body["email"], str) and "@" in body["email"]
    if request.on("POST", "/v1/emails") and request.is_json and not valid:
        request = request.with_json({"email": f"placeholder{next(_serial)}@example.com"})
    return await forward(request)


@fault(
    "no-405",
    "a method a path does not have is answered 404 instead of 405 with Allow",
    ("tags.list_tags",),
    CONTRACT,
)
async def no_405(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    return Answer.of(404, {"code": "not_found", "message": "Not found."}) if answer.status == 405 else answer


@fault(
    "challenge-missing",
    "a 401 comes without the WWW-Authenticate challenge",
    ("users.get_current_user",),
    CONTRACT,
)
async def challenge_missing(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if answer.status == 401:
        answer.set_header("www-authenticate", None)
    return answer


# -- behaviour: paging and counts
@fault(
    "page-2-repeats-page-1",
    "List collections answers page 1 whatever page is asked",
    ("collections.list_collections",),
    BEHAVIOUR,
)
async def page_2_repeats_page_1(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", "/v1/collections") and request.param("page"):
        request = request.with_param("page", "1")
    return await forward(request)


@fault("per-page-ignored", "List items ignores per_page", ("items.list_items",), BEHAVIOUR)
async def per_page_ignored(request: Request, forward: Forward, world: World) -> Answer:
    return await forward(request.without("per_page") if request.on("GET", "/v1/items") else request)


@fault(
    "total-count-off-by-one",
    "List collections' X-Total-Count is one more than the entries",
    ("collections.list_collections",),
    BEHAVIOUR,
)
async def total_count_off_by_one(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    total = answer.header("x-total-count")
    if request.on("GET", "/v1/collections") and total is not None and total.isdigit():
        answer.set_header("x-total-count", str(int(total) + 1))
    return answer


@fault(
    "items-count-stuck",
    "a collection's items_total_count never changes from the first value answered",
    # the count is checked where the items are listed
    ("collections.get_collection", "items.list_items"),
    BEHAVIOUR,
)
async def items_count_stuck(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    first = world.note("counts", {})

    def stuck(collection: dict[str, Any]) -> None:
        if "items_total_count" in collection:
            collection["items_total_count"] = first.setdefault(
                collection.get("id"), collection["items_total_count"]
            )

    return answer.edit(stuck) if re.fullmatch(COLLECTIONS, request.path) else answer


@fault(
    "reactions-count-stuck",
    "an item's reactions_total_count stays 0 whatever the likes",
    ("reactions.create_reaction",),
    BEHAVIOUR,
)
async def reactions_count_stuck(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", ITEMS):
        answer.edit(lambda item: item.update(reactions_total_count=0))
    return answer


# -- behaviour: writes that do not stick (each answers as if done, then is undone)
@fault(
    "lost-update",
    "Update a collection answers the new values, but a later GET shows the old ones",
    ("collections.update_collection",),
    BEHAVIOUR,
)
async def lost_update(request: Request, forward: Forward, world: World) -> Answer:
    if not request.on("PUT", COLLECTION):
        return await forward(request)
    before = (await forward(request.get(request.path))).entries()
    answer = await forward(request)
    if answer.status == 200 and len(before) == 1:
        old = {k: before[0][k] for k in request.json_object() if k in before[0]}
        await forward(request.with_json(old))
    return answer


@fault(
    "update-items-order-ignored",
    "Update items order answers 200, and the items keep their old order",
    ("collections.update_items",),
    BEHAVIOUR,
)
async def update_items_order_ignored(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("PUT", COLLECTION + "/items")
    if not found or "order" not in request.json_object():
        return await forward(request)
    listed = (await forward(request.get("/v1/items", collection_id=found[1], per_page=100))).entries()
    answer = await forward(request)
    if answer.status == 200 and listed:
        old = sorted(listed, key=lambda item: (item.get("sort", 0), item.get("id", 0)))
        await forward(request.with_json({"order": [item["id"] for item in old]}))
    return answer


@fault(
    "move-ignored",
    "Update multiple items answers 200, and the items stay where they were",
    ("items.update_multiple_items",),
    BEHAVIOUR,
)
async def move_ignored(request: Request, forward: Forward, world: World) -> Answer:
    if not request.on("PUT", "/v1/items") or "collection_id" not in request.json_object():
        return await forward(request)
    were: dict[int, list[int]] = {}
    for item_id in request.ids():
        for item in (await forward(request.get(f"/v1/items/{item_id}"))).entries():
            were.setdefault(item["collection_id"], []).append(item_id)
    answer = await forward(request)
    if answer.status == 200:
        for collection_id, ids in were.items():
            await forward(request.with_json({"items": ids, "collection_id": collection_id}))
    return answer


# -- behaviour: deletions that do not show
@fault(
    "deleted-item-still-readable",
    "a deleted item is still answered by Get an item (use after free)",
    ("items.delete_item",),
    BEHAVIOUR,
)
async def deleted_item_still_readable(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", {})
    if request.on("DELETE", ITEM):
        before = await forward(request.get(request.path))
        answer = await forward(request)
        if answer.status == 200 and before.status == 200:
            ghosts[request.path] = before.body
        return answer
    answer = await forward(request)
    if request.on("GET", ITEM) and answer.status == 404 and request.path in ghosts:
        return Answer(200, [(b"content-type", b"application/json")], ghosts[request.path])
    return answer


@fault(
    "deleted-collection-still-listed",
    "a deleted collection stays in its owner's List collections",
    ("collections.delete_collection",),
    BEHAVIOUR,
)
async def deleted_collection_still_listed(request: Request, forward: Forward, world: World) -> Answer:
    ghosts = world.note("ghosts", [])
    if request.on("DELETE", COLLECTION):
        before = (await forward(request.get(request.path))).entries()
        answer = await forward(request)
        if answer.status == 200 and len(before) == 1:
            ghosts.append((request.user_id, before[0]))
        return answer
    answer = await forward(request)
    listed = answer.json()
    if (
        request.on("GET", "/v1/collections")
        and isinstance(listed, list)
        and request.param("page") in (None, "1")
    ):
        extra = [ghost for user_id, ghost in ghosts if user_id == request.user_id]
        answer.with_body(listed + extra)
        answer.set_header("x-total-count", str(int(answer.header("x-total-count") or 0) + len(extra)))
    return answer


@fault(
    "delete-items-flag-ignored",
    "Delete an item ignores delete_items: a stack deleted with it keeps its children",
    ("items.delete_item",),
    BEHAVIOUR,
)
async def delete_items_flag_ignored(request: Request, forward: Forward, world: World) -> Answer:
    return await forward(replace(request, body=b"") if request.on("DELETE", ITEM) else request)


# -- behaviour: filters
def _ignores(parameter: str) -> Handler:
    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        return await forward(request.without(parameter) if request.on("GET", "/v1/items") else request)

    return handler


for _parameter in ("type", "tags", "collection_id"):
    fault(
        f"{_parameter.replace('_', '-')}-filter-ignored",
        f"List items ignores its {_parameter} filter",
        ("items.list_items",),
        BEHAVIOUR,
    )(_ignores(_parameter))


# -- behaviour: copies and stacks
@fault(
    "copy-loses-tags", "Copy items makes copies without the originals' tags", ("items.copy_items",), BEHAVIOUR
)
async def copy_loses_tags(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("PUT", "/v1/items/copy") and answer.status == 201:
        for copy in answer.entries():
            for tag in copy.get("tags") or []:
                await forward(replace(request.get(f"/v1/tags/{tag['id']}"), method="DELETE"))
        answer.edit(lambda copy: copy.update(tags=[]))
    return answer


@fault(
    "copy-carries-comments", "Copy items copies the originals' comments too", ("items.copy_items",), BEHAVIOUR
)
async def copy_carries_comments(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("PUT", "/v1/items/copy") and answer.status == 201:
        for original, copy in zip(request.ids(), answer.entries(), strict=False):
            for comment in (await forward(request.get(f"/v1/items/{original}/comments"))).entries():
                post = replace(request.get(f"/v1/items/{copy['id']}/comments"), method="POST")
                await forward(post.with_json({"body": comment.get("body")}))
    return answer


@fault(
    "stack-children-lost",
    "Create an item of type stack drops the children given in items",
    ("items.create_item",),
    BEHAVIOUR,
)
async def stack_children_lost(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    if request.on("POST", COLLECTION + "/items") and body.get("type") == "stack" and "items" in body:
        request = request.with_json({k: v for k, v in body.items() if k != "items"})
    return await forward(request)


# -- access: credentials
@fault(
    "auth-ignored",
    "a request without user credentials is answered as user 1",
    ("users.get_current_user", "collections.list_collections"),
    ACCESS,
)
async def auth_ignored(request: Request, forward: Forward, world: World) -> Answer:
    if request.header("authorization") is None and request.path != "/v1/ping":
        request = request.as_user(world.users[0])
    return await forward(request)


@fault(
    "wrong-key-accepted",
    "any X-API-Key value is taken for the right one",
    ("auth.ping", "users.get_current_user"),
    ACCESS,
)
async def wrong_key_accepted(request: Request, forward: Forward, world: World) -> Answer:
    if request.header("x-api-key") is not None:
        request = request.with_header("x-api-key", world.api_key.encode())
    return await forward(request)


# -- access: who sees and does what
@fault(
    "cross-user-leak",
    "a stranger (user 3) reading a collection is answered what user 1 sees",
    ("collections.get_collection",),
    ACCESS,
)
async def cross_user_leak(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("GET", COLLECTION) and request.user_id == world.users[2].id:
        request = request.as_user(world.users[0])
    return await forward(request)


@fault(
    "manager-check-missing",
    "a plain team member (user 2) may update the team",
    ("teams.update_team",),
    ACCESS,
)
async def manager_check_missing(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("PUT", r"/v1/teams/\d+") and request.user_id == world.users[1].id:
        request = request.as_user(world.users[0])
    return await forward(request)


@fault(
    "collaborator-removal-ineffective",
    "Remove a collaborator answers 200, and the collaborator keeps access",
    ("collections.remove_collaborator",),
    ACCESS,
)
async def collaborator_removal_ineffective(request: Request, forward: Forward, world: World) -> Answer:
    found = request.on("DELETE", COLLECTION + r"/users/(\d+)")
    if not found:
        return await forward(request)
    listed = await forward(request.get(f"/v1/collections/{found[1]}/users"))  # who may see them
    if listed.status != 200:
        return listed
    return Answer.of(200, {"code": "deleted", "message": f"Collaborator {found[2]} was deleted."})


@fault(
    "public-collection-writable",
    "whoever can read a collection may update it (a stranger changes a public collection)",
    ("collections.update_collection",),
    ACCESS,
)
async def public_collection_writable(request: Request, forward: Forward, world: World) -> Answer:
    if request.on("PUT", COLLECTION) and request.user_id == world.users[2].id:
        if (await forward(request.get(request.path))).status == 200:
            request = request.as_user(world.users[0])
    return await forward(request)


@fault("shareable-item-hidden", "a shareable item is readable by its owner only", ("items.get_item",), ACCESS)
async def shareable_item_hidden(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    found = answer.entries()
    if (
        request.on("GET", ITEM)
        and found
        and found[0].get("shareable")
        and found[0].get("user_id") != request.user_id
    ):
        return Answer.of(404, {"code": "not_found", "message": "Item not found."})
    return answer


# ---------------------------------------------------------------------- the other fault modules
# every tests/conformance/faults_*.py registers its faults here (after the harness they import)
for _module in sorted(Path(__file__).parent.glob("faults_*.py")):
    importlib.import_module(f"{__package__}.{_module.stem}")
