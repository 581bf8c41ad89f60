"""Tags (spec 4.8) and the two tag lists (collection tags, item tags)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from ..errors import NotFound
from .items import PAID_ITEM_FIELDS, ItemsMixin
from .records import Account, Item, Tag


class TagsMixin(ItemsMixin):
    def list_tags(self, caller: Account) -> list[tuple[str, int]]:
        """Every tag name on the items the caller can see, with how many items carry it."""
        items = (i for cid in self.accessible_collection_ids(caller) for i in self.live_items(cid))
        return self._count_tags(items)

    def list_collection_tags(self, caller: Account, collection_id: int) -> list[tuple[str, int]]:
        collection, _ = self.visible_collection(caller, collection_id)
        return self._count_tags(self.live_items(collection.id))

    def list_item_tags(self, caller: Account, item_id: int) -> list[Tag]:
        return self.item_tags(self.get_item(caller, item_id).id)

    def create_tag(self, caller: Account, item_id: int, name: str) -> Tag:
        item = self.item_for(caller, item_id)
        self.require_paid(caller, {"tags": name}, PAID_ITEM_FIELDS)
        tag = self._add_tags(item, [name])[0]
        item.updated_at = self.now()
        return tag

    def delete_tag(self, caller: Account, tag_id: int) -> None:
        tag = self.tags.get(tag_id)
        if tag is None:
            raise NotFound(f"Tag {tag_id} was not found.")
        try:
            self.item_for(caller, tag.item_id)
        except NotFound:
            raise NotFound(f"Tag {tag_id} was not found.") from None
        self._remove_tag(tag)

    def _count_tags(self, items: Iterable[Item]) -> list[tuple[str, int]]:
        """(name, items carrying it), names compared without case, sorted by name."""
        counts: Counter[str] = Counter()
        shown: dict[str, str] = {}
        for item in items:
            for tag in self.item_tags(item.id):
                key = tag.name.casefold()
                shown.setdefault(key, tag.name)
                counts[key] += 1
        return [(shown[key], counts[key]) for key in sorted(counts)]
