"""The machine's steps that create, update and delete items and stacks."""

from __future__ import annotations

import random
from typing import Any

from ...failures import NotGone, NotStored, WrongStatus
from ...http import SERIAL, differences, ids_of, served_live
from .base import MachineBase
from .model import Model, action
from .properties import (
    P_CREATE,
    P_DELETE,
    P_DELETE_404,
    P_ORPHANS,
    P_STACK_DELETE,
    P_STACK_NEW,
    P_UPDATE,
)


class ItemSteps(MachineBase):
    """Create, update and delete items and stacks; mixed into `BehaviourMachine` (machine.py)."""

    @action(P_CREATE, weight=3)
    def create_item(self, rnd: random.Random) -> None:
        kind, tagged, meta = rnd.choice(["text", "link", "child"]), rnd.random() < 0.5, rnd.random() < 0.5
        col = rnd.choice(self.cols)
        name, token = self.new_token()
        body: dict[str, Any] = {"name": name}
        if kind == "child" and self.stacks(col):
            body["parent_id"] = rnd.choice(self.stacks(col)).id
            kind = rnd.choice(["text", "link"])
        kind = "text" if kind == "child" else kind
        body["type"] = kind
        body["content"] = (
            f"https://example.com/{token}.html" if kind == "link" else f"words {rnd.randint(1, 99)}"
        )
        if rnd.random() < 0.5:
            body["description"] = rnd.choice(["a plain description", "another one"])
        if meta:
            body["metadata"] = {"colour": rnd.choice(["red", "blue"]), "serial": str(self.serial)}
        if tagged and self.run.paid is not False:
            body["tags"] = rnd.sample(self.pool, rnd.randint(1, 2))
        path = f"/v1/collections/{col}/items"
        exchange = self.s.call("POST", path, ok=(201, 402) if "tags" in body else (201,), json_body=body)
        if exchange.status == 402:
            self.run.paid = False
            del body["tags"]
            exchange = self.s.call("POST", path, ok=(201,), json_body=body)
        elif "tags" in body:
            self.run.paid = True
        data = self.s.body(exchange)
        self.s.expect(isinstance(data.get("id"), int), "the new item has no integer id")
        self.s.register("item", f"/v1/items/{data['id']}")
        diffs = differences({**body, "collection_id": col}, data)
        self.s.expect(not diffs, "Create an item answered " + "; ".join(diffs), exchange)
        item = Model(
            data["id"],
            col,
            kind,
            name,
            token,
            body["content"],
            body.get("description"),
            dict(body.get("metadata", {})),
            body.get("parent_id"),
            {t.casefold(): t for t in body.get("tags", [])},
        )
        self.items[item.id] = item
        self.compare(item, self.s.item(item.id), "a GET after Create an item:", P_CREATE)

    @action(P_STACK_NEW, when=lambda self: self.has(self.loose))
    def create_stack(self, rnd: random.Random) -> None:
        col = rnd.choice(self.has(self.loose))
        loose = self.loose(col)
        kids = rnd.sample(loose, rnd.randint(1, min(3, len(loose))))
        name, token = self.new_token()
        body = {"type": "stack", "name": name, "items": [k.id for k in kids]}
        exchange = self.s.call("POST", f"/v1/collections/{col}/items", ok=(201,), json_body=body)
        data = self.s.body(exchange)
        self.s.expect(isinstance(data.get("id"), int), "the new stack has no integer id")
        self.s.register("item", f"/v1/items/{data['id']}")
        stack = Model(data["id"], col, "stack", name, token)
        self.items[stack.id] = stack
        for kid in kids:
            kid.parent = stack.id
        self.check_stack(stack, "a new stack made with items")

    @action(P_UPDATE, when=lambda self: self.items)
    def update_item(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        body: dict[str, Any] = {"name": f"{self.s.target.name('m')} {item.token} v{next(SERIAL)}"}
        if rnd.random() < 0.5:
            body["description"] = f"changed {rnd.randint(1, 999)}"
        if rnd.random() < 0.5:  # old keys and a new one: whether a server merges or replaces, it is this
            body["metadata"] = {**item.metadata, f"k{rnd.randint(1, 3)}": f"v{rnd.randint(1, 99)}"}
        if item.type == "text" and rnd.random() < 0.5:
            body["content"] = f"new words {rnd.randint(1, 99)}"
        stacks = [m for m in self.stacks(item.collection) if m.id != item.parent]
        if item.type != "stack" and stacks and rnd.random() < 0.3:  # spec 4.2: parent_id, the stack
            body["parent_id"] = rnd.choice(stacks).id
        exchange = self.s.call("PUT", f"/v1/items/{item.id}", json_body=body)
        diffs = differences(body, self.s.body(exchange))
        self.s.expect(not diffs, "Update an item answered " + "; ".join(diffs), exchange)
        item.name = body["name"]
        item.description = body.get("description", item.description)
        item.metadata = body.get("metadata", item.metadata)
        item.content = body.get("content", item.content)
        item.parent = body.get("parent_id", item.parent)
        self.compare(item, self.s.item(item.id), "a GET after Update an item:", P_UPDATE)

    @action(P_DELETE, when=lambda self: self.items, feeds=("search.search",))
    def delete_item(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        kids = self.children(item.id)
        deep = item.type == "stack" and rnd.random() < 0.5
        path = f"/v1/items/{item.id}"
        self.s.call("DELETE", path, json_body={"delete_items": True} if deep else None)
        self.s.gone(path)
        del self.items[item.id]
        self.deleted.append(item)
        got = self.s.call("GET", path, ok=())
        self.s.expect(not served_live(got), f"GET {path} of the deleted item serves it", got, kind=NotGone)
        if self.s.strict:
            self.s.expect(
                got.status == 404,
                f"GET {path} of the deleted item answered {got.status}",
                got,
                P_DELETE_404,
                kind=WrongStatus,
            )
        listed = ids_of(self.listed(item.collection))
        self.s.expect(
            item.id not in listed,
            f"the deleted item {item.id} is still in its collection's list",
            kind=NotGone,
        )
        for kid in kids:
            answer = self.s.call("GET", f"/v1/items/{kid.id}", ok=())
            if deep:
                self.s.expect(
                    not served_live(answer),
                    f"child {kid.id} of a stack deleted with delete_items=true is still served",
                    answer,
                    P_STACK_DELETE,
                    kind=NotGone,
                )
                del self.items[kid.id]
                self.s.gone(f"/v1/items/{kid.id}")
                self.deleted.append(kid)
                continue
            self.s.expect(
                answer.status == 200,
                f"child {kid.id} of a stack deleted without delete_items answered {answer.status}",
                answer,
                P_STACK_DELETE,
            )
            entries = answer.json()
            data = (
                entries[0] if isinstance(entries, list) and entries and isinstance(entries[0], dict) else {}
            )
            if self.s.strict:
                self.s.expect(
                    data.get("parent_id") is None,
                    f"child {kid.id} of the deleted stack has parent_id {data.get('parent_id')}",
                    answer,
                    P_ORPHANS,
                    kind=NotStored,
                )
            kid.parent = data.get("parent_id")
