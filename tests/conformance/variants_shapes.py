"""Spec-allowed variants of answers' form: timestamps, URLs, extra fields and headers, content
type and encoding, values the spec leaves open, the shapes it does not show.

Registered into tests/conformance/faults.py's VARIANTS, which imports this module. Each
description ends with the spec's sentence that leaves the choice open.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable
from typing import Any

from tests.conformance.faults import (
    DELETIONS,
    Answer,
    Forward,
    Request,
    World,
    variant,
)

TIMESTAMPS = 'spec 2: "Timestamps are ISO 8601 UTC strings."'
_STAMP = re.compile(r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)Z")


def each_string(data: Any, change: Callable[[str], str]) -> Any:
    """The JSON value with every string in it (not the keys) changed."""
    if isinstance(data, str):
        return change(data)
    if isinstance(data, list):
        return [each_string(value, change) for value in data]
    if isinstance(data, dict):
        return {key: each_string(value, change) for key, value in data.items()}
    return data


def each_object(data: Any, change: Callable[[dict[str, Any]], Any]) -> None:
    """Apply `change` to every JSON object in the value, the innermost first."""
    if isinstance(data, list):
        for value in data:
            each_object(value, change)
    elif isinstance(data, dict):
        for value in data.values():
            each_object(value, change)
        change(data)


def rewriting(change: Callable[[str], str], errors: bool = False) -> Callable[..., Any]:
    """A handler that changes every string of the mock's JSON answers (2xx only, unless `errors`)."""

    async def handler(request: Request, forward: Forward, world: World) -> Answer:
        answer = await forward(request)
        data = answer.json()
        if data is not None and (errors or 200 <= answer.status < 300):
            answer.with_body(each_string(data, change))
        return answer

    return handler


variant("timestamps-offset", f"every timestamp ends in +00:00 instead of Z; {TIMESTAMPS}")(
    rewriting(lambda text: _STAMP.sub(r"\1+00:00", text))
)
variant(
    "timestamps-fraction",
    f"every timestamp has milliseconds (…T12:00:00.500Z); {TIMESTAMPS}",
    ("items.get_item", "comments.list_comments", "activity.list_activity"),
)(rewriting(lambda text: _STAMP.sub(r"\1.500Z", text)))


@variant(
    "urls-elsewhere",
    "every absolute URL the server makes (url, short_url, avatars, thumbnails) is on another host and "
    'scheme, https://cdn.example.net; spec 2: "The fields url, short_url, avatar, user_avatar and all '
    'thumbnails values are absolute URL strings." (no host is given)',
    ("items.get_item", "search.search", "activity.list_activity"),
)
async def urls_elsewhere(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    host = (request.header("host") or b"").decode()
    data = answer.json()
    if host and data is not None and 200 <= answer.status < 300:
        mine = re.compile(rf"^https?://{re.escape(host)}/")
        answer.with_body(each_string(data, lambda text: mine.sub("https://cdn.example.net/media/", text)))
    return answer


def _extra(entry: dict[str, Any]) -> None:
    # a URL everywhere (a thumbnails object's values are all URLs, spec 2), more on resources
    entry["x_server_extra"] = "https://cdn.example.net/extra"
    if "id" in entry:
        entry.update(lock_version=3, etag='W/"1"', _links={"self": {"href": "/v1/self"}})


@variant(
    "extra-fields",
    "every JSON object of every 2xx answer (resources, nested objects, message objects) carries extra "
    "fields; spec 2 lists the fields a resource has, and nowhere forbids others",
)
async def extra_fields(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()
    if data is not None and 200 <= answer.status < 300:
        each_object(data, _extra)
        answer.with_body(data)
    return answer


@variant(
    "extra-headers",
    "every answer carries headers the spec does not name (X-Request-Id, Cache-Control, rate limits, "
    "Link, Vary, ETag); the spec names the headers it needs (X-Total-Count) and forbids none",
    ("items.get_item", "items.list_items"),
)
async def extra_headers(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    count = world.note("extra-headers", [0])
    count[0] += 1
    for name, value in (
        ("x-request-id", f"req-{count[0]}"),
        ("cache-control", "no-store, max-age=0"),
        ("x-ratelimit-limit", "5000"),
        ("x-ratelimit-remaining", str(5000 - count[0] % 5000)),
        ("vary", "Accept, Accept-Encoding, Authorization"),
        ("etag", f'W/"{count[0]}"'),
        ("link", '<https://docs.example.net/v1>; rel="help"'),
        ("x-runtime", "0.004"),
    ):
        answer.set_header(name, value)
    return answer


@variant(
    "json-charset",
    'every JSON answer is Content-Type: application/json; charset=utf-8; spec 4: "Request and response '
    "payloads are JSON.\" (the media type's parameters are not given)",
    ("items.get_item", "users.get_current_user"),
)
async def json_charset(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if (answer.header("content-type") or "").startswith("application/json"):
        answer.set_header("content-type", "application/json; charset=utf-8")
    return answer


@variant(
    "gzip",
    "every answer to a client that accepts gzip (httpx and requests send Accept-Encoding: gzip) is "
    "gzip-compressed, Content-Encoding: gzip; the spec says nothing of compression (HTTP's own "
    "negotiation, RFC 9110 12.5.3)",
    ("Items",),
)
async def gzipped(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if b"gzip" in (request.header("accept-encoding") or b"") and answer.body:
        answer.body = gzip.compress(answer.body, mtime=0)
        answer.set_header("content-encoding", "gzip")
        answer.set_header("vary", "Accept-Encoding")
    return answer


_PLANS = {"free": "basic", "pro": "business", "team": "organization"}


def _other_values(entry: dict[str, Any]) -> None:
    for key in ("plan", "user_plan"):
        if entry.get(key) in _PLANS:
            entry[key] = _PLANS[entry[key]]
    if entry.get("status") == "active":
        entry["status"] = "confirmed"


@variant(
    "plan-status-values",
    "plans are basic / business / organization (not free / pro / team) and an account's status is "
    'confirmed (not active); spec 2.14: "Full set of values of plan and status for users and teams: '
    'not shown beyond the values noted above."',
    (
        "users.get_current_user",
        "users.list_contacts",
        "teams.list_teams",
        "teams.get_team",
        "teams.list_team_members",
        "teams.add_team_member",
        "teams.update_team_member",
        "collections.list_collaborators",
        "collections.get_collection",
        "collections.list_collections",
        "items.get_item",
        "items.list_items",
    ),
)
async def plan_status_values(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()
    if data is not None and 200 <= answer.status < 300:
        each_object(data, _other_values)
        answer.with_body(data)
    return answer


def _collaborator_kind(entry: dict[str, Any]) -> None:
    if entry.get("kind") == "user" and "is_subscribed" in entry:
        entry["kind"] = "collaborator"


@variant(
    "collaborator-kind-words",
    'a collaborator who is not the owner has kind collaborator (not user); spec 2.8: "kind (String; '
    'owner is a value seen)"',
    (
        "collections.list_collaborators",
        "collections.add_collaborator",
        "collections.get_collection",
        "collections.remove_collaborator",
    ),
)
async def collaborator_kind_words(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()
    if data is not None and 200 <= answer.status < 300:
        each_object(data, _collaborator_kind)
        answer.with_body(data)
    return answer


_ACTIVITY_TYPES = {"item": "item_created", "comment": "comment_created", "reaction": "like"}


@variant(
    "activity-type-words",
    "activity entries say like / comment_created / item_created for what the mock calls reaction / "
    'comment / item; spec 2.12: "type (a value seen is collection)"',
    ("activity.list_activity",),
)
async def activity_type_words(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/activity"):
        answer.edit(lambda entry: entry.update(type=_ACTIVITY_TYPES.get(entry["type"], entry["type"])))
    return answer


def _thumbnails(entry: dict[str, Any]) -> None:
    thumbs = entry.get("thumbnails")
    if "collection_id" in entry and isinstance(thumbs, dict) and "large" in thumbs:
        entry["thumbnails"] = {"original": thumbs["large"], "square": thumbs["mini"], "x2": thumbs["large"]}


@variant(
    "item-thumbnails-keys",
    "an item's thumbnails have the keys original, square and x2 (not mini ... large); spec 2.14: "
    '"Structure of the entries of metadata, of the embedded reactions and comments arrays of an item, '
    "and of the keys of an item's thumbnails object: not shown.\"",
    ("items.get_item", "items.list_items", "search.search"),
)
async def item_thumbnails_keys(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()
    if data is not None and 200 <= answer.status < 300 and not request.path.startswith("/v1/collections"):
        each_object(data, _thumbnails)
        answer.with_body(data)
    return answer


def _annotated(entry: dict[str, Any]) -> None:
    if "annotation" in entry:
        entry["annotation"] = {"x": 0.25, "y": 0.75, "shape": "point"}


@variant(
    "annotation-object",
    "a comment's annotation is an object, not null; spec 2.14: \"Types of fields that only appear as "
    'null in the shapes (annotation, preview, sort_by on a new collection and similar): not shown"',
    ("Comments",),
)
async def annotation_object(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()
    if data is not None and 200 <= answer.status < 300:
        each_object(data, _annotated)
        answer.with_body(data)
    return answer


@variant(
    "embedded-shapes",
    "an item's embedded comments and reactions are just their ids, and its metadata entries one-key "
    "objects ({key: value}); "
    'spec 2.14: "Structure of the entries of metadata, of the embedded reactions and comments arrays '
    'of an item ...: not shown"',
    ("items.get_item", "items.list_items", "comments.create_comment", "reactions.create_reaction"),
)
async def embedded_shapes(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()

    def reshape(entry: dict[str, Any]) -> None:
        if "collection_id" not in entry or "is_url" not in entry:
            return  # not an item (a search result also has collection_id, not reactions)
        for key in ("comments", "reactions"):
            if isinstance(entry.get(key), list):
                entry[key] = [e.get("id") if isinstance(e, dict) else e for e in entry[key]]
        meta = entry.get("metadata")
        if isinstance(meta, list) and all(isinstance(m, dict) and {"key", "value"} <= set(m) for m in meta):
            entry["metadata"] = [{m["key"]: m["value"]} for m in meta]

    if data is not None and 200 <= answer.status < 300 and request.path.startswith("/v1/items"):
        each_object(data, reshape)
        answer.with_body(data)
    return answer


@variant(
    "ping-other",
    'GET /v1/ping answers 200 {"status": "ok"}; spec 5: "Request and response of the /auth endpoint and '
    'the response of /ping: not shown"',
    ("auth.ping",),
)
async def ping_other(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if request.on("GET", "/v1/ping") and answer.status == 200:
        answer.with_body({"status": "ok"})
    return answer


@variant(
    "auth-other",
    'POST /v1/auth answers 200 (not 201) {"user": {...}, "token": ...}, and wrong credentials a 403 '
    'with a body of its own; spec 5: "Request and response of the /auth endpoint and the response of '
    '/ping: not shown"',
    ("auth.authenticate",),
)
async def auth_other(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    if not request.on("POST", "/v1/auth"):
        return answer
    data = answer.json()
    if answer.status == 201 and isinstance(data, dict):
        token = data.pop("token", None)
        return Answer.of(200, {"user": data, "token": token, "token_type": "basic"})
    if answer.status == 401 and request.header("x-api-key") == world.api_key.encode():
        return Answer.of(403, {"errors": ["invalid email or password"]})
    return answer


_WORDS = {
    "deleted": "Removed successfully.",
    "email_available": "Nobody uses it yet.",
    "username_available": "Free!",
}


@variant(
    "message-wording",
    "the message objects' human-readable texts differ (only the codes are fixed); spec 2.13: \"Fields: "
    "code (String), message (String, human-readable). Codes used: deleted, email_available, "
    'username_available."',
    DELETIONS,
)
async def message_wording(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    data = answer.json()
    if isinstance(data, dict) and set(data) >= {"code", "message"} and data["code"] in _WORDS:
        data["message"] = _WORDS[data["code"]]
        answer.with_body(data)
    return answer


_NOTE_A = (
    r"/v1/collections/\d+/items",  # update items order, update items, delete items
    r"/v1/items",  # update multiple items
)


@variant(
    "note-a-bodies",
    "update items order, update items, delete items and update multiple items answer 200 with an empty "
    'body; spec 4.11: "Note A: the response body of update items order, update items, delete items '
    'and update multiple items is not shown (only status 200)."',
    (
        "collections.update_items",
        "collections.delete_items",
        "items.update_multiple_items",
    ),
)
async def note_a_bodies(request: Request, forward: Forward, world: World) -> Answer:
    answer = await forward(request)
    write = request.method in ("PUT", "DELETE") and any(re.fullmatch(p, request.path) for p in _NOTE_A)
    if write and answer.status == 200:
        answer.body = b""
        answer.set_header("content-type", None)
    return answer


def _counted(answer: Answer) -> Answer:
    data = answer.json()
    if isinstance(data, list) and 200 <= answer.status < 300 and answer.header("x-total-count") is None:
        answer.set_header("x-total-count", str(len(data)))
    return answer


@variant(
    "total-count-everywhere",
    "every list answer carries X-Total-Count (tags, comments, reactions, teams, members, collaborators, "
    'contacts, emails); spec 4: "The response header X-Total-Count carries the total number of entries '
    'on list collections, list items, search and list activity." (and is not forbidden elsewhere)',
    ("Tags", "Comments", "Teams"),
)
async def total_count_everywhere(request: Request, forward: Forward, world: World) -> Answer:
    return _counted(await forward(request))
