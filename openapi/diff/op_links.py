"""Links: how an answer leads to another call. Compared by meaning (the target operation by method
and path shape, parameters by path position), so a path parameter renamed changes no link; every
change is compatible: no request or answer on the wire changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from urllib.parse import unquote

from ..refs import at, esc
from ..walk import Operation
from .model import Finding
from .op_keys import Pair as Keys
from .op_keys import compare_keys, reference_siblings
from .sides import Side, canon, dict_

_LINKS = "links document how answers lead to other calls; no request or answer on the wire changes"


def links(
    old_side: Side,
    new_side: Side,
    old_op: Operation,
    old: dict[str, Any],
    old_ptr: str,
    new_op: Operation,
    new: dict[str, Any],
    new_ptr: str,
) -> Iterator[Finding]:
    before, after = dict_(old.get("links")), dict_(new.get("links"))
    for name in sorted(before.keys() | after.keys()):
        if name not in before:
            message = f"link {name} added"
            yield Finding(f"{new_ptr}/links/{esc(name)}", "link-added", message, why=_LINKS)
        elif name not in after:
            yield Finding(f"{old_ptr}/links/{esc(name)}", "link-removed", f"link {name} removed", why=_LINKS)
        else:
            old_site, new_site = f"{old_ptr}/links/{esc(name)}", f"{new_ptr}/links/{esc(name)}"
            old_link, old_at = old_side.deref(before[name], old_site)
            new_link, at = new_side.deref(after[name], new_site)
            for finding in reference_siblings(
                before[name], old_site, after[name], new_site, (old_side, new_side)
            ):
                yield replace(finding, message=f"link {name}: {finding.message}")
            if meaning(old_side, old_op, old_link) != meaning(new_side, new_op, new_link):
                yield Finding(at, "link-changed", f"link {name} changed (target or parameters)", why=_LINKS)
            keys = Keys(dict_(old_link), dict_(new_link), old_at, at, (old_side, new_side))
            for finding in compare_keys("link", keys):
                yield replace(finding, message=f"link {name}: {finding.message}")


def meaning(document: Side, source: Operation, link: Any) -> str:
    """A link's meaning: target operation by method and path shape, parameters by path position."""
    link = dict_(link)
    target = document.by_id.get(str(link.get("operationId")))
    if target is None and isinstance(link.get("operationRef"), str):
        node = at(document.data, unquote(link["operationRef"].partition("#")[2]))
        target = next((op for op in document.operations.values() if op.node is node), None)
    target_names = target.path_names if target else []

    def expression(value: Any) -> Any:
        if not isinstance(value, str):
            return value

        def position(match: re.Match[str]) -> str:
            name = match.group(1)
            return (
                f"$request.path.{{{source.path_names.index(name)}}}"
                if name in source.path_names
                else match.group(0)
            )

        return re.sub(r"\$request\.path\.([A-Za-z0-9_.-]+)", position, value)

    parameters = {
        (f"{{{target_names.index(name)}}}" if name in target_names else name): expression(value)
        for name, value in dict_(link.get("parameters")).items()
    }
    meaning = {
        "target": list(target.key) if target else link.get("operationId") or link.get("operationRef"),
        "parameters": parameters,
        "requestBody": expression(link.get("requestBody")),
    }
    return canon(meaning)
