"""greenery's internals that `csapi diff` (openapi/diff/regex.py) replaces, behind one door.

greenery 4.2 builds every automaton through `fsm.crawl`, which looks states up in a list (quadratic),
and `Fsm.reversed` (called twice by `reduce` after each operation) scans every state for each
predecessor (cubic): `[a-z]{1,64}` takes 0.3 s, `{1,128}` several seconds. `faster(check)` swaps
both for equivalents with the same results (a dict index, an inverse map) that also call `check`
for each state built, so a caller can refuse past a time budget. Both names are undocumented.
"""

from __future__ import annotations

from . import require

require("greenery", "4.2", "4.3")  # before the imports below can fail in another release

import functools  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from greenery import Fsm, fsm  # noqa: E402

__all__ = ["faster"]

_check: Callable[[], None] = lambda: None  # noqa: E731  # replaced by `faster`


def faster(check: Callable[[], None]) -> None:
    """Install the faster `crawl` and `reversed` (once), calling `check` for each state built."""
    global _check
    _check = check
    _install()


@functools.cache
def _install() -> None:
    fsm.crawl = _crawl
    fsm.Fsm.reversed = _reversed


def _crawl(
    alphabet: Any, initial: Any, final: Callable[[Any], bool], follow: Callable[[Any, Any], Any]
) -> Fsm:
    def key(state: Any) -> Any:  # `parallel` crawls dicts {machine: state}, `star` sets
        if isinstance(state, dict):
            return tuple(state.items())
        return frozenset(state) if isinstance(state, set) else state

    states, index = [initial], {key(initial): 0}
    finals: set[int] = set()
    transitions: dict[int, dict[Any, int]] = {}
    symbols = sorted(alphabet)
    for number, state in enumerate(states):  # the list grows while it is read
        _check()
        if final(state):
            finals.add(number)
        transitions[number] = row = {}
        for symbol in symbols:
            target = follow(state, symbol)
            found = index.setdefault(key(target), len(states))
            if found == len(states):
                states.append(target)
            row[symbol] = found
    return Fsm(alphabet=alphabet, states=range(len(states)), initial=0, finals=finals, map=transitions)


def _reversed(self: Fsm) -> Fsm:
    before: dict[tuple[Any, Any], list[Any]] = {}
    for state, row in self.map.items():
        for symbol, target in row.items():
            before.setdefault((symbol, target), []).append(state)

    def follow(current: frozenset[Any], symbol: Any) -> frozenset[Any]:
        return frozenset(state for target in current for state in before.get((symbol, target), ()))

    return _crawl(self.alphabet, frozenset(self.finals), lambda states: self.initial in states, follow)
