"""The mock's store: all state and behaviour, plain Python, no HTTP.

`Store` is composed of one mixin per resource (moto's backends, split by resource);
its methods are named after the operationIds' functions. One instance per app, never a
module global; `reset()` restores it.
"""

from .core import Page, format_time, paginate
from .items import ItemFilter, parse_near
from .search import Found, SearchMixin
from .tags import TagsMixin
from .users import UsersMixin


class Store(SearchMixin, TagsMixin, UsersMixin):
    """Everything the mock knows; see the mixins for each resource's operations."""


__all__ = ["Found", "ItemFilter", "Page", "Store", "format_time", "paginate", "parse_near"]
