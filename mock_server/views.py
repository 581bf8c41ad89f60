"""Views: turn the store's records into the exact JSON shapes of the spec (section 2).

Everything derived is computed here, at render time, from the store: owner fields,
counts, absolute urls built from the server's base URL, thumbnails, permissions.
"""

from __future__ import annotations

from typing import Any

from mock_server.store import ItemFilter, Store, format_time, paginate
from mock_server.store.access import PERMISSIONS
from mock_server.store.items import ANY_ITEM, is_url
from mock_server.store.records import Account, Collection, Comment, Item, Reaction, Tag

THUMBNAIL_KEYS = ("mini", "small", "cropped", "uncropped", "large")
Json = dict[str, Any]


class Views:
    """Renders for one request: the caller decides permissions, the base URL the urls."""

    def __init__(self, store: Store, caller: Account | None, base_url: str):
        self.store = store
        self.caller = caller
        self.base_url = base_url.rstrip("/")

    # ------------------------------------------------------------------ urls
    def avatar(self, account: Account) -> str:
        return f"{self.base_url}/avatars/{account.id}.png"

    def thumbnails(self, kind: str, record_id: int) -> Json:
        return {key: f"{self.base_url}/thumbnails/{kind}/{record_id}/{key}.png" for key in THUMBNAIL_KEYS}

    def urls(self, kind: str, record_id: int) -> Json:
        base = self.base_url
        return {"url": f"{base}/{kind}/{record_id}", "short_url": f"{base}/s/{kind[0]}{record_id}"}

    # ------------------------------------------------------------------ 2.1 collection
    def collection(self, collection: Collection, role: str | None = None) -> Json:
        store = self.store
        owner = store.accounts[collection.owner_id]
        if role is None and self.caller is not None:
            role = store.role(self.caller, collection)
        return {
            "id": collection.id,
            "user_id": owner.id,
            "name": collection.name,
            "description": collection.description,
            "type": collection.type,
            "sort": collection.sort,
            "sort_by": collection.sort_by,
            "sort_order": collection.sort_order,
            "view_mode": collection.view_mode,
            "thumbnail": collection.thumbnail,
            "labels": collection.labels,
            "highlighted": collection.highlighted,
            "archived": collection.archived,
            "last_accessed_at": format_time(collection.last_accessed_at),
            "created_at": format_time(collection.created_at),
            "updated_at": format_time(collection.updated_at),
            "items_total_count": len(store._live.get(collection.id, ())),
            "user_name": owner.name,
            "username": owner.username,
            "user_email": _email_of(owner),
            "user_avatar": self.avatar(owner),
            "custom_domain": owner.custom_domain,
            "user_plan": owner.plan,
            "user_plan_active": owner.plan_active,
            "users_total_count": 1 + len(collection.collaborators),
            **self.urls("collections", collection.id),
            "thumbnails": self.thumbnails("collections", collection.id),
            "permissions": dict(PERMISSIONS[role or "reader"]),
        }

    def collection_with(
        self,
        collection: Collection,
        role: str | None = None,
        include: list[str] | None = None,
        items_where: ItemFilter = ANY_ITEM,
        items_page: int | None = None,
        items_per_page: int | None = None,
    ) -> Json:
        """A collection with what `include` asked for: a page of its items, its collaborators."""
        out = self.collection(collection, role)
        if include and "items" in include:
            found = self.store.collection_items(collection, items_where)
            out["items"] = [self.item(i) for i in paginate(found, items_page, items_per_page).entries]
        if include and "users" in include:
            out["users"] = [self.collaborator(*entry) for entry in self.store.collaborators_of(collection)]
        return out

    def collaborator(self, account: Account, kind: str, is_subscribed: bool) -> Json:
        return {
            "id": account.id,
            "name": account.name,
            "email": _email_of(account),
            "user_avatar": self.avatar(account),
            "username": account.username,
            "plan": account.plan,
            "billing_email": account.billing_email,
            "kind": kind,
            "is_subscribed": is_subscribed,
        }

    # ------------------------------------------------------------------ 2.2 item
    def item(self, item: Item) -> Json:
        store = self.store
        author = store.accounts[item.user_id]
        reactions = store.item_reactions(item.id)
        return {
            "id": item.id,
            "collection_id": item.collection_id,
            "user_id": item.user_id,
            "parent_id": item.parent_id,
            "name": item.name,
            "description": item.description,
            "content": item.content,
            "link": item.link,
            "preview": item.preview,
            "thumbnail": item.thumbnail,
            "shareable": item.shareable,
            "size": item.size,
            "sort": item.sort,
            "type": item.type,
            "mime": item.mime,
            "latitude": item.latitude,
            "longitude": item.longitude,
            "created_at": format_time(item.created_at),
            "updated_at": format_time(item.updated_at),
            "deleted_at": format_time(item.deleted_at) if item.deleted_at else None,
            "reactions_total_count": len(reactions),
            "user_name": author.name,
            "user_email": _email_of(author),
            "user_plan": author.plan,
            **self.urls("items", item.id),
            "thumbnails": self.thumbnails("items", item.id),
            "reactions": [self.reaction(r) for r in reactions],
            "is_url": is_url(item.content),
            "comments": [self.comment(c) for c in store.item_comments(item.id)],
            "tags": [self.item_tag(t) for t in store.item_tags(item.id)],
            "metadata": [{"key": k, "value": v} for k, v in item.metadata.items()],
        }

    def item_with(
        self,
        item: Item,
        include: list[str] | None = None,
        items_where: ItemFilter = ANY_ITEM,
        items_page: int | None = None,
        items_per_page: int | None = None,
    ) -> Json:
        """An item with what `include` asked for (parent is absent for a top-level item)."""
        out = self.item(item)
        include = include or []
        store = self.store
        if "items" in include:
            found = store.stack_children(item, items_where)
            out["items"] = [self.item(i) for i in paginate(found, items_page, items_per_page).entries]
        if "stack_items" in include:
            out["stack_items"] = [self.item(i) for i in store.stack_children(item)]
        if "parent" in include and item.parent_id is not None:
            out["parent"] = self.item(store.items[item.parent_id])
        if "siblings" in include:
            out["siblings"] = [self.item(i) for i in store.siblings(item)]
        return out

    # ------------------------------------------------------------------ 2.3 - 2.5
    def _author(self, user_id: int) -> Json:
        author = self.store.accounts[user_id]
        return {
            "user_id": author.id,
            "username": author.username,
            "name": author.name,
            "email": _email_of(author),
            "avatar": self.avatar(author),
        }

    def comment(self, comment: Comment) -> Json:
        return {
            "id": comment.id,
            **self._author(comment.user_id),
            "body": comment.body,
            "annotation": None,
            "created_at": format_time(comment.created_at),
            "updated_at": format_time(comment.updated_at),
        }

    def reaction(self, reaction: Reaction) -> Json:
        stamp = format_time(reaction.created_at)
        return {"id": reaction.id, "item_id": reaction.item_id, **self._author(reaction.user_id),
                "created_at": stamp, "updated_at": stamp}  # fmt: skip

    @staticmethod
    def item_tag(tag: Tag) -> Json:
        return {"id": tag.id, "name": tag.name}

    @staticmethod
    def tag_count(name: str, items_total_count: int) -> Json:
        return {"items_total_count": items_total_count, "name": name}

    # ------------------------------------------------------------------ 2.9 user
    def user(self, account: Account) -> Json:
        return {
            "id": account.id,
            "name": account.name,
            "email": _email_of(account),
            "username": account.username,
            "avatar": self.avatar(account),
            "status": account.status,
            "plan": account.plan,
        }


def _email_of(account: Account) -> str:
    return account.email or account.billing_email or ""
