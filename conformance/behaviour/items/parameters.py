"""Behaviour checks of the items operations (operationIds items.*): parameters: query parameters,
paging and filters, and their effect on the answer."""

from __future__ import annotations

from typing import Any

from ...failures import CheckSkipped, NotHonoured, NotStored
from ...http import (
    LAYER,
    P_COLL_ONE,
    P_ITEM_ONE,
    P_PAGES,
    Session,
    ids_of,
    session,
    shape_of,
    total_count,
    unpaid,
)
from ...registry import RunContext, check
from ..common import LISBON, LONDON, honoured, pages_as_per_page


@check(
    LAYER,
    "items.list_items",
    "pages partition the list (X-Total-Count, per_page)",
    statements=(
        "1/collection-owner-items-collaborators",
        "2/lists",
        "4/x-total-count",
        "4.2/list-items",
        "4.2/list-items.page",
        "4.2/list-items.per_page",
        "8/paging",
    ),
)
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
    strict=True,
    statements=("4.2/list-items.page", "design/paging.past-end"),
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


@check(
    LAYER,
    "items.list_items",
    "per_page defaults to 24",
    strict=True,
    statements=("4.2/list-items.per_page", "8/limits", "design/paging.per-page"),
)
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
    strict=True,
    statements=("4.2/list-items.per_page", "8/limits", "design/paging.per-page"),
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
    statements=(
        "1/collections",
        "1/item-collection",
        "2.2/item.id",
        "2.2/item.type",
        "3/item-type",
        "4.2/list-items.collection_id",
        "4.2/list-items.owned",
        "4.2/list-items.parent_id",
        "4.2/list-items.q",
        "4.2/list-items.type",
        "4.2/list-items.not_type",
    ),
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
    statements=("4.2/list-items.tags",),
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


_LI, _GI = "items.list_items", "items.get_item"


def _ids(s: Session, params: dict[str, Any]) -> list[Any]:
    return ids_of(s.listing("/v1/items", params))


@check(
    LAYER,
    _LI,
    "owner_id keeps the items of that user",
    users=2,
    statements=("4.2/list-items.owner_id",),
)
def items_owner_filter(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other.id})
        s.register("collaborator", f"/v1/collections/{cid}/users/{other.id}")
        mine = s.add_item(cid)["id"]
        made = ctx.target.request(
            "POST",
            f"/v1/collections/{cid}/items",
            user=other,
            json_body={"type": "text", "name": ctx.target.name("theirs"), "content": "x"},
        )
        s.expect(made.status == 201, f"a collaborator could not add an item (HTTP {made.status})", made)
        theirs = made.json()["id"]
        s.register("item", f"/v1/items/{theirs}")  # the collection's owner may delete it
        for owner, want in ((s.me.id, [mine]), (other.id, [theirs])):
            got = _ids(s, {"collection_id": cid, "owner_id": owner})
            honoured(s, got == want, f"collection_id={cid}&owner_id={owner} lists {got}, expected {want}")


@check(
    LAYER,
    _LI,
    "ll and radius keep the items that near",
    statements=("4.2/list-items.ll", "4.2/list-items.radius"),
)
def items_near_filter(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        lisbon = s.add_item(cid, latitude=LISBON[0], longitude=LISBON[1])["id"]
        london = s.add_item(cid, latitude=LONDON[0], longitude=LONDON[1])["id"]
        s.add_item(cid)  # nowhere
        ll = f"{LISBON[0]},{LISBON[1]}"
        for radius, want in ((1_000, {lisbon}), (2_000_000, {lisbon, london})):
            got = set(_ids(s, {"collection_id": cid, "ll": ll, "radius": radius}))
            honoured(s, got == want, f"ll={ll}&radius={radius} lists {sorted(got)}, expected {sorted(want)}")


@check(
    LAYER,
    _LI,
    "a collection's items follow its sort_by and sort_order",
    statements=(
        "2.1/collection.sort_by",
        "2.1/collection.sort_order",
        "4.1/collection-body.sort_by",
        "4.2/list-items.collection_id",
        "design/ordering.items",
    ),
)
def collection_items_sorted(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        base = ctx.target.name("sorted")
        made = {label: s.add_item(cid, name=f"{base} {label}")["id"] for label in ("b", "c", "a")}
        by_name = [made["a"], made["b"], made["c"]]
        for order, want in (("asc", by_name), ("desc", by_name[::-1])):
            body = {"sort_by": "name", "sort_order": order}
            put = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body=body)
            if put.status == 402:
                raise unpaid("sort_by")
            got = _ids(s, {"collection_id": cid})
            honoured(
                s,
                got == want,
                f"with sort_by name, sort_order {order}, the collection lists {got}, not {want}",
            )
            got = ids_of(s.one(f"/v1/collections/{cid}", P_COLL_ONE, {"include": "items"}).get("items") or [])
            honoured(
                s,
                got == want,
                f"with sort_by name, sort_order {order}, include=items gives {got}, not {want}",
            )


def _stack(s: Session, cid: int, *types: str) -> tuple[int, list[int]]:
    stack = s.add_item(cid, type="stack")["id"]
    return stack, [s.add_item(cid, type=t, parent_id=stack)["id"] for t in types]


@check(
    LAYER,
    _GI,
    "include=items gives a stack's children, with items_type, items_not_type, paging",
    statements=("4.2/get-item-query", "8/paging"),
)
def stack_include_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        stack, (text, link, other) = _stack(s, cid, "text", "link", "text")
        path = f"/v1/items/{stack}"

        def children(**params: Any) -> list[Any]:
            got = s.one(path, P_ITEM_ONE, {"include": "items", **params}).get("items")
            query = "&".join(f"{k}={v}" for k, v in params.items())
            honoured(s, isinstance(got, list), f"GET {path}?include=items&{query} has no items array")
            return ids_of(got or [])

        for params, want in (
            ({}, {text, link, other}),
            ({"items_type": "link"}, {link}),
            ({"items_not_type": "link"}, {text, other}),
        ):
            got = set(children(items_per_page=100, **params))
            honoured(
                s,
                got == want,
                f"the stack's include=items with {params or 'no filter'} gives "
                f"{sorted(got)}, its matching children are {sorted(want)}",
            )
        full = children(items_per_page=100)
        for page in (1, 2):
            paged, there = children(items_per_page=2, items_page=page), full[2 * (page - 1) : 2 * page]
            honoured(
                s,
                paged == there,
                f"the stack's children page {page} of 2 are {paged}, the whole list has {there}",
            )


@check(
    LAYER,
    _GI,
    "include=parent and include=siblings give an item's stack and its neighbours",
    statements=("4.2/get-item-query",),
)
def item_include_relatives(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        loose = s.add_item(cid)["id"]
        stack, (first, second) = _stack(s, cid, "text", "link")
        parent = s.item(first, include="parent").get("parent")
        honoured(
            s,
            isinstance(parent, dict) and parent.get("id") == stack,
            f"include=parent of child {first} gives {parent and parent.get('id')}, its stack is {stack}",
        )
        siblings = s.item(first, include="siblings").get("siblings")
        honoured(
            s,
            isinstance(siblings, list) and ids_of(siblings) == [second],
            f"include=siblings of child {first} gives {ids_of(siblings or [])}, the other child is {second}",
        )
        siblings = s.item(loose, include="siblings").get("siblings")
        got = set(ids_of(siblings or []))
        honoured(
            s,
            isinstance(siblings, list)
            and stack in got
            and loose not in got
            and got <= {stack, first, second},
            f"include=siblings of top-level item {loose} gives {sorted(got)}; its level holds stack {stack}",
        )


@check(
    LAYER,
    "items.list_items",
    "count pages as per_page",
    strict=True,
    statements=("design/request-encoding.count",),
)
def items_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(4):
            s.add_item(cid)
        pages_as_per_page(s, "/v1/items", {"collection_id": cid}, 4)
