"""JSON Schema patterns as sets of strings, to tell whether one pattern's strings include another's.

A JSON Schema `pattern` is an ECMA-262 regular expression that *searches* the string: unanchored
unless it starts with `^` or ends with `$`. `language(pattern)` turns it into a finite automaton
(greenery's `Fsm`) of the whole strings it accepts: a leading `^` / trailing `$` is dropped, an
unanchored side is padded with "any string"; `.` is any character but a line terminator (`\\n`,
`\\r`, U+2028, U+2029) and `\\d`, `\\w`, `\\s` are ECMA's (ASCII digits and word characters, the
Unicode white space and line terminators). `relation(old, new)` then says whether NEW accepts the
same strings as OLD, more, fewer, or others.

What cannot be an automaton (lookarounds, backreferences, word boundaries, `\\p{..}`, anchors
inside the pattern) or would cost too much (large counted repetitions, a determinisation that
blows up) gives None: the caller judges such a change undecided. greenery is imported only when
an automaton is built, so a diff whose patterns do not change never loads it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from greenery import Fsm

Relation = Literal["same", "wider", "narrower", "other"]

# An automaton grows with the characters a pattern spells out once its counted repetitions are
# expanded (`[A-Z]{8,32}` spells 32): past this many the pattern is not built.
_MAX_WEIGHT = 600
# Subset construction can still blow up (`[ab]*a[ab]{20}` has 2^20 states): each automaton and
# each comparison gets this many seconds.
_BUDGET = 0.5

_LINE_TERMINATORS = "\n\r\u2028\u2029"
# ECMA-262 WhiteSpace and LineTerminator: what `\s` matches.
_SPACE = "\t\v\f \u00a0\ufeff\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
_SPACE += "\u202f\u205f\u3000" + _LINE_TERMINATORS
_DIGITS = "0123456789"
_WORD = _DIGITS + "ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz"
_CONTROL = {"t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r"}


class Refused(Exception):
    """The pattern is not a regular language greenery can build, or too costly to build."""


@functools.cache
def language(pattern: str) -> Fsm | None:
    """The whole strings `pattern` finds a match in, as an automaton; None when it cannot be built."""
    try:
        with _budget():
            return _compile(_Parser(pattern).top())
    except (Refused, RecursionError):
        return None


@functools.cache
def relation(old: str, new: str) -> Relation | None:
    """How NEW's strings compare with OLD's: the same, more (wider), fewer (narrower), or others;
    None when either pattern cannot be decided."""
    if old == new:
        return "same"
    before, after = language(old), language(new)
    if before is None or after is None:
        return None
    try:
        with _budget():
            inside, around = before.issubset(after), after.issubset(before)
    except Refused:
        return None
    if inside and around:
        return "same"
    return "wider" if inside else "narrower" if around else "other"


@functools.cache
def universal(pattern: str) -> bool | None:
    """Whether `pattern` matches every string (None: it cannot be built)."""
    fsm = language(pattern)
    if fsm is None:
        return None
    from greenery import NULL

    everything = NULL.everythingbut()
    try:
        with _budget():
            return bool(everything.issubset(fsm))
    except Refused:
        return None


_deadline: float | None = None


def _check_clock() -> None:
    """Called by greenery (compat.greenery) for each state it builds: past the budget, refuse."""
    if _deadline is not None and time.monotonic() > _deadline:
        raise Refused("too costly")


@contextmanager
def _budget() -> Iterator[None]:
    """Refuse (raise Refused) once greenery has crawled automata for `_BUDGET` seconds."""
    global _deadline
    from ..compat.greenery import faster  # greenery loads only when two patterns are compared

    faster(_check_clock)
    outer, _deadline = _deadline, time.monotonic() + _BUDGET
    try:
        yield
    finally:
        _deadline = outer


def _compile(node: Any) -> Fsm:
    """greenery's `to_fsm`, but a character class repeated `{m,n}` times is built as a chain of
    n + 1 states at once (greenery multiplies automata: seconds for `[a-z]{1,64}`)."""
    from greenery import EPSILON, INF, NULL, Charclass, Fsm
    from greenery.rxelems import Conc, Mult

    if isinstance(node, Charclass):
        return _chain(node, 1, 1)
    if isinstance(node, Conc) and len(node.mults) == 1:
        return _compile(node.mults[0])
    if isinstance(node, Conc):
        return Fsm.concatenate(EPSILON, *(_compile(mult) for mult in node.mults))
    if not isinstance(node, Mult) and len(node.concs) == 1:  # a Pattern: its alternatives
        return _compile(next(iter(node.concs)))
    if not isinstance(node, Mult):
        return Fsm.union(NULL, *(_compile(conc) for conc in node.concs))
    low, high = node.multiplier.min.v, node.multiplier.max.v
    if isinstance(node.multiplicand, Charclass):
        return _chain(node.multiplicand, low, high)
    unit = _compile(node.multiplicand)
    optional = unit.star() if node.multiplier.max == INF else (EPSILON | unit).times(high - low)
    return unit.times(low).concatenate(optional)


def _chain(chars: Any, low: int, high: int | None) -> Fsm:
    """The strings of `low` to `high` (None: any number of) characters of `chars`."""
    from greenery import Fsm

    other = ~chars
    last = low if high is None else high
    dead = last + 1
    steps = {count: {chars: count + 1, other: dead} for count in range(last)}
    steps[last] = {chars: last if high is None else dead, other: dead}
    steps[dead] = {chars: dead, other: dead}
    alphabet = {chars, other} if not other.empty() else {chars}
    if other.empty():
        steps = {state: {chars: to[chars]} for state, to in steps.items()}
    finals = range(low, last + 1)
    return Fsm(alphabet=alphabet, states=range(dead + 1), initial=0, finals=finals, map=steps)


class _Parser:
    """ECMA-262 pattern syntax (the parts that are regular) to greenery's Pattern / Conc / Mult /
    Charclass; `weight` counts the characters spelt out once repetitions are expanded."""

    def __init__(self, pattern: str) -> None:
        from greenery import Bound, Charclass, Multiplier, rxelems

        self.text, self.i = pattern, 0
        self.Charclass, self.Bound, self.Multiplier = Charclass, Bound, Multiplier
        self.Pattern, self.Conc, self.Mult = rxelems.Pattern, rxelems.Conc, rxelems.Mult
        self.any = ~Charclass()
        self.dot = Charclass(_LINE_TERMINATORS, negated=True)

    def top(self) -> Any:
        """The pattern as whole strings: each top-level alternative anchored or padded with `.*`
        (any characters at all, line terminators included) on each side."""
        anything = self.Mult(self.any, self.Multiplier(self.Bound(0), self._inf()))
        concs = []
        while True:
            start = self._take("^")
            mults, _ = self._alternative(top=True)
            end = self._take("$")
            concs.append(self.Conc(*([] if start else [anything]), *mults, *([] if end else [anything])))
            if not self._take("|"):
                break
        if self.i != len(self.text):
            raise Refused(f"cannot read past index {self.i}")
        return self.Pattern(*concs)

    def _inf(self) -> Any:
        from greenery import INF

        return INF

    def _peek(self) -> str:
        return self.text[self.i] if self.i < len(self.text) else ""

    def _take(self, char: str) -> bool:
        if self.text.startswith(char, self.i):
            self.i += len(char)
            return True
        return False

    def _disjunction(self) -> tuple[Any, int]:
        concs, weight = [], 0
        while True:
            mults, w = self._alternative(top=False)
            concs.append(self.Conc(*mults))
            weight += w
            if not self._take("|"):
                return self.Pattern(*concs), weight

    def _alternative(self, top: bool) -> tuple[list[Any], int]:
        mults, weight = [], 0
        while self._peek() not in ("", "|", ")"):
            if top and self._peek() == "$" and self.text[self.i + 1 : self.i + 2] in ("", "|"):
                break  # the trailing anchor, read by top()
            unit, w = self._atom()
            multiplier, count = self._quantifier()
            mults.append(self.Mult(unit, multiplier))
            weight += w * count
            if weight > _MAX_WEIGHT:
                raise Refused("too many characters spelt out")
        return mults, weight

    def _atom(self) -> tuple[Any, int]:
        char = self._peek()
        if char in ("^", "$"):
            raise Refused("an anchor inside the pattern")
        if char in ("*", "+", "?", "{", "]", "}"):
            raise Refused(f"{char!r} where an atom is expected")
        self.i += 1
        if char == ".":
            return self.dot, 1
        if char == "[":
            return self._class(), 1
        if char == "\\":
            found = self._escape()
            return (self.Charclass(found) if isinstance(found, str) else found), 1
        if char == "(":
            if self._take("?"):
                self._group_kind()
            pattern, weight = self._disjunction()
            if not self._take(")"):
                raise Refused("unbalanced parenthesis")
            return pattern, weight
        if char == ")":
            raise Refused("unbalanced parenthesis")
        return self.Charclass(char), 1

    def _group_kind(self) -> None:
        """After `(?`: a non-capturing `(?:` or a named `(?<name>` group; lookarounds are refused."""
        if self._take(":"):
            return
        named = self._peek() == "<" and self.text[self.i + 1 : self.i + 2] not in ("=", "!")
        end = self.text.find(">", self.i)
        if not named or end < 0:
            raise Refused("a lookaround or flag group")
        self.i = end + 1

    def _quantifier(self) -> tuple[Any, int]:
        """The multiplier and how many times its atom is spelt out (its maximum, or minimum + 1)."""
        inf = self._inf()
        low: int
        high: int | None
        if self._take("*"):
            low, high = 0, None
        elif self._take("+"):
            low, high = 1, None
        elif self._take("?"):
            low, high = 0, 1
        elif self._peek() == "{":
            low, high = self._braces()
        else:
            return self.Multiplier(self.Bound(1), self.Bound(1)), 1
        self._take("?")  # lazy or greedy: the same strings
        if high is not None and high < low:
            raise Refused("numbers out of order in {} quantifier")
        upper = inf if high is None else self.Bound(high)
        return self.Multiplier(self.Bound(low), upper), max(1, high if high is not None else low + 1)

    def _braces(self) -> tuple[int, int | None]:
        end = self.text.find("}", self.i)
        inside = self.text[self.i + 1 : end] if end > 0 else ""
        low, comma, high = inside.partition(",")
        if not low.isdigit() or not (high.isdigit() or high == ""):
            raise Refused("a `{` that is not a quantifier")
        self.i = end + 1
        if int(low) > _MAX_WEIGHT or (high and int(high) > _MAX_WEIGHT):
            raise Refused("a counted repetition too large")
        if not comma:
            return int(low), int(low)
        return int(low), int(high) if high else None

    def _class(self) -> Any:
        negated = self._take("^")
        result = self.Charclass()
        while self._peek() != "]":  # ECMA: `[]` matches nothing, `[^]` any character
            if not self._peek():
                raise Refused("unterminated character class")
            low = self._class_atom()
            if self._peek() == "-" and self.text[self.i + 1 : self.i + 2] not in ("]", ""):
                self.i += 1
                high = self._class_atom()
                if not (isinstance(low, str) and isinstance(high, str)) or low > high:
                    raise Refused("a class escape or reversed bounds in a range")
                result |= self.Charclass(((low, high),))
            else:
                result |= self.Charclass(low) if isinstance(low, str) else low
        self.i += 1
        return ~result if negated else result

    def _class_atom(self) -> Any:
        """One character (str) or a class escape (Charclass) inside brackets."""
        char = self._peek()
        self.i += 1
        if char != "\\":
            return char
        if self._take("b"):
            return "\b"  # backspace inside a class
        return self._escape()

    def _escape(self) -> Any:
        """A character (str) or a class (Charclass) after a backslash."""
        char = self._peek()
        if not char:
            raise Refused("a trailing backslash")
        self.i += 1
        classes = {"d": _DIGITS, "w": _WORD, "s": _SPACE}
        if char.lower() in classes:
            return self.Charclass(classes[char.lower()], negated=char.isupper())
        if char in _CONTROL:
            return _CONTROL[char]
        if char == "0" and not self._peek().isdigit():
            return "\0"
        if char == "c" and self._peek().isalpha():
            self.i += 1
            return chr(ord(self.text[self.i - 1]) % 32)
        if char in ("x", "u"):
            return self._code(char)
        if not (char.isalnum() or char == "_"):  # an identity escape: `\.`, `\-`, `\/`, `\ ` ...
            return char
        # \b \B \1.. \k \p \P and escaped letters: not read
        raise Refused(f"the escape \\{char}")

    def _code(self, kind: str) -> str:
        if kind == "u" and self._peek() == "{":
            end = self.text.find("}", self.i)
            digits = self.text[self.i + 1 : end] if end > 0 else ""
            self.i = end + 1
        else:
            size = 2 if kind == "x" else 4
            digits = self.text[self.i : self.i + size]
            self.i += size
            if len(digits) != size:
                raise Refused("a short hex escape")
        try:
            value = int(digits, 16)
            return chr(value)
        except (ValueError, OverflowError):
            raise Refused(f"the escape \\{kind}{digits}") from None
