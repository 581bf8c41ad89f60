"""Example checks of search."""

from __future__ import annotations

from ..failures import CheckSkipped, NotGone
from ..http import LAYER, Session, session
from ..registry import RunContext, check
from .properties import R_SEARCH


def _search_finds(s: Session, token: str, item_id: int) -> bool:
    hits = s.body(s.call("GET", "/v1/search", params={"q": token}), list)
    return any(
        isinstance(h, dict) and h.get("id") == item_id and h.get("type") not in ("collection", "comment")
        for h in hits
    )


@check(LAYER, "search.search", "a deleted item is no longer found", R_SEARCH)
def deleted_item_not_found(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        token = item["name"].rsplit(" ", 1)[-1]
        if not _search_finds(s, token, item["id"]):
            if ctx.settings.strict:
                s.fail(f"search for {token!r}, a word of a new item's name, does not find it")
            raise CheckSkipped("search did not find a new item by a word of its name (an index that lags?)")
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        s.expect(
            not _search_finds(s, token, item["id"]),
            f"search for {token!r} still finds the deleted item",
            kind=NotGone,
        )
