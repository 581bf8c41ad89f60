"""Search (spec 4.9) over collections, items and comments, and the activity feed (spec 4.10).

Search reads the inverted index (store/text.py) and the tag index, never every item;
relevance is the weighted term count (name x3), plus one per tag asked for.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime

from ..errors import InvalidInput
from .comments import CommentsMixin
from .core import Page, page_bounds, paginate
from .items import haversine_m
from .records import Account, Collection, Comment, Item, Reaction
from .text import KIND_RANK, KINDS, Entry, Key, terms

Record = Collection | Item | Comment | Reaction


@dataclass(frozen=True, slots=True)
class Found:
    """A search result or an activity entry: what kind of thing, the record, its score."""

    kind: str  # "collection" | "item" | "comment" (| "reaction" in the activity feed)
    record: Record
    score: float = 0.0

    @property
    def created_at(self) -> datetime:
        return self.record.created_at


class SearchMixin(CommentsMixin):
    def search(
        self,
        caller: Account,
        *,
        q: str | None = None,
        tags: list[str] | None = None,
        type: str | None = None,
        owned: bool | None = None,
        owner_id: int | None = None,
        near: tuple[float, float, float] | None = None,
        page: int | None = None,
        per_page: int | None = None,
    ) -> Page[Found]:
        if not q and not tags:
            raise InvalidInput("q or tags is required")
        start, stop = page_bounds(page, per_page)
        owner = caller.id if owned else owner_id
        if owned and owner_id is not None and owner_id != caller.id:
            return Page([], 0)
        if q and not tags and type is None and owner is None and near is None:
            return self._plain_search(caller, q, start, stop)
        groups = self.search_index.query(q) if q else self._tagged_groups(tags or [])
        # by collection, as sets: the collections the caller sees are picked in C, and only
        # their matches are looked at (those are the cost, not the size of the store)
        seen = groups.keys() & (self.accessible_collection_ids(caller) | self._global)
        visible = [groups[cid] for cid in seen]
        entries: Iterable[Entry] = itertools.chain.from_iterable(map(_newest_first, visible))
        if q and tags:
            tagged = set.intersection(*(self.tagged_items(name) for name in tags))
            items = KIND_RANK["item"]
            entries = [(e[0] + len(tags), *e[1:]) for e in entries if e[2] == items and e[3] in tagged]
        if type is not None or owner is not None or near is not None:
            entries = [e for e in entries if self._wanted(KINDS[e[2]], self._record(e), type, owner, near)]
        if isinstance(entries, list):
            total = len(entries)
        else:
            total = sum(len(docs) for docs in visible)
        return self._page(entries, start, stop, total)

    def _plain_search(self, caller: Account, q: str, start: int, stop: int) -> Page[Found]:
        """Words alone: global collections' matches (visible to all) come ranked once per state
        of the index; the caller's other collections' matches are ranked per request."""
        index = self.search_index
        groups = index.query(q)
        ranked = self._global_ranking(q, groups)
        cids = groups.keys() & self.accessible_collection_ids(caller) - self._global
        total = len(ranked) + sum(len(groups[cid]) for cid in cids)
        words = set(terms(q))
        if len(words) == 1:  # the postings themselves: each group's best, kept ranked, will do
            (word,) = words
            own: Iterable[Iterable[Entry]] = [index.best(word, cid, stop) for cid in cids]
        else:
            own = [_newest_first(groups[cid]) for cid in cids]
        return self._page(itertools.chain(ranked[:stop], *own), start, stop, total)

    def _page(self, entries: Iterable[Entry], start: int, stop: int, total: int) -> Page[Found]:
        # every match counts for the total, but only the asked page is sorted out of them (the
        # entries are unique, so the order they come in changes nothing but the time)
        top = heapq.nlargest(stop, entries)[start:]
        return Page([Found(KINDS[e[2]], self._record(e), e[0]) for e in top], total)

    def _global_ranking(self, q: str, groups: dict[int, dict[Key, Entry]]) -> list[Entry]:
        """The matches of q in global collections, best first; kept until the index or the set
        of global collections changes (both count their changes)."""
        key, stamp = tuple(dict.fromkeys(terms(q))), (self.search_index.version, self._global_version)
        kept = self._global_ranked.get(key)
        if kept is None or kept[0] != stamp:
            if len(self._global_ranked) > 1024:  # a bound on memory: any old query may go
                self._global_ranked.clear()
            docs = itertools.chain.from_iterable(groups[cid].values() for cid in groups.keys() & self._global)
            kept = self._global_ranked[key] = (stamp, sorted(docs, reverse=True))
        return kept[1]

    def list_activity(
        self, caller: Account, page: int | None = None, per_page: int | None = None
    ) -> Page[Found]:
        """What was created in the collections the caller can access, newest first."""
        entries = []
        for cid in self.accessible_collection_ids(caller):
            entries.append(Found("collection", self.collections[cid]))
            for item in self.live_items(cid):
                entries.append(Found("item", item))
                entries.extend(Found("comment", c) for c in self.item_comments(item.id))
                entries.extend(Found("reaction", r) for r in self.item_reactions(item.id))
        # newest first; within a second, a reaction after a comment after an item after a collection
        entries.sort(key=lambda f: (f.created_at, KIND_RANK[f.kind], f.record.id), reverse=True)
        return paginate(entries, page, per_page)

    # ------------------------------------------------------------------ helpers
    def _record(self, entry: Entry) -> Record:
        table: dict[int, Record] = getattr(self, f"{KINDS[entry[2]]}s")  # collections, items, comments
        return table[entry[3]]

    def _tagged_groups(self, tags: list[str]) -> dict[int, dict[Key, Entry]]:
        """A search by tags alone: the live items carrying all of them, by collection, one a tag."""
        groups: dict[int, dict[Key, Entry]] = {}
        for item_id in set.intersection(*(self.tagged_items(name) for name in tags)):
            item = self.items[item_id]
            if item.deleted_at is None:
                entry = (float(len(tags)), item.created_at.timestamp(), KIND_RANK["item"], item_id)
                groups.setdefault(item.collection_id, {})[("item", item_id)] = entry
        return groups

    def _wanted(
        self,
        kind: str,
        record: Record,
        type: str | None,
        owner: int | None,
        near: tuple[float, float, float] | None,
    ) -> bool:
        if type is not None and type != (record.type if isinstance(record, Item) else kind):
            return False
        if owner is not None and self._owner_of(kind, record) != owner:
            return False
        return near is None or self._is_near(kind, record, near)

    def _owner_of(self, kind: str, record: Record) -> int:
        return record.owner_id if isinstance(record, Collection) else record.user_id

    def _is_near(self, kind: str, record: Record, near: tuple[float, float, float]) -> bool:
        item = self.items[record.item_id] if isinstance(record, Comment) else record
        if not isinstance(item, Item) or item.latitude is None or item.longitude is None:
            return False
        lat, lng, radius = near
        return haversine_m(lat, lng, item.latitude, item.longitude) <= radius


def _newest_first(docs: dict[Key, Entry]) -> Iterator[Entry]:
    """A group's documents, most recently indexed first: the best ones come early, so
    `heapq.nlargest` keeps its heap instead of replacing it on nearly every entry (postings
    grow oldest first, and a newer document ranks higher at an equal score)."""
    return reversed(docs.values())
