"""Example checks of tags."""

from __future__ import annotations

from typing import Any

from .. import http
from ..failures import NotGone, NotStored, StaleCount
from ..http import LAYER, session, unpaid
from ..registry import RunContext, check
from .properties import R_TAG_COUNT


@check(LAYER, "tags.list_tags", "tag counts follow tagging and deletions", R_TAG_COUNT)
def tag_counts(ctx: RunContext) -> None:
    with session(ctx) as s:
        cid = s.new_collection()["id"]
        name = ctx.target.name("counted")
        first, _ = s.new_item(cid, ok=(201, 402), tags=[name])
        if first.status == 402:
            raise unpaid("tags")
        second = s.add_item(cid, tags=[name])

        def counted(path: str, want: int) -> Any:
            # tag lists are views derived from writes: read until they show it (or --settle passed)
            return http.settled(
                s, "tags", lambda: http.tag_counts(s, path).get(name.casefold(), 0), lambda got: got == want
            )

        for path in ("/v1/tags", f"/v1/collections/{cid}/tags"):
            got = counted(path, 2)
            s.expect(got == 2, f"GET {path} counts {got} items tagged {name!r}, 2 are", kind=StaleCount)
        s.call("DELETE", f"/v1/items/{second['id']}")
        s.gone(f"/v1/items/{second['id']}")
        got = counted("/v1/tags", 1)
        s.expect(
            got == 1,
            f"List all tags counts {got} items tagged {name!r} after one of the two was deleted",
            kind=StaleCount,
        )
        tags = s.body(s.call("GET", f"/v1/items/{first.json()['id']}/tags"), list)
        tag_id = next((t.get("id") for t in tags if isinstance(t, dict)), None)
        s.expect(isinstance(tag_id, int), f"List item tags shows {tags}", kind=NotStored)
        s.call("DELETE", f"/v1/tags/{tag_id}")
        s.expect(
            counted("/v1/tags", 0) == 0,
            f"List all tags still counts {name!r} after its last tag was deleted",
            kind=NotGone,
        )
