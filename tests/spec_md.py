"""Read the operations and response fields straight out of spec/api-spec.md.

Why: the tests must prove that the OpenAPI document covers the spec. A second hand-written list of
fields would only prove that two hand-written lists agree, so the expectations are parsed from the
Markdown at test time. The parser knows only the few shapes the spec uses: numbered headings, pipe
tables, one-line paragraphs, and prose lists such as "Fields: id (Integer), name, avatar (URL)".
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

SPEC_PATH = Path(__file__).resolve().parents[1] / "spec" / "api-spec.md"
SPEC_TYPES = ("Integer", "String", "Boolean", "Number", "Timestamp", "URL", "Object", "Array")
METHODS = ("GET", "POST", "PUT", "DELETE", "PATCH")
# Section 5 names "an endpoint at /auth" but no method; docs/design.md (settled gaps) fixes POST /v1/auth.
AUTH_METHOD = "POST"

_TYPE_RE = re.compile(rf"({'|'.join(SPEC_TYPES)})\b( or null)?")
_METHOD_PATH_RE = re.compile(rf"\b({'|'.join(METHODS)}) (/v1[\w/:]*)")

Block = str | list[list[str]]  # a one-line paragraph, or a table as rows of cells (header first)


@dataclass
class Field:
    """One response field. `type` is a word of SPEC_TYPES, or None when the spec shows only null."""

    name: str
    type: str | None
    nullable: bool = False
    inferred: bool = False  # untyped in the spec: type taken from elsewhere, nullability unknown
    nested: dict[str, str] = field(default_factory=dict)  # keys of an Object field -> spec type


@dataclass
class Resource:
    """A response shape of section 2, named as the spec names it."""

    name: str
    section: str  # "2.6"
    fields: list[Field]
    extras: list[Field] = field(default_factory=list)  # returned only with `include`


@cache
def _sections() -> dict[str, tuple[str, list[str]]]:
    """{"2.1": ("Collection", body lines), ...}: every numbered heading and the lines under it."""
    out: dict[str, tuple[str, list[str]]] = {}
    lines: list[str] = []
    for line in SPEC_PATH.read_text(encoding="utf-8").splitlines():
        heading = re.match(r"#{2,3} (\d+(?:\.\d+)?)\.? (.+)", line)
        if heading:
            lines = []
            out[heading.group(1)] = (heading.group(2).strip(), lines)
        else:
            lines.append(line)
    return out


def _blocks(lines: list[str]) -> list[Block]:
    """Paragraphs and tables; the spec writes every paragraph and bullet on one line."""
    blocks: list[Block] = []
    for line in (ln.strip() for ln in lines):
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) for c in cells):
                continue  # the |---|---| separator row
            if blocks and isinstance(blocks[-1], list):
                blocks[-1].append(cells)
            else:
                blocks.append([cells])
        elif line:
            blocks.append(line)
    return blocks


def _to_template(path: str) -> str:
    """`/v1/items/:item_id` -> `/v1/items/{item_id}`."""
    return re.sub(r":(\w+)", r"{\1}", path)


@cache
def _operation_rows() -> list[tuple[str, str, str, str]]:
    """(METHOD, path, name, response text) for every operation the spec names, duplicates kept."""
    rows: list[tuple[str, str, str, str]] = []
    for num, (title, lines) in _sections().items():
        if not num.startswith("4."):
            continue
        for block in _blocks(lines):
            if isinstance(block, list) and "Method and path" in block[0]:
                at, resp = block[0].index("Method and path"), block[0].index("Response")
                for row in block[1:]:
                    method, path = row[at].split(" ", 1)
                    rows.append((method, _to_template(path), row[0], row[resp]))
            elif isinstance(block, str):  # 4.9, 4.10: "GET /v1/search returns 200, an array of ..."
                prose = re.match(rf"({'|'.join(METHODS)}) (/v1\S*) returns (.*)", block)
                if prose:
                    rows.append((prose[1], _to_template(prose[2]), title, prose[3]))
    auth_text = "\n".join(_sections()["5"][1])
    for method, path in _METHOD_PATH_RE.findall(auth_text):  # "A request to GET /v1/ping ..."
        rows.append((method, _to_template(path), path.rsplit("/", 1)[-1].capitalize(), ""))
    auth = re.search(r"endpoint at (/\w+)", auth_text)
    assert auth, "spec section 5 no longer names the /auth endpoint"
    rows.append((AUTH_METHOD, "/v1" + auth[1], "Auth", ""))
    return rows


def operations() -> list[tuple[str, str, str]]:
    """Distinct (METHOD, path template, name); rows sharing a method+path get their names joined."""
    names: dict[tuple[str, str], list[str]] = {}
    for method, path, name, _ in _operation_rows():
        names.setdefault((method, path), []).append(name)
    return [(method, path, " / ".join(n)) for (method, path), n in names.items()]


def responses() -> dict[tuple[str, str], str]:
    """(METHOD, path) -> the spec's response text, e.g. "200, array of Item, X-Total-Count"."""
    return {(method, path): text for method, path, _, text in _operation_rows() if text}


def _split_top(text: str, sep: str) -> list[str]:
    """Split at `sep` where it is outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    return [*parts, text[start:]]


def _typed(name: str, desc: str) -> Field:
    """A field from its type text: "String or null", "Object: quota Integer, used Integer", ..."""
    if desc.startswith("null"):  # "null in the shape given": type unknown, but nullable
        return Field(name, None, nullable=True)
    match = _TYPE_RE.match(desc)
    if not match:  # e.g. "view_mode (tile default, shelf)": no type given
        return Field(name, None, inferred=True)
    nested = dict(re.findall(rf"(\w+) ({'|'.join(SPEC_TYPES)})\b", desc.partition(":")[2]))
    return Field(name, match[1], nullable=bool(match[2]), nested=nested)


def _table_fields(row: list[str]) -> list[Field]:
    """`| last_accessed_at, created_at | Timestamp | notes |` -> one Field per name."""
    notes = row[2] if len(row) > 2 else ""
    # "keys mini, small, cropped; each a URL" or "Boolean keys admin, edit, share"
    keys = re.search(r"(?:(\w+) )?keys ([\w, ]+?)(?:; each an? (\w+))?$", notes)
    fields = []
    for name in row[0].split(","):
        f = _typed(name.strip(), row[1])
        assert not f.inferred, f"unreadable type {row[1]!r} in spec row {row}"
        if keys:
            f.nested = dict.fromkeys(re.split(r",\s*", keys[2]), keys[1] or keys[3])
        fields.append(f)
    return fields


def _prose_fields(text: str) -> list[Field]:
    """`id (Integer), name, users (Array of team members). More prose` -> Fields, up to the full stop."""
    listed = _split_top(text, ". ")[0].rstrip(".")
    fields = []
    for item in _split_top(listed, ", "):
        match = re.fullmatch(r"(\w+)(?: \((.*)\))?", item.strip())
        assert match, f"unreadable field {item!r} in spec prose {text!r}"
        fields.append(_typed(match[1], match[2] or ""))
    return fields


def _names(text: str) -> list[str]:
    """Split `email, user_kind and users` into ["email", "user_kind", "users"]."""
    return re.split(r",\s*|\s+and\s+", text.strip())


def _parse_resources() -> list[Resource]:
    """Section 2 as written, untyped prose fields still with type None."""
    out: list[Resource] = []
    for num, (title, lines) in _sections().items():
        if not num.startswith("2."):
            continue
        caption = title
        for block in _blocks(lines):
            if isinstance(block, list):
                header = [c.lower() for c in block[0]]
                if header[:2] == ["field", "type"]:
                    out.append(Resource(caption, num, [f for r in block[1:] for f in _table_fields(r)]))
                elif header[:2] == ["where", "fields"]:  # 2.5: one shape per row
                    out.extend(Resource(r[0], num, _prose_fields(r[1])) for r in block[1:])
                caption = title
            elif block.endswith(":"):  # "Team list entry:" captions the next table
                caption = block[:-1]
            elif not block.startswith("- "):
                head, *tail = _split_top(block, ": ")
                rest = ": ".join(tail)
                if not re.match(r"\w+( \(|,)", rest):
                    continue  # not "...: id (Integer), name, ...", so not a field list
                name = title if head.endswith("Fields") else re.sub(r"\s*\(.*?\)", "", head)
                out.append(Resource(name, num, _prose_fields(rest)))
                same = re.search(r"The ([\w-]+) response carries the same fields except (.+?)\.", rest)
                if same:  # 2.6: the update-a-team shape
                    dropped = _names(same[2])
                    kept = [f for f in out[-1].fields if f.name not in dropped]
                    out.append(Resource(f"{same[1]} response", num, [dataclasses.replace(f) for f in kept]))
                extras = re.search(r"additional attributes (.+?) can be returned", rest)
                if extras:  # 2.9: emails, teams, teams_total_count with `include`
                    out[-1].extras = [Field(n, None, inferred=True) for n in _names(extras[1])]
    return out


def _guess(name: str, resource_words: set[str]) -> str:
    """Type from the name alone, for fields that no part of section 2 types."""
    if name == "id" or name.endswith(("_id", "_count")):
        return "Integer"
    if name.endswith("_at"):
        return "Timestamp"
    if name == "avatar" or name.endswith(("_url", "_avatar")):
        return "URL"
    if name.startswith("is_"):
        return "Boolean"
    if name.endswith("s") and name[:-1] in resource_words:  # "teams": a list of section 2's Team
        return "Array"
    return "String"


@cache
def resources() -> list[Resource]:
    """Every response shape of section 2, untyped fields given an inferred type (marked inferred).

    An untyped prose field takes the type the same name has where section 2 does type it (same
    subsection first: 2.6's team detail `plan_active` is the list entry's Boolean), else `_guess`.
    Callers must not mutate the result.
    """
    parsed = _parse_resources()
    typed = [(r.section, f) for r in parsed for f in r.fields if f.type and not f.inferred]
    words = {r.name.split()[0].lower() for r in parsed}
    for res in parsed:
        for f in res.fields + res.extras:
            if f.inferred:
                known = [t for s, t in typed if t.name == f.name and s == res.section]
                known += [t for _, t in typed if t.name == f.name]
                f.type = known[0].type if known else _guess(f.name, words)
    return parsed


STATEMENT_SECTIONS = ("1", "2", "3", "4", "5", "8")  # what the service does (issue 22 item 2)


def _sentences(text: str) -> list[str]:
    """A paragraph or bullet's sentences: split after a full stop followed by a capital letter; the
    bullet or list number dropped."""
    text = re.sub(r"^(?:- |\d+\. )", "", " ".join(text.split()))
    return [s for s in re.split(r"(?<=\.) (?=[A-Z])", text) if s]


def statements() -> list[tuple[str, str]]:
    """(section, text) of every statement of sections 1-5 and 8 (4.11, the notes, included): each
    sentence of prose or of a bullet, and each table row but the header, its cells joined with
    " | " (trailing empty cells dropped); headings and separator rows are not statements."""
    out: list[tuple[str, str]] = []
    for num, (_, lines) in _sections().items():
        if num.split(".")[0] not in STATEMENT_SECTIONS:
            continue
        for block in _blocks(lines):
            if isinstance(block, str):
                out += [(num, sentence) for sentence in _sentences(block)]
                continue
            for row in block[1:]:
                while row and not row[-1]:
                    row = row[:-1]
                out.append((num, " ".join(" | ".join(row).split())))
    return out
