"""Handlers: one module per resource, one function per operationId.

A handler only translates HTTP to one store call and back: it gets the request's
parameters (named as in the document) and a `Ctx` with the store, the caller and the
views, and returns `(body, status[, headers])`. All behaviour lives in the store.

The lists' `count` (older clients' name for `per_page`, deprecated in the document) is no
handler parameter: guards.py renames it to `per_page` before connexion sees the request, and
when both are sent, connexion validates `count` and then, like any query parameter a handler
does not name, does not pass it.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import quote

from ..forms import Upload
from ..store import Page, Store
from ..store.items import StoredFile
from ..store.records import Account
from ..views import Views

T = TypeVar("T")

# What a handler returns, as connexion takes it: (body, status), or with headers (a list's
# X-Total-Count). The body is a view's JSON shape, a list of them, or a {code, message} body.
Answer = tuple[Any, int]
Listing = tuple[list[Any], int, dict[str, str]]


def handler_for(operation_id: str) -> Callable[..., Any]:
    """operationId `<resource>.<function>` -> handlers.<resource>.<function>; LookupError if none."""
    module, _, name = operation_id.rpartition(".")
    try:
        return getattr(importlib.import_module(f"{__name__}.{module}"), name)  # type: ignore[no-any-return]
    except (ImportError, AttributeError, ValueError) as exc:
        raise LookupError(f"no handler for {operation_id}") from exc


@dataclass
class Ctx:
    """What a handler needs of the request: the store, who calls, and how to render."""

    store: Store
    caller: Account | None
    base_url: str
    uploads: dict[str, Upload] = field(default_factory=dict)  # multipart file parts by field
    render: bool = True  # False: nobody reads the answer (a replica applying another worker's change)
    view: Views = field(init=False)

    def __post_init__(self) -> None:
        self.view = Views(self.store, self.caller, self.base_url) if self.render else _UNRENDERED

    @property
    def user(self) -> Account:
        assert self.caller is not None, "the document requires Basic credentials here"
        return self.caller

    @property
    def host(self) -> str:
        return self.base_url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]

    def stored_file(
        self, body: dict[str, Any], field_name: str = "content"
    ) -> tuple[dict[str, Any], StoredFile | None]:
        """The body with a multipart file part's field set to the file's URL, and the file's size and type."""
        upload = self.uploads.get(field_name)
        if upload is None:
            return body, None
        url = f"{self.base_url.rstrip('/')}/files/{upload.digest}/{quote(upload.filename)}"
        return {**body, field_name: url}, StoredFile(upload.size, upload.media_type)

    @staticmethod
    def listing(page: Page[T], render: Callable[[T], Any]) -> Listing:
        """A page of a list, with X-Total-Count (the total before paging)."""
        return [render(entry) for entry in page.entries], 200, {"X-Total-Count": str(page.total)}

    @staticmethod
    def each(entries: Iterable[T], render: Callable[[T], Any]) -> list[Any]:
        return [render(entry) for entry in entries]

    @staticmethod
    def deleted(what: str) -> tuple[dict[str, str], int]:
        return {"code": "deleted", "message": f"{what} was deleted."}, 200


class _Unrendered:
    """Views that render nothing: every shape is {} (handlers only return or unpack them)."""

    def __getattr__(self, name: str) -> Callable[..., dict[str, Any]]:
        return _nothing


def _nothing(*args: Any, **kwargs: Any) -> dict[str, Any]:
    return {}


_UNRENDERED: Any = _Unrendered()
