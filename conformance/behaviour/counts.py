"""Get collections count (spec 4.1): each count counts the set its List collections filter lists,
and moving one of the first user's collections between those sets moves exactly the matching counts.

active is what List collections lists by default (status active), archived what status=archived
lists, highlighted what status=highlighted lists, owned what owned=true lists. That list has the
default status, and whether `owned` also counts archived collections the spec leaves open, so
either the X-Total-Count of owned=true or that plus the one of owned=true&status=archived is
taken. `total` is judged only under --strict (docs/design.md: every collection the caller can
list, archived ones too, which appear only under status=archived: the default list's X-Total-Count
plus status=archived's). No list is asked with two statuses at once: how a server reads an array
in a query the spec does not show.
Counts are derived views: they are read until they show what the check did (`settled`).
"""

from __future__ import annotations

from typing import Any

from ..failures import StaleCount
from ..http import LAYER, Session, counts, session, settled, total_count, unpaid
from ..registry import RunContext, check
from .contacts import shared_collection

R_COUNTS = (
    "spec 4.1 Get collections count: active, archived, highlighted, owned, total; spec 3: the list "
    "status filter is active (default), archived, highlighted; spec 4.1 List collections owned"
)
KEYS = ("active", "archived", "highlighted", "owned")
FILTERS = {"active": {}, "archived": {"status": "archived"}, "highlighted": {"status": "highlighted"}}
OWNED, OWNED_ARCHIVED = {"owned": "true"}, {"owned": "true", "status": "archived"}

Reading = tuple[dict[str, Any], dict[str, list[tuple[str, int | None]]]]


def _listed(s: Session, params: dict[str, Any]) -> int | None:
    """X-Total-Count of List collections with these filters."""
    return total_count(s.call("GET", "/v1/collections", params={**params, "per_page": 1}))


def _query(*params: dict[str, Any]) -> str:
    return " plus ".join("&".join(f"{k}={v}" for k, v in p.items()) or "the default" for p in params)


def _sum(*totals: int | None) -> int | None:
    return None if None in totals else sum(t for t in totals if t is not None)


def _read(s: Session, keys: tuple[str, ...]) -> Reading:
    """The counts, and for each of `keys` the totals of the lists it may count: (which, total)."""
    got = counts(s)
    lists: dict[str, list[tuple[str, int | None]]] = {}
    for key in keys:
        if key in FILTERS:
            lists[key] = [(_query(FILTERS[key]), _listed(s, FILTERS[key]))]
        elif key == "owned":
            owned, archived = _listed(s, OWNED), _listed(s, OWNED_ARCHIVED)
            lists[key] = [(_query(OWNED), owned), (_query(OWNED, OWNED_ARCHIVED), _sum(owned, archived))]
        else:  # total, under --strict
            both = _sum(_listed(s, FILTERS["active"]), _listed(s, FILTERS["archived"]))
            lists[key] = [(_query(FILTERS["active"], FILTERS["archived"]), both)]
    return got, lists


def _wrong(reading: Reading, want: dict[str, set[int]]) -> list[str]:
    """What in the reading is not as it should be: a count that is not one of the values `want`
    allows it, or that is no total of the lists it counts."""
    got, lists = reading
    out = []
    for key, allowed in want.items():
        if got.get(key) not in allowed:
            out.append(f"{key} is {got.get(key)!r}, expected {' or '.join(map(str, sorted(allowed)))}")
    for key, totals in lists.items():
        if got.get(key) not in [total for _, total in totals]:
            shown = " or ".join(f"{total} ({query})" for query, total in totals)
            out.append(f"{key} is {got.get(key)!r}, but List collections' X-Total-Count is {shown}")
    return out


@check(
    LAYER,
    "collections.get_collections_count",
    "each count counts its list's set; moves move exactly the matching counts",
    R_COUNTS,
)
def collections_count_sets(ctx: RunContext) -> None:
    keys = (*KEYS, "total") if ctx.settings.strict else KEYS
    with session(ctx) as s:
        start = settled(s, "collections count", lambda: _read(s, keys), lambda r: not _wrong(r, {}))
        s.expect(not _wrong(start, {}), "; ".join(_wrong(start, {})), kind=StaleCount)
        base = {k: v for k, v in start[0].items() if isinstance(v, int)}
        missing = [k for k in keys if k not in base]
        s.expect(not missing, f"Get collections count has no integer {missing}: {start[0]}", kind=StaleCount)

        def after(what: str, moves: dict[str, set[int]]) -> None:
            """The counts (and the lists) after `what`: each key moved by one of its `moves` (else 0)."""
            want = {k: {base[k] + d for d in moves.get(k, {0})} for k in keys}
            reading = settled(s, "collections count", lambda: _read(s, keys), lambda r: not _wrong(r, want))
            wrong = _wrong(reading, want)
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
