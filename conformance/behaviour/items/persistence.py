"""Behaviour checks of the items operations (operationIds items.*): persistence: what a write stores,
as a later, different read shows it."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from ...failures import CheckSkipped, NotStored, SchemaViolation
from ...http import (
    LAYER,
    Session,
    differences,
    entry,
    ids_of,
    new_comment,
    session,
    tag_names,
    unique,
    unpaid,
)
from ...registry import RunContext, check
from ..common import aged, judge_times, stored, write_paid


@check(LAYER, "items.get_item", "Get an item is an array of one", statements=("4.2/get-item",))
def item_array_of_one(ctx: RunContext) -> None:
    with session(ctx) as s:
        s.item(s.add_item(s.new_collection()["id"])["id"])


_DESIGNED_STAMP = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@check(
    LAYER,
    "items.get_item",
    "timestamps are written with Z and whole seconds",
    strict=True,
    statements=("design/small-rules.timestamps",),
)
def timestamps_designed_form(ctx: RunContext) -> None:
    with session(ctx) as s:
        collection = s.new_collection()
        item = s.item(s.add_item(collection["id"])["id"])
        for what, entity in (("collection", collection), ("item", item)):
            for name in ("created_at", "updated_at"):
                value = entity.get(name)
                s.expect(
                    isinstance(value, str) and _DESIGNED_STAMP.fullmatch(value) is not None,
                    f"the new {what}'s {name} is {value!r}, not of the form 2026-11-21T12:00:00Z",
                    kind=SchemaViolation,
                )


def _offset(value: str) -> float | None:
    """The UTC offset of an ISO 8601 timestamp in hours: 0 for Z, +00:00 and a form without offset
    (read as UTC); None when it is not read as ISO 8601 (the contract layer judges the form)."""
    text = value.strip()
    if text[-1:] in ("z", "Z"):
        text = text[:-1] + "+00:00"
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        return None
    offset = stamp.utcoffset()
    return 0.0 if offset is None else offset.total_seconds() / 3600


def _stamps(what: str, data: Any) -> list[tuple[str, str]]:
    """("<what> <field>", value) of every *_at string of a resource."""
    if not isinstance(data, dict):
        return []
    return [(f"{what} {k}", v) for k, v in data.items() if k.endswith("_at") and isinstance(v, str)]


@check(
    LAYER,
    "items.create_item",
    "timestamps are in UTC (collection, item, comment, like, team)",
    statements=(
        "2/timestamps",
        "2.1/collection.last_accessed_at",
        "2.2/item.created_at",
        "2.3/comment.created_at",
        "2.4/reaction.created_at",
        "2.6/team.created_at",
    ),
)
def timestamps_are_utc(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        item = s.add_item(cid)
        path = f"/v1/items/{item['id']}"
        note = new_comment(s, item["id"], {"body": "when"})
        like = s.body(s.call("POST", f"{path}/reactions", ok=(201,)))
        s.register("reaction", f"/v1/reactions/{like.get('id')}")
        comments = s.body(s.call("GET", f"{path}/comments"), list)
        likes = s.body(s.call("GET", f"{path}/reactions"), list)
        teams = s.body(s.call("GET", "/v1/teams"), list)
        stamps = [
            *_stamps(f"collection {cid}", s.collection(cid)),
            *_stamps(f"item {item['id']}", s.item(item["id"])),
            *_stamps(f"comment {note['id']}", next((c for c in comments if c.get("id") == note["id"]), None)),
            *_stamps(
                f"like {like.get('id')}", next((r for r in likes if r.get("id") == like.get("id")), None)
            ),
            *[stamp for team in teams for stamp in _stamps(f"team {team.get('id')}", team)],
        ]
        offsets = {name: _offset(value) for name, value in stamps}
        wrong = [f"{name} {value!r}" for name, value in stamps if offsets[name] not in (0.0, None)]
        s.expect(not wrong, "timestamps not in UTC: " + "; ".join(wrong), kind=SchemaViolation)
        unread = [f"{name} {value!r}" for name, value in stamps if offsets[name] is None]
        if unread or not stamps:
            raise CheckSkipped(
                "timestamps not read as ISO 8601 (the contract layer judges their form): "
                + ("; ".join(unread) or "none found")
            )


@check(
    LAYER,
    "items.create_item",
    'an item made without a link has link ""',
    statements=("2.2/item.link",),
)
def item_link_empty_when_none(ctx: RunContext) -> None:
    with session(ctx) as s:
        exchange, sent = s.new_item(s.new_collection()["id"], type="text", content="no source")
        made = s.body(exchange)
        s.expect(
            made.get("link") == "",
            f'Create an item of a text item sent without link answered link {made.get("link")!r}, not ""',
            exchange,
            kind=SchemaViolation,
        )
        got = s.item(made["id"]).get("link")
        s.expect(
            got == "",
            f'a GET of a text item made without link shows link {got!r}, not "" (sent {sent})',
            kind=SchemaViolation,
        )


@check(
    LAYER,
    "items.update_item",
    "an update keeps created_at and moves updated_at",
    statements=("2.2/item.created_at",),
)
def item_timestamps_on_update(ctx: RunContext) -> None:
    with session(ctx) as s:
        things = aged(s)
        item_id = things.item

        def update() -> dict[str, Any]:
            sent = {"name": ctx.target.name("renamed"), "description": "updated"}
            data: dict[str, Any] = s.body(s.call("PUT", f"/v1/items/{item_id}", json_body=sent))
            return data

        judge_times(s, f"item {item_id}", things.first["item"], update, lambda: s.item(item_id))


def _item_entry(s: Session, cid: int, item_id: int) -> dict[str, Any] | None:
    return entry(s.listing("/v1/items", {"collection_id": cid}), item_id)


def _item_diffs(sent: dict[str, Any], got: dict[str, Any] | None) -> list[str]:
    if got is None:
        return ["nothing: it is not there"]
    plain = {k: v for k, v in sent.items() if k not in ("sort", "thumbnail", "prevent_duplicate")}
    out = differences(plain, got)
    if "sort" in sent and got.get("sort") != sent["sort"]:
        out.append(f"sort {got.get('sort')!r} (sent {sent['sort']!r})")
    if "thumbnail" in sent and not (isinstance(got.get("thumbnail"), str) and got.get("thumbnail")):
        out.append(f"thumbnail {got.get('thumbnail')!r} (sent {sent['thumbnail']!r})")
    return out


def _expect_item(s: Session, sent: dict[str, Any], cid: int, item_id: int, what: str) -> None:
    diffs = _item_diffs(sent, s.item(item_id))
    stored(s, not diffs, f"{what}, a GET of item {item_id} shows " + "; ".join(diffs))
    diffs = _item_diffs(sent, _item_entry(s, cid, item_id))
    stored(s, not diffs, f"{what}, its entry in List items of collection {cid} shows " + "; ".join(diffs))


@check(
    LAYER,
    "items.create_item",
    "every field of a created link and text item reads back (its answer, GET and its list entry)",
    statements=(
        "2.2/item.preview",
        "2.2/item.sort",
        "2.2/item.tags",
        "4.2/item-body.type",
        "4.2/item-body.content",
        "4.2/item-body.description",
        "4.2/item-body.latitude",
        "4.2/item-body.link",
        "4.2/item-body.metadata",
        "4.2/item-body.name",
        "4.2/item-body.shareable",
        "4.2/item-body.sort",
        "4.2/item-body.tags",
        "4.2/item-body.thumbnail",
        "8/paid",
    ),
)
def item_create_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        word = unique(s)
        link: dict[str, Any] = {
            "type": "link",
            "content": f"https://example.com/{word}",
            "link": f"https://example.com/source/{word}",
            "description": f"about {word}",
            "latitude": 41.15,
            "longitude": -8.61,
            "shareable": True,
            "sort": 5,
            "thumbnail": f"https://example.com/{word}.png",
            "metadata": {"origin": word},
            "tags": [ctx.target.name(f"t{word}")],
        }
        text = {
            "type": "text",
            "content": "plain words",
            "description": "a note",
            "metadata": {"a": "1", "b": "x"},
        }
        left: list[str] = []
        for fields in (link, text):
            exchange, sent = s.new_item(cid, ok=(201, 402), **fields)
            if exchange.status == 402:
                left, fields = ["tags"], {k: v for k, v in fields.items() if k != "tags"}
                exchange, sent = s.new_item(cid, **fields)
            data = s.body(exchange)
            diffs = _item_diffs(sent, data)
            stored(s, not diffs, "Create an item's answer shows " + "; ".join(diffs), exchange)
            _expect_item(s, sent, cid, data["id"], f"after Create an item ({fields['type']})")
        if left:
            raise unpaid(*left, partly=True)


# what the old update check read in Update an item's answer
_ANSWERED = ("name", "description", "content", "latitude", "longitude", "metadata", "type")


@check(
    LAYER,
    "items.update_item",
    "every field of an item update persists (its answer, GET, list entry, stack children, item tags), and an "
    "update of a few",
    statements=(
        "4.2/item-body.type",
        "4.2/item-body.content",
        "4.2/item-body.description",
        "4.2/item-body.items",
        "4.2/item-body.latitude",
        "4.2/item-body.link",
        "4.2/item-body.metadata",
        "4.2/item-body.name",
        "4.2/item-body.parent_id",
        "4.2/item-body.prevent_duplicate",
        "4.2/item-body.shareable",
        "4.2/item-body.sort",
        "4.2/item-body.tags",
        "4.2/item-body.thumbnail",
    ),
)
def item_update_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        word = unique(s)
        item = s.add_item(cid, shareable=False, metadata={"a": "1"})
        stack = s.add_item(cid, type="stack")
        loose = s.add_item(cid)
        sent = {
            "type": "link",
            "content": f"https://example.com/{word}",
            "link": f"https://example.com/source/{word}",
            "name": f"{ctx.target.name('upd')} {word}",
            "description": f"updated {word}",
            "shareable": True,
            "sort": 9,
            "thumbnail": f"https://example.com/{word}.png",
            "latitude": -33.87,
            "longitude": 151.21,
            "metadata": {"a": "2"},
            "prevent_duplicate": False,
            "parent_id": stack["id"],
            "tags": [ctx.target.name(f"u{word}")],
        }
        exchange, sent, left = write_paid(s, "PUT", f"/v1/items/{item['id']}", sent, ("tags",), 200)
        answered = {k: v for k, v in sent.items() if k in _ANSWERED}
        diffs = differences(answered, s.body(exchange))
        s.expect(not diffs, "Update an item answered " + "; ".join(diffs), exchange)
        _expect_item(s, sent, cid, item["id"], "after Update an item")
        # all fields optional on update: an update of a few keeps the type
        few = {
            "name": ctx.target.name("renamed"),
            "description": "changed",
            "content": f"https://example.com/again/{word}",
            "latitude": 51.5,
            "longitude": -0.12,
            "metadata": {"a": "2", "b": "2"},
        }
        data = s.body(s.call("PUT", f"/v1/items/{item['id']}", json_body=few))
        diffs = differences({**few, "type": sent["type"]}, data)
        s.expect(not diffs, "Update an item (a few fields) answered " + "; ".join(diffs))
        diffs = differences({**few, "type": sent["type"]}, s.item(item["id"]))
        s.expect(
            not diffs, "a GET after Update an item (a few fields) shows " + "; ".join(diffs), kind=NotStored
        )
        if "tags" in sent:
            listed = tag_names(s.body(s.call("GET", f"/v1/items/{item['id']}/tags"), list))
            want = {t.casefold() for t in sent["tags"]}
            stored(
                s,
                listed == want,
                f"after Update an item with tags, List item tags shows {listed}, not {want}",
            )
        # items: a stack's children, set by an update of the stack
        s.call("PUT", f"/v1/items/{stack['id']}", json_body={"items": [loose["id"]]})
        kids = ids_of(s.item(stack["id"], include="stack_items").get("stack_items") or [])
        stored(
            s,
            loose["id"] in kids,
            f"after Update an item with items [{loose['id']}], the stack's include=stack_items lists {kids}",
        )
        stored(
            s,
            s.item(loose["id"]).get("parent_id") == stack["id"],
            f"after Update an item with items [{loose['id']}], that item's parent_id is not {stack['id']}",
        )
        if left:
            raise unpaid(*left, partly=True)


@check(
    LAYER,
    "items.create_item",
    "prevent_duplicate does not store a second link item",
    strict=True,
    statements=(
        "4.2/item-body.prevent_duplicate",
        "4.11/prevent-duplicate",
        "design/small-rules.prevent-duplicate",
    ),
)
def item_prevent_duplicate(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        link = f"https://example.com/{unique(s)}"
        first = s.add_item(cid, type="link", content=link, link=link)
        again, _ = s.new_item(cid, ok=(200,), type="link", content=link, link=link, prevent_duplicate=True)
        stored(
            s,
            s.body(again).get("id") == first["id"],
            "prevent_duplicate answered another item than the first",
        )
        same = [e.get("id") for e in s.listing("/v1/items", {"collection_id": cid}) if e.get("link") == link]
        stored(s, same == [first["id"]], f"with prevent_duplicate the collection lists {same} with that link")
