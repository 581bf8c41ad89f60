"""Query parameters of Search and List activity: each sent, its effect checked against what the
check itself made (rule table: conformance/rules/parameters.py)."""

from __future__ import annotations

from typing import Any

from ..http import LAYER, SERIAL, Session, session, settled, total_count, unique
from ..registry import RunContext, check
from .parameters_common import honoured
from .parameters_items import LISBON

R_SEARCH = (
    "spec 4.9 Search: q, tags, owned, owner_id, ll, radius, page, per_page, type; "
    "docs/design.md, Search results: an item is findable as soon as it is created"
)
R_ACTIVITY = "spec 4.10 List activity: page, per_page; spec 8: X-Total-Count is the total"
ITEM = "item"


def kind_of(entry: Any) -> tuple[str, Any]:
    """A search result as (collection | comment | item, id): ids of different kinds may be equal."""
    kind = entry.get("type") if isinstance(entry, dict) else None
    return (kind if kind in ("collection", "comment") else ITEM), (entry or {}).get("id")


def _world(s: Session, token: str) -> tuple[dict[str, tuple[str, Any]], str | None]:
    """A collection, a text item (tagged when the plan allows), a link item in Lisbon and a comment,
    each with the token in its text; and the tag."""
    cid = s.new_collection(name=f"{s.target.name('found')} {token}")["id"]
    tag: str | None = s.target.name(f"t{next(SERIAL)}")
    exchange, _ = s.new_item(cid, ok=(201, 402), name=f"{s.target.name('text')} {token}", tags=[tag])
    if exchange.status == 402:
        exchange, tag = s.new_item(cid, name=f"{s.target.name('text')} {token}")[0], None
    text = s.body(exchange)["id"]
    link = s.add_item(
        cid, type="link", name=f"{s.target.name('link')} {token}", latitude=LISBON[0], longitude=LISBON[1]
    )["id"]
    note = s.body(s.call("POST", f"/v1/items/{text}/comments", ok=(201,), json_body={"body": f"a {token}"}))
    s.register("comment", f"/v1/comments/{note.get('id')}")
    made = {
        "collection": ("collection", cid),
        "text": (ITEM, text),
        "link": (ITEM, link),
        "comment": ("comment", note.get("id")),
    }
    return made, tag


@check(
    LAYER,
    "search.search",
    "q, type, owned, owner_id, tags, ll, radius and paging narrow the results",
    R_SEARCH,
)
def search_filters(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        made, tag = _world(s, token)
        ours = set(made.values())
        # search is a view derived from writes: read until it finds what the run made (within --settle)
        full = settled(
            s,
            "search",
            lambda: s.listing("/v1/search", {"q": token}),
            lambda got: ours <= {kind_of(e) for e in got},
        )
        found = {kind_of(e) for e in full}
        honoured(s, ours <= found, f"q={token} finds {sorted(found & ours)}, the run made {sorted(ours)}")

        def narrowed(params: dict[str, Any], want: set[tuple[str, Any]], every: Any = None) -> None:
            got = s.listing("/v1/search", params)
            query = "&".join(f"{k}={v}" for k, v in params.items())
            mine = {kind_of(e) for e in got} & ours
            honoured(
                s, mine == want, f"search {query} finds {sorted(mine)} of the run's, expected {sorted(want)}"
            )
            if every is not None:
                wrong = [kind_of(e) for e in got if not every(e)]
                honoured(s, not wrong, f"search {query} finds {wrong}, which do not match")

        for kind, key in (("collection", "collection"), ("comment", "comment"), ("link", "link")):
            narrowed({"q": token, "type": kind}, {made[key]}, lambda e, kind=kind: e.get("type") == kind)
        narrowed({"q": token, "owned": "true"}, ours, lambda e: e.get("user_id") == s.me.id)
        narrowed({"q": token, "owner_id": s.me.id}, ours, lambda e: e.get("user_id") == s.me.id)
        if len(ctx.settings.users) > 1:
            other = ctx.settings.users[1].id
            narrowed({"q": token, "owner_id": other}, set(), lambda e: e.get("user_id") == other)
        ll = f"{LISBON[0]},{LISBON[1]}"
        narrowed({"q": token, "ll": ll, "radius": 1000}, {made["link"]})
        if tag is not None:
            narrowed({"tags": tag}, {made["text"]})
        s.partition("/v1/search", {"q": token}, 2, full)


def _feed_keys(s: Session, params: dict[str, Any]) -> tuple[list[tuple[Any, Any]], int | None]:
    exchange = s.call("GET", "/v1/activity", params=params)
    entries = s.body(exchange, list)
    return [
        (e.get("type"), e.get("id")) if isinstance(e, dict) else (None, None) for e in entries
    ], total_count(exchange)


@check(LAYER, "activity.list_activity", "page and per_page partition the feed", R_ACTIVITY)
def activity_pages(ctx: RunContext) -> None:
    with session(ctx) as s:
        made = s.new_collection()
        names = {made["name"], *(s.add_item(made["id"])["name"] for _ in range(3))}  # at least these four
        # the feed is a view derived from writes: read until it shows them (within --settle)
        settled(
            s,
            "activity",
            lambda: s.body(s.call("GET", "/v1/activity", params={"page": 1, "per_page": 30}), list),
            lambda feed: names <= {e.get("name") for e in feed if isinstance(e, dict)},
        )
        head, total = _feed_keys(s, {"page": 1, "per_page": 6})
        honoured(s, isinstance(total, int) and total >= 4, f"List activity says X-Total-Count {total}")
        assert total is not None
        honoured(s, len(head) == min(6, total), f"per_page=6 gives {len(head)} entries of {total}")
        got: list[tuple[Any, Any]] = []
        for page in (1, 2, 3):
            chunk, count = _feed_keys(s, {"page": page, "per_page": 2})
            honoured(s, count == total, f"page {page} says X-Total-Count {count}, page 1 said {total}")
            got += chunk
        honoured(s, got == head, f"pages 1-3 of 2 list {got}; the first 6 entries are {head}")
