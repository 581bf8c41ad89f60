"""The mock's half of `csapi validate --drift`: the mock built on an edited document, for
conformance/drift.py to check against it (cli.py hands `mock_on` over; mock_server never imports
conformance, see ARCHITECTURE.md).

The mock routes and validates by the edited document, with response validation on (an answer
the document does not allow becomes a 400 naming the field), over the "default" fixtures and a
clock that stands still; no cache, so every request is computed. What the check needs besides
the app is plain data: the API key, user 1 (the pro user, so paid fields are accepted) and the
ids of what that user owns, and a way back to the first data before each operation.
"""

from __future__ import annotations

import contextlib
import copy
import logging
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..fixtures import generate
from .app import create_app
from .store import Store

API_KEY = "csapi-drift-key"
CLOCK = datetime(2026, 11, 21, 12, 0, 0, tzinfo=UTC)
USER_ID = 1


@dataclass(frozen=True)
class DriftMock:
    """The mock on a document, and what drift needs to call it (conformance.drift.Server)."""

    app: Any
    api_key: str
    user_id: int
    token: str
    ids: dict[str, list[int]]
    store: Store
    data: dict[str, Any]

    def reset(self) -> None:
        """Back to the fixtures, so that every operation starts from the same data."""
        self.store.reset(copy.deepcopy(self.data))


def mock_on(document: Path) -> DriftMock:
    """The mock built on `document` (raises whatever connexion refuses in it)."""
    data = generate("default", 0)
    store = Store(clock=lambda: CLOCK, data=copy.deepcopy(data))
    app = create_app(
        store,
        api_key=API_KEY,
        clock=lambda: CLOCK,
        validate_responses=True,
        cache=False,
        document=document,
    )
    user = store.accounts[USER_ID]
    return DriftMock(app, API_KEY, user.id, user.token, owned_ids(store, user.id), store, data)


def owned_ids(store: Store, me: int) -> dict[str, list[int]]:
    """Ids of what user `me` owns (or belongs to), by the name of the parameter or body field."""
    collections = sorted(c.id for c in store.collections.values() if c.owner_id == me)
    mine = set(collections)
    items = sorted(i.id for i in store.items.values() if i.collection_id in mine)
    on_items = set(items)
    stacks = [i.id for i in store.items.values() if i.id in on_items and i.type == "stack"]
    ids = {
        "collection_id": collections,
        "item_id": items,
        "parent_id": stacks or items,
        "tag_id": sorted(t.id for t in store.tags.values() if t.item_id in on_items),
        "comment_id": sorted(
            c.id for c in store.comments.values() if c.item_id in on_items and c.user_id == me
        ),
        "reaction_id": sorted(
            r.id for r in store.reactions.values() if r.item_id in on_items and r.user_id == me
        ),
        "email_id": sorted(e.id for e in store.emails.values() if e.user_id == me),
        "team_id": sorted(a.id for a in store.accounts.values() if a.kind == "team" and me in a.members),
        "user_id": sorted(store.accounts),
    }
    return {name: values for name, values in ids.items() if values}


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """connexion logs each answer it refuses and each operation; the drift report says it once."""
    logger = logging.getLogger("connexion")
    level = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(level)
