"""Example checks of search."""

from __future__ import annotations

from ..failures import NotGone
from ..http import LAYER, findable, searched, session
from ..registry import RunContext, check
from .properties import R_SEARCH


@check(LAYER, "search.search", "a deleted item is no longer found", R_SEARCH)
def deleted_item_not_found(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        token = item["name"].rsplit(" ", 1)[-1]
        findable(s, token, item["id"])
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        s.expect(
            not searched(s, item["id"], ("item",), present=False, q=token),
            f"search for {token!r} still finds the deleted item",
            kind=NotGone,
        )
