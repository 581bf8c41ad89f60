"""Behaviour checks of the items operations (operationIds items.*): wording: fixed codes and messages."""

from __future__ import annotations

from ...http import LAYER, session
from ...registry import RunContext, check
from ..common import MESSAGE, deletes, says

UNKNOWN_ID = 2**31 - 7


@check(
    LAYER,
    "items.delete_item",
    "Delete an item says code deleted",
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.2/delete-item",
    ),
)
def delete_item_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        deletes(s, f"/v1/items/{item['id']}", "Delete an item")


@check(
    LAYER,
    "items.list_items",
    "invalid input says code invalid_input",
    writes=False,
    strict=True,
    statements=("design/status-codes.400", "design/error-body.message"),
)
def invalid_input_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        says(
            s,
            s.call("GET", "/v1/items", ok=(), params={"page": 0}),
            400,
            "invalid_input",
            "GET /v1/items?page=0",
        )


@check(
    LAYER,
    "items.get_item",
    "an unknown id says code not_found",
    writes=False,
    strict=True,
    statements=("design/status-codes.404", "design/error-body.message"),
)
def not_found_worded(ctx: RunContext) -> None:
    with session(ctx) as s:
        path = f"/v1/items/{UNKNOWN_ID}"
        says(s, s.call("GET", path, ok=()), 404, "not_found", f"GET {path}")
