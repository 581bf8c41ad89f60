"""Helpers of the issue-4 tests (teams, users, emails, comments, reactions, search, activity):
build data over HTTP as a client would, and read answers with their status checked.

The accounts are those of the "empty" set (see conftest.py): users 1 (pro), 2 (free),
3 (free, a stranger) and team 4 (manager 1, member 2).
"""

from __future__ import annotations

from typing import Any

from tests.mock_server.conftest import Api, assert_error  # noqa: F401  (re-exported)

NOTIFICATIONS = "/__mock__/notifications"


def ok(response: Any, status: int = 200) -> Any:
    """The JSON body of a response that must have this status."""
    assert response.status_code == status, f"{response.status_code}: {response.text}"
    return response.json()


def total(response: Any) -> int:
    """X-Total-Count of a list response (checked to be there)."""
    assert response.status_code == 200, response.text
    return int(response.headers["X-Total-Count"])


def ids(response: Any) -> list[int]:
    return [entry["id"] for entry in ok(response)]


def collection(api: Api, user: int, name: str, kind: str = "private", **body: Any) -> int:
    """A new collection of `user` (or of a team with user_id=); its id."""
    return ok(api.post("/v1/collections", user=user, json={"name": name, "type": kind, **body}), 201)["id"]


def item(api: Api, user: int, collection_id: int, name: str, content: str = "text", **body: Any) -> int:
    """A new item (a text item unless `type` is given); its id."""
    body = {"type": "text", "content": content, "name": name, **body}
    return ok(api.post(f"/v1/collections/{collection_id}/items", user=user, json=body), 201)["id"]


def comment(api: Api, user: int, item_id: int, text: str, **body: Any) -> int:
    return ok(api.post(f"/v1/items/{item_id}/comments", user=user, json={"body": text, **body}), 201)["id"]


def like(api: Api, user: int, item_id: int) -> int:
    return ok(api.post(f"/v1/items/{item_id}/reactions", user=user), 201)["id"]


def get_item(api: Api, user: int, item_id: int) -> dict[str, Any]:
    body = ok(api.get(f"/v1/items/{item_id}", user=user))
    assert len(body) == 1
    return body[0]


def notifications(api: Api) -> list[dict[str, Any]]:
    return ok(api.client.get(NOTIFICATIONS))
