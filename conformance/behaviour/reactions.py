"""Example checks of reactions (likes)."""

from __future__ import annotations

from ..failures import NotGone, NotStored, SchemaViolation, StaleCount
from ..http import LAYER, ids_of, session
from ..registry import RunContext, check
from .properties import R_LIKE


@check(LAYER, "reactions.create_reaction", "reactions_total_count follows likes", R_LIKE)
def likes_count(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        path = f"/v1/items/{item['id']}"
        like = s.body(s.call("POST", f"{path}/reactions", ok=(201,)))
        s.expect(isinstance(like.get("id"), int), "the new reaction has no integer id", kind=SchemaViolation)
        s.register("reaction", f"/v1/reactions/{like['id']}")
        s.expect(
            s.item(item["id"]).get("reactions_total_count") == 1,
            "reactions_total_count is not 1 after a like",
            kind=StaleCount,
        )
        listed = ids_of(s.body(s.call("GET", f"{path}/reactions"), list))
        s.expect(listed == [like["id"]], f"List reactions shows {listed} after one like", kind=NotStored)
        s.call("DELETE", f"/v1/reactions/{like['id']}")
        s.gone(f"/v1/reactions/{like['id']}")
        s.expect(
            s.item(item["id"]).get("reactions_total_count") == 0,
            "reactions_total_count is not 0 after the like was deleted",
            kind=StaleCount,
        )
        s.expect(
            s.body(s.call("GET", f"{path}/reactions"), list) == [],
            "List reactions still shows a deleted like",
            kind=NotGone,
        )
