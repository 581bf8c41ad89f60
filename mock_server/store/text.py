"""Full-text search: an inverted index from terms to documents with weighted term counts.

Documents are collections, items and comments, keyed ("collection", id) and so on. The
store puts a document again whenever its text changes and drops it when it goes, so a
query touches only the postings of its terms, never every item.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

Key = tuple[str, int]
_WORD = re.compile(r"\w+", re.UNICODE)

# name counts more than the rest (issue 4: "name weighted higher")
NAME_WEIGHT, TEXT_WEIGHT = 3.0, 1.0


def terms(text: str | None) -> list[str]:
    return _WORD.findall(text.casefold()) if text else []


class SearchIndex:
    def __init__(self) -> None:
        self._postings: dict[str, dict[Key, float]] = {}
        self._terms: dict[Key, tuple[str, ...]] = {}

    def put(self, key: Key, weighted: Iterable[tuple[str | None, float]]) -> None:
        """Index `key` with its texts, each counted `weight` times per occurrence of a term."""
        self.drop(key)
        scores: dict[str, float] = {}  # a plain dict: Counter is slower on texts this short
        for text, weight in weighted:
            if text:
                for term in _WORD.findall(text.casefold()):
                    scores[term] = scores.get(term, 0.0) + weight
        postings = self._postings
        for term, score in scores.items():
            posting = postings.get(term)
            if posting is None:
                postings[term] = {key: score}
            else:
                posting[key] = score
        self._terms[key] = tuple(scores)

    def drop(self, key: Key) -> None:
        for term in self._terms.pop(key, ()):
            posting = self._postings[term]
            posting.pop(key, None)
            if not posting:
                del self._postings[term]

    def query(self, q: str) -> dict[Key, float]:
        """Documents holding every term of q, with the sum of their weighted term counts.

        Read-only: for a one-term query it is the index's own posting, not a copy.
        """
        wanted = list(dict.fromkeys(terms(q)))
        if not wanted:
            return {}
        postings = sorted((self._postings.get(t, {}) for t in wanted), key=len)
        found = postings[0]
        for posting in postings[1:]:
            found = {key: score + posting[key] for key, score in found.items() if key in posting}
        return found
