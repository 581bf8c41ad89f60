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

import bisect
import re
from collections.abc import Iterable, Sequence

Key = tuple[str, int]
Entry = tuple[float, float, int, int]  # score, created_at timestamp, KIND_RANK, id: ranks as it sorts
Groups = dict[int, dict[Key, Entry]]  # collection id -> document -> entry
KINDS = ("collection", "item", "comment", "reaction")
KIND_RANK = {kind: rank for rank, kind in enumerate(KINDS)}  # ties within a second: made later
_WORD = re.compile(r"\w+", re.UNICODE)

# name counts more than the rest (issue 4: "name weighted higher")
NAME_WEIGHT, TEXT_WEIGHT = 3.0, 1.0
RANK_FROM = 64  # a group of a term with this many documents is kept ranked once searched (`best`)
MAX_RANKED = 4096  # at most this many kept rankings (dropped together when past it)


def terms(text: str | None) -> list[str]:
    return _WORD.findall(text.casefold()) if text else []


class SearchIndex:
    def __init__(self) -> None:
        self._postings: dict[str, Groups] = {}
        self._docs: dict[Key, tuple[int, tuple[str, ...]]] = {}  # document -> (its group, its terms)
        # term -> group -> its entries in ascending order: made by `best` for a large group,
        # then kept up to date by put, drop and move (an insort each), so a one-word search
        # reads its page off the end instead of ranking every match
        self._ranked: dict[str, dict[int, list[Entry]]] = {}
        self._ranked_count = 0
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
            entry = docs[key] = (score, created, rank, number)
            ranked = self._ranked.get(term)
            if ranked is not None and group in ranked:
                bisect.insort(ranked[group], entry)
        self._docs[key] = (group, tuple(scores))

    def drop(self, key: Key) -> None:
        self.version += 1
        group, held = self._docs.pop(key, (0, ()))
        for term in held:
            groups = self._postings[term]
            docs = groups[group]
            self._unrank(term, group, docs.pop(key))
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
            self._unrank(term, old, entry)
            if not docs:
                del groups[old]
            groups.setdefault(group, {})[key] = entry
            ranked = self._ranked.get(term)
            if ranked is not None and group in ranked:
                bisect.insort(ranked[group], entry)
        self._docs[key] = (group, held)

    def _unrank(self, term: str, group: int, entry: Entry) -> None:
        ranked = self._ranked.get(term)
        if ranked is None or group not in ranked:
            return
        kept = ranked[group]
        del kept[bisect.bisect_left(kept, entry)]  # entries are unique (the id is in them)
        if not kept:  # an empty group leaves the postings: so does its ranking
            del ranked[group]
            self._ranked_count -= 1
            if not ranked:
                del self._ranked[term]

    def best(self, term: str, group: int, n: int) -> Sequence[Entry]:
        """The n highest entries of `term`'s documents in `group` (all of them when it has few),
        in no particular order; `term` as `terms()` gives it."""
        docs = self._postings.get(term, {}).get(group)
        if docs is None:
            return ()
        if len(docs) < RANK_FROM:
            return list(docs.values())
        ranked = self._ranked.get(term)
        kept = ranked.get(group) if ranked is not None else None
        if kept is None:
            if self._ranked_count >= MAX_RANKED:  # a bound on memory: any old ranking may go
                self._ranked.clear()
                self._ranked_count = 0
            kept = self._ranked.setdefault(term, {})[group] = sorted(docs.values())
            self._ranked_count += 1
        return kept[-n:] if n > 0 else ()

    def check(self) -> list[str]:
        """What disagrees between the kept rankings and the postings; [] when all is well."""
        problems = []
        for term, ranked in self._ranked.items():
            for group, kept in ranked.items():
                docs = self._postings.get(term, {}).get(group, {})
                if kept != sorted(docs.values()):
                    problems.append(f"search index: the ranking of {term!r} in {group} differs from a sort")
        if self._ranked_count != sum(map(len, self._ranked.values())):
            problems.append("search index: the count of kept rankings is off")
        return problems

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
