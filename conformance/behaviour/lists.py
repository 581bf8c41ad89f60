"""Example checks of List items: paging and filters."""

from __future__ import annotations

from typing import Any

from ..failures import CheckSkipped, NotHonoured, NotStored
from ..http import LAYER, P_PAGES, R_PAGES, Session, ids_of, session, shape_of, total_count, unpaid
from ..registry import RunContext, check
from .properties import R_FILTERS


@check(LAYER, "items.list_items", "pages partition the list (X-Total-Count, per_page)", R_PAGES)
def items_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(7):
            s.add_item(cid)
        full = s.listing("/v1/items", {"collection_id": cid}, P_PAGES)
        s.expect(len(full) == 7, f"a collection of 7 new items lists {len(full)}", kind=NotStored)
        for per_page in (1, 2, 3, 7):
            s.partition("/v1/items", {"collection_id": cid}, per_page, full)


@check(
    LAYER,
    "items.list_items",
    "a page past the end is empty",
    "docs/design.md paging: a page past the end is an empty array",
    strict=True,
)
def page_past_end(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        s.add_item(cid)
        exchange = s.call("GET", "/v1/items", params={"collection_id": cid, "page": 3, "per_page": 1})
        s.expect(
            s.body(exchange, list) == [] and total_count(exchange) == 1,
            f"page 3 of a one-item list answered {shape_of(exchange.json())}, X-Total-Count "
            f"{exchange.header('X-Total-Count')}",
            kind=NotHonoured,
        )


@check(LAYER, "items.list_items", "per_page defaults to 24", "design.md, paging: per_page 24", strict=True)
def default_page_size(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(25):
            s.add_item(cid)
        exchange = s.call("GET", "/v1/items", params={"collection_id": cid})
        s.expect(
            len(s.body(exchange, list)) == 24 and total_count(exchange) == 25,
            f"a list of 25 without per_page answered {shape_of(exchange.json())}, "
            f"X-Total-Count {exchange.header('X-Total-Count')}",
            kind=NotHonoured,
        )


@check(
    LAYER,
    "items.list_items",
    "per_page above 100 is clamped to 100",
    "docs/design.md paging: per_page larger than 100 is clamped to 100",
    strict=True,
)
def clamped_page_size(ctx: RunContext) -> None:
    with session(ctx) as s:
        exchange = s.call("GET", "/v1/items", params={"per_page": 250})
        total = total_count(exchange)
        if total is not None and 80 < total <= 100:  # a few more make the list long enough
            cid = s.new_collection()["id"]
            for _ in range(101 - total):
                s.add_item(cid)
            exchange = s.call("GET", "/v1/items", params={"per_page": 250})
            total = total_count(exchange)
        if total is None or total <= 100:
            raise CheckSkipped(
                f"needs more than 100 items visible to the first --user (X-Total-Count {total})"
            )
        got = s.body(exchange, list)
        s.expect(len(got) == 100, f"per_page=250 answered {shape_of(got)} of {total}", kind=NotHonoured)


def _filter_world(s: Session, paid: bool) -> tuple[int, dict[str, dict[str, Any]]]:
    cid = s.new_collection()["id"]
    tags = {"a": [s.target.name("fa")], "b": [s.target.name("fa"), s.target.name("fb")]}
    made = {
        "text": s.add_item(cid, type="text", **({"tags": tags["a"]} if paid else {})),
        "link": s.add_item(cid, type="link", **({"tags": tags["b"]} if paid else {})),
        "other": s.add_item(cid, type="text"),
    }
    made["stack"] = s.add_item(cid, type="stack", items=[made["other"]["id"]])
    made["child"] = s.add_item(cid, type="link", parent_id=made["stack"]["id"])
    return cid, made


def _expect_listed(
    s: Session, params: dict[str, Any], must: list[dict[str, Any]], may: list[dict[str, Any]]
) -> None:
    found = set(ids_of(s.listing("/v1/items", params)))
    want, allowed = {m["id"] for m in must}, {m["id"] for m in may}
    query = "&".join(f"{k}={v}" for k, v in params.items())
    s.expect(want <= found, f"GET /v1/items?{query} misses {sorted(want - found)}", kind=NotHonoured)
    s.expect(
        found <= allowed,
        f"GET /v1/items?{query} lists {sorted(found - allowed)}, which do not match",
        kind=NotHonoured,
    )


@check(
    LAYER,
    "items.list_items",
    "filters filter: collection_id, type, not_type, parent_id, q, owned",
    R_FILTERS,
)
def items_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid, m = _filter_world(s, paid=False)
        top = [m["text"], m["link"], m["stack"]]
        every = [*top, m["other"], m["child"]]
        exact = ctx.settings.strict  # docs/design.md: stack children are listed too

        def upto(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
            return items if exact else [i for i in items if i in top]

        _expect_listed(s, {"collection_id": cid}, upto(every), every)
        _expect_listed(
            s, {"collection_id": cid, "type": "link"}, upto([m["link"], m["child"]]), [m["link"], m["child"]]
        )
        _expect_listed(
            s,
            {"collection_id": cid, "not_type": "link"},
            upto([m["text"], m["stack"], m["other"]]),
            [m["text"], m["stack"], m["other"]],
        )
        _expect_listed(
            s,
            {"collection_id": cid, "parent_id": m["stack"]["id"]},
            [m["other"], m["child"]],
            [m["other"], m["child"]],
        )
        token = m["link"]["name"].rsplit(" ", 1)[-1]
        _expect_listed(s, {"q": token}, [m["link"]], [m["link"]])
        _expect_listed(s, {"collection_id": cid, "owned": "true"}, upto(every), every)
        owned = s.listing("/v1/items", {"owned": "true"})
        others = [i.get("id") for i in owned if i.get("user_id") != s.me.id]
        s.expect(
            not others, f"GET /v1/items?owned=true lists {others}, made by someone else", kind=NotHonoured
        )


@check(
    LAYER,
    "items.list_items",
    "the tags filter keeps the items carrying every tag",
    "spec 4.2 List items: tags, items having these tags; tags are paid",
)
def items_tags_filter(ctx: RunContext) -> None:
    with session(ctx) as s:
        probe, _ = s.new_item(s.new_collection()["id"], ok=(201, 402), tags=[ctx.target.name("probe")])
        if probe.status == 402:
            raise unpaid("tags")
        _, m = _filter_world(s, paid=True)
        fa, fb = ctx.target.name("fa"), ctx.target.name("fb")
        _expect_listed(s, {"tags": fa}, [m["text"], m["link"]], [m["text"], m["link"]])
        both = [m["link"]] if ctx.settings.strict else [m["text"], m["link"]]  # docs/design.md: every tag
        _expect_listed(s, {"tags": [fa, fb]}, [m["link"]], both)
