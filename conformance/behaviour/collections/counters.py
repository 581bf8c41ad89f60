"""Behaviour checks of the collections operations (operationIds collections.*): counters and feeds: the
events that move them."""

from __future__ import annotations

from typing import Any

from ...failures import NotGone, NotStored, StaleCount
from ...http import (
    LAYER,
    Session,
    counts,
    ids_of,
    session,
    settled,
    total_count,
    unique,
    unpaid,
)
from ...registry import RunContext, check
from ..common import counted, shared_collection
from .common import KEYS, counts_baseline, counts_moved, settled_counts, wrong_counts


@check(
    LAYER,
    "collections.get_collections_count",
    "counts follow creation, archiving and deletion",
    statements=("3/archive", "4.1/get-collections-count"),
)
def collection_counts_follow(ctx: RunContext) -> None:
    with session(ctx) as s:
        before = counts_baseline(s)
        cid = s.new_collection()["id"]
        made = counts_moved(s, before, {"total": 1, "owned": 1})
        for key in ("total", "owned"):
            s.expect(
                made.get(key) == before.get(key, 0) + 1,
                f"{key} went from {before.get(key)} to {made.get(key)} when a collection was created",
                kind=StaleCount,
            )
        archived = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"archived": True})
        if archived.status == 200:
            now = counts_moved(s, made, {"archived": 1})
            s.expect(
                now.get("archived") == made.get("archived", 0) + 1,
                f"archived went from {made.get('archived')} to {now.get('archived')} when one was archived",
                kind=StaleCount,
            )
        s.call("DELETE", f"/v1/collections/{cid}")
        s.gone(f"/v1/collections/{cid}")
        s.collections.remove(cid)
        after = settled(s, "collections count", lambda: counts(s), lambda now: now == before)
        s.expect(
            after == before,
            f"the counts after deleting the collection are {after}, before it {before}",
            kind=StaleCount,
        )


@check(
    LAYER,
    "collections.add_collaborator",
    "users_total_count follows collaborators",
    users=2,
    statements=(
        "1/collection-owner-items-collaborators",
        "2.1/collection.users_total_count",
        "2.8/collaborator",
        "4.1/list-collaborators",
        "4.1/add-collaborator",
        "4.1/remove-collaborator",
        "4.1/add-collaborator.body",
    ),
)
def collaborators_count(ctx: RunContext) -> None:
    with session(ctx) as s:
        data = s.new_collection()
        cid, other = data["id"], ctx.settings.users[1].id
        before = data.get("users_total_count")
        added = s.call("POST", f"/v1/collections/{cid}/users", ok=(201,), json_body={"id": other})
        path = f"/v1/collections/{cid}/users/{other}"
        s.register("collaborator", path)
        s.expect(s.body(added).get("id") == other, f"Add a collaborator answered id {added.json().get('id')}")
        s.expect(
            other in ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list)),
            f"List collaborators lacks the added user {other}",
            kind=NotStored,
        )
        count = s.collection(cid).get("users_total_count")
        s.expect(
            isinstance(before, int) and count == before + 1,
            f"users_total_count went from {before} to {count} when a collaborator was added",
            kind=StaleCount,
        )
        s.call("DELETE", path)
        s.gone(path)
        count = s.collection(cid).get("users_total_count")
        s.expect(
            count == before,
            f"users_total_count is {count} after the collaborator left, {before} before",
            kind=StaleCount,
        )
        s.expect(
            other not in ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list)),
            f"List collaborators still shows the removed user {other}",
            kind=NotGone,
        )


@check(
    LAYER,
    "collections.get_collections_count",
    "each count counts its list's set; moves move exactly the matching counts",
    statements=("4.1/get-collections-count",),
)
def collections_count_sets(ctx: RunContext) -> None:
    keys = (*KEYS, "total") if ctx.settings.strict else KEYS
    with session(ctx) as s:
        start = settled_counts(s, keys, {})
        s.expect(not wrong_counts(start, {}), "; ".join(wrong_counts(start, {})), kind=StaleCount)
        base = {k: v for k, v in start[0].items() if isinstance(v, int)}
        missing = [k for k in keys if k not in base]
        s.expect(not missing, f"Get collections count has no integer {missing}: {start[0]}", kind=StaleCount)

        def after(what: str, moves: dict[str, set[int]]) -> None:
            """The counts (and the lists) after `what`: each key moved by one of its `moves` (else 0)."""
            want = {k: {base[k] + d for d in moves.get(k, {0})} for k in keys}
            reading = settled_counts(s, keys, want)
            wrong = wrong_counts(reading, want)
            s.expect(not wrong, f"after {what}, from {start[0]}: {'; '.join(wrong)}", kind=StaleCount)

        cid = s.new_collection()["id"]
        made = {"active": {1}, "owned": {1}, "total": {1}}
        after(f"creating collection {cid}", made)
        if len(ctx.settings.users) > 1:
            other = ctx.settings.users[1]
            with shared_collection(s, other, s.me) as theirs:
                after(
                    f"user {other.id} shared collection {theirs} with user {s.me.id}",
                    {"active": {1, 2}, "owned": {1}, "total": {1, 2}},  # shared ones listed, or not
                )
            after(f"user {other.id} deleted collection {theirs}", made)
        path = f"/v1/collections/{cid}"
        paid = True
        # archived ones only under status=archived: docs/design.md; else active may count them still
        still = {0} if ctx.settings.strict else {0, 1}
        for field, moves in (
            ("highlighted", {**made, "highlighted": {1}}),
            ("archived", {"archived": {1}, "active": still, "owned": {0, 1}, "total": {1}}),  # owned: either
        ):
            # a paid field (spec 8): refused with any 402 or 403 (the spec shows no status), or dropped
            put = s.call("PUT", path, ok=(200, 402, 403), json_body={field: True})
            if put.status != 200 or s.collection(cid).get(field) is not True:
                paid = False
                continue
            after(f"{field}=true on collection {cid}", moves)
            s.call("PUT", path, json_body={field: False})
            after(f"{field}=false on collection {cid}", made)
        if not paid:
            raise unpaid("highlighted", "archived", partly=True)


R_ACTIVE = "docs/design.md: archived collections appear only under status=archived (not active)"


def moved_keeping(
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
    statements=("3/highlight", "4.1/get-collections-count"),
)
def collection_counts_flags(ctx: RunContext) -> None:
    with session(ctx) as s:
        before = counts_baseline(s)
        cid = s.new_collection()["id"]
        want = {"active": 1, "highlighted": 0}
        made = counts_moved(s, before, want)
        moved_keeping(s, before, made, want, "after Create a collection")
        exchange = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={"highlighted": True})
        if exchange.status == 402:
            raise unpaid("highlighted")
        want = {"highlighted": 1, "total": 0}
        lit = counts_moved(s, made, want)
        moved_keeping(s, made, lit, want, "after highlighted=true")
        s.call("PUT", f"/v1/collections/{cid}", json_body={"highlighted": False})
        want = {"highlighted": -1, "total": 0}
        moved_keeping(s, lit, counts_moved(s, lit, want), want, "after highlighted=false")
        if ctx.settings.strict:
            s.call("PUT", f"/v1/collections/{cid}", json_body={"archived": True})
            want = {"active": -1, "archived": 1}
            moved_keeping(
                s,
                made,
                counts_moved(s, made, want),
                want,
                "after archived=true (strict: " + R_ACTIVE + ")",
            )


@check(
    LAYER,
    "collections.list_collections",
    "X-Total-Count follows creation and deletion",
    statements=("4/x-total-count", "4.1/list-collections"),
)
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
