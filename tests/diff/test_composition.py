"""Composition and references in `csapi diff`: oneOf/anyOf/allOf/not, `$ref` moves, and the proof hook."""

from __future__ import annotations

import copy
from typing import Any

from csapi.openapi import document
from csapi.openapi.diff import Classification, compare, diff

REAL = document()  # parsed once per process: never edited here, only copied


def edited(**schemas: Any) -> dict[str, Any]:
    doc = copy.deepcopy(REAL)
    doc["components"]["schemas"].update(schemas)
    return doc


def schema(name: str) -> dict[str, Any]:
    return copy.deepcopy(REAL["components"]["schemas"][name])


def test_alternatives_in_another_order_are_no_change() -> None:
    rearranged = schema("CollectionItemsUpdate")
    rearranged["oneOf"].reverse()
    assert diff(REAL, edited(CollectionItemsUpdate=rearranged)) == []


def test_a_changed_alternative_is_paired_with_its_old_self_even_when_moved() -> None:
    team = schema("TeamMemberAdd")
    team["oneOf"].reverse()
    team["oneOf"][0].setdefault("required", []).append("kind")
    changes = diff(REAL, edited(TeamMemberAdd=team))
    assert {(c.rule, c.classification) for c in changes} == {("required-added", Classification.BREAKING)}
    assert all("/oneOf/0" in c.pointer for c in changes)
    assert "a client that sends no `kind` now gets 400" in changes[0].reason


def test_a_oneof_alternative_of_a_new_type_loosens_one_that_may_overlap_is_breaking() -> None:
    disjoint = schema("CollectionItemsUpdate")
    disjoint["oneOf"].append({"type": "array", "items": {"type": "integer"}})
    (change,) = diff(REAL, edited(CollectionItemsUpdate=disjoint))
    assert change.classification is Classification.OBLIGATION and change.rule == "alternative-added"
    overlapping = schema("CollectionItemsUpdate")
    overlapping["oneOf"].append({"type": "object"})
    (change,) = diff(REAL, edited(CollectionItemsUpdate=overlapping))
    assert change.classification is Classification.BREAKING
    assert "which oneOf refuses" in change.reason


def test_an_allof_member_made_stricter_is_seen_through_the_merge() -> None:
    create = schema("CollectionCreate")
    create["allOf"][1].setdefault("required", []).append("view_mode")
    changes = diff(REAL, edited(CollectionCreate=create))
    assert {(c.rule, c.classification) for c in changes} == {("required-added", Classification.BREAKING)}


def test_a_schema_moved_into_components_and_a_parameter_moved_to_the_path_item_are_no_change() -> None:
    doc = copy.deepcopy(REAL)
    body = doc["components"]["schemas"]["CommentCreate"]
    doc["components"]["schemas"]["CommentCreateMoved"] = copy.deepcopy(body)
    doc["components"]["schemas"]["CommentCreate"] = {"$ref": "#/components/schemas/CommentCreateMoved"}
    item = doc["paths"]["/v1/items/{item_id}"]
    for method in ("get", "put", "delete"):
        parameters = item[method].get("parameters", [])
        item.setdefault("parameters", [])
        for parameter in list(parameters):
            if parameter not in item["parameters"] and all(
                parameter in item[m].get("parameters", []) for m in ("get", "put", "delete")
            ):
                item["parameters"].append(parameter)
        item[method]["parameters"] = [p for p in parameters if p not in item["parameters"]]
    assert diff(REAL, doc) == []


def test_the_proof_confirms_an_undecided_change_with_a_payload() -> None:
    """`not` replaced: the rules cannot tell which payloads moved; a generated one shows the break."""
    old_schema = schema("CommentCreate")
    old_schema["not"] = {"required": ["notify"]}
    new_schema = schema("CommentCreate")
    new_schema["not"] = {"required": ["body"]}
    old, new = edited(CommentCreate=old_schema), edited(CommentCreate=new_schema)
    assert all(not c.example for c in compare(old, new, proof=False).changes)
    report = compare(old, new, proof=True)
    shown = [c for c in report.changes if c.rule == "not-changed" and c.example]
    assert shown and all(c.classification is Classification.BREAKING for c in shown)
    assert '"body"' in shown[0].example and "shown by a payload" in shown[0].reason
