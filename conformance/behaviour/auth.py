"""Behaviour checks of the auth operations (operationIds auth.*), grouped by rule family."""

from __future__ import annotations

from ..http import LAYER, session
from ..registry import RunContext, check
from .common import says

# -- wording: fixed codes and messages


@check(
    LAYER,
    "auth.ping",
    "ping says code pong",
    writes=False,
    strict=True,
    statements=("5.4", "5.6", "design/auth-and-ping.pong"),
)
def ping_says_pong(ctx: RunContext) -> None:
    with session(ctx) as s:
        says(s, ctx.target.request("GET", "/v1/ping", user=False), 200, "pong", "GET /v1/ping")


@check(
    LAYER,
    "auth.authenticate",
    "a wrong password and an unknown email say why",
    writes=False,
    strict=True,
    statements=("5.3/auth-endpoint", "5.6", "design/auth-and-ping.auth-refusals"),
)
def auth_refusals_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        email = s.body(s.call("GET", "/v1/users/me")).get("email")
        for body, code in (
            ({"email": email, "password": ctx.target.name("wrong-password")}, "password_incorrect"),
            ({"email": f"{ctx.target.name('nobody')}@example.com", "password": "x" * 12}, "user_invalid"),
        ):
            got = ctx.target.request("POST", "/v1/auth", user=False, json_body=body)
            says(s, got, 401, code, f"POST /v1/auth with {code.replace('_', ' ')}")
