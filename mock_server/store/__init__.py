"""The mock's store: all state and behaviour, plain Python, no HTTP.

`Store` is composed of one mixin per resource (moto's backends, split by resource);
its methods are named after the operationIds' functions. One instance per app, never a
module global; `reset()` restores it.
"""

from mock_server.store.core import Page, format_time, paginate
from mock_server.store.items import ItemFilter, parse_near
from mock_server.store.search import Found, SearchMixin
from mock_server.store.tags import TagsMixin
from mock_server.store.users import UsersMixin


class Store(SearchMixin, TagsMixin, UsersMixin):
    """Everything the mock knows; see the mixins for each resource's operations."""


__all__ = ["Found", "ItemFilter", "Page", "Store", "format_time", "paginate", "parse_near"]
