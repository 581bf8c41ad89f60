"""The current user, contacts and availability checks (spec 4.4), and email addresses (4.7)."""

from __future__ import annotations

from typing import Any

from ..errors import Conflict, NotFound
from .accounts import AccountsMixin
from .records import Account, Email
from .teams import TeamsMixin

PAID_USER_FIELDS = ("custom_domain", "labels", "sort_by", "sort_order", "view_mode")


class UsersMixin(TeamsMixin, AccountsMixin):
    # ------------------------------------------------------------------ 4.4 users
    def update_current_user(self, caller: Account, body: dict[str, Any]) -> Account:
        self.require_paid(caller, body, PAID_USER_FIELDS)
        if "username" in body:
            self.require_username_free(body["username"], caller)
        if "email" in body:
            self.require_email_free(body["email"], caller)
        for name in ("name", *PAID_USER_FIELDS):
            if name in body:
                setattr(caller, name, body[name])
        if "username" in body:
            self.rename(caller, body["username"])
        if "email" in body:
            self._make_primary(caller, body["email"])
        return caller

    def list_contacts(self, caller: Account) -> list[Account]:
        """Members of the caller's teams and users the caller shares collections with, not the caller."""
        ids: set[int] = set()
        for team in self.teams_of(caller.id):
            ids |= set(team.members)
        for cid in self.accessible_collection_ids(caller):
            collection = self.collections[cid]
            for account_id in (collection.owner_id, *collection.collaborators):
                account = self.accounts[account_id]
                ids |= set(account.members) if account.is_team else {account.id}
        ids.discard(caller.id)
        return sorted((self.accounts[i] for i in ids), key=lambda a: (a.name.casefold(), a.id))

    def get_email_availability(self, email: str) -> None:
        self.require_email_free(email)

    def get_username_availability(self, username: str) -> None:
        self.require_username_free(username)

    # ------------------------------------------------------------------ 4.7 emails
    def list_email_addresses(self, caller: Account) -> list[Email]:
        """The caller's addresses, the primary one first."""
        mine = [e for e in self.emails.values() if e.user_id == caller.id]
        return sorted(mine, key=lambda e: (e.email.lower() != (caller.email or "").lower(), e.id))

    def create_email_address(self, caller: Account, email: str) -> Email:
        self.require_email_free(email)
        return self.add_email(caller, email)

    def delete_email_address(self, caller: Account, email_id: int) -> None:
        email = self.emails.get(email_id)
        if email is None or email.user_id != caller.id:
            raise NotFound(f"Email address {email_id} was not found.")
        if email.email.lower() == (caller.email or "").lower():
            raise Conflict("The primary email address cannot be deleted.", code="primary_email")
        del self.emails[email.id]
        self._by_email.pop(email.email.lower(), None)

    def _make_primary(self, user: Account, address: str) -> None:
        wanted = address.lower()
        mine = [e for e in self.emails.values() if e.user_id == user.id and e.email.lower() == wanted]
        user.email = (mine[0] if mine else self.add_email(user, address)).email  # spelt as listed
