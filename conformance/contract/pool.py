"""The ids a run may name, by kind: what it made (live, and deleted for 404s) and the given accounts."""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from typing import Any


def as_id(value: Any) -> int | None:
    """An id as the document writes one: a positive integer, or its digits in a path or a form."""
    if type(value) is int and value >= 1:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and int(value) >= 1:
        return int(value)
    return None


def id_like(value: Any) -> bool:
    """Could a lenient server read an id out of this value? (True as 1, 5.7 as 5, "5abc" as 5.)

    The safety mapping replaces every such value it does not own, not only clean ids: a write
    must not reach a stranger's record through a server's loose parsing (int(5.7), parseInt).
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return math.isfinite(value) and value >= 1
    return isinstance(value, str) and re.search(r"[1-9]", value) is not None


@dataclass
class Pool:
    """Ids the run may name, by kind: what it made (live, and deleted for 404s), and the given accounts."""

    live: dict[str, list[int]] = field(default_factory=dict)
    dead: dict[str, list[int]] = field(default_factory=dict)
    fixed: dict[str, list[int]] = field(default_factory=dict)
    scope: set[tuple[str, int]] | None = None  # the stateful phase: only what it made itself
    only: dict[str, set[int]] = field(default_factory=dict)  # a DELETE operation: only fresh ones

    def add(self, kind: str, ident: int) -> None:
        ids = self.live.setdefault(kind, [])
        if ident not in ids:
            ids.append(ident)
        if self.scope is not None:
            self.scope.add((kind, ident))

    def kill(self, kind: str, ident: int) -> None:
        if ident in self.live.get(kind, []):
            self.live[kind].remove(ident)
            self.dead.setdefault(kind, []).append(ident)

    def allowed(self, kind: str, ident: int) -> bool:
        """May a request name this id as it is: the run made it (in this phase), or it was given?"""
        if kind in self.fixed:
            return ident in self.fixed[kind]
        if kind in self.only:
            return ident in self.only[kind]
        if self.scope is not None:
            return (kind, ident) in self.scope
        return ident in self.live.get(kind, []) or ident in self.dead.get(kind, [])

    def candidates(self, kind: str, *, dead: bool = True) -> list[int]:
        if kind in self.fixed:
            return list(self.fixed[kind])
        live = [i for i in self.live.get(kind, []) if self.allowed(kind, i)]
        gone = [i for i in self.dead.get(kind, []) if self.allowed(kind, i)]
        return live * 3 + (gone[-2:] if dead else [])

    def pick(self, kind: str, value: Any, *, dead: bool = True) -> int | None:
        """The pool's id standing for a generated one (the same for the same value)."""
        options = self.candidates(kind, dead=dead)
        if not options:
            return None
        digest = hashlib.sha256(repr(value).encode()).digest()
        return options[int.from_bytes(digest[:4], "big") % len(options)]


class Rejected(Exception):
    """A drawn request would name something the run did not create: it is not sent."""
