"""What the access checks share: the actors, the statuses that mean invisible, refused or
readable, a stranger's view of a list page by page, and the scene the run makes once."""

from __future__ import annotations

import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..failures import AccessDenied, AccessLeak, CheckFailed, WrongStatus, expect
from ..http import create_collection, create_item, create_thing
from ..registry import RunContext
from ..settings import User
from ..target import Exchange, Target

LAYER = "access"
PER_PAGE = 100
MAX_PAGES = 5  # of a stranger's list; the run's things are the newest, so they would come early
WRONG_KEY = "csapi-conform-wrong-api-key"
WRONG_TOKEN = "csapi-conform-wrong-token"
UNKNOWN_USER_ID = 2**31 - 7

RULE_PRIVATE = "spec 1, design.md, visibility: a private collection is for its owner and collaborators"
RULE_PUBLIC = "design.md, visibility: public is readable by any authenticated user, writable by no reader"
RULE_SHAREABLE = "spec 4.2 shareable, design.md, visibility: a shareable item is readable by any user"
RULE_PERMISSIONS = "design.md, permissions object"

OWNER_PERMISSIONS = {"admin": True, "edit": True, "share": True, "leave": False, "delete": True}
COLLABORATOR_PERMISSIONS = {"admin": False, "edit": True, "share": True, "leave": True, "delete": False}
READER_PERMISSIONS = {"admin": False, "edit": False, "share": False, "leave": False, "delete": False}


# ---------------------------------------------------------------------- actors and statuses
def owner_of(ctx: RunContext) -> User:
    return ctx.settings.users[0]


def stranger_of(ctx: RunContext) -> User:
    """User 3, else user 2: no part in anything the run creates."""
    users = ctx.settings.users
    return users[2] if len(users) >= 3 else users[1]


def who(user: User) -> str:
    return f"user {user.id}"


def expect_invisible(ctx: RunContext, exchange: Exchange, what: str, user: User) -> None:
    """404 under --strict; outside it 403 or 404. Any success is a leak."""
    allowed = (404,) if ctx.settings.strict else (403, 404)
    expect(
        not 200 <= exchange.status < 300,
        f"{who(user)}, who has no access, can see {what} (HTTP {exchange.status})",
        exchange,
        AccessLeak,
    )
    expect(
        exchange.status in allowed,
        f"{what}, invisible to {who(user)}: expected {' or '.join(map(str, allowed))}, got {exchange.status}",
        exchange,
        WrongStatus,
    )


def expect_refused(ctx: RunContext, exchange: Exchange, what: str, user: User) -> None:
    """403 under --strict; outside it any 4xx. Any success means it was done."""
    expect(
        not 200 <= exchange.status < 300,
        f"{who(user)} was allowed to {what} (HTTP {exchange.status})",
        exchange,
        AccessLeak,
    )
    if ctx.settings.strict:
        expect(
            exchange.status == 403,
            f"{what} by {who(user)}: expected 403, got {exchange.status}",
            exchange,
            WrongStatus,
        )
    else:
        expect(
            400 <= exchange.status < 500,
            f"{what} by {who(user)}: expected a 4xx, got {exchange.status}",
            exchange,
            WrongStatus,
        )


def expect_readable(exchange: Exchange, what: str, user: User, thing_id: int) -> None:
    expect(
        exchange.status == 200,
        f"{what} should be readable by {who(user)}, got {exchange.status}",
        exchange,
        AccessDenied,
    )
    body = exchange.json()
    one = body[0] if isinstance(body, list) and body else body
    expect(
        isinstance(one, dict) and one.get("id") == thing_id,
        f"{what}: the answer is not {thing_id} (id {one.get('id') if isinstance(one, dict) else None!r})",
        exchange,
    )


def pages_of(
    target: Target, path: str, user: User, params: dict[str, Any]
) -> Iterator[tuple[Exchange, list[Any]]]:
    """Each page of a list as `user`, up to MAX_PAGES, while X-Total-Count says there is more."""
    seen = 0
    for page in range(1, MAX_PAGES + 1):
        exchange = target.request(
            "GET", path, user=user, params={**params, "page": page, "per_page": PER_PAGE}
        )
        entries = exchange.json()
        expect(
            exchange.status == 200 and isinstance(entries, list),
            f"GET {path} as {who(user)} should answer 200 and an array, got {exchange.status}",
            exchange,
        )
        yield exchange, entries
        seen += len(entries)
        total = exchange.header("X-Total-Count")
        if not entries or (total is not None and total.isdigit() and seen >= int(total)):
            return


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


def scene_of(ctx: RunContext) -> Scene:
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
    private = create_collection(ctx, f"private {word}", "private")
    item = create_item(ctx, private, f"item {word}", f"text of {word}", shareable=False)
    comment = create_thing(
        ctx, "comment", f"/v1/items/{item}/comments", {"body": f"comment on {word}"}, "/v1/comments/{id}"
    )
    shareable = create_item(ctx, private, f"shareable {word}", f"shared text of {word}", shareable=True)
    public = create_collection(ctx, "public", "public")
    public_item = create_item(ctx, public, "public item", "text of a public item")
    return Scene(word, private, item, comment, shareable, public, public_item)
