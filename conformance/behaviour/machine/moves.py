"""The machine's steps that move, stack, tag, order and copy items."""

from __future__ import annotations

import itertools
import random
from typing import Any, cast

from ...failures import NotHonoured, NotStored
from ...http import ids_of, shape_of
from ...registry import Check
from .base import MachineBase
from .model import action
from .properties import (
    P_COPY,
    P_COPY_STACK,
    P_MOVE,
    P_MOVE_STACK,
    P_ORDER,
    P_ORDER_LIST,
    P_STACK_INTO,
    P_TAG_ITEMS,
    P_TRANSFER,
    P_TRANSFER_STACK,
    P_UNSTACKED,
)


class MoveSteps(MachineBase):
    """Move, stack, tag, order and copy items; mixed into `BehaviourMachine` (machine.py)."""

    @action(P_MOVE, when=lambda self: self.items)
    def move_items(self, rnd: random.Random) -> None:
        self.move(rnd, "items", P_MOVE, P_MOVE_STACK)

    @action(P_TRANSFER, when=lambda self: self.items)
    def transfer_items(self, rnd: random.Random) -> None:
        self.move(rnd, "collection", P_TRANSFER, P_TRANSFER_STACK)

    def move(self, rnd: random.Random, via: str, prop: Check, stack_prop: Check) -> None:
        """Items (of one collection) to the other; where a stack's children go is observed."""
        source = rnd.choice(self.has(self.live))
        dest = next(c for c in self.cols if c != source)
        live = self.live(source)
        moving = rnd.sample(live, rnd.randint(1, min(2, len(live))))
        body = {"items": [m.id for m in moving], "collection_id": dest}
        path = "/v1/items" if via == "items" else f"/v1/collections/{source}/items"
        self.s.call("PUT", path, json_body=body)
        ids = {m.id for m in moving}
        for item in moving:
            kids = [k for k in self.children(item.id) if k.id not in ids]
            got = self.s.item(item.id)
            alone = item.parent is not None and item.parent not in ids  # its stack stays behind
            if alone and self.s.strict:
                self.s.expect(
                    got.get("parent_id") is None,
                    f"child {item.id} moved without its stack "
                    f"{item.parent} has parent_id {got.get('parent_id')}",
                    prop=P_UNSTACKED,
                    kind=NotStored,
                )
            item.collection = dest
            if alone:
                item.parent = got.get("parent_id")
            self.compare(item, got, f"after PUT {path} to collection {dest}, the moved", prop)
            for kid in kids:
                data = self.s.item(kid.id)
                if self.s.strict:
                    self.s.expect(
                        (data.get("collection_id"), data.get("parent_id")) == (dest, item.id),
                        f"child {kid.id} of the moved stack {item.id} has collection_id "
                        f"{data.get('collection_id')} and parent_id {data.get('parent_id')}",
                        prop=stack_prop,
                        kind=NotStored,
                    )
                # as answered (an integer by the spec: the cast types it, a missing one stays None)
                kid.collection, kid.parent = cast(int, data.get("collection_id")), data.get("parent_id")

    @action(P_STACK_INTO, when=lambda self: self.has(lambda c: self.loose(c) and self.stacks(c)))
    def stack_into(self, rnd: random.Random) -> None:
        col = rnd.choice(self.has(lambda c: self.loose(c) and self.stacks(c)))
        stack = rnd.choice(self.stacks(col))
        loose = self.loose(col)
        moving = rnd.sample(loose, rnd.randint(1, min(2, len(loose))))
        self.s.call(
            "PUT",
            f"/v1/collections/{col}/items",
            json_body={"items": [m.id for m in moving], "parent_id": stack.id},
        )
        for item in moving:
            item.parent = stack.id
        self.check_stack(stack, f"after update items with parent_id {stack.id}", P_STACK_INTO)

    @action(P_TAG_ITEMS, when=lambda self: self.items)
    def tag_items(self, rnd: random.Random) -> None:
        col = rnd.choice(self.has(self.live))
        live = self.live(col)
        tagging = rnd.sample(live, rnd.randint(1, min(2, len(live))))
        name = rnd.choice(self.pool)
        exchange = self.s.call(
            "PUT",
            f"/v1/collections/{col}/items",
            ok=(200, 402),
            json_body={"items": [m.id for m in tagging], "tags": [name]},
        )
        if exchange.status == 402:
            self.run.paid = False
            return
        self.run.paid = True
        for item in tagging:
            item.tags[name.casefold()] = name
            self.compare(
                item, self.s.item(item.id), f"after update items with tags [{name}], the", P_TAG_ITEMS
            )

    @action(P_ORDER, when=lambda self: self.has(lambda c: c in self.manual and len(self.top(c)) >= 2))
    def reorder(self, rnd: random.Random) -> None:
        col = rnd.choice(self.has(lambda c: c in self.manual and len(self.top(c)) >= 2))
        top = self.top(col)
        order = [m.id for m in rnd.sample(top, rnd.randint(2, len(top)))]
        before = ids_of(self.listed(col)) if self.s.strict else []
        self.s.call("PUT", f"/v1/collections/{col}/items", json_body={"order": order})
        after = self.listed(col)
        sort = {e.get("id"): e.get("sort") for e in after}
        for first, second in itertools.pairwise(order):
            a, b = sort.get(first), sort.get(second)
            self.s.expect(
                isinstance(a, int) and isinstance(b, int) and a < b,
                f"after update items order {order}, item {first} has sort {a} and item {second} sort {b}",
                kind=NotHonoured,
            )
        if self.s.strict:
            want = order + [i for i in before if i not in order]
            self.s.expect(
                ids_of(after) == want,
                f"after update items order {order} the collection lists {ids_of(after)}, expected {want}",
                prop=P_ORDER_LIST,
                kind=NotHonoured,
            )

    @action(P_COPY, when=lambda self: self.items)
    def copy(self, rnd: random.Random) -> None:
        into = rnd.random() < 0.5
        source = rnd.choice(self.has(self.live))
        named = {m.name: m for m in self.live(source)}  # copies share names: one of each name
        originals = rnd.sample(sorted(named.values(), key=lambda m: m.id), rnd.randint(1, min(2, len(named))))
        dest = next(c for c in self.cols if c != source) if into else source
        body: dict[str, Any] = {"items": [m.id for m in originals]}
        if into:
            body["collection_id"] = dest
        exchange = self.s.call("PUT", "/v1/items/copy", ok=(201,), json_body=body)
        copies = self.s.body(exchange, list)
        self.s.expect(
            len(copies) == len(originals)
            and all(isinstance(c, dict) and isinstance(c.get("id"), int) for c in copies),
            f"Copy items of {len(originals)} items answered {shape_of(copies)}",
        )
        by_name = {m.name: m for m in originals}
        for data in copies:
            self.s.expect(
                data["id"] not in self.items and data["id"] not in body["items"],
                f"the copy {data['id']} has the id of an existing item",
                exchange,
            )
            original = by_name.get(data.get("name"))
            self.s.expect(
                original is not None,
                f"the copy {data['id']} is named {data.get('name')!r}, no original is",
                exchange,
            )
            assert original is not None  # for mypy: expect raised otherwise
            got = self.s.item(data["id"])
            copy = self.adopt(got, like=original)
            where = "into collection " + str(dest) if into else "without collection_id (its own collection)"
            copy.collection = dest
            self.compare(copy, got, f"copied {where}, the", P_COPY)
            comments = self.s.body(self.s.call("GET", f"/v1/items/{copy.id}/comments"), list)
            self.s.expect(
                not comments,
                f"the copy {copy.id} of item {original.id} has {len(comments)} comments; "
                "comments are not copied",
            )
            if original.type == "stack":
                kids = self.s.item(copy.id, include="stack_items").get("stack_items") or []
                for kid in kids:
                    if (
                        isinstance(kid, dict)
                        and isinstance(kid.get("id"), int)
                        and kid["id"] not in self.items
                    ):
                        self.adopt(kid)
                if self.s.strict:
                    self.s.expect(
                        len(kids) == len(self.children(original.id)),
                        f"the copy {copy.id} of stack {original.id} holds {len(kids)} items, the stack "
                        f"{len(self.children(original.id))}",
                        prop=P_COPY_STACK,
                        kind=NotStored,
                    )
