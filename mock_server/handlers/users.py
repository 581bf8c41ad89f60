"""Handlers of spec 4.4: the current user, contacts, availability checks."""

from __future__ import annotations

from typing import Any

from . import Answer, Ctx


def get_current_user(ctx: Ctx, include: list[str] | None = None) -> Answer:
    return ctx.view.current_user(ctx.user, include), 200


def update_current_user(ctx: Ctx, body: dict[str, Any]) -> Answer:
    return ctx.view.user(ctx.store.update_current_user(ctx.user, body)), 200


def list_contacts(ctx: Ctx) -> Answer:
    return ctx.each(ctx.store.list_contacts(ctx.user), ctx.view.user), 200


def get_email_availability(ctx: Ctx, email: str) -> Answer:
    ctx.store.get_email_availability(email)
    return {"code": "email_available", "message": f"{email} is available."}, 200


def get_username_availability(ctx: Ctx, username: str) -> Answer:
    ctx.store.get_username_availability(username)
    return {"code": "username_available", "message": f"{username} is available."}, 200
