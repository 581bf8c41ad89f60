"""Schema rules for unions and conditions: `oneOf`/`anyOf` branches, `not`, `if`/`then`/`else`, and
`discriminator`.

Branches are compared by content: the same branches in another order are the same; a changed one
is paired with the old branch it replaces. A branch added or removed is judged by what it shares
with the others (`relation`):

- `anyOf`: a branch added (or removed) whose values another branch already allows changes nothing;
  any other added branch only adds values (loosen), a removed one only takes them away (tighten).
- `oneOf`: a branch added that no other can hold a payload of (other types, disjoint enums, a
  required property with disjoint values, a closed object without a property the other requires)
  only adds values; one inside another (every payload of it also matches the other) only takes
  values away (those now match two); one around another does both; when the rules cannot tell,
  both and *undecided* (the payload proof may show a payload).

A branch that only allows null is the nullable marker, not a branch (Side.view), so a schema wrapped
into `oneOf: [{type: 'null'}, X]` is compared with X itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .model import Classification, Effect, Finding
from .schema_parts import additional, admits_null, at, enum, first, overlap, properties, required, types
from .sides import Side, View, canon, dict_

if TYPE_CHECKING:
    from .schemas import Schemas

_SUBSUMED = "every payload of the {what} alternative was already valid under another one: nothing changes"


def one_of(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from _alternatives(s, old, new, "oneOf")


def any_of(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from _alternatives(s, old, new, "anyOf")


def _branches(side: Side, view: View, keyword: str) -> tuple[list[tuple[int, Any]], str]:
    """The compared branches of the first part with `keyword` (index, schema), and its pointer."""
    for node, ptr in view:
        if keyword in node:
            return [(i, node[keyword][i]) for i in side.unions(node, keyword)], f"{ptr}/{keyword}"
    return [], ""


def _alternatives(s: Schemas, old: View, new: View, keyword: str) -> Iterator[Finding]:
    """The same branches in any order are the same; the others are paired in order."""
    before, old_ptr = _branches(s.old, old, keyword)
    after, new_ptr = _branches(s.new, new, keyword)
    new_prints = {j: s.new.fingerprint(node) for j, node in after}
    unmatched_new = [j for j, _ in after]
    unmatched_old = []
    for i, node in before:
        old_print = s.old.fingerprint(node)
        twin = next((j for j in unmatched_new if new_prints[j] == old_print), None)
        if twin is None:
            unmatched_old.append(i)
        else:
            unmatched_new.remove(twin)
    old_views = {i: s.old.view(node, f"{old_ptr}/{i}") for i, node in before}
    new_views = {j: s.new.view(node, f"{new_ptr}/{j}") for j, node in after}
    for i, j in zip(unmatched_old, unmatched_new, strict=False):
        yield from s.compare(old_views[i], new_views[j])
    for j in unmatched_new[len(unmatched_old) :]:
        yield _added(s, keyword, j, f"{new_ptr}/{j}", new_views)
    for i in unmatched_old[len(unmatched_new) :]:
        yield _removed(s, keyword, i, f"{old_ptr}/{i}", old_views)


def _added(s: Schemas, keyword: str, index: int, where: str, views: dict[int, View]) -> Finding:
    message = f"{keyword} alternative {index} added"
    relations = [relation(s, s.new, views[index], view) for j, view in views.items() if j != index]
    if keyword == "anyOf":
        if "inside" in relations or "equal" in relations:
            return Finding(where, "alternative-added", message, why=_SUBSUMED.format(what="new"))
        return Finding(where, "alternative-added", message, Effect.LOOSEN)
    if all(r == "disjoint" for r in relations):
        message += " (no other alternative can hold a payload of it)"
        return Finding(where, "alternative-added", message, Effect.LOOSEN)
    if "inside" in relations or "equal" in relations:
        message += (
            ": its payloads also match another alternative, and oneOf refuses a payload that matches two"
        )
        return Finding(where, "alternative-added", message, Effect.TIGHTEN)
    message += ": a payload may now match it and another one, which oneOf refuses"
    return Finding(where, "alternative-added", message, Effect.BOTH, undecided="around" not in relations)


def _removed(s: Schemas, keyword: str, index: int, where: str, views: dict[int, View]) -> Finding:
    message = f"{keyword} alternative {index} removed"
    relations = [relation(s, s.old, views[index], view) for i, view in views.items() if i != index]
    if "inside" in relations or "equal" in relations:
        if keyword == "anyOf":
            return Finding(where, "alternative-removed", message, why=_SUBSUMED.format(what="removed"))
        message += " (its payloads also matched another alternative, which oneOf refused)"
        return Finding(where, "alternative-removed", message, Effect.LOOSEN)
    return Finding(where, "alternative-removed", message, Effect.TIGHTEN)


def relation(s: Schemas, side: Side, mine: View, other: View) -> str:
    """How two schemas of one document share payloads: "equal", "inside" (every payload of `mine` is
    valid under `other`), "around" (the reverse), "disjoint" (none in common) or "unknown"."""
    if disjoint(side, mine, other):
        return "disjoint"
    within = s.same_side(side)
    inside, around = _subset(within.compare(other, mine)), _subset(within.compare(mine, other))
    return "equal" if inside and around else "inside" if inside else "around" if around else "unknown"


def _subset(findings: list[Finding]) -> bool:
    """Whether the findings from A to B say B accepts no value A refuses."""
    return all(
        finding.effect in (Effect.TIGHTEN, Effect.NEUTRAL, Effect.OBLIGATION, Effect.MEANING)
        and not finding.undecided
        and finding.fixed is not Classification.BREAKING
        for finding in findings
    )


def disjoint(side: Side, left: View, right: View, depth: int = 0) -> bool:
    """Whether no payload is valid under both (decided by the rules below; False when unsure)."""
    if admits_null(left) and admits_null(right):
        return False
    left_types, right_types = types(left), types(right)
    if left_types is not None and right_types is not None and not overlap(left_types, right_types):
        return True
    left_enum, right_enum = enum(left), enum(right)
    if left_enum is not None and right_enum is not None and not left_enum.keys() & right_enum.keys():
        return True
    objects = {"object"} in (left_types, right_types)
    if not objects or depth > 2:
        return False
    return _closed_apart(left, right) or _closed_apart(right, left) or _keys_apart(side, left, right, depth)


def _closed_apart(closed: View, other: View) -> bool:
    """`closed` allows no property `other` requires (an object of `other` breaks `closed`)."""
    if additional(closed)[0] != "closed" or types(other) != {"object"}:
        return False
    if first(closed, "patternProperties")[0]:
        return False  # names the patterns match are allowed too
    allowed = properties(closed)
    return any(name not in allowed for name in required(other))


def _keys_apart(side: Side, left: View, right: View, depth: int) -> bool:
    """A property both require, whose values cannot be the same (a discriminating `kind`)."""
    left_props, right_props = properties(left), properties(right)
    for name in required(left).keys() & required(right).keys():
        if name in left_props and name in right_props:
            left_view = tuple(p for node, ptr in left_props[name] for p in side.view(node, ptr))
            right_view = tuple(p for node, ptr in right_props[name] for p in side.view(node, ptr))
            if disjoint(side, left_view, right_view, depth + 1):
                return True
    return False


def not_(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    before, _ = first(old, "not")
    after, _ = first(new, "not")
    if before is None and after is None:
        return
    if before is not None and after is not None and s.old.fingerprint(before) == s.new.fingerprint(after):
        return
    where = at(old, new, "not")
    if before is None:
        yield Finding(where, "not-changed", "`not` added: payloads matching it are refused", Effect.TIGHTEN)
    elif after is None:
        yield Finding(where, "not-changed", "`not` removed", Effect.LOOSEN)
    else:
        yield Finding(where, "not-changed", "`not` changed", Effect.BOTH, undecided=True)


def conditional(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """if/then/else: with the same `if`, `then` and `else` are compared inside (each constrains only
    the payloads its side of the `if` selects); a changed `if` cannot be judged by the rules."""
    before, after = first(old, "if"), first(new, "if")
    where = at(old, new, "if", "then", "else")
    if before[1] is None and after[1] is None:
        return  # then/else without if mean nothing
    if before[1] is None:
        yield Finding(where, "conditional-changed", "if/then/else added", Effect.TIGHTEN)
        return
    if after[1] is None:
        yield Finding(where, "conditional-changed", "if/then/else removed", Effect.LOOSEN)
        return
    if s.old.fingerprint(before[0]) != s.new.fingerprint(after[0]):
        message = "the `if` of if/then/else changed"
        yield Finding(where, "conditional-changed", message, Effect.BOTH, undecided=True)
        return
    for keyword in ("then", "else"):
        was, now = s.sub(s.old, old, keyword), s.sub(s.new, new, keyword)
        if was or now:
            yield from s.compare(was, now)


def discriminator(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    """Readers pick the branch by the discriminator: added, the property now decides (tighten);
    removed, readers that relied on it cannot (loosen); changed, both."""
    before, after = _discriminator(s.old, old), _discriminator(s.new, new)
    if before == after:
        return
    where = at(old, new, "discriminator")
    if before is None:
        yield Finding(where, "discriminator-changed", "discriminator added", Effect.TIGHTEN)
    elif after is None:
        yield Finding(where, "discriminator-changed", "discriminator removed", Effect.LOOSEN)
    else:
        yield Finding(where, "discriminator-changed", "discriminator changed", Effect.BOTH)


def _discriminator(side: Side, view: View) -> str | None:
    """The discriminator's meaning: its property and where each value leads (by content)."""
    value, _ = first(view, "discriminator")
    if not isinstance(value, dict):
        return None
    mapping = {
        str(key): side.fingerprint({"$ref": target}) if isinstance(target, str) else canon(target)
        for key, target in dict_(value.get("mapping")).items()
    }
    return canon({"propertyName": value.get("propertyName"), "mapping": mapping})
