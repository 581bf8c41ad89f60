"""Session-wide subjects of the store benchmarks: one store per fixture set, built once.

`data_set` is parametrised over the sets "default" and "large" (ids `default`, `large`), so
every benchmark that takes it runs once per set and `--benchmark-group-by=func` puts the two
side by side. The stores are shared by all benchmarks and must only be read: no benchmark
here calls a store method that writes.

What each benchmark works on is chosen from the data by rule, not by id, except for the
four guaranteed accounts (fixtures/sets.py): user 1 (pro), user 2 (free), user 3 (the
stranger who shares nothing) and team 4 (managed by 1, with 2 as plain member).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from csapi.fixtures import generate
from csapi.mock_server.store import Store
from csapi.mock_server.store.records import Account, Collection, Item
from csapi.mock_server.store.text import terms

SETS = ("default", "large")
SEED = 0
BASE_URL = "http://localhost:8000"


@dataclass(frozen=True)
class Callers:
    """The guaranteed accounts of every set."""

    pro: Account  # user 1: owns the showcase collection, manages the team
    free: Account  # user 2: collaborates on the showcase collection, plain member of the team
    stranger: Account  # user 3: shares nothing with anyone
    team: Account  # team 4


@dataclass(frozen=True)
class DataSet:
    """A loaded store and what the benchmarks ask of it."""

    name: str
    store: Store
    callers: Callers
    showcase: Collection  # private, owned by pro, free collaborates, stranger cannot see it
    team_collection: Collection  # private, owned by the team: pro is a manager, free a member
    big: Collection  # the collection with the most live items
    big_owner: Account
    sorted_collection: Collection  # the biggest collection with a sort_by setting
    stack: Item  # the stack with the most children in `big`
    common_word: str  # the term the most item names hold
    rare_word: str  # the rarest alphabetic term of the showcase collection's texts
    common_tag: str  # the tag name the most items carry

    def size(self, collection: Collection) -> int:
        return len(self.store.live_items(collection.id))


def _build(name: str) -> DataSet:
    store = Store(data=generate(name, SEED))
    accounts = store.accounts
    callers = Callers(pro=accounts[1], free=accounts[2], stranger=accounts[3], team=accounts[4])
    assert callers.team.is_team and callers.team.members == {1: "manager", 2: "user"}
    collections = sorted(store.collections.values(), key=lambda c: c.id)
    showcase = next(
        c for c in collections if c.owner_id == 1 and c.type == "private" and 2 in c.collaborators
    )
    team_collection = next(c for c in collections if c.owner_id == 4 and c.type == "private")

    def by_size(c: Collection) -> tuple[int, int]:
        return len(store.live_items(c.id)), -c.id

    big = max(collections, key=by_size)
    sorted_collection = max((c for c in collections if c.sort_by is not None), key=by_size)
    stacks = [i for i in store.live_items(big.id) if i.type == "stack" and store.children(i.id)]
    stack = max(stacks, key=lambda i: (len(store.children(i.id)), -i.id))

    names = Counter(w for i in store.items.values() if i.deleted_at is None for w in set(terms(i.name)))
    common_word = min(names, key=lambda w: (-names[w], w))
    index = store.search_index  # built here, once: the search benchmarks time queries, not the build
    texts = []
    for item in store.live_items(showcase.id):
        texts += [item.name, item.description, item.content]
        texts += [comment.body for comment in store.item_comments(item.id)]
    candidates = {w for text in texts for w in terms(text) if w.isalpha() and len(w) >= 4}
    rare_word = min(candidates, key=lambda w: (len(index.query(w)), w))
    tags = Counter(t.name.casefold() for t in store.tags.values())
    common_tag = min(tags, key=lambda n: (-tags[n], n))
    return DataSet(
        name=name,
        store=store,
        callers=callers,
        showcase=showcase,
        team_collection=team_collection,
        big=big,
        big_owner=accounts[big.owner_id],
        sorted_collection=sorted_collection,
        stack=stack,
        common_word=common_word,
        rare_word=rare_word,
        common_tag=common_tag,
    )


@pytest.fixture(scope="session")
def data_sets() -> Iterator[dict[str, DataSet]]:
    """Every set built so far, by name: each is built on first use and kept for the session."""
    built: dict[str, DataSet] = {}
    yield built
    built.clear()


@pytest.fixture(scope="session", params=SETS)
def data_set(request: pytest.FixtureRequest, data_sets: dict[str, DataSet]) -> DataSet:
    name = request.param
    if name not in data_sets:
        data_sets[name] = _build(name)
    return data_sets[name]


@pytest.fixture(scope="session")
def snapshots() -> dict[str, dict[str, Any]]:
    """Each set's `snapshot()`, by name, once taken."""
    return {}


@pytest.fixture
def snapshot(data_set: DataSet, snapshots: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """`snapshot()` of the set's store, taken on first use and kept (for the load benchmarks)."""
    if data_set.name not in snapshots:
        snapshots[data_set.name] = data_set.store.snapshot()
    return snapshots[data_set.name]
