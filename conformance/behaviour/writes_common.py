"""What the write checks (writes_*.py) share: reads as another user, the run's team, the activity
feed and search read tolerantly, and the paid-plan retry.

Every write check compares what a LATER, DIFFERENT read shows with what the check itself sent or
made (its reference model), never with the write's own answer. No checks here.
"""

from __future__ import annotations

import re
from typing import Any

from ..failures import CheckSkipped, NotGone, NotStored, StaleCount
from ..http import SERIAL, Session, ids_of, total_count, word
from ..registry import RunContext
from ..settings import User
from ..target import Exchange

R_FEED = (
    "spec 1, 4.10: activity is a feed of the latest collections, comments, items and reactions created "
    "in the collections the current user can access; X-Total-Count carries its total"
)
R_SEARCH = "spec 4.9: search covers collections, items and comments (type collection, comment or the item's)"


def as_user(
    s: Session, user: User, method: str, path: str, ok: tuple[int, ...] = (200,), **kwargs: Any
) -> Exchange:
    """A request as another user, failing like `s.call` (the exchange becomes the session's last)."""
    exchange = s.target.request(method, path, user=user, **kwargs)
    s.last = exchange
    if ok and exchange.status not in ok:
        s.fail(f"{method} {path} as user {user.id} answered {exchange.status}, expected {ok[0]}", exchange)
    return exchange


def unique(s: Session) -> str:
    """A word no other name of any run has (search, q)."""
    return word(s.target.run_id, next(SERIAL))


def entry(entries: Any, thing_id: Any, key: str = "id") -> dict[str, Any] | None:
    """The entry of a list with that id (or `key`), if any."""
    if not isinstance(entries, list):
        return None
    return next((e for e in entries if isinstance(e, dict) and e.get(key) == thing_id), None)


def stored(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A write that a later, different read does not show."""
    s.expect(cond, message, exchange, kind=NotStored)


def vanished(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A deleted thing still served somewhere."""
    s.expect(cond, message, exchange, kind=NotGone)


def counted(s: Session, cond: object, message: str, exchange: Exchange | None = None) -> None:
    """A count, total or feed that did not follow what the run did."""
    s.expect(cond, message, exchange, kind=StaleCount)


def skip_unpaid(fields: list[str]) -> CheckSkipped:
    return CheckSkipped(
        f"the paid-plan fields {', '.join(fields)} were refused (402): only the others were checked; "
        "the first --user must be on a paid plan for the rest"
    )


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
    exchange = as_user(s, user or s.me, "GET", f"/v1/teams/{team_id}/users")
    return {e.get("id"): e.get("kind") for e in s.body(exchange, list) if isinstance(e, dict)}


def teams_of(s: Session, user: User) -> dict[Any, Any]:
    """List teams as `user`: team id -> that user's kind in it."""
    exchange = as_user(s, user, "GET", "/v1/teams")
    return {e.get("id"): e.get("user_kind") for e in s.body(exchange, list) if isinstance(e, dict)}


def me(s: Session, user: User | None = None, include: str | None = None) -> dict[str, Any]:
    params = {"include": include} if include else None
    data: dict[str, Any] = s.body(as_user(s, user or s.me, "GET", "/v1/users/me", params=params))
    return data


# ---------------------------------------------------------------------- feeds and search
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


def search(s: Session, **params: Any) -> tuple[list[dict[str, Any]], int | None]:
    exchange = s.call("GET", "/v1/search", params=params)
    return [e for e in s.body(exchange, list) if isinstance(e, dict)], total_count(exchange)


def found(hits: list[dict[str, Any]], thing_id: int, kinds: tuple[str, ...]) -> bool:
    """A search hit for that id of one of the kinds ("item" stands for every item type)."""
    for hit in hits:
        kind = hit.get("type")
        kind = kind if kind in ("collection", "comment") else "item"
        if hit.get("id") == thing_id and kind in kinds:
            return True
    return False


def tag_counts(s: Session, path: str) -> dict[str, Any]:
    """List all tags / List collection tags: name (without case) -> items_total_count."""
    entries = s.body(s.call("GET", path), list)
    return {str(e.get("name")).casefold(): e.get("items_total_count") for e in entries if isinstance(e, dict)}


def new_comment(s: Session, item_id: int, body: dict[str, Any]) -> dict[str, Any]:
    """A comment made on the item, registered for cleanup; the answer."""
    made: dict[str, Any] = s.body(s.call("POST", f"/v1/items/{item_id}/comments", ok=(201,), json_body=body))
    s.expect(isinstance(made.get("id"), int), "the new comment has no integer id")
    s.register("comment", f"/v1/comments/{made['id']}")
    return made


def reads_as_collaborator(s: Session, cid: int, other: User, how: str) -> None:
    """`other` is listed by List collaborators of `cid` and reads it: what adding them must store."""
    listed = ids_of(s.body(s.call("GET", f"/v1/collections/{cid}/users"), list))
    s.expect(other.id in listed, f"{how}: List collaborators of {cid} shows {listed}", kind=NotStored)
    seen = as_user(s, other, "GET", f"/v1/collections/{cid}", ok=())
    s.expect(
        seen.status == 200,
        f"{how}: user {other.id} reads collection {cid} with {seen.status}",
        seen,
        kind=NotStored,
    )
