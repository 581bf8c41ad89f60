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

import json
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from .model import Classification, Effect, Finding
from .normalize import LONE, SKIP
from .schema_parts import additional, admits_null, at, enum, first, overlap, properties, required, types
from .sides import Side, View, dict_, show

if TYPE_CHECKING:
    from .schemas import Schemas

_SUBSUMED = "every payload of the {what} alternative was already valid under another one: nothing changes"


def one_of(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from _alternatives(s, old, new, "oneOf")


def any_of(s: Schemas, old: View, new: View) -> Iterator[Finding]:
    yield from _alternatives(s, old, new, "anyOf")


def _branches(side: Side, view: View, keyword: str) -> tuple[list[tuple[int, Any]], str, bool]:
    """The compared branches of the first part with `keyword` (index, schema), its pointer and
    whether the union has a null-only branch; ([], "", False) when no part has the keyword."""
    for node, ptr in view:
        if keyword in node:
            branches = [(i, node[keyword][i]) for i in side.unions(node, keyword)]
            return branches, f"{ptr}/{keyword}", bool(dict_(node.get(SKIP)).get(keyword))
    return [], "", False


def _lone(view: View, keyword: str) -> tuple[list[tuple[int, Any]], str, bool]:
    """A union whose one branch the view reads as a member (`oneOf: [X]`, a nullable wrap), as
    `_branches` gives it: paired with the branches of the other side's union."""
    for node, ptr in view:
        if keyword in dict_(node.get(LONE)):
            index, branch = node[LONE][keyword]
            return [(index, branch)], f"{ptr}/{keyword}", bool(dict_(node.get(SKIP)).get(keyword))
    return [], "", False


def _alternatives(s: Schemas, old: View, new: View, keyword: str) -> Iterator[Finding]:
    """The same branches in any order are the same; the others are paired in order. A union on one
    side only is the keyword added or removed (`_union_added`, `_union_removed`)."""
    before, old_ptr, old_null = _branches(s.old, old, keyword)
    after, new_ptr, new_null = _branches(s.new, new, keyword)
    if not old_ptr:
        before, old_ptr, old_null = _lone(old, keyword)
    elif not new_ptr:
        after, new_ptr, new_null = _lone(new, keyword)
    if not old_ptr:
        views = {j: s.new.view(node, f"{new_ptr}/{j}") for j, node in after}
        yield _union_added(s, keyword, old, views, new_ptr, new_null)
        return
    if not new_ptr:
        views = {i: s.old.view(node, f"{old_ptr}/{i}") for i, node in before}
        yield _union_removed(s, keyword, new, views, old_ptr, old_null)
        return
    _, unmatched_old, unmatched_new = _pairing(s, before, after)
    old_views = {i: s.old.view(node, f"{old_ptr}/{i}") for i, node in before}
    new_views = {j: s.new.view(node, f"{new_ptr}/{j}") for j, node in after}
    for i, j in zip(unmatched_old, unmatched_new, strict=False):
        yield from s.compare(old_views[i], new_views[j])
    for j in unmatched_new[len(unmatched_old) :]:
        yield _added(s, keyword, j, f"{new_ptr}/{j}", new_views)
    for i in unmatched_old[len(unmatched_new) :]:
        yield _removed(s, keyword, i, f"{old_ptr}/{i}", old_views)


def _pairing(
    s: Schemas, before: list[tuple[int, Any]], after: list[tuple[int, Any]]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Branches paired: those of the same content (any order), then the unmatched ones in order
    (they are compared inside); returns the twins and the unmatched old and new indexes."""
    new_prints = {j: s.new.fingerprint(node) for j, node in after}
    unmatched_new = [j for j, _ in after]
    unmatched_old, twins = [], []
    for i, node in before:
        old_print = s.old.fingerprint(node)
        twin = next((j for j in unmatched_new if new_prints[j] == old_print), None)
        if twin is None:
            unmatched_old.append(i)
        else:
            unmatched_new.remove(twin)
            twins.append((i, twin))
    return twins, unmatched_old, unmatched_new


def _union_added(
    s: Schemas, keyword: str, old: View, views: dict[int, View], where: str, null: bool
) -> Finding:
    """A whole union added: values must now match its branches (tighten), unless every OLD value
    matches one branch (for oneOf, one disjoint from the others): then it refuses none of them, and
    what else changed (X moved into a branch of `oneOf: [X, Y]`) is said by the other rules."""
    cover = _covering(s, s.new, keyword, views, lambda view: _superset(s.compare(old, view), null))
    if cover is None:
        message = f"`{keyword}` added: values must now match {_HOW_MANY[keyword]} of its alternatives"
        return Finding(where, "union-changed", message, Effect.TIGHTEN)
    message = f"`{keyword}` added; every value OLD allowed matches its alternative {cover}"
    why = "no value valid under OLD is refused by the new alternatives"
    return Finding(where, "union-changed", message, Effect.NEUTRAL, why=why)


def _union_removed(
    s: Schemas, keyword: str, new: View, views: dict[int, View], where: str, null: bool
) -> Finding:
    """A whole union removed: values no longer need to match its branches (loosen), unless every
    NEW value matches one of them (for oneOf, one disjoint from the others)."""
    cover = _covering(s, s.old, keyword, views, lambda view: _subset(_relevant(s.compare(view, new), null)))
    if cover is None:
        message = (
            f"`{keyword}` removed: values no longer need to match {_HOW_MANY[keyword]} of its alternatives"
        )
        return Finding(where, "union-changed", message, Effect.LOOSEN)
    message = f"`{keyword}` removed; every value NEW allows matches its alternative {cover}"
    why = "no value refused under OLD is valid now because of the removal"
    return Finding(where, "union-changed", message, Effect.NEUTRAL, why=why)


_HOW_MANY = {"oneOf": "exactly one", "anyOf": "one or more"}


def _covering(
    s: Schemas, side: Side, keyword: str, views: dict[int, View], holds: Callable[[View], bool]
) -> int | None:
    """The branch (index) that holds every value of the other schema (`holds`); for oneOf it must
    also be disjoint from the other branches, so those values match exactly one."""
    for index, view in views.items():
        if not holds(view):
            continue
        others = [other for i, other in views.items() if i != index]
        if keyword == "anyOf" or all(relation(s, side, view, other) == "disjoint" for other in others):
            return index
    return None


def _relevant(findings: list[Finding], null: bool) -> list[Finding]:
    """Without the nullable findings when the union has a null-only branch: null is its own branch."""
    return [finding for finding in findings if not (null and finding.rule == "nullable")]


def _superset(findings: list[Finding], null: bool) -> bool:
    """Whether the findings from A to B say B accepts every value A does."""
    return all(
        finding.effect in (Effect.LOOSEN, Effect.NEUTRAL, Effect.OBLIGATION, Effect.MEANING)
        and not finding.undecided
        and finding.fixed is not Classification.BREAKING
        for finding in _relevant(findings, null)
    )


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
    removed, readers that relied on it cannot (loosen); changed (its property, a mapping value
    added or removed, or one leading to another schema), both. A mapping value leads to the same
    schema when it names the same component, one of the same content (renamed), or the branch
    paired with its old one: what that schema accepts is compared where the branch is."""
    before, after = first(old, "discriminator")[0], first(new, "discriminator")[0]
    if not isinstance(before, dict) and not isinstance(after, dict):
        return
    where = at(old, new, "discriminator")
    if not isinstance(before, dict):
        yield Finding(where, "discriminator-changed", "discriminator added", Effect.TIGHTEN)
    elif not isinstance(after, dict):
        yield Finding(where, "discriminator-changed", "discriminator removed", Effect.LOOSEN)
    else:
        difference = _discriminator_difference(s, old, new, before, after)
        if difference:
            yield Finding(where, "discriminator-changed", f"discriminator {difference}", Effect.BOTH)


def _discriminator_difference(
    s: Schemas, old: View, new: View, before: dict[str, Any], after: dict[str, Any]
) -> str:
    """What changed in the discriminator, "" when nothing did."""
    if before.get("propertyName") != after.get("propertyName"):
        return f"propertyName changed from {before.get('propertyName')} to {after.get('propertyName')}"
    was, now = dict_(before.get("mapping")), dict_(after.get("mapping"))
    if was.keys() != now.keys():
        added, removed = sorted(now.keys() - was.keys()), sorted(was.keys() - now.keys())
        return (
            "mapping changed"
            + (f", added: {show(added)}" if added else "")
            + (f", removed: {show(removed)}" if removed else "")
        )
    paired = _paired_targets(s, old, new)
    for key in sorted(was):
        source, target = _target(was[key]), _target(now[key])
        if source == target or (source, target) in paired:
            continue
        if s.old.fingerprint({"$ref": source}) != s.new.fingerprint({"$ref": target}):
            return f"mapping {json.dumps(key)} changed from {source} to {target}"
    return ""


def _target(value: Any) -> str:
    """A mapping value as a reference: a bare name is the component of that name."""
    text = str(value)
    return text if "/" in text or text.startswith("#") else f"#/components/schemas/{text}"


def _paired_targets(s: Schemas, old: View, new: View) -> set[tuple[str, str]]:
    """The references of the union branches paired with each other (`_pairing`), old and new."""
    for keyword in ("oneOf", "anyOf"):
        before, _, _ = _branches(s.old, old, keyword)
        after, _, _ = _branches(s.new, new, keyword)
        if before and after:
            twins, unmatched_old, unmatched_new = _pairing(s, before, after)
            pairs = [*twins, *zip(unmatched_old, unmatched_new, strict=False)]
            refs_old, refs_new = dict(before), dict(after)
            return {
                (str(refs_old[i]["$ref"]), str(refs_new[j]["$ref"]))
                for i, j in pairs
                if isinstance(refs_old[i], dict)
                and isinstance(refs_new[j], dict)
                and "$ref" in refs_old[i]
                and "$ref" in refs_new[j]
            }
    return set()
