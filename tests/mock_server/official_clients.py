"""The official clients' requests, byte for byte, and what their models need back.

Read from the clients' sources (docs/client-conflicts.md names the versions):

- the Ruby gem `dropmark/dropmark-gem`: Her 0.7 models over Faraday 0.9 with the middleware
  `Multipart` then `UrlEncoded`. Her puts a GET's parameters in the query and every other
  method's in a form body (DELETE too), and `save` sends back every attribute the record
  holds, read-only ones included. Faraday's NestedParamsEncoder sorts the keys and writes
  `a%5B%5D=1` for arrays, `a%5Bb%5D=c` for hashes, `true`/`false`, `+` for a space. A nil is
  `key=` in Faraday 0.9.0 (the gem's Gemfile.lock) and a bare `key` in later 0.x releases; an
  empty array is nothing in 0.9.0 and a bare `key%5B%5D` in the later ones (0.17 here).
- the Swift SDK `dropmark/Swift-SDK` (DKRouter, DKPromise, Alamofire 4.9 `URLEncoding`):
  GET and DELETE parameters in the query, POST and PUT ones in a form body
  (`application/x-www-form-urlencoded; charset=utf-8`), keys sorted, `a%5B%5D=1` for arrays,
  booleans as `1`/`0`, `:` escaped but `/` and `?` not, `%20` for a space. Its defaults
  (`per_page`, `include[]`, `items_per_page`, `items_not_type`) go to the query, also of a
  POST or PUT. Its models decode with JSONDecoder: a missing required key, a wrong type, a
  date not `yyyy-MM-dd'T'HH:mm:ss'Z'` or an empty URL string fails the whole answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, quote_plus

from tests.mock_server.conftest import API_KEY, basic

FORM = "application/x-www-form-urlencoded"


@dataclass(frozen=True)
class Request:
    """One HTTP request as a client library puts it on the wire (path under /v1, raw query)."""

    method: str
    path: str
    query: str = ""
    body: bytes | None = None
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def url(self) -> str:
        return f"/v1{self.path}" + (f"?{self.query}" if self.query else "")

    def send(self, client: Any, credentials: tuple[int, str] | None) -> Any:
        headers = {"X-API-Key": API_KEY, **self.headers}
        if credentials is not None:  # both clients: Base64 of "id:token", no line breaks
            headers["Authorization"] = basic(*credentials)
        return client.request(self.method, self.url, content=self.body, headers=headers)


# ---------------------------------------------------------------------- the Ruby gem
FARADAY_090 = "faraday-0.9.0"  # the gem's Gemfile.lock: nil -> `key=`, [] -> nothing
FARADAY_017 = "faraday-0.17"  # the last 0.x, what Her's `faraday < 1.0` resolves to today
FARADAYS = (FARADAY_090, FARADAY_017)


def _faraday_escape(value: Any) -> str:
    """Faraday::Utils.escape of `value.to_s`: all but [A-Za-z0-9 .~_-] escaped, space as +."""
    if value is True or value is False:
        text = "true" if value else "false"
    else:
        text = str(value)
    return quote_plus(text, safe="~")


def faraday_encode(params: Mapping[str, Any], faraday: str = FARADAY_090) -> str:
    """Faraday::NestedParamsEncoder.encode: keys sorted (also nested ones), brackets escaped."""

    def pair(parent: str, value: Any) -> str:
        if isinstance(value, Mapping):
            parts = sorted((_faraday_escape(k), v) for k, v in value.items())
            return "&".join(pair(f"{parent}%5B{k}%5D", v) for k, v in parts)
        if isinstance(value, list):
            if not value:
                return f"{parent}%5B%5D" if faraday == FARADAY_017 else ""
            return "&".join(pair(f"{parent}%5B%5D", v) for v in value)
        if value is None:
            return parent if faraday == FARADAY_017 else f"{parent}="
        return f"{parent}={_faraday_escape(value)}"

    # an empty array in 0.9.0 leaves its `&` behind ("a=1&&b=2"), as Faraday does
    return "&".join(pair(_faraday_escape(k), v) for k, v in sorted(params.items(), key=lambda kv: kv[0]))


def ruby_time(stamp: str) -> str:
    """Time.parse(stamp).to_s, which the gem's models do to created_at and friends."""
    return datetime.strptime(stamp, "%Y-%m-%dT%H:%M:%SZ").strftime("%Y-%m-%d %H:%M:%S UTC")


@dataclass(frozen=True)
class UploadIO:
    """Dropmark::File (a Faraday::UploadIO): a file part of a multipart body."""

    filename: str
    media_type: str
    data: bytes


MULTIPART_BOUNDARY = "-----------RubyMultipartPost"  # Faraday::Request::Multipart's default


def faraday_multipart(params: Mapping[str, Any]) -> tuple[bytes, str]:
    """Faraday::Request::Multipart (multipart-post 2.0 parts): the body and its Content-Type.
    Parts come in the hash's order, nested keys as `a[b]` and `a[]`."""
    chunks: list[bytes] = []

    def add(key: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for sub, v in value.items():
                add(f"{key}[{sub}]", v)
        elif isinstance(value, list):
            for v in value:
                add(f"{key}[]", v)
        elif isinstance(value, UploadIO):
            head = (
                f"--{MULTIPART_BOUNDARY}\r\n"
                f'Content-Disposition: form-data; name="{key}"; filename="{value.filename}"\r\n'
                f"Content-Length: {len(value.data)}\r\n"
                f"Content-Type: {value.media_type}\r\n"
                "Content-Transfer-Encoding: binary\r\n\r\n"
            )
            chunks.append(head.encode() + value.data + b"\r\n")
        else:
            text = (
                ""
                if value is None
                else ("true" if value is True else "false" if value is False else str(value))
            )
            head = f'--{MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n'
            chunks.append(f"{head}{text}\r\n".encode())

    for key, value in params.items():
        add(key, value)
    chunks.append(f"--{MULTIPART_BOUNDARY}--\r\n\r\n".encode())
    return b"".join(chunks), f"multipart/form-data; boundary={MULTIPART_BOUNDARY}"


class Gem:
    """Her::API#request over the gem's Faraday stack: a GET's parameters in the query, any other
    method's in a form body (Faraday::Request::UrlEncoded, also an empty one for a DELETE)."""

    HEADERS = {"User-Agent": "Faraday v0.9.0", "Accept": "*/*"}  # Faraday's, then Net::HTTP's

    def __init__(self, faraday: str = FARADAY_090):
        self.faraday = faraday

    def request(self, method: str, path: str, params: Mapping[str, Any] | None = None) -> Request:
        params = params or {}
        if method == "GET":
            return Request(method, path, faraday_encode(params, self.faraday), None, self.HEADERS)
        body = faraday_encode(params, self.faraday).encode()
        return Request(method, path, "", body, {**self.HEADERS, "Content-Type": FORM})

    def get(self, path: str, params: Mapping[str, Any] | None = None) -> Request:
        return self.request("GET", path, params)

    def post(self, path: str, params: Mapping[str, Any] | None = None) -> Request:
        return self.request("POST", path, params)

    def put(self, path: str, params: Mapping[str, Any] | None = None) -> Request:
        return self.request("PUT", path, params)

    def delete(self, path: str, params: Mapping[str, Any] | None = None) -> Request:
        return self.request("DELETE", path, params)

    def multipart(self, method: str, path: str, params: Mapping[str, Any]) -> Request:
        body, content_type = faraday_multipart(params)
        return Request(method, path, "", body, {**self.HEADERS, "Content-Type": content_type})


gem = Gem()


def her_attributes(record: Mapping[str, Any], times: tuple[str, ...] = ("created_at", "updated_at")) -> dict:
    """A record's attributes as a Her model holds them after a read: Her's JSON parser moves
    `errors` and `metadata` out of the object (of the records here only items have a `metadata`,
    and the Item model puts it back), and the models' callbacks turn `times` into Ruby Time
    objects, which Faraday sends back as Time#to_s."""
    attributes = {k: v for k, v in record.items() if k != "errors"}
    for name in times:
        if isinstance(attributes.get(name), str):
            attributes[name] = ruby_time(attributes[name])
    return attributes


# ---------------------------------------------------------------------- the Swift SDK
def _alamofire_escape(text: str) -> str:
    """URLEncoding.escape: urlQueryAllowed minus `:#[]@!$&'()*+,;=`, so `/` and `?` stay."""
    return quote(text, safe="/?")


def alamofire_encode(params: Mapping[str, Any]) -> str:
    """URLEncoding.query (Alamofire 4.9 defaults: ArrayEncoding.brackets, BoolEncoding.numeric)."""
    components: list[tuple[str, str]] = []

    def add(key: str, value: Any) -> None:
        if isinstance(value, Mapping):
            for sub, v in sorted(value.items()):  # a Swift dictionary's order is arbitrary
                add(f"{key}[{sub}]", v)
        elif isinstance(value, list):
            for v in value:
                add(f"{key}[]", v)
        elif isinstance(value, bool):
            components.append((_alamofire_escape(key), "1" if value else "0"))
        else:
            components.append((_alamofire_escape(key), _alamofire_escape(str(value))))

    for key in sorted(params):
        add(key, params[key])
    return "&".join(f"{k}={v}" for k, v in components)


class Swift:
    """DKRouter.asURLRequest: `URLEncoding.queryString` for the SDK's default query parameters,
    then `URLEncoding.default` (method dependent) for the call's own parameters."""

    HEADERS = {"Accept": "*/*", "User-Agent": "DropmarkDemo/1 CFNetwork/1410.0.3 Darwin/22.6.0"}
    CONTENT_TYPE = f"{FORM}; charset=utf-8"

    def request(
        self,
        method: str,
        path: str,
        params: Mapping[str, Any] | None = None,
        *,
        query: Mapping[str, Any] | None = None,
    ) -> Request:
        parts = [alamofire_encode(query)] if query else []
        body = None
        headers = dict(self.HEADERS)
        if params is not None:
            if method in ("GET", "HEAD", "DELETE"):
                if params:
                    parts.append(alamofire_encode(params))
            else:  # even an empty dictionary sets the Content-Type and an empty body
                body = alamofire_encode(params).encode()
                headers["Content-Type"] = self.CONTENT_TYPE
        return Request(method, path, "&".join(parts), body, headers)


swift = Swift()

# DKPromise's defaults (includeDefaultParameters / includeDefaultQueryParameters: true)
SWIFT_PAGE = {"per_page": 24}  # DKRouter.pageSize
SWIFT_COLLECTION = {"include": ["users", "items"], "items_per_page": 4, "items_not_type": "stack"}
SWIFT_ITEM = {"include": ["items"], "items_per_page": 4}
SWIFT_USER = {"include": ["teams"]}
SWIFT_ALL = {"per_page": 1000}  # comments, tags, contacts


# ---------------------------------------------------------------------- what the models need
class Kind:
    """A JSON value as a Swift Decodable reads it (JSONDecoder)."""

    def __init__(self, name: str, check: Callable[[Any], bool]):
        self.name = name
        self.check = check

    def __repr__(self) -> str:
        return self.name


SWIFT_DATE_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")  # Formatter.dropmark


def _url(value: Any) -> bool:
    # URL(string:) refuses "" and strings with spaces; the SDK's URL fields are absolute
    return isinstance(value, str) and value != "" and " " not in value


INT = Kind("Int", lambda v: isinstance(v, int) and not isinstance(v, bool))
NUMBER = Kind("Double", lambda v: isinstance(v, int | float) and not isinstance(v, bool))
STRING = Kind("String", lambda v: isinstance(v, str))
BOOL = Kind("Bool", lambda v: isinstance(v, bool))
DATE = Kind("Date", lambda v: isinstance(v, str) and SWIFT_DATE_RE.fullmatch(v) is not None)
URL = Kind("URL", _url)
ANY = Kind("Any", lambda v: True)  # decoded with try?: never fails the answer


@dataclass(frozen=True)
class Model:
    """A Decodable's `init(from:)`: `required` keys use `decode`, `optional` ones `decodeIfPresent`
    (absent or null is fine); a nested model or a list of one is checked inside."""

    name: str
    required: Mapping[str, Any]
    optional: Mapping[str, Any] = field(default_factory=dict)

    def problems(self, value: Any, where: str = "") -> list[str]:
        where = where or self.name
        if not isinstance(value, dict):
            return [f"{where}: a JSON object is needed, got {type(value).__name__}"]
        found = []
        for key, kind in self.required.items():
            if value.get(key) is None:
                found.append(f"{where}.{key}: required, missing or null")
            else:
                found += _problems(kind, value[key], f"{where}.{key}")
        for key, kind in self.optional.items():
            if value.get(key) is not None:
                found += _problems(kind, value[key], f"{where}.{key}")
        return found


@dataclass(frozen=True)
class ListOf:
    model: Model


def _problems(kind: Any, value: Any, where: str) -> list[str]:
    if isinstance(kind, Model):
        return kind.problems(value, where)
    if isinstance(kind, ListOf):
        if not isinstance(value, list):
            return [f"{where}: a JSON array is needed"]
        return [p for i, v in enumerate(value) for p in kind.model.problems(v, f"{where}[{i}]")]
    return [] if kind.check(value) else [f"{where}: {value!r} does not decode as {kind}"]


def swift_problems(kind: Model | ListOf, body: Any) -> list[str]:
    return _problems(kind, body, kind.model.name if isinstance(kind, ListOf) else kind.name)


# The SDK's Codable extensions (Source/Core Data/*/...+Codable.swift)
DK_THUMBNAILS = Model(
    "DKThumbnails",
    {},
    dict.fromkeys(
        ("mini", "small", "cropped", "uncropped", "large", "cropped_animated", "uncropped_animated"), URL
    ),
)
DK_COMMENT = Model(
    "DKComment",
    {"created_at": DATE, "id": INT},
    {
        "annotation": URL, "body": STRING, "collection_id": INT, "collection_name": STRING,
        "collection_url": URL, "item_id": INT, "item_name": STRING, "short_url": URL,
        "updated_at": DATE, "url": URL,
    },
)  # fmt: skip
DK_REACTION = Model(
    "DKReaction",
    {"created_at": DATE, "id": INT, "item_id": INT},
    {"collection_id": INT, "collection_name": STRING, "item_name": STRING, "updated_at": DATE},
)
DK_COLLECTION = Model(
    "DKCollection",
    {"created_at": DATE, "id": INT, "name": STRING, "short_url": URL, "url": URL},
    {
        "custom_domain": URL, "description": STRING, "archived": BOOL, "highlighted": BOOL,
        "items_total_count": INT, "type": STRING, "last_accessed_at": DATE, "labels": BOOL,
        "sort": INT, "sort_by": STRING, "sort_order": STRING, "thumbnail": URL, "updated_at": DATE,
        "users_total_count": INT, "view_mode": STRING,
    },
)  # fmt: skip
DK_ITEM = Model(
    "DKItem",
    {"collection_id": INT, "id": INT},
    {
        "collection_name": STRING, "content": STRING, "created_at": DATE, "deleted_at": DATE,
        "description": STRING, "shareable": BOOL, "is_url": BOOL, "items_total_count": INT,
        "latitude": NUMBER, "link": URL, "longitude": NUMBER, "metadata": ANY, "mime": STRING,
        "name": STRING, "parent_id": INT, "parent_name": STRING, "reactions_total_count": INT,
        "short_url": URL, "size": INT, "thumbnail": URL, "type": STRING, "updated_at": DATE,
        "url": URL, "thumbnails": DK_THUMBNAILS, "comments": ListOf(DK_COMMENT),
        "reactions": ListOf(DK_REACTION),
    },
)  # fmt: skip
_ACCOUNT = {
    "avatar": ANY, "user_avatar": ANY, "billing_email": STRING, "created_at": DATE,
    "custom_domain": URL, "email": STRING, "plan_active": BOOL, "plan_quantity": INT,
    "plan": STRING, "labels": BOOL, "sort_by": STRING, "sort_order": STRING, "status": STRING,
    "usage": ANY, "username": STRING, "view_mode": STRING,
}  # fmt: skip
DK_USER = Model("DKUser", {"id": INT, "name": STRING}, _ACCOUNT)
DK_TEAM = Model("DKTeam", {"id": INT, "name": STRING}, _ACCOUNT)
DK_TAG = Model("DKTag", {"name": STRING}, {"items_total_count": INT})


# ---------------------------------------------------------------------- checks of an answer
Answer = Callable[[Any, Any], None]  # asserts on (response, ids)


def her_object(**expected: Any) -> Answer:
    """Her's find/create/save: a JSON object (new_from_parsed_data) with the id its paths and
    `new?` use, and the attributes the caller reads (a type stands for any value of it)."""

    def check(response: Any, ids: Any) -> None:
        body = response.json()
        assert isinstance(body, dict), f"Her needs a JSON object here: {body!r:.200}"
        assert isinstance(body.get("id"), int), body
        for key, value in expected.items():
            if isinstance(value, type):
                assert isinstance(body.get(key), value), (key, body.get(key))
            else:
                assert body.get(key) == value, (key, body.get(key))

    return check


def her_list(response: Any, ids: Any) -> None:
    """Her's all/where/has_many: a JSON array (new_collection) of records with ids."""
    body = response.json()
    assert isinstance(body, list) and body, f"Her needs a non-empty JSON array here: {body!r:.200}"
    assert all(isinstance(entry, dict) and isinstance(entry.get("id"), int) for entry in body), body


def her_names(response: Any, ids: Any) -> None:
    """Tag.get: a JSON array of records (tag counts have a name and no id)."""
    body = response.json()
    assert isinstance(body, list) and body and all(isinstance(e.get("name"), str) for e in body), body


def counts(response: Any, ids: Any) -> None:
    """Collection.count (custom_get): a JSON object of integer counts."""
    body = response.json()
    assert all(isinstance(body.get(k), int) for k in ("active", "archived", "highlighted", "owned", "total"))


def message(code: str) -> Answer:
    """A deletion or an availability check: both clients parse the body (Her needs a JSON object)."""

    def check(response: Any, ids: Any) -> None:
        body = response.json()
        assert body.get("code") == code and isinstance(body.get("message"), str), body

    return check


def refused(code: str, allow: str | None = None) -> Answer:
    """The `{code, message}` error; for a 405, the spec's method among those in Allow."""

    def check(response: Any, ids: Any) -> None:
        body = response.json()
        assert body["code"] == code and isinstance(body["message"], str), body
        if allow is not None:
            allowed = [method.strip() for method in response.headers["Allow"].split(",")]
            assert allow in allowed, allowed

    return check


def decodes(kind: Model | ListOf) -> Answer:
    """DKPromise.genericPromise: JSONDecoder decodes the whole answer as this type, or fails."""

    def check(response: Any, ids: Any) -> None:
        body = response.json()
        assert swift_problems(kind, body) == []
        if isinstance(kind, ListOf):
            assert body, "an empty list proves nothing about its entries"

    return check


def validated(response: Any, ids: Any) -> None:
    """`request(...).validate().promise()`: the SDK reads nothing but the 2xx (checked already)."""


def typed_entries(response: Any, ids: Any) -> None:
    """DKResponseListAny (search): an array whose entries' `type` picks their model."""
    body = response.json()
    assert isinstance(body, list) and body and all(isinstance(e.get("type"), str) for e in body), body


def array_of_one(model: Model | None = None) -> Answer:
    """Get a collection / Get an item (spec 4.1, 4.2): an array of one, where both clients decode
    one object; its entry is what they want (and decodes, for the SDK)."""

    def check(response: Any, ids: Any) -> None:
        body = response.json()
        assert isinstance(body, list) and len(body) == 1, body
        if model is not None:
            assert swift_problems(model, body[0]) == []

    return check


# The SDK decodes `link` as a URL, which the spec's empty link of an item without a source fails
# (a conflict, docs/client-conflicts.md): lists holding such items are checked without it.
DK_ITEM_LISTED = Model("DKItem", DK_ITEM.required, {k: v for k, v in DK_ITEM.optional.items() if k != "link"})
DK_USER_WITH_TOKEN = Model("DKUser", {**DK_USER.required, "token": STRING}, DK_USER.optional)  # from /auth
