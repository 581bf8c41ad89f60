"""Accounts and credentials: users and teams, sign-in, Basic credentials, new users."""

from __future__ import annotations

import hmac
import re
import secrets

from ..errors import Conflict, InvalidInput, Unauthorized
from .core import StoreBase
from .records import Account, Email

EMAIL = re.compile(r"[^@\s]+@[^@\s]+\.[^@\s]+")


def new_password() -> str:
    return secrets.token_urlsafe(12)


def new_token() -> str:
    return secrets.token_hex(16)


class AccountsMixin(StoreBase):
    def user_for_credentials(self, user_id: str, token: str) -> Account | None:
        """The user whose id and token these are, compared in constant time; else None."""
        # isascii: "²".isdigit() holds but int() refuses it; 18 digits: int() refuses 4300+
        known = user_id.isascii() and user_id.isdigit() and len(user_id) <= 18
        account = self.accounts.get(int(user_id)) if known else None
        if account is None or account.is_team:
            hmac.compare_digest(token.encode(), token.encode())  # same work whether or not the id exists
            return None
        return account if hmac.compare_digest(account.token.encode(), token.encode()) else None

    def authenticate(self, email: str, password: str) -> Account:
        """POST /v1/auth: the user with this address and password (docs/design.md, /auth)."""
        account = self.account_by_email(email)
        if account is None or account.is_team:
            raise Unauthorized("No user has this email address.", code="user_invalid")
        if not hmac.compare_digest(account.password.encode(), password.encode()):
            raise Unauthorized("The password is not correct.", code="password_incorrect")
        return account

    def create_user(
        self,
        *,
        plan: str = "free",
        name: str | None = None,
        password: str | None = None,
        token: str | None = None,
    ) -> Account:
        """A new user with fresh random credentials (the admin API's POST /__mock__/users); a shared
        engine draws them once and hands them to every replica (`password`, `token`)."""
        account_id = self.next_id("accounts")
        username = f"user{account_id}"
        while self.account_by_username(username):
            username += "x"
        email = f"{username}@example.com"
        account = Account(
            id=account_id,
            kind="user",
            name=name or f"User {account_id}",
            username=username,
            email=email,
            plan=plan,
            created_at=self.now(),
            password=password or new_password(),
            token=token or new_token(),
        )
        self.accounts[account.id] = account
        self._index_account(account)
        self.add_email(account, email)
        self.generation += 1  # the admin API's route, not a counted API request
        return account

    def add_email(self, user: Account, address: str) -> Email:
        email = Email(id=self.next_id("emails"), user_id=user.id, email=address)
        self.emails[email.id] = email
        self._by_email[address.lower()] = user.id
        return email

    def require_username_free(self, username: str, account: Account | None = None) -> None:
        """409 username_unavailable when another account (user or team) has it."""
        holder = self.account_by_username(username)
        if holder is not None and holder is not account:
            raise Conflict(f"The username {username} is taken.", code="username_unavailable")

    def require_email_free(self, address: str, account: Account | None = None) -> None:
        """409 email_unavailable when another account (user or team) uses it."""
        if not EMAIL.fullmatch(address):
            raise InvalidInput(f"{address!r} is not an email address")
        holder = self.account_by_email(address)
        if holder is not None and holder is not account:
            raise Conflict(f"The email address {address} is in use.", code="email_unavailable")

    def rename(self, account: Account, username: str) -> None:
        del self._by_username[account.username.lower()]
        account.username = username
        self._by_username[username.lower()] = account.id

    def dashboard_domain(self, account: Account, host: str) -> str:
        """The account's custom_domain when set, else <username>.<server host> (docs/design.md)."""
        return account.custom_domain or f"{account.username}.{host}"

    def account_by_domain(self, domain: str, host: str) -> Account | None:
        domain = domain.lower()
        for account in self.accounts.values():
            if account.custom_domain and account.custom_domain.lower() == domain:
                return account
        suffix = "." + host.lower()
        if domain.endswith(suffix):
            return self.account_by_username(domain[: -len(suffix)])
        return None
