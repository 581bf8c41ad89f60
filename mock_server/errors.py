"""Errors of the mock as small typed classes carrying their status and code.

The store raises them (they hold no HTTP machinery, only the status number the
document declares); `mock_server.app` renders every one of them in one place as the
message object `{"code", "message"}` of docs/design.md.
"""

from __future__ import annotations


class ApiError(Exception):
    status: int = 400
    code: str = "invalid_input"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class InvalidInput(ApiError):
    status, code = 400, "invalid_input"


class Unauthorized(ApiError):
    status, code = 401, "unauthorized"


class PaidPlanRequired(ApiError):
    status, code = 402, "paid_plan_required"


class Forbidden(ApiError):
    status, code = 403, "forbidden"


class NotFound(ApiError):
    status, code = 404, "not_found"


class Conflict(ApiError):
    status, code = 409, "conflict"


class EngineUnavailable(ApiError):
    """The shared engine (serve --engine) cannot be reached: nothing can be answered rightly."""

    status, code = 503, "engine_unavailable"
