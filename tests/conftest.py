"""Shared fixtures of the lint and CLI tests: a small clean OpenAPI document, and a way to write one.

The small document exercises every kind of thing the linter looks at (a `$ref`'d response,
parameter and example, a security scheme, a nullable field, an unquoted timestamp) in two
operations, so each rule can be tested without depending on the project's 49-operation document.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from csapi.openapi import load_inventory
from csapi.openapi.loader import loads

MINI_YAML = """\
openapi: 3.0.3
info: {title: Mini, version: "1.0"}
security: [{api_key: []}]
paths:
  /v1/ping:
    get:
      operationId: misc.ping
      summary: Ping
      tags: [misc]
      responses:
        "200":
          description: pong
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Message"}
              example: {code: pong, message: hello}
        "401": {$ref: "#/components/responses/Error"}
  /v1/items/{item_id}:
    parameters:
      - {$ref: "#/components/parameters/ItemId"}
    get:
      operationId: items.get
      summary: Get an item
      tags: [items]
      responses:
        "200":
          description: the item
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Item"}
              examples:
                one: {$ref: "#/components/examples/Item"}
                two:
                  value: {id: 2, name: second, note: hi, created_at: 2026-11-21T12:00:00Z}
        "404": {$ref: "#/components/responses/Error"}
components:
  schemas:
    Message:
      type: object
      required: [code, message]
      properties:
        code: {type: string}
        message: {type: string}
    Item:
      type: object
      required: [id, name]
      properties:
        id: {type: integer, example: 1}
        name: {type: string}
        note: {type: string, nullable: true}
        created_at: {type: string, format: date-time}
  parameters:
    ItemId:
      name: item_id
      in: path
      required: true
      schema: {type: integer}
      example: 3
  responses:
    Error:
      description: an error
      content:
        application/json:
          schema: {$ref: "#/components/schemas/Message"}
  examples:
    Item:
      value: {id: 1, name: first, note: null, created_at: 2026-11-21T12:00:00Z}
  securitySchemes:
    api_key: {type: apiKey, in: header, name: X-API-Key}
"""

# The small document's operations, with a parameter name that differs from the document's
# `{item_id}`: the inventory compares path shapes only.
MINI_INVENTORY = [
    {"method": "GET", "path": "/v1/ping", "name": "Ping"},
    {"method": "GET", "path": "/v1/items/{id}", "name": "Get an item"},
]

WriteDocument = Callable[..., Path]


@pytest.fixture
def mini_yaml() -> str:
    """The small document as text (e.g. to test how unquoted YAML scalars are read)."""
    return MINI_YAML


@pytest.fixture
def mini() -> dict[str, Any]:
    """A fresh parse of the small document (timestamps kept as strings), free to break."""
    return loads(MINI_YAML)


@pytest.fixture
def mini_inventory() -> list[dict[str, str]]:
    return [dict(entry) for entry in MINI_INVENTORY]


@pytest.fixture
def spec_shaped_document() -> dict[str, Any]:
    """A minimal clean document with exactly the spec's 49 operations (inventory.yaml)."""
    return _document_for_inventory(load_inventory())


@pytest.fixture
def write_document(tmp_path: Path) -> WriteDocument:
    """Write a document (dict, dumped as YAML or JSON by the file's suffix; or raw text) to tmp_path."""

    def write(document: dict[str, Any] | str, name: str = "openapi.yaml") -> Path:
        path = tmp_path / name
        if isinstance(document, str):
            text = document
        elif path.suffix == ".json":
            text = json.dumps(document, indent=2)
        else:
            text = yaml.safe_dump(document, sort_keys=False, allow_unicode=True)
        path.write_text(text, encoding="utf-8")
        return path

    return write


def _document_for_inventory(operations: list[dict[str, str]]) -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for number, entry in enumerate(operations):
        parameters = [
            {"name": name, "in": "path", "required": True, "schema": {"type": "integer"}}
            for name in _path_parameters(entry["path"])
        ]
        operation: dict[str, Any] = {
            "operationId": f"generated.op{number}",
            "summary": entry["name"],
            "tags": ["generated"],
            "responses": {
                "200": {
                    "description": "ok",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Message"}}},
                }
            },
        }
        if parameters:
            operation["parameters"] = parameters
        paths.setdefault(entry["path"], {})[entry["method"].lower()] = operation
    message = loads(MINI_YAML)["components"]["schemas"]["Message"]
    return {
        "openapi": "3.0.3",
        "info": {"title": "Generated", "version": "1.0"},
        "paths": paths,
        "components": {"schemas": {"Message": message}},
    }


def _path_parameters(template: str) -> list[str]:
    return [segment[1:-1] for segment in template.split("/") if segment.startswith("{")]
