"""What the mock needs of jsonschema 4.26, behind the version check: its own format checker.

OpenAPI's `format: int64` is not a Draft 4 format, so jsonschema's Draft 4 checker (the one
connexion validates with) lets an id of 2**63 through. connexion's documented way to add a
format is to register it on that checker, `Draft4Validator.FORMAT_CHECKER`, which is global:
every validator in the process (schemathesis', another app's) would change with it. So the
mock has a checker of its own, a copy of Draft 4's with int64 added, and hands it to the
validators it builds (compat/connexion.py); jsonschema's stays as it came.
"""

# ruff: noqa: E402  (the version check comes first: outside its range the imports below may fail)

from __future__ import annotations

from ...openapi.compat import require

require("jsonschema", "4.26", "4.27")

from jsonschema import Draft4Validator, FormatChecker

INT64 = range(-(2**63), 2**63)


def is_int64(value: object) -> bool:
    """A format check: only integers are checked (a string or a bool is another keyword's business)."""
    return not isinstance(value, int) or isinstance(value, bool) or value in INT64


def format_checker() -> FormatChecker:
    """A new checker with Draft 4's formats and int64; Draft 4's own is left untouched."""
    checker = FormatChecker(formats=())  # empty: FormatChecker() takes every format ever registered
    checker.checkers.update(Draft4Validator.FORMAT_CHECKER.checkers)  # `checkers`: a documented dict
    checker.checks("int64")(is_int64)
    return checker


#: The mock's format checker: built once, never changed after (it does not grow with apps).
FORMAT_CHECKER = format_checker()
