"""Views: turn the store's records into the exact JSON shapes of the spec (section 2).

Everything derived is computed here, at render time, from the store: owner fields,
counts, absolute urls built from the server's base URL, thumbnails, permissions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .store import Found, ItemFilter, Store, paginate
from .store.access import PERMISSIONS
from .store.items import ANY_ITEM, is_url
from .store.records import Account, Collection, Comment, Email, Item, Reaction, Tag

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
            "last_accessed_at": self.store.time_text(collection.last_accessed_at),
            "created_at": self.store.time_text(collection.created_at),
            "updated_at": self.store.time_text(collection.updated_at),
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
            found = self.store.collection_page(collection, items_where, items_page, items_per_page)
            out["items"] = [self.item(i) for i in found.entries]
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
            "created_at": self.store.time_text(item.created_at),
            "updated_at": self.store.time_text(item.updated_at),
            "deleted_at": self.store.time_text(item.deleted_at) if item.deleted_at else None,
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
            "created_at": self.store.time_text(comment.created_at),
            "updated_at": self.store.time_text(comment.updated_at),
        }

    def reaction(self, reaction: Reaction) -> Json:
        stamp = self.store.time_text(reaction.created_at)
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

    def current_user(self, account: Account, include: list[str] | None = None) -> Json:
        """The current user, with emails, teams and teams_total_count when asked."""
        out = self.user(account)
        include = include or []
        teams = self.store.list_teams(account) if {"teams", "teams_total_count"} & set(include) else []
        if "emails" in include:
            out["emails"] = [self.email_address(e) for e in self.store.list_email_addresses(account)]
        if "teams" in include:
            out["teams"] = [self.team_list_entry(team, kind) for team, kind in teams]
        if "teams_total_count" in include:
            out["teams_total_count"] = len(teams)
        return out

    @staticmethod
    def email_address(email: Email) -> Json:
        return {"id": email.id, "email": email.email}

    # ------------------------------------------------------------------ 2.6, 2.7 teams
    def team_list_entry(self, team: Account, user_kind: str) -> Json:
        return {
            "id": team.id,
            "created_at": self.store.time_text(team.created_at),
            "name": team.name,
            "username": team.username,
            "avatar": self.avatar(team),
            "custom_domain": team.custom_domain,
            "plan": team.plan,
            "plan_active": team.plan_active,
            "billing_email": team.billing_email or _email_of(team),
            "user_kind": user_kind,
        }

    def team(self, team: Account) -> Json:
        """The shape Update a team answers."""
        return {
            "id": team.id,
            "name": team.name,
            "username": team.username,
            "avatar": self.avatar(team),
            "custom_domain": team.custom_domain,
            "sort_by": team.sort_by,
            "sort_order": team.sort_order,
            "view_mode": team.view_mode,
            "labels": team.labels,
            "plan": team.plan,
            "plan_active": team.plan_active,
            "plan_quantity": team.plan_quantity,
            "billing_email": team.billing_email or _email_of(team),
            "status": team.status,
            "created_at": self.store.time_text(team.created_at),
            "feed_key": team.feed_key,
            "usage": self.store.team_usage(team),
        }

    def team_detail(self, team: Account, user_kind: str) -> Json:
        """The shape Get a team answers: the update shape plus email, user_kind and users."""
        members = [self.team_member(user, kind) for user, kind in self.store.members_of(team)]
        return {**self.team(team), "email": team.email, "user_kind": user_kind, "users": members}

    def team_member(self, user: Account, kind: str) -> Json:
        return {
            "id": user.id,
            "name": user.name,
            "email": _email_of(user),
            "username": user.username,
            "avatar": self.avatar(user),
            "custom_domain": user.custom_domain,
            "plan": user.plan,
            "status": user.status,
            "kind": kind,
        }

    # ------------------------------------------------------------------ 2.11, 2.12
    def search_result(self, found: Found) -> Json:
        """A collection, item or comment found; item-only fields are null for the others."""
        store, record = self.store, found.record
        if TYPE_CHECKING:  # search finds collections, items and comments, never a reaction
            assert not isinstance(record, Reaction)
        shown: Item | None = None  # the item whose own fields are shown
        parent: Item | None = None
        if isinstance(record, Collection):
            collection, author = record, store.accounts[record.owner_id]
            kind, target, name = "collections", record.id, record.name
        else:
            item = record if isinstance(record, Item) else store.items[record.item_id]
            collection, author = store.collections[item.collection_id], store.accounts[record.user_id]
            kind, target = "items", item.id
            if isinstance(record, Item):
                shown, name = item, item.name
                parent = store.items[item.parent_id] if item.parent_id else None
            else:  # a comment: item-only fields null (spec-gaps); its urls are its item's
                name = record.body
        return {
            "id": record.id,
            "name": name,
            "collection_id": collection.id,
            "collection_name": collection.name,
            "parent_id": parent.id if parent else None,
            "parent_name": parent.name if parent else None,
            "description": getattr(record, "description", None),
            "link": shown.link if shown else None,
            "preview": shown.preview if shown else None,
            "thumbnail": getattr(record, "thumbnail", None),
            "size": shown.size if shown else None,
            "type": shown.type if shown else found.kind,
            "mime": shown.mime if shown else None,
            "latitude": shown.latitude if shown else None,
            "longitude": shown.longitude if shown else None,
            "created_at": self.store.time_text(record.created_at),
            "updated_at": self.store.time_text(record.updated_at),
            "user_id": author.id,
            "user_name": author.name,
            "username": author.username,
            "user_email": _email_of(author),
            "relevance": _decimal(found.score),
            "is_url": is_url(shown.content) if shown else False,
            "thumbnails": self.thumbnails(kind, target),
            "collection_url": self.urls("collections", collection.id)["url"],
            **self.urls(kind, target),
        }

    def activity_entry(self, found: Found) -> Json:
        """One collection, item, comment or reaction created; urls lead to where it happened."""
        store, record = self.store, found.record
        item = store.items[record.item_id] if isinstance(record, Comment | Reaction) else record
        author = store.accounts[record.owner_id if isinstance(record, Collection) else record.user_id]
        kind, target = ("collections", record.id) if isinstance(record, Collection) else ("items", item.id)
        name = record.body if isinstance(record, Comment) else item.name
        if isinstance(record, Collection | Item):
            description, thumbnail = record.description, record.thumbnail
        else:
            description = thumbnail = None
        return {
            "id": record.id,
            "name": name,
            "description": description,
            "thumbnail": thumbnail,
            "type": found.kind,
            "latitude": record.latitude if isinstance(record, Item) else None,
            "longitude": record.longitude if isinstance(record, Item) else None,
            "created_at": self.store.time_text(record.created_at),
            "updated_at": self.store.time_text(getattr(record, "updated_at", record.created_at)),
            "user_id": author.id,
            "user_name": author.name,
            "username": author.username,
            "user_email": _email_of(author),
            "user_avatar": self.avatar(author),
            "thumbnails": self.thumbnails(kind, target),
            **self.urls(kind, target),
        }


def _decimal(score: float) -> str:
    """A relevance score as a decimal string ("2.5", "3"), never in exponent notation."""
    return f"{score:.4f}".rstrip("0").rstrip(".") or "0"


def _email_of(account: Account) -> str:
    return account.email or account.billing_email or ""
