"""The machine's steps on tags, comments and likes."""

from __future__ import annotations

import random

from ...failures import NotGone, NotStored, StaleCount
from ...http import SERIAL, tag_names
from .base import MachineBase
from .model import Model, action
from .properties import P_COMMENT_EDIT, P_COMMENT_GONE, P_COMMENT_NEW, P_LIKE, P_TAG_GONE, P_TAG_NEW, P_UNLIKE


class SocialSteps(MachineBase):
    """Tags, comments and likes; mixed into `BehaviourMachine` (machine.py)."""

    # -- tags
    @action(P_TAG_NEW, when=lambda self: self.items, feeds=("tags.delete_tag",))
    def create_tag(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        name = self.s.target.name(f"s{next(SERIAL)}")
        exchange = self.s.call("POST", f"/v1/items/{item.id}/tags", ok=(201, 402), json_body={"name": name})
        if exchange.status == 402:
            self.run.paid = False
            return
        self.run.paid = True
        data = self.s.body(exchange)
        self.s.expect(
            data.get("name") == name and isinstance(data.get("id"), int),
            f"Create a tag {name!r} answered {data}",
        )
        self.s.register("tag", f"/v1/tags/{data['id']}")
        item.tags[name.casefold()] = name
        self.solo.append(name)
        listed = tag_names(self.s.body(self.s.call("GET", f"/v1/items/{item.id}/tags"), list)) or set()
        self.s.expect(
            name.casefold() in listed,
            f"List item tags of item {item.id} lacks the new tag {name!r}",
            kind=NotStored,
        )

    def solo_tagged(self) -> list[tuple[Model, str]]:
        counts = {n.casefold(): sum(n.casefold() in m.tags for m in self.items.values()) for n in self.solo}
        return [(m, key) for m in self.items.values() for key in m.tags if counts.get(key) == 1]

    @action(P_TAG_GONE, when=lambda self: self.solo_tagged())
    def delete_tag(self, rnd: random.Random) -> None:
        item, key = rnd.choice(self.solo_tagged())
        entries = self.s.body(self.s.call("GET", f"/v1/items/{item.id}/tags"), list)
        tag_id = next(
            (e.get("id") for e in entries if isinstance(e, dict) and str(e.get("name")).casefold() == key),
            None,
        )
        self.s.expect(
            isinstance(tag_id, int),
            f"List item tags of item {item.id} lacks its tag {item.tags[key]!r}",
            prop=P_TAG_NEW,
        )
        self.s.call("DELETE", f"/v1/tags/{tag_id}")
        self.s.gone(f"/v1/tags/{tag_id}")
        del item.tags[key]
        listed = tag_names(self.s.body(self.s.call("GET", f"/v1/items/{item.id}/tags"), list)) or set()
        self.s.expect(
            key not in listed,
            f"the deleted tag {tag_id} ({key}) is still listed for item {item.id}",
            kind=NotGone,
        )

    # -- comments and likes
    @action(
        P_COMMENT_NEW,
        when=lambda self: self.items,
        feeds=("comments.update_comment", "comments.delete_comment"),
    )
    def comment(self, rnd: random.Random) -> None:
        item = self.items[rnd.choice(sorted(self.items))]
        text = f"{self.s.target.name('note')} {rnd.randint(1, 999)}"
        data = self.s.body(
            self.s.call("POST", f"/v1/items/{item.id}/comments", ok=(201,), json_body={"body": text})
        )
        self.s.expect(
            isinstance(data.get("id"), int) and data.get("body") == text,
            f"Create a comment answered body {data.get('body')!r} (sent {text!r})",
        )
        self.s.register("comment", f"/v1/comments/{data['id']}")
        item.comments[data["id"]] = text
        self.check_comments(item)

    def check_comments(self, item: Model) -> None:
        entries = self.s.body(self.s.call("GET", f"/v1/items/{item.id}/comments"), list)
        got = {e.get("id"): e.get("body") for e in entries if isinstance(e, dict)}
        self.s.expect(
            got == item.comments,
            f"List comments of item {item.id} shows {got}, expected {item.comments}",
            kind=NotStored,
        )

    def commented(self) -> list[Model]:
        return [m for m in self.items.values() if m.comments]

    @action(P_COMMENT_EDIT, when=lambda self: self.commented())
    def edit_comment(self, rnd: random.Random) -> None:
        item = rnd.choice(self.commented())
        comment_id = rnd.choice(sorted(item.comments))
        text = f"{self.s.target.name('edited')} {rnd.randint(1, 999)}"
        self.s.call("PUT", f"/v1/comments/{comment_id}", json_body={"body": text})
        item.comments[comment_id] = text
        self.check_comments(item)

    @action(P_COMMENT_GONE, when=lambda self: self.commented())
    def delete_comment(self, rnd: random.Random) -> None:
        item = rnd.choice(self.commented())
        comment_id = rnd.choice(sorted(item.comments))
        self.s.call("DELETE", f"/v1/comments/{comment_id}")
        self.s.gone(f"/v1/comments/{comment_id}")
        del item.comments[comment_id]
        self.check_comments(item)

    @action(
        P_LIKE,
        when=lambda self: any(m.my_like is None for m in self.items.values()),
        feeds=("reactions.delete_reaction",),
    )
    def like(self, rnd: random.Random) -> None:
        item = rnd.choice([m for m in self.items.values() if m.my_like is None])
        data = self.s.body(self.s.call("POST", f"/v1/items/{item.id}/reactions", ok=(201,)))
        self.s.expect(
            isinstance(data.get("id"), int) and data.get("item_id") == item.id,
            f"Create a reaction on item {item.id} answered item_id {data.get('item_id')}",
        )
        self.s.register("reaction", f"/v1/reactions/{data['id']}")
        item.my_like, item.likes = data["id"], item.likes + 1
        self.compare(item, self.s.item(item.id), "after a like, the", P_LIKE, StaleCount)

    @action(P_UNLIKE, when=lambda self: any(m.my_like for m in self.items.values()))
    def unlike(self, rnd: random.Random) -> None:
        item = rnd.choice([m for m in self.items.values() if m.my_like])
        self.s.call("DELETE", f"/v1/reactions/{item.my_like}")
        self.s.gone(f"/v1/reactions/{item.my_like}")
        item.my_like, item.likes = None, item.likes - 1
        self.compare(item, self.s.item(item.id), "after deleting a like, the", P_UNLIKE, StaleCount)
