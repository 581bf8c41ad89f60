"""What a check raises: a failure (typed by what went wrong), or a skip.

A check fails by raising `CheckFailed` or one of its kinds below, with what was wrong and the
exchange that showed it; `expect` is the short form. The kind tells a reader (and the report)
which family of rule broke, as schemathesis' checks raise typed failures.
"""

from __future__ import annotations

from .target import Exchange


class CheckFailed(Exception):
    """Raised inside a check: what was wrong, and the exchange that showed it."""

    kind = "failure"

    def __init__(self, message: str, exchange: Exchange | None = None):
        super().__init__(message)
        self.message = message
        self.exchange = exchange


class CheckSkipped(Exception):
    """Raised inside a check that cannot run here (e.g. no second user given)."""


def expect(condition: object, message: str, exchange: Exchange | None = None) -> None:
    """Inside a check: fail with `message` (and the exchange) unless the condition holds."""
    if not condition:
        raise CheckFailed(message, exchange)
