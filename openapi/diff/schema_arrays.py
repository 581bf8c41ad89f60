"""Schema rules for arrays: `items` (the whole array in 3.0; after `prefixItems` in 3.1), `prefixItems`
position by position, `contains` with `minContains`/`maxContains`, and `unevaluatedItems`.
(minItems, maxItems and uniqueItems are bounds and flags, schemas.py.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .model import Effect, Finding
from .schema_parts import additional, at, first, subschema
from .sides import View, list_

if TYPE_CHECKING:
    from .schemas import Schemas


def items(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """Each position: its `prefixItems` schema if it has one, else `items` (the rest of the array)."""
    old_prefix, old_ptr = first(old, "prefixItems")
    new_prefix, new_ptr = first(new, "prefixItems")
    old_prefix, new_prefix = list_(old_prefix), list_(new_prefix)
    before, after = s.sub(s.old, old, "items"), s.sub(s.new, new, "items")
    for index in range(max(len(old_prefix), len(new_prefix))):
        at_old = s.old.view(old_prefix[index], f"{old_ptr}/{index}") if index < len(old_prefix) else before
        at_new = s.new.view(new_prefix[index], f"{new_ptr}/{index}") if index < len(new_prefix) else after
        yield from s.compare(at_old, at_new)
    if before or after:
        yield from s.compare(before, after)


def _count(view: View, keyword: str, default: Any) -> Any:
    value = first(view, keyword)[0]
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def contains(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """`contains` only constrains; `minContains` (1 by default) and `maxContains` bound how many match."""
    yield from subschema(s, old, new, "contains", "contains-changed")
    old_has, new_has = first(old, "contains")[1] is not None, first(new, "contains")[1] is not None
    if not (old_has and new_has):
        return  # added or removed as a whole: reported above
    for keyword, default, lower in (("minContains", 1, True), ("maxContains", None, False)):
        before, after = _count(old, keyword, default), _count(new, keyword, default)
        if before == after:
            if first(old, keyword)[0] != first(new, keyword)[0]:  # the default written out, or dropped
                message = f"{keyword} {before} written as {first(new, keyword)[0] or 'the default'}"
                yield Finding(at(old, new, keyword), "contains-changed", message, Effect.NEUTRAL)
            continue
        if lower:
            tighter = after > before
        else:
            tighter = before is None or (after is not None and after < before)
        message = f"{keyword} changed from {before} to {after}"
        yield Finding(
            at(old, new, keyword), "contains-changed", message, Effect.TIGHTEN if tighter else Effect.LOOSEN
        )


def unevaluated(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    (before, old_schema, old_ptr), (after, new_schema, new_ptr) = (
        additional(old, "unevaluatedItems"),
        additional(new, "unevaluatedItems"),
    )
    if before == after == "schema":
        yield from s.compare(s.old.view(old_schema, old_ptr or ""), s.new.view(new_schema, new_ptr or ""))
    elif before != after:
        order = {"closed": 0, "schema": 1, "open": 2}
        effect = Effect.TIGHTEN if order[after] < order[before] else Effect.LOOSEN
        where = new_ptr or old_ptr or ""
        yield Finding(where, "items-changed", f"unevaluatedItems changed from {before} to {after}", effect)
