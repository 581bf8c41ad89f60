"""conform does not demand that a server refuse what docs/design.md's request tolerance lets
through (issue 14): an invalid request that is valid as the tolerance reads it ("" of a field
that is not text is null or absent, 1/0 booleans in the query, unknown fields and parameters
ignored) excuses negative_data_rejection; any other violation still counts."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
import requests

from csapi.conformance import driver
from csapi.conformance.contract import valid_as_tolerated
from csapi.openapi import document

BASE = "http://server.test"


@pytest.fixture(scope="module")
def operations() -> dict[str, driver.Operation]:
    schema = driver.from_document(document(), driver.Options(base_url=BASE))
    return {operation.id: operation for operation in driver.operations(schema)}


def excused(operations: dict[str, driver.Operation], operation_id: str, path: str, **sent: Any) -> bool:
    """Is taking this request excused? `sent`: requests' keyword arguments (params, json, data)."""
    operation = operations[operation_id]
    media_type = "application/x-www-form-urlencoded" if "data" in sent else "application/json"
    case = SimpleNamespace(
        path=operation.path, method=operation.method, media_type=media_type, operation=operation.api
    )
    request = requests.Request(operation.method, BASE + path, **sent).prepare()
    return valid_as_tolerated(document(), case, SimpleNamespace(request=request))


@pytest.mark.parametrize(
    ("operation_id", "path", "sent", "expected"),
    [
        ("items.update_item", "/v1/items/1", {"json": {"shareable": ""}}, True),  # absent
        ("items.update_item", "/v1/items/1", {"json": {"parent_id": "", "name": "x"}}, True),  # null
        ("collections.update_collection", "/v1/collections/1", {"json": {"sort_by": ""}}, True),
        ("items.update_item", "/v1/items/1", {"json": {"description": ""}}, True),  # a nullable text: null
        (
            "items.update_item",
            "/v1/items/1",
            {"json": {"shareable": "", "name": 5}},
            False,
        ),  # a wrong type stays
        ("items.update_item", "/v1/items/1", {"json": {"shareable": "yes"}}, False),
        ("emails.create_email_address", "/v1/emails", {"json": {"email": ""}}, False),  # text keeps ""
        ("items.create_item", "/v1/collections/1/items", {"json": {"type": "", "content": "x"}}, False),
        ("items.update_item", "/v1/items/1", {"json": {"name": "x"}}, False),  # nothing was read otherwise
        ("items.list_items", "/v1/items", {"params": {"page": ""}}, True),
        ("items.list_items", "/v1/items", {"params": {"owned": "1", "type": ""}}, True),
        ("items.list_items", "/v1/items", {"params": {"page": "x", "owned": ""}}, False),
        ("items.list_items", "/v1/items", {"params": {"owned": "maybe"}}, False),
        ("items.list_items", "/v1/items", {"params": {"type": "poem", "bogus": "1"}}, False),
        ("users.get_email_availability", "/v1/users/email", {"params": {"email": ""}}, False),  # required
        ("items.update_item", "/v1/items/1", {"data": {"shareable": ""}}, True),  # a form
        ("items.update_item", "/v1/items/1", {"data": {"latitude": "north"}}, False),
    ],
)
def test_what_the_tolerance_takes_is_excused(
    operations: dict[str, driver.Operation],
    operation_id: str,
    path: str,
    sent: dict[str, Any],
    expected: bool,
) -> None:
    assert excused(operations, operation_id, path, **sent) is expected
