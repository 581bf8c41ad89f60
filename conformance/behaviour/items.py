"""Example checks of items: read back, updates, deletion (get, lists, counts)."""

from __future__ import annotations

import re
from typing import Any

from ..failures import NotGone, NotStored, SchemaViolation, StaleCount, WrongStatus
from ..http import LAYER, R_ONE, Session, differences, ids_of, served_live, session
from ..registry import RunContext, check
from .properties import R_404, R_CREATE, R_GONE, R_UPDATE


def _check_fields(s: Session, sent: dict[str, Any], got: dict[str, Any], what: str) -> None:
    diffs = differences(sent, got)
    s.expect(not diffs, f"{what} shows " + "; ".join(diffs), kind=NotStored)


@check(LAYER, "items.create_item", "a created item reads back with the fields sent", R_CREATE)
def created_item_reads_back(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for fields in (
            {
                "type": "text",
                "content": "plain words",
                "description": "a note",
                "metadata": {"a": "1", "b": "x"},
            },
            {
                "type": "link",
                "content": "https://example.com/page",
                "link": "https://example.com/source",
                "latitude": 38.7139,
                "longitude": -9.1394,
                "shareable": True,
            },
        ):
            exchange, sent = s.new_item(cid, **fields)
            _check_fields(s, sent, s.body(exchange), "Create an item's answer")
            _check_fields(s, sent, s.item(exchange.json()["id"]), "a GET of the new item")


@check(LAYER, "items.get_item", "Get an item is an array of one", R_ONE)
def item_array_of_one(ctx: RunContext) -> None:
    with session(ctx) as s:
        s.item(s.add_item(s.new_collection()["id"])["id"])


@check(LAYER, "items.update_item", "an update persists (a later GET shows it)", R_UPDATE)
def item_update_persists(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"], metadata={"a": "1"})
        sent = {
            "name": ctx.target.name("renamed"),
            "description": "changed",
            "content": "new words",
            "latitude": 51.5,
            "longitude": -0.12,
            "metadata": {"a": "1", "b": "2"},
        }
        data = s.body(s.call("PUT", f"/v1/items/{item['id']}", json_body=sent))
        diffs = differences({**sent, "type": "text"}, data)
        s.expect(not diffs, "Update an item answered " + "; ".join(diffs))
        diffs = differences({**sent, "type": "text"}, s.item(item["id"]))
        s.expect(not diffs, "a GET after Update an item shows " + "; ".join(diffs), kind=NotStored)


@check(LAYER, "items.delete_item", "a deleted item is gone from get, lists and counts", R_GONE)
def deleted_item_is_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        keep, item = s.add_item(cid), s.add_item(cid)
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        got = s.call("GET", path, ok=())
        s.expect(not served_live(got), f"GET {path} of the deleted item serves it", got, kind=NotGone)
        listed = ids_of(s.listing("/v1/items", {"collection_id": cid}))
        s.expect(
            item["id"] not in listed,
            f"the deleted item {item['id']} is still in its collection's list",
            kind=NotGone,
        )
        s.expect(
            listed == [keep["id"]],
            f"after deleting item {item['id']} the collection lists {listed}",
            kind=NotGone,
        )
        count = s.collection(cid).get("items_total_count")
        s.expect(count == 1, f"items_total_count is {count!r} with one live item left", kind=StaleCount)
        everywhere = ids_of(s.listing("/v1/items", {"q": item["name"].rsplit(" ", 1)[-1]}))
        s.expect(
            item["id"] not in everywhere,
            f"List items with q still finds the deleted item {item['id']}",
            kind=NotGone,
        )


@check(LAYER, "items.delete_item", "a deleted item's GET answers 404", R_404, strict=True)
def deleted_item_404(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        got = s.call("GET", path, ok=())
        s.expect(
            got.status == 404, f"GET {path} of the deleted item answered {got.status}", got, kind=WrongStatus
        )


_DESIGNED_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@check(
    LAYER,
    "items.get_item",
    "timestamps are written with Z and whole seconds",
    "docs/design.md, Small rules: ISO 8601 in UTC with the Z designator and whole seconds (spec 2: any "
    "ISO 8601 UTC form)",
    strict=True,
)
def timestamps_designed_form(ctx: RunContext) -> None:
    with session(ctx) as s:
        collection = s.new_collection()
        item = s.item(s.add_item(collection["id"])["id"])
        for what, entity in (("collection", collection), ("item", item)):
            for name in ("created_at", "updated_at"):
                value = entity.get(name)
                s.expect(
                    isinstance(value, str) and _DESIGNED_STAMP.fullmatch(value) is not None,
                    f"the new {what}'s {name} is {value!r}, not of the form 2026-11-21T12:00:00Z",
                    kind=SchemaViolation,
                )
