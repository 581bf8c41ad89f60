"""The machine's observations: lists, paging, filters, embedded items, reads, tag counts, search."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any

from ...failures import NotGone, NotHonoured, NotStored, StaleCount
from ...http import P_COLL_ONE, P_PAGES, ids_of, searched, settled, tag_counts
from .base import MachineBase
from .model import Model, action
from .properties import (
    P_COLL_TAGS,
    P_COUNT,
    P_EMBED,
    P_FILTERS,
    P_ITEM_READ,
    P_LIST,
    P_SEARCH,
    P_SEARCH_FINDS,
    P_TAG_COUNT,
)


class Observations(MachineBase):
    """Reads that change nothing and compare with the model; mixed into `BehaviourMachine`."""

    @action(P_LIST)
    def check_list(self, rnd: random.Random) -> None:
        col, per_page = rnd.choice(self.cols), rnd.choice([1, 2, 3, 5])
        full = self.s.listing("/v1/items", {"collection_id": col}, P_PAGES)
        must, may = self.scope(self.live(col))
        self.check_scope(ids_of(full), must, may, f"GET /v1/items?collection_id={col}", P_LIST)
        per_page = max(per_page, math.ceil(len(full) / 6))
        self.s.partition("/v1/items", {"collection_id": col}, per_page, full)
        got = self.s.one(f"/v1/collections/{col}", P_COLL_ONE, {"include": "items", "items_per_page": 100})
        embedded = got.get("items")
        self.s.expect(isinstance(embedded, list), "GET with include=items has no items array", prop=P_EMBED)
        assert isinstance(embedded, list)  # for mypy: expect raised otherwise
        self.check_scope(ids_of(embedded), must, may, f"include=items of collection {col}", P_EMBED)
        count = got.get("items_total_count")
        self.s.expect(
            isinstance(count, int) and len(must) <= count <= len(may),
            f"collection {col} has items_total_count {count!r}; it holds {len(may)} live items "
            f"({len(must)} at top level)",
            prop=P_COUNT,
            kind=StaleCount,
        )

    @action(P_FILTERS)
    def check_filter(self, rnd: random.Random) -> None:
        kind = rnd.choice(["type", "not_type", "parent_id", "tags", "q", "owned", "items_type"])
        col, anywhere = rnd.choice(self.cols), rnd.random() < 0.5
        exact = False
        params: dict[str, Any]
        test: Callable[[Model], bool]
        if kind == "parent_id" and self.stacks(col):
            stack = rnd.choice(self.stacks(col)).id
            params, test, exact = {"parent_id": stack}, (lambda m: m.parent == stack), True
        elif kind == "tags" and self.run.paid:
            name = rnd.choice(self.pool)
            params, test = {"tags": name}, (lambda m: name.casefold() in m.tags)
        elif kind == "q" and self.items:
            token = rnd.choice([m.token for m in [*self.items.values(), *self.deleted]])
            params, test = {"q": token}, (lambda m: token in m.name.casefold())
        elif kind == "items_type":
            value = rnd.choice(["text", "link", "stack"])
            path = f"/v1/collections/{col}"
            got = self.s.one(
                path, P_COLL_ONE, {"include": "items", "items_per_page": 100, "items_type": value}
            )
            must, may = self.scope([m for m in self.live(col) if m.type == value])
            what = f"GET {path}?include=items&items_type={value}"
            self.check_scope(ids_of(got.get("items") or []), must, may, what, P_EMBED, NotHonoured)
            return
        elif kind == "owned":
            params, test = {"owned": "true"}, (lambda m: True)
            anywhere = False
        else:
            kind = "not_type" if kind == "not_type" else "type"
            value = rnd.choice(["text", "link", "stack"])
            params = {kind: value}
            test = (lambda m: m.type == value) if kind == "type" else (lambda m: m.type != value)
            anywhere = False
        if kind not in ("tags", "q"):
            anywhere = False  # only unique words and tag names tell the run's items from the rest
        found = self.listed(0 if anywhere else col, params)
        must, may = self.scope([m for m in self.live(None if anywhere else col) if test(m)], exact)
        where = "" if anywhere else f"collection_id={col}&"
        query = "&".join(f"{k}={v}" for k, v in params.items())
        self.check_scope(ids_of(found), must, may, f"GET /v1/items?{where}{query}", P_FILTERS, NotHonoured)

    @action(P_ITEM_READ, when=lambda self: self.items)
    def check_item(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        self.compare(item, self.s.item(item.id), "GET of the", P_ITEM_READ)

    @action(P_TAG_COUNT, when=lambda self: self.run.paid)
    def check_tags(self, rnd: random.Random) -> None:
        names = [n.casefold() for n in [*self.pool, *self.solo]]
        want = {n: sum(n in m.tags for m in self.items.values()) for n in names}

        def counted(path: str, want: dict[str, int]) -> dict[str, Any]:
            # tag lists are views derived from writes: read until they show the run's (or --settle passed)
            def read() -> dict[str, Any]:
                counts = tag_counts(self.s, path)
                return {n: counts.get(n, 0) for n in names}

            return settled(self.s, "tags", read, lambda got: got == want)

        got = counted("/v1/tags", want)
        self.s.expect(
            got == want,
            f"List all tags counts the run's tags {got}, its live items carry {want}",
            kind=StaleCount,
        )
        if self.run.ctx.selected(P_COLL_TAGS.operation):
            col = rnd.choice(self.cols)
            want = {n: sum(n in m.tags for m in self.live(col)) for n in names}
            got = counted(f"/v1/collections/{col}/tags", want)
            self.s.expect(
                got == want,
                f"List collection tags of {col} counts {got}, its live items carry {want}",
                prop=P_COLL_TAGS,
                kind=StaleCount,
            )

    @action(P_SEARCH, when=lambda self: self.deleted)
    def check_search(self, rnd: random.Random) -> None:
        item = rnd.choice(self.deleted)
        self.s.expect(
            not searched(self.s, item.id, ("item",), present=False, q=item.token),
            f"search for {item.token!r} still finds the deleted item {item.id}",
            kind=NotGone,
        )
        if self.s.strict and self.items:
            live = self.items[rnd.choice(sorted(self.items))]
            self.s.expect(
                searched(self.s, live.id, ("item",), q=live.token),
                f"search for {live.token!r} does not find item {live.id}",
                prop=P_SEARCH_FINDS,
                kind=NotStored,
            )
