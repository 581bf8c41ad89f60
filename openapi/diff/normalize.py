"""One form for a schema node, whatever the OpenAPI version that wrote it (docs/design.md, Spec edits).

OpenAPI 3.0 and 3.1 (JSON Schema 2020-12) spell some constraints differently; the diff compares the
normal form, so a 3.0 -> 3.1 migration that keeps the meaning reports nothing:

- `type` is a sorted list; "null" in it (3.1) and `nullable: true` beside a `type` (3.0) are both
  the marker ``nullable: true``. 3.0 `nullable` without a `type` in the same schema changes nothing
  and is dropped: OpenAPI 3.0.3 says it "adds null to the allowed types specified by the type
  keyword, only if type is explicitly defined within the same Schema Object", so `nullable: true`
  beside `allOf`/`oneOf`/`anyOf` (a "nullable $ref" wrapper) does not admit null when a member
  refuses it (openapi-schema-validator's OAS30Validator, which the mock runs on, refuses it too).
  In 3.1, `nullable` is no keyword and is kept under another name (compared as unknown).
- 3.0 boolean `exclusiveMinimum`/`exclusiveMaximum` beside `minimum`/`maximum` become 3.1's numeric
  ones; `const` becomes a one-value `enum`; `example` joins the `examples` annotation.
- Boolean schemas (3.1): `true` is `{}`, `false` is `{"not": {}}`.

Only the node itself is normalised (its subschemas are read when compared, `Side.view`). Where a
keyword came from another one, ``ORIGIN`` names the keyword as written, for the change's pointer.
"""

from __future__ import annotations

import json
from typing import Any

# Keys the normal form adds (never in a document): where a keyword came from, the `oneOf`/`anyOf`
# branches that only allow null (read as the nullable marker, not as branches). `Side.view` adds two
# more, for `schema_parts.admits_null`: the views of a union's compared branches (read when asked),
# and, for a nullable wrap whose one branch became parts of the view, which parts those are; and a
# union's lone branch (index, schema), paired with the other side's branches when that has a union.
ORIGIN = "$csapi:origin"
SKIP = "$csapi:skip"
BRANCHES = "$csapi:branches"
WRAPPED = "$csapi:wrapped"
LONE = "$csapi:lone"
PRIVATE = frozenset({ORIGIN, SKIP, BRANCHES, WRAPPED, LONE})
NULLABLE = "nullable"
# A 3.1 document's `nullable`: not a JSON Schema keyword, so it means nothing there.
IGNORED_NULLABLE = "nullable (a 3.0 keyword, no keyword in 3.1)"
UNIONS = ("oneOf", "anyOf")


def is_31(data: Any) -> bool:
    """Whether a document is OpenAPI 3.1 (JSON Schema 2020-12 schemas); else it is read as 3.0."""
    version = data.get("openapi") if isinstance(data, dict) else None
    return isinstance(version, str) and version.startswith("3.1")


def boolean(value: bool) -> dict[str, Any]:
    return {} if value else {"not": {}}


def normal(schema: dict[str, Any], v31: bool) -> dict[str, Any]:
    """A copy of one schema node in the normal form (the module docstring)."""
    out = dict(schema)
    origin: dict[str, str] = {}
    nullable = _types(out, origin)
    if v31:
        if NULLABLE in out:
            out[IGNORED_NULLABLE] = out.pop(NULLABLE)
    else:
        flag = out.pop(NULLABLE, None) is True
        if flag and "type" in out:
            nullable = True
            origin[NULLABLE] = NULLABLE
        _exclusive(out, origin)
    if nullable:
        out[NULLABLE] = True
    if "const" in out:
        value = out.pop("const")
        enum = out.get("enum")
        out["enum"] = [value] if not isinstance(enum, list) else [v for v in enum if _same(v, value)]
        origin["enum"] = "const"
    if "example" in out:
        examples = out.get("examples")
        out["examples"] = [*(examples if isinstance(examples, list) else []), out.pop("example")]
        origin.setdefault("examples", "example")
    if origin:
        out[ORIGIN] = origin
    return out


def _same(left: Any, right: Any) -> bool:
    """JSON equality: `false` is not `0` (Python's `==` says it is)."""
    return left == right and json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)


def _types(out: dict[str, Any], origin: dict[str, str]) -> bool:
    """`type` as a sorted list without "null"; whether "null" was in it."""
    if "type" not in out:
        return False
    value = out["type"]
    names = sorted({str(v) for v in value} if isinstance(value, list) else {str(value)})
    if "null" not in names:
        out["type"] = names
        return False
    origin[NULLABLE] = "type"
    out["type"] = [name for name in names if name != "null"] or ["null"]
    return True


def _exclusive(out: dict[str, Any], origin: dict[str, str]) -> None:
    """3.0's boolean exclusive bounds as 3.1's numeric ones."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = out.get(flag)
        if not isinstance(value, bool):
            continue
        del out[flag]
        if value and isinstance(out.get(bound), int | float) and not isinstance(out.get(bound), bool):
            out[flag] = out.pop(bound)
            origin[flag] = bound


def only_null(schema: dict[str, Any]) -> bool:
    """Whether a normalised node allows null and nothing else (a nullable union's null branch)."""
    kinds = schema.get("type")
    enum = schema.get("enum")
    if kinds != ["null"] and enum != [None]:
        return False
    constraining = {k for k in schema if k not in PRIVATE and not k.startswith("x-")}
    return constraining <= {"type", "enum", NULLABLE, "description", "title", "examples", "$comment"}
