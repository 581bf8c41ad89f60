"""Behaviour layer: what the spec states that no schema can express, checked over HTTP.

Two kinds of checks, each named by the operation it is about:
- a hypothesis `RuleBasedStateMachine` over a small reference model of what the run made
  (collections, items and stacks, tags, comments, likes): every step changes the target
  through one operation and checks what the spec says follows (a later GET shows it, lists,
  filters and counts follow). It records one outcome per property it exercised, and when a
  step breaks one, a single failure for that property with the request that showed it;
- targeted example checks: read back, paging, filters, order, moves, copies, stacks, counts.

Only what the spec itself states is required; docs/design.md's gap choices (a deleted item's GET
is a 404, default and maximum page sizes, ...) are separate checks that run with --strict.
Everything is made with the run's prefix, registered for cleanup, and nothing the run did
not create is changed. Under --read-only this layer does nothing (every check writes).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import httpx
from hypothesis import HealthCheck, Phase, Verbosity
from hypothesis import seed as hypothesis_seed
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, get_state_machine_test, initialize, rule

from .failures import CheckFailed, CheckSkipped
from .registry import RunContext, check
from .results import ERROR, FAIL, PASS, SKIP, Outcome
from .target import Exchange

LAYER = "behaviour"
FULL_PAGE = 100  # per_page for reading a whole (small) list
MAX_PAGES = 20  # pages read of one list before giving up on it
_SERIAL = itertools.count(1)  # unique words in names, across the whole run


# ---------------------------------------------------------------------- properties
@dataclass(frozen=True)
class Prop:
    """One property of the spec: the operation it is about, what holds, where the spec says so."""

    operation: str
    name: str
    rule: str
    strict: bool = False  # a gap choice of docs/design.md: checked only with --strict
    paid: bool = False  # needs tags, a paid-plan field


_R_CREATE = "spec 4.2 Create an item (201, Item) and Get an item: the fields sent are read back"
_R_ONE = "spec 4.1/4.2: Get a collection / Get an item answers the resource given as an array of one"
_R_UPDATE = "spec 4.2 Update an item (200, Item): the change persists, a later GET shows it"
_R_GONE = "spec 4.2 Delete an item, spec 2.2 deleted_at: a deleted item is no longer served by get or lists"
_R_404 = "docs/design.md deleted items: the GET of a deleted item answers 404"
_R_STACK = (
    "spec 2.2 parent_id is the parent stack; spec 4.2 Get an item include=stack_items lists its children"
)
_R_STACK_DELETE = "spec 4.2 Delete an item: delete_items true on a stack also deletes its child items"
_R_ORPHANS = "docs/design.md stacks: deleting a stack without delete_items moves its children to top level"
_R_MOVE = "spec 4.2 Update multiple items, spec 3: PUT items with collection_id moves the items there"
_R_UPDATE_ITEMS = (
    "spec 4.1 Update items: collection_id transfers the items, parent_id stacks them into a stack, "
    "tags adds tags; spec 3 transitions"
)
_R_STACK_MOVES = "docs/design.md moving items: a stack moves with its children"
_R_ORDER = (
    "spec 4.1 Update items order: item ids in the new order; spec 2.2 sort: position within the collection"
)
_R_ORDER_LIST = (
    "docs/design.md ordering: the listed items come first in that order, the others after them as they "
    "were; a manual collection lists by sort"
)
_R_COPY = (
    "spec 4.2 Copy items: copies the items including tags and metadata; comments are not copied; "
    "without collection_id the copy goes into the current collection"
)
_R_COPY_STACK = "docs/design.md copying a stack copies its children into the new stack"
_R_PAGES = (
    "spec 8: lists are paged with page and per_page; spec 4: X-Total-Count carries the total number "
    "of entries"
)
_R_FILTERS = "spec 4.2 List items query: collection_id, type, not_type, parent_id, tags, q, owned"
_R_COUNT = "spec 2.1 items_total_count of a collection follows its items"
_R_TAG = "spec 4.8 Create a tag / Delete a tag; spec 4.2 List item tags"
_R_TAG_COUNT = "spec 2.5: List all tags / List collection tags give each name with items_total_count"
_R_COMMENT = "spec 4.5 Create, Update, Delete a comment; List comments shows the current ones"
_R_LIKE = "spec 4.6 Create / Delete a reaction; spec 2.2 reactions_total_count"
_R_SEARCH = "spec 4.9 Search covers items; a deleted item (spec 4.2) is no longer found"

P_SETUP = Prop(
    "collections.create_collection",
    "the collections to work in are created",
    "spec 4.1 Create a collection answers 201 with the Collection",
)
P_CREATE = Prop("items.create_item", "a created item reads back with the fields sent", _R_CREATE)
P_STACK_NEW = Prop("items.create_item", "a new stack holds the items it was given", _R_STACK)
P_ITEM_ONE = Prop("items.get_item", "Get an item is an array of one", _R_ONE)
P_ITEM_READ = Prop("items.get_item", "an item reads back as last written", _R_UPDATE)
P_STACK_ITEMS = Prop("items.get_item", "include=stack_items lists a stack's children", _R_STACK)
P_UPDATE = Prop("items.update_item", "an update persists (a later GET shows it)", _R_UPDATE)
P_DELETE = Prop("items.delete_item", "a deleted item is gone from get and lists", _R_GONE)
P_DELETE_404 = Prop("items.delete_item", "a deleted item's GET answers 404", _R_404, strict=True)
P_STACK_DELETE = Prop(
    "items.delete_item", "delete_items decides whether a stack's children go", _R_STACK_DELETE
)
P_ORPHANS = Prop("items.delete_item", "a deleted stack's children move to top level", _R_ORPHANS, strict=True)
P_MOVE = Prop("items.update_multiple_items", "moved items land in the destination as they were", _R_MOVE)
P_MOVE_STACK = Prop(
    "items.update_multiple_items", "a moved stack takes its children", _R_STACK_MOVES, strict=True
)
P_TRANSFER = Prop(
    "collections.update_items", "update items with collection_id moves the items", _R_UPDATE_ITEMS
)
P_TRANSFER_STACK = Prop(
    "collections.update_items", "a transferred stack takes its children", _R_STACK_MOVES, strict=True
)
P_STACK_INTO = Prop(
    "collections.update_items", "update items with parent_id stacks the items", _R_UPDATE_ITEMS
)
P_TAG_ITEMS = Prop(
    "collections.update_items", "update items with tags adds the tags", _R_UPDATE_ITEMS, paid=True
)
P_ORDER = Prop("collections.update_items", "update items order sets the positions asked", _R_ORDER)
P_ORDER_LIST = Prop(
    "collections.update_items", "update items order: the list follows it", _R_ORDER_LIST, strict=True
)
P_COPY = Prop("items.copy_items", "copies land where asked with tags and metadata, without comments", _R_COPY)
P_COPY_STACK = Prop(
    "items.copy_items", "a copied stack has copies of its children", _R_COPY_STACK, strict=True
)
P_LIST = Prop("items.list_items", "a collection's list holds exactly its live items", _R_GONE)
P_PAGES = Prop("items.list_items", "pages partition the list (X-Total-Count, per_page)", _R_PAGES)
P_FILTERS = Prop("items.list_items", "filters keep exactly the matching items", _R_FILTERS)
P_COLL_ONE = Prop("collections.get_collection", "Get a collection is an array of one", _R_ONE)
P_COUNT = Prop("collections.get_collection", "items_total_count follows the changes", _R_COUNT)
P_EMBED = Prop(
    "collections.get_collection",
    "include=items embeds its live items (items_type filters them)",
    "spec 2.1: with include the response carries the included items; spec 4.1 items_type",
)
P_SEARCH_FINDS = Prop(
    "search.search",
    "a live item is found by a word of its name",
    "spec 4.9: search covers items (found at once: docs/design.md)",
    strict=True,
)
P_UNSTACKED = Prop(
    "items.update_multiple_items",
    "a child moved without its stack goes to top level",
    "docs/design.md moving items: a child moved without its stack goes to top level",
    strict=True,
)
P_TAG_NEW = Prop("tags.create_tag", "a created tag is listed with the item's tags", _R_TAG, paid=True)
P_TAG_GONE = Prop("tags.delete_tag", "a deleted tag is gone from the item's tags", _R_TAG, paid=True)
P_TAG_COUNT = Prop(
    "tags.list_tags", "tag counts follow tagging, moves and deletions", _R_TAG_COUNT, paid=True
)
P_COLL_TAGS = Prop(
    "collections.list_collection_tags", "a collection's tag counts follow its items", _R_TAG_COUNT, paid=True
)
P_COMMENT_NEW = Prop("comments.create_comment", "a created comment is listed", _R_COMMENT)
P_COMMENT_EDIT = Prop("comments.update_comment", "an edited comment is listed with its new body", _R_COMMENT)
P_COMMENT_GONE = Prop("comments.delete_comment", "a deleted comment is gone from the list", _R_COMMENT)
P_LIKE = Prop("reactions.create_reaction", "a like counts in reactions_total_count", _R_LIKE)
P_UNLIKE = Prop("reactions.delete_reaction", "a deleted like no longer counts", _R_LIKE)
P_SEARCH = Prop("search.search", "a deleted item is no longer found", _R_SEARCH)
P_RUN = Prop(
    "items.create_item", "the stateful run completes", "spec 4: every operation answers as documented"
)


# ---------------------------------------------------------------------- HTTP with expectations
class Broken(CheckFailed):
    """A property broke: which one, why, and the exchange that showed it."""

    def __init__(self, prop: Prop | None, message: str, exchange: Exchange | None):
        super().__init__(message, exchange)
        self.prop = prop


class Session:
    """The layer's view of the target: requests as the main actor, expectations that fail with
    the last exchange, and what it made (registered for the run's cleanup, newest first)."""

    def __init__(self, ctx: RunContext, exercised: set[Prop] | None = None):
        self.ctx = ctx
        self.target = ctx.target
        self.me = ctx.settings.users[0]
        self.strict = ctx.settings.strict
        self.prop: Prop | None = None
        self.exercised = exercised if exercised is not None else set()
        self.last: Exchange | None = None
        self.collections: list[int] = []
        self.paths: list[str] = []  # items, tags, comments, likes, collaborators it registered

    # -- properties and failures
    def at(self, prop: Prop) -> None:
        self.prop = prop
        self.exercised.add(prop)

    def fail(self, message: str, exchange: Exchange | None = None, prop: Prop | None = None) -> None:
        raise Broken(prop or self.prop, message, exchange or self.last)

    def expect(
        self, cond: object, message: str, exchange: Exchange | None = None, prop: Prop | None = None
    ) -> None:
        if prop is not None:
            self.exercised.add(prop)
        if not cond:
            self.fail(message, exchange, prop)

    # -- requests
    def call(self, method: str, path: str, ok: tuple[int, ...] = (200,), **kwargs: Any) -> Exchange:
        exchange = self.target.request(method, path, user=self.me, **kwargs)
        self.last = exchange
        if ok and exchange.status not in ok:
            wanted = " or ".join(map(str, ok))
            self.fail(f"{method} {path} answered {exchange.status}, expected {wanted}", exchange)
        return exchange

    def body(self, exchange: Exchange, kind: type = dict) -> Any:
        data = exchange.json()
        if not isinstance(data, kind):
            shape = "array" if kind is list else "object"
            self.fail(f"{exchange.method} {_path(exchange)} did not answer a JSON {shape}", exchange)
        return data

    def one(self, path: str, prop: Prop, params: Any = None) -> dict[str, Any]:
        """GET of a collection or an item: the spec gives the resource as an array of one."""
        exchange = self.call("GET", path, params=params)
        data = exchange.json()
        self.expect(
            isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict),
            f"GET {path} answered {_shape(data)}, not an array of one object",
            exchange,
            prop,
        )
        return data[0]

    def item(self, item_id: int, include: str | None = None) -> dict[str, Any]:
        return self.one(f"/v1/items/{item_id}", P_ITEM_ONE, {"include": include} if include else None)

    def collection(self, collection_id: int) -> dict[str, Any]:
        return self.one(f"/v1/collections/{collection_id}", P_COLL_ONE)

    def listing(self, path: str, params: dict[str, Any], prop: Prop | None = None) -> list[dict[str, Any]]:
        """A whole list, read FULL_PAGE entries at a time until a short page. With `prop` (a check
        about lists), its X-Total-Count must be its length; otherwise the list is only a tool."""
        entries: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            exchange = self.call("GET", path, params={**params, "page": page, "per_page": FULL_PAGE})
            chunk = self.body(exchange, list)
            self.expect(all(isinstance(e, dict) for e in chunk), f"GET {path} lists a non-object", exchange)
            entries += chunk
            if len(chunk) < FULL_PAGE:
                break
        if prop is not None:
            total = _total(exchange)
            self.expect(total is not None, f"GET {path} has no integer X-Total-Count header", exchange, prop)
            self.expect(
                total == len(entries),
                f"X-Total-Count says {total}, but the list holds {len(entries)} entries",
                exchange,
                prop,
            )
        return entries

    def partition(self, path: str, params: dict[str, Any], per_page: int, full: list[dict[str, Any]]) -> None:
        """Pages of per_page entries, concatenated, are the whole list: same entries, same order."""
        want = [e.get("id") for e in full]
        got: list[Any] = []
        for page in range(1, math.ceil(len(want) / per_page) + 1):
            exchange = self.call("GET", path, params={**params, "page": page, "per_page": per_page})
            chunk = [e.get("id") if isinstance(e, dict) else e for e in self.body(exchange, list)]
            size = min(per_page, len(want) - len(got))
            self.expect(
                _total(exchange) == len(want),
                f"page {page} says X-Total-Count {exchange.header('X-Total-Count')}, "
                f"the list holds {len(want)}",
                exchange,
                P_PAGES,
            )
            self.expect(
                len(chunk) == size,
                f"page {page} with per_page={per_page} has {len(chunk)} entries, expected {size} "
                f"(the list holds {len(want)})",
                exchange,
                P_PAGES,
            )
            dup = set(chunk) & set(got)
            self.expect(not dup, f"page {page} repeats {sorted(dup)} of an earlier page", exchange, P_PAGES)
            got += chunk
            self.expect(
                got == want[: len(got)],
                f"pages 1..{page} with per_page={per_page} list {got}, "
                f"the whole list starts {want[: len(got)]}",
                exchange,
                P_PAGES,
            )

    # -- what it makes
    def register(self, kind: str, path: str) -> None:
        self.target.created(kind, path, self.me)
        self.paths.append(path)

    def gone(self, path: str) -> None:
        """It deleted that itself."""
        self.target.forget(path)
        if path in self.paths:
            self.paths.remove(path)

    def new_collection(self, **fields: Any) -> dict[str, Any]:
        body = {"name": self.target.name(f"c{next(_SERIAL)}"), "type": "private", **fields}
        exchange = self.call("POST", "/v1/collections", ok=(201,), json_body=body)
        data = self.body(exchange)
        self.expect(isinstance(data.get("id"), int), "the new collection has no integer id", exchange)
        self.target.created("collection", f"/v1/collections/{data['id']}", self.me)
        self.collections.append(data["id"])
        return data

    def new_item(
        self, collection_id: int, ok: tuple[int, ...] = (201,), **fields: Any
    ) -> tuple[Exchange, dict[str, Any]]:
        """POST an item (a text item unless said otherwise), registered when made; and what was sent."""
        serial = next(_SERIAL)
        body = {"type": "text", "name": self.word_name(serial), **fields}
        if body["type"] != "stack":
            body.setdefault("content", f"https://example.com/{serial}" if body["type"] == "link" else "note")
        exchange = self.call("POST", f"/v1/collections/{collection_id}/items", ok=ok, json_body=body)
        if exchange.status in (200, 201):
            data = self.body(exchange)
            self.expect(isinstance(data.get("id"), int), "the new item has no integer id", exchange)
            self.register("item", f"/v1/items/{data['id']}")
        return exchange, body

    def add_item(self, collection_id: int, **fields: Any) -> dict[str, Any]:
        return self.body(self.new_item(collection_id, **fields)[0])

    def word_name(self, serial: int) -> str:
        """A name with a word no other name of any run has (q, search)."""
        return f"{self.target.name('item')} {word(self.target.run_id, serial)}"

    def dispose(self) -> None:
        """Delete the collections made; when that took their items too, nothing else is left to do."""
        try:
            for collection_id in reversed(self.collections):
                path = f"/v1/collections/{collection_id}"
                if self.target.request("DELETE", path, user=self.me).status in (200, 204, 404):
                    self.target.forget(path)
            items = [p for p in self.paths if p.startswith("/v1/items/")]
            if items and self.target.request("GET", items[-1], user=self.me).status == 404:
                for path in self.paths:  # items, and what hangs off them, went with their collection
                    self.target.forget(path)
        except httpx.HTTPError:
            pass  # the run's cleanup deletes what is still registered
        self.collections.clear()
        self.paths.clear()


def word(run_id: str, serial: int) -> str:
    return f"zq{run_id}n{serial}x"


def _path(exchange: Exchange) -> str:
    return "/" + exchange.url.split("://", 1)[-1].split("/", 1)[-1]


def _shape(data: Any) -> str:
    if isinstance(data, list):
        return f"an array of {len(data)}"
    return "an object" if isinstance(data, dict) else repr(data)[:60]


def _total(exchange: Exchange) -> int | None:
    value = exchange.header("X-Total-Count")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _ids(entries: list[Any]) -> list[Any]:
    return [e.get("id") if isinstance(e, dict) else None for e in entries]


def tag_names(entries: Any) -> set[str] | None:
    """Names (without case) of an item's tags; None when their shape cannot be read."""
    if not isinstance(entries, list):
        return None
    names = set()
    for entry in entries:
        name = entry.get("name") if isinstance(entry, dict) else entry
        if not isinstance(name, str):
            return None
        names.add(name.casefold())
    return names


def metadata(entries: Any) -> dict[str, str] | None:
    """An item's metadata as a dict; the spec leaves the entries' shape open, so read the usual ones."""
    if isinstance(entries, dict):
        return {str(k): str(v) for k, v in entries.items()}
    if not isinstance(entries, list):
        return None
    out = {}
    for entry in entries:
        if isinstance(entry, dict) and "key" in entry and "value" in entry:
            out[str(entry["key"])] = str(entry["value"])
        elif isinstance(entry, dict) and len(entry) == 1:
            ((key, value),) = entry.items()
            out[str(key)] = str(value)
        elif isinstance(entry, list | tuple) and len(entry) == 2:
            out[str(entry[0])] = str(entry[1])
        else:
            return None
    return out


_PLAIN_FIELDS = ("type", "name", "description", "link", "shareable", "parent_id", "collection_id")


def differences(sent: dict[str, Any], got: dict[str, Any]) -> list[str]:
    """Fields of `sent` that `got` does not show as sent (metadata and tags read tolerantly)."""
    out = []
    for name in _PLAIN_FIELDS:
        if name in sent and got.get(name) != sent[name]:
            out.append(f"{name} {got.get(name)!r} (sent {sent[name]!r})")
    if "content" in sent and sent.get("type", got.get("type")) in ("text", "link"):
        if got.get("content") != sent["content"]:
            out.append(f"content {got.get('content')!r} (sent {sent['content']!r})")
    for name in ("latitude", "longitude"):
        if name in sent:
            value = got.get(name)
            if not isinstance(value, int | float) or abs(value - sent[name]) > 1e-6:
                out.append(f"{name} {value!r} (sent {sent[name]!r})")
    if "metadata" in sent:
        have = metadata(got.get("metadata"))
        if have is not None and have != {k: str(v) for k, v in sent["metadata"].items()}:
            out.append(f"metadata {have} (sent {sent['metadata']})")
    if "tags" in sent:
        have = tag_names(got.get("tags"))
        want = {t.casefold() for t in sent["tags"]}
        if have is not None and have != want:
            out.append(f"tags {sorted(have)} (sent {sorted(want)})")
    return out


@contextmanager
def session(ctx: RunContext) -> Iterator[Session]:
    s = Session(ctx)
    try:
        yield s
    finally:
        s.dispose()


def _unpaid(exchange: Exchange) -> CheckSkipped:
    """Tags are paid-only (spec 8): on a free plan the tag checks cannot run."""
    return CheckSkipped(
        "tags are a paid-plan field and the first --user got 402 for them: "
        "tag checks need the first --user on a paid plan"
    )


# ---------------------------------------------------------------------- the reference model
@dataclass
class Model:
    """An item as the run believes it is on the target."""

    id: int
    collection: int
    type: str
    name: str
    token: str  # the word of its name
    content: str = ""
    description: str | None = None
    metadata: dict[str, str] = field(default_factory=dict)
    parent: int | None = None
    tags: dict[str, str] = field(default_factory=dict)  # casefolded name -> name
    comments: dict[int, str] = field(default_factory=dict)
    likes: int = 0
    my_like: int | None = None


@dataclass
class MachineRun:
    """What the examples of one stateful run share: the context, what was exercised, the failure."""

    ctx: RunContext
    exercised: set[Prop] = field(default_factory=set)
    failure: BaseException | None = None
    failed_prop: Prop | None = None
    failed_at: str = ""
    paid: bool | None = None
    unpaid_note: str = ""
    examples: int = 0
    steps: int = 0

    def broke(self, exc: BaseException, prop: Prop | None, where: str) -> None:
        """Remember the first failure: the one to report, and what hypothesis' replays re-raise."""
        if self.failure is None:
            self.failure, self.failed_prop = exc, getattr(exc, "prop", None) or prop
            self.failed_at = f"example {self.examples}, step {self.steps} ({where})"

    def on(self, prop: Prop, feeds: tuple[str, ...] = ()) -> bool:
        """Whether steps about `prop` run: its operation is selected, or one that needs what it makes
        (items are made in any case); tag steps stop once the plan turned out to be free."""
        if prop.paid and self.paid is False:
            return False
        wanted = (prop.operation, *feeds)
        return prop.operation == "items.create_item" or any(self.ctx.selected(op) for op in wanted)

    def no_tags(self, exchange: Exchange) -> None:
        self.paid = False
        self.unpaid_note = str(_unpaid(exchange))


@dataclass(frozen=True)
class Action:
    """One kind of step of the machine, about `prop`; possible when `when(machine)` holds."""

    prop: Prop
    func: Callable[..., None]
    when: Callable[[Any], Any] | None = None
    weight: int = 1
    feeds: tuple[str, ...] = ()  # operations whose steps need what this one makes


def action(
    prop: Prop, when: Callable[[Any], Any] | None = None, weight: int = 1, feeds: tuple[str, ...] = ()
) -> Callable[[Callable[..., None]], Action]:
    def decorate(func: Callable[..., None]) -> Action:
        return Action(prop, func, when, weight, feeds)

    return decorate


class BehaviourMachine(RuleBasedStateMachine):
    """Steps over two collections of the run; each checks what the spec says follows from it.

    One rule picks the next action with a Random that hypothesis seeds. Hypothesis' own choice
    among many rules starts with its all-zero example (the same rule at every step) and turns
    random subsets of rules off per example (swarm testing): with the few examples that HTTP
    steps afford, most properties went unexercised. Picking uniformly among the actions that
    are possible keeps every property in play and a --seed still replays the run.
    """

    ACTIONS: tuple[Action, ...] = ()  # filled in below the class

    def __init__(self, run: MachineRun):
        if run.failure is not None:  # hypothesis replays a failure: it is known, spend no requests
            raise run.failure
        super().__init__()
        self.run = run
        run.examples += 1
        self.s = Session(run.ctx, run.exercised)
        self.serial = next(_SERIAL)
        self.cols: list[int] = []
        self.manual: set[int] = set()  # collections ordered by manual position (sort_by null)
        self.items: dict[int, Model] = {}
        self.deleted: list[Model] = []
        self.pool = [run.ctx.target.name(f"m{self.serial}{c}") for c in "ab"]  # shared tag names
        self.solo: list[str] = []  # tag names made by Create a tag

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

    def has(self, pick: Callable[[int], list[Model]]) -> list[int]:
        return [c for c in self.cols if pick(c)]

    def new_token(self) -> tuple[str, str]:
        token = word(self.s.target.run_id, next(_SERIAL))
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
                data.get("collection_id"),
                str(data.get("type")),
                name,
                name.rsplit(" ", 1)[-1],
                str(data.get("content", "")),
                data.get("description"),
                metadata(data.get("metadata")) or {},
                tags={n: n for n in tag_names(data.get("tags")) or ()},
            )
        item.collection, item.parent = data.get("collection_id"), data.get("parent_id")
        item.likes, item.my_like = data.get("reactions_total_count") or 0, None
        for reaction in data.get("reactions") or []:
            if isinstance(reaction, dict) and reaction.get("user_id") == self.s.me.id:
                item.my_like = reaction.get("id")
        self.items[item.id] = item
        return item

    def compare(self, item: Model, got: dict[str, Any], what: str, prop: Prop) -> None:
        expected = {
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
        self.s.expect(not diffs, f"{what} item {item.id} shows " + "; ".join(diffs), prop=prop)

    def listed(self, col: int, params: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        query = {"collection_id": col} if col else {}
        return self.s.listing("/v1/items", {**query, **(params or {})})

    def check_scope(self, found: list[Any], must: set[int], may: set[int], what: str, prop: Prop) -> None:
        """`found` (ids) holds every id of `must` and nothing outside `may`."""
        have = set(found)
        missing, extra = must - have, have - may
        self.s.expect(not missing, f"{what} misses {sorted(missing)}", prop=prop)
        self.s.expect(not extra, f"{what} lists {sorted(extra)}, which do not belong there", prop=prop)

    def scope(self, items: list[Model], exact: bool = False) -> tuple[set[int], set[int]]:
        """What a list of these items must hold and may hold: stack children are listed by
        List items in docs/design.md (--strict); the spec itself only makes top-level items certain."""
        every = {m.id for m in items}
        if exact or self.s.strict:
            return every, every
        return {m.id for m in items if m.parent is None}, every

    # -- setup and teardown
    @initialize()
    def make_collections(self) -> None:
        self.s.at(P_SETUP)
        try:
            for _ in range(2):
                data = self.s.new_collection(description="stateful run")
                self.cols.append(data["id"])
                if data.get("sort_by") is None:
                    self.manual.add(data["id"])
        except Exception as exc:
            self.run.broke(exc, P_SETUP, "make_collections")
            raise

    def teardown(self) -> None:
        self.s.dispose()

    @rule(draw=st.integers(min_value=0, max_value=2**32 - 1))
    def act(self, draw: int) -> None:
        run = self.run
        # hypothesis' first example draws only zeros: the step's number still varies the choices
        rnd = random.Random(f"{draw}:{run.examples}:{run.steps}")
        possible = [a for a in self.ACTIONS if run.on(a.prop, a.feeds) and (a.when is None or a.when(self))]
        chosen = rnd.choices(possible, weights=[a.weight for a in possible])[0]
        self.s.at(chosen.prop)
        run.steps += 1
        try:
            chosen.func(self, rnd)
        except Exception as exc:
            run.broke(exc, self.s.prop, chosen.func.__name__)
            raise

    # -- items
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
            self.run.no_tags(exchange)
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

    def check_stack(self, stack: Model, what: str, prop: Prop = P_STACK_ITEMS) -> None:
        got = self.s.item(stack.id, include="stack_items")
        entries = got.get("stack_items")
        self.s.expect(
            isinstance(entries, list), "GET with include=stack_items has no stack_items array", prop=prop
        )
        want = {k.id for k in self.children(stack.id)}
        self.check_scope(_ids(entries), want, want, f"{what}: include=stack_items of stack {stack.id}", prop)
        wrong = [e.get("id") for e in entries if isinstance(e, dict) and e.get("parent_id") != stack.id]
        self.s.expect(not wrong, f"{what}: children {wrong} do not have parent_id {stack.id}", prop=prop)

    @action(P_UPDATE, when=lambda self: self.items)
    def update_item(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        body: dict[str, Any] = {"name": f"{self.s.target.name('m')} {item.token} v{next(_SERIAL)}"}
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
        self.s.expect(got.status != 200, f"GET {path} of the deleted item answered 200", got)
        if self.s.strict:
            self.s.expect(
                got.status == 404, f"GET {path} of the deleted item answered {got.status}", got, P_DELETE_404
            )
        listed = _ids(self.listed(item.collection))
        self.s.expect(item.id not in listed, f"the deleted item {item.id} is still in its collection's list")
        for kid in kids:
            answer = self.s.call("GET", f"/v1/items/{kid.id}", ok=())
            if deep:
                self.s.expect(
                    answer.status != 200,
                    f"child {kid.id} of a stack deleted with delete_items=true is still served",
                    answer,
                    P_STACK_DELETE,
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
                )
            kid.parent = data.get("parent_id")

    # -- moves, stacking, tags, order, copies
    @action(P_MOVE, when=lambda self: self.items)
    def move_items(self, rnd: random.Random) -> None:
        self.move(rnd, "items", P_MOVE, P_MOVE_STACK)

    @action(P_TRANSFER, when=lambda self: self.items)
    def transfer_items(self, rnd: random.Random) -> None:
        self.move(rnd, "collection", P_TRANSFER, P_TRANSFER_STACK)

    def move(self, rnd: random.Random, via: str, prop: Prop, stack_prop: Prop) -> None:
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
                    )
                kid.collection, kid.parent = data.get("collection_id"), data.get("parent_id")

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
            self.run.no_tags(exchange)
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
        before = _ids(self.listed(col)) if self.s.strict else []
        self.s.call("PUT", f"/v1/collections/{col}/items", json_body={"order": order})
        after = self.listed(col)
        sort = {e.get("id"): e.get("sort") for e in after}
        for first, second in itertools.pairwise(order):
            a, b = sort.get(first), sort.get(second)
            self.s.expect(
                isinstance(a, int) and isinstance(b, int) and a < b,
                f"after update items order {order}, item {first} has sort {a} and item {second} sort {b}",
            )
        if self.s.strict:
            want = order + [i for i in before if i not in order]
            self.s.expect(
                _ids(after) == want,
                f"after update items order {order} the collection lists {_ids(after)}, expected {want}",
                prop=P_ORDER_LIST,
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
            f"Copy items of {len(originals)} items answered {_shape(copies)}",
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
                    )

    # -- tags
    @action(P_TAG_NEW, when=lambda self: self.items, feeds=("tags.delete_tag",))
    def create_tag(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        name = self.s.target.name(f"s{next(_SERIAL)}")
        exchange = self.s.call("POST", f"/v1/items/{item.id}/tags", ok=(201, 402), json_body={"name": name})
        if exchange.status == 402:
            self.run.no_tags(exchange)
            return
        self.run.paid = True
        data = self.s.body(exchange)
        self.s.expect(
            data.get("name") == name and isinstance(data.get("id"), int),
            f"Create a tag {name!r} answered {data}",
        )
        self.s.register("tag", f"/v1/tags/{data['id']}")
        item.tags[name.casefold()] = name
        self.solo.append(name)
        listed = tag_names(self.s.body(self.s.call("GET", f"/v1/items/{item.id}/tags"), list)) or set()
        self.s.expect(
            name.casefold() in listed, f"List item tags of item {item.id} lacks the new tag {name!r}"
        )

    def solo_tagged(self) -> list[tuple[Model, str]]:
        counts = {n.casefold(): sum(n.casefold() in m.tags for m in self.items.values()) for n in self.solo}
        return [(m, key) for m in self.items.values() for key in m.tags if counts.get(key) == 1]

    @action(P_TAG_GONE, when=lambda self: self.solo_tagged())
    def delete_tag(self, rnd: random.Random) -> None:
        item, key = rnd.choice(self.solo_tagged())
        entries = self.s.body(self.s.call("GET", f"/v1/items/{item.id}/tags"), list)
        tag_id = next(
            (e.get("id") for e in entries if isinstance(e, dict) and str(e.get("name")).casefold() == key),
            None,
        )
        self.s.expect(
            isinstance(tag_id, int),
            f"List item tags of item {item.id} lacks its tag {item.tags[key]!r}",
            prop=P_TAG_NEW,
        )
        self.s.call("DELETE", f"/v1/tags/{tag_id}")
        self.s.gone(f"/v1/tags/{tag_id}")
        del item.tags[key]
        listed = tag_names(self.s.body(self.s.call("GET", f"/v1/items/{item.id}/tags"), list)) or set()
        self.s.expect(
            key not in listed, f"the deleted tag {tag_id} ({key}) is still listed for item {item.id}"
        )

    # -- comments and likes
    @action(
        P_COMMENT_NEW,
        when=lambda self: self.items,
        feeds=("comments.update_comment", "comments.delete_comment"),
    )
    def comment(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        text = f"{self.s.target.name('note')} {rnd.randint(1, 999)}"
        data = self.s.body(
            self.s.call("POST", f"/v1/items/{item.id}/comments", ok=(201,), json_body={"body": text})
        )
        self.s.expect(
            isinstance(data.get("id"), int) and data.get("body") == text,
            f"Create a comment answered body {data.get('body')!r} (sent {text!r})",
        )
        self.s.register("comment", f"/v1/comments/{data['id']}")
        item.comments[data["id"]] = text
        self.check_comments(item)

    def check_comments(self, item: Model) -> None:
        entries = self.s.body(self.s.call("GET", f"/v1/items/{item.id}/comments"), list)
        got = {e.get("id"): e.get("body") for e in entries if isinstance(e, dict)}
        self.s.expect(
            got == item.comments, f"List comments of item {item.id} shows {got}, expected {item.comments}"
        )

    def commented(self) -> list[Model]:
        return [m for m in self.items.values() if m.comments]

    @action(P_COMMENT_EDIT, when=lambda self: self.commented())
    def edit_comment(self, rnd: random.Random) -> None:
        item = rnd.choice(self.commented())
        comment_id = rnd.choice(sorted(item.comments))
        text = f"{self.s.target.name('edited')} {rnd.randint(1, 999)}"
        self.s.call("PUT", f"/v1/comments/{comment_id}", json_body={"body": text})
        item.comments[comment_id] = text
        self.check_comments(item)

    @action(P_COMMENT_GONE, when=lambda self: self.commented())
    def delete_comment(self, rnd: random.Random) -> None:
        item = rnd.choice(self.commented())
        comment_id = rnd.choice(sorted(item.comments))
        self.s.call("DELETE", f"/v1/comments/{comment_id}")
        self.s.gone(f"/v1/comments/{comment_id}")
        del item.comments[comment_id]
        self.check_comments(item)

    @action(
        P_LIKE,
        when=lambda self: any(m.my_like is None for m in self.items.values()),
        feeds=("reactions.delete_reaction",),
    )
    def like(self, rnd: random.Random) -> None:
        item = rnd.choice([m for m in self.items.values() if m.my_like is None])
        data = self.s.body(self.s.call("POST", f"/v1/items/{item.id}/reactions", ok=(201,)))
        self.s.expect(
            isinstance(data.get("id"), int) and data.get("item_id") == item.id,
            f"Create a reaction on item {item.id} answered item_id {data.get('item_id')}",
        )
        self.s.register("reaction", f"/v1/reactions/{data['id']}")
        item.my_like, item.likes = data["id"], item.likes + 1
        self.compare(item, self.s.item(item.id), "after a like, the", P_LIKE)

    @action(P_UNLIKE, when=lambda self: any(m.my_like for m in self.items.values()))
    def unlike(self, rnd: random.Random) -> None:
        item = rnd.choice([m for m in self.items.values() if m.my_like])
        self.s.call("DELETE", f"/v1/reactions/{item.my_like}")
        self.s.gone(f"/v1/reactions/{item.my_like}")
        item.my_like, item.likes = None, item.likes - 1
        self.compare(item, self.s.item(item.id), "after deleting a like, the", P_UNLIKE)

    # -- observations
    @action(P_LIST)
    def check_list(self, rnd: random.Random) -> None:
        col, per_page = rnd.choice(self.cols), rnd.choice([1, 2, 3, 5])
        full = self.s.listing("/v1/items", {"collection_id": col}, P_PAGES)
        must, may = self.scope(self.live(col))
        self.check_scope(_ids(full), must, may, f"GET /v1/items?collection_id={col}", P_LIST)
        per_page = max(per_page, math.ceil(len(full) / 6))
        self.s.partition("/v1/items", {"collection_id": col}, per_page, full)
        got = self.s.one(f"/v1/collections/{col}", P_COLL_ONE, {"include": "items", "items_per_page": 100})
        embedded = got.get("items")
        self.s.expect(isinstance(embedded, list), "GET with include=items has no items array", prop=P_EMBED)
        self.check_scope(_ids(embedded), must, may, f"include=items of collection {col}", P_EMBED)
        count = got.get("items_total_count")
        self.s.expect(
            isinstance(count, int) and len(must) <= count <= len(may),
            f"collection {col} has items_total_count {count!r}; it holds {len(may)} live items "
            f"({len(must)} at top level)",
            prop=P_COUNT,
        )

    @action(P_FILTERS)
    def check_filter(self, rnd: random.Random) -> None:
        kind = rnd.choice(["type", "not_type", "parent_id", "tags", "q", "owned", "items_type"])
        col, anywhere = rnd.choice(self.cols), rnd.random() < 0.5
        exact = False
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
            self.check_scope(_ids(got.get("items") or []), must, may, what, P_EMBED)
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
        self.check_scope(_ids(found), must, may, f"GET /v1/items?{where}{query}", P_FILTERS)

    @action(P_ITEM_READ, when=lambda self: self.items)
    def check_item(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        self.compare(item, self.s.item(item.id), "GET of the", P_ITEM_READ)

    @action(P_TAG_COUNT, when=lambda self: self.run.paid)
    def check_tags(self, rnd: random.Random) -> None:
        names = [n.casefold() for n in [*self.pool, *self.solo]]
        counts = self.tag_counts("/v1/tags")
        want = {n: sum(n in m.tags for m in self.items.values()) for n in names}
        got = {n: counts.get(n, 0) for n in names}
        self.s.expect(got == want, f"List all tags counts the run's tags {got}, its live items carry {want}")
        if self.run.ctx.selected(P_COLL_TAGS.operation):
            col = rnd.choice(self.cols)
            counts = self.tag_counts(f"/v1/collections/{col}/tags")
            want = {n: sum(n in m.tags for m in self.live(col)) for n in names}
            got = {n: counts.get(n, 0) for n in names}
            self.s.expect(
                got == want,
                f"List collection tags of {col} counts {got}, its live items carry {want}",
                prop=P_COLL_TAGS,
            )

    def tag_counts(self, path: str) -> dict[str, int]:
        entries = self.s.body(self.s.call("GET", path), list)
        return {
            str(e.get("name")).casefold(): e.get("items_total_count") for e in entries if isinstance(e, dict)
        }

    @action(P_SEARCH, when=lambda self: self.deleted)
    def check_search(self, rnd: random.Random) -> None:
        item = rnd.choice(self.deleted)
        exchange = self.s.call("GET", "/v1/search", params={"q": item.token})
        hits = [
            e
            for e in self.s.body(exchange, list)
            if isinstance(e, dict)
            and e.get("id") == item.id
            and e.get("type") not in ("collection", "comment")
        ]
        self.s.expect(not hits, f"search for {item.token!r} still finds the deleted item {item.id}", exchange)
        if self.s.strict and self.items:
            live = self.items[rnd.choice(sorted(self.items))]
            exchange = self.s.call("GET", "/v1/search", params={"q": live.token})
            found = [e.get("id") for e in self.s.body(exchange, list) if isinstance(e, dict)]
            self.s.expect(
                live.id in found,
                f"search for {live.token!r} does not find item {live.id}",
                exchange,
                P_SEARCH_FINDS,
            )


BehaviourMachine.ACTIONS = tuple(v for v in vars(BehaviourMachine).values() if isinstance(v, Action))


def _machine_budget(ctx: RunContext) -> tuple[int, int]:
    """Examples and steps per example: a step costs about four requests (some 40 ms on the mock)."""
    if ctx.settings.quick:
        return 3, 12
    return max(2, round(ctx.settings.examples / 2)), 40


MACHINE_PROPS = [v for v in globals().values() if isinstance(v, Prop)]


@check(
    LAYER,
    "items.create_item",
    "stateful model of collections, items, stacks, tags, comments, likes",
    "spec 4.1, 4.2, 4.5, 4.6, 4.8",
    records_own=True,
)
def stateful_model(ctx: RunContext) -> None:
    """Run the machine, then record one outcome per property it exercised (one failure at most)."""
    if not any(ctx.selected(p.operation) for p in MACHINE_PROPS):
        return
    run = MachineRun(ctx)
    examples, steps = _machine_budget(ctx)
    settings = hypothesis_settings(
        max_examples=examples,
        stateful_step_count=steps,
        phases=[Phase.explicit, Phase.generate],  # no shrinking: every step costs requests
        database=None,
        deadline=None,
        derandomize=False,
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=False,
        print_blob=False,
    )
    # the test run_state_machine_as_test runs, taken as such so that hypothesis.seed applies to it
    test = get_state_machine_test(functools.partial(BehaviourMachine, run), settings=settings)
    start = time.monotonic()
    try:
        hypothesis_seed(ctx.settings.seed)(test)()
    except Exception as exc:  # what hypothesis re-raises (possibly wrapped); the first failure is in run
        if run.failure is None:
            run.failure, run.failed_prop = exc, P_RUN
    seconds = time.monotonic() - start
    _record_machine(ctx, run, seconds)


def _record_machine(ctx: RunContext, run: MachineRun, seconds: float) -> None:
    strict = ctx.settings.strict
    failed = run.failed_prop or (P_RUN if run.failure else None)
    props = set(run.exercised) | ({failed} if failed else set())
    summary = f"{run.examples} example(s), {run.steps} steps, --seed {ctx.settings.seed}"
    for prop in sorted(props, key=lambda p: (p.operation, p.name)):
        if prop is not failed and (not ctx.selected(prop.operation) or (prop.strict and not strict)):
            continue
        outcome = Outcome(LAYER, prop.operation, f"stateful: {prop.name}", PASS, prop.rule, summary)
        if prop is failed:
            failure = run.failure
            if isinstance(failure, CheckFailed):
                outcome.status, outcome.exchange = FAIL, failure.exchange
                outcome.message = f"{failure.message} [stateful run: {run.failed_at}; {summary}]"
            else:
                outcome.status = ERROR
                outcome.message = f"{type(failure).__name__}: {failure} [stateful run: {run.failed_at}]"
            outcome.seconds = seconds
        ctx.results.record(outcome)
    if run.paid is False:
        for prop in sorted({p for p in MACHINE_PROPS if p.paid}, key=lambda p: (p.operation, p.name)):
            if ctx.selected(prop.operation):
                ctx.results.record(
                    Outcome(LAYER, prop.operation, f"stateful: {prop.name}", SKIP, prop.rule, run.unpaid_note)
                )


# ---------------------------------------------------------------------- example checks
def _check_fields(s: Session, sent: dict[str, Any], got: dict[str, Any], what: str) -> None:
    diffs = differences(sent, got)
    s.expect(not diffs, f"{what} shows " + "; ".join(diffs))


@check(
    LAYER,
    "collections.create_collection",
    "a created collection reads back with the fields sent",
    "spec 4.1 Create a collection (201, Collection), Get a collection",
)
def created_collection_reads_back(ctx: RunContext) -> None:
    with session(ctx) as s:
        sent = {"name": ctx.target.name("readback"), "type": "public", "description": "made by the suite"}
        data = s.new_collection(**sent)
        wrong = {k: data.get(k) for k, v in sent.items() if data.get(k) != v}
        s.expect(not wrong, f"Create a collection answered {wrong}, sent {sent}")
        got = s.collection(data["id"])
        wrong = {k: got.get(k) for k, v in sent.items() if got.get(k) != v}
        s.expect(not wrong, f"GET of the new collection shows {wrong}, sent {sent}")


@check(LAYER, "collections.get_collection", "Get a collection is an array of one", _R_ONE)
def collection_array_of_one(ctx: RunContext) -> None:
    with session(ctx) as s:
        s.collection(s.new_collection()["id"])


@check(
    LAYER,
    "collections.update_collection",
    "an update persists (a later GET shows it)",
    "spec 4.1 Update a collection (200, Collection); spec 3: type as sent",
)
def collection_update_persists(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        sent = {"name": ctx.target.name("renamed"), "description": "changed", "type": "public"}
        data = s.body(s.call("PUT", f"/v1/collections/{cid}", json_body=sent))
        wrong = {k: data.get(k) for k, v in sent.items() if data.get(k) != v}
        s.expect(not wrong, f"Update a collection answered {wrong}, sent {sent}")
        got = s.collection(cid)
        wrong = {k: got.get(k) for k, v in sent.items() if got.get(k) != v}
        s.expect(not wrong, f"a GET after Update a collection shows {wrong}, sent {sent}")


def _counts(s: Session) -> dict[str, Any]:
    return s.body(s.call("GET", "/v1/collections/count"))


def _collection_ids(s: Session, params: dict[str, Any] | None = None) -> list[Any]:
    return _ids(s.listing("/v1/collections", params or {}))


@check(
    LAYER,
    "collections.delete_collection",
    "a deleted collection is gone from get, lists and counts",
    "spec 4.1 Delete a collection (200, message deleted); Get collections count",
)
def deleted_collection_is_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        cid = data["id"]
        before = _counts(s)
        s.expect(cid in _collection_ids(s), f"the new collection {cid} is not in List collections")
        path = f"/v1/collections/{cid}"
        s.call("DELETE", path)
        s.gone(path)
        s.collections.remove(cid)
        got = s.call("GET", path, ok=())
        s.expect(got.status != 200, f"GET {path} of the deleted collection answered 200", got)
        s.expect(cid not in _collection_ids(s), f"the deleted collection {cid} is still in List collections")
        after = _counts(s)
        for key in ("total", "owned"):
            s.expect(
                isinstance(before.get(key), int) and after.get(key) == before[key] - 1,
                f"Get collections count {key} went from {before.get(key)} to {after.get(key)} "
                "when a collection was deleted",
            )


@check(
    LAYER,
    "collections.delete_collection",
    "a deleted collection's GET is 404, its items go with it",
    "docs/design.md: an unknown id is a 404; deleting a collection soft-deletes its items",
    strict=True,
)
def deleted_collection_404(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        item = s.add_item(cid)
        path = f"/v1/collections/{cid}"
        s.call("DELETE", path)
        s.gone(path)
        s.collections.remove(cid)
        got = s.call("GET", path, ok=())
        s.expect(got.status == 404, f"GET {path} of the deleted collection answered {got.status}", got)
        got = s.call("GET", f"/v1/items/{item['id']}", ok=())
        s.expect(got.status == 404, f"the item {item['id']} of the deleted collection answered {got.status}")
        s.gone(f"/v1/items/{item['id']}")


@check(
    LAYER,
    "collections.get_collections_count",
    "counts follow creation, archiving and deletion",
    "spec 4.1 Get collections count; spec 3: archived=true (paid)",
)
def collection_counts_follow(ctx: RunContext) -> None:
    with session(ctx) as s:
        before = _counts(s)
        cid = s.new_collection()["id"]
        made = _counts(s)
        for key in ("total", "owned"):
            s.expect(
                made.get(key) == before.get(key, 0) + 1,
                f"{key} went from {before.get(key)} to {made.get(key)} when a collection was created",
            )
        archived = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"archived": True})
        if archived.status == 200:
            now = _counts(s)
            s.expect(
                now.get("archived") == made.get("archived", 0) + 1,
                f"archived went from {made.get('archived')} to {now.get('archived')} when one was archived",
            )
        s.call("DELETE", f"/v1/collections/{cid}")
        s.gone(f"/v1/collections/{cid}")
        s.collections.remove(cid)
        after = _counts(s)
        s.expect(after == before, f"the counts after deleting the collection are {after}, before it {before}")


@check(
    LAYER,
    "collections.list_collections",
    "archived collections are listed under status=archived",
    "spec 3: PUT collection with archived=true (paid): the collection is listed under status archived",
)
def archived_are_listed(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        exchange = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"archived": True})
        if exchange.status == 402:
            raise CheckSkipped(
                "archived is a paid-plan field and the first --user got 402: needs a paid plan"
            )
        s.expect(s.collection(cid).get("archived") is True, "a GET after archiving shows archived false")
        s.expect(
            cid in _collection_ids(s, {"status": "archived"}),
            f"the archived collection {cid} is not listed under status=archived",
        )
        if ctx.settings.strict:  # docs/design.md: archived ones appear only under status=archived
            s.expect(cid not in _collection_ids(s), f"the archived collection {cid} is in the default list")
        s.call("PUT", f"/v1/collections/{cid}", json_body={"archived": False})
        s.expect(
            cid not in _collection_ids(s, {"status": "archived"}),
            f"collection {cid} is still listed under status=archived after archived=false",
        )


@check(LAYER, "collections.list_collections", "pages partition the list (X-Total-Count, per_page)", _R_PAGES)
def collections_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        for _ in range(3):
            s.new_collection()
        full = s.listing("/v1/collections", {}, P_PAGES)
        per_page = max(2, math.ceil(len(full) / 6))
        s.partition("/v1/collections", {}, per_page, full)


@check(
    LAYER,
    "collections.list_collections",
    "owned and q filter the list",
    "spec 4.1 List collections query: owned, q",
)
def collections_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = word(ctx.target.run_id, next(_SERIAL))
        cid = s.new_collection(name=f"{ctx.target.name('find')} {token}")["id"]
        s.new_collection()
        owned = s.listing("/v1/collections", {"owned": "true"})
        others = [c.get("id") for c in owned if c.get("user_id") != s.me.id]
        s.expect(cid in _ids(owned), f"owned=true does not list the caller's new collection {cid}")
        s.expect(not others, f"owned=true lists {others}, owned by someone else")
        found = s.listing("/v1/collections", {"q": token})
        s.expect(_ids(found) == [cid], f"q={token} lists {_ids(found)}; only collection {cid} has that word")


@check(LAYER, "items.create_item", "a created item reads back with the fields sent", _R_CREATE)
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


@check(LAYER, "items.get_item", "Get an item is an array of one", _R_ONE)
def item_array_of_one(ctx: RunContext) -> None:
    with session(ctx) as s:
        s.item(s.add_item(s.new_collection()["id"])["id"])


@check(LAYER, "items.update_item", "an update persists (a later GET shows it)", _R_UPDATE)
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
        s.expect(not diffs, "a GET after Update an item shows " + "; ".join(diffs))


def _search_finds(s: Session, token: str, item_id: int) -> bool:
    hits = s.body(s.call("GET", "/v1/search", params={"q": token}), list)
    return any(
        isinstance(h, dict) and h.get("id") == item_id and h.get("type") not in ("collection", "comment")
        for h in hits
    )


@check(LAYER, "items.delete_item", "a deleted item is gone from get, lists and counts", _R_GONE)
def deleted_item_is_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        keep, item = s.add_item(cid), s.add_item(cid)
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        got = s.call("GET", path, ok=())
        s.expect(got.status != 200, f"GET {path} of the deleted item answered 200", got)
        listed = _ids(s.listing("/v1/items", {"collection_id": cid}))
        s.expect(item["id"] not in listed, f"the deleted item {item['id']} is still in its collection's list")
        s.expect(listed == [keep["id"]], f"after deleting item {item['id']} the collection lists {listed}")
        count = s.collection(cid).get("items_total_count")
        s.expect(count == 1, f"items_total_count is {count!r} with one live item left")
        everywhere = _ids(s.listing("/v1/items", {"q": item["name"].rsplit(" ", 1)[-1]}))
        s.expect(item["id"] not in everywhere, f"List items with q still finds the deleted item {item['id']}")


@check(LAYER, "items.delete_item", "a deleted item's GET answers 404", _R_404, strict=True)
def deleted_item_404(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        got = s.call("GET", path, ok=())
        s.expect(got.status == 404, f"GET {path} of the deleted item answered {got.status}", got)


@check(LAYER, "search.search", "a deleted item is no longer found", _R_SEARCH)
def deleted_item_not_found(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        token = item["name"].rsplit(" ", 1)[-1]
        if not _search_finds(s, token, item["id"]):
            if ctx.settings.strict:
                s.fail(f"search for {token!r}, a word of a new item's name, does not find it")
            raise CheckSkipped("search did not find a new item by a word of its name (an index that lags?)")
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        s.expect(
            not _search_finds(s, token, item["id"]), f"search for {token!r} still finds the deleted item"
        )


@check(LAYER, "items.list_items", "pages partition the list (X-Total-Count, per_page)", _R_PAGES)
def items_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(7):
            s.add_item(cid)
        full = s.listing("/v1/items", {"collection_id": cid}, P_PAGES)
        s.expect(len(full) == 7, f"a collection of 7 new items lists {len(full)}")
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
            s.body(exchange, list) == [] and _total(exchange) == 1,
            f"page 3 of a one-item list answered {_shape(exchange.json())}, X-Total-Count "
            f"{exchange.header('X-Total-Count')}",
        )


@check(LAYER, "items.list_items", "per_page defaults to 24", "design.md, paging: per_page 24", strict=True)
def default_page_size(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        for _ in range(25):
            s.add_item(cid)
        exchange = s.call("GET", "/v1/items", params={"collection_id": cid})
        s.expect(
            len(s.body(exchange, list)) == 24 and _total(exchange) == 25,
            f"a list of 25 without per_page answered {_shape(exchange.json())}, "
            f"X-Total-Count {exchange.header('X-Total-Count')}",
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
        total = _total(exchange)
        if total is not None and 80 < total <= 100:  # a few more make the list long enough
            cid = s.new_collection()["id"]
            for _ in range(101 - total):
                s.add_item(cid)
            exchange = s.call("GET", "/v1/items", params={"per_page": 250})
            total = _total(exchange)
        if total is None or total <= 100:
            raise CheckSkipped(
                f"needs more than 100 items visible to the first --user (X-Total-Count {total})"
            )
        got = s.body(exchange, list)
        s.expect(len(got) == 100, f"per_page=250 answered {_shape(got)} of {total}")


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


def _expect_listed(s: Session, params: dict[str, Any], must: list[dict], may: list[dict]) -> None:
    found = set(_ids(s.listing("/v1/items", params)))
    want, allowed = {m["id"] for m in must}, {m["id"] for m in may}
    query = "&".join(f"{k}={v}" for k, v in params.items())
    s.expect(want <= found, f"GET /v1/items?{query} misses {sorted(want - found)}")
    s.expect(found <= allowed, f"GET /v1/items?{query} lists {sorted(found - allowed)}, which do not match")


@check(
    LAYER,
    "items.list_items",
    "filters filter: collection_id, type, not_type, parent_id, q, owned",
    _R_FILTERS,
)
def items_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid, m = _filter_world(s, paid=False)
        top = [m["text"], m["link"], m["stack"]]
        every = [*top, m["other"], m["child"]]
        exact = ctx.settings.strict  # docs/design.md: stack children are listed too

        def upto(items: list[dict]) -> list[dict]:
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
        s.expect(not others, f"GET /v1/items?owned=true lists {others}, made by someone else")


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
            raise _unpaid(probe)
        _, m = _filter_world(s, paid=True)
        fa, fb = ctx.target.name("fa"), ctx.target.name("fb")
        _expect_listed(s, {"tags": fa}, [m["text"], m["link"]], [m["text"], m["link"]])
        both = [m["link"]] if ctx.settings.strict else [m["text"], m["link"]]  # docs/design.md: every tag
        _expect_listed(s, {"tags": [fa, fb]}, [m["link"]], both)


@check(LAYER, "collections.update_items", "update items order sets the positions asked", _R_ORDER)
def items_order(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        if data.get("sort_by") is not None:
            raise CheckSkipped(f"a new collection has sort_by {data.get('sort_by')!r}, not manual order")
        cid = data["id"]
        a, b, c, d = (s.add_item(cid)["id"] for _ in range(4))
        s.call("PUT", f"/v1/collections/{cid}/items", json_body={"order": [d, b]})
        listed = s.listing("/v1/items", {"collection_id": cid})
        sort = {i.get("id"): i.get("sort") for i in listed}
        s.expect(
            isinstance(sort.get(d), int) and isinstance(sort.get(b), int) and sort[d] < sort[b],
            f"after order [{d}, {b}] item {d} has sort {sort.get(d)!r}, item {b} {sort.get(b)!r}",
        )
        if ctx.settings.strict:
            s.expect(
                _ids(listed) == [d, b, a, c],
                f"after order [{d}, {b}] the collection lists {_ids(listed)}, expected {[d, b, a, c]}",
            )


def _moved(s: Session, item_id: int, dest: int, before: dict[str, Any], what: str) -> None:
    got = s.item(item_id)
    s.expect(
        got.get("collection_id") == dest,
        f"{what}: item {item_id} has collection_id {got.get('collection_id')}",
    )
    for name, read in (("tags", tag_names), ("metadata", metadata)):
        s.expect(
            read(got.get(name)) == read(before.get(name)),
            f"{what}: item {item_id} has {name} {got.get(name)}, before the move {before.get(name)}",
        )


def _tagged_item(s: Session, cid: int, **fields: Any) -> dict[str, Any]:
    """An item with tags if the plan allows (else without) and metadata."""
    exchange, _ = s.new_item(cid, ok=(201, 402), tags=[s.target.name("mv")], metadata={"k": "v"}, **fields)
    if exchange.status == 402:
        exchange, _ = s.new_item(cid, metadata={"k": "v"}, **fields)
    return s.body(exchange)


@check(
    LAYER,
    "collections.update_items",
    "update items moves items and stacks them into a stack",
    _R_UPDATE_ITEMS,
)
def update_items_moves(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        item, stay = _tagged_item(s, source), s.add_item(source)
        s.call(
            "PUT", f"/v1/collections/{source}/items", json_body={"items": [item["id"]], "collection_id": dest}
        )
        _moved(s, item["id"], dest, item, f"after update items to collection {dest}")
        s.expect(
            _ids(s.listing("/v1/items", {"collection_id": source})) == [stay["id"]],
            f"the source collection still lists the moved item {item['id']}",
        )
        count = s.collection(dest).get("items_total_count")
        s.expect(count == 1, f"the destination's items_total_count is {count!r} after one item moved in")
        stack = s.add_item(dest, type="stack")
        s.call(
            "PUT",
            f"/v1/collections/{dest}/items",
            json_body={"items": [item["id"]], "parent_id": stack["id"]},
        )
        got = s.item(item["id"])
        s.expect(
            got.get("parent_id") == stack["id"],
            f"after update items with parent_id {stack['id']} the item has parent_id {got.get('parent_id')}",
        )
        kids = _ids(s.item(stack["id"], include="stack_items").get("stack_items") or [])
        s.expect(kids == [item["id"]], f"the stack's include=stack_items lists {kids}")


@check(LAYER, "collections.update_items", "update items with tags adds the tags", _R_UPDATE_ITEMS)
def update_items_tags(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        first, _ = s.new_item(cid, ok=(201, 402), tags=[ctx.target.name("old")])
        if first.status == 402:
            raise _unpaid(first)
        second = s.add_item(cid)
        new = ctx.target.name("new")
        s.call(
            "PUT",
            f"/v1/collections/{cid}/items",
            json_body={"items": [first.json()["id"], second["id"]], "tags": [new]},
        )
        for item_id, want in ((first.json()["id"], {ctx.target.name("old"), new}), (second["id"], {new})):
            have = tag_names(s.item(item_id).get("tags"))
            want = {w.casefold() for w in want}
            s.expect(
                have == want,
                f"after update items with tags [{new}], item {item_id} has tags {have}, not {want}",
            )


@check(
    LAYER,
    "items.update_multiple_items",
    "moved items land in the destination with tags and metadata",
    _R_MOVE,
)
def multiple_items_move(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        one, two, stay = _tagged_item(s, source), _tagged_item(s, source), s.add_item(source)
        s.call("PUT", "/v1/items", json_body={"items": [one["id"], two["id"]], "collection_id": dest})
        for item in (one, two):
            _moved(s, item["id"], dest, item, f"after PUT /v1/items to collection {dest}")
        counts = (s.collection(source).get("items_total_count"), s.collection(dest).get("items_total_count"))
        s.expect(
            counts == (1, 2), f"items_total_count of source and destination are {counts}, expected (1, 2)"
        )
        listed = _ids(s.listing("/v1/items", {"collection_id": dest}))
        s.expect(sorted(listed) == sorted([one["id"], two["id"]]), f"the destination lists {listed}")
        s.expect(
            _ids(s.listing("/v1/items", {"collection_id": source})) == [stay["id"]],
            "the source collection still lists a moved item",
        )


@check(LAYER, "items.copy_items", "copies land where asked with tags and metadata, without comments", _R_COPY)
def copies(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        original = _tagged_item(s, source, description="copied")
        note = s.body(
            s.call("POST", f"/v1/items/{original['id']}/comments", ok=(201,), json_body={"body": "x"})
        )
        s.register("comment", f"/v1/comments/{note.get('id')}")
        for body, where in (({"collection_id": dest}, dest), ({}, source)):
            exchange = s.call(
                "PUT", "/v1/items/copy", ok=(201,), json_body={"items": [original["id"]], **body}
            )
            answer = s.body(exchange, list)
            s.expect(
                len(answer) == 1 and isinstance(answer[0], dict) and isinstance(answer[0].get("id"), int),
                f"Copy items of one item answered {_shape(answer)}",
            )
            copy_id = answer[0]["id"]
            s.register("item", f"/v1/items/{copy_id}")
            s.expect(copy_id != original["id"], "the copy has the original's id", exchange)
            got = s.item(copy_id)
            what = f"the copy {'into collection ' + str(dest) if body else 'without collection_id'}"
            s.expect(got.get("collection_id") == where, f"{what} is in collection {got.get('collection_id')}")
            for name in ("type", "name", "content", "description"):
                s.expect(
                    got.get(name) == original.get(name),
                    f"{what} has {name} {got.get(name)!r}, the original {original.get(name)!r}",
                )
            for name, read in (("tags", tag_names), ("metadata", metadata)):
                s.expect(
                    read(got.get(name)) == read(original.get(name)),
                    f"{what} has {name} {got.get(name)}, the original {original.get(name)}",
                )
            comments = s.body(s.call("GET", f"/v1/items/{copy_id}/comments"), list)
            s.expect(comments == [], f"{what} has {len(comments)} comment(s); comments are not copied")
        left = s.body(s.call("GET", f"/v1/items/{original['id']}/comments"), list)
        s.expect(len(left) == 1, f"the original has {len(left)} comments after being copied, it had 1")


@check(
    LAYER, "items.get_item", "a stack holds its children (include=stack_items, parent_id filter)", _R_STACK
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
            isinstance(got, list) and set(_ids(got)) == want,
            f"include=stack_items lists {_ids(got or [])}, the stack holds {sorted(want)}",
        )
        listed = set(_ids(s.listing("/v1/items", {"parent_id": stack["id"]})))
        s.expect(
            listed == want, f"parent_id={stack['id']} lists {sorted(listed)}, the stack holds {sorted(want)}"
        )
        for kid in want:
            s.expect(
                s.item(kid).get("parent_id") == stack["id"],
                f"child {kid} does not have parent_id {stack['id']}",
            )


@check(
    LAYER,
    "items.delete_item",
    "delete_items=true deletes a stack's children, without it they stay",
    _R_STACK_DELETE,
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
                        got.status != 200,
                        f"child {kid} of a stack deleted with delete_items=true answered 200",
                    )
                    s.gone(f"/v1/items/{kid}")
                else:
                    s.expect(
                        got.status == 200,
                        f"child {kid} of a stack deleted without delete_items answered {got.status}",
                    )
                    if ctx.settings.strict:  # docs/design.md: they move to top level
                        parent = s.body(got, list)[0].get("parent_id")
                        s.expect(parent is None, f"child {kid} of the deleted stack has parent_id {parent}")


@check(LAYER, "reactions.create_reaction", "reactions_total_count follows likes", _R_LIKE)
def likes_count(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        path = f"/v1/items/{item['id']}"
        like = s.body(s.call("POST", f"{path}/reactions", ok=(201,)))
        s.expect(isinstance(like.get("id"), int), "the new reaction has no integer id")
        s.register("reaction", f"/v1/reactions/{like['id']}")
        s.expect(
            s.item(item["id"]).get("reactions_total_count") == 1,
            "reactions_total_count is not 1 after a like",
        )
        listed = _ids(s.body(s.call("GET", f"{path}/reactions"), list))
        s.expect(listed == [like["id"]], f"List reactions shows {listed} after one like")
        s.call("DELETE", f"/v1/reactions/{like['id']}")
        s.gone(f"/v1/reactions/{like['id']}")
        s.expect(
            s.item(item["id"]).get("reactions_total_count") == 0,
            "reactions_total_count is not 0 after the like was deleted",
        )
        s.expect(
            s.body(s.call("GET", f"{path}/reactions"), list) == [],
            "List reactions still shows a deleted like",
        )


@check(
    LAYER,
    "collections.add_collaborator",
    "users_total_count follows collaborators",
    "spec 4.1 Add / Remove a collaborator; spec 2.1 users_total_count",
    users=2,
)
def collaborators_count(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        cid, other = data["id"], ctx.settings.users[1].id
        before = data.get("users_total_count")
        added = s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other})
        path = f"/v1/collections/{cid}/users/{other}"
        s.register("collaborator", path)
        s.expect(s.body(added).get("id") == other, f"Add a collaborator answered id {added.json().get('id')}")
        s.expect(
            other in _ids(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list)),
            f"List collaborators lacks the added user {other}",
        )
        count = s.collection(cid).get("users_total_count")
        s.expect(
            isinstance(before, int) and count == before + 1,
            f"users_total_count went from {before} to {count} when a collaborator was added",
        )
        s.call("DELETE", path)
        s.gone(path)
        count = s.collection(cid).get("users_total_count")
        s.expect(
            count == before, f"users_total_count is {count} after the collaborator left, {before} before"
        )
        s.expect(
            other not in _ids(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list)),
            f"List collaborators still shows the removed user {other}",
        )


@check(LAYER, "tags.list_tags", "tag counts follow tagging and deletions", _R_TAG_COUNT)
def tag_counts(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        name = ctx.target.name("counted")
        first, _ = s.new_item(cid, ok=(201, 402), tags=[name])
        if first.status == 402:
            raise _unpaid(first)
        second = s.add_item(cid, tags=[name])

        def counted(path: str) -> Any:
            entries = s.body(s.call("GET", path), list)
            return next(
                (
                    e.get("items_total_count")
                    for e in entries
                    if isinstance(e, dict) and str(e.get("name")).casefold() == name.casefold()
                ),
                0,
            )

        for path in ("/v1/tags", f"/v1/collections/{cid}/tags"):
            s.expect(counted(path) == 2, f"GET {path} counts {counted(path)} items tagged {name!r}, 2 are")
        s.call("DELETE", f"/v1/items/{second['id']}")
        s.gone(f"/v1/items/{second['id']}")
        s.expect(
            counted("/v1/tags") == 1,
            f"List all tags counts {counted('/v1/tags')} items tagged {name!r} "
            "after one of the two was deleted",
        )
        tags = s.body(s.call("GET", f"/v1/items/{first.json()['id']}/tags"), list)
        tag_id = next((t.get("id") for t in tags if isinstance(t, dict)), None)
        s.expect(isinstance(tag_id, int), f"List item tags shows {tags}")
        s.call("DELETE", f"/v1/tags/{tag_id}")
        s.expect(
            counted("/v1/tags") == 0, f"List all tags still counts {name!r} after its last tag was deleted"
        )
