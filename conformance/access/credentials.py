"""Requests without the API key or user credentials, or with wrong ones, are refused: a 401 under
--strict (docs/design.md, status codes); without it any 4xx, as spec 7 shows no status for a
missing or invalid key or invalid credentials."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..failures import AccessLeak, SchemaViolation, WrongStatus, WrongWording, expect
from ..registry import RunContext, check
from ..settings import User
from ..target import Exchange
from .common import LAYER, UNKNOWN_USER_ID, WRONG_KEY, WRONG_TOKEN, owner_of


@dataclass(frozen=True)
class _BadCredentials:
    key: str  # in the ids of its checks
    name: str
    statements: tuple[str, ...]  # the spec's statements a refusal of it verifies
    users: int = 1

    def request(self, ctx: RunContext, method: str, path: str, json_body: Any = None) -> Exchange:
        owner = owner_of(ctx)
        api_key: str | bool = True
        user: User | None = owner_of(ctx)
        if self.name == "no API key":
            api_key = False
        elif self.name == "a wrong API key":
            api_key = WRONG_KEY
        elif self.name == "no user credentials":
            user = None
        elif self.name == "a wrong token":
            user = User(owner.id, WRONG_TOKEN)
        elif self.name == "an unknown user id":
            user = User(UNKNOWN_USER_ID, owner.token)
        elif self.name == "another user's token":
            user = User(owner.id, ctx.settings.users[1].token)
        return ctx.target.request(method, path, user=user, api_key=api_key, json_body=json_body)


NO_KEY = _BadCredentials("no_key", "no API key", ("5.1",))
WRONG_KEY_CASE = _BadCredentials("wrong_key", "a wrong API key", ("5.1",))
NO_USER = _BadCredentials("no_user", "no user credentials", ("5.3",))
WRONG_TOKEN_CASE = _BadCredentials("wrong_token", "a wrong token", ("5.3",))
UNKNOWN_USER = _BadCredentials("unknown_user", "an unknown user id", ("5.3",))
OTHER_TOKEN = _BadCredentials("other_token", "another user's token", ("5.3",), users=2)

# A sample of operations: ping takes the key alone; the others need both credentials.
_SAMPLE: tuple[tuple[str, str, tuple[_BadCredentials, ...]], ...] = (
    ("auth.ping", "/v1/ping", (NO_KEY, WRONG_KEY_CASE)),
    (
        "users.get_current_user",
        "/v1/users/me",
        (NO_KEY, WRONG_KEY_CASE, NO_USER, WRONG_TOKEN_CASE, UNKNOWN_USER, OTHER_TOKEN),
    ),
    ("collections.list_collections", "/v1/collections", (NO_KEY, WRONG_KEY_CASE, NO_USER, WRONG_TOKEN_CASE)),
    ("items.list_items", "/v1/items", (NO_USER, WRONG_TOKEN_CASE)),
    ("activity.list_activity", "/v1/activity", (NO_KEY, NO_USER)),
)


def _expect_401(ctx: RunContext, exchange: Exchange, what: str) -> None:
    """A 401 (--strict) or any 4xx; a success is a leak (the request was served without valid credentials)."""
    kind = AccessLeak if 200 <= exchange.status < 300 else WrongStatus
    if ctx.settings.strict:
        expect(exchange.status == 401, f"{what}: expected 401, got {exchange.status}", exchange, kind)
    else:
        refused = 400 <= exchange.status < 500
        expect(refused, f"{what}: expected a refusal (4xx), got {exchange.status}", exchange, kind)


_PING = {("auth.ping", "no_key"): ("5.4",)}


def _register_read_refusal(operation: str, path: str, case: _BadCredentials) -> None:
    @check(
        LAYER,
        operation,
        f"a request with {case.name} is refused (401; any 4xx without --strict)",
        writes=False,
        users=case.users,
        id=f"refused_{case.key}_{operation.replace('.', '_')}",
        # every request needs the headers (spec 4); ping takes the key alone (5.4)
        statements=(*case.statements, "4/headers", *_PING.get((operation, case.key), ())),
    )
    def refused(ctx: RunContext) -> None:
        exchange = case.request(ctx, "GET", path)
        _expect_401(ctx, exchange, f"GET {path} with {case.name}")


def _register_write_refusal(case: _BadCredentials) -> None:
    @check(
        LAYER,
        "collections.create_collection",
        f"a request with {case.name} is refused (401; any 4xx without --strict)",
        users=case.users,
        id=f"refused_{case.key}_collections_create_collection",
        statements=(*case.statements, "4/headers"),
    )
    def refused(ctx: RunContext) -> None:
        body = {"name": ctx.target.name("refused"), "type": "private"}
        exchange = case.request(ctx, "POST", "/v1/collections", json_body=body)
        made = exchange.json()
        if 200 <= exchange.status < 300 and isinstance(made, dict) and isinstance(made.get("id"), int):
            ctx.target.created("collection", f"/v1/collections/{made['id']}")
        _expect_401(ctx, exchange, f"POST /v1/collections with {case.name}")


for _operation, _path, _cases in _SAMPLE:
    for _case in _cases:
        _register_read_refusal(_operation, _path, _case)
for _case in (NO_KEY, NO_USER, WRONG_TOKEN_CASE):
    _register_write_refusal(_case)


def _register_401_shape(operation: str, path: str, case: _BadCredentials) -> None:
    @check(
        LAYER,
        operation,
        f"the 401 for {case.name} has WWW-Authenticate and the error body",
        writes=False,
        strict=True,
        id=f"challenge_{case.key}_{operation.replace('.', '_')}",
        statements=("design/status-codes.401", "design/error-body.message"),
    )
    def shaped(ctx: RunContext) -> None:
        exchange = case.request(ctx, "GET", path)
        _expect_401(ctx, exchange, f"GET {path} with {case.name}")
        challenge = exchange.header("WWW-Authenticate") or ""
        expect(
            challenge.lower().startswith("basic"),
            f"the 401 should carry WWW-Authenticate: Basic, got {challenge or 'none'}",
            exchange,
            SchemaViolation,
        )
        expect(
            (exchange.header("Content-Type") or "").startswith("application/json"),
            f"the 401 body should be JSON, got Content-Type {exchange.header('Content-Type')}",
            exchange,
            SchemaViolation,
        )
        body = exchange.json()
        expect(
            isinstance(body, dict)
            and body.get("code") == "unauthorized"
            and isinstance(body.get("message"), str),
            "the 401 body should be the message object with code 'unauthorized'",
            exchange,
            WrongWording,
        )


_register_401_shape("users.get_current_user", "/v1/users/me", NO_USER)
_register_401_shape("collections.list_collections", "/v1/collections", NO_KEY)
