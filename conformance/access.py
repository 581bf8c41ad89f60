"""The access layer (issue 5): who may call, see and do what, with two or three users and a team.

Each property is its own check. The actors are the settings' users: user 1 owns what the
run creates, the *stranger* (user 3, else user 2) has no part in it, and user 2 must be a
plain member of `--team-id` for the managers-only checks. Checks needing more users than
were given are skipped by the runner; the team checks skip themselves without a team.

Safe on a real server: everything is created by user 1 with the run's names and registered
for cleanup; collaborator additions are undone by the checks that make them. The one touch
on pre-existing data is the managers-only team checks: a plain member's requests there would
change nothing even if wrongly accepted (the team's own name, the member's own kind, an
existing member, a non-member), and anything a faulty server did change is put back.

Statuses: 401 for missing or wrong credentials; outside --strict an invisible thing may be a
403 or a 404 and a refusal any 4xx; --strict demands docs/design.md's 404 and 403, the
WWW-Authenticate header and error body of a 401, and the permissions objects.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from .failures import CheckFailed, CheckSkipped, expect
from .registry import RunContext, check
from .settings import User
from .target import Exchange, Target

LAYER = "access"
PER_PAGE = 100
MAX_PAGES = 5  # of a stranger's list; the run's things are the newest, so they would come early
WRONG_KEY = "csapi-conform-wrong-api-key"
WRONG_TOKEN = "csapi-conform-wrong-token"
UNKNOWN_USER_ID = 2**31 - 7

RULE_KEY = "spec 5.1: every request carries a valid API key in X-API-Key"
RULE_BASIC = "spec 5.3: user authentication by HTTP Basic, the user id and the user's auth token"
RULE_401 = "design.md, status codes: a 401 has WWW-Authenticate: Basic and the message object"
RULE_PRIVATE = "spec 1, design.md, visibility: a private collection is for its owner and collaborators"
RULE_PUBLIC = "design.md, visibility: public is readable by any authenticated user, writable by no reader"
RULE_SHAREABLE = "spec 4.2 shareable, design.md, visibility: a shareable item is readable by any user"
RULE_COLLABORATOR = "spec 1, 4.1: collaborators share a collection; design.md, visibility"
RULE_MANAGERS = "spec 4.3, 5.5: managers-only endpoints require a manager of the team (403)"
RULE_PERMISSIONS = "design.md, permissions object"

OWNER_PERMISSIONS = {"admin": True, "edit": True, "share": True, "leave": False, "delete": True}
COLLABORATOR_PERMISSIONS = {"admin": False, "edit": True, "share": True, "leave": True, "delete": False}
READER_PERMISSIONS = {"admin": False, "edit": False, "share": False, "leave": False, "delete": False}


# ---------------------------------------------------------------------- actors and statuses
def _owner(ctx: RunContext) -> User:
    return ctx.settings.users[0]


def _stranger(ctx: RunContext) -> User:
    """User 3, else user 2: no part in anything the run creates."""
    users = ctx.settings.users
    return users[2] if len(users) >= 3 else users[1]


def _who(user: User) -> str:
    return f"user {user.id}"


def _expect_invisible(ctx: RunContext, exchange: Exchange, what: str, user: User) -> None:
    """404 under --strict; outside it 403 or 404. Any success is a leak."""
    allowed = (404,) if ctx.settings.strict else (403, 404)
    expect(
        not 200 <= exchange.status < 300,
        f"{_who(user)}, who has no access, can see {what} (HTTP {exchange.status})",
        exchange,
    )
    expect(
        exchange.status in allowed,
        f"{what}, invisible to {_who(user)}: expected {' or '.join(map(str, allowed))}, "
        f"got {exchange.status}",
        exchange,
    )


def _expect_refused(ctx: RunContext, exchange: Exchange, what: str, user: User) -> None:
    """403 under --strict; outside it any 4xx. Any success means it was done."""
    expect(
        not 200 <= exchange.status < 300,
        f"{_who(user)} was allowed to {what} (HTTP {exchange.status})",
        exchange,
    )
    if ctx.settings.strict:
        expect(
            exchange.status == 403, f"{what} by {_who(user)}: expected 403, got {exchange.status}", exchange
        )
    else:
        expect(
            400 <= exchange.status < 500,
            f"{what} by {_who(user)}: expected a 4xx, got {exchange.status}",
            exchange,
        )


def _expect_readable(exchange: Exchange, what: str, user: User, thing_id: int) -> None:
    expect(
        exchange.status == 200, f"{what} should be readable by {_who(user)}, got {exchange.status}", exchange
    )
    body = exchange.json()
    one = body[0] if isinstance(body, list) and body else body
    expect(
        isinstance(one, dict) and one.get("id") == thing_id,
        f"{what}: the answer is not {thing_id} (id {one.get('id') if isinstance(one, dict) else None!r})",
        exchange,
    )


def _pages(target: Target, path: str, user: User, params: dict[str, Any]) -> Iterator[tuple[Exchange, list]]:
    """Each page of a list as `user`, up to MAX_PAGES, while X-Total-Count says there is more."""
    seen = 0
    for page in range(1, MAX_PAGES + 1):
        exchange = target.request(
            "GET", path, user=user, params={**params, "page": page, "per_page": PER_PAGE}
        )
        entries = exchange.json()
        expect(
            exchange.status == 200 and isinstance(entries, list),
            f"GET {path} as {_who(user)} should answer 200 and an array, got {exchange.status}",
            exchange,
        )
        yield exchange, entries
        seen += len(entries)
        total = exchange.header("X-Total-Count")
        if not entries or (total is not None and total.isdigit() and seen >= int(total)):
            return


# ---------------------------------------------------------------------- 401: keys and credentials
@dataclass(frozen=True)
class _BadCredentials:
    name: str
    rule: str
    users: int = 1

    def request(self, ctx: RunContext, method: str, path: str, json_body: Any = None) -> Exchange:
        owner, api_key, user = _owner(ctx), True, _owner(ctx)
        if self.name == "no API key":
            api_key = False
        elif self.name == "a wrong API key":
            api_key = WRONG_KEY
        elif self.name == "no user credentials":
            user = None
        elif self.name == "a wrong token":
            user = User(owner.id, WRONG_TOKEN)
        elif self.name == "an unknown user id":
            user = User(UNKNOWN_USER_ID, owner.token)
        elif self.name == "another user's token":
            user = User(owner.id, ctx.settings.users[1].token)
        return ctx.target.request(method, path, user=user, api_key=api_key, json_body=json_body)


NO_KEY = _BadCredentials("no API key", RULE_KEY)
WRONG_KEY_CASE = _BadCredentials("a wrong API key", RULE_KEY)
NO_USER = _BadCredentials("no user credentials", RULE_BASIC)
WRONG_TOKEN_CASE = _BadCredentials("a wrong token", RULE_BASIC)
UNKNOWN_USER = _BadCredentials("an unknown user id", RULE_BASIC)
OTHER_TOKEN = _BadCredentials("another user's token", RULE_BASIC + " (a token is one user's)", users=2)

# A sample of operations: ping takes the key alone; the others need both credentials.
_SAMPLE: tuple[tuple[str, str, tuple[_BadCredentials, ...]], ...] = (
    ("auth.ping", "/v1/ping", (NO_KEY, WRONG_KEY_CASE)),
    (
        "users.get_current_user",
        "/v1/users/me",
        (NO_KEY, WRONG_KEY_CASE, NO_USER, WRONG_TOKEN_CASE, UNKNOWN_USER, OTHER_TOKEN),
    ),
    ("collections.list_collections", "/v1/collections", (NO_KEY, WRONG_KEY_CASE, NO_USER, WRONG_TOKEN_CASE)),
    ("items.list_items", "/v1/items", (NO_USER, WRONG_TOKEN_CASE)),
    ("activity.list_activity", "/v1/activity", (NO_KEY, NO_USER)),
)


def _register_read_refusal(operation: str, path: str, case: _BadCredentials) -> None:
    @check(
        LAYER,
        operation,
        f"a request with {case.name} is refused (401)",
        case.rule,
        writes=False,
        users=case.users,
    )
    def refused(ctx: RunContext) -> None:
        exchange = case.request(ctx, "GET", path)
        expect(
            exchange.status == 401,
            f"GET {path} with {case.name}: expected 401, got {exchange.status}",
            exchange,
        )


def _register_write_refusal(case: _BadCredentials) -> None:
    @check(
        LAYER,
        "collections.create_collection",
        f"a request with {case.name} is refused (401)",
        case.rule,
        users=case.users,
    )
    def refused(ctx: RunContext) -> None:
        body = {"name": ctx.target.name("refused"), "type": "private"}
        exchange = case.request(ctx, "POST", "/v1/collections", json_body=body)
        made = exchange.json()
        if 200 <= exchange.status < 300 and isinstance(made, dict) and isinstance(made.get("id"), int):
            ctx.target.created("collection", f"/v1/collections/{made['id']}")
        expect(
            exchange.status == 401,
            f"POST /v1/collections with {case.name}: expected 401, got {exchange.status}",
            exchange,
        )


for _operation, _path, _cases in _SAMPLE:
    for _case in _cases:
        _register_read_refusal(_operation, _path, _case)
for _case in (NO_KEY, NO_USER, WRONG_TOKEN_CASE):
    _register_write_refusal(_case)


def _register_401_shape(operation: str, path: str, case: _BadCredentials) -> None:
    @check(
        LAYER,
        operation,
        f"the 401 for {case.name} has WWW-Authenticate and the error body",
        RULE_401,
        writes=False,
        strict=True,
    )
    def shaped(ctx: RunContext) -> None:
        exchange = case.request(ctx, "GET", path)
        expect(
            exchange.status == 401,
            f"GET {path} with {case.name}: expected 401, got {exchange.status}",
            exchange,
        )
        challenge = exchange.header("WWW-Authenticate") or ""
        expect(
            challenge.lower().startswith("basic"),
            f"the 401 should carry WWW-Authenticate: Basic, got {challenge or 'none'}",
            exchange,
        )
        expect(
            (exchange.header("Content-Type") or "").startswith("application/json"),
            f"the 401 body should be JSON, got Content-Type {exchange.header('Content-Type')}",
            exchange,
        )
        body = exchange.json()
        expect(
            isinstance(body, dict)
            and body.get("code") == "unauthorized"
            and isinstance(body.get("message"), str),
            "the 401 body should be the message object with code 'unauthorized'",
            exchange,
        )


_register_401_shape("users.get_current_user", "/v1/users/me", NO_USER)
_register_401_shape("collections.list_collections", "/v1/collections", NO_KEY)


# ---------------------------------------------------------------------- what the run creates
@dataclass(frozen=True)
class Scene:
    """Made once per run by user 1: a private collection with an item, a comment on it and a
    shareable item, and a public collection with an item. Only `word` finds them by search."""

    word: str
    private: int
    item: int
    comment: int
    shareable: int
    public: int
    public_item: int

    def private_things(self) -> set[tuple[str, int]]:
        return {
            ("collection", self.private),
            ("item", self.item),
            ("item", self.shareable),
            ("comment", self.comment),
        }


_scenes: dict[int, tuple[weakref.ref[Target], Scene | CheckFailed]] = {}


def _scene(ctx: RunContext) -> Scene:
    """The run's scene, made on first use; a failure to make it fails every check needing it."""
    entry = _scenes.get(id(ctx.target))
    if entry is None or entry[0]() is not ctx.target:
        _scenes.clear()  # one run at a time
        try:
            made: Scene | CheckFailed = _make_scene(ctx)
        except CheckFailed as failure:
            made = failure
        entry = _scenes[id(ctx.target)] = (weakref.ref(ctx.target), made)
    made = entry[1]
    if isinstance(made, CheckFailed):
        raise CheckFailed(f"could not set up the access scene: {made.message}", made.exchange)
    return made


def _make_scene(ctx: RunContext) -> Scene:
    word = f"accessword{ctx.target.run_id}"
    private = _create_collection(ctx, f"private {word}", "private")
    item = _create_item(ctx, private, f"item {word}", f"text of {word}", shareable=False)
    comment = _create(
        ctx, "comment", f"/v1/items/{item}/comments", {"body": f"comment on {word}"}, "/v1/comments/{id}"
    )
    shareable = _create_item(ctx, private, f"shareable {word}", f"shared text of {word}", shareable=True)
    public = _create_collection(ctx, "public", "public")
    public_item = _create_item(ctx, public, "public item", "text of a public item")
    return Scene(word, private, item, comment, shareable, public, public_item)


def _create(
    ctx: RunContext, kind: str, path: str, body: dict[str, Any], delete_path: str, user: User | None = None
) -> int:
    """Create a thing as `user` (default the owner) and register it for cleanup; its id."""
    user = user or _owner(ctx)
    exchange = ctx.target.request("POST", path, user=user, json_body=body)
    made = exchange.json()
    expect(
        exchange.status in (200, 201) and isinstance(made, dict) and isinstance(made.get("id"), int),
        f"POST {path} as {_who(user)} should create a {kind}, got {exchange.status}",
        exchange,
    )
    ctx.target.created(kind, delete_path.format(id=made["id"]), user)
    return made["id"]


def _create_collection(ctx: RunContext, label: str, kind: str, user: User | None = None) -> int:
    body = {"name": ctx.target.name(label), "type": kind}
    return _create(ctx, "collection", "/v1/collections", body, "/v1/collections/{id}", user)


def _create_item(ctx: RunContext, collection: int, name: str, content: str, shareable: bool = False) -> int:
    body = {"type": "text", "name": ctx.target.name(name), "content": content, "shareable": shareable}
    return _create(ctx, "item", f"/v1/collections/{collection}/items", body, "/v1/items/{id}")


# ---------------------------------------------------------------------- a private collection
@check(
    LAYER,
    "collections.get_collection",
    "a private collection is invisible to a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_collection_hidden(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.private}", user=stranger)
    _expect_invisible(ctx, exchange, f"private collection {scene.private}", stranger)


@check(
    LAYER,
    "items.get_item",
    "an item of a private collection is invisible to a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_item_hidden(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/items/{scene.item}", user=stranger)
    _expect_invisible(ctx, exchange, f"item {scene.item} of a private collection", stranger)


@check(
    LAYER,
    "comments.list_comments",
    "comments in a private collection are invisible to a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_comments_hidden(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/items/{scene.item}/comments", user=stranger)
    _expect_invisible(ctx, exchange, f"the comments of item {scene.item} (private collection)", stranger)


@check(
    LAYER,
    "collections.list_collaborators",
    "a private collection's collaborators are invisible to a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_collaborators_hidden(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.private}/users", user=stranger)
    _expect_invisible(ctx, exchange, f"the collaborators of private collection {scene.private}", stranger)


@check(
    LAYER,
    "collections.list_collections",
    "a stranger's collection lists never show a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_collection_unlisted(ctx: RunContext) -> None:
    scene, stranger, owner = _scene(ctx), _stranger(ctx), _owner(ctx)
    for params in ({}, {"sort": "recent"}, {"q": scene.word}, {"owner_id": owner.id}):
        for exchange, entries in _pages(ctx.target, "/v1/collections", stranger, params):
            expect(
                not any(isinstance(e, dict) and e.get("id") == scene.private for e in entries),
                f"GET /v1/collections as {_who(stranger)} lists private collection {scene.private}",
                exchange,
            )


def _leaked_items(scene: Scene, entries: list) -> list[int]:
    return [
        e.get("id")
        for e in entries
        if isinstance(e, dict) and (e.get("collection_id") == scene.private or e.get("id") == scene.item)
    ]


@check(
    LAYER,
    "items.list_items",
    "a stranger's item lists never show items of a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_items_unlisted(ctx: RunContext) -> None:
    scene, stranger, owner = _scene(ctx), _stranger(ctx), _owner(ctx)
    for params in ({}, {"q": scene.word}, {"owner_id": owner.id}):
        for exchange, entries in _pages(ctx.target, "/v1/items", stranger, params):
            leaked = _leaked_items(scene, entries)
            where = f"private collection {scene.private}"
            expect(not leaked, f"GET /v1/items as {_who(stranger)} lists items {leaked} of {where}", exchange)


@check(
    LAYER,
    "items.list_items",
    "listing a private collection's items is refused to a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_items_by_collection(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request(
        "GET", "/v1/items", user=stranger, params={"collection_id": scene.private, "per_page": PER_PAGE}
    )
    entries = exchange.json()
    if exchange.status == 200 and not ctx.settings.strict:  # an empty answer hides it too
        expect(isinstance(entries, list), "GET /v1/items answered 200 without an array", exchange)
        leaked = _leaked_items(scene, entries)
        expect(not leaked, f"items {leaked} of private collection {scene.private} are listed", exchange)
        return
    _expect_invisible(ctx, exchange, f"the items of private collection {scene.private}", stranger)


def _search(ctx: RunContext, user: User, word: str) -> Iterator[tuple[Exchange, list]]:
    return _pages(ctx.target, "/v1/search", user, {"q": word})


def _found(entry: Any) -> tuple[str, Any]:
    kind = entry.get("type") if isinstance(entry, dict) else None
    return (
        "collection" if kind == "collection" else "comment" if kind == "comment" else "item",
        entry.get("id") if isinstance(entry, dict) else None,
    )


@check(
    LAYER,
    "search.search",
    "search never finds a private collection, its items or comments for a stranger",
    RULE_PRIVATE,
    users=2,
)
def private_unsearchable(ctx: RunContext) -> None:
    scene, stranger, owner = _scene(ctx), _stranger(ctx), _owner(ctx)
    owner_finds = {_found(e) for _, entries in _search(ctx, owner, scene.word) for e in entries}
    if ("collection", scene.private) not in owner_finds:
        raise CheckSkipped(
            f"the owner's own search for {scene.word!r} does not find the private collection, so a "
            "stranger's empty result would prove nothing"
        )
    private = scene.private_things()
    for exchange, entries in _search(ctx, stranger, scene.word):
        leaked = sorted(
            f"{kind} {thing}" for kind, thing in map(_found, entries) if (kind, thing) in private
        ) + [
            f"{e.get('type')} {e.get('id')}"
            for e in entries
            if isinstance(e, dict) and e.get("collection_id") == scene.private and _found(e) not in private
        ]
        expect(not leaked, f"GET /v1/search as {_who(stranger)} finds {', '.join(leaked)}", exchange)


def _feed(ctx: RunContext, user: User) -> Iterator[tuple[Exchange, list]]:
    return _pages(ctx.target, "/v1/activity", user, {})


@check(
    LAYER,
    "activity.list_activity",
    "a stranger's activity feed never shows a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_not_in_activity(ctx: RunContext) -> None:
    scene, stranger, owner = _scene(ctx), _stranger(ctx), _owner(ctx)
    private = scene.private_things()
    first_page = next(_feed(ctx, owner))[1]
    owner_sees = {(e.get("type"), e.get("id")) for e in first_page if isinstance(e, dict)}
    if not owner_sees & private:
        raise CheckSkipped(
            "the owner's own activity feed does not show the private collection just made, so a "
            "stranger's feed would prove nothing"
        )
    for exchange, entries in _feed(ctx, stranger):
        leaked = sorted(
            f"{e.get('type')} {e.get('id')}"
            for e in entries
            if isinstance(e, dict) and (e.get("type"), e.get("id")) in private
        )
        expect(not leaked, f"GET /v1/activity as {_who(stranger)} shows {', '.join(leaked)}", exchange)


@check(
    LAYER,
    "tags.list_tags",
    "a stranger's tag list never shows the tags of a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_tags_unlisted(ctx: RunContext) -> None:
    scene, stranger, owner = _scene(ctx), _stranger(ctx), _owner(ctx)
    tag = f"{scene.word}tag"
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
    exchange = ctx.target.request("GET", "/v1/tags", user=stranger)
    names = [e.get("name") for e in exchange.json() or [] if isinstance(e, dict)]
    expect(exchange.status == 200, f"GET /v1/tags as {_who(stranger)} should answer 200", exchange)
    expect(
        tag not in names, f"GET /v1/tags as {_who(stranger)} lists {tag!r}, only on a private item", exchange
    )


@check(
    LAYER,
    "items.copy_items",
    "a stranger cannot copy an item of a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_item_not_copied(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    own = _create_collection(ctx, "stranger's own", "private", stranger)
    body = {"items": [scene.item], "collection_id": own}
    exchange = ctx.target.request("PUT", "/v1/items/copy", user=stranger, json_body=body)
    copies = exchange.json()
    if 200 <= exchange.status < 300 and isinstance(copies, list):
        for copy in copies:
            if isinstance(copy, dict) and isinstance(copy.get("id"), int):
                ctx.target.created("item", f"/v1/items/{copy['id']}", stranger)
    _expect_invisible(ctx, exchange, f"item {scene.item} of a private collection (to copy)", stranger)


@check(
    LAYER,
    "items.update_multiple_items",
    "a stranger cannot move an item out of a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_item_not_moved(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    item = _create_item(ctx, scene.private, f"movable {scene.word}", "stays where it is")
    own = _create_collection(ctx, "stranger's destination", "private", stranger)
    exchange = ctx.target.request(
        "PUT", "/v1/items", user=stranger, json_body={"items": [item], "collection_id": own}
    )
    _expect_invisible(ctx, exchange, f"item {item} of a private collection (to move)", stranger)


@check(
    LAYER,
    "comments.create_comment",
    "a stranger cannot comment on an item of a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_item_no_comments(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    path = f"/v1/items/{scene.item}/comments"
    exchange = ctx.target.request("POST", path, user=stranger, json_body={"body": "a stranger's comment"})
    made = exchange.json()
    if 200 <= exchange.status < 300 and isinstance(made, dict) and isinstance(made.get("id"), int):
        ctx.target.created("comment", f"/v1/comments/{made['id']}", stranger)
    _expect_invisible(ctx, exchange, f"item {scene.item} of a private collection (to comment on)", stranger)


@check(
    LAYER,
    "comments.update_comment",
    "a stranger cannot edit a comment in a private collection",
    RULE_PRIVATE,
    users=2,
)
def private_comment_not_edited(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request(
        "PUT", f"/v1/comments/{scene.comment}", user=stranger, json_body={"body": "edited by a stranger"}
    )
    _expect_invisible(ctx, exchange, f"comment {scene.comment} in a private collection", stranger)


# ---------------------------------------------------------------------- shareable and public
@check(
    LAYER,
    "items.get_item",
    "a shareable item of a private collection is readable by any user",
    RULE_SHAREABLE,
    users=2,
)
def shareable_item_readable(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/items/{scene.shareable}", user=stranger)
    _expect_readable(exchange, f"shareable item {scene.shareable}", stranger, scene.shareable)


@check(
    LAYER, "collections.get_collection", "a public collection is readable by any user", RULE_PUBLIC, users=2
)
def public_collection_readable(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.public}", user=stranger)
    _expect_readable(exchange, f"public collection {scene.public}", stranger, scene.public)


@check(
    LAYER, "items.get_item", "an item of a public collection is readable by any user", RULE_PUBLIC, users=2
)
def public_item_readable(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/items/{scene.public_item}", user=stranger)
    _expect_readable(
        exchange, f"item {scene.public_item} of a public collection", stranger, scene.public_item
    )


@check(
    LAYER, "collections.update_collection", "a reader cannot change a public collection", RULE_PUBLIC, users=2
)
def public_collection_not_writable(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    path = f"/v1/collections/{scene.public}"
    exchange = ctx.target.request(
        "PUT", path, user=stranger, json_body={"description": "changed by a reader"}
    )
    _expect_refused(ctx, exchange, f"change public collection {scene.public}", stranger)
    after = ctx.target.request("GET", path, user=_owner(ctx))
    body = after.json()
    one = body[0] if isinstance(body, list) and body else {}
    expect(
        not (isinstance(one, dict) and one.get("description") == "changed by a reader"),
        f"the refused PUT {path} changed the collection all the same",
        after,
    )


@check(LAYER, "items.create_item", "a reader cannot add items to a public collection", RULE_PUBLIC, users=2)
def public_collection_no_new_items(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    body = {"type": "text", "name": ctx.target.name("added by a reader"), "content": "not allowed"}
    exchange = ctx.target.request(
        "POST", f"/v1/collections/{scene.public}/items", user=stranger, json_body=body
    )
    made = exchange.json()
    if 200 <= exchange.status < 300 and isinstance(made, dict) and isinstance(made.get("id"), int):
        ctx.target.created("item", f"/v1/items/{made['id']}", _owner(ctx))
    _expect_refused(ctx, exchange, f"add an item to public collection {scene.public}", stranger)


@check(
    LAYER, "items.update_item", "a reader cannot change an item of a public collection", RULE_PUBLIC, users=2
)
def public_item_not_writable(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request(
        "PUT",
        f"/v1/items/{scene.public_item}",
        user=stranger,
        json_body={"description": "changed by a reader"},
    )
    _expect_refused(ctx, exchange, f"change item {scene.public_item} of a public collection", stranger)


# ---------------------------------------------------------------------- collaborators
def _add_collaborator(ctx: RunContext, collection: int, user: User) -> Exchange:
    exchange = ctx.target.request(
        "POST", f"/v1/collections/{collection}/users", user=_owner(ctx), json_body={"id": user.id}
    )
    expect(
        exchange.status in (200, 201),
        f"the owner adding {_who(user)} as a collaborator of {collection} should succeed, "
        f"got {exchange.status}",
        exchange,
    )
    return exchange


def _remove_collaborator(ctx: RunContext, collection: int, user: User) -> Exchange:
    return ctx.target.request("DELETE", f"/v1/collections/{collection}/users/{user.id}", user=_owner(ctx))


def _shared_collection(ctx: RunContext, label: str) -> tuple[int, int]:
    """A private collection of the owner with one item, for one collaborator check."""
    collection = _create_collection(ctx, label, "private")
    return collection, _create_item(ctx, collection, f"{label} item", "text")


@check(
    LAYER, "collections.add_collaborator", "an added collaborator gains access", RULE_COLLABORATOR, users=2
)
def collaborator_gains_access(ctx: RunContext) -> None:
    stranger = _stranger(ctx)
    collection, item = _shared_collection(ctx, "shared")
    before = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
    _expect_invisible(ctx, before, f"private collection {collection} (before sharing)", stranger)
    _add_collaborator(ctx, collection, stranger)
    try:
        got = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
        _expect_readable(got, f"collection {collection}, shared with {_who(stranger)},", stranger, collection)
        got = ctx.target.request("GET", f"/v1/items/{item}", user=stranger)
        _expect_readable(got, f"item {item} of a collection shared with {_who(stranger)},", stranger, item)
        listed = [
            e.get("id")
            for _, entries in _pages(ctx.target, "/v1/items", stranger, {"collection_id": collection})
            for e in entries
            if isinstance(e, dict)
        ]
        expect(
            item in listed, f"GET /v1/items?collection_id={collection} as the collaborator misses item {item}"
        )
        if ctx.settings.strict:  # design.md, collaborators: the plain list includes shared collections
            found = any(
                isinstance(e, dict) and e.get("id") == collection
                for _, entries in _pages(ctx.target, "/v1/collections", stranger, {"sort": "recent"})
                for e in entries
            )
            expect(
                found, f"GET /v1/collections as the collaborator does not list shared collection {collection}"
            )
    finally:
        _remove_collaborator(ctx, collection, stranger)


@check(
    LAYER,
    "collections.remove_collaborator",
    "a removed collaborator loses access",
    RULE_COLLABORATOR,
    users=2,
)
def collaborator_loses_access(ctx: RunContext) -> None:
    stranger = _stranger(ctx)
    collection, item = _shared_collection(ctx, "unshared")
    _add_collaborator(ctx, collection, stranger)
    got = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
    _expect_readable(got, f"collection {collection}, shared with {_who(stranger)},", stranger, collection)
    removed = _remove_collaborator(ctx, collection, stranger)
    expect(
        removed.status == 200,
        f"the owner removing collaborator {_who(stranger)} should answer 200, got {removed.status}",
        removed,
    )
    after = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
    _expect_invisible(ctx, after, f"collection {collection} (after removing its collaborator)", stranger)
    after = ctx.target.request("GET", f"/v1/items/{item}", user=stranger)
    _expect_invisible(ctx, after, f"item {item} (after removing the collaborator)", stranger)
    for exchange, entries in _pages(ctx.target, "/v1/collections", stranger, {"sort": "recent"}):
        expect(
            not any(isinstance(e, dict) and e.get("id") == collection for e in entries),
            f"GET /v1/collections as the removed collaborator still lists collection {collection}",
            exchange,
        )


# ---------------------------------------------------------------------- permissions objects (strict)
def _permissions(exchange: Exchange) -> Any:
    body = exchange.json()
    one = body[0] if isinstance(body, list) and body else body
    return one.get("permissions") if isinstance(one, dict) else None


def _expect_permissions(exchange: Exchange, role: str, user: User, wanted: dict[str, bool]) -> None:
    expect(
        exchange.status == 200,
        f"GET as the {role} ({_who(user)}) should answer 200, got {exchange.status}",
        exchange,
    )
    got = _permissions(exchange)
    expect(got == wanted, f"the {role}'s permissions should be {wanted}, got {got}", exchange)


@check(LAYER, "collections.get_collection", "the owner's permissions object", RULE_PERMISSIONS, strict=True)
def owner_permissions(ctx: RunContext) -> None:
    scene, owner = _scene(ctx), _owner(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.private}", user=owner)
    _expect_permissions(exchange, "owner", owner, OWNER_PERMISSIONS)


@check(
    LAYER,
    "collections.get_collection",
    "a collaborator's permissions object",
    RULE_PERMISSIONS,
    strict=True,
    users=2,
)
def collaborator_permissions(ctx: RunContext) -> None:
    stranger = _stranger(ctx)
    collection, _ = _shared_collection(ctx, "permissions")
    _add_collaborator(ctx, collection, stranger)
    try:
        exchange = ctx.target.request("GET", f"/v1/collections/{collection}", user=stranger)
        _expect_permissions(exchange, "collaborator", stranger, COLLABORATOR_PERMISSIONS)
    finally:
        _remove_collaborator(ctx, collection, stranger)


@check(
    LAYER,
    "collections.get_collection",
    "a public reader's permissions object",
    RULE_PERMISSIONS,
    strict=True,
    users=2,
)
def reader_permissions(ctx: RunContext) -> None:
    scene, stranger = _scene(ctx), _stranger(ctx)
    exchange = ctx.target.request("GET", f"/v1/collections/{scene.public}", user=stranger)
    _expect_permissions(exchange, "public reader", stranger, READER_PERMISSIONS)


# ---------------------------------------------------------------------- managers-only team operations
@dataclass(frozen=True)
class _Team:
    id: int
    member: User  # user 2, a plain member
    members: dict[int, str]  # user id -> kind, as the member reads them


def _team(ctx: RunContext) -> _Team:
    """--team-id, with user 2 as a plain member of it; else the check is skipped."""
    team_id = ctx.settings.team_id
    if team_id is None:
        raise CheckSkipped("needs --team-id: a team in which user 2 is a plain member (kind user)")
    member = ctx.settings.users[1]
    exchange = ctx.target.request("GET", f"/v1/teams/{team_id}/users", user=member)
    entries = exchange.json()
    if exchange.status != 200 or not isinstance(entries, list):
        raise CheckSkipped(
            f"user 2 cannot list the members of team {team_id} (HTTP {exchange.status}): "
            "--team-id must name a team in which user 2 is a plain member"
        )
    members = {e.get("id"): e.get("kind") for e in entries if isinstance(e, dict)}
    if members.get(member.id) != "user":
        raise CheckSkipped(
            f"user 2 is not a plain member of team {team_id} (kind {members.get(member.id)!r}): "
            "the managers-only checks need one"
        )
    return _Team(team_id, member, members)


def _member_kind(ctx: RunContext, team: _Team, user_id: int) -> str | None:
    exchange = ctx.target.request("GET", f"/v1/teams/{team.id}/users", user=team.member)
    entries = exchange.json() if exchange.status == 200 else None
    if not isinstance(entries, list):
        return None
    return next((e.get("kind") for e in entries if isinstance(e, dict) and e.get("id") == user_id), None)


def _restore_member(ctx: RunContext, team: _Team, user_id: int, kind: str | None) -> None:
    """Put a member's kind back after a faulty server accepted a plain member's change."""
    if _member_kind(ctx, team, user_id) == kind or kind is None:
        return
    for actor in (team.member, _owner(ctx)):
        restored = ctx.target.request(
            "PUT", f"/v1/teams/{team.id}/users/{user_id}", user=actor, json_body={"kind": kind}
        )
        if 200 <= restored.status < 300:
            return


@check(LAYER, "teams.update_team", "a plain member cannot update the team", RULE_MANAGERS, users=2)
def member_cannot_update_team(ctx: RunContext) -> None:
    team = _team(ctx)
    path = f"/v1/teams/{team.id}"
    read = ctx.target.request("GET", path, user=team.member)
    name = read.json().get("name") if isinstance(read.json(), dict) else None
    if read.status != 200 or not isinstance(name, str):
        raise CheckFailed(
            f"a member of team {team.id} should read it (200 with a name), got {read.status}", read
        )
    # The team's own name: a faulty server that accepts it changes nothing.
    exchange = ctx.target.request("PUT", path, user=team.member, json_body={"name": name})
    if 200 <= exchange.status < 300:
        after = ctx.target.request("GET", path, user=team.member).json()
        if isinstance(after, dict) and after.get("name") != name:
            for actor in (team.member, _owner(ctx)):
                if ctx.target.request("PUT", path, user=actor, json_body={"name": name}).status < 300:
                    break
    _expect_refused(ctx, exchange, f"update team {team.id}", team.member)


@check(LAYER, "teams.add_team_member", "a plain member cannot add team members", RULE_MANAGERS, users=2)
def member_cannot_add_member(ctx: RunContext) -> None:
    team = _team(ctx)
    # The member themself, already in the team with this kind: nothing to change if accepted.
    exchange = ctx.target.request(
        "POST",
        f"/v1/teams/{team.id}/users",
        user=team.member,
        json_body={"id": team.member.id, "kind": "user"},
    )
    if 200 <= exchange.status < 300:
        _restore_member(ctx, team, team.member.id, "user")
    _expect_refused(ctx, exchange, f"add a member to team {team.id}", team.member)


@check(
    LAYER, "teams.update_team_member", "a plain member cannot change a member's kind", RULE_MANAGERS, users=2
)
def member_cannot_update_member(ctx: RunContext) -> None:
    team = _team(ctx)
    # The member's own current kind: a faulty server that accepts it changes nothing.
    exchange = ctx.target.request(
        "PUT", f"/v1/teams/{team.id}/users/{team.member.id}", user=team.member, json_body={"kind": "user"}
    )
    if 200 <= exchange.status < 300:
        _restore_member(ctx, team, team.member.id, "user")
    _expect_refused(ctx, exchange, f"change a member's kind in team {team.id}", team.member)


@check(LAYER, "teams.remove_team_member", "a plain member cannot remove team members", RULE_MANAGERS, users=2)
def member_cannot_remove_member(ctx: RunContext) -> None:
    team = _team(ctx)
    # An account that is not a member (user 3, or the team itself): nothing to lose if accepted.
    candidates = [u.id for u in ctx.settings.users[2:]] + [team.id]
    outsider = next(i for i in candidates if i not in team.members)
    exchange = ctx.target.request("DELETE", f"/v1/teams/{team.id}/users/{outsider}", user=team.member)
    _expect_refused(ctx, exchange, f"remove a member from team {team.id}", team.member)
