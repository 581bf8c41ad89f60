"""Statements of spec 4 that make a field required when another is absent (conformance/statements/):
Add a collaborator needs one of id, email and username; Add team member id or email; Search q or
tags. A request with none of them is refused, with any 4xx (the spec sets no status)."""

from __future__ import annotations

from typing import Any

from ..failures import WrongStatus
from ..http import LAYER, Session, session
from ..registry import RunContext, check
from ..target import Exchange
from .writes_common import managed_team, members

R_COLLABORATOR = (
    "spec 4.1 Add a collaborator: exactly one of email, id and username identifies the collaborator; "
    "each is required if the other two are absent"
)
R_MEMBER = "spec 4.3 Add team member: id required if email is absent, email required if id is absent"
R_SEARCH = "spec 4.9 Search: q required if tags is absent, tags required if q is absent"


def _refused(s: Session, exchange: Exchange, what: str) -> None:
    s.expect(
        400 <= exchange.status < 500,
        f"{what} answered {exchange.status}; a request without the required field is refused (a 4xx)",
        exchange,
        kind=WrongStatus,
    )


@check(
    LAYER,
    "collections.add_collaborator",
    "a collaborator body with none of id, email and username is refused",
    R_COLLABORATOR,
)
def collaborator_body_needs_one(ctx: RunContext) -> None:
    with session(ctx) as s:  # what a wrong 2xx added goes with the collection at the end
        cid = s.new_collection()["id"]
        path = f"/v1/collections/{cid}/users"
        _refused(s, s.call("POST", path, ok=(), json_body={}), f"POST {path} with {{}}")


@check(
    LAYER,
    "teams.add_team_member",
    "a team member body with neither id nor email is refused",
    R_MEMBER,
)
def team_member_body_needs_id_or_email(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    with session(ctx) as s:
        path = f"/v1/teams/{team_id}/users"
        before = members(s, team_id)
        exchange = s.call("POST", path, ok=(), json_body={"kind": "user"})
        if 200 <= exchange.status < 300:  # the team is not the run's: whoever was added goes again
            for added in set(members(s, team_id)) - set(before):
                ctx.target.request("DELETE", f"{path}/{added}")
        _refused(s, exchange, f"POST {path} with {{'kind': 'user'}}")


@check(LAYER, "search.search", "a search with neither q nor tags is refused", R_SEARCH, writes=False)
def search_needs_q_or_tags(ctx: RunContext) -> None:
    with session(ctx) as s:
        params: dict[str, Any]
        for params in ({}, {"page": 1, "per_page": 5}):
            query = "&".join(f"{k}={v}" for k, v in params.items())
            _refused(s, s.call("GET", "/v1/search", ok=(), params=params), f"GET /v1/search?{query}")
