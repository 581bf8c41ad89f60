"""Who may see and do what (docs/design.md: visibility, permissions object).

A caller's role on a collection decides everything: `owner` (the owner, or a manager of
the owning team), `collaborator` (a collaborator, a member of a collaborating team, or a
plain member of the owning team), `reader` (anyone authenticated, on a public or global
collection), or None, which makes the collection and its items a 404.
"""

from __future__ import annotations

from typing import Any

from ..errors import Forbidden, NotFound, PaidPlanRequired
from .core import StoreBase
from .records import Account, Collection, Item

OWNER, COLLABORATOR, READER = "owner", "collaborator", "reader"

PERMISSIONS: dict[str | None, dict[str, bool]] = {
    OWNER: {"admin": True, "edit": True, "share": True, "leave": False, "delete": True},
    COLLABORATOR: {"admin": False, "edit": True, "share": True, "leave": True, "delete": False},
    READER: {"admin": False, "edit": False, "share": False, "leave": False, "delete": False},
}
_VERBS = {"admin": "administer", "edit": "change", "share": "share", "delete": "delete"}


class AccessMixin(StoreBase):
    def role(self, caller: Account, collection: Collection) -> str | None:
        if collection.owner_id == caller.id:
            return OWNER
        owner = self.accounts[collection.owner_id]
        kind = owner.members.get(caller.id) if owner.is_team else None
        if kind == "manager":
            return OWNER
        if kind == "user" or caller.id in collection.collaborators:
            return COLLABORATOR
        if any(team_id in collection.collaborators for team_id in self._teams_of.get(caller.id, ())):
            return COLLABORATOR
        return READER if collection.type in ("public", "global") else None

    def visible_collection(self, caller: Account, collection_id: int) -> tuple[Collection, str]:
        collection = self.collections.get(collection_id)
        role = self.role(caller, collection) if collection else None
        if collection is None or role is None:
            raise NotFound(f"Collection {collection_id} was not found.")
        return collection, role

    def collection_for(self, caller: Account, collection_id: int, permission: str) -> Collection:
        """The collection, if the caller may see it (else 404) and has `permission` (else 403)."""
        collection, role = self.visible_collection(caller, collection_id)
        if not PERMISSIONS[role][permission]:
            raise Forbidden(f"You may not {_VERBS[permission]} collection {collection_id}.")
        return collection

    def visible_item(self, caller: Account, item_id: int) -> tuple[Item, str]:
        """A live item the caller may read: through its collection, or because it is shareable."""
        item = self.items.get(item_id)
        if item is not None and item.deleted_at is None:
            role = self.role(caller, self.collections[item.collection_id])
            if role is None and item.shareable:
                role = READER
            if role is not None:
                return item, role
        raise NotFound(f"Item {item_id} was not found.")

    def can_see_item(self, caller: Account, item_id: int) -> bool:
        try:
            self.visible_item(caller, item_id)
        except NotFound:
            return False
        return True

    def item_for(self, caller: Account, item_id: int, permission: str = "edit") -> Item:
        item, role = self.visible_item(caller, item_id)
        if not PERMISSIONS[role][permission]:
            raise Forbidden(f"You may not {_VERBS[permission]} item {item_id}.")
        return item

    def accessible_collection_ids(self, caller: Account) -> set[int]:
        """Collections the caller owns or collaborates on, directly or through a team."""
        ids = set(self._collections_of.get(caller.id, ()))
        for team_id in self._teams_of.get(caller.id, ()):
            ids |= self._collections_of.get(team_id, set())
        return ids

    @staticmethod
    def require_paid(caller: Account, body: dict[str, Any], paid_fields: tuple[str, ...]) -> None:
        """402 when a free account sends a paid-only field (docs/design.md)."""
        sent = [name for name in paid_fields if name in body]
        if sent and not caller.paid:
            names = ", ".join(sent)
            raise PaidPlanRequired(f"{names}: available on paid plans only.")
