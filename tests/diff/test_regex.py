"""JSON Schema patterns as sets of strings (openapi/diff/regex.py, issue 23): ECMA-262 syntax and
search semantics, the relation between two patterns, and the verdicts of a pattern replaced and of a
response that gains a body."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from csapi.openapi.diff import diff
from csapi.openapi.diff.regex import language, relation, universal
from csapi.openapi.diff.schemas import trivial
from tests.diff.schema_docs import both_ways, changes

BR, OB, CO = "breaking", "obligation", "compatible"


def accepts(pattern: str, text: str) -> bool:
    fsm = language(pattern)
    assert fsm is not None, pattern
    return bool(fsm.accepts(text))


# -- one pattern's language


@pytest.mark.parametrize(
    ("pattern", "inside", "outside"),
    [
        ("^abc$", ["abc"], ["", "abcd", "xabc", "abc\n"]),
        ("abc", ["abc", "xabcx", "a\nabc\n"], ["", "ab", "a\nbc"]),  # unanchored: searched anywhere
        ("^ab", ["ab", "abz\n"], ["xab"]),
        ("ab$", ["xab", "\nab"], ["abx", "ab\n"]),  # `$` is the end: not before a final newline
        ("^(cat|dog)$", ["cat", "dog"], ["cow", "catdog"]),
        ("^cat$|^dog$", ["cat", "dog"], ["catdog", "xcat"]),
        ("^[a-c]+$", ["abcab"], ["", "abd"]),
        ("^[^a-c]$", ["d", "\n"], ["a", ""]),
        (r"^\d{3}$", ["012"], ["12", "1234", "١٢٣"]),  # ECMA's \d is ASCII
        (r"^\w+$", ["a_Z9"], ["é", "a-b"]),
        (r"^\s$", [" ", "\t", "\n", "\u00a0", "\u2028", "\u3000", "\ufeff"], ["a", "\x1c"]),
        (r"^\S+$", ["ab"], ["a b", "\u00a0"]),
        ("^[A-Z0-9]{8,16}$", ["ABCD1234", "A" * 16], ["ABCD123", "A" * 17, "abcd1234"]),
        ("^x{2,}$", ["xx", "x" * 40], ["x"]),
        ("^.$", ["a", "é"], ["\n", "\r", "\u2028", "\u2029", ""]),  # `.` is no line terminator
        ("^.*$", ["", "a b"], ["a\nb", "\r", "\u2028"]),
        (r"^[\s\S]*$", ["", "a\nb"], []),
        (r"^\d+(\.\d+)?$", ["1", "1.5"], ["1.", ".5"]),
        (r"^\u00e9\x41\/\-$", ["éA/-"], ["eA/-"]),
        ("^(?:a|b)(?<tail>c)?$", ["a", "bc"], ["c"]),
        ("^[]$", [], ["", "a"]),  # ECMA: `[]` matches nothing, `[^]` everything
        ("^[^]$", ["\n"], [""]),
        ("^[a-]$", ["a", "-"], ["b"]),
        ("^a+?$", ["aaa"], [""]),  # lazy: the same strings
    ],
)
def test_language(pattern: str, inside: list[str], outside: list[str]) -> None:
    for text in inside:
        assert accepts(pattern, text), (pattern, text)
    for text in outside:
        assert not accepts(pattern, text), (pattern, text)


@pytest.mark.parametrize(
    "pattern",
    [
        "(?=a)b",  # lookahead
        "(?<!a)b",  # lookbehind
        r"(a)\1",  # backreference
        r"\bword\b",  # word boundary
        r"\p{L}",  # Unicode property
        "(?i)abc",  # a flag
        "a^b",  # an anchor inside
        "(^a)",
        "(",
        "a{",
        "*a",
        "^x{1,1000}$",  # too large to spell out
        "[ab]*a[ab]{20}",  # a determinisation that blows up: refused within the budget
    ],
)
def test_what_cannot_be_read_is_none(pattern: str) -> None:
    assert language(pattern) is None
    assert universal(pattern) is None


@pytest.mark.parametrize("pattern", [".*", "", "^", "$", r"[\s\S]*", r"^[\s\S]*$", "x*", "^(.|\n|\r)*"])
def test_universal(pattern: str) -> None:
    assert universal(pattern) is True and trivial(pattern)


@pytest.mark.parametrize("pattern", ["^.*$", ".+", "^.{0,3}$", r"^(?!\s*$).*", "(?=x)"])
def test_not_universal(pattern: str) -> None:
    assert not trivial(pattern)


def test_a_pattern_greenery_cannot_read_is_probed_with_ecma_meanings() -> None:
    assert trivial("(?=)")  # an empty lookahead: matches everywhere
    assert trivial("(?!x)")  # true at the end of every string
    assert not trivial(r"\b^.*$")  # Python's `$` would match before "a\n"'s newline; ECMA's does not


# -- two patterns


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("^[A-Z0-9]{8,16}$", "^[A-Z0-9]{8,32}$", "wider"),
        ("^[A-Z0-9]{8,32}$", "^[A-Z0-9]{8,16}$", "narrower"),
        (r"^\d+$", "^[0-9]+$", "same"),
        ("^(a|b)$", "^[ab]$", "same"),
        ("^a$", "^b$", "other"),
        ("a", "ab", "narrower"),  # every string containing "ab" contains "a"
        ("^a", "a", "wider"),
        ("^[a-z]{1,64}$", "^[a-z][a-z0-9_-]{0,254}$", "wider"),
        ("^.*$", r"^[\s\S]*$", "wider"),
        ("(?=a)", "a", None),
        ("^x{1,1000}$", "^x+$", None),
    ],
)
def test_relation(old: str, new: str, expected: str | None) -> None:
    assert relation(old, new) == expected


# -- verdicts


def test_a_pattern_replaced_is_judged_by_the_strings_it_accepts() -> None:
    narrow, wide = (
        {"type": "string", "pattern": "^[a-z]{2,8}$"},
        {"type": "string", "pattern": "^[a-z]{1,8}$"},
    )
    assert both_ways(narrow, wide) == ({("pattern-changed", OB)}, {("pattern-changed", BR)})
    assert both_ways(wide, narrow) == ({("pattern-changed", BR)}, {("pattern-changed", OB)})
    rewritten = {"type": "string", "pattern": "^[a-z]{2}[a-z]{0,6}$"}
    assert both_ways(narrow, rewritten) == ({("pattern-changed", CO)}, {("pattern-changed", CO)})
    (change,) = changes(narrow, rewritten)
    assert change.reason == "the pattern is rewritten but accepts the same strings"
    other = {"type": "string", "pattern": "^[0-9]{2,8}$"}
    assert both_ways(narrow, other) == ({("pattern-changed", BR)}, {("pattern-changed", BR)})
    # `^.*$` added to a request refuses text with a line break: a constraint, breaking
    assert both_ways({"type": "string"}, {"type": "string", "pattern": "^.*$"})[0] == {
        ("pattern-changed", BR)
    }


def _hooked(response: dict[str, Any]) -> dict[str, Any]:
    """A 3.1 document with one operation and one webhook, both answering `response` with 200."""
    operation = {"responses": {"200": copy.deepcopy(response)}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"post": copy.deepcopy(operation)}},
        "webhooks": {"thingCreated": {"post": operation}},
    }


def test_a_response_that_gains_a_body_binds_the_side_that_answers() -> None:
    empty = {"description": "ok"}
    body = {
        "description": "ok",
        "content": {"application/json": {"schema": {"type": "object", "required": ["ack"]}}},
    }
    found = {
        (c.operation, c.rule, c.classification.value, c.reason) for c in diff(_hooked(empty), _hooked(body))
    }
    assert found == {
        (
            "POST /things",
            "response-body-added",
            OB,
            "servers must now answer with a body; clients that expect none ignore it",
        ),
        (
            "WEBHOOK thingCreated POST",
            "response-body-added",
            BR,
            "the API server sends this request and the receiver answers: a receiver that answers with no "
            "body, as OLD said, may now have its answer refused",
        ),
    }
    # a body that was there gains a media type: the answer may come in a type a client does not read
    more = copy.deepcopy(body)
    more["content"]["text/plain"] = {"schema": {"type": "string"}}
    rules = {(c.operation, c.rule) for c in diff(_hooked(body), _hooked(more))}
    assert rules == {("POST /things", "media-type-added"), ("WEBHOOK thingCreated POST", "media-type-added")}
