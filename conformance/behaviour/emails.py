"""Behaviour checks of the emails operations (operationIds emails.*), grouped by rule family."""

from __future__ import annotations

from typing import Any

from ..http import LAYER, Session, me, session, unique
from ..registry import RunContext, check
from .common import MESSAGE, makes_and_deletes, stored, unused_address, vanished

# -- helpers


def _address(s: Session) -> tuple[str, dict[str, Any]]:
    """A new address of the current user's, registered for cleanup; and its answer."""
    address = f"{unique(s)}@example.com"
    made = s.body(s.call("POST", "/v1/emails", ok=(201,), json_body={"email": address}))
    s.expect(isinstance(made.get("id"), int), "the new email address has no integer id")
    s.register("email", f"/v1/emails/{made['id']}")
    return address, made


def _addresses(s: Session) -> dict[Any, str]:
    return {
        e.get("id"): str(e.get("email")).lower()
        for e in s.body(s.call("GET", "/v1/emails"), list)
        if isinstance(e, dict)
    }


def _available(s: Session, address: str) -> bool:
    exchange = s.call("GET", "/v1/users/email", ok=(), params={"email": address})
    data = exchange.json()
    return exchange.status == 200 and isinstance(data, dict) and data.get("code") == "email_available"


# -- persistence: what a write stores, as a later, different read shows it


@check(
    LAYER,
    "emails.create_email_address",
    "a new address is listed, included and taken",
    statements=(
        "1/emails",
        "2.9/include",
        "2.10/email",
        "4.7/list-emails",
        "4.7/create-email",
        "4.7/current-user",
    ),
)
def email_created_listed(ctx: RunContext) -> None:
    with session(ctx) as s:
        address, made = _address(s)
        listed = _addresses(s)
        stored(
            s,
            listed.get(made["id"]) == address,
            f"List email addresses shows {listed}, not {made['id']}: {address}",
        )
        included = [
            str(e.get("email")).lower()
            for e in me(s, include="emails").get("emails") or []
            if isinstance(e, dict)
        ]
        stored(s, address in included, f"Get current user include=emails shows {included}, not {address}")
        stored(
            s,
            not _available(s, address),
            f"Get email availability calls the user's new address {address} available",
        )


# -- deletion: where a deleted thing must disappear


@check(
    LAYER,
    "emails.delete_email_address",
    "a deleted address is gone from the list and include=emails (--strict: and available again)",
    statements=("1/emails", "4.4/email-availability", "4.7/delete-email", "4.7/current-user"),
)
def email_deleted_gone(ctx: RunContext) -> None:
    with session(ctx) as s:
        address, made = _address(s)
        path = f"/v1/emails/{made['id']}"
        s.call("DELETE", path)
        s.gone(path)
        listed = _addresses(s)
        vanished(
            s,
            made["id"] not in listed and address not in listed.values(),
            f"List email addresses still shows {address}",
        )
        included = [
            str(e.get("email")).lower()
            for e in me(s, include="emails").get("emails") or []
            if isinstance(e, dict)
        ]
        vanished(
            s, address not in included, f"Get current user include=emails still shows the deleted {address}"
        )
        if ctx.settings.strict:  # the spec does not say a released address is free again
            vanished(
                s,
                _available(s, address),
                f"Get email availability does not call the deleted address {address} available",
            )


# -- wording: fixed codes and messages


@check(
    LAYER,
    "emails.delete_email_address",
    "Delete an email address says code deleted",
    statements=(
        *MESSAGE,
        "4/delete-answer",
        "4.7/delete-email",
    ),
)
def delete_email_says_deleted(ctx: RunContext) -> None:
    with session(ctx) as s:
        address = unused_address(s)
        makes_and_deletes(s, "/v1/emails", {"email": address}, "email", "Delete an email address")
