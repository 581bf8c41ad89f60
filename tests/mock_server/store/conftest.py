"""Store unit tests: a fresh Store on the "empty" set with its own standing clock, no HTTP.

`world` (tests/mock_server/conftest.py) builds on these `store` and `clock`.
"""

from __future__ import annotations

import pytest

from csapi.mock_server.store import Store
from csapi.mock_server.store.records import Account
from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Clock, empty_data


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def store(clock: Clock) -> Store:
    return Store(clock=clock, data=empty_data())


@pytest.fixture
def pro(store: Store) -> Account:
    return store.accounts[PRO]


@pytest.fixture
def free(store: Store) -> Account:
    return store.accounts[FREE]


@pytest.fixture
def stranger(store: Store) -> Account:
    return store.accounts[STRANGER]


@pytest.fixture
def team(store: Store) -> Account:
    return store.accounts[TEAM]
