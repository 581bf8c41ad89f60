"""Statements of spec 3 and 4.3 about who sees which list (conformance/statements/): the collection
list's status filter is active by default; List teams, Get a team and List team members are for
any user, a plain member of the team too."""

from __future__ import annotations

from ..failures import AccessDenied, CheckSkipped, NotHonoured
from ..http import LAYER, entry, ids_of, session, unpaid
from ..registry import RunContext, check
from .writes_common import managed_team, members

R_DEFAULT = "spec 3, 4.1: the collection list status filter is active (default), archived, highlighted"
R_ANY_USER = "spec 4.3: List teams, Get a team and List team members are for any user (not managers only)"


@check(
    LAYER,
    "collections.list_collections",
    "without status the list is the list of status=active",
    R_DEFAULT,
)
def collections_status_default_active(ctx: RunContext) -> None:
    with session(ctx) as s:
        plain, archived, highlighted = (s.new_collection()["id"] for _ in range(3))
        for cid, field in ((archived, "archived"), (highlighted, "highlighted")):
            put = s.call("PUT", f"/v1/collections/{cid}", ok=(200, 402), json_body={field: True})
            if put.status == 402:
                raise unpaid("archived", "highlighted")
        ours = {plain, archived, highlighted}
        default = set(ids_of(s.listing("/v1/collections", {}))) & ours
        active = set(ids_of(s.listing("/v1/collections", {"status": "active"}))) & ours
        s.expect(
            default == active,
            f"of the run's collections {plain} (plain), {archived} (archived) and {highlighted} "
            f"(highlighted), the list without status holds {sorted(default)}, status=active "
            f"{sorted(active)}: active is the default",
            kind=NotHonoured,
        )


@check(
    LAYER,
    "teams.list_team_members",
    "a plain member reads List teams, Get a team and List team members",
    R_ANY_USER,
    users=2,
    writes=False,
)
def team_reads_for_plain_members(ctx: RunContext) -> None:
    team_id, _ = managed_team(ctx)
    member = ctx.settings.users[1]
    with session(ctx) as s:
        kind = members(s, team_id).get(member.id)
        if kind != "user":
            raise CheckSkipped(f"user 2 is not a plain member of team {team_id} (kind {kind!r})")
        reads = (
            ("/v1/teams", lambda data: entry(data, team_id), f"team {team_id}"),
            (f"/v1/teams/{team_id}", lambda data: isinstance(data, dict) and data.get("id") == team_id, "it"),
            (f"/v1/teams/{team_id}/users", lambda data: entry(data, member.id), f"user {member.id}"),
        )
        for path, shows, what in reads:
            got = s.call("GET", path, ok=(), user=member)
            s.expect(
                got.status == 200 and shows(got.json()),
                f"GET {path} as user {member.id}, a plain member of team {team_id}, answered {got.status} "
                f"without {what}",
                got,
                kind=AccessDenied,
            )
