"""Full-text search: an inverted index from terms to documents with weighted term counts.

Documents are collections, items and comments, keyed ("collection", id) and so on. The
store puts a document again whenever its text changes, moves it when its item changes
collection and drops it when it goes, so a query touches only the postings of its terms,
never every item.

A term's postings are grouped by the collection the document lies in: a search skips a
whole collection the caller may not see with one look-up, so its cost follows what the
caller sees, not the size of the store. Each posting holds the document's entry, ready
to rank: (score, created_at timestamp, kind rank, id).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Key = tuple[str, int]
Entry = tuple[float, float, int, int]  # score, created_at timestamp, KIND_RANK, id: ranks as it sorts
Groups = dict[int, dict[Key, Entry]]  # collection id -> document -> entry
KINDS = ("collection", "item", "comment", "reaction")
KIND_RANK = {kind: rank for rank, kind in enumerate(KINDS)}  # ties within a second: made later
_WORD = re.compile(r"\w+", re.UNICODE)

# name counts more than the rest (issue 4: "name weighted higher")
NAME_WEIGHT, TEXT_WEIGHT = 3.0, 1.0


def terms(text: str | None) -> list[str]:
    return _WORD.findall(text.casefold()) if text else []


class SearchIndex:
    def __init__(self) -> None:
        self._postings: dict[str, Groups] = {}
        self._docs: dict[Key, tuple[int, tuple[str, ...]]] = {}  # document -> (its group, its terms)
        self.version = 0  # counts changes: what was derived from the postings knows when it is stale

    def put(self, key: Key, group: int, created: float, weighted: Iterable[tuple[str | None, float]]) -> None:
        """Index `key` in `group` with its texts, each counted `weight` times per occurrence."""
        self.version += 1
        if key in self._docs:
            self.drop(key)
        scores: dict[str, float] = {}  # a plain dict: Counter is slower on texts this short
        for text, weight in weighted:
            if text:
                for term in _WORD.findall(text.casefold()):
                    scores[term] = scores.get(term, 0.0) + weight
        postings, rank, number = self._postings, KIND_RANK[key[0]], key[1]
        # building `large` does this a million times: one dict look-up per level where it can
        for term, score in scores.items():
            groups = postings.get(term)
            if groups is None:
                groups = postings[term] = {}
            docs = groups.get(group)
            if docs is None:
                docs = groups[group] = {}
            docs[key] = (score, created, rank, number)
        self._docs[key] = (group, tuple(scores))

    def drop(self, key: Key) -> None:
        self.version += 1
        group, held = self._docs.pop(key, (0, ()))
        for term in held:
            groups = self._postings[term]
            docs = groups[group]
            del docs[key]
            if not docs:
                del groups[group]
                if not groups:
                    del self._postings[term]

    def move(self, key: Key, group: int) -> None:
        """The document now lies in `group` (its item moved); its text is unchanged."""
        old, held = self._docs.get(key, (group, ()))
        if old == group:
            return
        self.version += 1
        for term in held:
            groups = self._postings[term]
            docs = groups[old]
            entry = docs.pop(key)
            if not docs:
                del groups[old]
            groups.setdefault(group, {})[key] = entry
        self._docs[key] = (group, held)

    def query(self, q: str) -> Groups:
        """Per group, the documents holding every term of q, their scores summed.

        Read-only: for a one-term query it is the index's own postings, not a copy.
        """
        wanted = list(dict.fromkeys(terms(q)))
        if not wanted:
            return {}
        postings = sorted((self._postings.get(t, {}) for t in wanted), key=len)
        if len(postings) == 1:
            return postings[0]
        found: Groups = {}
        for group, docs in postings[0].items():
            others = [p.get(group) for p in postings[1:]]
            if None in others:
                continue
            merged = {}
            for key, (score, *rest) in docs.items():
                for other in others:
                    entry = other.get(key)  # type: ignore[union-attr]
                    if entry is None:
                        break
                    score += entry[0]
                else:
                    merged[key] = (score, *rest)
            if merged:
                found[group] = merged  # type: ignore[assignment]
        return found
