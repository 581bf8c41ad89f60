"""Spec-allowed variants of lists and views: page sizes and limits, the order of arrays the spec
does not order, views derived from writes that lag, slow answers, prevent_duplicate.

Registered into tests/conformance/faults.py's VARIANTS, which imports this module. Each
description ends with the spec's sentence that leaves the choice open.
"""

from __future__ import annotations

import asyncio
import math
import random
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tests.conformance.faults import PAGED, UNPAGED_LISTS, Answer, Forward, Request, World, variant

SPEC_8_PAGES = (
    'spec 8: "Rate limits, maximum and default page sizes, upload and content size limits, and item or '
    'collection count limits: not shown."'
)
_PAGED = re.compile(r"/v1/(collections|items|search|activity)")  # page and per_page
_EMBEDDED = re.compile(r"/v1/(collections|items)/\d+")  # items_page and items_per_page of include=items


def _sizes(request: Request) -> list[str]:
    """The page-size parameters the request may carry."""
    if request.method != "GET":
        return []
    if _PAGED.fullmatch(request.path):
        return ["per_page", "count"]
    if _EMBEDDED.fullmatch(request.path):
        return ["items_per_page"]
    return []


def default_page(size: int) -> Callable[..., Any]:
    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        names = _sizes(request)
        if names and not any(request.param(name) for name in names):
            request = request.with_param(names[0], str(size))
        return await forward(request)

    return handler


variant(
    "default-per-page-10", f"a list without per_page has 10 entries a page (not 24); {SPEC_8_PAGES}", PAGED
)(default_page(10))
variant(
    "default-per-page-50", f"a list without per_page has 50 entries a page (not 24); {SPEC_8_PAGES}", PAGED
)(default_page(50))

MAXIMUM = 50


def _above(request: Request) -> list[str]:
    """The page sizes of the request above MAXIMUM."""
    out = []
    for name in _sizes(request):
        value = request.param(name) or ""
        if value.isdigit() and int(value) > MAXIMUM:
            out.append(name)
    return out


@variant(
    "max-per-page-clamped",
    f"per_page (and items_per_page, count) above {MAXIMUM} is taken as {MAXIMUM} (not 100); {SPEC_8_PAGES}",
    PAGED,
)
async def max_per_page_clamped(request: Request, forward: Forward, world: World) -> Answer:
    for name in _above(request):
        request = request.with_param(name, str(MAXIMUM))
    return await forward(request)


@variant(
    "max-per-page-refused",
    f"per_page (and items_per_page, count) above {MAXIMUM} is refused with a 400 (not clamped); "
    f"{SPEC_8_PAGES}",
)
async def max_per_page_refused(request: Request, forward: Forward, world: World) -> Answer:
    if _above(request):
        message = f"per_page must be between 1 and {MAXIMUM}"
        return Answer.of(400, {"code": "invalid_input", "message": message})
    return await forward(request)


# ---------------------------------------------------------------------- arrays the spec does not order
_UNORDERED_LISTS = re.compile(
    r"/v1/(items/\d+/(tags|comments|reactions)|emails|teams|teams/\d+/users(/\d+)?|users/contacts"
    r"|collections/\d+/users|tags|collections/\d+/tags)"
)
_UNORDERED_FIELDS = {
    # field -> a key only the objects holding such a field have (an item, the current user, a team's
    # detail, a collection with include=users)
    "tags": "is_url",
    "comments": "is_url",
    "reactions": "is_url",
    "metadata": "is_url",
    "emails": "username",
    "teams": "username",
    "users": "feed_key",
}


def reordering(order: Callable[[list[Any], World], None]) -> Callable[..., Any]:
    """A handler that reorders (in place, by `order`) every array of the answers the spec does not order."""

    def inner(data: Any, world: World) -> None:
        if isinstance(data, list):
            for value in data:
                inner(value, world)
        elif isinstance(data, dict):
            for key, value in data.items():
                inner(value, world)
                marker = _UNORDERED_FIELDS.get(key)
                if isinstance(value, list) and (marker in data or (key == "users" and "sort_by" in data)):
                    order(value, world)

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        answer = await forward(request)
        data = answer.json()
        if data is None or not 200 <= answer.status < 300:
            return answer
        inner(data, world)
        if isinstance(data, list) and _UNORDERED_LISTS.fullmatch(request.path):
            order(data, world)
        return answer.with_body(data)

    return handler


UNORDERED = (
    "spec 4 gives no order for the lists of tags (all, a collection's, an item's), comments, reactions, "
    "emails, teams, team members, collaborators (the owner included) and contacts, nor for the tags, "
    "comments, reactions and metadata of an item, the emails and teams of the current user, or a "
    "collection's include=users"
)
variant(
    "unordered-reversed",
    f"those arrays come reversed; {UNORDERED}",
    ("Tags", "Teams", "users.get_current_user"),
)(reordering(lambda values, world: values.reverse()))
variant(
    "unordered-shuffled",
    f"those arrays come in a new random order on every answer; {UNORDERED}",
    UNPAGED_LISTS,
)(reordering(lambda values, world: world.note("rng", random.Random(7)).shuffle(values)))


# ---------------------------------------------------------------------- views derived from writes
LAG = 1.0  # seconds
_VIEWS = re.compile(r"/v1/(search|activity|collections/count|tags|collections/\d+/tags)")
_MADE = {  # what a 201 to this path made, as search and activity name its kind
    r"/v1/collections": "collection",
    r"/v1/collections/\d+/items": "item",
    r"/v1/items/copy": "item",
    r"/v1/items/\d+/comments": "comment",
    r"/v1/items/\d+/reactions": "reaction",
}


def _kind(entry: dict[str, Any]) -> str:
    kind = entry.get("type")
    return kind if kind in ("collection", "comment", "reaction") else "item"


@variant(
    "lagging-views",
    f"search, activity, Get collections count and the tag lists lag {LAG} s behind writes (an index fed "
    "by a queue): until then a repeated read answers what it answered before the write, and a new "
    "search or activity page leaves out what was made since; the spec states what these views show, "
    "and nowhere that a write shows in them at once (docs/design.md: a check polls within --settle)",
    ("search.search", "activity.list_activity", "tags.list_tags", "collections.get_collections_count"),
)
async def lagging_views(request: Request, forward: Forward, world: World) -> Answer:
    notes = world.note("lag", {"write": -LAG, "made": {}, "seen": {}})
    if request.method != "GET":
        answer = await forward(request)
        if 200 <= answer.status < 300 and request.path != "/v1/auth":
            notes["write"] = time.monotonic()
            kind = next((k for p, k in _MADE.items() if re.fullmatch(p, request.path)), None)
            if kind and request.method in ("POST", "PUT"):
                for entry in answer.entries():
                    notes["made"][(kind, entry.get("id"))] = notes["write"]
        return answer
    if not _VIEWS.fullmatch(request.path):
        return await forward(request)
    now = time.monotonic()
    key = (request.path, request.query_string, request.header("authorization"), request.header("x-api-key"))
    kept = notes["seen"].get(key)
    if kept is not None and kept[0] < notes["write"] and now - notes["write"] < LAG:
        return replace(kept[1], headers=list(kept[1].headers))
    answer = await forward(request)
    data = answer.json()
    if request.path in ("/v1/search", "/v1/activity") and isinstance(data, list) and answer.status == 200:
        recent = {thing for thing, at in notes["made"].items() if now - at < LAG}
        shown = [e for e in data if not (isinstance(e, dict) and (_kind(e), e.get("id")) in recent)]
        if len(shown) < len(data):
            answer.with_body(shown)
            answer.move_total(len(shown) - len(data))
    if answer.status == 200:
        notes["seen"][key] = (now, replace(answer, headers=list(answer.headers)))
    return answer


# ---------------------------------------------------------------------- slow answers
@variant(
    "latency",
    "every answer takes 50-300 ms (well within --timeout); the spec sets no time for an answer",
    ("auth.ping",),
)
async def latency(request: Request, forward: Forward, world: World) -> Answer:
    await asyncio.sleep(world.note("latency", random.Random(11)).uniform(0.05, 0.3))
    return await forward(request)


# ---------------------------------------------------------------------- prevent_duplicate
PREVENT = (
    'spec 4.11: "The effect of prevent_duplicate when an identical link item exists (rejection, return '
    'of the existing item, or other) is not shown."'
)


@variant(
    "prevent-duplicate-creates",
    "prevent_duplicate changes nothing: a new item is made (201) even when an identical link item "
    f"exists; {PREVENT}",
    ("items.create_item",),
)
async def prevent_duplicate_creates(request: Request, forward: Forward, world: World) -> Answer:
    body = request.json_object()
    if request.on("POST", r"/v1/collections/\d+/items") and "prevent_duplicate" in body:
        request = request.with_json({k: v for k, v in body.items() if k != "prevent_duplicate"})
    return await forward(request)


@variant(
    "prevent-duplicate-409",
    f"prevent_duplicate refuses a duplicate link item with a 409 (not the existing item); {PREVENT}",
    ("items.create_item",),
)
async def prevent_duplicate_409(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("POST", r"/v1/collections/\d+/items") and answer.status == 200:
        return Answer.of(409, {"code": "duplicate", "message": "An identical link item exists."})
    return answer


# ---------------------------------------------------------------------- rate limits
RATE = 60  # requests a window
WINDOW = 1.0  # seconds


@variant(
    "rate-limited",
    f"at most {RATE} requests each {WINDOW} s: the next is a 429 with Retry-After (the seconds the "
    'window has left), and is not done; spec 8: "Rate limits, maximum and default page sizes, ... : '
    'not shown."',
    ("Tags",),
)
async def rate_limited(request: Request, forward: Forward, world: World) -> Answer:
    window = world.note("window", {"start": 0.0, "count": 0})
    now = time.monotonic()
    if now - window["start"] >= WINDOW:
        window.update(start=now, count=0)
    window["count"] += 1
    if window["count"] > RATE:
        answer = Answer.of(429, {"code": "rate_limited", "message": "Slow down."})
        answer.set_header("retry-after", str(math.ceil(WINDOW - (now - window["start"]))))
        return answer
    return await forward(request)


@variant(
    "lenient-paging",
    "a page below 1 is the first page and a page size below 1 the default, as Rails' paginators take "
    'them (not a 400); spec 8: "Lists are paged with page and per_page" (their bounds are not given), '
    f"and {SPEC_8_PAGES}",
    PAGED,
)
async def lenient_paging(request: Request, forward: Forward, world: World) -> Answer:
    if request.method == "GET":
        for name in ("page", "items_page", "per_page", "items_per_page"):
            value = request.param(name)
            if value is not None and re.fullmatch(r"-?\d+", value) and int(value) < 1:
                request = request.with_param(name, "1") if "per_page" not in name else request.without(name)
    return await forward(request)
