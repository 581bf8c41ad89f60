"""Safety of what the contract layer sends: ids the run made, names with its prefix, no-op updates,
and what it made and deleted (registered for cleanup, kept in the pool)."""

from __future__ import annotations

from typing import Any

from ..driver import Response
from .data import (
    BODY_KINDS,
    BODY_KINDS_OF,
    CREATES,
    FORM_TYPES,
    NAMED,
    NO_OP_UPDATES,
    PATH_KINDS,
    QUERY_KINDS,
    created_ids,
    email_like,
    flat,
)
from .parts import RunParts
from .pool import Rejected, as_id, id_like
from .tolerated import body_fields, fits_body


class Safety(RunParts):
    # -- safety: ids the run made, names with the prefix, no-op updates
    def _path_kind(self, path: str, name: str) -> str | None:
        if name == "user_id":
            return "member" if path.startswith("/v1/teams/") else "account"
        return PATH_KINDS.get(name)

    def _make_safe(self, operation_id: str, case: Any) -> None:
        writes = case.method.upper() != "GET"
        if case.path_parameters:
            path = dict(case.path_parameters)
            for name, value in case.path_parameters.items():
                kind = self._path_kind(case.path, name)
                if kind is None or not self._foreign(kind, value):
                    continue
                new = self.pool.pick(kind, value)
                if new is None and writes:
                    raise Rejected(f"no {kind} made by the run to use")
                path[name] = value if new is None else new
            if path != case.path_parameters:
                case.path_parameters = path
        if case.query:
            query = dict(case.query)
            for name, kind in QUERY_KINDS.items():
                if name in query and self._foreign(kind, query[name]):
                    new = self.pool.pick(kind, query[name])
                    query[name] = query[name] if new is None else new
            if self.settings.read_only:
                query.pop("log_access", None)  # reading must not touch what the run did not create
            if query != case.query:
                case.query = query
        if isinstance(case.body, dict):
            body = self._safe_body(operation_id, case, dict(case.body), writes)
            if body != case.body:
                case.body = body

    def _safe_body(self, operation_id: str, case: Any, body: dict[str, Any], writes: bool) -> dict[str, Any]:
        # the stateful phase names live things only: a 404 about a body id is not the linked resource's
        dead = self.pool.scope is None
        for name, kind in BODY_KINDS_OF.get(operation_id, BODY_KINDS).items():
            if name not in body:
                continue
            value = body[name]
            if case.media_type in FORM_TYPES and isinstance(value, list | dict):
                value = flat(value)  # a form flattens what it carries: every value may reach the server
            out = []
            for entry in value if isinstance(value, list) else [value]:
                if not self._foreign(kind, entry):
                    out.append(entry)
                    continue
                new = self.pool.pick(kind, entry, dead=dead)
                if new is None and writes:
                    raise Rejected(f"no {kind} made by the run to use")
                out.append(entry if new is None else new)
            body[name] = out if isinstance(value, list) else out[0]
        if operation_id in NO_OP_UPDATES:
            return self._no_op(case, body)
        if operation_id in NAMED and isinstance(body.get("name"), str) and body["name"]:
            body["name"] = self._name("n")
        if isinstance(body.get("tags"), list):  # tags an item gets are named by the run too
            body["tags"] = [self._name("t") if isinstance(t, str) and t else t for t in body["tags"]]
        if operation_id == "emails.create_email_address" and email_like(body.get("email")):
            body["email"] = f"{self._name('m')}@example.com"
        if operation_id in ("collections.add_collaborator", "teams.add_team_member"):
            # an account is named by the address or username of a given user, never a stranger's
            for key in ("email", "username"):
                known = [p[key] for p in self.profiles[1:] if isinstance(p.get(key), str)]
                value = body.get(key)
                if known and isinstance(value, str) and (key == "username" or email_like(value)):
                    body[key] = known[len(value) % len(known)]
        return body

    def _foreign(self, kind: str, value: Any) -> bool:
        """An id-like value that is not one the run may name as it is: the mapping replaces it."""
        ident = as_id(value)
        return id_like(value) and (ident is None or not self.pool.allowed(kind, ident))

    def _name(self, label: str) -> str:
        self.counter += 1
        return self.target.name(f"{label}{self.counter}")

    def _no_op(self, case: Any, body: dict[str, Any]) -> dict[str, Any]:
        """An update of an account or a team the run did not create sends back what is there.

        Each valid field gets its current value; an invalid one, the point of a negative case,
        stays: it must be refused, and is undone in _track if it is not. A field that cannot be
        read back (the current user's custom_domain, labels, sort_by, sort_order, view_mode;
        spec 2.9) could not be undone, so it is never sent.
        """
        current = self.current.get(case.formatted_path)
        if current is None:
            raise Rejected("the current values could not be read")
        fields = body_fields(self.document, case.path, case.method)
        fits = fits_body(case)
        out = {}
        for key, value in body.items():
            if key not in fields:
                out[key] = value  # an unknown field: refused, or ignored
            elif key in current:
                out[key] = current[key] if fits(key, value) else value
        return out

    def _changed(self, case: Any, response: Response) -> bool:
        """Did an update the server took change a value (an invalid one it should have refused)?"""
        try:
            data = response.json()
        except ValueError:
            return True
        data = data[0] if isinstance(data, list) and len(data) == 1 else data
        current = self.current[case.formatted_path]
        return not isinstance(data, dict) or any(data.get(key) != value for key, value in current.items())

    def _undo(self, path: str) -> None:
        """An invalid update was taken: the values read before go back, and an address it added goes."""
        self.target.request("PUT", path, json_body=self.current[path])
        if path == "/v1/users/me" and self.addresses is not None:
            listed = self.target.request("GET", "/v1/emails").json()
            for entry in listed if isinstance(listed, list) else []:
                if isinstance(entry, dict) and as_id(entry.get("id")) and entry["id"] not in self.addresses:
                    self.target.request("DELETE", f"/v1/emails/{entry['id']}")

    # -- what the run made and deleted
    def _track(self, operation_id: str, case: Any, response: Response) -> None:
        status = response.status_code
        if operation_id in NO_OP_UPDATES:
            if 200 <= status < 300 and case.formatted_path in self.current and self._changed(case, response):
                self._undo(case.formatted_path)
            return
        if status == 201 and operation_id in CREATES:
            kind, template = CREATES[operation_id]
            try:
                data = response.json()
            except ValueError:
                return
            for ident in created_ids(operation_id, case.body, data):
                self.target.created(kind, template.format(**{**(case.path_parameters or {}), "id": ident}))
                self.pool.add(kind, ident)
            return
        if case.method.upper() == "DELETE" and 200 <= status < 300:
            self.target.forget(case.formatted_path)
            names = list(case.path_parameters or {})
            if names:
                gone_kind = self._path_kind(case.path, names[-1])
                gone_id = as_id(case.path_parameters[names[-1]])
                if gone_kind and gone_id:
                    self.pool.kill(gone_kind, gone_id)
            if operation_id == "collections.delete_items" and isinstance(case.body, dict):
                for entry in case.body.get("items") or []:
                    if as_id(entry):
                        self.pool.kill("item", int(entry))
