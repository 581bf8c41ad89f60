"""Things the contract layer tests on: made once (the pool), fresh ones for writes and deletes, the
current values of no-op updates, and under --read-only ids read from the lists."""

from __future__ import annotations

from typing import Any

from .data import DELETE_PATHS, created_ids, template_of
from .parts import RunParts
from .pool import as_id
from .tolerated import body_fields


class Things(RunParts):
    # -- things to test on
    def _create(self, kind: str, path: str, body: dict[str, Any]) -> int | None:
        """POST one thing of a kind; register its removal and pool its id."""
        exchange = self.target.request("POST", path, json_body=body)
        operation_id = self.ids.get(("POST", template_of(path, self.ids)), "")
        made = created_ids(operation_id, body, exchange.json()) if exchange.status == 201 else []
        if not made:
            return None
        ident = made[0]
        # a collaborator or a team member is removed at the path it was added to, with its id
        delete = DELETE_PATHS[kind].format(id=ident) if kind in DELETE_PATHS else f"{path}/{ident}"
        self.target.created(kind, delete)
        self.pool.add(kind, ident)
        return ident

    def _delete(self, kind: str, ident: int) -> None:
        path = DELETE_PATHS[kind].format(id=ident)
        if self.target.request("DELETE", path).status in (200, 204):
            self.target.forget(path)
            self.pool.kill(kind, ident)

    def _fill_pool(self) -> None:
        """One of everything to test on, and a deleted collection and item (for 404s)."""
        settings = self.settings
        team = [settings.team_id] if settings.team_id else []
        self.pool.fixed["user"] = [user.id for user in settings.users]
        self.pool.fixed["account"] = self.pool.fixed["user"] + team
        self.pool.fixed["owner"] = [settings.users[0].id] + team
        if team:
            self.pool.fixed["team"] = team
        for user in settings.users:
            me = self.target.request("GET", "/v1/users/me", user=user).json()
            self.profiles.append(me if isinstance(me, dict) else {})
        first = self._create("collection", "/v1/collections", {"name": self._name("a"), "type": "private"})
        second = self._create("collection", "/v1/collections", {"name": self._name("b"), "type": "public"})
        self.pool.fixed["home"] = [c for c in (first, second) if c]
        gone = self._create("collection", "/v1/collections", {"name": self._name("gone"), "type": "private"})
        if gone:
            self._delete("collection", gone)
        if first is None:
            return
        items = f"/v1/collections/{first}/items"
        text = self._create("item", items, {"type": "text", "content": "csapi", "name": self._name("t")})
        link = self._create(
            "item", items, {"type": "link", "content": "https://example.com/", "name": self._name("l")}
        )
        stack = self._create("item", items, {"type": "stack", "name": self._name("s")})
        if stack:
            self._create(
                "item",
                items,
                {"type": "text", "content": "child", "parent_id": stack, "name": self._name("c")},
            )
        gone = self._create("item", items, {"type": "text", "content": "gone", "name": self._name("gone")})
        if gone:
            self._delete("item", gone)
        if text:
            self._create("comment", f"/v1/items/{text}/comments", {"body": "csapi"})
            self._create("tag", f"/v1/items/{text}/tags", {"name": self._name("tag")})
        if link:
            self._create("reaction", f"/v1/items/{link}/reactions", {})
        self._create("email", "/v1/emails", {"email": f"{self._name('m')}@example.com"})
        if len(settings.users) > 1:
            self._create("collaborator", f"/v1/collections/{first}/users", {"id": settings.users[1].id})
        self._join_team()

    def _join_team(self) -> int | None:
        """The third user (who shares nothing by default) joins the team, as the run's own membership."""
        settings = self.settings
        if settings.team_id and len(settings.users) > 2 and not self.pool.live.get("member"):
            body = {"id": settings.users[2].id, "kind": "user"}
            return self._create("member", f"/v1/teams/{settings.team_id}/users", body)
        return None

    def _fresh(self, kind: str, count: int) -> list[int]:
        """New things of a kind, without children, for an operation that writes on (or deletes) them."""
        live = self.pool.live
        collection = next(iter(live.get("collection", [])), None)
        item = next(iter(live.get("item", [])), None)
        made: list[int] = []
        for _ in range(count):
            new: int | None = None
            if kind == "collection":
                new = self._create(kind, "/v1/collections", {"name": self._name("c"), "type": "private"})
            elif kind == "item" and collection:
                body = {"type": "text", "content": "x", "name": self._name("i")}
                new = self._create(kind, f"/v1/collections/{collection}/items", body)
            elif kind == "comment" and item:
                new = self._create(kind, f"/v1/items/{item}/comments", {"body": "csapi"})
            elif kind == "tag" and item:
                new = self._create(kind, f"/v1/items/{item}/tags", {"name": self._name("tag")})
            elif kind == "email":
                new = self._create(kind, "/v1/emails", {"email": f"{self._name('m')}@example.com"})
            elif kind == "reaction" and collection:
                body = {"type": "text", "content": "y", "name": self._name("i")}
                liked = self._create("item", f"/v1/collections/{collection}/items", body)
                new = self._create(kind, f"/v1/items/{liked}/reactions", {}) if liked else None
            elif kind == "member":
                new = self._join_team()
            if new is None:
                break
            made.append(new)
        return made

    def _read_current(self, operation: Any) -> bool:
        """The current values of what a no-op update sends back."""
        path = operation.path
        if "{team_id}" in path:
            if not self.settings.team_id:
                return False
            path = path.format(team_id=self.settings.team_id)
        exchange = self.target.request("GET", path)
        data = exchange.json()
        if isinstance(data, list) and len(data) == 1:
            data = data[0]
        if exchange.status != 200 or not isinstance(data, dict):
            return False
        fields = body_fields(self.document, operation.path, operation.method)
        self.current[path] = {key: value for key, value in data.items() if key in fields}
        if path == "/v1/users/me":  # the addresses before, so that one an update adds can go again
            listed = self.target.request("GET", "/v1/emails").json()
            self.addresses = (
                {e.get("id") for e in listed if isinstance(e, dict)} if isinstance(listed, list) else None
            )
        return True

    def _discover(self) -> None:
        """--read-only: ids to read, from the lists, since the run makes nothing."""
        for kind, path in (("collection", "/v1/collections"), ("item", "/v1/items")):
            data = self.target.request("GET", path, params={"per_page": 10}).json()
            for entry in data if isinstance(data, list) else []:
                if isinstance(entry, dict) and as_id(entry.get("id")):
                    self.pool.add(kind, int(entry["id"]))
        self.pool.fixed["user"] = self.pool.fixed["account"] = [user.id for user in self.settings.users]
        if self.settings.team_id:
            self.pool.fixed["team"] = [self.settings.team_id]
