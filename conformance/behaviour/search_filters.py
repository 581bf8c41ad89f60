"""Search with q and tags together (spec 4.9: q is the search term, tags keeps "results having these
tags"): both apply, so the results match the term AND carry the tags; tags alone keeps the results
that carry them, whatever their text.

Three items: two with a word no other name has, one of them tagged, and a third tagged but without
the word. Search is a derived view: it is read until it shows them (`settled`); a search that never
finds a new item by a word of its name is the skip (or, under --strict, the failure) of
`http.search_lags`.
"""

from __future__ import annotations

from typing import Any

from ..failures import NotHonoured
from ..http import LAYER, SERIAL, Session, search_lags, session, settled, unique
from ..registry import RunContext, check
from .tag_lists import tagged_item

R_BOTH = (
    "spec 4.9 Search: q (search term, required if tags is absent) and tags (results having these tags, "
    "required if q is absent): with both, the results match the term and have the tags"
)
ITEM = "item"


def _found(s: Session, params: dict[str, Any], ours: set[int]) -> set[int]:
    """Which of `ours` (item ids) a search finds as items."""
    hits = s.listing("/v1/search", params)
    return {h["id"] for h in hits if h.get("type") not in ("collection", "comment") and h.get("id") in ours}


@check(
    LAYER,
    "search.search",
    "q and tags together: the results match the term and have the tags",
    R_BOTH,
    paid=True,
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
