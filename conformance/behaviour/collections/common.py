"""Helpers the collections checks of several families share."""

from __future__ import annotations

from typing import Any

from ...http import Session, counts, ids_of, settled, total_count


def collection_ids(s: Session, params: dict[str, Any] | None = None) -> list[Any]:
    return ids_of(s.listing("/v1/collections", params or {}))


# -- Get collections count and the lists each count counts (spec 3: the list status filter; owned
# with or without the archived ones, which the spec leaves open; total, under --strict, the active
# and the archived)

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


def read_counts(s: Session, keys: tuple[str, ...]) -> Reading:
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


def wrong_counts(reading: Reading, want: dict[str, set[int]]) -> list[str]:
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


def counts_baseline(s: Session) -> dict[str, Any]:
    """Get collections count as a baseline for a check that moves it: read until it agrees with the
    lists it counts (or --settle seconds passed), so that writes made before, which a lagging view
    may not show yet, do not count as the check's own."""
    return settled_counts(s, KEYS, {})[0]


def settled_counts(s: Session, keys: tuple[str, ...], want: dict[str, set[int]]) -> Reading:
    """The counts and the lists of `keys` (read_counts), read until nothing is wrong with them
    (wrong_counts) or --settle seconds passed: the last reading, for the check to judge."""
    return settled(s, "collections count", lambda: read_counts(s, keys), lambda r: not wrong_counts(r, want))


def counts_moved(s: Session, before: dict[str, Any], want: dict[str, int]) -> dict[str, Any]:
    """Get collections count once each key of `want` moved from `before` by its value (or --settle
    seconds passed): the last reading, for the check to judge."""

    def moved(now: dict[str, Any]) -> bool:
        return all(
            isinstance(before.get(k), int) and isinstance(now.get(k), int) and now[k] - before[k] == d
            for k, d in want.items()
        )

    return settled(s, "collections count", lambda: counts(s), moved)
