"""The store's state: tables of records, the indexes derived from them, ids, time, paging.

Tables are the truth (they are what `snapshot()` writes); every index is derived from
them and rebuilt by `_reindex()` after a restore, then kept up to date by the few
mutation helpers below, so that lookups stay O(1) as the data grows.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import operator
import time
from collections import Counter
from collections.abc import Callable, Container, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import Any, Generic, TypeVar

from ..errors import InvalidInput
from .records import (
    Account,
    Collection,
    Comment,
    Email,
    Item,
    Notification,
    Reaction,
    Tag,
)
from .text import NAME_WEIGHT, TEXT_WEIGHT, SearchIndex

T = TypeVar("T")

DEFAULT_PER_PAGE = 24
MAX_PER_PAGE = 100
SNAPSHOT_FORMAT = "csapi-state"
SNAPSHOT_VERSION = 1
_TIME_TEXTS = 1 << 14  # renders kept by Store.time_text
# A search index build on the event loop runs this many seconds at a time (search_index_ready), and
# looks at the time every _BUILD_BATCH records (~0.2 ms of work on `large`)
BUILD_SLICE = 0.005
_BUILD_BATCH = 64
_FREEZE_FROM = 50_000  # documents: a smaller index is collected cheaply

# table name -> record class, in the order a snapshot lists them
TABLES: dict[str, type] = {
    "accounts": Account,
    "emails": Email,
    "collections": Collection,
    "items": Item,
    "tags": Tag,
    "comments": Comment,
    "reactions": Reaction,
    "notifications": Notification,
}
# fields holding int-keyed dicts, which JSON turns into string keys
_INT_KEYED = {("accounts", "members"), ("collections", "collaborators")}


def utcnow() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def format_time(value: datetime) -> str:
    """ISO 8601 in UTC with the Z designator (docs/design.md, timestamps)."""
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_time(value: str) -> datetime:
    parsed = datetime.fromisoformat(value)  # Python 3.11 reads the Z designator
    return parsed if parsed.tzinfo is UTC else parsed.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list, with the total before paging (X-Total-Count)."""

    entries: list[T]
    total: int


def page_bounds(page: int | None = None, per_page: int | None = None) -> tuple[int, int]:
    """Paging of docs/design.md: page from 1, per_page default 24 and clamped to 100; (start, stop)."""
    page = 1 if page is None else page
    per_page = min(DEFAULT_PER_PAGE if per_page is None else per_page, MAX_PER_PAGE)
    if page < 1 or per_page < 1:
        raise InvalidInput("page and per_page start at 1")
    return (page - 1) * per_page, page * per_page


def paginate(entries: Sequence[T], page: int | None = None, per_page: int | None = None) -> Page[T]:
    start, stop = page_bounds(page, per_page)
    return Page(list(entries[start:stop]), len(entries))


class StoreBase:
    """Tables, indexes, id sequences and the injected clock."""

    def __init__(self, clock: Callable[[], datetime] = utcnow, data: dict[str, Any] | None = None):
        self.clock = clock
        # Bumped by every change (reset here, requests that write in app.py, the few stores that
        # write outside a write request), so `serve --autosave` saves only when something changed.
        self.generation = 0
        self._time_texts: dict[datetime, str] = {}  # time_text's renders
        self.reset(data)

    # ------------------------------------------------------------------ state
    def reset(self, data: dict[str, Any] | None = None) -> None:
        """Drop everything, then load `data` (a snapshot or a fixture set) if given.

        All or nothing: data that cannot be loaded raises and leaves the state as it was.
        """
        kept = {name: getattr(self, name) for name in (*TABLES, "_sequences") if hasattr(self, name)}
        self.accounts: dict[int, Account] = {}
        self.emails: dict[int, Email] = {}
        self.collections: dict[int, Collection] = {}
        self.items: dict[int, Item] = {}
        self.tags: dict[int, Tag] = {}
        self.comments: dict[int, Comment] = {}
        self.reactions: dict[int, Reaction] = {}
        self.notifications: dict[int, Notification] = {}
        self._sequences: dict[str, int] = {}
        if data is not None:
            try:
                self._load(data)
            except Exception:
                for name, table in kept.items():  # the indexes still describe these tables
                    setattr(self, name, table)
                raise
        for name in TABLES:  # a sequence never hands out an id a table already holds
            table = getattr(self, name)
            self._sequences[name] = max(self._sequences.get(name, 0), max(table, default=0))
        self._reindex()
        self.generation += 1

    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-ready data; `reset(snapshot)` restores it exactly."""
        return self.capture().render()

    def capture(self) -> Capture:
        """A consistent copy of the state, several times cheaper than `snapshot()`: take it where
        the store is not changing (the event loop), render it anywhere (a thread)."""
        tables = {name: _capture(cls, getattr(self, name)) for name, cls in TABLES.items()}
        return Capture(dict(self._sequences), tables)

    def dump(self, table: str) -> list[dict[str, Any]]:
        """One table of the snapshot."""
        return _render(TABLES[table], *_capture(TABLES[table], getattr(self, table)))

    def _load(self, data: dict[str, Any]) -> None:
        if data.get("format") != SNAPSHOT_FORMAT or data.get("version") != SNAPSHOT_VERSION:
            raise InvalidInput(f"not a {SNAPSHOT_FORMAT} version {SNAPSHOT_VERSION} document")
        try:
            for name, cls in TABLES.items():
                table = getattr(self, name)
                for row in data.get(name, []):
                    record = _build(name, cls, row)
                    table[record.id] = record
            self._sequences = {str(k): int(v) for k, v in data.get("sequences", {}).items()}
            self._check_references()
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            raise InvalidInput(f"malformed state: {exc}") from exc

    def _check_references(self) -> None:
        """Every id a record holds names a record of the state (else later requests would fail)."""
        accounts, items = self.accounts, self.items
        references: list[tuple[str, str, Container[int]]] = [
            ("emails", "user_id", accounts),
            ("collections", "owner_id", accounts),
            ("items", "user_id", accounts),
            ("items", "parent_id", items),
            ("tags", "item_id", items),
            ("comments", "item_id", items),
            ("comments", "user_id", accounts),
            ("reactions", "item_id", items),
            ("reactions", "user_id", accounts),
        ]
        for table, name, targets in references:
            for record in getattr(self, table).values():
                value = getattr(record, name)
                if value is not None and value not in targets:
                    raise ValueError(f"{table} {record.id}: {name} {value} does not exist")
        for account in accounts.values():
            for member in account.members:
                if member not in accounts:
                    raise ValueError(f"accounts {account.id}: member {member} does not exist")
        for collection in self.collections.values():
            for account_id in collection.collaborators:
                if account_id not in accounts:
                    raise ValueError(f"collections {collection.id}: collaborator {account_id} does not exist")
        for item in items.values():  # a deleted collection's items stay, deleted, without it
            if item.deleted_at is None and item.collection_id not in self.collections:
                raise ValueError(f"items {item.id}: collection_id {item.collection_id} does not exist")

    def next_id(self, kind: str) -> int:
        """Ids from one sequence per kind; users and teams share "accounts"."""
        value = self._sequences[kind] + 1
        self._sequences[kind] = value
        return value

    def now(self) -> datetime:
        return self.clock()

    def time_text(self, value: datetime) -> str:
        """`format_time(value)`, rendered once per value rather than on every field of every answer
        (strftime was a tenth of a computed GET). Keyed by the datetime itself, which never changes:
        a record whose time changes holds a new value, so nothing needs invalidating. Bounded: when
        full it starts again with the times being read."""
        text = self._time_texts.get(value)
        if text is None:
            if len(self._time_texts) >= _TIME_TEXTS:
                self._time_texts.clear()
            text = self._time_texts[value] = format_time(value)
        return text

    # ------------------------------------------------------------------ indexes
    def _reindex(self) -> None:
        self._by_username: dict[str, int] = {}
        self._by_email: dict[str, int] = {}
        self._teams_of: dict[int, set[int]] = {}
        self._collections_of: dict[int, set[int]] = {}
        self._global = {cid for cid, c in self.collections.items() if c.type == "global"}  # for search
        self._global_version = 0  # counts changes of _global
        self._global_ranked: dict[tuple[str, ...], tuple[tuple[int, int], list[Any]]] = {}
        self._live: dict[int, dict[int, None]] = {cid: {} for cid in self.collections}
        self._children: dict[int, dict[int, None]] = {}
        # collection id -> the highest `sort` of its live items (0: none), for the next item's
        # sort in O(1); absent until asked for, dropped when that maximum may have fallen
        self._sort_top: dict[int, int] = {}
        self._owned_sort_top: dict[int, int] = {}  # the same for an account's own collections
        # collection id -> its live items' ids by (sort, id), the order without sort_by: absent
        # until asked for, extended by a create (it sorts last), dropped on any other change
        self._in_order: dict[int, list[int]] = {}
        self._tags_of: dict[int, dict[int, None]] = {}
        self._tagged: dict[str, set[int]] = {}  # tag name (casefolded) -> ids of items carrying it
        self._comments_of: dict[int, dict[int, None]] = {}
        self._reactions_of: dict[int, dict[int, None]] = {}
        for account in self.accounts.values():
            self._index_account(account)
        for email in self.emails.values():
            self._by_email[email.email.lower()] = email.user_id
        for collection in self.collections.values():
            for account_id in (collection.owner_id, *collection.collaborators):
                self._collections_of.setdefault(account_id, set()).add(collection.id)
        for item in sorted(self.items.values(), key=lambda i: i.id):
            if item.deleted_at is None:
                self._link_item(item)
        for tag in self.tags.values():
            self._link_tag(tag)
        for comment in self.comments.values():
            self._comments_of.setdefault(comment.item_id, {})[comment.id] = None
        for reaction in self.reactions.values():
            self._reactions_of.setdefault(reaction.item_id, {})[reaction.id] = None
        self._search_index: SearchIndex | None = None  # built on first use: loading stays fast
        self._builder: Iterator[None] | None = None  # a build under way (search_index_ready)
        self._touched: set[tuple[str, int]] = set()  # what changed since it began

    @property
    def search_index(self) -> SearchIndex:
        """The index, built now (on the caller's thread, at one go) if it is not yet; a build that
        `search_index_ready` began is carried on, not begun again."""
        while self._search_index is None:
            self._build_step(None)
        return self._search_index

    async def search_index_ready(self) -> None:
        """Build the index if it is not yet, in slices of BUILD_SLICE seconds between which the
        event loop serves everyone else: only the searching request waits for it (on `large`
        a build takes 6-17 s, which held every client of every session when done at one go).

        The build reads the records as they were when it began; what changes meanwhile (each
        change passes through index_text, unindex_text or move_text) is noted and put again
        from the tables at the end, so the index is the one a build at that moment would make.
        Safe to await from several requests at once (each drives the one build), and to cancel
        (the build stays where it is; the next search carries it on).

        The garbage collector waits meanwhile, and a large index ends in its permanent generation
        (gc.freeze, as serve does with the data it loads): a build makes millions of objects, each
        million a full collection walking all the session's data, 0.3-0.4 s of everyone's time on
        `large`. The cost: cyclic garbage made by other requests during the build is not freed."""
        if self._search_index is not None:
            return
        collecting = gc.isenabled()
        gc.disable()
        try:
            while self._search_index is None:
                self._build_step(BUILD_SLICE)
                if self._search_index is None:
                    await asyncio.sleep(0)
        finally:
            if collecting:
                if self._indexed() >= _FREEZE_FROM:
                    gc.freeze()
                gc.enable()

    def _indexed(self) -> int:
        """Documents in the index (0: not built yet)."""
        return 0 if self._search_index is None else len(self._search_index._docs)

    def _build_step(self, budget: float | None) -> None:
        """Carry the build on for `budget` seconds (None: to its end)."""
        if self._builder is None:
            self._builder, self._touched = self._build(), set()
        deadline = None if budget is None else time.monotonic() + budget
        for _ in self._builder:
            if deadline is not None and time.monotonic() >= deadline:
                return

    def _build(self) -> Iterator[None]:
        """A generator building the index, yielding every _BUILD_BATCH records; at its end the
        index is in place. The records to index are listed first (a copy: the tables may change
        between two steps)."""
        index = SearchIndex()
        live = [item_id for item_ids in self._live.values() for item_id in item_ids]
        records: list[Collection | Item | Comment] = [*self.collections.values()]
        records += [self.items[item_id] for item_id in live]
        records += [c for c in self.comments.values() if self._live_comment(c)]
        yield
        for start in range(0, len(records), _BUILD_BATCH):
            for record in records[start : start + _BUILD_BATCH]:
                self._put_text(record, index)
            yield
        for kind, number in self._touched:  # changed during the build: as the tables say now
            index.drop((kind, number))
            now = self._indexed_record(kind, number)
            if now is not None:
                self._put_text(now, index)
        self._search_index, self._builder, self._touched = index, None, set()

    def _live_comment(self, comment: Comment) -> bool:
        item = self.items.get(comment.item_id)
        return item is not None and item.deleted_at is None  # a deleted item's comments are gone

    def _indexed_record(self, kind: str, number: int) -> Collection | Item | Comment | None:
        """The record a complete index holds under (kind, number), or None."""
        if kind == "collection":
            return self.collections.get(number)
        if kind == "item":
            item = self.items.get(number)
            return item if item is not None and item.deleted_at is None else None
        comment = self.comments.get(number)
        return comment if comment is not None and self._live_comment(comment) else None

    def _note(self, record: Collection | Item | Comment, with_comments: bool = False) -> None:
        """A build is under way: put `record` (and its item's comments) again at its end."""
        self._touched.add((_kind(record), record.id))
        if with_comments and isinstance(record, Item):
            self._touched.update(("comment", c.id) for c in self.item_comments(record.id))

    def index_text(self, record: Collection | Item | Comment) -> None:
        """(Re)index a record's text for search; call whenever it changes."""
        if self._search_index is not None:  # else the first search indexes everything as it is
            self._put_text(record, self._search_index)
        elif self._builder is not None:
            self._note(record)

    def unindex_text(self, record: Collection | Item | Comment) -> None:
        """Out of search; an item takes its comments with it (it is deleted)."""
        if self._search_index is not None:
            self._search_index.drop((_kind(record), record.id))
            if isinstance(record, Item):
                for comment in self.item_comments(record.id):
                    self._search_index.drop(("comment", comment.id))
        elif self._builder is not None:
            self._note(record, with_comments=True)

    def move_text(self, item: Item) -> None:
        """The item, and its comments, now lie in `item.collection_id`."""
        if self._search_index is not None:
            self._search_index.move(("item", item.id), item.collection_id)
            for comment in self.item_comments(item.id):
                self._search_index.move(("comment", comment.id), item.collection_id)
        elif self._builder is not None:
            self._note(item, with_comments=True)

    def _put_text(self, record: Collection | Item | Comment, index: SearchIndex) -> None:
        created = record.created_at.timestamp()
        if isinstance(record, Comment):
            group = self.items[record.item_id].collection_id
            index.put(("comment", record.id), group, created, [(record.body, TEXT_WEIGHT)])
            return
        texts = [(record.name, NAME_WEIGHT), (record.description, TEXT_WEIGHT)]
        if isinstance(record, Item):
            texts.append((record.content, TEXT_WEIGHT))
        group = record.collection_id if isinstance(record, Item) else record.id
        index.put((_kind(record), record.id), group, created, texts)

    def _index_account(self, account: Account) -> None:
        self._by_username[account.username.lower()] = account.id
        if account.is_team:
            if account.email:
                self._by_email[account.email.lower()] = account.id
            for user_id in account.members:
                self._teams_of.setdefault(user_id, set()).add(account.id)

    def _link_item(self, item: Item) -> None:
        self._live.setdefault(item.collection_id, {})[item.id] = None
        if item.parent_id is not None:
            self._children.setdefault(item.parent_id, {})[item.id] = None
        top = self._sort_top.get(item.collection_id)
        if top is not None and item.sort > top:
            self._sort_top[item.collection_id] = item.sort
        order = self._in_order.get(item.collection_id)
        if order is not None:
            last = self.items[order[-1]] if order else None
            if last is None or (item.sort, item.id) > (last.sort, last.id):
                order.append(item.id)
            else:
                del self._in_order[item.collection_id]

    def _unlink_item(self, item: Item) -> None:
        self._live.get(item.collection_id, {}).pop(item.id, None)
        if item.parent_id is not None:
            self._children.get(item.parent_id, {}).pop(item.id, None)
        top = self._sort_top.get(item.collection_id)
        if top is not None and item.sort >= top:  # it may have been the only one this high
            del self._sort_top[item.collection_id]
        self._in_order.pop(item.collection_id, None)

    def next_sort(self, collection_id: int) -> int:
        """1 + the highest `sort` of the collection's live items (1 when it has none)."""
        top = self._sort_top.get(collection_id)
        if top is None:
            top = self._sort_top[collection_id] = max(
                (i.sort for i in self.live_items(collection_id)), default=0
            )
        return top + 1

    def sort_changed(self, collection_id: int) -> None:
        """A live item's `sort` was set in place (not through `_link_item`): recount on next use."""
        self._sort_top.pop(collection_id, None)
        self._in_order.pop(collection_id, None)

    def _link_tag(self, tag: Tag) -> None:
        self._tags_of.setdefault(tag.item_id, {})[tag.id] = None
        self._tagged.setdefault(tag.name.casefold(), set()).add(tag.item_id)

    def _unlink_tag(self, tag: Tag) -> None:
        self._tags_of.get(tag.item_id, {}).pop(tag.id, None)
        self._tagged.get(tag.name.casefold(), set()).discard(tag.item_id)

    # ------------------------------------------------------------------ lookups
    def live_items(self, collection_id: int) -> list[Item]:
        return [self.items[i] for i in self._live.get(collection_id, ())]

    def children(self, stack_id: int) -> list[Item]:
        return [self.items[i] for i in self._children.get(stack_id, ())]

    def item_tags(self, item_id: int) -> list[Tag]:
        return [self.tags[i] for i in self._tags_of.get(item_id, ())]

    def tagged_items(self, name: str) -> set[int]:
        """Ids of the items (deleted ones included) that carry a tag of this name."""
        return self._tagged.get(name.casefold(), set())

    def item_comments(self, item_id: int) -> list[Comment]:
        return [self.comments[i] for i in self._comments_of.get(item_id, ())]

    def item_reactions(self, item_id: int) -> list[Reaction]:
        return [self.reactions[i] for i in self._reactions_of.get(item_id, ())]

    def account_by_username(self, username: str) -> Account | None:
        found = self._by_username.get(username.lower())
        return self.accounts.get(found) if found is not None else None

    def account_by_email(self, email: str) -> Account | None:
        found = self._by_email.get(email.lower())
        return self.accounts.get(found) if found is not None else None

    def teams_of(self, user_id: int) -> list[Account]:
        return [self.accounts[t] for t in sorted(self._teams_of.get(user_id, ()))]

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> list[str]:
        """What disagrees between the tables and everything derived from them; [] when all is well.

        Every count a client reads (items_total_count, X-Total-Count, tag counts, an item's
        comments and reactions, collaborators) comes from an index kept up to date by the
        mutation helpers, so an index that drifted from a recount of the tables is a wrong
        count (or a leak). Also checked: ids match their keys and lie within their sequence,
        references hold, stacks nest one level in one collection, no duplicate tag or like.
        """
        problems: list[str] = []
        for name in TABLES:
            table = getattr(self, name)
            problems += [f"{name}: key {key} holds id {r.id}" for key, r in table.items() if key != r.id]
            if table and max(table) > self._sequences.get(name, 0):
                problems.append(f"{name}: id {max(table)} is beyond its sequence")
        try:
            self._check_references()
        except ValueError as exc:
            problems.append(str(exc))
        recount = object.__new__(type(self))  # the same tables, indexes rebuilt from scratch
        for name in TABLES:
            setattr(recount, name, getattr(self, name))
        recount._reindex()
        for name in _INDEXES:
            kept, truth = _comparable(getattr(self, name)), _comparable(getattr(recount, name))
            for key in sorted(kept.keys() | truth.keys(), key=repr):
                if kept.get(key) != truth.get(key):
                    problems.append(f"{name}[{key!r}] is {kept.get(key)}, a recount gives {truth.get(key)}")
        if self._search_index is not None:  # once built, it must hold what a fresh build holds
            kept_index, fresh_index = self._search_index, recount.search_index
            for key in sorted(kept_index._docs.keys() ^ fresh_index._docs.keys()):
                problems.append(f"search index: {key} is {'stale' if key in kept_index._docs else 'missing'}")
            if kept_index._postings != fresh_index._postings:
                problems.append("search index: the postings differ from a fresh build")
            problems += kept_index.check()  # its kept rankings against its own postings
        problems += self._check_shapes()
        problems += self._check_sort_tops()
        return problems

    def _check_sort_tops(self) -> list[str]:
        """The kept highest sorts (only those kept: the others are counted when asked for)."""
        problems = []
        for cid, top in self._sort_top.items():
            truth = max((i.sort for i in self.live_items(cid)), default=0)
            if top != truth:
                problems.append(f"collections {cid}: highest item sort kept {top}, a recount gives {truth}")
        for owner_id, top in self._owned_sort_top.items():
            truth = max((c.sort for c in self.collections.values() if c.owner_id == owner_id), default=0)
            if top != truth:
                problems.append(
                    f"accounts {owner_id}: highest collection sort kept {top}, a recount gives {truth}"
                )
        for cid, order in self._in_order.items():
            if order != [i.id for i in sorted(self.live_items(cid), key=lambda i: (i.sort, i.id))]:
                problems.append(f"collections {cid}: the kept order of its items differs from a sort")
        return problems

    def _check_shapes(self) -> list[str]:
        problems = []
        for item in self.items.values():
            if item.deleted_at is None and item.parent_id is not None:
                parent = self.items.get(item.parent_id)
                if not (
                    parent is not None
                    and parent.deleted_at is None
                    and parent.type == "stack"
                    and parent.parent_id is None
                    and parent.collection_id == item.collection_id
                ):
                    problems.append(f"items {item.id}: parent {item.parent_id} is not a live stack beside it")
        tags = [(t.item_id, t.name.casefold()) for t in self.tags.values()]
        likes = [(r.item_id, r.user_id) for r in self.reactions.values()]
        problems += [
            f"tags: item {i} has the tag {n!r} {k} times" for (i, n), k in Counter(tags).items() if k > 1
        ]
        problems += [
            f"reactions: user {u} likes item {i} {k} times" for (i, u), k in Counter(likes).items() if k > 1
        ]
        problems += [
            f"collections {c.id}: the owner is also a collaborator"
            for c in self.collections.values()
            if c.owner_id in c.collaborators
        ]
        return problems


# The indexes `_reindex` derives from the tables (the search index is checked by its own tests).
_INDEXES = (
    "_by_username",
    "_by_email",
    "_teams_of",
    "_collections_of",
    "_global",
    "_live",
    "_children",
    "_tags_of",
    "_tagged",
    "_comments_of",
    "_reactions_of",
)


def _comparable(index: dict[Any, Any] | set[Any]) -> dict[Any, Any]:
    """An index as sets, empty entries dropped: membership is what counts, not the order kept."""
    if isinstance(index, set):  # a set of ids (`_global`)
        return dict.fromkeys(index, True)
    out = {}
    for key, value in index.items():
        if isinstance(value, set | dict):
            if value:
                out[key] = set(value)
        else:
            out[key] = value
    return out


def _kind(record: Collection | Item | Comment) -> str:
    return {Collection: "collection", Item: "item", Comment: "comment"}[type(record)]


@dataclass(frozen=True, slots=True)
class Capture:
    """Per table, the records' field values as tuples, their dict fields copied apart."""

    sequences: dict[str, int]
    tables: dict[str, tuple[list[tuple[Any, ...]], dict[int, list[Any]]]]

    def render(self) -> dict[str, Any]:
        """The snapshot (`StoreBase.snapshot()`) of the state as it was when captured."""
        out: dict[str, Any] = {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION}
        out["sequences"] = dict(self.sequences)
        for name, (rows, dicts) in self.tables.items():
            out[name] = _render(TABLES[name], rows, dicts)
        return out


@cache
def _layout(cls: type) -> tuple[tuple[str, ...], Callable[[Any], tuple[Any, ...]], list[int], list[int]]:
    """A record class's field names, a getter of all its values at once, which fields hold
    dicts (mutable: copied at capture) and which datetimes (formatted at render)."""
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    dicts = [i for i, f in enumerate(fields) if str(f.type).startswith("dict")]
    times = [i for i, f in enumerate(fields) if "datetime" in str(f.type)]
    return names, operator.attrgetter(*names), dicts, times


def _capture(cls: type, table: dict[int, Any]) -> tuple[list[tuple[Any, ...]], dict[int, list[Any]]]:
    names, values_of, dicts, _ = _layout(cls)
    records = list(table.values())
    rows = list(map(values_of, records))  # attrgetter: the loop runs in C
    copies = {
        i: [dict(v) if isinstance(v, dict) else v for v in map(operator.attrgetter(names[i]), records)]
        for i in dicts
    }
    return rows, copies


def _render(cls: type, rows: list[tuple[Any, ...]], copies: dict[int, list[Any]]) -> list[dict[str, Any]]:
    names, _, _, times = _layout(cls)
    out = []
    for n, row in enumerate(rows):
        record = dict(zip(names, row, strict=True))
        for i in times:
            if isinstance(row[i], datetime):
                record[names[i]] = format_time(row[i])
        for i, column in copies.items():
            value = column[n]
            record[names[i]] = {str(k): v for k, v in value.items()} if isinstance(value, dict) else value
        out.append(record)
    return out


@cache
def _field_names(cls: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(cls))


def _build(table: str, cls: type, row: dict[str, Any]) -> Any:
    known = _field_names(cls)
    if not row.keys() <= known:
        raise ValueError(f"{table}: unknown field {min(row.keys() - known)!r}")
    kwargs = dict(row)
    # loading `large` builds 180,000 rows: only the fields that need converting are looked at
    for name in _converted_fields(table, cls) & row.keys():
        value = row[name]
        if (table, name) in _INT_KEYED:
            kwargs[name] = {int(k): v for k, v in value.items()}
        elif isinstance(value, str) and name.endswith("_at"):
            kwargs[name] = parse_time(value)
        elif isinstance(value, dict):  # the store's own copy, never the caller's data
            kwargs[name] = dict(value)
    return cls(**kwargs)


@cache
def _converted_fields(table: str, cls: type) -> frozenset[str]:
    """Times, int-keyed and other dict fields: the ones `_build` may not take as they come."""
    return frozenset(
        f.name
        for f in dataclasses.fields(cls)
        if f.name.endswith("_at") or (table, f.name) in _INT_KEYED or "dict" in str(f.type)
    )


def unique(values: Iterable[T]) -> list[T]:
    """The values in order, each once."""
    return list(dict.fromkeys(values))
