"""Behaviour checks of the items operations (operationIds items.*): counters and feeds: the events that
move them."""

from __future__ import annotations

from ...http import LAYER, session, total_count
from ...registry import RunContext, check
from ..common import counted


@check(
    LAYER,
    "items.copy_items",
    "a copy counts in items_total_count and X-Total-Count",
    statements=("2.1/collection.items_total_count", "4.2/copy-items.body"),
)
def copy_counts_follow(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        original = s.add_item(source)
        for body, where, want in (({"collection_id": dest}, dest, 1), ({}, source, 2)):
            copies = s.body(
                s.call("PUT", "/v1/items/copy", ok=(201,), json_body={"items": [original["id"]], **body}),
                list,
            )
            for copy in copies:
                if isinstance(copy, dict) and isinstance(copy.get("id"), int):
                    s.register("item", f"/v1/items/{copy['id']}")
            count = s.collection(where).get("items_total_count")
            counted(
                s,
                count == want,
                f"after Copy items into {where}, its items_total_count is {count!r}, not {want}",
            )
            exchange = s.call("GET", "/v1/items", params={"collection_id": where, "per_page": 1})
            counted(
                s,
                total_count(exchange) == want,
                f"after Copy items into {where}, List items counts "
                f"{exchange.header('X-Total-Count')}, not {want}",
                exchange,
            )
