"""The server under test, seen only over HTTP: requests as a given user, what they looked
like (for a copy-pasteable curl line), and the things the run created, to remove at the end.

Safe on a real server: every name the run gives starts with a recognisable prefix, and
`cleanup()` deletes exactly what `created()` registered, newest first.
"""

from __future__ import annotations

import json
import secrets
import shlex
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from .settings import Settings, User

MAX_SHOWN = 600  # characters of a body shown in a verdict
# spec 8 sets no maximum page size: a server may refuse a page larger than its own maximum. Without
# --strict a refused page size above this is asked again smaller (as a clamping server would serve
# it); conform takes it that every server serves at least this many entries a page.
SMALLEST_PAGE_LIMIT = 10
PAGE_SIZES = ("per_page", "items_per_page", "count")
# spec 8: "Rate limits ... not shown": a 429 is a rate limit, and the request is sent again after
# its Retry-After (seconds, at most MAX_RETRY_AFTER; 1 when it has none), up to this many times
RATE_LIMIT_RETRIES = 3
MAX_RETRY_AFTER = 10.0


def retry_after(value: str | None) -> float:
    """The seconds a 429's Retry-After asks for, within 0 and MAX_RETRY_AFTER (1 when not a number)."""
    try:
        return min(max(float(value or "1"), 0.0), MAX_RETRY_AFTER)
    except ValueError:
        return 1.0


@dataclass
class Exchange:
    """One request and its response, as a failure report shows them."""

    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None
    status: int
    response_headers: dict[str, str]
    response_text: str

    def json(self) -> Any:
        try:
            return json.loads(self.response_text)
        except ValueError:
            return None

    def header(self, name: str) -> str | None:
        return self.response_headers.get(name.lower())

    def curl(self) -> str:
        parts = ["curl", "-sS", "-X", self.method, shlex.quote(self.url)]
        for name, value in self.headers.items():
            parts += ["-H", shlex.quote(f"{name}: {value}")]
        if self.body:
            parts += ["--data-binary", shlex.quote(self.body.decode("utf-8", "replace"))]
        return " ".join(parts)

    def shown(self) -> str:
        text = self.response_text
        if len(text) > MAX_SHOWN:
            text = text[:MAX_SHOWN] + f"... ({len(self.response_text)} characters)"
        return f"HTTP {self.status}\n{text}"


@dataclass
class Created:
    kind: str
    path: str  # the DELETE path that removes it
    user: User


@dataclass
class Target:
    settings: Settings
    client: httpx.Client = field(default=None)  # type: ignore[assignment]  # injectable for tests
    run_id: str = field(default_factory=lambda: secrets.token_hex(3))
    # told of every exchange, e.g. the run's coverage (conformance/coverage.py)
    observers: list[Callable[[Exchange], None]] = field(default_factory=list)
    # the largest page size the target served once it refused a larger one (None: none refused yet)
    page_limit: int | None = None
    _created: list[Created] = field(default_factory=list)

    def __post_init__(self) -> None:
        injected: httpx.Client | None = self.client  # None unless a test gave one
        if injected is None:
            self.client = httpx.Client(base_url=self.settings.base_url, timeout=self.settings.timeout)

    def name(self, label: str) -> str:
        """A name for something the run creates, recognisable as the suite's."""
        return f"{self.settings.prefix}-{self.run_id}-{label}"

    def request(
        self,
        method: str,
        path: str,
        *,
        user: User | None | bool = True,
        api_key: str | None | bool = True,
        params: Any = None,
        json_body: Any = None,
        data: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Exchange:
        """`user=True` is the main actor, `False`/None sends no Basic credentials; likewise api_key.

        Without --strict, a GET whose page size (per_page, items_per_page, count) the target refused
        (400 or 422) is asked again with a smaller one, down to SMALLEST_PAGE_LIMIT, and the size it
        then serves is the run's limit for every later GET (spec 8 sets no maximum page size)."""
        if method == "GET" and not self.settings.strict and isinstance(params, dict):
            params = self._within_limit(params, self.page_limit)
            exchange = self._request(method, path, user, api_key, params, json_body, data, headers)
            asked = self._page_size(params)
            while exchange.status in (400, 422) and asked is not None and asked > SMALLEST_PAGE_LIMIT:
                asked = max(SMALLEST_PAGE_LIMIT, asked // 2)
                smaller = self._request(
                    method, path, user, api_key, self._within_limit(params, asked), json_body, data, headers
                )
                if smaller.status not in (400, 422):
                    if 200 <= smaller.status < 300:
                        self.page_limit = asked
                    return smaller
            return exchange
        return self._request(method, path, user, api_key, params, json_body, data, headers)

    @staticmethod
    def _page_size(params: dict[str, Any]) -> int | None:
        """The largest page size the parameters ask for, if any."""
        sizes = [int(str(params[n])) for n in PAGE_SIZES if str(params.get(n, "")).isdigit()]
        return max(sizes) if sizes else None

    @staticmethod
    def _within_limit(params: dict[str, Any], limit: int | None) -> dict[str, Any]:
        if limit is None:
            return params
        return {
            name: limit if name in PAGE_SIZES and str(value).isdigit() and int(str(value)) > limit else value
            for name, value in params.items()
        }

    def _request(
        self,
        method: str,
        path: str,
        user: User | None | bool,
        api_key: str | None | bool,
        params: Any,
        json_body: Any,
        data: Any,
        headers: dict[str, str] | None,
    ) -> Exchange:
        sent = dict(headers or {})
        key = self.settings.api_key if api_key is True else api_key
        if key:
            sent["X-API-Key"] = key
        who = self.settings.users[0] if user is True else user
        auth = httpx.BasicAuth(str(who.id), who.token) if isinstance(who, User) else None
        for attempt in range(RATE_LIMIT_RETRIES + 1):
            response = self.client.request(
                method,
                self.settings.base_url + path,
                params=params,
                json=json_body,
                data=data,
                headers=sent,
                auth=auth,
            )
            if response.status_code != 429 or attempt == RATE_LIMIT_RETRIES:
                break
            time.sleep(retry_after(response.headers.get("retry-after")))
        request = response.request
        exchange = Exchange(
            method=method,
            url=str(request.url),
            headers={
                k: v
                for k, v in request.headers.items()
                if k.lower() in ("x-api-key", "authorization", "content-type")
            },
            body=request.content or None,
            status=response.status_code,
            response_headers={k.lower(): v for k, v in response.headers.items()},
            response_text=response.text,
        )
        for observe in self.observers:
            observe(exchange)
        return exchange

    def created(self, kind: str, delete_path: str, user: User | None = None) -> None:
        """Register something the run made, to delete at the end."""
        self._created.append(Created(kind, delete_path, user or self.settings.users[0]))

    def forget(self, delete_path: str) -> None:
        """The run deleted it itself."""
        self._created = [c for c in self._created if c.path != delete_path]

    def cleanup(self) -> list[str]:
        """Delete what the run created, newest first; returns what could not be deleted."""
        left = []
        while self._created:
            thing = self._created.pop()
            try:
                status = self.request("DELETE", thing.path, user=thing.user).status
            except httpx.HTTPError:
                status = 0
            if status not in (200, 204, 404):
                left.append(f"{thing.kind} {thing.path} (HTTP {status})")
        return left
