"""The behaviour layer's view of a target over HTTP: a `Session` (requests as the main actor,
expectations that fail with the last exchange, whole lists read page by page, what it made
registered for the run's cleanup), the helpers that read answers tolerantly, the readers many
checks share (search, tag counts, the current user, ...) and the skips they share (`unpaid`,
`search_lags`).

The session itself checks two properties on every read: a resource is given as an array of
one, and pages partition a list. They are declared here, beside the code that checks them, as
properties of the stateful machine (which records them; `stateful_property`).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn, TypeVar

import httpx

from .failures import (
    CheckFailed,
    CheckSkipped,
    NotHonoured,
    NotStored,
    SchemaViolation,
    StaleCount,
    WrongStatus,
    expect,
)
from .registry import Check, RunContext, declare
from .settings import User
from .target import Exchange

LAYER = "behaviour"
FULL_PAGE = 100  # per_page for reading a whole (small) list
MAX_PAGES = 20  # pages read of one list before giving up on it
SERIAL = itertools.count(1)  # unique words in names, across the whole run


RECORDER = "stateful_model"  # the machine's check (behaviour/machine/machine.py): it records the properties


def stateful_property(
    short: str,
    operation: str,
    name: str,
    rule: str = "",
    *,
    strict: bool = False,
    paid: bool = False,
    statements: tuple[str, ...] = (),
) -> Check:
    """Declare a property that the stateful machine checks and records; its id is stateful_model.<short>."""
    return declare(
        LAYER,
        operation,
        f"stateful: {name}",
        rule,
        id=f"{RECORDER}.{short}",
        recorded_by=RECORDER,
        strict=strict,
        paid=paid,
        statements=statements,
    )


P_ITEM_ONE = stateful_property(
    "item_one", "items.get_item", "Get an item is an array of one", statements=("4.2/get-item",)
)
P_COLL_ONE = stateful_property(
    "collection_one",
    "collections.get_collection",
    "Get a collection is an array of one",
    statements=("4.1/get-collection",),
)
P_PAGES = stateful_property(
    "pages",
    "items.list_items",
    "pages partition the list (X-Total-Count, per_page)",
    statements=("4.2/list-items", "8/paging"),
)


# ---------------------------------------------------------------------- HTTP with expectations
class Session:
    """The layer's view of the target: requests as the main actor, expectations that fail with
    the last exchange, and what it made (registered for the run's cleanup, newest first)."""

    def __init__(self, ctx: RunContext, exercised: set[Check] | None = None):
        self.ctx = ctx
        self.target = ctx.target
        self.me = ctx.settings.users[0]
        self.strict = ctx.settings.strict
        self.prop: Check | None = None  # the property the machine's step is about
        self.exercised = exercised if exercised is not None else set()
        self.last: Exchange | None = None
        self.collections: list[int] = []
        self.paths: list[str] = []  # items, tags, comments, likes, collaborators it registered

    # -- properties and failures
    def at(self, prop: Check) -> None:
        self.prop = prop
        self.exercised.add(prop)

    def fail(
        self,
        message: str,
        exchange: Exchange | None = None,
        prop: Check | None = None,
        kind: type[CheckFailed] = CheckFailed,
    ) -> NoReturn:
        """Raise `kind` with the last exchange, naming the property it broke (for the machine)."""
        failure = kind(message, exchange or self.last)
        failure.check = prop or self.prop
        raise failure

    def expect(
        self,
        cond: object,
        message: str,
        exchange: Exchange | None = None,
        prop: Check | None = None,
        kind: type[CheckFailed] = CheckFailed,
    ) -> None:
        if prop is not None:
            self.exercised.add(prop)
        if not cond:
            self.fail(message, exchange, prop, kind)

    # -- requests
    def call(
        self, method: str, path: str, ok: tuple[int, ...] = (200,), user: User | None = None, **kwargs: Any
    ) -> Exchange:
        """A request as the main actor (or `user`), failing unless its status is one of `ok`."""
        exchange = self.target.request(method, path, user=user or self.me, **kwargs)
        self.last = exchange
        if ok and exchange.status not in ok:
            wanted = " or ".join(map(str, ok))
            who = f" as user {user.id}" if user else ""
            self.fail(
                f"{method} {path}{who} answered {exchange.status}, expected {wanted}",
                exchange,
                kind=WrongStatus,
            )
        return exchange

    def body(self, exchange: Exchange, kind: type = dict) -> Any:
        data = exchange.json()
        if not isinstance(data, kind):
            shape = "array" if kind is list else "object"
            message = f"{exchange.method} {path_of(exchange)} did not answer a JSON {shape}"
            self.fail(message, exchange, kind=SchemaViolation)
        return data

    def one(self, path: str, prop: Check, params: Any = None) -> dict[str, Any]:
        """GET of a collection or an item: the spec gives the resource as an array of one."""
        exchange = self.call("GET", path, params=params)
        data = exchange.json()
        self.expect(
            isinstance(data, list) and len(data) == 1 and isinstance(data[0], dict),
            f"GET {path} answered {shape_of(data)}, not an array of one object",
            exchange,
            prop,
            SchemaViolation,
        )
        first: dict[str, Any] = data[0]
        return first

    def item(self, item_id: int, include: str | None = None) -> dict[str, Any]:
        return self.one(f"/v1/items/{item_id}", P_ITEM_ONE, {"include": include} if include else None)

    def collection(self, collection_id: int) -> dict[str, Any]:
        return self.one(f"/v1/collections/{collection_id}", P_COLL_ONE)

    def listing(self, path: str, params: dict[str, Any], prop: Check | None = None) -> list[dict[str, Any]]:
        """A whole list, asked FULL_PAGE entries at a time until X-Total-Count entries came (or, on a
        list without it, a short page). With `prop` (a check about lists), its X-Total-Count must be
        its length; otherwise the list is only a tool."""
        entries: list[dict[str, Any]] = []
        for page in range(1, MAX_PAGES + 1):
            exchange = self.call("GET", path, params={**params, "page": page, "per_page": FULL_PAGE})
            chunk = self.body(exchange, list)
            objects = all(isinstance(e, dict) for e in chunk)
            self.expect(objects, f"GET {path} lists a non-object", exchange, kind=SchemaViolation)
            entries += chunk
            # a server may serve fewer a page than asked (spec 8 sets no maximum): X-Total-Count says
            # whether there is more, where the list has it
            total = total_count(exchange)
            if not chunk or (len(entries) >= total if total is not None else len(chunk) < FULL_PAGE):
                break
        if prop is not None:
            total = total_count(exchange)
            missing = f"GET {path} has no integer X-Total-Count header"
            self.expect(total is not None, missing, exchange, prop, SchemaViolation)
            self.expect(
                total == len(entries),
                f"X-Total-Count says {total}, but the list holds {len(entries)} entries",
                exchange,
                prop,
                StaleCount,
            )
        return entries

    def partition(self, path: str, params: dict[str, Any], per_page: int, full: list[dict[str, Any]]) -> None:
        """Pages of per_page entries, concatenated, are the whole list: same entries, same order."""
        want = [e.get("id") for e in full]
        got: list[Any] = []
        for page in range(1, math.ceil(len(want) / per_page) + 1):
            exchange = self.call("GET", path, params={**params, "page": page, "per_page": per_page})
            chunk: list[Any] = [e.get("id") if isinstance(e, dict) else e for e in self.body(exchange, list)]
            size = min(per_page, len(want) - len(got))
            self.expect(
                total_count(exchange) == len(want),
                f"page {page} says X-Total-Count {exchange.header('X-Total-Count')}, "
                f"the list holds {len(want)}",
                exchange,
                P_PAGES,
                StaleCount,
            )
            self.expect(
                len(chunk) == size,
                f"page {page} with per_page={per_page} has {len(chunk)} entries, expected {size} "
                f"(the list holds {len(want)})",
                exchange,
                P_PAGES,
                NotHonoured,
            )
            dup = set(chunk) & set(got)
            repeats = f"page {page} repeats {sorted(dup)} of an earlier page"
            self.expect(not dup, repeats, exchange, P_PAGES, NotHonoured)
            got += chunk
            self.expect(
                got == want[: len(got)],
                f"pages 1..{page} with per_page={per_page} list {got}, "
                f"the whole list starts {want[: len(got)]}",
                exchange,
                P_PAGES,
                NotHonoured,
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
        body = {"name": self.target.name(f"c{next(SERIAL)}"), "type": "private", **fields}
        exchange = self.call("POST", "/v1/collections", ok=(201,), json_body=body)
        data: dict[str, Any] = self.body(exchange)
        self.expect(isinstance(data.get("id"), int), "the new collection has no integer id", exchange)
        self.target.created("collection", f"/v1/collections/{data['id']}", self.me)
        self.collections.append(data["id"])
        return data

    def new_item(
        self, collection_id: int, ok: tuple[int, ...] = (201,), **fields: Any
    ) -> tuple[Exchange, dict[str, Any]]:
        """POST an item (a text item unless said otherwise), registered when made; and what was sent."""
        serial = next(SERIAL)
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
        data: dict[str, Any] = self.body(self.new_item(collection_id, **fields)[0])
        return data

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


def path_of(exchange: Exchange) -> str:
    return "/" + exchange.url.split("://", 1)[-1].split("/", 1)[-1]


def shape_of(data: Any) -> str:
    if isinstance(data, list):
        return f"an array of {len(data)}"
    return "an object" if isinstance(data, dict) else repr(data)[:60]


def total_count(exchange: Exchange) -> int | None:
    value = exchange.header("X-Total-Count")
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def served_live(exchange: Exchange) -> bool:
    """A GET of a deleted item serves it as live: a 2xx whose item is not marked deleted. Spec 2.2
    gives an item deleted_at and spec 3 leaves the lifecycle it implies open, so a server may answer
    a deleted item with its deleted_at set instead of refusing it (docs/design.md: 404, --strict)."""
    if not 200 <= exchange.status < 300:
        return False
    data = exchange.json()
    one = data[0] if isinstance(data, list) and len(data) == 1 else data
    return not (isinstance(one, dict) and one.get("deleted_at"))


def ids_of(entries: list[Any]) -> list[Any]:
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
        have_tags = tag_names(got.get("tags"))
        want = {t.casefold() for t in sent["tags"]}
        if have_tags is not None and have_tags != want:
            out.append(f"tags {sorted(have_tags)} (sent {sorted(want)})")
    return out


@contextmanager
def session(ctx: RunContext) -> Iterator[Session]:
    s = Session(ctx)
    try:
        yield s
    finally:
        s.dispose()


def unpaid(*fields: str, partly: bool = False) -> CheckSkipped:
    """The skip of a check whose paid-only fields (spec 8) the first --user got 402 for; `partly`:
    the check ran on the other fields."""
    named = ", ".join(fields)
    what = f"{named} is a paid-plan field" if len(fields) == 1 else f"{named} are paid-plan fields"
    done = "only the others were checked, the rest needs" if partly else "the check needs"
    return CheckSkipped(f"{what} and the first --user got 402: {done} the first --user on a paid plan")


T = TypeVar("T")
SETTLE_POLL = 0.1  # seconds between two readings of a view that has not settled yet


def settled(s: Session, view: str, read: Callable[[], T], ok: Callable[[T], bool]) -> T:
    """Read a view derived from writes (search, activity, counts, tag lists: `view` names it) until
    `ok` holds of the reading or --settle seconds passed; the last reading, for the check to judge.

    docs/design.md, Conformance against any server: such views may lag behind the write that
    moved them. A reading that settled only after a wait is recorded (Results.lagged) so the
    verdict says how long it took; one that never settles is the check's to fail."""
    start = time.monotonic()
    deadline = start + s.ctx.settings.settle
    reading = read()
    while not ok(reading) and time.monotonic() < deadline:
        time.sleep(SETTLE_POLL)
        reading = read()
    waited = time.monotonic() - start
    if ok(reading) and waited >= SETTLE_POLL:
        s.ctx.results.lagged(view, waited)
    return reading


def search_lags(s: Session, token: str) -> NoReturn:
    """Search does not find a new thing by `token`, a word of its name, within --settle seconds: a
    failure (spec 1: search covers collections, items and comments; docs/design.md: findable as
    soon as it is created, or within --settle where the index lags)."""
    s.fail(
        f"search for {token!r}, a word of a new thing's name, does not find it "
        f"(within --settle {s.ctx.settings.settle:g} s)",
        kind=NotStored,
    )


def searched(s: Session, thing_id: Any, kinds: tuple[str, ...], present: bool = True, **params: Any) -> bool:
    """Search with `params` until it finds the thing (or, `present` False, no longer finds it) or
    --settle seconds passed; whether the last reading finds it."""
    hits = settled(
        s, "search", lambda: search(s, **params)[0], lambda got: found(got, thing_id, kinds) == present
    )
    return found(hits, thing_id, kinds)


def findable(s: Session, token: str, thing_id: Any, kinds: tuple[str, ...] = ("item",)) -> None:
    """Search for `token` finds the thing made with it (within --settle), else the check fails."""
    if not searched(s, thing_id, kinds, q=token):
        search_lags(s, token)


# ---------------------------------------------------------------------- readers many checks share
def unique(s: Session) -> str:
    """A word no other name of any run has (search, q)."""
    return word(s.target.run_id, next(SERIAL))


def entry(entries: Any, thing_id: Any, key: str = "id") -> dict[str, Any] | None:
    """The entry of a list with that id (or `key`), if any."""
    if not isinstance(entries, list):
        return None
    return next((e for e in entries if isinstance(e, dict) and e.get(key) == thing_id), None)


def me(s: Session, user: User | None = None, include: str | list[str] | None = None) -> dict[str, Any]:
    """Get current user (as `user`, default the first), with `include`."""
    params = {"include": include} if include else None
    data: dict[str, Any] = s.body(s.call("GET", "/v1/users/me", user=user, params=params))
    return data


def counts(s: Session) -> dict[str, Any]:
    """Get collections count."""
    data: dict[str, Any] = s.body(s.call("GET", "/v1/collections/count"))
    return data


def search(s: Session, **params: Any) -> tuple[list[dict[str, Any]], int | None]:
    """The results of a search (its objects) and its X-Total-Count."""
    exchange = s.call("GET", "/v1/search", params=params)
    return [e for e in s.body(exchange, list) if isinstance(e, dict)], total_count(exchange)


def found(hits: list[dict[str, Any]], thing_id: int, kinds: tuple[str, ...]) -> bool:
    """A search hit for that id of one of the kinds ("item" stands for every item type)."""
    for hit in hits:
        kind = hit.get("type")
        kind = kind if kind in ("collection", "comment") else "item"
        if hit.get("id") == thing_id and kind in kinds:
            return True
    return False


def tag_counts(s: Session, path: str) -> dict[str, Any]:
    """List all tags / List collection tags: name (without case) -> items_total_count."""
    entries = s.body(s.call("GET", path), list)
    return {str(e.get("name")).casefold(): e.get("items_total_count") for e in entries if isinstance(e, dict)}


def new_comment(s: Session, item_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """A comment made on the item, registered for cleanup; the answer."""
    made: dict[str, Any] = s.body(s.call("POST", f"/v1/items/{item_id}/comments", ok=(201,), json_body=body))
    s.expect(isinstance(made.get("id"), int), "the new comment has no integer id")
    s.register("comment", f"/v1/comments/{made['id']}")
    return made


# ---------------------------------------------------------------------- things kept for the run
def create_thing(
    ctx: RunContext, kind: str, path: str, body: dict[str, Any], delete_path: str, user: User | None = None
) -> int:
    """Create a thing as `user` (default the first) and register it for cleanup for the whole run;
    its id. (Session.new_collection instead makes it the session's, deleted when the session ends.)"""
    user = user or ctx.settings.users[0]
    exchange = ctx.target.request("POST", path, user=user, json_body=body)
    made = exchange.json()
    expect(
        exchange.status in (200, 201) and isinstance(made, dict) and isinstance(made.get("id"), int),
        f"POST {path} as user {user.id} should create a {kind}, got {exchange.status}",
        exchange,
    )
    made_id: int = made["id"]
    ctx.target.created(kind, delete_path.format(id=made_id), user)
    return made_id


def create_collection(ctx: RunContext, label: str, kind: str, user: User | None = None) -> int:
    body = {"name": ctx.target.name(label), "type": kind}
    return create_thing(ctx, "collection", "/v1/collections", body, "/v1/collections/{id}", user)


def create_item(ctx: RunContext, collection: int, name: str, content: str, shareable: bool = False) -> int:
    body = {"type": "text", "name": ctx.target.name(name), "content": content, "shareable": shareable}
    return create_thing(ctx, "item", f"/v1/collections/{collection}/items", body, "/v1/items/{id}")
