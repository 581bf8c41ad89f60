"""`count`, the older clients' alias of per_page (docs/design.md, Request encoding), on every list
that has it: sent alone it pages as per_page would (rule table: conformance/rules/parameters.py)."""

from __future__ import annotations

from typing import Any

from ..http import LAYER, Session, session, unique
from ..registry import RunContext, check
from .parameters_common import honoured

R_COUNT = "docs/design.md, Request encoding: count is an alias of per_page; per_page wins when both are sent"


def _pages_as_per_page(s: Session, path: str, params: dict[str, Any], made: int) -> None:
    """`made` entries (at least 3) are known to match: count=2 gives 2, count with per_page=3 gives 3."""
    for extra, want in (({"count": 2}, 2), ({"count": 2, "per_page": 3}, 3)):
        exchange = s.call("GET", path, params={**params, **extra})
        got = len(s.body(exchange, list))
        query = "&".join(f"{k}={v}" for k, v in {**params, **extra}.items())
        honoured(
            s, got == want, f"GET {path}?{query} lists {got} entries of at least {made}, expected {want}"
        )


@check(LAYER, "collections.list_collections", "count pages as per_page", R_COUNT, strict=True)
def collections_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        for _ in range(4):
            s.new_collection(name=f"{ctx.target.name('counted')} {token}")
        _pages_as_per_page(s, "/v1/collections", {"q": token}, 4)


@check(LAYER, "items.list_items", "count pages as per_page", R_COUNT, strict=True)
def items_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(4):
            s.add_item(cid)
        _pages_as_per_page(s, "/v1/items", {"collection_id": cid}, 4)


@check(LAYER, "search.search", "count pages as per_page", R_COUNT, strict=True)
def search_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        cid = s.new_collection()["id"]
        for _ in range(4):
            s.add_item(cid, name=f"{ctx.target.name('counted')} {token}")
        _pages_as_per_page(s, "/v1/search", {"q": token}, 4)


@check(LAYER, "activity.list_activity", "count pages as per_page", R_COUNT, strict=True)
def activity_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(3):
            s.add_item(cid)
        _pages_as_per_page(s, "/v1/activity", {}, 4)
