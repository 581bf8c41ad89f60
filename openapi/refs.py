"""JSON pointers and the one `$ref` resolver of the linter, the diff and the mock.

A `$ref` chain is followed until a node that is not a reference; a chain that loops, or a link
that points nowhere, stops where it breaks and says why (`Chased.why`), so every reader decides
for itself: the linter reports it, the diff compares the reference as written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import unquote, urldefrag, urljoin, urlparse

Parts = tuple[str | int, ...]
MISSING: Final[Any] = object()
LOOP: Final = "loop"


def esc(part: str | int) -> str:
    """One pointer token, escaped (without its slash)."""
    return str(part).replace("~", "~0").replace("/", "~1")


def pointer(parts: Iterable[str | int]) -> str:
    """RFC 6901 pointer from path parts: `("paths", "/v1/items", "get")` -> `/paths/~1v1~1items/get`."""
    return "".join("/" + esc(part) for part in parts)


def parts_of(fragment: str) -> Parts | None:
    """Path parts of a URI fragment holding a JSON pointer; None when it is not a pointer."""
    fragment = unquote(fragment)
    if fragment == "":
        return ()
    if not fragment.startswith("/"):
        return None
    return tuple(token.replace("~1", "/").replace("~0", "~") for token in fragment[1:].split("/"))


def follow(node: Any, parts: Iterable[str | int]) -> Any:
    """The value at `parts` below `node`, or `MISSING`."""
    for part in parts:
        if isinstance(node, dict) and str(part) in node:
            node = node[str(part)]
        elif isinstance(node, list) and str(part).isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
    return node


def at(node: Any, ptr: str) -> Any:
    """The value at the JSON pointer `ptr` below `node`, or `MISSING`."""
    parts = parts_of(ptr)
    return MISSING if parts is None else follow(node, parts)


@dataclass(frozen=True)
class Chased:
    """Where a `$ref` chain ended: the node (the last reference when it broke), its pointer, why it broke."""

    node: Any
    where: str
    why: str | None = None


class Resolver:
    """`$ref`s of one document: local ones, and with `uri` and `load_file` other files beside it."""

    def __init__(
        self,
        document: Any,
        uri: str | None = None,
        load_file: Callable[[str], Any] | None = None,
    ) -> None:
        self.document, self.uri, self.load_file = document, uri, load_file

    def lookup(self, ref: Any) -> tuple[Any, str, str | None]:
        """(target, its location, None) for a resolvable `$ref` value, else (`MISSING`, "", why not).

        The location is a pointer into this document, or `uri#pointer` for another file.
        """
        if not isinstance(ref, str):
            return MISSING, "", f"$ref must be a string, not {type(ref).__name__}"
        base = self.uri or ""
        uri, fragment = urldefrag(urljoin(base, ref))
        local = uri == base
        if not local and (self.load_file is None or urlparse(uri).scheme != "file"):
            return MISSING, "", f"remote reference {ref!r} is not supported"
        parts = parts_of(fragment)
        if parts is None:
            return MISSING, "", f"fragment of {ref!r} is not a JSON pointer"
        document = self.document
        if not local and self.load_file is not None:
            try:
                document = self.load_file(uri)
            except Exception as exc:  # the file's loader says why
                return MISSING, "", f"cannot load the file of {ref!r}: {exc}"
        target = follow(document, parts)
        if target is MISSING:
            return MISSING, "", f"{ref!r} points to nothing"
        return target, pointer(parts) if local else f"{uri}#{pointer(parts)}", None

    def chase(self, node: Any, where: str = "") -> Chased:
        """`node` (found at `where`) with its chain of `$ref`s followed."""
        seen: set[str] = set()
        while isinstance(node, dict) and "$ref" in node:
            ref = node["$ref"]
            if isinstance(ref, str) and ref in seen:
                return Chased(node, where, LOOP)
            target, location, why = self.lookup(ref)
            if why is not None:
                return Chased(node, where, why)
            seen.add(ref)
            node, where = target, location
        return Chased(node, where)

    def deref(self, node: Any) -> Any:
        """`node` with its `$ref` chain followed; `MISSING` when a link is broken or loops."""
        chased = self.chase(node)
        return MISSING if chased.why is not None else chased.node
