"""The current user, contacts, availability and email addresses in the store (spec 4.4, 4.7),
without HTTP."""

from __future__ import annotations

import pytest

from csapi.mock_server.errors import Conflict, InvalidInput, NotFound, PaidPlanRequired
from csapi.mock_server.store import Store
from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Clock


def addresses(store: Store, user: int) -> list[str]:
    return [e.email for e in store.list_email_addresses(store.accounts[user])]


def test_a_paid_field_from_a_free_user_changes_nothing(store: Store):
    free = store.accounts[FREE]
    with pytest.raises(PaidPlanRequired):
        store.update_current_user(free, {"name": "New", "username": "new", "view_mode": "shelf"})
    assert (free.name, free.username, free.view_mode) == ("Robert Green", "rgreen", "tile")
    assert store.account_by_username("new") is None


def test_username_and_email_conflicts_change_nothing(store: Store):
    pro = store.accounts[PRO]
    with pytest.raises(Conflict) as username:
        store.update_current_user(pro, {"name": "New", "username": "Faulkner-Howard"})
    with pytest.raises(Conflict) as email:
        store.update_current_user(pro, {"name": "New", "email": "RGREEN@example.org"})
    assert (username.value.code, email.value.code) == ("username_unavailable", "email_unavailable")
    assert (pro.name, pro.username, pro.email) == ("Megan Chang", "megan_chang", "megan_chang@example.org")


def test_a_new_primary_email_joins_the_addresses_and_resolves_to_the_user(store: Store):
    pro = store.accounts[PRO]
    store.update_current_user(pro, {"email": "Meg@Example.net"})
    assert pro.email == "Meg@Example.net"
    assert addresses(store, PRO) == ["Meg@Example.net", "megan_chang@example.org"]
    assert store.account_by_email("meg@example.net") is pro
    store.update_current_user(
        pro, {"email": "megan_chang@example.org"}
    )  # back to the old one: no new address
    assert addresses(store, PRO) == ["megan_chang@example.org", "Meg@Example.net"]


def test_rename_moves_the_username_index(store: Store):
    pro = store.accounts[PRO]
    store.update_current_user(pro, {"username": "meg", "custom_domain": "meg.example.net"})
    assert store.account_by_username("MEG") is pro
    assert store.account_by_username("megan_chang") is None
    store.get_username_availability("megan_chang")
    with pytest.raises(Conflict):
        store.get_username_availability("meg")


@pytest.mark.parametrize("address", ["nope", "a@b", "a b@example.org"])
def test_a_malformed_email_is_invalid(store: Store, address):
    with pytest.raises(InvalidInput):
        store.get_email_availability(address)
    with pytest.raises(InvalidInput):
        store.create_email_address(store.accounts[PRO], address)


def test_email_addresses(store: Store):
    pro, free = store.accounts[PRO], store.accounts[FREE]
    added = store.create_email_address(pro, "second@example.net")
    with pytest.raises(Conflict):
        store.create_email_address(free, "SECOND@example.net")
    with pytest.raises(Conflict):
        store.create_email_address(pro, "faulkner-howard@example.com")  # a team's address
    with pytest.raises(NotFound):
        store.delete_email_address(free, added.id)
    with pytest.raises(Conflict) as primary:
        store.delete_email_address(pro, 1)
    assert primary.value.code == "primary_email"
    store.delete_email_address(pro, added.id)
    assert addresses(store, PRO) == ["megan_chang@example.org"]
    store.get_email_availability("second@example.net")
    assert store.account_by_email("second@example.net") is None


def test_contacts(store: Store, clock: Clock):
    pro, free, stranger = (store.accounts[i] for i in (PRO, FREE, STRANGER))

    def contacts(user) -> list[int]:
        return [a.id for a in store.list_contacts(user)]

    assert (contacts(pro), contacts(free), contacts(stranger)) == ([FREE], [PRO], [])
    store.create_collection(stranger, {"name": "Mine", "type": "private", "users": [TEAM]})
    assert (contacts(pro), contacts(free), contacts(stranger)) == (
        [FREE, STRANGER],
        [PRO, STRANGER],
        [PRO, FREE],
    )
    store.create_collection(pro, {"name": "Public", "type": "global"})
    assert TEAM not in contacts(stranger)


def test_the_store_state_survives_a_snapshot(store: Store, clock: Clock):
    pro = store.accounts[PRO]
    store.create_email_address(pro, "second@example.net")
    store.update_current_user(pro, {"email": "second@example.net", "username": "meg"})
    restored = Store(clock=clock, data=store.snapshot())
    assert addresses(restored, PRO) == ["second@example.net", "megan_chang@example.org"]
    assert restored.account_by_username("meg").id == PRO
    assert restored.account_by_email("second@example.net").id == PRO
