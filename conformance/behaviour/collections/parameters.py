"""Behaviour checks of the collections operations (operationIds collections.*): parameters: query
parameters, paging and filters, and their effect on the answer."""

from __future__ import annotations

import math
import time
from datetime import datetime
from typing import Any
from urllib.parse import urlsplit

from ...failures import NotGone, NotHonoured, NotStored
from ...http import LAYER, P_COLL_ONE, P_PAGES, Session, ids_of, session, unique, unpaid
from ...registry import RunContext, check
from ..common import aged, honoured, pages_as_per_page, shared_by
from .common import collection_ids


@check(
    LAYER,
    "collections.list_collections",
    "archived collections are listed under status=archived",
    statements=(
        "2.1/collection.archived",
        "3/status-filter",
        "3/archive",
        "3/unarchive",
        "4.1/list-collections.status",
        "4.1/collection-body.archived",
    ),
)
def archived_are_listed(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        exchange = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"archived": True})
        if exchange.status == 402:
            raise unpaid("archived")
        s.expect(
            s.collection(cid).get("archived") is True,
            "a GET after archiving shows archived false",
            kind=NotStored,
        )
        s.expect(
            cid in collection_ids(s, {"status": "archived"}),
            f"the archived collection {cid} is not listed under status=archived",
            kind=NotHonoured,
        )
        if ctx.settings.strict:  # docs/design.md: archived ones appear only under status=archived
            s.expect(
                cid not in collection_ids(s),
                f"the archived collection {cid} is in the default list",
                kind=NotHonoured,
            )
        s.call("PUT", f"/v1/collections/{cid}", json_body={"archived": False})
        s.expect(
            cid not in collection_ids(s, {"status": "archived"}),
            f"collection {cid} is still listed under status=archived after archived=false",
            kind=NotGone,
        )


@check(
    LAYER,
    "collections.list_collections",
    "pages partition the list (X-Total-Count, per_page)",
    statements=(
        "2/lists",
        "4/x-total-count",
        "4.1/list-collections",
        "4.1/list-collections.page",
        "4.1/list-collections.per_page",
        "8/paging",
    ),
)
def collections_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        for _ in range(3):
            s.new_collection()
        full = s.listing("/v1/collections", {}, P_PAGES)
        per_page = max(2, math.ceil(len(full) / 6))
        s.partition("/v1/collections", {}, per_page, full)


@check(
    LAYER,
    "collections.list_collections",
    "owned and q filter the list",
    statements=("4.1/list-collections.owned", "4.1/list-collections.q"),
)
def collections_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        cid = s.new_collection(name=f"{ctx.target.name('find')} {token}")["id"]
        s.new_collection()
        owned = s.listing("/v1/collections", {"owned": "true"})
        others = [c.get("id") for c in owned if c.get("user_id") != s.me.id]
        s.expect(
            cid in ids_of(owned),
            f"owned=true does not list the caller's new collection {cid}",
            kind=NotHonoured,
        )
        s.expect(not others, f"owned=true lists {others}, owned by someone else", kind=NotHonoured)
        found = s.listing("/v1/collections", {"q": token})
        s.expect(
            ids_of(found) == [cid],
            f"q={token} lists {ids_of(found)}; only collection {cid} has that word",
            kind=NotHonoured,
        )


_LC, _GC = "collections.list_collections", "collections.get_collection"


ACCESS_TICK = 1.1  # timestamps have whole seconds (docs/design.md): a later access needs a later second


def named(s: Session, token: str, label: str = "") -> dict[str, Any]:
    """A new collection whose name holds `token` (a word no other name has) and then `label`: names
    differ by their label only."""
    return s.new_collection(name=f"{s.target.name('c')} {token} {label}".rstrip())


def listed_ids(s: Session, params: dict[str, Any]) -> list[Any]:
    return ids_of(s.listing("/v1/collections", params))


@check(
    LAYER,
    _LC,
    "owner_id keeps the collections of that owner",
    users=2,
    statements=("2.1/collection.user_id", "4.1/list-collections.owner_id"),
)
def collections_owner_filter(ctx: RunContext) -> None:
    other = ctx.settings.users[1]
    with session(ctx) as s, shared_by(s, other) as theirs:
        mine = s.new_collection()["id"]
        for owner, kept, dropped in ((s.me.id, mine, theirs), (other.id, theirs, mine)):
            found = s.listing("/v1/collections", {"owner_id": owner})
            strangers = [c.get("id") for c in found if c.get("user_id") != owner]
            honoured(s, not strangers, f"owner_id={owner} lists {strangers}, owned by someone else")
            honoured(
                s,
                dropped not in ids_of(found),
                f"owner_id={owner} lists collection {dropped} of another owner",
            )
            if owner == s.me.id or ctx.settings.strict:  # docs/design.md: shared ones are listed too
                honoured(s, kept in ids_of(found), f"owner_id={owner} does not list {kept}, which it owns")


@check(
    LAYER,
    _LC,
    "status keeps active, archived or highlighted collections",
    statements=("2.1/collection.highlighted", "3/status-filter", "3/archive", "4.1/list-collections.status"),
)
def collections_status_filter(ctx: RunContext) -> None:
    with session(ctx) as s:
        archived, highlighted, plain = (s.new_collection()["id"] for _ in range(3))
        for cid, field in ((archived, "archived"), (highlighted, "highlighted")):
            put = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={field: True})
            if put.status == 402:
                raise unpaid(field)
        cases: tuple[tuple[str, set[int], str | None], ...] = (
            ("archived", {archived}, "archived"),
            ("highlighted", {highlighted}, "highlighted"),
            ("active", {highlighted, plain}, None),
        )
        for status, want, flag in cases:
            found = s.listing("/v1/collections", {"status": status})
            ours = set(ids_of(found)) & {archived, highlighted, plain}
            honoured(
                s,
                ours == want,
                f"status={status} lists {sorted(ours)} of the run's {archived} (archived), "
                f"{highlighted} (highlighted), {plain}: expected {sorted(want)}",
            )
            if flag:
                wrong = [c.get("id") for c in found if c.get(flag) is not True]
                honoured(s, not wrong, f"status={status} lists {wrong}, whose {flag} is not true")


@check(
    LAYER,
    _LC,
    "sort=name lists by name",
    statements=("4.1/list-collections.sort", "design/ordering.collections"),
)
def collections_sorted_by_name(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        made = {label: named(s, token, label)["id"] for label in ("b", "c", "a")}  # made out of order
        got = listed_ids(s, {"q": token, "sort": "name"})
        want = [made["a"], made["b"], made["c"]]
        honoured(s, got == want, f"sort=name&q={token} lists {got}; by name it is {want}")


def _stamp(value: Any) -> datetime | None:
    try:
        return datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return None


@check(
    LAYER,
    _GC,
    "log_access=true updates last_accessed_at",
    statements=("2.1/collection.last_accessed_at", "4.1/get-collection.log_access"),
)
def log_access_touches(ctx: RunContext) -> None:
    with session(ctx) as s:
        things = aged(s)  # made at least a tick ago: an access now is in a later second
        cid = things.accessed
        path = f"/v1/collections/{cid}"
        before = _stamp(things.first["accessed"].get("last_accessed_at"))
        if ctx.settings.strict:  # only log_access says a read is an access
            plain = _stamp(s.collection(cid).get("last_accessed_at"))
            honoured(
                s,
                plain == before,
                f"a GET without log_access moved last_accessed_at from {before} to {plain}",
            )
        after = _stamp(s.one(path, P_COLL_ONE, {"log_access": "true"}).get("last_accessed_at"))
        after = max(filter(None, (after, _stamp(s.collection(cid).get("last_accessed_at")))), default=None)
        honoured(
            s,
            before is not None and after is not None and after > before,
            f"last_accessed_at was {before} and is {after} after GET {path}?log_access=true",
        )


@check(
    LAYER,
    _LC,
    "sort=recent lists the most recently accessed first",
    strict=True,
    statements=("4.1/list-collections.sort", "design/ordering.collections"),
)
def collections_sorted_by_recent(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        first, middle, _ = (named(s, token)["id"] for _ in range(3))
        time.sleep(ACCESS_TICK)
        s.one(f"/v1/collections/{middle}", P_COLL_ONE, {"log_access": "true"})
        got = listed_ids(s, {"q": token, "sort": "recent"})
        honoured(
            s,
            got[:1] == [middle],
            f"sort=recent&q={token} lists {got}; {middle} was accessed last (log_access=true)",
        )
        honoured(s, set(got) >= {first, middle}, f"sort=recent&q={token} lists {got}, not all three")


def _with_collaborator(s: Session, ctx: RunContext, cid: int) -> set[int]:
    """Who must be among the collection's users: a second user added as collaborator, if given
    (and the owner, under --strict: docs/design.md, Collaborators)."""
    want = {s.me.id} if ctx.settings.strict else set()
    if len(ctx.settings.users) > 1:
        other = ctx.settings.users[1].id
        s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other})
        s.register("collaborator", f"/v1/collections/{cid}/users/{other}")
        want.add(other)
    return want


def _expect_users(s: Session, entry: dict[str, Any], want: set[int], what: str) -> None:
    users = entry.get("users")
    honoured(s, isinstance(users, list), f"{what} has no users array")
    got = set(ids_of(users or []))
    honoured(s, want <= got, f"{what} carries users {sorted(got, key=str)}, missing {sorted(want - got)}")


@check(
    LAYER,
    _LC,
    "include=items and include=users carry each collection's items and users",
    statements=("2.1/collection.include", "4.1/list-collections.include"),
)
def collections_include(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        cid = named(s, token)["id"]
        items = {s.add_item(cid)["id"] for _ in range(2)}
        want = _with_collaborator(s, ctx, cid)
        found = s.listing("/v1/collections", {"q": token, "include": ["items", "users"]})
        entry = next((c for c in found if c.get("id") == cid), None)
        honoured(s, entry is not None, f"q={token} does not list collection {cid}")
        assert entry is not None
        embedded = entry.get("items")
        honoured(
            s,
            isinstance(embedded, list) and set(ids_of(embedded)) == items,
            f"include=items gives collection {cid} items {ids_of(embedded or [])}, it holds {sorted(items)}",
        )
        _expect_users(s, entry, want, f"collection {cid} listed with include=users")


@check(
    LAYER,
    _GC,
    "include=users carries the collaborators",
    statements=("2.1/collection.include", "4.1/get-collection.include"),
)
def collection_include_users(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        want = _with_collaborator(s, ctx, cid)
        entry = s.one(f"/v1/collections/{cid}", P_COLL_ONE, {"include": "users"})
        _expect_users(s, entry, want, f"GET /v1/collections/{cid}?include=users")


def _domain(ctx: RunContext, collection: dict[str, Any]) -> str:
    host = urlsplit(ctx.settings.base_url).hostname or "localhost"
    return collection.get("custom_domain") or f"{collection.get('username')}.{host}"


@check(
    LAYER,
    _LC,
    "domain keeps the collections of that dashboard",
    strict=True,
    statements=(
        "4.1/list-collections.domain",
        "design/dashboard-domain.form",
        "design/dashboard-domain.filter",
    ),
)
def collections_domain_filter(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        domain = _domain(ctx, s.collection(cid))
        found = s.listing("/v1/collections", {"domain": domain})
        honoured(s, cid in ids_of(found), f"domain={domain} does not list the owner's collection {cid}")
        strangers = [c.get("id") for c in found if c.get("user_id") != s.me.id]
        honoured(s, not strangers, f"domain={domain} lists {strangers} of other owners")
        elsewhere = f"{ctx.target.run_id}-nobody.{domain}"
        honoured(
            s, cid not in listed_ids(s, {"domain": elsewhere}), f"domain={elsewhere} lists collection {cid}"
        )


@check(
    LAYER,
    _GC,
    "domain finds a collection on its owner's dashboard only",
    strict=True,
    statements=(
        "4.1/get-collection.domain",
        "design/dashboard-domain.form",
        "design/dashboard-domain.filter",
    ),
)
def collection_domain_filter(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}"
        domain = _domain(ctx, s.collection(cid))
        s.one(path, P_COLL_ONE, {"domain": domain})
        elsewhere = f"{ctx.target.run_id}-nobody.{domain}"
        got = s.call("GET", path, ok=(), params={"domain": elsewhere})
        honoured(
            s, got.status == 404, f"GET {path}?domain={elsewhere} answered {got.status}, expected 404", got
        )


@check(
    LAYER,
    _GC,
    "include=items honours items_type, items_not_type, items_parent_id and paging",
    statements=(
        "2.1/collection.include",
        "4.1/get-collection.include",
        "4.1/get-collection.items_page",
        "4.1/get-collection.items_per_page",
        "4.1/get-collection.items_type",
        "4.1/get-collection.items_not_type",
        "4.1/get-collection.items_parent_id",
        "8/paging",
    ),
)
def embedded_items_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}"
        text, link = s.add_item(cid)["id"], s.add_item(cid, type="link")["id"]
        stack = s.add_item(cid, type="stack")["id"]
        kid_text = s.add_item(cid, parent_id=stack)["id"]
        kid_link = s.add_item(cid, type="link", parent_id=stack)["id"]
        top, kids = {text, link, stack}, {kid_text, kid_link}

        def embedded(**params: Any) -> list[Any]:
            got = s.one(path, P_COLL_ONE, {"include": "items", **params}).get("items")
            query = "&".join(f"{k}={v}" for k, v in params.items())
            honoured(s, isinstance(got, list), f"GET {path}?include=items&{query} has no items array")
            return ids_of(got or [])

        def scoped(params: dict[str, Any], must: set[int], may: set[int]) -> None:
            found = set(embedded(items_per_page=100, **params))
            query = "&".join(f"{k}={v}" for k, v in params.items()) or "(no filter)"
            honoured(s, must <= found, f"include=items with {query} misses {sorted(must - found)}")
            honoured(
                s,
                found <= may,
                f"include=items with {query} carries {sorted(found - may)}, which do not match",
            )

        # stack children may or may not be embedded at top level (docs/design.md: they are)
        scoped({}, top, top | kids)
        scoped({"items_type": "link"}, {link}, {link, kid_link})
        scoped({"items_not_type": "link"}, {text, stack}, {text, stack, kid_text})
        scoped({"items_parent_id": stack}, kids, kids)
        full = embedded(items_per_page=100)
        for page in (1, 2, 3):
            got = embedded(items_per_page=2, items_page=page)
            want = full[2 * (page - 1) : 2 * page]
            honoured(
                s, got == want, f"include=items page {page} of 2 lists {got}, the whole list has {want} there"
            )


@check(
    LAYER,
    "collections.list_collections",
    "count pages as per_page",
    strict=True,
    statements=("design/request-encoding.count",),
)
def collections_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        for _ in range(4):
            s.new_collection(name=f"{ctx.target.name('counted')} {token}")
        pages_as_per_page(s, "/v1/collections", {"q": token}, 4)


@check(
    LAYER,
    "collections.list_collections",
    "without status the list is the list of status=active",
    statements=("3/status-filter", "4.1/list-collections.status"),
)
def collections_status_default_active(ctx: RunContext) -> None:
    with session(ctx) as s:
        plain, archived, highlighted = (s.new_collection()["id"] for _ in range(3))
        for cid, field in ((archived, "archived"), (highlighted, "highlighted")):
            put = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={field: True})
            if put.status == 402:
                raise unpaid("archived", "highlighted")
        ours = {plain, archived, highlighted}
        default = set(ids_of(s.listing("/v1/collections", {}))) & ours
        active = set(ids_of(s.listing("/v1/collections", {"status": "active"}))) & ours
        s.expect(
            default == active,
            f"of the run's collections {plain} (plain), {archived} (archived) and {highlighted} "
            f"(highlighted), the list without status holds {sorted(default)}, status=active "
            f"{sorted(active)}: active is the default",
            kind=NotHonoured,
        )
