"""Collections, their collaborators, and the item operations of spec 4.1.

Method names are the operationIds' function names (`collections.list_collections` ->
`Store.list_collections`), so a grep goes from the document to the behaviour.
"""

from __future__ import annotations

from typing import Any

from ..errors import Conflict, Forbidden, InvalidInput, NotFound
from .access import AccessMixin
from .accounts import AccountsMixin
from .core import Page, paginate
from .records import Account, Collection

PAID_COLLECTION_FIELDS = ("archived", "highlighted", "labels", "sort_by", "sort_order", "view_mode")
_SETTABLE = ("name", "type", "description", "thumbnail", *PAID_COLLECTION_FIELDS)


def matches_query(q: str | None, *texts: str | None) -> bool:
    """Every whitespace-separated term of q is in one of the texts (case-insensitive)."""
    if not q:
        return True
    haystack = " ".join(t for t in texts if t).casefold()
    return all(term in haystack for term in q.casefold().split())


class CollectionsMixin(AccessMixin, AccountsMixin):
    # ------------------------------------------------------------------ reads
    def list_collections(
        self,
        caller: Account,
        *,
        host: str = "localhost",
        domain: str | None = None,
        owned: bool | None = None,
        owner_id: int | None = None,
        q: str | None = None,
        sort: str | None = None,
        status: list[str] | None = None,
        page: int | None = None,
        per_page: int | None = None,
    ) -> Page[Collection]:
        if domain is not None:
            account = self.account_by_domain(domain, host)
            if account is None:
                return Page([], 0)
            mine = self.accessible_collection_ids(caller)
            candidates = [
                c
                for cid in self._collections_of.get(account.id, ())
                if (c := self.collections[cid]).owner_id == account.id and (cid in mine or c.type == "global")
            ]
        else:
            candidates = [self.collections[cid] for cid in self.accessible_collection_ids(caller)]
        wanted = set(status or ["active"])
        found = [
            c
            for c in candidates
            if _has_status(c, wanted)
            and (not owned or c.owner_id == caller.id)
            and (owner_id is None or c.owner_id == owner_id)
            and matches_query(q, c.name, c.description)
        ]
        if sort == "name":
            found.sort(key=lambda c: (c.name.casefold(), c.id))
        elif sort == "recent":
            found.sort(key=lambda c: (c.last_accessed_at, c.id), reverse=True)
        else:
            found.sort(key=lambda c: (c.sort, c.id))
        return paginate(found, page, per_page)

    def get_collections_count(self, caller: Account) -> dict[str, int]:
        found = [self.collections[cid] for cid in self.accessible_collection_ids(caller)]
        return {
            "active": sum(not c.archived for c in found),
            "archived": sum(c.archived for c in found),
            "highlighted": sum(c.highlighted for c in found),
            "owned": sum(c.owner_id == caller.id for c in found),
            "total": len(found),
        }

    def get_collection(
        self,
        caller: Account,
        collection_id: int,
        *,
        host: str = "localhost",
        domain: str | None = None,
        log_access: bool | None = None,
    ) -> tuple[Collection, str]:
        collection, role = self.visible_collection(caller, collection_id)
        if domain is not None:
            owner = self.accounts[collection.owner_id]
            if self.dashboard_domain(owner, host).lower() != domain.lower():
                raise NotFound(f"Collection {collection_id} was not found on {domain}.")
        if log_access:
            collection.last_accessed_at = self.now()
            self.generation += 1  # a read that writes: app.py counts only write methods
        return collection, role

    # ------------------------------------------------------------------ writes
    def create_collection(self, caller: Account, body: dict[str, Any]) -> Collection:
        self.require_paid(caller, body, PAID_COLLECTION_FIELDS)
        owner = self._owner_for(caller, body.get("user_id", caller.id))
        invited = self._accounts_named(body.get("users", []))
        now = self.now()
        collection = Collection(
            id=0,  # numbered once the body is accepted: a refused one uses up no id
            owner_id=owner.id,
            name=body["name"],
            type=body["type"],
            created_at=now,
            updated_at=now,
            last_accessed_at=now,
            sort=self._next_collection_sort(owner.id),
        )
        self._assign_collection(collection, body)
        collection.id = self.next_id("collections")
        self.collections[collection.id] = collection
        self._index_type(collection)
        self._live[collection.id] = {}
        self._collections_of.setdefault(owner.id, set()).add(collection.id)
        self._owned_sort_top[owner.id] = collection.sort  # the new highest
        self._invite(collection, invited)
        self.index_text(collection)
        return collection

    def _next_collection_sort(self, owner_id: int) -> int:
        """1 + the highest `sort` of the account's own collections (1 when it owns none)."""
        top = self._owned_sort_top.get(owner_id)
        if top is None:
            siblings = (self.collections[c] for c in self._collections_of.get(owner_id, ()))
            top = max((c.sort for c in siblings if c.owner_id == owner_id), default=0)
        return top + 1

    def _index_type(self, collection: Collection) -> None:
        if (collection.type == "global") != (collection.id in self._global):
            self._global ^= {collection.id}
            self._global_version += 1

    def update_collection(self, caller: Account, collection_id: int, body: dict[str, Any]) -> Collection:
        collection = self.collection_for(caller, collection_id, "edit")
        self.require_paid(caller, body, PAID_COLLECTION_FIELDS)
        if ("type" in body and body["type"] != collection.type) or "user_id" in body:
            collection = self.collection_for(caller, collection_id, "admin")
        new_owner = self._owner_for(caller, body["user_id"]) if "user_id" in body else None
        invited = self._accounts_named(body.get("users", []))
        self._assign_collection(collection, body)
        self._index_type(collection)
        if new_owner is not None and new_owner.id != collection.owner_id:
            self._collections_of[collection.owner_id].discard(collection.id)
            collection.collaborators.pop(new_owner.id, None)
            for owner_id in (collection.owner_id, new_owner.id):  # both highest sorts may change
                self._owned_sort_top.pop(owner_id, None)
            collection.owner_id = new_owner.id
            self._collections_of.setdefault(new_owner.id, set()).add(collection.id)
        self._invite(collection, invited)
        collection.updated_at = self.now()
        self.index_text(collection)
        return collection

    def delete_collection(self, caller: Account, collection_id: int) -> None:
        collection = self.collection_for(caller, collection_id, "delete")
        now = self.now()
        for item in self.live_items(collection.id):
            self._unlink_item(item)  # from its stack's children too, or that index keeps it
            item.deleted_at = now
            self.unindex_text(item)
        self.unindex_text(collection)
        del self._live[collection.id]
        self._sort_top.pop(collection.id, None)
        self._in_order.pop(collection.id, None)
        self._owned_sort_top.pop(collection.owner_id, None)
        for account_id in (collection.owner_id, *collection.collaborators):
            self._collections_of.get(account_id, set()).discard(collection.id)
        del self.collections[collection.id]
        if collection.id in self._global:
            self._global.discard(collection.id)
            self._global_version += 1

    # ------------------------------------------------------------------ collaborators
    def list_collaborators(self, caller: Account, collection_id: int) -> list[tuple[Account, str, bool]]:
        """(account, kind, is_subscribed), the owner first with kind owner (docs/design.md)."""
        return self.collaborators_of(self.visible_collection(caller, collection_id)[0])

    def collaborators_of(self, collection: Collection) -> list[tuple[Account, str, bool]]:
        out = [(self.accounts[collection.owner_id], "owner", True)]
        for account_id, subscribed in collection.collaborators.items():
            account = self.accounts[account_id]
            out.append((account, "team" if account.is_team else "user", subscribed))
        return out

    def add_collaborator(
        self, caller: Account, collection_id: int, body: dict[str, Any]
    ) -> tuple[Account, str, bool]:
        collection = self.collection_for(caller, collection_id, "share")
        account = self._account_from(body)
        if account.id == collection.owner_id or account.id in collection.collaborators:
            raise Conflict(f"{account.username} already has access to collection {collection_id}.")
        self._invite(collection, [account])
        return account, "team" if account.is_team else "user", True

    def remove_collaborator(self, caller: Account, collection_id: int, user_id: int) -> None:
        collection, role = self.visible_collection(caller, collection_id)
        if user_id not in collection.collaborators:
            raise NotFound(f"Account {user_id} is not a collaborator of collection {collection_id}.")
        if user_id != caller.id:  # anyone may leave; removing others needs the share permission
            self.collection_for(caller, collection_id, "share")
        del collection.collaborators[user_id]
        self._collections_of.get(user_id, set()).discard(collection.id)

    # ------------------------------------------------------------------ helpers
    def _owner_for(self, caller: Account, owner_id: int) -> Account:
        """The caller, or a team the caller manages, may own a collection."""
        owner = self.accounts.get(owner_id)
        if owner is None:
            raise NotFound(f"Account {owner_id} was not found.")
        if owner.id != caller.id and owner.members.get(caller.id) != "manager":
            raise Forbidden(f"You may not create collections for account {owner_id}.")
        return owner

    def _accounts_named(self, ids: list[int]) -> list[Account]:
        missing = [i for i in ids if i not in self.accounts]
        if missing:
            raise NotFound(f"Accounts {missing} were not found.")
        return [self.accounts[i] for i in dict.fromkeys(ids)]

    def _account_from(self, body: dict[str, Any]) -> Account:
        if "id" in body:
            account, what = self.accounts.get(body["id"]), f"id {body['id']}"
        elif "email" in body:
            account, what = self.account_by_email(body["email"]), f"email {body['email']}"
        else:
            account, what = self.account_by_username(body["username"]), f"username {body['username']}"
        if account is None:
            raise NotFound(f"No account has the {what}.")
        return account

    def _invite(self, collection: Collection, accounts: list[Account]) -> None:
        for account in accounts:
            if account.id != collection.owner_id and account.id not in collection.collaborators:
                collection.collaborators[account.id] = True
                self._collections_of.setdefault(account.id, set()).add(collection.id)

    @staticmethod
    def _assign_collection(collection: Collection, body: dict[str, Any]) -> None:
        if body.get("name") == "":
            raise InvalidInput("name must not be empty")
        for name in _SETTABLE:
            if name in body:
                setattr(collection, name, body[name])


def _has_status(collection: Collection, wanted: set[str]) -> bool:
    return (
        ("active" in wanted and not collection.archived)
        or ("archived" in wanted and collection.archived)
        or ("highlighted" in wanted and collection.highlighted)
    )
