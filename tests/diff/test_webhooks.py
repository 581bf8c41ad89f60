"""Webhooks (OpenAPI 3.1) and callbacks: operations the API server calls, with roles inverted.

The API server sends the request and the receiver (the client's side) answers, so a webhook's
request loosened can break a receiver that follows OLD (as a response loosened breaks a client),
and its response tightened can break the receiver's answers (as a request tightened does).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from csapi.cli import main
from csapi.openapi.diff import Change, Classification, diff
from csapi.openapi.walk import callbacks, operations, webhooks

BREAKING, OBLIGATION, COMPATIBLE = (
    Classification.BREAKING,
    Classification.OBLIGATION,
    Classification.COMPATIBLE,
)


def body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}}


def document() -> dict[str, Any]:
    event = {
        "type": "object",
        "required": ["id", "kind"],
        "properties": {"id": {"type": "integer"}, "kind": {"enum": ["born", "sold"]}},
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": "shop", "version": "1"},
        "paths": {
            "/subscriptions": {
                "post": {
                    "requestBody": body({"type": "object", "properties": {"url": {"type": "string"}}}),
                    "responses": {"201": {"description": "subscribed"}},
                    "callbacks": {
                        "onEvent": {
                            "{$request.body#/url}": {
                                "post": {
                                    "requestBody": {
                                        "required": True,
                                        **body({"$ref": "#/components/schemas/Event"}),
                                    },
                                    "responses": {"200": {"description": "received"}},
                                }
                            }
                        }
                    },
                }
            }
        },
        "webhooks": {"petEvent": {"$ref": "#/components/pathItems/PetEvent"}},
        "components": {
            "schemas": {"Event": event},
            "pathItems": {
                "PetEvent": {
                    "post": {
                        "requestBody": {"required": True, **body({"$ref": "#/components/schemas/Event"})},
                        "responses": {"200": {"description": "received"}},
                    }
                }
            },
        },
    }


def event(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["components"]["schemas"]["Event"]


def hook(doc: dict[str, Any]) -> dict[str, Any]:
    return doc["components"]["pathItems"]["PetEvent"]["post"]


def rules(found: list[Change]) -> set[tuple[str, Classification, str]]:
    return {(c.operation, c.classification, c.rule) for c in found}


WEBHOOK = "WEBHOOK petEvent POST"
CALLBACK = "CALLBACK POST /subscriptions onEvent {$request.body#/url} POST"


def test_the_walker_reads_webhooks_behind_refs_and_callbacks_without_changing_operations() -> None:
    doc = document()
    assert [op.label for op in webhooks(doc)] == [WEBHOOK]
    assert webhooks(doc)[0].ptr == "/components/pathItems/PetEvent/post"
    assert [op.label for op in operations(doc)] == ["POST /subscriptions"]  # the linter's walk as before
    assert [(name, op.label) for name, op in callbacks(doc, operations(doc)[0])] == [("onEvent", CALLBACK)]


def test_a_webhook_request_loosened_breaks_receivers_and_tightened_is_an_obligation() -> None:
    new = document()
    event(new)["properties"]["kind"]["enum"].append("lost")  # the server may now send "lost"
    found = diff(document(), new)
    assert (WEBHOOK, BREAKING, "enum-value-added") in rules(found)
    assert (CALLBACK, BREAKING, "enum-value-added") in rules(found)
    reason = next(c.reason for c in found if c.operation == WEBHOOK)
    assert "receiver" in reason
    new = document()
    event(new)["properties"]["kind"]["enum"].remove("sold")  # the server sends less: its obligation
    assert {c.classification for c in diff(document(), new)} == {OBLIGATION}


def test_a_webhook_response_tightened_breaks_receivers_answers() -> None:
    new = document()
    hook(new)["responses"]["200"].update(body({"type": "object", "required": ["ack"]}))
    found = [c for c in diff(document(), new) if c.operation == WEBHOOK]
    # an empty 200 had no body: a receiver that follows OLD answers one, which the API server may refuse
    assert {(c.classification, c.rule) for c in found} == {(BREAKING, "response-body-added")}
    old = document()
    hook(old)["responses"]["200"].update(body({"type": "object"}))
    new = document()
    hook(new)["responses"]["200"].update(body({"type": "object", "required": ["ack"]}))
    assert (WEBHOOK, BREAKING, "required-added") in rules(diff(old, new))


def test_a_webhook_added_is_an_obligation_and_removed_breaking() -> None:
    new = document()
    new["webhooks"]["petGone"] = {"$ref": "#/components/pathItems/PetEvent"}
    assert rules(diff(document(), new)) == {("WEBHOOK petGone POST", OBLIGATION, "webhook-added")}
    assert rules(diff(new, document())) == {("WEBHOOK petGone POST", BREAKING, "webhook-removed")}


def test_a_callback_removed_is_breaking_and_added_an_obligation() -> None:
    new = document()
    del new["paths"]["/subscriptions"]["post"]["callbacks"]
    assert rules(diff(document(), new)) == {(CALLBACK, BREAKING, "callback-removed")}
    assert rules(diff(new, document())) == {(CALLBACK, OBLIGATION, "callback-added")}


def test_a_success_status_the_receiver_may_answer_added_is_an_obligation() -> None:
    new = document()
    hook(new)["responses"]["202"] = {"description": "queued"}
    assert rules(diff(document(), new)) == {(WEBHOOK, OBLIGATION, "response-added")}


def test_a_webhook_moved_inline_from_its_ref_reports_nothing() -> None:
    new = document()
    new["webhooks"]["petEvent"] = new["components"]["pathItems"].pop("PetEvent")
    assert diff(document(), new) == []


def test_a_webhook_change_fails_the_gate_through_the_cli(tmp_path: Path) -> None:
    new = document()
    del event(new)["required"]
    (tmp_path / "old.json").write_text(json.dumps(document()), encoding="utf-8")
    (tmp_path / "new.json").write_text(json.dumps(new), encoding="utf-8")
    result = CliRunner().invoke(
        main, ["diff", str(tmp_path / "old.json"), str(tmp_path / "new.json"), "--format", "json"]
    )
    assert result.exit_code == 1, result.output
    report = json.loads(result.output)
    assert WEBHOOK in {
        change["operation"] for change in report["changes"] if change["classification"] == "breaking"
    }


def test_the_payload_proof_confirms_a_webhook_break_from_the_server_side() -> None:
    """Roles inverted for the proof too: the payload is one the API server may send under NEW."""
    new = document()
    event(new)["properties"]["kind"]["enum"].append("lost")
    found = [c for c in diff(document(), new, proof=True) if c.operation == WEBHOOK and c.breaking]
    assert found and json.loads(found[0].example)["kind"] == "lost"


def test_extensions_of_the_webhooks_map_and_of_a_callback_are_reported() -> None:
    new = document()
    new["webhooks"]["x-owner"] = "team a"
    new["paths"]["/subscriptions"]["post"]["callbacks"]["onEvent"]["x-retries"] = 3
    found = {(c.pointer, c.classification, c.rule) for c in diff(document(), new)}
    assert found == {
        ("/webhooks/x-owner", COMPATIBLE, "extension-changed"),
        ("/paths/~1subscriptions/post/callbacks/onEvent/x-retries", COMPATIBLE, "extension-changed"),
    }
