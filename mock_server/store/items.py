"""Items and stacks (spec 4.2) and the item operations inside a collection (spec 4.1).

Deletion is soft (docs/design.md): `deleted_at` is set and the item leaves every index, so it
disappears from lists, counts and search and its GET is a 404.
"""

from __future__ import annotations

import math
import mimetypes
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields, replace
from typing import Any
from urllib.parse import urlsplit

from ..errors import InvalidInput, NotFound
from .collections import CollectionsMixin, matches_query
from .core import Page, page_bounds, paginate, unique
from .records import Account, Collection, Item, Tag

PAID_ITEM_FIELDS = ("tags",)
_SETTABLE = (
    "name",
    "description",
    "link",
    "preview",
    "thumbnail",
    "shareable",
    "latitude",
    "longitude",
    "sort",
)
_EARTH_RADIUS_M = 6_371_008.8
_TYPE_MIME = {"link": "text/uri-list", "text": "text/plain", "stack": "application/x-stack"}
_SORT_KEYS: dict[str, Callable[[ItemsMixin, Item], Any]] = {  # a collection's sort_by
    "created_at": lambda store, i: i.created_at,
    "updated_at": lambda store, i: i.updated_at,
    "name": lambda store, i: i.name.casefold(),
    "type": lambda store, i: i.type,
    "size": lambda store, i: i.size,
    "reactions": lambda store, i: len(store._reactions_of.get(i.id, ())),
}


@dataclass(frozen=True, slots=True)
class StoredFile:
    """An uploaded file's facts, for a file item's size and mime (its content is the file's URL)."""

    size: int
    mime: str


@dataclass(frozen=True, slots=True)
class ItemFilter:
    """The filters of List items, and of the items embedded by Get a collection / Get an item."""

    type: str | None = None
    not_type: str | None = None
    parent_id: int | None = None
    owned_by: int | None = None
    q: str | None = None
    tags: tuple[str, ...] = ()
    near: tuple[float, float, float] | None = None  # latitude, longitude, radius in meters

    def __call__(self, store: ItemsMixin, item: Item) -> bool:
        return (
            (self.type is None or item.type == self.type)
            and (self.not_type is None or item.type != self.not_type)
            and (self.parent_id is None or item.parent_id == self.parent_id)
            and (self.owned_by is None or item.user_id == self.owned_by)
            and matches_query(self.q, item.name, item.description, item.content)
            and (not self.tags or store.has_tags(item, self.tags))
            and (self.near is None or _within(item, *self.near))
        )


ANY_ITEM = ItemFilter()  # no filter


_LL = re.compile(r"-?[0-9]+(\.[0-9]+)?,-?[0-9]+(\.[0-9]+)?")


def parse_near(ll: str | None, radius: float | None) -> tuple[float, float, float] | None:
    """`ll` ("lat,lng") and `radius` (meters) go together."""
    if ll is None and radius is None:
        return None
    if ll is None or radius is None:
        raise InvalidInput("ll and radius go together")
    if not _LL.fullmatch(ll):  # ASCII digits only, no trailing newline (Python's \d and $ allow them)
        raise InvalidInput(f"ll {ll!r} is not a latitude,longitude")
    lat, lng = (float(part) for part in ll.split(","))
    if not (-90 <= lat <= 90 and -180 <= lng <= 180):
        raise InvalidInput(f"ll {ll} is not a latitude,longitude")
    return lat, lng, radius


def _within(item: Item, lat: float, lng: float, radius: float) -> bool:
    if item.latitude is None or item.longitude is None:
        return False
    return haversine_m(lat, lng, item.latitude, item.longitude) <= radius


def haversine_m(lat1: float, lng1: float, lat2: float, lng2: float) -> float:
    """Great-circle distance in meters."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lng2 - lng1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * _EARTH_RADIUS_M * math.asin(math.sqrt(a))


def _check_tag_names(names: Iterable[str]) -> None:
    """Before anything changes: a blank name would otherwise fail half way through."""
    if any(not name.strip() for name in names):
        raise InvalidInput("a tag name must not be blank")


def is_url(content: str) -> bool:
    parts = urlsplit(content)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def mime_of(item_type: str, content: str) -> str:
    """The media type from the item's type and, for files and URLs, the name's extension."""
    if item_type in _TYPE_MIME:
        return _TYPE_MIME[item_type]
    guessed = mimetypes.guess_type(urlsplit(content).path)[0]
    if guessed:
        return guessed
    return {"image": "image/*", "video": "video/*", "audio": "audio/*"}.get(
        item_type, "application/octet-stream"
    )


class ItemsMixin(CollectionsMixin):
    # ------------------------------------------------------------------ reads
    def list_items(
        self,
        caller: Account,
        *,
        collection_id: int | None = None,
        owned: bool | None = None,
        owner_id: int | None = None,
        where: ItemFilter = ANY_ITEM,
        page: int | None = None,
        per_page: int | None = None,
    ) -> Page[Item]:
        if owned:
            where = replace(where, owned_by=caller.id)
        if owner_id is not None:
            if owned and owner_id != caller.id:
                return Page([], 0)
            where = replace(where, owned_by=owner_id)
        if collection_id is not None:
            collection, _ = self.visible_collection(caller, collection_id)
            return self.collection_page(collection, where, page, per_page)
        found = [
            item
            for cid in self.accessible_collection_ids(caller)
            for item in self.live_items(cid)
            if where(self, item)
        ]
        found.sort(key=lambda i: (i.created_at, i.id), reverse=True)
        stack = self.items.get(where.parent_id) if where.parent_id is not None else None
        if found and stack is not None and stack.collection_id in self.collections:
            # a stack's children, in its collection's order (as include=stack_items lists them)
            wanted = {i.id for i in found}
            in_order = self.collection_items(self.collections[stack.collection_id], where)
            found = [i for i in in_order if i.id in wanted]
        return paginate(found, page, per_page)

    def collection_page(
        self, collection: Collection, where: ItemFilter, page: int | None, per_page: int | None
    ) -> Page[Item]:
        """`paginate(collection_items(collection, where), page, per_page)`; unfiltered and without
        sort_by, only the page is read out of the kept order (a collection a client keeps adding
        to made every list cost its whole length)."""
        if collection.sort_by is not None or where != ANY_ITEM:
            return paginate(self.collection_items(collection, where), page, per_page)
        start, stop = page_bounds(page, per_page)
        order = self._ordered_ids(collection.id)
        return Page(list(map(self.items.__getitem__, order[start:stop])), len(order))

    def collection_items(self, collection: Collection, where: ItemFilter = ANY_ITEM) -> list[Item]:
        """Live items of a collection in its order: sort_by/sort_order, else `sort` ascending."""
        if collection.sort_by is None:  # (sort, id): kept in order, not sorted per request
            items = list(map(self.items.__getitem__, self._ordered_ids(collection.id)))
            return items if where == ANY_ITEM else [i for i in items if where(self, i)]
        items = [i for i in self.live_items(collection.id) if where(self, i)]
        key = _SORT_KEYS[collection.sort_by]
        items.sort(key=lambda i: (key(self, i), i.id), reverse=collection.sort_order == "desc")
        return items

    def _ordered_ids(self, collection_id: int) -> list[int]:
        """The collection's live item ids by (sort, id): `_in_order`'s, made if absent. Not a copy."""
        order = self._in_order.get(collection_id)
        if order is None:
            ranked = sorted(self.live_items(collection_id), key=lambda i: (i.sort, i.id))
            order = self._in_order[collection_id] = [i.id for i in ranked]
        return order

    def get_item(self, caller: Account, item_id: int) -> Item:
        return self.visible_item(caller, item_id)[0]

    def siblings(self, item: Item) -> list[Item]:
        """The other items at its level: the stack's other children, or the other top-level items."""
        collection = self.collections[item.collection_id]
        level = (
            self.children(item.parent_id)
            if item.parent_id
            else [i for i in self.collection_items(collection) if i.parent_id is None]
        )
        return [i for i in level if i.id != item.id]

    def stack_children(self, stack: Item, where: ItemFilter = ANY_ITEM) -> list[Item]:
        collection = self.collections[stack.collection_id]
        return (
            self.collection_items(collection, replace(where, parent_id=stack.id))
            if stack.type == "stack"
            else []
        )

    def has_tags(self, item: Item, names: Iterable[str]) -> bool:
        mine = {t.name.casefold() for t in self.item_tags(item.id)}
        return all(n.casefold() in mine for n in names)

    # ------------------------------------------------------------------ writes
    def create_item(
        self, caller: Account, collection_id: int, body: dict[str, Any], file: StoredFile | None = None
    ) -> tuple[Item, bool]:
        """The new item and True; or, with prevent_duplicate, an identical link item and False."""
        collection = self.collection_for(caller, collection_id, "edit")
        self.require_paid(caller, body, PAID_ITEM_FIELDS)
        _check_tag_names(body.get("tags", ()))
        item_type = body["type"]
        content = "" if item_type == "stack" else body.get("content", "")
        if item_type != "stack" and "content" not in body:
            raise InvalidInput("content is required unless type is stack")
        link = body.get("link", content if item_type == "link" else "")
        if body.get("prevent_duplicate") and item_type == "link":
            for existing in self.live_items(collection.id):
                if existing.type == "link" and link in (existing.link, existing.content):
                    return existing, False
        parent = self._stack_for(collection, body.get("parent_id"))
        if parent is not None and item_type == "stack":
            raise InvalidInput("a stack cannot go into a stack")
        children = self._items_to_stack(caller, collection, body.get("items"), item_type)
        now = self.now()
        item = Item(
            id=self.next_id("items"),
            collection_id=collection.id,
            user_id=caller.id,
            type=item_type,
            name=body.get("name", ""),
            content=content,
            created_at=now,
            updated_at=now,
            link=link,
            size=file.size if file else len(content.encode()),
            mime=file.mime if file else mime_of(item_type, content),
            sort=self.next_sort(collection.id),
            metadata=dict(body.get("metadata", {})),
        )
        self._assign_item(item, body)
        self.items[item.id] = item
        self._link_item(item)
        self._set_parent(item, parent)
        for child in children:
            self._set_parent(child, item)
        self._add_tags(item, body.get("tags", []))
        collection.updated_at = now
        self.index_text(item)
        return item, True

    def update_item(
        self, caller: Account, item_id: int, body: dict[str, Any], file: StoredFile | None = None
    ) -> Item:
        item = self.item_for(caller, item_id)
        self.require_paid(caller, body, PAID_ITEM_FIELDS)
        _check_tag_names(body.get("tags", ()))
        collection = self.collections[item.collection_id]
        new_type = body.get("type", item.type)
        if new_type != "stack" and (self._children.get(item.id) or "items" in body):
            raise InvalidInput("only a stack has child items")
        parent = self._stack_for(collection, body["parent_id"]) if body.get("parent_id") else None
        if parent is not None and (parent.id == item.id or new_type == "stack"):
            raise InvalidInput("a stack cannot go into a stack")
        if new_type == "stack" and item.parent_id is not None and "parent_id" not in body:
            raise InvalidInput("an item in a stack cannot become a stack")
        children = self._items_to_stack(caller, collection, body.get("items"), new_type, item)
        self._assign_item(item, body)
        if "sort" in body:
            self.sort_changed(item.collection_id)
        if "type" in body or "content" in body:
            item.type = new_type
            item.content = "" if new_type == "stack" else body.get("content", item.content)
            item.size, item.mime = len(item.content.encode()), mime_of(item.type, item.content)
            if file is not None and item.type != "stack":
                item.size, item.mime = file.size, file.mime
        if "metadata" in body:
            item.metadata = dict(body["metadata"])
        if "parent_id" in body:
            self._set_parent(item, parent)
        if "items" in body:
            for old in self.children(item.id):
                self._set_parent(old, None)
            for child in children:
                self._set_parent(child, item)
        if "tags" in body:
            for tag in self.item_tags(item.id):
                self._remove_tag(tag)
            self._add_tags(item, body["tags"])
        item.updated_at = self.now()
        self.index_text(item)
        return item

    def delete_item(self, caller: Account, item_id: int, delete_items: bool = False) -> None:
        self._delete(self.item_for(caller, item_id), delete_items)

    def delete_items(self, caller: Account, collection_id: int, items: list[int]) -> None:
        collection = self.collection_for(caller, collection_id, "edit")
        for item in self._items_in(collection, items):
            if item.deleted_at is None:  # a stack listed before its child already moved it
                self._delete(item, delete_items=False)

    def update_items_order(self, caller: Account, collection_id: int, order: list[int]) -> list[Item]:
        """The listed items first, in that order, then the others as they were; sort = 1..n."""
        collection = self.collection_for(caller, collection_id, "edit")
        first = self._items_in(collection, order)
        listed = {i.id for i in first}
        rest = sorted(
            (i for i in self.live_items(collection.id) if i.id not in listed), key=lambda i: (i.sort, i.id)
        )
        now = self.now()
        for position, item in enumerate([*first, *rest], start=1):
            if item.sort != position:
                item.sort, item.updated_at = position, now
        self.sort_changed(collection.id)
        return self.collection_items(collection)

    def update_items(self, caller: Account, collection_id: int, body: dict[str, Any]) -> list[Item]:
        """Move the listed items to collection_id, stack them into parent_id, add tags."""
        collection = self.collection_for(caller, collection_id, "edit")
        self.require_paid(caller, body, PAID_ITEM_FIELDS)
        _check_tag_names(body.get("tags", ()))
        items = self._items_in(collection, body["items"])
        target = collection
        if body.get("collection_id") is not None:
            target = self.collection_for(caller, body["collection_id"], "edit")
        parent = self._stack_for(target, body.get("parent_id"))
        if parent is not None and any(i.id == parent.id or i.type == "stack" for i in items):
            raise InvalidInput("a stack cannot go into a stack")
        self._move(items, target)
        now = self.now()
        for item in items:
            if parent is not None:
                self._set_parent(item, parent)
            self._add_tags(item, body.get("tags", []))
            item.updated_at = now
        return items

    def update_multiple_items(
        self, caller: Account, items: list[int], collection_id: int | None = None
    ) -> list[Item]:
        """PUT /v1/items: move the listed items to collection_id."""
        found = [self.item_for(caller, i) for i in unique(items)]
        if collection_id is not None:
            self._move(found, self.collection_for(caller, collection_id, "edit"))
        now = self.now()
        for item in found:
            item.updated_at = now
        return found

    def copy_items(self, caller: Account, items: list[int], collection_id: int | None = None) -> list[Item]:
        """Copies with their tags and metadata, not their comments or reactions (spec 4.2)."""
        originals = [self.visible_item(caller, i)[0] for i in unique(items)]
        targets = {
            cid: self.collection_for(caller, cid, "edit")
            for cid in unique(collection_id or o.collection_id for o in originals)
        }
        return [self._copy(caller, o, targets[collection_id or o.collection_id], None) for o in originals]

    # ------------------------------------------------------------------ helpers
    def _copy(self, caller: Account, original: Item, target: Collection, parent: Item | None) -> Item:
        """A copy made by the caller: it is theirs (user_id), new, in target, after its items."""
        now = self.now()
        values = {f.name: getattr(original, f.name) for f in fields(Item)}
        values.update(
            id=self.next_id("items"),
            collection_id=target.id,
            user_id=caller.id,
            parent_id=None,
            created_at=now,
            updated_at=now,
            deleted_at=None,
            metadata=dict(original.metadata),
            sort=self.next_sort(target.id),
        )
        copy = Item(**values)
        self.items[copy.id] = copy
        self._link_item(copy)
        self._set_parent(copy, parent)
        self._add_tags(copy, [t.name for t in self.item_tags(original.id)])
        self.index_text(copy)
        for child in self.children(original.id):
            self._copy(caller, child, target, copy)
        return copy

    def _items_in(self, collection: Collection, ids: list[int]) -> list[Item]:
        live = self._live.get(collection.id, {})
        missing = [i for i in ids if i not in live]
        if missing:
            raise NotFound(f"Items {missing} are not in collection {collection.id}.")
        return [self.items[i] for i in unique(ids)]

    def _stack_for(self, collection: Collection, parent_id: int | None) -> Item | None:
        if parent_id is None:
            return None
        parent = self.items.get(parent_id)
        if parent is None or parent.deleted_at is not None or parent.collection_id != collection.id:
            raise InvalidInput(f"parent_id {parent_id} is not an item of collection {collection.id}")
        if parent.type != "stack":
            raise InvalidInput(f"parent_id {parent_id} is not a stack")
        return parent

    def _items_to_stack(
        self,
        caller: Account,
        collection: Collection,
        ids: list[int] | None,
        item_type: str,
        stack: Item | None = None,
    ) -> list[Item]:
        if ids is None:
            return []
        if item_type != "stack":
            raise InvalidInput("items (child ids) are only for a stack")
        children = self._items_in(collection, ids)
        if any(c.type == "stack" or (stack is not None and c.id == stack.id) for c in children):
            raise InvalidInput("a stack cannot go into a stack")
        return children

    def _set_parent(self, item: Item, parent: Item | None) -> None:
        top, order = self._sort_top.get(item.collection_id), self._in_order.get(item.collection_id)
        self._unlink_item(item)
        item.parent_id = parent.id if parent is not None else None
        self._link_item(item)
        # the same live items with the same sorts: unlinking dropped these for nothing
        if top is not None:
            self._sort_top[item.collection_id] = top
        if order is not None:
            self._in_order[item.collection_id] = order

    def _move(self, items: list[Item], target: Collection) -> None:
        """Into target, stacks with their children; an item leaving its stack goes to top level."""
        moving = {i.id for i in items}
        for item in items:
            for child in self.children(item.id) if item.type == "stack" else []:
                moving.add(child.id)
        next_sort = self.next_sort(target.id)
        for item_id in sorted(moving):
            item = self.items[item_id]
            if item.collection_id == target.id:
                continue
            self._unlink_item(item)
            item.collection_id, item.sort = target.id, next_sort
            next_sort += 1
            if item.parent_id is not None and item.parent_id not in moving:
                item.parent_id = None
            self._link_item(item)
            self.move_text(item)

    def _delete(self, item: Item, delete_items: bool) -> None:
        for child in self.children(item.id):
            if delete_items:
                self._delete(child, delete_items=True)
            else:
                self._set_parent(child, None)
        self._unlink_item(item)
        item.deleted_at = self.now()
        self.unindex_text(item)

    def _add_tags(self, item: Item, names: Iterable[str]) -> list[Tag]:
        """Tags by name; a name the item already has (any case) answers the existing tag."""
        have = {t.name.casefold(): t for t in self.item_tags(item.id)}
        out = []
        for name in names:
            name = name.strip()
            if not name:
                raise InvalidInput("a tag name must not be blank")
            tag = have.get(name.casefold())
            if tag is None:
                tag = Tag(id=self.next_id("tags"), item_id=item.id, name=name, created_at=self.now())
                self.tags[tag.id] = tag
                self._link_tag(tag)
                have[name.casefold()] = tag
            out.append(tag)
        return out

    def _remove_tag(self, tag: Tag) -> None:
        del self.tags[tag.id]
        self._unlink_tag(tag)

    @staticmethod
    def _assign_item(item: Item, body: dict[str, Any]) -> None:
        for name in _SETTABLE:
            if name in body:
                setattr(item, name, body[name])
