"""Handlers of spec 4.7: the current user's email addresses."""

from __future__ import annotations

from typing import Any

from . import Answer, Ctx


def list_email_addresses(ctx: Ctx) -> Answer:
    return ctx.each(ctx.store.list_email_addresses(ctx.user), ctx.view.email_address), 200


def create_email_address(ctx: Ctx, body: dict[str, Any]) -> Answer:
    return ctx.view.email_address(ctx.store.create_email_address(ctx.user, body["email"])), 201


def delete_email_address(ctx: Ctx, email_id: int) -> Answer:
    ctx.store.delete_email_address(ctx.user, email_id)
    return ctx.deleted(f"Email address {email_id}")
