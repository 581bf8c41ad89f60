"""Counters and feeds: each count the spec gives (collections count, X-Total-Count of the lists and
of search, items_total_count after a copy) and the activity feed move with the events that must
move them, judged against what the check itself made.

On a shared server others may write at the same time: where the run cannot tell its own entries
from theirs a total must move at least as much as the run moved it.
"""

from __future__ import annotations

from typing import Any

from ..http import (
    LAYER,
    Session,
    counts_baseline,
    counts_moved,
    found,
    new_comment,
    search,
    search_lags,
    session,
    settled,
    total_count,
    unique,
    unpaid,
)
from ..registry import RunContext, check
from .writes_common import R_FEED, R_SEARCH, activity, counted, in_feed

R_COUNTS = (
    "spec 4.1 Get collections count: active, archived, highlighted, owned, total; spec 3 transitions of "
    "archived and highlighted (paid)"
)
R_ACTIVE = "docs/design.md: archived collections appear only under status=archived (not active)"
R_TOTALS = "spec 4: X-Total-Count carries the total number of entries of List collections and search"
R_COPY_COUNT = "spec 4.2 Copy items (into collection_id, or the current one); spec 2.1 items_total_count"
R_FEED_IDS = "docs/design.md activity entries: one per thing created, its id, type saying which"


def _feed_total(s: Session, at_least: int | None = None) -> int:
    """List activity's X-Total-Count; with `at_least`, once it is that much (or --settle seconds
    passed: the feed is a view derived from writes, which may lag)."""
    _, total = settled(
        s,
        "activity",
        lambda: activity(s, per_page=1),
        lambda got: at_least is None or (isinstance(got[1], int) and got[1] >= at_least),
    )
    counted(s, isinstance(total, int), "List activity has no integer X-Total-Count")
    assert total is not None
    return total


@check(LAYER, "activity.list_activity", "what is created shows in the activity feed and its total", R_FEED)
def activity_follows_creation(ctx: RunContext) -> None:
    with session(ctx) as s:
        start = _feed_total(s)
        name = f"{ctx.target.name('feed')} {unique(s)}"
        cid = s.new_collection(name=name)["id"]
        item = s.add_item(cid)
        moved = {"collection": _feed_total(s, start + 2) - start}
        text = f"said {unique(s)}"
        comment = new_comment(s, item["id"], {"body": text})
        moved["comment"] = _feed_total(s, start + moved["collection"] + 1) - start - moved["collection"]
        like = s.body(s.call("POST", f"/v1/items/{item['id']}/reactions", ok=(201,)))
        s.register("reaction", f"/v1/reactions/{like.get('id')}")
        seen = start + moved["collection"] + moved["comment"]
        moved["reaction"] = _feed_total(s, seen + 1) - seen
        counted(
            s,
            moved["collection"] >= 2,
            f"a new collection and item moved the activity total by {moved['collection']}",
        )
        for kind in ("comment", "reaction"):
            counted(s, moved[kind] >= 1, f"a new {kind} moved the activity total by {moved[kind]}, not 1")
        strict = ctx.settings.strict
        things = [("collection", cid, name), ("item", item["id"], item.get("name"))]
        if strict:  # docs/design.md: entries carry the created thing's id and kind
            things += [("comment", comment.get("id"), None), ("reaction", like.get("id"), None)]
        feed, _ = settled(
            s, "activity", lambda: activity(s), lambda got: all(in_feed(got[0], *thing) for thing in things)
        )
        counted(
            s,
            in_feed(feed, "collection", cid, name),
            f"the latest activity does not show the new collection {cid}",
        )
        counted(
            s,
            in_feed(feed, "item", item["id"], item.get("name")),
            f"the latest activity lacks the new item {item['id']}",
        )
        if strict:
            for kind, thing in (("comment", comment), ("reaction", like)):
                counted(
                    s,
                    in_feed(feed, kind, thing.get("id"), None),
                    f"the activity feed lacks the new {kind} {thing.get('id')}",
                )


def _moved(
    s: Session, before: dict[str, Any], after: dict[str, Any], want: dict[str, int], what: str
) -> None:
    got = {
        k: (after.get(k) - before[k])
        if isinstance(before.get(k), int) and isinstance(after.get(k), int)
        else None
        for k in want
    }
    counted(s, got == want, f"{what}: Get collections count moved {got}, expected {want}")


@check(
    LAYER,
    "collections.get_collections_count",
    "active and highlighted counts follow creation and highlighting",
    R_COUNTS,
)
def collection_counts_flags(ctx: RunContext) -> None:
    with session(ctx) as s:
        before = counts_baseline(s)
        cid = s.new_collection()["id"]
        want = {"active": 1, "highlighted": 0}
        made = counts_moved(s, before, want)
        _moved(s, before, made, want, "after Create a collection")
        exchange = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"highlighted": True})
        if exchange.status == 402:
            raise unpaid("highlighted")
        want = {"highlighted": 1, "total": 0}
        lit = counts_moved(s, made, want)
        _moved(s, made, lit, want, "after highlighted=true")
        s.call("PUT", f"/v1/collections/{cid}", json_body={"highlighted": False})
        want = {"highlighted": -1, "total": 0}
        _moved(s, lit, counts_moved(s, lit, want), want, "after highlighted=false")
        if ctx.settings.strict:
            s.call("PUT", f"/v1/collections/{cid}", json_body={"archived": True})
            want = {"active": -1, "archived": 1}
            _moved(
                s,
                made,
                counts_moved(s, made, want),
                want,
                "after archived=true (strict: " + R_ACTIVE + ")",
            )


@check(LAYER, "collections.list_collections", "X-Total-Count follows creation and deletion", R_TOTALS)
def collections_total_follows(ctx: RunContext) -> None:
    with session(ctx) as s:
        word = unique(s)

        def total(want: int) -> int | None:
            # q is a search query (spec 4.1): a server may answer it from an index that lags
            return settled(
                s,
                "collections q",
                lambda: total_count(s.call("GET", "/v1/collections", params={"q": word, "per_page": 1})),
                lambda got: got == want,
            )

        got = total(0)
        counted(s, got == 0, f"List collections q={word} counts {got} before any was made")
        made = [s.new_collection(name=f"{ctx.target.name('n')} {word}")["id"] for _ in range(2)]
        got = total(2)
        counted(s, got == 2, f"List collections q={word} counts {got} after 2 were made")
        s.call("DELETE", f"/v1/collections/{made[0]}")
        s.gone(f"/v1/collections/{made[0]}")
        s.collections.remove(made[0])
        got = total(1)
        counted(s, got == 1, f"List collections q={word} counts {got} after one of 2 was deleted")


@check(
    LAYER,
    "search.search",
    "X-Total-Count of search follows creation and deletion",
    R_SEARCH + "; " + R_TOTALS,
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


@check(LAYER, "items.copy_items", "a copy counts in items_total_count and X-Total-Count", R_COPY_COUNT)
def copy_counts_follow(ctx: RunContext) -> None:
    with session(ctx) as s:
        source, dest = s.new_collection()["id"], s.new_collection()["id"]
        original = s.add_item(source)
        for body, where, want in (({"collection_id": dest}, dest, 1), ({}, source, 2)):
            copies = s.body(
                s.call("PUT", "/v1/items/copy", ok=(201,), json_body={"items": [original["id"]], **body}),
                list,
            )
            for copy in copies:
                if isinstance(copy, dict) and isinstance(copy.get("id"), int):
                    s.register("item", f"/v1/items/{copy['id']}")
            count = s.collection(where).get("items_total_count")
            counted(
                s,
                count == want,
                f"after Copy items into {where}, its items_total_count is {count!r}, not {want}",
            )
            exchange = s.call("GET", "/v1/items", params={"collection_id": where, "per_page": 1})
            counted(
                s,
                total_count(exchange) == want,
                f"after Copy items into {where}, List items counts "
                f"{exchange.header('X-Total-Count')}, not {want}",
                exchange,
            )
