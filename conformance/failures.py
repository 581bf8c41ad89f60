"""What a check raises: a failure (typed by what went wrong), or a skip.

A check fails by raising `CheckFailed` or, better, the kind below that says which family of
rule broke, with what was wrong and the exchange that showed it; `expect` is the short form.
The kind goes with the outcome to the report, as schemathesis' checks raise typed failures.
"""

from __future__ import annotations

from typing import Any

from .target import Exchange


class CheckFailed(Exception):
    """Raised inside a check: what was wrong, and the exchange that showed it."""

    kind = "failure"

    def __init__(self, message: str, exchange: Exchange | None = None):
        super().__init__(message)
        self.message = message
        self.exchange = exchange
        self.check: Any = None  # the declared property it broke, when its raiser knows (the machine)


class WrongStatus(CheckFailed):
    """An answer's status is not one the spec or the document gives for the request."""

    kind = "wrong_status"


class SchemaViolation(CheckFailed):
    """An answer's shape, content type or headers differ from the document's."""

    kind = "schema_violation"


class NotStored(CheckFailed):
    """A write answered as if done, but a later, different read does not show it."""

    kind = "not_stored"


class NotGone(CheckFailed):
    """A deleted (or removed) thing is still served by a get, list, count, search or include."""

    kind = "not_gone"


class NotHonoured(CheckFailed):
    """A query parameter (filter, paging, order, include) is taken but its effect is missing."""

    kind = "not_honoured"


class StaleCount(CheckFailed):
    """A counter, total or feed that did not follow what the run did."""

    kind = "stale_count"


class WrongWording(CheckFailed):
    """A fixed `code` or message of an answer differs from the one the spec names."""

    kind = "wrong_wording"


class AccessLeak(CheckFailed):
    """Someone saw or did what they have no access to."""

    kind = "access_leak"


class AccessDenied(CheckFailed):
    """Someone was refused what they have access to."""

    kind = "access_denied"


FAILURE_KINDS: tuple[type[CheckFailed], ...] = (
    CheckFailed,
    WrongStatus,
    SchemaViolation,
    NotStored,
    NotGone,
    NotHonoured,
    StaleCount,
    WrongWording,
    AccessLeak,
    AccessDenied,
)


class CheckSkipped(Exception):
    """Raised inside a check that cannot run here (e.g. no second user given)."""


def expect(
    condition: object, message: str, exchange: Exchange | None = None, kind: type[CheckFailed] = CheckFailed
) -> None:
    """Inside a check: fail with `message` (and the exchange) as `kind` unless the condition holds."""
    if not condition:
        raise kind(message, exchange)
