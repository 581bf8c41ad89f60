"""Section 5, authentication: the API key, HTTPS, Basic credentials, /auth and /ping, managers."""

from __future__ import annotations

from . import ACCEPTED, AUTH, NOT_SHOWN, STATUS, Statement, statement


def _s(sid: str, text: str, *checks: str, reason: str = "") -> Statement:
    return statement("5", "", text, *checks, reason=reason, sid=sid)


STATEMENTS = [
    _s(
        "5.1",
        "Every request carries a valid API key in the HTTP header `X-API-Key` (value: <API_KEY>).",
        AUTH,
    ),
    _s(
        "5.2",
        "Every request is made over HTTPS; calls made over plain HTTP are ignored.",
        reason="the scheme is the target's (--base-url, which the team chose: a local server may serve "
        "plain HTTP); what 'ignored' means on the wire (no answer, a refusal, a redirect) is not stated",
    ),
    _s(
        "5.3",
        "Most requests also require user authentication by HTTP Basic Auth: the username is the user id "
        "and the password is the user's auth token (<USER_TOKEN>).",
        AUTH,
        reason="which requests are the 'most' is the document's (its security per operation), not the spec's",
    ),
    _s(
        "5.3/auth-endpoint",
        "Auth tokens are obtained from an endpoint at /auth.",
        reason="obtaining a token needs a user's password, which conform is not given (--user ID:TOKEN); "
        "the request and response of /auth are not shown (5.6)",
    ),
    _s(
        "5.4",
        "A request to GET /v1/ping takes only the API key header.",
        ACCEPTED,  # the contract layer sends ping with the key alone: 2xx
        STATUS,
    ),
    _s(
        "5.5",
        "Managers-only endpoints (update a team, add, update and remove team member) require the caller to "
        "be a manager of that team.",
    ),
    _s(
        "5.6",
        "Request and response of the /auth endpoint and the response of /ping: not shown.",
        reason=NOT_SHOWN,
    ),
]
