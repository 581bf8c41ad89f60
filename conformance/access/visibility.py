"""Who may see and change what the run made: a private collection, shareable and public things.

Most of these checks have one shape: user 3 (else user 2), a stranger to the scene the run made,
sends one request about one of its things, and the answer must say the thing is invisible,
readable, or refused. They are rows of `SINGLE_REQUESTS`, registered by one loop. The checks
that read whole lists, search, the activity feed and the tag list as the stranger, where no
private thing may appear, are rows of `LISTINGS`, registered by a second loop; listing a private
collection's items by collection_id (refused, or an empty list) follows as a function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from typing import Any

from ..failures import AccessLeak, CheckSkipped, NotStored, WrongStatus, expect
from ..http import create_collection, create_item
from ..registry import RunContext, check
from ..settings import User
from ..target import Exchange
from .common import (
    LAYER,
    PER_PAGE,
    RULE_PRIVATE,
    RULE_PUBLIC,
    RULE_SHAREABLE,
    Scene,
    expect_invisible,
    expect_readable,
    expect_refused,
    owner_of,
    pages_of,
    scene_of,
    stranger_of,
    who,
)

INVISIBLE, READABLE, REFUSED = "invisible", "readable", "refused"
_NOT_FOUND = ("design/visibility.not-found",)
Values = dict[str, Any]  # the scene's ids, and what a row's setup made


@dataclass(frozen=True)
class Row:
    """One request of the stranger about the scene, and what its answer must say.

    `path` and `what` are formatted with the values (the scene's fields and what `setup` made);
    `thing` names the value whose id a readable answer carries; a wrongly accepted request may
    make something (`makes`: its kind, and who owns it), which is registered for cleanup."""

    id: str  # the check's id, as the function was named when these were functions
    operation: str
    name: str
    rule: str
    method: str
    path: str
    what: str
    expect: str  # INVISIBLE, READABLE or REFUSED
    thing: str = ""
    body: Callable[[Values], Any] | None = None
    setup: Callable[[RunContext, Scene], Values] | None = None
    makes: tuple[str, str] | None = None  # (kind, "stranger" or "owner")
    after: Callable[[RunContext, Values], None] | None = None  # a read that the refusal changed nothing
    statements: tuple[str, ...] = ()  # the spec's statements it verifies


def _strangers_collection(ctx: RunContext, scene: Scene) -> Values:
    return {"own": create_collection(ctx, "stranger's own", "private", stranger_of(ctx))}


def _movable(ctx: RunContext, scene: Scene) -> Values:
    movable = create_item(ctx, scene.private, f"movable {scene.word}", "stays where it is")
    own = create_collection(ctx, "stranger's destination", "private", stranger_of(ctx))
    return {"movable": movable, "own": own}


def _description_kept(ctx: RunContext, values: Values) -> None:
    path = f"/v1/collections/{values['public']}"
    after = ctx.target.request("GET", path, user=owner_of(ctx))
    body = after.json()
    one = body[0] if isinstance(body, list) and body else {}
    expect(
        not (isinstance(one, dict) and one.get("description") == "changed by a reader"),
        f"the refused PUT {path} changed the collection all the same",
        after,
        NotStored,  # the write should not be stored: a refusal that stores it anyway
    )


SINGLE_REQUESTS: tuple[Row, ...] = (
    Row(
        "private_collection_hidden",
        "collections.get_collection",
        "a private collection is invisible to a stranger",
        RULE_PRIVATE,
        "GET",
        "/v1/collections/{private}",
        "private collection {private}",
        INVISIBLE,
        statements=("3/collection-type",),
    ),
    Row(
        "private_item_hidden",
        "items.get_item",
        "an item of a private collection is invisible to a stranger",
        RULE_PRIVATE,
        "GET",
        "/v1/items/{item}",
        "item {item} of a private collection",
        INVISIBLE,
    ),
    Row(
        "private_comments_hidden",
        "comments.list_comments",
        "comments in a private collection are invisible to a stranger",
        RULE_PRIVATE,
        "GET",
        "/v1/items/{item}/comments",
        "the comments of item {item} (private collection)",
        INVISIBLE,
    ),
    Row(
        "private_collaborators_hidden",
        "collections.list_collaborators",
        "a private collection's collaborators are invisible to a stranger",
        RULE_PRIVATE,
        "GET",
        "/v1/collections/{private}/users",
        "the collaborators of private collection {private}",
        INVISIBLE,
    ),
    Row(
        "private_item_not_copied",
        "items.copy_items",
        "a stranger cannot copy an item of a private collection",
        RULE_PRIVATE,
        "PUT",
        "/v1/items/copy",
        "item {item} of a private collection (to copy)",
        INVISIBLE,
        body=lambda v: {"items": [v["item"]], "collection_id": v["own"]},
        setup=_strangers_collection,
        makes=("item", "stranger"),
    ),
    Row(
        "private_item_not_moved",
        "items.update_multiple_items",
        "a stranger cannot move an item out of a private collection",
        RULE_PRIVATE,
        "PUT",
        "/v1/items",
        "item {movable} of a private collection (to move)",
        INVISIBLE,
        body=lambda v: {"items": [v["movable"]], "collection_id": v["own"]},
        setup=_movable,
    ),
    Row(
        "private_item_no_comments",
        "comments.create_comment",
        "a stranger cannot comment on an item of a private collection",
        RULE_PRIVATE,
        "POST",
        "/v1/items/{item}/comments",
        "item {item} of a private collection (to comment on)",
        INVISIBLE,
        body=lambda v: {"body": "a stranger's comment"},
        makes=("comment", "stranger"),
    ),
    Row(
        "private_comment_not_edited",
        "comments.update_comment",
        "a stranger cannot edit a comment in a private collection",
        RULE_PRIVATE,
        "PUT",
        "/v1/comments/{comment}",
        "comment {comment} in a private collection",
        INVISIBLE,
        body=lambda v: {"body": "edited by a stranger"},
    ),
    Row(
        "shareable_item_readable",
        "items.get_item",
        "a shareable item of a private collection is readable by any user",
        RULE_SHAREABLE,
        "GET",
        "/v1/items/{shareable}",
        "shareable item {shareable}",
        READABLE,
        thing="shareable",
        statements=("2.2/item.shareable", "4.2/item-body.shareable"),
    ),
    Row(
        "public_collection_readable",
        "collections.get_collection",
        "a public collection is readable by any user",
        RULE_PUBLIC,
        "GET",
        "/v1/collections/{public}",
        "public collection {public}",
        READABLE,
        thing="public",
        statements=("3/collection-type",),
    ),
    Row(
        "public_item_readable",
        "items.get_item",
        "an item of a public collection is readable by any user",
        RULE_PUBLIC,
        "GET",
        "/v1/items/{public_item}",
        "item {public_item} of a public collection",
        READABLE,
        thing="public_item",
    ),
    Row(
        "public_collection_not_writable",
        "collections.update_collection",
        "a reader cannot change a public collection",
        RULE_PUBLIC,
        "PUT",
        "/v1/collections/{public}",
        "change public collection {public}",
        REFUSED,
        body=lambda v: {"description": "changed by a reader"},
        after=_description_kept,
    ),
    Row(
        "public_collection_no_new_items",
        "items.create_item",
        "a reader cannot add items to a public collection",
        RULE_PUBLIC,
        "POST",
        "/v1/collections/{public}/items",
        "add an item to public collection {public}",
        REFUSED,
        body=lambda v: {"type": "text", "name": v["name"], "content": "not allowed"},
        setup=lambda ctx, scene: {"name": ctx.target.name("added by a reader")},
        makes=("item", "owner"),
    ),
    Row(
        "public_item_not_writable",
        "items.update_item",
        "a reader cannot change an item of a public collection",
        RULE_PUBLIC,
        "PUT",
        "/v1/items/{public_item}",
        "change item {public_item} of a public collection",
        REFUSED,
        body=lambda v: {"description": "changed by a reader"},
    ),
)


def _register(row: Row) -> None:
    @check(
        LAYER,
        row.operation,
        row.name,
        row.rule,
        users=2,
        id=row.id,
        # what a stranger may not see is a 404 (docs/design.md, Visibility)
        statements=(*row.statements, *(_NOT_FOUND if row.expect == INVISIBLE else ())),
    )
    def visibility(ctx: RunContext) -> None:
        scene, stranger = scene_of(ctx), stranger_of(ctx)
        values = {**asdict(scene), **(row.setup(ctx, scene) if row.setup else {})}
        body = row.body(values) if row.body else None
        exchange = ctx.target.request(row.method, row.path.format(**values), user=stranger, json_body=body)
        if row.makes and 200 <= exchange.status < 300:
            _register_made(ctx, exchange, *row.makes)
        what = row.what.format(**values)
        if row.expect == INVISIBLE:
            expect_invisible(ctx, exchange, what, stranger)
        elif row.expect == READABLE:
            expect_readable(exchange, what, stranger, values[row.thing])
        else:
            expect_refused(ctx, exchange, what, stranger)
        if row.after:
            row.after(ctx, values)


def _register_made(ctx: RunContext, exchange: Exchange, kind: str, owner: str) -> None:
    """What a wrongly accepted request made (one thing, or a list of copies) goes at cleanup."""
    made = exchange.json()
    user = stranger_of(ctx) if owner == "stranger" else owner_of(ctx)
    for entry in made if isinstance(made, list) else [made]:
        if isinstance(entry, dict) and isinstance(entry.get("id"), int):
            ctx.target.created(kind, f"/v1/{kind}s/{entry['id']}", user)


for _row in SINGLE_REQUESTS:
    _register(_row)


# ---------------------------------------------------------------------- lists, search, the feed
@dataclass(frozen=True)
class Listing:
    """A list the stranger reads (every page, with each query) in which no private thing of the
    scene may appear. `setup` makes what must not appear, or proves the owner's own read shows
    it (a stranger's empty answer would prove nothing otherwise: CheckSkipped); `leaked` names
    what of the private things an answer's entries show."""

    id: str
    operation: str
    name: str
    path: str
    verb: str  # what the message says the list does with a leaked thing
    leaked: Callable[[Scene, Values, list[Any]], list[str]]
    queries: Callable[[Scene, User], tuple[dict[str, Any], ...]] = lambda scene, owner: ({},)
    setup: Callable[[RunContext, Scene], Values] | None = None
    paged: bool = True  # else one request, which must answer 200 and an array
    statements: tuple[str, ...] = ()  # the spec's statements it verifies


def _leaked_items(scene: Scene, entries: list[Any]) -> list[Any]:
    return [
        e.get("id")
        for e in entries
        if isinstance(e, dict) and (e.get("collection_id") == scene.private or e.get("id") == scene.item)
    ]


def _found(entry: Any) -> tuple[str, Any]:
    kind = entry.get("type") if isinstance(entry, dict) else None
    return (
        "collection" if kind == "collection" else "comment" if kind == "comment" else "item",
        entry.get("id") if isinstance(entry, dict) else None,
    )


def _collection_leaked(scene: Scene, values: Values, entries: list[Any]) -> list[str]:
    listed = any(isinstance(e, dict) and e.get("id") == scene.private for e in entries)
    return [f"private collection {scene.private}"] if listed else []


def _items_leaked(scene: Scene, values: Values, entries: list[Any]) -> list[str]:
    leaked = _leaked_items(scene, entries)
    return [f"items {leaked} of private collection {scene.private}"] if leaked else []


def _search_leaked(scene: Scene, values: Values, entries: list[Any]) -> list[str]:
    private = scene.private_things()
    return sorted(f"{kind} {thing}" for kind, thing in map(_found, entries) if (kind, thing) in private) + [
        f"{e.get('type')} {e.get('id')}"
        for e in entries
        if isinstance(e, dict) and e.get("collection_id") == scene.private and _found(e) not in private
    ]


def _feed_leaked(scene: Scene, values: Values, entries: list[Any]) -> list[str]:
    private = scene.private_things()
    return sorted(
        f"{e.get('type')} {e.get('id')}"
        for e in entries
        if isinstance(e, dict) and (e.get("type"), e.get("id")) in private
    )


def _tag_leaked(scene: Scene, values: Values, entries: list[Any]) -> list[str]:
    listed = any(isinstance(e, dict) and e.get("name") == values["tag"] for e in entries)
    return [f"{values['tag']!r}, only on a private item"] if listed else []


def _owner_finds(ctx: RunContext, scene: Scene) -> Values:
    owner = owner_of(ctx)
    found = {
        _found(e)
        for _, entries in pages_of(ctx.target, "/v1/search", owner, {"q": scene.word})
        for e in entries
    }
    if ("collection", scene.private) not in found:
        raise CheckSkipped(
            f"the owner's own search for {scene.word!r} does not find the private collection, so a "
            "stranger's empty result would prove nothing"
        )
    return {}


def _owner_feed_shows(ctx: RunContext, scene: Scene) -> Values:
    first_page = next(pages_of(ctx.target, "/v1/activity", owner_of(ctx), {}))[1]
    if not {(e.get("type"), e.get("id")) for e in first_page if isinstance(e, dict)} & scene.private_things():
        raise CheckSkipped(
            "the owner's own activity feed does not show the private collection just made, so a "
            "stranger's feed would prove nothing"
        )
    return {}


def _private_tag(ctx: RunContext, scene: Scene) -> Values:
    """The owner tags the private item; the owner's own tag list shows the tag."""
    owner, tag = owner_of(ctx), f"{scene.word}tag"
    tagged = ctx.target.request("POST", f"/v1/items/{scene.item}/tags", user=owner, json_body={"name": tag})
    if tagged.status == 402:
        raise CheckSkipped(f"user {owner.id} is on a free plan: tags are paid-only, so no tag to hide")
    made = tagged.json()
    expect(
        tagged.status in (200, 201) and isinstance(made, dict) and isinstance(made.get("id"), int),
        f"the owner tagging item {scene.item} should answer 201, got {tagged.status}",
        tagged,
    )
    ctx.target.created("tag", f"/v1/tags/{made['id']}", owner)
    mine = ctx.target.request("GET", "/v1/tags", user=owner).json()
    if not any(isinstance(e, dict) and e.get("name") == tag for e in mine or []):
        raise CheckSkipped(
            f"the owner's own tag list does not show {tag!r}: a stranger's would prove nothing"
        )
    return {"tag": tag}


LISTINGS: tuple[Listing, ...] = (
    Listing(
        "private_collection_unlisted",
        "collections.list_collections",
        "a stranger's collection lists never show a private collection",
        "/v1/collections",
        "lists",
        _collection_leaked,
        lambda scene, owner: ({}, {"sort": "recent"}, {"q": scene.word}, {"owner_id": owner.id}),
    ),
    Listing(
        "private_items_unlisted",
        "items.list_items",
        "a stranger's item lists never show items of a private collection",
        "/v1/items",
        "lists",
        _items_leaked,
        lambda scene, owner: ({}, {"q": scene.word}, {"owner_id": owner.id}),
    ),
    Listing(
        "private_unsearchable",
        "search.search",
        "search never finds a private collection, its items or comments for a stranger",
        "/v1/search",
        "finds",
        _search_leaked,
        lambda scene, owner: ({"q": scene.word},),
        setup=_owner_finds,
    ),
    Listing(
        "private_not_in_activity",
        "activity.list_activity",
        "a stranger's activity feed never shows a private collection",
        "/v1/activity",
        "shows",
        _feed_leaked,
        setup=_owner_feed_shows,
        statements=("1/activity",),
    ),
    Listing(
        "private_tags_unlisted",
        "tags.list_tags",
        "a stranger's tag list never shows the tags of a private collection",
        "/v1/tags",
        "lists",
        _tag_leaked,
        setup=_private_tag,
        paged=False,
    ),
)


def _reads(
    ctx: RunContext, row: Listing, user: User, params: dict[str, Any]
) -> Iterator[tuple[Exchange, list[Any]]]:
    if row.paged:
        yield from pages_of(ctx.target, row.path, user, params)
        return
    exchange = ctx.target.request("GET", row.path, user=user, params=params or None)
    expect(exchange.status == 200, f"GET {row.path} as {who(user)} should answer 200", exchange, WrongStatus)
    entries = exchange.json()
    yield exchange, entries if isinstance(entries, list) else []


def _register_listing(row: Listing) -> None:
    @check(LAYER, row.operation, row.name, RULE_PRIVATE, users=2, id=row.id, statements=row.statements)
    def unlisted(ctx: RunContext) -> None:
        scene, stranger, owner = scene_of(ctx), stranger_of(ctx), owner_of(ctx)
        values = {**asdict(scene), **(row.setup(ctx, scene) if row.setup else {})}
        for params in row.queries(scene, owner):
            for exchange, entries in _reads(ctx, row, stranger, params):
                leaked = row.leaked(scene, values, entries)
                message = f"GET {row.path} as {who(stranger)} {row.verb} {', '.join(leaked)}"
                expect(not leaked, message, exchange, AccessLeak)


for _listing in LISTINGS:
    _register_listing(_listing)


@check(
    LAYER,
    "items.list_items",
    "listing a private collection's items is refused to a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_items_by_collection(ctx: RunContext) -> None:
    scene, stranger = scene_of(ctx), stranger_of(ctx)
    exchange = ctx.target.request(
        "GET", "/v1/items", user=stranger, params={"collection_id": scene.private, "per_page": PER_PAGE}
    )
    entries = exchange.json()
    if exchange.status == 200 and not ctx.settings.strict:  # an empty answer hides it too
        expect(isinstance(entries, list), "GET /v1/items answered 200 without an array", exchange)
        leaked = _leaked_items(scene, entries)
        expect(
            not leaked,
            f"items {leaked} of private collection {scene.private} are listed",
            exchange,
            AccessLeak,
        )
        return
    expect_invisible(ctx, exchange, f"the items of private collection {scene.private}", stranger)
