"""A mock app of its own for the tests of control.py, journal.py and report.py: they plant faults
and read the journal, so they do not share the session's app with the other tests.

`Controlled(**controls)` builds the app (about half a second) over a store of the "empty" set,
with `Controls(**controls)`; `fresh()` gives it back as new (data, faults, journal) between tests.
"""

from __future__ import annotations

from typing import Any

import httpx

from csapi.mock_server.app import create_app
from csapi.mock_server.control import Controls
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, PRO, Clock, auth_headers, empty_data


class Controlled:
    def __init__(self, **controls: Any):
        self.clock = Clock()
        self.store = Store(clock=self.clock, data=empty_data())
        self.controls = Controls(**controls)
        self.app = create_app(self.store, api_key=API_KEY, validate_responses=True, controls=self.controls)

    def fresh(self) -> Controlled:
        self.store.reset(empty_data())
        self.controls.clear_faults()
        self.controls.journal.reset()
        return self

    def headers(self, user: int = PRO, **extra: str) -> dict[str, str]:
        return {**auth_headers(self.store, user), **extra}

    def collection(self, client: Any, name: str = "Trips") -> int:
        response = client.post(
            "/v1/collections", headers=self.headers(), json={"name": name, "type": "private"}
        )
        assert response.status_code == 201, response.text
        return int(response.json()["id"])

    def requests(self, client: Any, **params: Any) -> list[dict[str, Any]]:
        response = client.get("/__mock__/requests", params=params)
        assert response.status_code == 200, response.text
        entries: list[dict[str, Any]] = response.json()
        return entries


def statuses(responses: list[httpx.Response]) -> list[int]:
    return [response.status_code for response in responses]
