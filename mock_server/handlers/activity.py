"""Handler of spec 4.10: the activity feed."""

from __future__ import annotations

from . import Ctx, Listing


def list_activity(ctx: Ctx, page: int | None = None, per_page: int | None = None) -> Listing:
    return ctx.listing(ctx.store.list_activity(ctx.user, page, per_page), ctx.view.activity_entry)
