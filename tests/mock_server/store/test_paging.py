"""Paging (docs/design.md): page from 1, per_page default 24 and clamped to 100, a page past the
end is empty, the total is counted before paging."""

from __future__ import annotations

import pytest

from csapi.mock_server.errors import InvalidInput
from csapi.mock_server.store import paginate
from csapi.mock_server.store.core import DEFAULT_PER_PAGE, MAX_PER_PAGE
from tests.mock_server.conftest import World

ENTRIES = list(range(1, 251))


def test_defaults():
    assert (DEFAULT_PER_PAGE, MAX_PER_PAGE) == (24, 100)
    page = paginate(ENTRIES)
    assert page.entries == ENTRIES[:24]
    assert page.total == 250


@pytest.mark.parametrize(
    ("page", "per_page", "expected"),
    [
        (1, 10, list(range(1, 11))),
        (2, 10, list(range(11, 21))),
        (25, 10, list(range(241, 251))),
        (26, 10, []),
        (1000, 10, []),
        (3, 100, list(range(201, 251))),
        (2, None, list(range(25, 49))),
        (None, 5, [1, 2, 3, 4, 5]),
        (1, 250, list(range(1, 101))),  # clamped to 100
        (2, 1000, list(range(101, 201))),
    ],
)
def test_pages(page, per_page, expected):
    result = paginate(ENTRIES, page, per_page)
    assert result.entries == expected
    assert result.total == 250


def test_an_empty_list():
    assert (paginate([]).entries, paginate([]).total) == ([], 0)


@pytest.mark.parametrize(("page", "per_page"), [(0, 10), (-1, 10), (1, -5)])
def test_pages_start_at_one(page, per_page):
    with pytest.raises(InvalidInput):
        paginate(ENTRIES, page, per_page)


def test_store_lists_page_with_the_total_before_paging(store, world: World, pro):
    for n in range(30):
        store.create_item(pro, world.recipes, {"type": "text", "content": f"n{n}"})
    first = store.list_items(pro, collection_id=world.recipes)
    assert (len(first.entries), first.total) == (24, 31)
    last = store.list_items(pro, collection_id=world.recipes, page=4, per_page=10)
    assert (len(last.entries), last.total) == (1, 31)
    past = store.list_items(pro, collection_id=world.recipes, page=5, per_page=10)
    assert (past.entries, past.total) == ([], 31)
    assert store.list_collections(pro, per_page=2).total == 3
    assert [c.id for c in store.list_collections(pro, page=2, per_page=2).entries] == [world.recipes]
