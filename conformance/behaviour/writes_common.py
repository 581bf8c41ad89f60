"""What the write checks (writes_*.py) share: their kinds of failure, the run's team, the activity
feed read tolerantly, a collaborator's reads.

Every write check compares what a LATER, DIFFERENT read shows with what the check itself sent or
made (its reference model), never with the write's own answer. No checks here.
"""

from __future__ import annotations

import re
from typing import Any

from ..failures import CheckSkipped, NotGone, NotStored, StaleCount
from ..http import Session, ids_of, total_count, unique
from ..registry import RunContext
from ..settings import User
from ..target import Exchange

R_FEED = (
    "spec 1, 4.10: activity is a feed of the latest collections, comments, items and reactions created "
    "in the collections the current user can access; X-Total-Count carries its total"
)
R_SEARCH = "spec 4.9: search covers collections, items and comments (type collection, comment or the item's)"


def stored(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A write that a later, different read does not show."""
    s.expect(cond, message, exchange, kind=NotStored)


def vanished(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A deleted thing still served somewhere."""
    s.expect(cond, message, exchange, kind=NotGone)


def counted(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A count, total or feed that did not follow what the run did."""
    s.expect(cond, message, exchange, kind=StaleCount)


def username_for(s: Session, label: str) -> str:
    """A username the document's pattern takes, recognisable as the run's."""
    text = re.sub(r"[^A-Za-z0-9_-]", "-", s.target.name(label)).strip("-_")
    return text[-40:].lstrip("-_") or f"u{unique(s)}"


# ---------------------------------------------------------------------- the run's team
def managed_team(ctx: RunContext) -> tuple[int, dict[str, Any]]:
    """--team-id, which the first user manages: its id and its detail as read by that user."""
    team_id = ctx.settings.team_id
    if team_id is None:
        raise CheckSkipped("needs --team-id: a team that the first --user manages")
    exchange = ctx.target.request("GET", f"/v1/teams/{team_id}")
    data = exchange.json()
    if exchange.status != 200 or not isinstance(data, dict) or data.get("user_kind") != "manager":
        kind = data.get("user_kind") if isinstance(data, dict) else None
        raise CheckSkipped(
            f"the first --user is not a manager of team {team_id} (HTTP {exchange.status}, user_kind "
            f"{kind!r}): the team write checks need one"
        )
    return team_id, data


def members(s: Session, team_id: int, user: User | None = None) -> dict[Any, Any]:
    """List team members (as `user`, default the first): member id -> kind."""
    exchange = s.call("GET", f"/v1/teams/{team_id}/users", user=user)
    return {e.get("id"): e.get("kind") for e in s.body(exchange, list) if isinstance(e, dict)}


def teams_of(s: Session, user: User) -> dict[Any, Any]:
    """List teams as `user`: team id -> that user's kind in it."""
    exchange = s.call("GET", "/v1/teams", user=user)
    return {e.get("id"): e.get("user_kind") for e in s.body(exchange, list) if isinstance(e, dict)}


# ---------------------------------------------------------------------- the activity feed
def activity(s: Session, per_page: int = 30) -> tuple[list[dict[str, Any]], int | None]:
    """The first page of the activity feed (the latest) and its X-Total-Count."""
    exchange = s.call("GET", "/v1/activity", params={"page": 1, "per_page": per_page})
    entries = [e for e in s.body(exchange, list) if isinstance(e, dict)]
    return entries, total_count(exchange)


def in_feed(entries: list[dict[str, Any]], kind: str, thing_id: Any, name: str | None) -> bool:
    """Whether the feed shows that thing: by its type and id, or by its (unique) name."""
    return any(
        (e.get("type") == kind and e.get("id") == thing_id) or (name is not None and e.get("name") == name)
        for e in entries
    )


def reads_as_collaborator(s: Session, cid: int, other: User, how: str) -> None:
    """`other` is listed by List collaborators of `cid` and reads it: what adding them must store."""
    listed = ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list))
    s.expect(other.id in listed, f"{how}: List collaborators of {cid} shows {listed}", kind=NotStored)
    seen = s.call("GET", f"/v1/collections/{cid}", ok=(), user=other)
    s.expect(
        seen.status == 200,
        f"{how}: user {other.id} reads collection {cid} with {seen.status}",
        seen,
        kind=NotStored,
    )
