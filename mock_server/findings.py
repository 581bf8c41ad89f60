"""The findings of one request, bounded: what the journal keeps of a request that did many things
the document does not describe (one body of 600k unknown fields must cost what 20 cost)."""

from __future__ import annotations

from typing import Any

MAX_FINDINGS = 20  # findings kept per request; past them, one `more_findings` says how many more


class Findings(list[dict[str, Any]]):
    """The findings of one request (`scope[FINDINGS]`): the first MAX_FINDINGS are kept, the
    others only counted (`more`), so the work and the memory of a request with a million of them
    stay those of MAX_FINDINGS."""

    __slots__ = ("more",)

    def __init__(self) -> None:
        super().__init__()
        self.more = 0

    @property
    def full(self) -> bool:
        """Whether a new finding would only be counted: a caller may then skip building it."""
        return len(self) >= MAX_FINDINGS

    def append(self, item: dict[str, Any]) -> None:
        if len(self) < MAX_FINDINGS:
            super().append(item)
        else:
            self.more += 1

    def extend(self, items: Any) -> None:
        counted = items.more if isinstance(items, Findings) else 0  # those another list only counted
        items = list(items) if not isinstance(items, (list, tuple)) else items
        room = MAX_FINDINGS - len(self)
        if room > 0:
            super().extend(items[:room])
        self.more += max(0, len(items) - max(room, 0)) + counted

    def clear(self) -> None:
        super().clear()
        self.more = 0
