"""The inverted index of store/text.py (put, drop, query: every term required, weighted counts)
and Store.search over it, without HTTP."""

from __future__ import annotations

import pytest

from csapi.fixtures import generate
from csapi.mock_server.errors import InvalidInput
from csapi.mock_server.store import Store
from csapi.mock_server.store.text import KINDS, NAME_WEIGHT, TEXT_WEIGHT, SearchIndex, terms
from tests.mock_server.conftest import FREE, PRO, STRANGER, Clock

A, B, C = ("item", 1), ("item", 2), ("comment", 1)


def scores(index: SearchIndex, q: str) -> dict:
    """The query's documents and scores, whatever collection (group) they lie in."""
    return {key: entry[0] for docs in index.query(q).values() for key, entry in docs.items()}


def test_terms_are_words_without_case():
    assert terms("Lisbon, LISBON! tram-28 Straße") == ["lisbon", "lisbon", "tram", "28", "strasse"]
    assert terms("") == terms(None) == []


def test_the_weights_put_a_name_above_the_text():
    assert NAME_WEIGHT > TEXT_WEIGHT > 0


def test_query_sums_the_weighted_counts_of_each_text():
    index = SearchIndex()
    index.put(A, 1, 0.0, [("Lisbon guide", 3.0), ("lisbon lisbon", 1.0), (None, 1.0)])
    index.put(B, 1, 0.0, [("Porto", 3.0), ("from Lisbon to Porto", 1.0)])
    assert scores(index, "lisbon") == {A: 5.0, B: 1.0}
    assert scores(index, "porto") == {B: 4.0}
    assert scores(index, "LISBON guide") == {A: 8.0}


def test_every_term_is_required_and_a_repeated_term_counts_once():
    index = SearchIndex()
    index.put(A, 1, 0.0, [("red apple", 1.0)])
    index.put(B, 1, 0.0, [("green apple", 1.0)])
    index.put(C, 1, 0.0, [("red car", 1.0)])
    assert scores(index, "red apple") == {A: 2.0}
    assert scores(index, "apple apple") == {A: 1.0, B: 1.0}
    assert scores(index, "red blue") == {}
    assert scores(index, "app") == {}  # whole words only
    assert scores(index, "") == scores(index, "  ,;  ") == {}


def test_put_again_replaces_the_old_text():
    index = SearchIndex()
    index.put(A, 1, 0.0, [("old name", 3.0)])
    index.put(A, 1, 0.0, [("new name", 3.0)])
    assert scores(index, "old") == {}
    assert scores(index, "new name") == {A: 6.0}


def test_drop_forgets_a_document_and_its_empty_postings():
    index = SearchIndex()
    index.put(A, 1, 0.0, [("shared only_a", 1.0)])
    index.put(B, 1, 0.0, [("shared", 1.0)])
    index.drop(A)
    index.drop(A)  # twice is harmless
    index.drop(("item", 99))
    assert scores(index, "shared") == {B: 1.0}
    assert scores(index, "only_a") == {}
    assert "only_a" not in index._postings
    index.drop(B)
    assert index._postings == {} and index._docs == {}


def test_keys_of_different_kinds_do_not_mix():
    index = SearchIndex()
    index.put(("item", 1), 1, 0.0, [("word", 1.0)])
    index.put(("comment", 1), 1, 0.0, [("word", 1.0)])
    index.drop(("item", 1))
    assert scores(index, "word") == {("comment", 1): 1.0}


# ---------------------------------------------------------------------- Store.search
@pytest.fixture
def trips(store: Store, clock: Clock):
    pro = store.accounts[PRO]
    collection = store.create_collection(pro, {"name": "Trips", "type": "private", "users": [FREE]})
    clock.advance()
    guide, _ = store.create_item(pro, collection.id, {"type": "text", "name": "Lisbon", "content": "lisbon"})
    clock.advance()
    note, _ = store.create_item(pro, collection.id, {"type": "text", "name": "Note", "content": "Lisbon"})
    clock.advance()
    said = store.create_comment(store.accounts[FREE], note.id, "Lisbon!")
    return collection, guide, note, said


def found(store: Store, user: int, **params) -> list[tuple[str, int, float]]:
    page = store.search(store.accounts[user], **params)
    assert page.total >= len(page.entries)
    return [(f.kind, f.record.id, f.score) for f in page.entries]


def test_postings_are_grouped_by_collection_and_follow_a_move():
    index = SearchIndex()
    index.put(A, 7, 100.0, [("lisbon", 3.0)])
    index.put(C, 7, 200.0, [("lisbon", 1.0)])
    assert index.query("lisbon") == {7: {A: (3.0, 100.0, 1, 1), C: (1.0, 200.0, 2, 1)}}
    index.move(A, 8)
    assert index.query("lisbon") == {7: {C: (1.0, 200.0, 2, 1)}, 8: {A: (3.0, 100.0, 1, 1)}}
    index.move(C, 8)
    assert index.query("lisbon") == {8: {A: (3.0, 100.0, 1, 1), C: (1.0, 200.0, 2, 1)}}
    index.drop(A)
    index.drop(C)
    assert index._postings == {} and index._docs == {}


def test_search_ranks_by_score_then_newest(store: Store, trips):
    collection, guide, note, said = trips
    assert found(store, PRO, q="lisbon") == [
        ("item", guide.id, 4.0),
        ("comment", said.id, 1.0),
        ("item", note.id, 1.0),
    ]
    assert found(store, STRANGER, q="lisbon") == []


def test_search_needs_q_or_tags(store: Store):
    with pytest.raises(InvalidInput):
        store.search(store.accounts[PRO])


def test_search_forgets_deleted_items_and_comments(store: Store, trips):
    collection, guide, note, said = trips
    store.delete_comment(store.accounts[FREE], said.id)
    store.delete_item(store.accounts[PRO], guide.id)
    assert found(store, PRO, q="lisbon") == [("item", note.id, 1.0)]


def test_the_index_is_rebuilt_from_a_snapshot(store: Store, trips, clock: Clock):
    collection, guide, note, said = trips
    store.delete_item(store.accounts[PRO], guide.id)
    before = found(store, FREE, q="lisbon")
    restored = Store(clock=clock, data=store.snapshot())
    assert found(restored, FREE, q="lisbon") == before == [("comment", said.id, 1.0), ("item", note.id, 1.0)]


def test_search_pages(store: Store, trips):
    page = store.search(store.accounts[PRO], q="lisbon", page=2, per_page=2)
    assert ([f.record.id for f in page.entries], page.total) == ([trips[2].id], 3)


def test_a_move_takes_the_comments_along_and_a_delete_takes_them_away(store: Store, trips, clock: Clock):
    collection, guide, note, said = trips
    pro = store.accounts[PRO]
    assert ("comment", said.id) in {(k, i) for k, i, _ in found(store, FREE, q="lisbon")}
    hidden = store.create_collection(pro, {"name": "Mine alone", "type": "private"})
    store.update_multiple_items(pro, [note.id], collection_id=hidden.id)
    assert {(k, i) for k, i, _ in found(store, FREE, q="lisbon")} == {("item", guide.id)}
    assert ("comment", said.id) in {(k, i) for k, i, _ in found(store, PRO, q="lisbon")}
    assert store.check_invariants() == []
    store.delete_item(pro, note.id)
    assert {(k, i) for k, i, _ in found(store, PRO, q="lisbon")} == {("item", guide.id)}
    assert store.check_invariants() == []


def _expected(store: Store, user: int, q: str, page: int, per_page: int) -> tuple[list, int]:
    """Every visible match ranked in full: what the search must page through."""
    groups = store.search_index.query(q)
    seen = groups.keys() & (store.accessible_collection_ids(store.accounts[user]) | store._global)
    entries = sorted((e for cid in seen for e in groups[cid].values()), reverse=True)
    return [(KINDS[e[2]], e[3]) for e in entries[(page - 1) * per_page : page * per_page]], len(entries)


def _check_words(store: Store, words: list[str]) -> None:
    for user in (PRO, FREE, STRANGER):
        for word in words:
            for page in (1, 2, 3):
                result = store.search(store.accounts[user], q=word, page=page, per_page=3)
                got = [(f.kind, f.record.id) for f in result.entries]
                assert (got, result.total) == _expected(store, user, word, page, 3), (user, word, page)


def test_global_matches_ranked_once_stay_true_as_the_data_changes(clock: Clock):
    store = Store(clock=clock, data=generate("default", 0))
    globals_ = sorted(store._global)
    owner = store.accounts[store.collections[globals_[0]].owner_id]
    words = sorted({w for c in globals_ for i in store.live_items(c) for w in terms(i.name)})[:12]
    _check_words(store, words)
    clock.advance()
    store.create_item(owner, globals_[0], {"type": "text", "name": " ".join(words[:4]), "content": "x"})
    _check_words(store, words)
    store.update_collection(owner, globals_[0], {"type": "private"})
    _check_words(store, words)
    store.update_collection(owner, globals_[0], {"type": "global"})
    moved = store.live_items(globals_[0])[0]
    mine = store.create_collection(owner, {"name": "hidden", "type": "private"})
    store.update_multiple_items(owner, [moved.id], collection_id=mine.id)
    _check_words(store, words)
    store.delete_item(owner, store.live_items(globals_[0])[0].id)
    _check_words(store, words)
    assert store.check_invariants() == []


def test_kept_rankings_give_the_full_ranking_across_random_changes(clock: Clock):
    """A one-word search of a large group reads its page off a kept ranking (text.py `best`): across
    random creates, renames, comments, moves and deletes, every page is what ranking all matches
    gives, and each kept ranking stays a sort of its postings (`check_invariants`)."""
    import random

    from csapi.mock_server.store.text import RANK_FROM

    rng = random.Random(3)
    store = Store(clock=clock, data=generate("default", 0))
    pro = store.accounts[PRO]
    mine = [store.create_collection(pro, {"name": f"c{n}", "type": "private"}).id for n in (1, 2)]
    words = ["alpha", "beta"]
    for n in range(2 * RANK_FROM):  # past RANK_FROM in each group: rankings are kept
        name = f"alpha {words[n % 3 % 2]}"
        store.create_item(pro, mine[n % 2], {"type": "text", "name": name, "content": "x"})
    for step in range(150):
        live = [i for cid in mine for i in store.live_items(cid)]
        op = rng.choice(["create", "rename", "comment", "move", "delete", "search"])
        target = rng.choice(live)
        if op == "create":
            clock.advance(rng.choice([0, 1]))
            name = " ".join(rng.sample(words, rng.randint(1, 2)) * rng.randint(1, 2))
            store.create_item(pro, rng.choice(mine), {"type": "text", "name": name, "content": "beta"})
        elif op == "rename":
            store.update_item(pro, target.id, {"name": rng.choice(["alpha", "beta beta", "gamma"])})
        elif op == "comment":
            store.create_comment(pro, target.id, rng.choice(["alpha", "beta alpha"]))
        elif op == "move":
            other = mine[1 - mine.index(target.collection_id)]
            store.update_multiple_items(pro, [target.id], collection_id=other)
        elif op == "delete":
            store.delete_item(pro, target.id)
        for word in words:
            for page, per_page in ((1, 10), (2, 10), (rng.randint(1, 30), rng.randint(1, 7))):
                result = store.search(pro, q=word, page=page, per_page=per_page)
                got = [(f.kind, f.record.id) for f in result.entries]
                assert (got, result.total) == _expected(store, PRO, word, page, per_page), (step, op, word)
        if step % 10 == 0:
            assert store.check_invariants() == [], (step, op)
    assert store.search_index._ranked_count > 0  # the rankings were used, not only built
    assert store.check_invariants() == []
