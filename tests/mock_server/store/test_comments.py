"""Comments, New Comment notifications and reactions in the store (spec 4.5, 4.6, 6),
without HTTP."""

from __future__ import annotations

import pytest

from csapi.mock_server.errors import Conflict, Forbidden, NotFound
from csapi.mock_server.store import Store
from csapi.mock_server.store.records import Item
from tests.mock_server.conftest import FREE, PRO, STRANGER, TEAM, Clock


@pytest.fixture
def note(store: Store) -> Item:
    """An item of user 1's private collection shared with user 2."""
    pro = store.accounts[PRO]
    trips = store.create_collection(pro, {"name": "Trips", "type": "private", "users": [FREE]})
    return store.create_item(pro, trips.id, {"type": "text", "name": "Note", "content": "x"})[0]


def recipients(store: Store) -> list[tuple[int, int]]:
    return [(n.user_id, n.comment_id) for n in sorted(store.notifications.values(), key=lambda n: n.id)]


def test_create_list_update_delete(store: Store, note: Item, clock: Clock):
    pro, free, stranger = (store.accounts[i] for i in (PRO, FREE, STRANGER))
    first = store.create_comment(free, note.id, "@megan_chang hi")
    clock.advance(5)
    second = store.create_comment(pro, note.id, "hello")
    assert [c.id for c in store.list_comments(free, note.id)] == [first.id, second.id]
    with pytest.raises(NotFound):
        store.list_comments(stranger, note.id)
    with pytest.raises(Forbidden):
        store.update_comment(pro, first.id, "not mine")
    with pytest.raises(NotFound):
        store.update_comment(stranger, first.id, "x")
    edited = store.update_comment(free, first.id, "edited")
    assert (edited.body, edited.created_at < edited.updated_at) == ("edited", True)
    with pytest.raises(Forbidden):
        store.delete_comment(free, second.id)  # a collaborator, not the owner
    store.delete_comment(pro, first.id)  # the owner deletes anyone's
    assert [c.id for c in store.list_comments(pro, note.id)] == [second.id]
    with pytest.raises(NotFound):
        store.delete_comment(pro, first.id)


def test_notify_once_per_subscribed_account_never_the_author(store: Store, note: Item):
    pro, free = store.accounts[PRO], store.accounts[FREE]
    trips = store.collections[note.collection_id]
    store.add_collaborator(pro, trips.id, {"id": TEAM})  # the team holds users 1 and 2 again
    store.add_collaborator(pro, trips.id, {"id": STRANGER})
    quiet = store.create_comment(free, note.id, "no notify")
    loud = store.create_comment(free, note.id, "notify", notify=True)
    assert recipients(store) == [(PRO, loud.id), (STRANGER, loud.id)]
    assert quiet.id not in {n.comment_id for n in store.notifications.values()}
    trips.collaborators[STRANGER] = False
    again = store.create_comment(pro, note.id, "again", notify=True)
    assert recipients(store)[2:] == [(FREE, again.id)]
    note_record = store.notifications[max(store.notifications)]
    assert (note_record.kind, note_record.item_id, note_record.collection_id) == (
        "new_comment",
        note.id,
        trips.id,
    )


def test_reactions(store: Store, note: Item):
    pro, free, stranger = (store.accounts[i] for i in (PRO, FREE, STRANGER))
    liked = store.create_reaction(free, note.id)
    with pytest.raises(Conflict):
        store.create_reaction(free, note.id)
    store.create_reaction(pro, note.id)
    assert [r.user_id for r in store.list_reactions(pro, note.id)] == [FREE, PRO]
    with pytest.raises(NotFound):
        store.create_reaction(stranger, note.id)
    with pytest.raises(Forbidden):
        store.delete_reaction(pro, liked.id)
    with pytest.raises(NotFound):
        store.delete_reaction(stranger, liked.id)
    store.delete_reaction(free, liked.id)
    assert [r.user_id for r in store.item_reactions(note.id)] == [PRO]
    store.create_reaction(free, note.id)  # may like again


def test_comments_reactions_and_notifications_survive_a_snapshot(store: Store, note: Item, clock: Clock):
    free = store.accounts[FREE]
    said = store.create_comment(free, note.id, "kept", notify=True)
    store.create_reaction(free, note.id)
    restored = Store(clock=clock, data=store.snapshot())
    assert [c.body for c in restored.item_comments(note.id)] == ["kept"]
    assert [r.user_id for r in restored.item_reactions(note.id)] == [FREE]
    assert [(n.user_id, n.comment_id) for n in restored.notifications.values()] == [(PRO, said.id)]
    # the sequences go on where they were
    assert restored.create_comment(restored.accounts[FREE], note.id, "next").id == said.id + 1
