"""What lies outside the operations: the document's own keys (info, servers, tags, externalDocs,
jsonSchemaDialect, extensions), the keys of path items (summary, servers...), and components that no
operation, webhook or callback reaches. Each difference is one change at its pointer, under the
pseudo-operation `document` (a path item's: under its path), never silence.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..refs import MISSING, at, esc, parts_of, pointer
from ..walk import Operation, PathItem, callbacks, path_items, shape, webhooks
from .model import Change, Classification, Direction, Finding
from .op_keys import BUNDLE, TABLES, Pair, compare_keys, extension, resolved
from .reasons import reason
from .sides import Side, dict_, local_refs

DOCUMENT = "document"
UNUSED = "no operation, webhook or callback reaches it: no request or answer on the wire changes"


def changes(old: Side, new: Side) -> list[Change]:
    """The document-level changes (see the module docstring), in pointer order."""
    sides = (old, new)
    found: list[tuple[str, Finding]] = []
    pair = Pair(old.data, new.data, "", "", sides)
    found.extend((DOCUMENT, finding) for finding in compare_keys("document", pair))
    components = Pair(
        dict_(old.data.get("components")),
        dict_(new.data.get("components")),
        "/components",
        "/components",
        sides,
    )
    found.extend((DOCUMENT, finding) for finding in compare_keys("components", components))
    found.extend((DOCUMENT, finding) for finding in _paths_extensions(sides))
    found.extend((DOCUMENT, finding) for finding in _root_security(sides, pair))
    found.extend(_path_items(sides))
    found.extend((DOCUMENT, finding) for finding in _unused(sides))
    return [_change(label, finding) for label, finding in found]


def _change(label: str, finding: Finding) -> Change:
    classification = finding.fixed or Classification.COMPATIBLE
    why = reason(finding, Direction.REQUEST, classification, "")
    return Change(
        label, "", "", finding.pointer, finding.rule, finding.message, classification, "request", why
    )


def _root_security(sides: tuple[Side, Side], pair: Pair) -> Iterator[Finding]:
    """The document's `security` is compared in each operation that inherits it; when none does, a
    change to it reaches no request: said, not silent."""
    inherits = any(
        "security" not in operation.node for side in sides for operation in _all_operations(side.data)
    )
    if not inherits and pair.differs("security"):
        why = "no operation inherits the document's security (each states its own): no request changes"
        yield Finding(
            pair.at("security"),
            "unused-component-changed",
            "`security` changed",
            fixed=Classification.COMPATIBLE,
            why=why,
        )


def _paths_extensions(sides: tuple[Side, Side]) -> Iterator[Finding]:
    """`x-*` keys of `paths` and `webhooks`: extensions there, not paths (walk skips them)."""
    for kind in ("paths", "webhooks"):
        before, after = (dict_(side.data.get(kind)) for side in sides)
        pair = Pair(before, after, f"/{kind}", f"/{kind}", sides)
        for name in sorted(k for k in before.keys() | after.keys() if str(k).startswith("x-")):
            if pair.differs(name):
                yield extension(pair, name)


def _path_items(sides: tuple[Side, Side]) -> Iterator[tuple[str, Finding]]:
    """The keys of path items matched by path shape (webhooks: by name) other than their operations."""
    old, new = sides
    for kind in ("paths", "webhooks"):
        before, after = _items(old, kind), _items(new, kind)
        for key in sorted(before.keys() & after.keys()):
            old_item, new_item = before[key], after[key]
            pair = Pair(old_item.node, new_item.node, pointer(old_item.parts), pointer(new_item.parts), sides)
            label = new_item.path if kind == "paths" else f"WEBHOOK {new_item.path}"
            for finding in compare_keys("path-item", pair):
                yield label, finding
            # keys written beside a path item's `$ref` (3.1: summary, description)
            written = [
                dict_(dict_(side.data.get(kind)).get(item.path))
                for side, item in zip(sides, (old_item, new_item), strict=True)
            ]
            if any("$ref" in node for node in written):
                beside = [
                    {k: v for k, v in node.items() if k != "$ref"} if "$ref" in node else {}
                    for node in written
                ]
                sites = [pointer((kind, item.path)) for item in (old_item, new_item)]
                for finding in compare_keys(
                    "path-item", Pair(beside[0], beside[1], sites[0], sites[1], sides)
                ):
                    yield label, finding


def _items(side: Side, kind: str) -> dict[str, PathItem]:
    if kind == "paths":
        return {shape(item.path): item for item in path_items(side.data) if not item.path.startswith("x-")}
    return {op.item.path: op.item for op in webhooks(side.data)}


# --------------------------------------------------------------------------------------------------
# Components nobody reaches


def _unused(sides: tuple[Side, Side]) -> Iterator[Finding]:
    reached = reachable(sides[0]) | reachable(sides[1])
    yield from _unused_files(sides, targets(sides[0]) | targets(sides[1]))
    before, after = (dict_(side.data.get("components")) for side in sides)
    for kind in sorted(set(TABLES["components"]) & (before.keys() | after.keys())):
        old_kind, new_kind = dict_(before.get(kind)), dict_(after.get(kind))
        pair = Pair(old_kind, new_kind, f"/components/{kind}", f"/components/{kind}", sides)
        for name in sorted(old_kind.keys() | new_kind.keys(), key=str):
            ptr = f"/components/{kind}/{esc(name)}"
            if ptr in reached or not pair.differs(name):
                continue
            state = "added" if name not in old_kind else "removed" if name not in new_kind else "changed"
            message = f"unused component {kind}/{name} {state}"
            yield Finding(
                ptr, "unused-component-changed", message, fixed=Classification.COMPATIBLE, why=UNUSED
            )


def _unused_files(sides: tuple[Side, Side], reached: set[str]) -> Iterator[Finding]:
    """The parts of bundled files (multi-file documents) that no `$ref` reaches, where they differ."""
    before, after = (side.data.get(BUNDLE, MISSING) for side in sides)
    yield from _unreached(before, after, f"/{BUNDLE}", reached, sides)


def _unreached(
    old: Any, new: Any, ptr: str, reached: set[str], sides: tuple[Side, Side]
) -> Iterator[Finding]:
    if ptr in reached:
        return  # a `$ref` target: compared where it is reached
    if not any(target.startswith(ptr + "/") for target in reached):
        if resolved(old, sides[0]) != resolved(new, sides[1]):
            state = "added" if old is MISSING else "removed" if new is MISSING else "changed"
            message = f"a part of a file no reference reaches {state}"
            yield Finding(
                ptr, "unused-component-changed", message, fixed=Classification.COMPATIBLE, why=UNUSED
            )
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(old.keys() | new.keys(), key=str):
            yield from _unreached(
                old.get(key, MISSING), new.get(key, MISSING), f"{ptr}/{esc(key)}", reached, sides
            )


def targets(side: Side) -> set[str]:
    """Every pointer a `$ref` reaches from paths, webhooks and callbacks (and from what they reach)."""
    if "targets" not in side.memo:  # asked for twice per side (unused components, unused files)
        side.memo["targets"] = _targets(side.data)
    found: set[str] = side.memo["targets"]
    return found


def _targets(data: dict[str, Any]) -> set[str]:
    roots = {key: value for key, value in data.items() if key not in ("components", BUNDLE)}
    seen: set[str] = set()
    met: set[str] = set()  # the `$ref` texts already followed (most are written many times)
    todo = list(local_refs(roots))
    while todo:
        ref = todo.pop()
        if ref in met:
            continue
        met.add(ref)
        parts = parts_of(ref.partition("#")[2])
        target = pointer(parts) if parts is not None else ""
        if parts is None or target in seen:
            continue
        seen.add(target)
        todo.extend(local_refs(at(data, target)))
    return seen


def reachable(side: Side) -> set[str]:
    """The components (`/components/KIND/NAME`) reached from paths, webhooks and callbacks: by `$ref`,
    and the security schemes their requirements name."""
    found = set()
    for target in targets(side):
        parts = parts_of(target)
        if parts and len(parts) >= 3 and parts[0] == "components":
            found.add(pointer(parts[:3]))
    data = side.data
    for operation in _all_operations(data):
        requirements, _ = side.security(operation)
        for requirement in requirements:
            found.update(f"/components/securitySchemes/{esc(name)}" for name in dict_(requirement))
    return found


def _all_operations(data: dict[str, Any]) -> Iterator[Operation]:
    from ..walk import operations

    pending = [*operations(data), *webhooks(data)]
    while pending:
        operation = pending.pop()
        yield operation
        pending.extend(op for _, op in callbacks(data, operation))
