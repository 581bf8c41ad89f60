"""Query parameters of List items and Get an item, and a collection's sort_by/sort_order applied
to its items: each sent, its effect checked against what the check itself made (rule table:
conformance/rules/parameters.py)."""

from __future__ import annotations

from typing import Any

from ..http import LAYER, P_COLL_ONE, P_ITEM_ONE, Session, ids_of, session, unpaid
from ..registry import RunContext, check
from .parameters_common import honoured

_LI, _GI = "items.list_items", "items.get_item"
R_OWNER = "spec 4.2 List items: owner_id, owned by this user"
R_NEAR = "spec 4.2 List items: ll (latitude,longitude) and radius, maximum distance in meters from ll"
R_SORTED = (
    "spec 2.1 sort_by, sort_order of a collection; docs/design.md, Ordering: a collection's items "
    "(List items with collection_id, include=items) follow them"
)
R_CHILDREN = "spec 4.2 Get an item: include=items with items_page, items_per_page, items_type, items_not_type"
R_RELATIVES = "spec 4.2 Get an item: include parent, siblings"
LISBON, LONDON = (38.7139, -9.1394), (51.5072, -0.1276)  # 1,585 km apart


def _ids(s: Session, params: dict[str, Any]) -> list[Any]:
    return ids_of(s.listing("/v1/items", params))


@check(LAYER, _LI, "owner_id keeps the items of that user", R_OWNER, users=2)
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


@check(LAYER, _LI, "ll and radius keep the items that near", R_NEAR)
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


@check(LAYER, _LI, "a collection's items follow its sort_by and sort_order", R_SORTED)
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
    LAYER, _GI, "include=items gives a stack's children, with items_type, items_not_type, paging", R_CHILDREN
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


@check(LAYER, _GI, "include=parent and include=siblings give an item's stack and its neighbours", R_RELATIVES)
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
