"""Handler of spec 4.9: search."""

from __future__ import annotations

from ..store import parse_near
from . import Ctx, Listing


def search(ctx: Ctx, q: str | None = None, tags: list[str] | None = None, owned: bool | None = None,
           owner_id: int | None = None, ll: str | None = None, radius: float | None = None,
           page: int | None = None, per_page: int | None = None,
           type: str | None = None) -> Listing:  # fmt: skip
    found = ctx.store.search(
        ctx.user, q=q, tags=tags, type=type, owned=owned, owner_id=owner_id,
        near=parse_near(ll, radius), page=page, per_page=per_page,
    )  # fmt: skip
    return ctx.listing(found, ctx.view.search_result)
