"""Micro-benchmarks of the store's hot paths (pytest-benchmark), on the default and large sets.

They are not part of the default test run (`testpaths = ["tests"]`); run them explicitly:

    pip install -e '.[bench]'
    pytest benchmarks/test_store.py --benchmark-group-by=func

Every benchmark runs once per fixture set: the ids end in `default` (8 accounts, 18
collections, ~200 items) or `large` (1,001 accounts, ~1,500 collections, ~103,000 items).
Grouped by function, each table puts the two side by side: a hot path that stays flat as the
data grows has about the same mean in both rows; one whose `large` row is 10x or more slower
scans something that grows with the whole data set. Useful variants:

    pytest benchmarks/test_store.py --benchmark-group-by=func --benchmark-columns=mean,median,rounds
    pytest benchmarks/test_store.py -k default        # the small set only (no 3 s build of "large")
    pytest benchmarks/test_store.py --benchmark-disable   # each body once: just check the assertions

To compare two states of the code (before and after an optimisation), save a run and compare
a later run with it, optionally failing on a regression:

    pytest benchmarks/test_store.py --benchmark-save=before
    pytest benchmarks/test_store.py --benchmark-compare=0001 --benchmark-compare-fail=mean:25%

Do not run them under xdist (`-n`): pytest-benchmark then disables itself with a warning,
which `filterwarnings = ["error"]` turns into an error. The garbage collector stays on, as in
the server; `--benchmark-disable-gc` takes it out of the numbers.

Each benchmark asserts something about what the timed call returned, so a broken path fails
instead of getting fast. The stores are shared by the whole session: only reads are timed.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import pytest

from csapi.mock_server.store import ItemFilter, Store
from csapi.mock_server.store.access import COLLABORATOR, OWNER
from csapi.mock_server.store.records import Collection, Comment, Item
from csapi.mock_server.store.text import terms
from csapi.mock_server.views import Views

BASE_URL = "http://localhost:8000"
PER_PAGE = 10  # for lists of items, so that even the default set has more than one page
PAGES = ["first", "deep"]  # page 1, and the last page


def page_number(which: str, total: int, per_page: int) -> int:
    return 1 if which == "first" else max(1, math.ceil(total / per_page))


def page_length(page: int, total: int, per_page: int) -> int:
    return max(0, min(per_page, total - (page - 1) * per_page))


def rounds(data_set) -> int:
    """Rounds of the benchmarks that take seconds on the large set (benchmark.pedantic)."""
    return 3 if data_set.name == "large" else 20


def texts_of(record: Collection | Item | Comment) -> set[str]:
    """The terms search finds a record by."""
    if isinstance(record, Comment):
        return set(terms(record.body))
    found = set(terms(record.name)) | set(terms(record.description))
    return found | set(terms(record.content)) if isinstance(record, Item) else found


# ---------------------------------------------------------------------- collections
@pytest.mark.parametrize("which", PAGES)
def test_list_collections(benchmark, data_set, which):
    store, pro = data_set.store, data_set.callers.pro
    total = store.get_collections_count(pro)["active"]
    assert total > 3
    page = page_number(which, total, 3)
    found = benchmark(store.list_collections, pro, sort="name", page=page, per_page=3)
    assert found.total == total
    assert len(found.entries) == page_length(page, total, 3)
    names = [(c.name.casefold(), c.id) for c in found.entries]
    assert names == sorted(names)
    assert all(store.role(pro, c) is not None and not c.archived for c in found.entries)


def test_list_collections_on_domain(benchmark, data_set):
    """A dashboard (`domain=`): the owner's collections, found through the domain."""
    store, pro = data_set.store, data_set.callers.pro
    domain = store.dashboard_domain(pro, "localhost")
    owned = sorted(c.id for c in store.collections.values() if c.owner_id == pro.id and not c.archived)
    found = benchmark(store.list_collections, pro, host="localhost", domain=domain)
    assert sorted(c.id for c in found.entries) == owned and found.total == len(owned) > 0


def test_get_collection_with_items(benchmark, data_set):
    """GET /collections/{id}?include=items,users: the store call and the view the handler makes."""
    store, big, owner = data_set.store, data_set.big, data_set.big_owner

    def get() -> dict[str, Any]:
        collection, role = store.get_collection(owner, big.id)
        views = Views(store, owner, BASE_URL)
        return views.collection_with(collection, role, ["items", "users"], ItemFilter(), 1, 24)

    out = benchmark(get)
    size = data_set.size(big)
    assert out["id"] == big.id and out["items_total_count"] == size
    assert len(out["items"]) == min(24, size)
    assert all(item["collection_id"] == big.id for item in out["items"])
    assert out["permissions"]["admin"] and out["users"][0]["kind"] == "owner"


# ---------------------------------------------------------------------- items
@pytest.mark.parametrize("which", PAGES)
def test_list_items_in_collection(benchmark, data_set, which):
    store, big, owner = data_set.store, data_set.big, data_set.big_owner
    total = data_set.size(big)
    page = page_number(which, total, PER_PAGE)
    found = benchmark(store.list_items, owner, collection_id=big.id, page=page, per_page=PER_PAGE)
    assert found.total == total
    assert len(found.entries) == page_length(page, total, PER_PAGE) > 0
    assert all(i.collection_id == big.id and i.deleted_at is None for i in found.entries)


@pytest.mark.parametrize("by", ["type", "tags"])
def test_list_items_filtered(benchmark, data_set, by):
    """The biggest collection filtered by its most common item type, or by its most common tag."""
    store, big, owner = data_set.store, data_set.big, data_set.big_owner
    live = store.live_items(big.id)
    if by == "type":
        types = Counter(i.type for i in live)
        where = ItemFilter(type=min(types, key=lambda t: (-types[t], t)))
    else:
        tags = Counter(t.name.casefold() for i in live for t in store.item_tags(i.id))
        where = ItemFilter(tags=(min(tags, key=lambda n: (-tags[n], n)),))
    expected = sum(where(store, i) for i in live)
    found = benchmark(store.list_items, owner, collection_id=big.id, where=where, per_page=PER_PAGE)
    assert found.total == expected > 0
    assert len(found.entries) == min(PER_PAGE, expected)
    assert all(where(store, i) and i.collection_id == big.id for i in found.entries)


_SORT_CHECKS = {
    "created_at": lambda store, i: i.created_at,
    "updated_at": lambda store, i: i.updated_at,
    "name": lambda store, i: i.name.casefold(),
    "type": lambda store, i: i.type,
    "size": lambda store, i: i.size,
    "reactions": lambda store, i: len(store.item_reactions(i.id)),
}


@pytest.mark.parametrize("which", PAGES)
def test_list_items_sorted(benchmark, data_set, which):
    """The biggest collection with a sort_by setting (its items ordered by that field)."""
    store, collection = data_set.store, data_set.sorted_collection
    owner = store.accounts[collection.owner_id]
    total = data_set.size(collection)
    page = page_number(which, total, PER_PAGE)
    found = benchmark(store.list_items, owner, collection_id=collection.id, page=page, per_page=PER_PAGE)
    assert found.total == total
    assert len(found.entries) == page_length(page, total, PER_PAGE) > 0
    keys = [(_SORT_CHECKS[collection.sort_by](store, i), i.id) for i in found.entries]
    assert keys == sorted(keys, reverse=collection.sort_order == "desc")


@pytest.mark.parametrize("which", PAGES)
def test_list_items_everywhere(benchmark, data_set, which):
    """GET /items without a collection: every item the caller can access, newest first."""
    store, pro = data_set.store, data_set.callers.pro
    total = sum(len(store.live_items(cid)) for cid in store.accessible_collection_ids(pro))
    page = page_number(which, total, PER_PAGE)
    found = benchmark(store.list_items, pro, page=page, per_page=PER_PAGE)
    assert found.total == total
    assert len(found.entries) == page_length(page, total, PER_PAGE) > 0
    keys = [(i.created_at, i.id) for i in found.entries]
    assert keys == sorted(keys, reverse=True)


def test_get_item_with_items(benchmark, data_set):
    """GET /items/{id}?include=items,stack_items,siblings of the biggest collection's largest stack."""
    store, stack, owner = data_set.store, data_set.stack, data_set.big_owner

    def get() -> dict[str, Any]:
        item = store.get_item(owner, stack.id)
        views = Views(store, owner, BASE_URL)
        return views.item_with(item, ["items", "stack_items", "siblings"], ItemFilter(), 1, 24)

    out = benchmark(get)
    children = {i.id for i in store.children(stack.id)}
    top_level = [i for i in store.live_items(stack.collection_id) if i.parent_id is None]
    assert out["id"] == stack.id and out["type"] == "stack"
    assert {i["id"] for i in out["items"]} == {i["id"] for i in out["stack_items"]} == children
    assert len(out["siblings"]) == len(top_level) - 1 and stack.id not in {i["id"] for i in out["siblings"]}


# ---------------------------------------------------------------------- search and activity
def _word_tag(data_set) -> str:
    """The tag most items of the first page of a search for the common word carry."""
    store = data_set.store
    page = store.search(data_set.callers.pro, q=data_set.common_word, per_page=100)
    tags = Counter(
        t.name.casefold() for f in page.entries if f.kind == "item" for t in store.item_tags(f.record.id)
    )
    return min(tags, key=lambda n: (-tags[n], n))


@pytest.mark.parametrize("query", ["common", "rare", "url", "tag", "common+tag"])
def test_search(benchmark, data_set, query):
    """q: the word most item names hold, the rarest word of the showcase, "https" (in every link);
    tags: the most common tag, and the common word with the tag its first hits carry most."""
    store, pro = data_set.store, data_set.callers.pro
    word, tag = {
        "common": (data_set.common_word, None),
        "rare": (data_set.rare_word, None),
        "url": ("https", None),
        "tag": (None, data_set.common_tag),
        "common+tag": (data_set.common_word, _word_tag(data_set) if query == "common+tag" else None),
    }[query]
    found = benchmark(store.search, pro, q=word, tags=[tag] if tag else None)
    assert found.total > 0 and len(found.entries) == min(24, found.total)
    scores = [f.score for f in found.entries]
    assert scores == sorted(scores, reverse=True)
    for f in found.entries:
        assert word is None or word in texts_of(f.record)
        assert tag is None or (f.kind == "item" and store.has_tags(f.record, [tag]))


@pytest.mark.parametrize("which", PAGES)
def test_list_activity(benchmark, data_set, which):
    store, pro = data_set.store, data_set.callers.pro
    total = store.list_activity(pro, per_page=1).total
    assert total > 24
    page = page_number(which, total, 24)
    found = benchmark(store.list_activity, pro, page=page, per_page=24)
    assert found.total == total and len(found.entries) == page_length(page, total, 24)
    stamps = [f.created_at for f in found.entries]
    assert stamps == sorted(stamps, reverse=True)


# ---------------------------------------------------------------------- permissions
@pytest.mark.parametrize("who", ["owner", "collaborator", "team-manager", "team-member", "stranger"])
def test_role(benchmark, data_set, who):
    callers, showcase, team_collection = data_set.callers, data_set.showcase, data_set.team_collection
    caller, collection, expected = {
        "owner": (callers.pro, showcase, OWNER),
        "collaborator": (callers.free, showcase, COLLABORATOR),
        "team-manager": (callers.pro, team_collection, OWNER),
        "team-member": (callers.free, team_collection, COLLABORATOR),
        "stranger": (callers.stranger, showcase, None),
    }[who]
    assert benchmark(data_set.store.role, caller, collection) == expected


@pytest.mark.parametrize("who", ["owner", "collaborator", "stranger"])
def test_can_see_item(benchmark, data_set, who):
    """Can-read of a private, not shareable item (the stranger's answer is a NotFound caught)."""
    store, callers = data_set.store, data_set.callers
    item = next(i for i in store.live_items(data_set.showcase.id) if not i.shareable)
    caller = {"owner": callers.pro, "collaborator": callers.free, "stranger": callers.stranger}[who]
    assert benchmark(store.can_see_item, caller, item.id) is (who != "stranger")


# ---------------------------------------------------------------------- views
def test_render_collections(benchmark, data_set):
    """The view of a page of collections, as GET /collections renders it (store call not timed)."""
    store, pro = data_set.store, data_set.callers.pro
    page = store.list_collections(pro, per_page=24).entries
    views = Views(store, pro, BASE_URL)
    out = benchmark(lambda: [views.collection_with(c) for c in page])
    assert [c["id"] for c in out] == [c.id for c in page] and page
    assert all(c["permissions"] and c["url"].startswith(BASE_URL) for c in out)


def test_render_items(benchmark, data_set):
    """The view of a page of the biggest collection's items (store call not timed)."""
    store, owner = data_set.store, data_set.big_owner
    page = store.list_items(owner, collection_id=data_set.big.id, per_page=24).entries
    views = Views(store, owner, BASE_URL)
    out = benchmark(lambda: [views.item(i) for i in page])
    assert [i["id"] for i in out] == [i.id for i in page]
    assert len(page) == min(24, data_set.size(data_set.big))
    assert all(len(i["tags"]) == len(store.item_tags(i["id"])) for i in out)


def test_render_search_results(benchmark, data_set):
    """A full page (24) of search results: "https" finds more than a page in every set."""
    store, pro = data_set.store, data_set.callers.pro
    page = store.search(pro, q="https").entries
    views = Views(store, pro, BASE_URL)
    out = benchmark(lambda: [views.search_result(f) for f in page])
    assert [r["id"] for r in out] == [f.record.id for f in page] and len(page) == 24


def test_render_activity(benchmark, data_set):
    store, pro = data_set.store, data_set.callers.pro
    page = store.list_activity(pro).entries
    views = Views(store, pro, BASE_URL)
    out = benchmark(lambda: [views.activity_entry(f) for f in page])
    assert [(r["type"], r["id"]) for r in out] == [(f.kind, f.record.id) for f in page] and page


# ---------------------------------------------------------------------- snapshots (seconds on large)
def test_snapshot(benchmark, data_set):
    store = data_set.store
    snap = benchmark.pedantic(store.snapshot, rounds=rounds(data_set))
    assert len(snap["items"]) == len(store.items) and len(snap["collections"]) == len(store.collections)
    assert snap["sequences"]["items"] >= max(store.items)


def test_load_snapshot(benchmark, data_set, snapshot):
    """Store(data=snapshot): build the records, check references, rebuild the indexes."""
    store = data_set.store
    loaded = benchmark.pedantic(Store, kwargs={"data": snapshot}, rounds=rounds(data_set))
    assert len(loaded.items) == len(store.items) and len(loaded.tags) == len(store.tags)
    assert loaded.live_items(data_set.big.id) == store.live_items(data_set.big.id)


def test_first_search_after_load(benchmark, data_set, snapshot):
    """The first search of a freshly loaded store, which builds the full-text index (load not timed)."""
    pro_id, word = data_set.callers.pro.id, data_set.common_word

    def fresh() -> tuple[tuple[Store], dict[str, Any]]:
        return (Store(data=snapshot),), {}

    def first_search(store: Store):
        return store.search(store.accounts[pro_id], q=word)

    found = benchmark.pedantic(first_search, setup=fresh, rounds=rounds(data_set))
    expected = data_set.store.search(data_set.callers.pro, q=word)
    assert found.total == expected.total > 0
    assert [f.record.id for f in found.entries] == [f.record.id for f in expected.entries]
