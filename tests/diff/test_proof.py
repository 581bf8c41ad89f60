"""`openapi.diff.proof`: breaking changes shown by one generated payload, and none where none exists.

The changes are edits of the real document. Some are breaks the structural rules cannot see (a
`oneOf` branch added that a payload valid before now matches twice, a `not` added, a `pattern`
replaced by one the rules cannot compare); the payload found is printed (`pytest -s`) and checked
by hand-written expectations. Then what must show nothing: a `oneOf` rearranged, loosened requests,
tightened responses. Last, the whole document searched schema by schema stays under 30 s.
"""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource

from csapi.openapi.diff import proof
from csapi.openapi.diff.proof import Counterexample, counterexample
from csapi.openapi.diff.sides import canon, inline
from csapi.openapi.refs import Resolver
from csapi.openapi.walk import operations
from tests.diff.documents import Document, real


def schema(doc: Document, name: str) -> dict[str, Any]:
    return doc["components"]["schemas"][name]


def ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def valid(payload: Any, node: Any, doc: Document) -> bool:
    """An independent check of a payload (not proof's own validator)."""
    registry: Registry[Any] = Registry().with_resource("urn:test", Resource.opaque(doc))
    absolute = json.loads(json.dumps(node).replace('"#/', '"urn:test#/'))
    return bool(OAS30Validator(absolute, registry=registry).is_valid(payload))


def shown(found: Counterexample | None) -> Counterexample:
    assert found is not None, "no payload found"
    print(f"\n  {found}")  # the payload, for `pytest -s`
    return found


@pytest.fixture(autouse=True)
def _fresh_memo() -> Iterator[None]:
    proof._MEMO.clear()  # each test searches on its own: no answer carried over
    yield
    proof._MEMO.clear()


# --------------------------------------------------------------------------------------------------
# Breaks the structural rules miss


def test_a_oneof_branch_added_that_a_valid_payload_now_matches_twice_is_breaking() -> None:
    """Structurally an alternative added (a request loosened); on the wire {id, name} matched the
    `id` branch alone and now matches two, which `oneOf` refuses."""
    old = real()
    schema(old, "CollaboratorAdd")["properties"]["name"] = {"type": "string"}
    new = copy.deepcopy(old)
    schema(new, "CollaboratorAdd")["oneOf"].append({"required": ["name"]})
    found = shown(
        counterexample(
            ref("CollaboratorAdd"), ref("CollaboratorAdd"), direction="request", old_doc=old, new_doc=new
        )
    )
    payload = found.payload
    assert "name" in payload and len({"id", "email", "username"} & set(payload)) == 1
    assert valid(payload, ref("CollaboratorAdd"), old) and not valid(payload, ref("CollaboratorAdd"), new)
    assert "valid under each of" in found.reason


def test_a_not_added_is_breaking() -> None:
    """The structural rules do not compare `not`."""
    new = real()
    schema(new, "CommentCreate")["not"] = {"required": ["notify"]}
    found = shown(
        counterexample(
            ref("CommentCreate"), ref("CommentCreate"), direction="request", old_doc=real(), new_doc=new
        )
    )
    assert "notify" in found.payload and "body" in found.payload


def test_a_pattern_replaced_by_a_narrower_one_is_breaking_with_the_payload_it_refuses() -> None:
    """The rules see `pattern changed` and cannot compare regexes; the proof shows which way."""
    new = real()
    schema(new, "Username")["pattern"] = "^[A-Za-z][A-Za-z0-9_-]{1,39}$"  # no leading digit
    found = shown(
        counterexample(ref("Username"), ref("Username"), direction="request", old_doc=real(), new_doc=new)
    )
    assert found.payload[0].isdigit() and "does not match" in found.reason


def test_a_multiple_of_added_is_breaking() -> None:
    new = real()
    new["components"]["parameters"]["Radius"]["schema"]["multipleOf"] = 10
    old_schema = real()["components"]["parameters"]["Radius"]["schema"]
    new_schema = new["components"]["parameters"]["Radius"]["schema"]
    found = shown(counterexample(old_schema, new_schema, direction="request", old_doc=real(), new_doc=new))
    assert found.payload % 10 != 0


def test_a_response_field_made_optional_is_shown_with_a_new_answer_old_clients_refuse() -> None:
    new = real()
    schema(new, "Item")["required"].remove("name")
    found = shown(counterexample(ref("Item"), ref("Item"), direction="response", old_doc=real(), new_doc=new))
    assert "name" not in found.payload and "'name' is a required property" in found.reason


def test_a_nullable_response_field_is_shown_with_null() -> None:
    """OpenAPI 3.0's `nullable` is honoured on both sides."""
    new = real()
    schema(new, "Comment")["properties"]["name"]["nullable"] = True
    found = shown(
        counterexample(ref("Comment"), ref("Comment"), direction="response", old_doc=real(), new_doc=new)
    )
    assert found.payload["name"] is None


def test_a_top_level_null_payload_is_a_counterexample_not_none() -> None:
    old_schema, new_schema = {"type": "string"}, {"type": "string", "nullable": True}
    found = shown(counterexample(old_schema, new_schema, direction="response", old_doc={}, new_doc={}))
    assert found.payload is None


# --------------------------------------------------------------------------------------------------
# No payload where nothing breaks


def test_a_oneof_rearranged_has_no_counterexample() -> None:
    new = real()
    schema(new, "CollaboratorAdd")["oneOf"].reverse()
    schema(new, "CollectionItemsUpdate")["oneOf"].reverse()
    for name in ("CollaboratorAdd", "CollectionItemsUpdate"):
        found = counterexample(ref(name), ref(name), direction="request", old_doc=real(), new_doc=new)
        assert found is None, found
    # Searched, not skipped: the inlined texts differ (branch order), the payloads do not.
    key = canon(inline(ref("CollaboratorAdd"), Resolver(new)))
    assert key != canon(inline(ref("CollaboratorAdd"), Resolver(real())))


@pytest.mark.parametrize(
    ("name", "direction", "edit"),
    [
        ("CommentCreate", "request", lambda s: s["properties"].update(lang={"type": "string"})),
        ("CommentCreate", "request", lambda s: s["required"].remove("body")),
        ("CollectionUpdate", "request", lambda s: s["properties"]["view_mode"]["enum"].append("grid")),
        ("ItemCreate", "request", lambda s: s["allOf"][1]["anyOf"].append({"required": ["link"]})),
        ("Item", "response", lambda s: s["properties"].update(rating={"type": "integer"})),
        ("Item", "response", lambda s: s["properties"]["name"].update(maxLength=255)),
        ("Collection", "response", lambda s: s["properties"]["view_mode"]["enum"].remove("list")),
    ],
    ids=[
        "request-optional-field",
        "request-field-optional",
        "request-enum-value-added",
        "request-anyof-branch-added",
        "response-optional-field",
        "response-max-length",
        "response-enum-value-removed",
    ],
)
def test_a_loosened_request_or_tightened_response_has_no_counterexample(
    name: str, direction: str, edit: Any
) -> None:
    new = real()
    edit(schema(new, name))
    found = counterexample(ref(name), ref(name), direction=direction, old_doc=real(), new_doc=new)
    assert found is None, found


def test_the_same_schema_behind_other_refs_is_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """Inlining a `$ref` or editing a description leaves the inlined text as it was: no search at all."""
    new = real()
    schema(new, "Item")["properties"]["thumbnails"] = copy.deepcopy(schema(new, "Thumbnails"))
    schema(new, "Item")["description"] = "reworded"
    monkeypatch.setattr(proof, "_search", lambda *args: pytest.fail("searched"))
    assert counterexample(ref("Item"), ref("Item"), direction="response", old_doc=real(), new_doc=new) is None


def test_the_answer_is_the_same_every_run() -> None:
    new = real()
    schema(new, "Username")["pattern"] = "^[A-Za-z][A-Za-z0-9_-]{1,39}$"
    first = counterexample(ref("Username"), ref("Username"), direction="request", old_doc=real(), new_doc=new)
    proof._MEMO.clear()
    again = counterexample(ref("Username"), ref("Username"), direction="request", old_doc=real(), new_doc=new)
    assert first == again


# --------------------------------------------------------------------------------------------------
# The whole document, in bounded time


def schemas_of(doc: Document) -> Iterator[tuple[str, Any, str]]:
    """(where, schema, direction) for every parameter, body, response and header schema."""
    resolve = Resolver(doc).deref
    for operation in operations(doc):
        parameters = [*operation.item.node.get("parameters", []), *operation.node.get("parameters", [])]
        for parameter in map(resolve, parameters):
            yield f"{operation.label} {parameter['name']}", parameter["schema"], "request"
        body = resolve(operation.node.get("requestBody", {}))
        for media, content in body.get("content", {}).items():
            yield f"{operation.label} {media}", content["schema"], "request"
        for status, response in operation.node["responses"].items():
            response = resolve(response)
            for media, content in response.get("content", {}).items():
                yield f"{operation.label} {status} {media}", content["schema"], "response"
            for name, header in response.get("headers", {}).items():
                yield f"{operation.label} {status} {name}", resolve(header)["schema"], "response"


def test_the_whole_document_is_searched_in_under_30_seconds_and_breaks_nothing() -> None:
    """Every schema against itself wrapped in `allOf` (the same payloads, another text, so each is
    really searched): no counterexample anywhere (no false alarm), and all of it within budget."""
    doc = real()
    started, cpu = time.monotonic(), time.process_time()
    found = {}
    pairs = list(schemas_of(doc))
    for where, node, direction in pairs:
        answer = counterexample(node, {"allOf": [node]}, direction=direction, old_doc=doc, new_doc=doc)
        if answer is not None:
            found[where] = str(answer)
    elapsed, used = time.monotonic() - started, time.process_time() - cpu
    print(f"\n  {len(pairs)} schemas ({len(proof._MEMO)} distinct): {used:.1f} s CPU, {elapsed:.1f} s wall")
    assert found == {}
    assert used < 30  # CPU time: the wall clock also counts whatever else the machine runs


# --------------------------------------------------------------------------------------------------
# OpenAPI 3.1 (JSON Schema 2020-12): the validator and the payloads follow the document's version

DOC_31: Document = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {}}


def prove_31(old_schema: Any, new_schema: Any, direction: proof.Direction) -> Counterexample | None:
    return counterexample(old_schema, new_schema, direction=direction, old_doc=DOC_31, new_doc=DOC_31)


def test_a_31_type_array_losing_null_is_shown_with_null() -> None:
    found = shown(prove_31({"type": ["string", "null"]}, {"type": "string"}, "request"))
    assert found.payload is None
    assert prove_31({"type": "string"}, {"type": ["string", "null"]}, "request") is None


def test_a_31_const_changed_is_shown_with_the_old_constant() -> None:
    found = shown(prove_31({"const": "v1"}, {"const": "v2"}, "request"))
    assert found.payload == "v1"


def test_a_31_prefix_items_narrowed_is_shown() -> None:
    old = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}]}
    new = {"type": "array", "prefixItems": [{"type": "integer"}, {"type": "string", "maxLength": 2}]}
    found = shown(prove_31(old, new, "request"))
    assert isinstance(found.payload, list) and len(found.payload[1]) > 2


def test_a_31_numeric_exclusive_bound_is_read_as_a_number() -> None:
    """In 3.1 `exclusiveMinimum: 0` is a bound (in 3.0 a flag): 0 is now refused."""
    found = shown(
        prove_31({"type": "integer", "minimum": 0}, {"type": "integer", "exclusiveMinimum": 0}, "request")
    )
    assert found.payload == 0
    assert (
        prove_31({"type": "integer", "exclusiveMinimum": 0}, {"type": "integer", "minimum": 1}, "request")
        is None
    )


def test_a_31_ref_with_siblings_is_the_target_and_the_siblings() -> None:
    doc = {**DOC_31, "components": {"schemas": {"Name": {"type": "string"}}}}
    old = {"$ref": "#/components/schemas/Name"}
    new = {"$ref": "#/components/schemas/Name", "maxLength": 3}
    found = shown(counterexample(old, new, direction="request", old_doc=doc, new_doc=doc))
    assert isinstance(found.payload, str) and len(found.payload) > 3


def test_the_rules_breaking_verdict_gets_the_payload_as_its_example() -> None:
    """The proof confirms a breaking change the rules found (here a field made optional in an answer)."""
    from csapi.openapi.diff import diff

    new = real()
    schema(new, "Comment")["required"].remove("body")
    changes = [c for c in diff(real(), new, proof=True) if c.rule == "required-removed"]
    assert changes and all(c.breaking for c in changes)
    example = next(c.example for c in changes if c.operation == "POST /v1/items/{item_id}/comments")
    assert "body" not in json.loads(example)  # the comment answered without it


def test_every_example_shows_its_own_change() -> None:
    """One schema reached by a request and an answer, edited four ways: each change's example is a
    payload of its own direction (sent under OLD and refused by NEW for a request, answered under
    NEW and refused by OLD for an answer), never the other direction's, and a bound the edit adds
    is shown with a value just past it."""
    from csapi.openapi.diff import diff

    pet = {
        "type": "object",
        "required": ["name"],
        "properties": {"name": {"type": "string"}, "tag": {"type": "string"}, "age": {"type": "integer"}},
    }
    body = {"content": {"application/json": {"schema": ref("Pet")}}}
    old: Document = {
        "openapi": "3.0.3",
        "info": {"title": "pets", "version": "1"},
        "paths": {
            "/pets": {
                "post": {
                    "requestBody": {"required": True, **body},
                    "responses": {"201": {"description": "created", **body}},
                }
            }
        },
        "components": {"schemas": {"Pet": pet}},
    }
    new = copy.deepcopy(old)
    edited = schema(new, "Pet")["properties"]
    edited["name"]["maxLength"] = 20  # request: breaking
    edited["age"]["maximum"] = 30  # request: breaking
    del edited["tag"]  # answer: breaking
    shown_changes = [c for c in diff(old, new, proof=True) if c.example]
    assert {(c.rule, c.direction) for c in shown_changes} >= {
        ("bound-tightened", "request"),
        ("property-removed", "response"),
    }
    for change in shown_changes:
        payload = json.loads(change.example)
        sent, read = (old, new) if change.direction == "request" else (new, old)
        assert valid(payload, ref("Pet"), sent) and not valid(payload, ref("Pet"), read), change
        if change.rule == "bound-tightened" and "maxLength" in change.pointer:
            assert len(payload["name"]) == 21
