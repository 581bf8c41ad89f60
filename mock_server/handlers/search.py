"""Handler of spec 4.9: search."""

from __future__ import annotations

from ..store import parse_near
from . import Ctx


def search(ctx: Ctx, q=None, tags=None, owned=None, owner_id=None, ll=None, radius=None,
           page=None, per_page=None, type=None):  # fmt: skip
    found = ctx.store.search(
        ctx.user, q=q, tags=tags, type=type, owned=owned, owner_id=owner_id,
        near=parse_near(ll, radius), page=page, per_page=per_page,
    )  # fmt: skip
    return ctx.listing(found, ctx.view.search_result)
