"""Persistence of every writable field: what a create or an update sent is what a LATER, DIFFERENT
read shows (get, a list entry, include=..., another user's view), compared with the values the
check sent, never with the write's own answer.

Collections, items, comments, tags, collaborators and the current user's addresses are the run's
own. The team and the current user are not: their checks change them and put back every field
they changed (also when the check fails).
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..failures import CheckSkipped
from ..http import (
    LAYER,
    Session,
    differences,
    entry,
    found,
    ids_of,
    me,
    new_comment,
    search,
    searched,
    session,
    settled,
    tag_counts,
    tag_names,
    unique,
    unpaid,
)
from ..registry import RunContext, check
from ..target import Exchange
from .writes_common import managed_team, members, reads_as_collaborator, stored, teams_of, username_for

R_COLLECTION_BODY = "spec 4.1 Create and update a collection body; spec 2.1 Collection fields"
R_ITEM_BODY = "spec 4.2 Create and update an item body; spec 2.2 Item fields"
R_TEAM = "spec 4.3 Update a team (managers only); spec 2.6 team detail and team list entry"
R_KIND = "spec 3: member kind user or manager -> PUT team member with kind -> kind as sent; spec 4.3"
R_COLLABORATOR = "spec 4.1 Add a collaborator: exactly one of id, email or username identifies it"
R_INVITE = "spec 4.1 Create and update a collection body: users, user ids of collaborators to invite"
R_COMMENT = "spec 4.5 Update a comment (body); List comments; spec 4.9 search covers comments"
R_NOTIFY = "spec 4.5 Create a comment: body, notify; spec 2.2 an item's comments"
R_TAG = "spec 4.8 Create a tag; spec 4.2 List item tags, List items tags; spec 2.5; spec 4.9 tags"
R_DUPLICATE = "docs/design.md small rules: prevent_duplicate answers 200 with the existing link item"

PAID_COLLECTION = ("archived", "highlighted", "labels", "sort_by", "sort_order", "view_mode")


def _mismatch(sent: dict[str, Any], got: dict[str, Any]) -> dict[str, Any]:
    """Fields of `sent` that `got` shows otherwise; a thumbnail only has to be set (servers may
    store the image elsewhere and answer their own URL)."""
    wrong = {}
    for name, value in sent.items():
        have = got.get(name)
        if name == "thumbnail":
            if not (isinstance(have, str) and have):
                wrong[name] = have
        elif have != value:
            wrong[name] = have
    return wrong


def _expect_shows(s: Session, sent: dict[str, Any], got: dict[str, Any] | None, what: str) -> None:
    stored(s, got is not None, f"{what} does not show it")
    assert got is not None
    wrong = _mismatch(sent, got)
    stored(s, not wrong, f"{what} shows {wrong}; the suite sent { ({k: sent[k] for k in wrong}) }")


def _write_paid(
    s: Session, method: str, path: str, body: dict[str, Any], paid: tuple[str, ...], ok: int
) -> tuple[Exchange, dict[str, Any], list[str]]:
    """Send `body`; on a 402 send it again without the paid-only fields. The answer, what was
    stored as sent, and the paid fields left out."""
    exchange = s.call(method, path, ok=(ok, 402), json_body=body)
    if exchange.status != 402:
        return exchange, body, []
    left = [k for k in body if k in paid]
    body = {k: v for k, v in body.items() if k not in paid}
    return s.call(method, path, ok=(ok,), json_body=body), body, left


# ---------------------------------------------------------------------- collections
def _collection_fields(s: Session, word: str, flip: bool) -> dict[str, Any]:
    """Every field of the collection body but users and name/type, with values that differ from a
    new collection's defaults (and, with `flip`, from the first set)."""
    return {
        "description": f"described {word}",
        "thumbnail": f"https://example.com/{word}{int(flip)}.png",
        "user_id": s.me.id,  # the owner: the caller itself, nothing else changes hands
        "labels": flip,
        "view_mode": "list" if flip else "shelf",
        "sort_by": "size" if flip else "name",
        "sort_order": "asc" if flip else "desc",
        "highlighted": not flip,
        "archived": flip,
    }


def _listed(s: Session, cid: int, word: str, sent: dict[str, Any]) -> dict[str, Any] | None:
    """The collection's entry in List collections (found by the word of its name, under the status
    its flags put it)."""
    status = "archived" if sent.get("archived") else "highlighted" if sent.get("highlighted") else None
    params = {"q": word, **({"status": status} if status else {})}
    return entry(s.listing("/v1/collections", params), cid)


@check(
    LAYER,
    "collections.create_collection",
    "every field of a created collection reads back (GET and its list entry)",
    R_COLLECTION_BODY,
)
def collection_create_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        word = unique(s)
        body = {
            "name": f"{ctx.target.name('made')} {word}",
            "type": "public",
            **_collection_fields(s, word, False),
        }
        exchange, body, left = _write_paid(s, "POST", "/v1/collections", body, PAID_COLLECTION, 201)
        data = s.body(exchange)
        s.expect(isinstance(data.get("id"), int), "the new collection has no integer id", exchange)
        cid = data["id"]
        ctx.target.created("collection", f"/v1/collections/{cid}", s.me)
        s.collections.append(cid)
        _expect_shows(s, body, s.collection(cid), f"a GET of the new collection {cid}")
        _expect_shows(s, body, _listed(s, cid, word, body), f"the List collections entry of collection {cid}")
        if left:
            raise unpaid(*left, partly=True)


@check(
    LAYER,
    "collections.update_collection",
    "every field of an update persists (GET and its list entry)",
    R_COLLECTION_BODY + "; spec 3 transitions of archived, highlighted and type",
)
def collection_update_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        word = unique(s)
        cid = s.new_collection(name=f"{ctx.target.name('before')} {word}")["id"]
        left: list[str] = []
        for flip in (False, True):  # each flag both ways: a server that ignores one value is caught
            body = {
                "name": f"{ctx.target.name('after' if flip else 'between')} {word}",
                "type": "global" if flip else "public",
                **_collection_fields(s, word, flip),
            }
            _, body, left = _write_paid(s, "PUT", f"/v1/collections/{cid}", body, PAID_COLLECTION, 200)
            what = f"after Update a collection {cid} ({'second' if flip else 'first'} update)"
            _expect_shows(s, body, s.collection(cid), f"{what}, a GET")
            _expect_shows(s, body, _listed(s, cid, word, body), f"{what}, its List collections entry")
        if left:
            raise unpaid(*left, partly=True)


@check(
    LAYER, "collections.create_collection", "users in the body makes them collaborators", R_INVITE, users=2
)
def collection_users_invited(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s:
        made = s.new_collection(users=[other.id])["id"]
        later = s.new_collection()["id"]
        s.call("PUT", f"/v1/collections/{later}", json_body={"users": [other.id]})
        for cid, how in ((made, "Create a collection"), (later, "Update a collection")):
            s.register("collaborator", f"/v1/collections/{cid}/users/{other.id}")
            reads_as_collaborator(s, cid, other, f"{how} with users [{other.id}]")


@check(
    LAYER,
    "collections.add_collaborator",
    "a collaborator added by email or by username is stored",
    R_COLLABORATOR,
    users=2,
)
def collaborator_by_email_or_username(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s:
        info = me(s, other)
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}/users/{other.id}"
        for key in ("email", "username"):
            s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={key: info.get(key)})
            s.register("collaborator", path)
            reads_as_collaborator(s, cid, other, f"added by {key}")
            s.call("DELETE", path)
            s.gone(path)


# ---------------------------------------------------------------------- items
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
    "sort, thumbnail, tags and the rest read back from a list",
    R_ITEM_BODY,
)
def item_create_fields_persist(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        word = unique(s)
        fields: dict[str, Any] = {
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
        exchange, sent = s.new_item(cid, ok=(201, 402), **fields)
        left = []
        if exchange.status == 402:
            left, fields = ["tags"], {k: v for k, v in fields.items() if k != "tags"}
            exchange, sent = s.new_item(cid, **fields)
        _expect_item(s, sent, cid, s.body(exchange)["id"], "after Create an item")
        if left:
            raise unpaid(*left, partly=True)


@check(
    LAYER,
    "items.update_item",
    "every field of an item update persists (GET, list entry, stack children, item tags)",
    R_ITEM_BODY,
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
        _, sent, left = _write_paid(s, "PUT", f"/v1/items/{item['id']}", sent, ("tags",), 200)
        _expect_item(s, sent, cid, item["id"], "after Update an item")
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
    R_DUPLICATE,
    strict=True,
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


# ---------------------------------------------------------------------- comments and tags
def _comment_body(s: Session, item_id: int, comment_id: int) -> Any:
    listed = entry(s.body(s.call("GET", f"/v1/items/{item_id}/comments"), list), comment_id)
    return listed.get("body") if listed else None


@check(LAYER, "comments.update_comment", "an edited comment is listed and found with its new body", R_COMMENT)
def comment_update_persists(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        old, new = unique(s), unique(s)
        made = new_comment(s, item["id"], {"body": f"first {old}"})
        text = f"edited {new}"
        s.call("PUT", f"/v1/comments/{made['id']}", json_body={"body": text})
        body = _comment_body(s, item["id"], made["id"])
        stored(s, body == text, f"after Update a comment, List comments shows body {body!r}, not {text!r}")
        if not searched(s, made["id"], ("comment",), q=new):
            stale = found(search(s, q=old)[0], made["id"], ("comment",))
            stored(
                s,
                not stale,
                f"after Update a comment, search finds it by its old body {old!r}, not by {new!r}",
            )


@check(
    LAYER, "comments.create_comment", "a comment made with notify is stored and shown on its item", R_NOTIFY
)
def comment_notify_stored(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        username = me(s).get("username")
        text = f"@{username} look {unique(s)}"
        made = new_comment(s, item["id"], {"body": text, "notify": True})
        body = _comment_body(s, item["id"], made["id"])
        stored(
            s, body == text, f"a comment made with notify=true is listed with body {body!r}, sent {text!r}"
        )
        embedded = s.item(item["id"]).get("comments")
        stored(
            s,
            isinstance(embedded, list) and len(embedded) == 1,
            f"the item's comments array holds {embedded!r} after its one comment was made",
        )


@check(
    LAYER, "tags.create_tag", "a created tag shows on its item, in lists, counts, filters and search", R_TAG
)
def created_tag_everywhere(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        item = s.add_item(cid)
        name = ctx.target.name(f"tag{unique(s)}")
        exchange = s.call("POST", f"/v1/items/{item['id']}/tags", ok=(201, 402), json_body={"name": name})
        if exchange.status == 402:
            raise unpaid("tags")
        tag = s.body(exchange)
        s.expect(isinstance(tag.get("id"), int), "the new tag has no integer id", exchange)
        s.register("tag", f"/v1/tags/{tag['id']}")
        key = name.casefold()
        listed = s.body(s.call("GET", f"/v1/items/{item['id']}/tags"), list)
        stored(
            s,
            any(
                isinstance(e, dict) and e.get("id") == tag["id"] and str(e.get("name")).casefold() == key
                for e in listed
            ),
            f"List item tags shows {listed}, not the new tag {tag['id']} {name!r}",
        )
        stored(
            s,
            key in (tag_names(s.item(item["id"]).get("tags")) or set()),
            f"a GET of the item lacks tag {name!r}",
        )
        for path in ("/v1/tags", f"/v1/collections/{cid}/tags"):
            counted = settled(s, "tags", partial(tag_counts, s, path), lambda got: got.get(key) == 1)
            stored(
                s,
                counted.get(key) == 1,
                f"GET {path} counts {counted.get(key)!r} items tagged {name!r}, 1 is",
            )
        tagged = ids_of(s.listing("/v1/items", {"tags": name}))
        stored(s, tagged == [item["id"]], f"List items tags={name} lists {tagged}, not [{item['id']}]")
        stored(
            s,
            searched(s, item["id"], ("item",), tags=name),
            f"search tags={name} does not find item {item['id']} (within --settle)",
        )


# ---------------------------------------------------------------------- teams
def _team_changes(s: Session, team: dict[str, Any], word: str) -> dict[str, Any]:
    """A new value for every field of the Update a team body, each unlike the current one."""
    return {
        "name": s.target.name(f"team {word}"),
        "username": username_for(s, f"t{word[-6:]}"),
        "billing_email": f"{word}@example.com",
        "custom_domain": f"{word}.example.com",
        "labels": not team.get("labels", True),
        "sort_by": "name" if team.get("sort_by") != "name" else "created_at",
        "sort_order": "asc" if team.get("sort_order") != "asc" else "desc",
        "view_mode": "shelf" if team.get("view_mode") != "shelf" else "tile",
    }


@check(LAYER, "teams.update_team", "every field of a team update persists (get, list teams)", R_TEAM)
def team_update_persists(ctx: RunContext) -> None:
    team_id, team = managed_team(ctx)
    with session(ctx) as s:
        sent = _team_changes(s, team, unique(s))
        path = f"/v1/teams/{team_id}"
        try:
            s.call("PUT", path, json_body=sent)
            _expect_shows(s, sent, s.body(s.call("GET", path)), f"after Update a team {team_id}, a GET")
            listed = {
                k: v for k, v in sent.items() if k in ("name", "username", "billing_email", "custom_domain")
            }
            got = entry(s.body(s.call("GET", "/v1/teams"), list), team_id)
            _expect_shows(s, listed, got, f"after Update a team {team_id}, its List teams entry")
        finally:  # the team is not the run's: every field back as it was
            ctx.target.request("PUT", path, json_body={k: team.get(k) for k in sent})


@check(
    LAYER, "teams.update_team_member", "a member's new kind is stored (members, teams, team)", R_KIND, users=2
)
def team_member_kind_persists(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    other = ctx.settings.users[1]
    with session(ctx) as s:
        old = members(s, team_id).get(other.id)
        if old not in ("user", "manager"):
            raise CheckSkipped(f"user 2 is not a member of team {team_id} (kind {old!r})")
        new = "manager" if old == "user" else "user"
        path = f"/v1/teams/{team_id}/users/{other.id}"
        try:
            s.call("PUT", path, json_body={"kind": new})
            kind = members(s, team_id).get(other.id)
            stored(
                s, kind == new, f"after Update team member kind={new}, List team members shows kind {kind!r}"
            )
            kind = teams_of(s, other).get(team_id)
            stored(
                s,
                kind == new,
                f"after Update team member kind={new}, user 2's List teams shows user_kind {kind!r}",
            )
            detail = s.body(s.call("GET", f"/v1/teams/{team_id}", user=other))
            stored(
                s,
                detail.get("user_kind") == new,
                f"after Update team member kind={new}, user 2's Get a team shows user_kind "
                f"{detail.get('user_kind')!r}",
            )
            kind = (entry(s.body(s.call("GET", f"/v1/teams/{team_id}")).get("users"), other.id) or {}).get(
                "kind"
            )
            stored(
                s, kind == new, f"after Update team member kind={new}, Get a team's users show kind {kind!r}"
            )
        finally:  # user 2's membership is not the run's: its kind back as it was
            ctx.target.request("PUT", path, json_body={"kind": old})
