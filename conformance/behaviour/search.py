"""Behaviour checks of the search operations (operationIds search.*), grouped by rule family."""

from __future__ import annotations

from typing import Any

from ..failures import NotGone, NotHonoured
from ..http import (
    LAYER,
    SERIAL,
    Session,
    findable,
    found,
    search,
    search_lags,
    searched,
    session,
    settled,
    unique,
)
from ..registry import RunContext, check
from .common import (
    LISBON,
    counted,
    honoured,
    pages_as_per_page,
    refused_4xx,
    tagged_item,
)

# -- helpers


ITEM = "item"

# -- parameters: query parameters, paging and filters, and their effect on the answer


@check(
    LAYER,
    "search.search",
    "count pages as per_page",
    strict=True,
    statements=("design/request-encoding.count",),
)
def search_count_alias(ctx: RunContext) -> None:
    with session(ctx) as s:
        token = unique(s)
        cid = s.new_collection()["id"]
        for _ in range(4):
            s.add_item(cid, name=f"{ctx.target.name('counted')} {token}")
        pages_as_per_page(s, "/v1/search", {"q": token}, 4)


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
    statements=(
        "1/search",
        "2.11/search-result",
        "4.9/without-type",
        "4.9/search.q",
        "4.9/search.tags",
        "4.9/search.owned",
        "4.9/search.owner_id",
        "4.9/search.ll",
        "4.9/search.radius",
        "4.9/search.page",
        "4.9/search.per_page",
        "4.9/search.type",
        "8/paging",
        "design/search-results.findable",
    ),
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


def _found(s: Session, params: dict[str, Any], ours: set[int]) -> set[int]:
    """Which of `ours` (item ids) a search finds as items."""
    hits = s.listing("/v1/search", params)
    return {h["id"] for h in hits if h.get("type") not in ("collection", "comment") and h.get("id") in ours}


@check(
    LAYER,
    "search.search",
    "q and tags together: the results match the term and have the tags",
    paid=True,
    statements=("4.9/search.q", "4.9/search.tags"),
)
def search_q_and_tags_both_apply(ctx: RunContext) -> None:
    with session(ctx) as s:
        token, tag = unique(s), ctx.target.name(f"t{next(SERIAL)}")
        cid = s.new_collection()["id"]
        both = tagged_item(s, cid, tag, name=f"{ctx.target.name('both')} {token}")
        word_only = s.add_item(cid, name=f"{ctx.target.name('word')} {token}")["id"]
        tag_only = tagged_item(s, cid, tag)
        ours = {both, word_only, tag_only}

        def read(params: dict[str, Any], want: set[int]) -> set[int]:
            return settled(s, "search", lambda: _found(s, params, ours), lambda got: got == want)

        if read({"q": token}, {both, word_only}) != {both, word_only}:
            search_lags(s, token)
        cases = (
            ({"tags": tag}, {both, tag_only}, "the items tagged"),
            ({"q": token, "tags": tag}, {both}, "the item with the word and the tag"),
        )
        for params, want, what in cases:
            got = read(params, want)
            query = "&".join(f"{k}={v}" for k, v in params.items())
            s.expect(
                got == want,
                f"search {query} finds {sorted(got)} of the run's items: {both} (word and tag), {word_only} "
                f"(word only), {tag_only} (tag only); only {sorted(want)} ({what}) should be found",
                kind=NotHonoured,
            )


@check(
    LAYER,
    "search.search",
    "a search with neither q nor tags is refused",
    writes=False,
    statements=("4.9/search.q", "4.9/search.tags"),
)
def search_needs_q_or_tags(ctx: RunContext) -> None:
    with session(ctx) as s:
        params: dict[str, Any]
        for params in ({}, {"page": 1, "per_page": 5}):
            query = "&".join(f"{k}={v}" for k, v in params.items())
            refused_4xx(s, s.call("GET", "/v1/search", ok=(), params=params), f"GET /v1/search?{query}")


# -- deletion: where a deleted thing must disappear


@check(LAYER, "search.search", "a deleted item is no longer found", statements=("4.9/search.q",))
def deleted_item_not_found(ctx: RunContext) -> None:
    with session(ctx) as s:
        item = s.add_item(s.new_collection()["id"])
        token = item["name"].rsplit(" ", 1)[-1]
        findable(s, token, item["id"])
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        s.expect(
            not searched(s, item["id"], ("item",), present=False, q=token),
            f"search for {token!r} still finds the deleted item",
            kind=NotGone,
        )


# -- counters and feeds: the events that move them


@check(
    LAYER,
    "search.search",
    "X-Total-Count of search follows creation and deletion",
    statements=("1/search", "4/x-total-count", "4.9/search"),
)
def search_total_follows(ctx: RunContext) -> None:
    with session(ctx) as s:
        word = unique(s)
        cid = s.new_collection(name=f"{ctx.target.name('s')} {word}")["id"]
        item = s.add_item(cid, name=f"{ctx.target.name('s')} {word}")
        hits, total = settled(
            s,
            "search",
            lambda: search(s, q=word),
            lambda got: found(got[0], item["id"], ("item",)) and found(got[0], cid, ("collection",)),
        )
        counted(
            s, total == len(hits), f"search q={word} answers {len(hits)} results with X-Total-Count {total}"
        )
        if not found(hits, item["id"], ("item",)):
            search_lags(s, word)
        path = f"/v1/items/{item['id']}"
        s.call("DELETE", path)
        s.gone(path)
        after, left = settled(
            s,
            "search",
            lambda: search(s, q=word),
            lambda got: isinstance(total, int) and got[1] == total - 1 == len(got[0]),
        )
        counted(
            s,
            isinstance(total, int) and left == total - 1 == len(after),
            f"after deleting one of the {total} results, search q={word} counts {left} ({len(after)} listed)",
        )
