"""Handlers of spec 5 (shapes from docs/design.md): ping and the token exchange."""

from __future__ import annotations

from typing import Any

from . import Answer, Ctx


def ping(ctx: Ctx) -> Answer:
    return {"code": "pong", "message": "The service is up."}, 200


def authenticate(ctx: Ctx, body: dict[str, Any]) -> Answer:
    user = ctx.store.authenticate(body["email"], body["password"])
    return {**ctx.view.user(user), "token": user.token}, 201
