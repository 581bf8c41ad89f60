"""Search (spec 4.9) over collections, items and comments, and the activity feed (spec 4.10).

Search reads the inverted index (store/text.py) and the tag index, never every item;
relevance is the weighted term count (name x3), plus one per tag asked for.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from datetime import datetime

from mock_server.errors import InvalidInput
from mock_server.store.comments import CommentsMixin
from mock_server.store.core import Page, page_bounds, paginate
from mock_server.store.items import haversine_m
from mock_server.store.records import Account, Collection, Comment, Item, Reaction

Record = Collection | Item | Comment | Reaction
_KIND_RANK = {"collection": 0, "item": 1, "comment": 2, "reaction": 3}


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
        scores = self.search_index.query(q) if q else None
        if tags:
            tagged = set.intersection(*(self.tagged_items(name) for name in tags))
            base = scores if scores is not None else {("item", i): 0.0 for i in tagged}
            scores = {
                key: score + len(tags) for key, score in base.items() if key[0] == "item" and key[1] in tagged
            }
        owner = caller.id if owned else owner_id
        if owned and owner_id is not None and owner_id != caller.id:
            return Page([], 0)
        accessible = self.accessible_collection_ids(caller)
        shown = {cid: True for cid in accessible}  # collection id -> may show; others looked up once
        filtered = type is not None or owner is not None or near is not None
        ranked = []
        items = self.items
        # the loop runs once per match (thousands on `large`): kept free of calls where it can be
        for (kind, record_id), score in (scores or {}).items():
            if kind == "item":
                record = items[record_id]
                if record.deleted_at is not None:
                    continue
                cid = record.collection_id
            else:
                record, cid = self._live_record(kind, record_id)
                if record is None:
                    continue
            may = shown.get(cid)
            if may is None:
                may = shown[cid] = self.collections[cid].type == "global"
            if not may or (filtered and not self._wanted(kind, record, type, owner, near)):
                continue
            # ties within a second: a later kind (collection < item < comment) was made later
            ranked.append((score, record.created_at, _KIND_RANK[kind], record_id, kind, record))
        # every match counts for the total, but only the asked page is sorted out of them
        top = heapq.nlargest(stop, ranked)[start:]
        return Page([Found(kind, record, score) for score, _, _, _, kind, record in top], len(ranked))

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
        entries.sort(key=lambda f: (f.created_at, _KIND_RANK[f.kind], f.record.id), reverse=True)
        return paginate(entries, page, per_page)

    # ------------------------------------------------------------------ helpers
    def _live_record(self, kind: str, record_id: int) -> tuple[Record | None, int]:
        """The record and the collection it lies in; (None, 0) if it or its item is gone."""
        if kind == "item":
            item = self.items[record_id]
            return (item, item.collection_id) if item.deleted_at is None else (None, 0)
        if kind == "collection":
            return self.collections[record_id], record_id
        comment = self.comments.get(record_id)
        item = self.items.get(comment.item_id) if comment else None
        return (comment, item.collection_id) if item is not None and item.deleted_at is None else (None, 0)

    def _wanted(
        self, kind: str, record: Record, type: str | None, owner: int | None, near: tuple | None
    ) -> bool:
        if type is not None and type != (kind if kind != "item" else record.type):
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
