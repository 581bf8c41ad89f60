"""Behaviour checks of the items operations (operationIds items.*): stacks."""

from __future__ import annotations

from ...failures import NotGone, NotHonoured, NotStored
from ...http import LAYER, ids_of, served_live, session
from ...registry import RunContext, check


@check(
    LAYER,
    "items.get_item",
    "a stack holds its children (include=stack_items, parent_id filter)",
    statements=(
        "1/item-stack",
        "2.2/item.parent_id",
        "4.2/list-items.parent_id",
        "4.2/get-item-query",
        "4.2/item-body.content",
        "4.2/item-body.items",
        "4.2/item-body.parent_id",
        "4.2/content-by-type",
    ),
)
def stack_children(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        first, second = s.add_item(cid), s.add_item(cid)
        stack = s.add_item(cid, type="stack", items=[first["id"], second["id"]])
        third = s.add_item(cid, parent_id=stack["id"])
        want = {first["id"], second["id"], third["id"]}
        got = s.item(stack["id"], include="stack_items").get("stack_items")
        s.expect(
            isinstance(got, list) and set(ids_of(got)) == want,
            f"include=stack_items lists {ids_of(got or [])}, the stack holds {sorted(want)}",
            kind=NotHonoured,
        )
        listed = set(ids_of(s.listing("/v1/items", {"parent_id": stack["id"]})))
        s.expect(
            listed == want,
            f"parent_id={stack['id']} lists {sorted(listed)}, the stack holds {sorted(want)}",
            kind=NotHonoured,
        )
        for kid in want:
            s.expect(
                s.item(kid).get("parent_id") == stack["id"],
                f"child {kid} does not have parent_id {stack['id']}",
                kind=NotStored,
            )


@check(
    LAYER,
    "items.delete_item",
    "delete_items=true deletes a stack's children, without it they stay",
    statements=("4.2/delete-item", "4.2/delete-item.body"),
)
def stack_delete(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for deep in (True, False):
            kids = [s.add_item(cid)["id"] for _ in range(2)]
            stack = s.add_item(cid, type="stack", items=kids)
            path = f"/v1/items/{stack['id']}"
            s.call("DELETE", path, json_body={"delete_items": True} if deep else None)
            s.gone(path)
            for kid in kids:
                got = s.call("GET", f"/v1/items/{kid}", ok=())
                if deep:
                    s.expect(
                        not served_live(got),
                        f"child {kid} of a stack deleted with delete_items=true is still served",
                        kind=NotGone,
                    )
                    s.gone(f"/v1/items/{kid}")
                else:
                    s.expect(
                        got.status == 200,
                        f"child {kid} of a stack deleted without delete_items answered {got.status}",
                    )
                    if ctx.settings.strict:  # docs/design.md: they move to top level
                        parent = s.body(got, list)[0].get("parent_id")
                        s.expect(
                            parent is None,
                            f"child {kid} of the deleted stack has parent_id {parent}",
                            kind=NotStored,
                        )
