"""Handler of spec 4.10: the activity feed."""

from __future__ import annotations

from . import Ctx


def list_activity(ctx: Ctx, page=None, per_page=None):
    return ctx.listing(ctx.store.list_activity(ctx.user, page, per_page), ctx.view.activity_entry)
