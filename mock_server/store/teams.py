"""Teams and their members (spec 4.3).

A team is an account: it owns collections and can collaborate. Members read it; only its
managers change it (403 for a plain member, 404 for anyone else). A team always keeps at
least one manager.
"""

from __future__ import annotations

from typing import Any

from ..errors import Conflict, Forbidden, InvalidInput, NotFound
from .access import AccessMixin
from .accounts import AccountsMixin
from .records import Account

Members = list[tuple[Account, str]]  # (user, kind)

_TEAM_SETTABLE = ("billing_email", "custom_domain", "labels", "name", "sort_by", "sort_order", "view_mode")


class TeamsMixin(AccessMixin, AccountsMixin):
    def list_teams(self, caller: Account) -> Members:
        """(team, the caller's kind in it) for every team the caller belongs to."""
        return [(team, team.members[caller.id]) for team in self.teams_of(caller.id)]

    def get_team(self, caller: Account, team_id: int) -> tuple[Account, str]:
        team = self.accounts.get(team_id)
        if team is None or not team.is_team or caller.id not in team.members:
            raise NotFound(f"Team {team_id} was not found.")
        return team, team.members[caller.id]

    def update_team(self, caller: Account, team_id: int, body: dict[str, Any]) -> Account:
        team = self._managed_team(caller, team_id)
        if "username" in body:
            self.require_username_free(body["username"], team)
        for name in _TEAM_SETTABLE:
            if name in body:
                setattr(team, name, body[name])
        if "username" in body:
            self.rename(team, body["username"])
        return team

    def list_team_members(self, caller: Account, team_id: int) -> Members:
        team, _ = self.get_team(caller, team_id)
        return self.members_of(team)

    def add_team_member(self, caller: Account, team_id: int, body: dict[str, Any]) -> Members:
        team = self._managed_team(caller, team_id)
        if "id" in body:
            user, named = self.accounts.get(body["id"]), f"id {body['id']}"
        else:
            user, named = self.account_by_email(body["email"]), f"email {body['email']}"
        if user is None:
            raise NotFound(f"No user has the {named}.")
        if user.is_team:
            raise InvalidInput("a team cannot be a member of a team")
        if user.id in team.members:
            raise Conflict(f"{user.username} is already a member of {team.username}.")
        team.members[user.id] = body.get("kind", "user")
        self._teams_of.setdefault(user.id, set()).add(team.id)
        return self.members_of(team)

    def update_team_member(self, caller: Account, team_id: int, user_id: int, kind: str) -> Members:
        team = self._managed_team(caller, team_id)
        self._require_member(team, user_id)
        if kind != "manager":
            self._keep_a_manager(team, user_id)
        team.members[user_id] = kind
        return self.members_of(team)

    def remove_team_member(self, caller: Account, team_id: int, user_id: int) -> None:
        team = self._managed_team(caller, team_id)
        self._require_member(team, user_id)
        self._keep_a_manager(team, user_id)
        del team.members[user_id]
        self._teams_of.get(user_id, set()).discard(team.id)

    def members_of(self, team: Account) -> Members:
        return [(self.accounts[user_id], kind) for user_id, kind in sorted(team.members.items())]

    def team_usage(self, team: Account) -> dict[str, int]:
        """Bytes: the quota, and the size of the live items in the collections the team owns."""
        used = sum(
            item.size
            for cid in self._collections_of.get(team.id, ())
            if self.collections[cid].owner_id == team.id
            for item in self.live_items(cid)
        )
        return {"quota": team.quota, "used": used}

    # ------------------------------------------------------------------ helpers
    def _managed_team(self, caller: Account, team_id: int) -> Account:
        team, kind = self.get_team(caller, team_id)
        if kind != "manager":
            raise Forbidden(f"Only the managers of team {team_id} may do this.")
        return team

    @staticmethod
    def _require_member(team: Account, user_id: int) -> None:
        if user_id not in team.members:
            raise NotFound(f"User {user_id} is not a member of team {team.id}.")

    @staticmethod
    def _keep_a_manager(team: Account, leaving: int) -> None:
        managers = [u for u, kind in team.members.items() if kind == "manager" and u != leaving]
        if not managers:
            raise Conflict(f"Team {team.id} must keep at least one manager.", code="last_manager")
