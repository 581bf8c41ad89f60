"""What the stateful machine's steps share (machine.py's `BehaviourMachine` sets it up): the run, the
session, the reference model of what the run made, and the helpers over it. The step mixins
(machine_items.py, machine_moves.py, machine_social.py, machine_reads.py) inherit it, so that each
is typed against what the combined machine provides."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from ...failures import CheckFailed, NotGone, NotStored
from ...http import Session, differences, ids_of, metadata, tag_names, unique
from ...registry import Check
from .model import MachineRun, Model
from .properties import P_STACK_ITEMS


class MachineBase:
    """The machine's state (set in `BehaviourMachine.__init__`; declared here, no class values) and
    the helpers every kind of step uses."""

    run: MachineRun
    s: Session
    serial: int
    cols: list[int]
    manual: set[int]  # collections ordered by manual position (sort_by null)
    items: dict[int, Model]
    deleted: list[Model]
    pool: list[str]  # shared tag names
    solo: list[str]  # tag names made by Create a tag

    # -- the model
    def live(self, col: int | None = None) -> list[Model]:
        return [m for m in self.items.values() if col is None or m.collection == col]

    def top(self, col: int) -> list[Model]:
        return [m for m in self.live(col) if m.parent is None]

    def loose(self, col: int) -> list[Model]:
        return [m for m in self.top(col) if m.type != "stack"]

    def stacks(self, col: int) -> list[Model]:
        return [m for m in self.live(col) if m.type == "stack"]

    def children(self, stack: int) -> list[Model]:
        return [m for m in self.items.values() if m.parent == stack]

    def has(self, pick: Callable[[int], object]) -> list[int]:
        return [c for c in self.cols if pick(c)]

    def new_token(self) -> tuple[str, str]:
        token = unique(self.s)
        return f"{self.s.target.name('m')} {token}", token

    def adopt(self, data: dict[str, Any], like: Model | None = None) -> Model:
        """An item the target made (a copy of `like`, a copied child): registered and modelled;
        where it is and its likes (which the spec does not say a copy keeps) as answered."""
        self.s.register("item", f"/v1/items/{data['id']}")
        if like is not None:
            item = replace(
                like, id=data["id"], tags=dict(like.tags), metadata=dict(like.metadata), comments={}
            )
        else:
            name = str(data.get("name", ""))
            item = Model(
                data["id"],
                cast(int, data.get("collection_id")),  # set again below
                str(data.get("type")),
                name,
                name.rsplit(" ", 1)[-1],
                str(data.get("content", "")),
                data.get("description"),
                metadata(data.get("metadata")) or {},
                tags={n: n for n in tag_names(data.get("tags")) or ()},
            )
        # as answered: the spec makes collection_id an integer (the cast types it, a missing one stays None)
        item.collection, item.parent = cast(int, data.get("collection_id")), data.get("parent_id")
        item.likes, item.my_like = data.get("reactions_total_count") or 0, None
        for reaction in data.get("reactions") or []:
            if isinstance(reaction, dict) and reaction.get("user_id") == self.s.me.id:
                item.my_like = reaction.get("id")
        self.items[item.id] = item
        return item

    def compare(
        self, item: Model, got: dict[str, Any], what: str, prop: Check, kind: type[CheckFailed] = NotStored
    ) -> None:
        """The item as read shows what the model says (a write not stored, or a count not moved: `kind`)."""
        expected: dict[str, Any] = {
            "collection_id": item.collection,
            "parent_id": item.parent,
            "type": item.type,
            "name": item.name,
            "metadata": item.metadata,
        }
        if item.description is not None:  # not sent: null or "" are both fine
            expected["description"] = item.description
        if item.type in ("text", "link"):
            expected["content"] = item.content
        if self.run.paid:
            expected["tags"] = list(item.tags.values())
        diffs = differences(expected, got)
        if got.get("reactions_total_count") != item.likes:
            diffs.append(
                f"reactions_total_count {got.get('reactions_total_count')!r} (expected {item.likes})"
            )
        self.s.expect(not diffs, f"{what} item {item.id} shows " + "; ".join(diffs), prop=prop, kind=kind)

    def listed(self, col: int, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        query = {"collection_id": col} if col else {}
        return self.s.listing("/v1/items", {**query, **(params or {})})

    def check_scope(
        self,
        found: list[Any],
        must: set[int],
        may: set[int],
        what: str,
        prop: Check,
        kind: type[CheckFailed] | None = None,
    ) -> None:
        """`found` (ids) holds every id of `must` and nothing outside `may`: a miss is a write not
        stored, an extra a thing not gone, unless `kind` (a filter: not honoured) says otherwise."""
        have = set(found)
        missing, extra = must - have, have - may
        self.s.expect(not missing, f"{what} misses {sorted(missing)}", prop=prop, kind=kind or NotStored)
        self.s.expect(
            not extra,
            f"{what} lists {sorted(extra)}, which do not belong there",
            prop=prop,
            kind=kind or NotGone,
        )

    def scope(self, items: list[Model], exact: bool = False) -> tuple[set[int], set[int]]:
        """What a list of these items must hold and may hold: stack children are listed by
        List items in docs/design.md (--strict); the spec itself only makes top-level items certain."""
        every = {m.id for m in items}
        if exact or self.s.strict:
            return every, every
        return {m.id for m in items if m.parent is None}, every

    # -- checks
    def check_stack(self, stack: Model, what: str, prop: Check = P_STACK_ITEMS) -> None:
        got = self.s.item(stack.id, include="stack_items")
        entries = got.get("stack_items")
        self.s.expect(
            isinstance(entries, list), "GET with include=stack_items has no stack_items array", prop=prop
        )
        assert isinstance(entries, list)  # for mypy: expect raised otherwise
        want = {k.id for k in self.children(stack.id)}
        self.check_scope(
            ids_of(entries), want, want, f"{what}: include=stack_items of stack {stack.id}", prop
        )
        wrong = [e.get("id") for e in entries if isinstance(e, dict) and e.get("parent_id") != stack.id]
        self.s.expect(not wrong, f"{what}: children {wrong} do not have parent_id {stack.id}", prop=prop)
