"""The contract layer: schemathesis over every operation of the document, over real HTTP.

For each selected operation, hypothesis draws requests from the document (valid ones, and
fewer invalid ones) and sends them to the target as the first user; schemathesis' checks
judge each answer: no server error, a documented status, content type, headers and body,
invalid input rejected, valid input accepted, authentication enforced. Every path is also
sent the methods it does not document (405 with Allow), and schemathesis' stateful phase
follows the document's links (create -> get/update/delete) for use-after-free and
resource-availability bugs. One outcome per (operation, check): the first failing request
is kept, shown as a curl line with the trimmed response.

Safe on a real server: path, query and body ids are mapped onto ids the run created itself
(a pool made first: collections, items, a stack, a comment, a like, a tag, an email, a
collaborator, a team membership), so no write ever names anything the run did not create.
Update current user and Update a team send the current values back (a no-op), and an
invalid update the server takes anyway is undone. Names and addresses the run creates start
with the run's prefix, and every 201 is registered for the runner's cleanup. Under
--read-only only GET operations run, on ids read from the lists, with no stateful phase.

Outside --strict a server is not failed for what only docs/design.md chose where the spec is
silent: any 4xx is an acceptable error status, and error bodies and their content type are
not checked. With --strict, errors must have a documented status and the `{code, message}` body.
"""

from __future__ import annotations

import base64
import email.policy
import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from email.parser import BytesParser
from typing import Any
from urllib.parse import parse_qs, parse_qsl, urlsplit

import requests
from jsonschema import Draft4Validator

from ..openapi import resolve
from . import driver
from .driver import Case, Response
from .failures import CheckFailed, CheckSkipped
from .registry import RunContext, check
from .target import Exchange

LAYER = "contract"
METHODS = ("get", "put", "post", "delete", "patch")
MESSAGE_CHARS = 700

# ---------------------------------------------------------------------------- the checks
RULES: dict[str, str] = {
    "not_a_server_error": "docs/design.md: never a 5xx, whatever the input",
    "status_code_conformance": "the status is one the document declares for the operation",
    "content_type_conformance": "the Content-Type is one the document declares for the status",
    "response_headers_conformance": (
        "the documented headers are there and valid (X-Total-Count on the lists; "
        "WWW-Authenticate on a 401, RFC 9110 11.6.1)"
    ),
    "response_schema_conformance": "the response matches the document's schema for {status}",
    "negative_data_rejection": "input the document does not allow is rejected with a 4xx",
    "positive_data_acceptance": "input the document allows is accepted: 2xx, or a documented 402/403/404/409",
    "ignored_auth": "spec 5: without the API key and user credentials, or with wrong ones, it is a 401",
    "unsupported_method": "a method the document does not list for a path is a 405 with an Allow header",
    "use_after_free": "a deleted resource stays gone (404) through the document's links",
    "ensure_resource_availability": "a created resource is reachable through the document's links",
}
# schemathesis' checks (conformance/driver.py names them), by what is judged: each generated case, and
# each step of the stateful phase. unsupported_method is the layer's own (_unsupported_methods).
FUZZ_CHECKS = (*driver.RESPONSE_CHECKS, *driver.INPUT_CHECKS)
STATEFUL_CHECKS = (*driver.RESPONSE_CHECKS, *driver.STATEFUL_CHECKS)
# Valid input may still meet the data: a documented 402 (paid field), 403, 404 (an id the
# run deleted), 409 (already liked, address taken). A 400 is excused only by _semantic_400.
POSITIVE_STATUSES = ["2XX", "402", "403", "404", "409"]
STRICT_NEGATIVE_STATUSES = ["400", "404", "413", "415"]
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
SKIPPED_OUTSIDE_STRICT = (
    "status_code_conformance",
    "content_type_conformance",
    "response_schema_conformance",
)

# ---------------------------------------------------------------------------- the data
# What a 201 of each operation made, and the DELETE path that removes it.
CREATES: dict[str, tuple[str, str]] = {
    "collections.create_collection": ("collection", "/v1/collections/{id}"),
    "items.create_item": ("item", "/v1/items/{id}"),
    "items.copy_items": ("item", "/v1/items/{id}"),
    "tags.create_tag": ("tag", "/v1/tags/{id}"),
    "comments.create_comment": ("comment", "/v1/comments/{id}"),
    "reactions.create_reaction": ("reaction", "/v1/reactions/{id}"),
    "emails.create_email_address": ("email", "/v1/emails/{id}"),
    "collections.add_collaborator": ("collaborator", "/v1/collections/{collection_id}/users/{id}"),
    "teams.add_team_member": ("member", "/v1/teams/{team_id}/users/{id}"),
}
DELETE_PATHS = {kind: path for kind, path in CREATES.values() if path.count("{") == 1}
PATH_KINDS = {
    "collection_id": "collection",
    "item_id": "item",
    "tag_id": "tag",
    "comment_id": "comment",
    "reaction_id": "reaction",
    "email_id": "email",
    "team_id": "team",
}
QUERY_KINDS = {"collection_id": "collection", "parent_id": "item", "owner_id": "account"}
BODY_KINDS = {
    # things move and copy only into the first collections made, which are removed last, after
    # every comment, like and tag on what moved in (a newer one would take them along unseen)
    "collection_id": "home",
    "parent_id": "item",
    "items": "item",
    "order": "item",
    "users": "account",
    "id": "account",
    "user_id": "owner",
}
# docs/design.md: a team cannot be a member of a team (400), so a new member is one of the given users
BODY_KINDS_OF = {"teams.add_team_member": {**BODY_KINDS, "id": "user"}}
# Updates of things the run did not create: a valid body is mapped onto the current values.
NO_OP_UPDATES = {"users.update_current_user", "teams.update_team"}
NAMED = {
    "collections.create_collection",
    "collections.update_collection",
    "items.create_item",
    "items.update_item",
    "tags.create_tag",
}
# DELETE operations run after every other, the leaves first.
DELETE_ORDER = ("reaction", "comment", "tag", "email", "member", "account", "item", "collection")


def _semantic_400(operation_id: str, case: Any) -> bool:
    """Rules of the spec and docs/design.md that no schema says, so input the schema allows may break them.

    Read from the request only (black-box): two query parameters that go together, a search
    without a term, a parent that must be a stack of the same collection, child ids only for
    a stack, a change of an item's type.
    """
    query = case.query or {}
    if ("ll" in query) != ("radius" in query):
        return True
    if operation_id == "search.search" and not (query.get("q") or query.get("tags")):
        return True  # spec 4.9: q is required if tags is absent
    body = case.body if isinstance(case.body, dict) else {}
    if body.get("parent_id") is not None:
        return True
    if operation_id == "items.update_item" and ("items" in body or "type" in body):
        return True
    # child ids: only a stack has them, and a stack cannot go into a stack
    return operation_id == "items.create_item" and bool(body.get("items"))


# ---------------------------------------------------------------------------- verdicts
def exchange_of(response: Response) -> Exchange:
    """The Exchange (curl line, trimmed answer) of a request schemathesis sent, and its response."""
    request = response.request
    body = request.body
    if isinstance(body, str):
        body = body.encode("utf-8")
    return Exchange(
        method=str(request.method),
        url=str(request.url),
        headers={
            name: value
            for name, value in request.headers.items()
            if name.lower() in ("x-api-key", "authorization", "content-type")
        },
        body=body or None,
        status=response.status_code,
        response_headers={name.lower(): ", ".join(values) for name, values in response.headers.items()},
        response_text=response.content.decode(response.encoding or "utf-8", "replace"),
    )


def _failure_text(failed: driver.Failed) -> str:
    text = re.sub(r"\n{2,}", "\n", failed.text.strip()).replace("\n", "\n   ")
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + " ..."


@dataclass
class Finding:
    message: str
    rule: str
    exchange: Exchange | None


# ---------------------------------------------------------------------------- the pool of ids
def _as_id(value: Any) -> int | None:
    """An id as the document writes one: a positive integer, or its digits in a path or a form."""
    if type(value) is int and value >= 1:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and int(value) >= 1:
        return int(value)
    return None


def _id_like(value: Any) -> bool:
    """Could a lenient server read an id out of this value? (True as 1, 5.7 as 5, "5abc" as 5.)

    The safety mapping replaces every such value it does not own, not only clean ids: a write
    must not reach a stranger's record through a server's loose parsing (int(5.7), parseInt).
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return math.isfinite(value) and value >= 1
    return isinstance(value, str) and re.search(r"[1-9]", value) is not None


@dataclass
class Pool:
    """Ids the run may name, by kind: what it made (live, and deleted for 404s), and the given accounts."""

    live: dict[str, list[int]] = field(default_factory=dict)
    dead: dict[str, list[int]] = field(default_factory=dict)
    fixed: dict[str, list[int]] = field(default_factory=dict)
    scope: set[tuple[str, int]] | None = None  # the stateful phase: only what it made itself
    only: dict[str, set[int]] = field(default_factory=dict)  # a DELETE operation: only fresh ones

    def add(self, kind: str, ident: int) -> None:
        ids = self.live.setdefault(kind, [])
        if ident not in ids:
            ids.append(ident)
        if self.scope is not None:
            self.scope.add((kind, ident))

    def kill(self, kind: str, ident: int) -> None:
        if ident in self.live.get(kind, []):
            self.live[kind].remove(ident)
            self.dead.setdefault(kind, []).append(ident)

    def allowed(self, kind: str, ident: int) -> bool:
        """May a request name this id as it is: the run made it (in this phase), or it was given?"""
        if kind in self.fixed:
            return ident in self.fixed[kind]
        if kind in self.only:
            return ident in self.only[kind]
        if self.scope is not None:
            return (kind, ident) in self.scope
        return ident in self.live.get(kind, []) or ident in self.dead.get(kind, [])

    def candidates(self, kind: str, *, dead: bool = True) -> list[int]:
        if kind in self.fixed:
            return list(self.fixed[kind])
        live = [i for i in self.live.get(kind, []) if self.allowed(kind, i)]
        gone = [i for i in self.dead.get(kind, []) if self.allowed(kind, i)]
        return live * 3 + (gone[-2:] if dead else [])

    def pick(self, kind: str, value: Any, *, dead: bool = True) -> int | None:
        """The pool's id standing for a generated one (the same for the same value)."""
        options = self.candidates(kind, dead=dead)
        if not options:
            return None
        digest = hashlib.sha256(repr(value).encode()).digest()
        return options[int.from_bytes(digest[:4], "big") % len(options)]


class Rejected(Exception):
    """A drawn request would name something the run did not create: it is not sent."""


# ---------------------------------------------------------------------------- the run
class ContractRun:
    def __init__(self, ctx: RunContext) -> None:
        self.ctx = ctx
        self.settings = ctx.settings
        self.target = ctx.target
        self.strict = ctx.settings.strict
        self.document = ctx.document
        self.session = _session(ctx.settings.base_url)
        self.pool = Pool()
        self.findings: dict[tuple[str, str], Finding] = {}
        self.ran: dict[str, set[str]] = {}
        self.auth_probed: set[str] = set()
        self.last_positive: dict[str, Any] = {}
        self.current: dict[str, dict[str, Any]] = {}  # path -> current values, for no-op updates
        self.profiles: list[dict[str, Any]] = []  # the given users as GET /v1/users/me shows them
        self.addresses: set[Any] | None = None  # the first user's email ids before Update current user
        self.counter = 0
        self.ids = {
            (method.upper(), path): operation["operationId"]
            for path, item in self.document["paths"].items()
            for method, operation in item.items()
            if method in METHODS and isinstance(operation, dict) and "operationId" in operation
        }
        self.schema = driver.from_document(self.document, self._options())

    # -- configuration
    def _options(self) -> driver.Options:
        """The mode is the stateful phase's (fuzzing asks for each mode itself); the document's links
        only; credentials are the layer's to send (and ignored_auth's to leave out)."""
        negative = STRICT_NEGATIVE_STATUSES if self.strict else ["4XX"]
        return driver.Options(
            checks=(*FUZZ_CHECKS, *driver.STATEFUL_CHECKS),
            mode="positive",
            base_url=self.settings.base_url,
            expected_statuses={
                "positive_data_acceptance": POSITIVE_STATUSES,
                "negative_data_rejection": negative,
            },
        )

    def _seed(self, label: str) -> int:
        return driver.derive_seed(self.settings.seed, label)

    # -- requests
    def _auth_headers(self, case: Case) -> dict[str, str]:
        """The first user's credentials, for the schemes the operation's security names."""
        operation = self.document["paths"][case.path][case.method.lower()]
        requirements = operation.get("security", self.document.get("security", []))
        schemes = self.document.get("components", {}).get("securitySchemes", {})
        user = self.settings.users[0]
        headers: dict[str, str] = {}
        for name in requirements[0] if requirements else {}:
            scheme = schemes.get(name, {})
            if scheme.get("type") == "apiKey" and scheme.get("in") == "header":
                headers[scheme["name"]] = self.settings.api_key
            elif scheme.get("type") == "http" and scheme.get("scheme", "").lower() == "basic":
                token = base64.b64encode(f"{user.id}:{user.token}".encode()).decode()
                headers["Authorization"] = f"Basic {token}"
        return headers

    def _transport(self, case: Case) -> dict[str, Any]:
        """How a case is sent: the keyword arguments of `case.call`."""
        return {
            "base_url": self.settings.base_url,
            "headers": self._auth_headers(case),
            "session": self.session,
            "timeout": self.settings.timeout,
        }

    def _send(self, operation_id: str, case: Any) -> Response | None:
        """Make the case safe, send it, note what it made; None when no answer came."""
        self._make_safe(operation_id, case)
        try:
            response = case.call(**self._transport(case))
        except requests.RequestException as exc:
            message = f"no answer: {type(exc).__name__}: {exc}"
            self._found(operation_id, "not_a_server_error", message, None)
            return None
        self._track(operation_id, case, response)
        return response

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
                value = _flat(value)  # a form flattens what it carries: every value may reach the server
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
        if operation_id == "emails.create_email_address" and _email_like(body.get("email")):
            body["email"] = f"{self._name('m')}@example.com"
        if operation_id in ("collections.add_collaborator", "teams.add_team_member"):
            # an account is named by the address or username of a given user, never a stranger's
            for key in ("email", "username"):
                known = [p[key] for p in self.profiles[1:] if isinstance(p.get(key), str)]
                value = body.get(key)
                if known and isinstance(value, str) and (key == "username" or _email_like(value)):
                    body[key] = known[len(value) % len(known)]
        return body

    def _foreign(self, kind: str, value: Any) -> bool:
        """An id-like value that is not one the run may name as it is: the mapping replaces it."""
        ident = _as_id(value)
        return _id_like(value) and (ident is None or not self.pool.allowed(kind, ident))

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
        fields = _body_fields(self.document, case.path, case.method)
        fits = _fits(case)
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
                if isinstance(entry, dict) and _as_id(entry.get("id")) and entry["id"] not in self.addresses:
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
            for ident in _created_ids(operation_id, case.body, data):
                self.target.created(kind, template.format(**{**(case.path_parameters or {}), "id": ident}))
                self.pool.add(kind, ident)
            return
        if case.method.upper() == "DELETE" and 200 <= status < 300:
            self.target.forget(case.formatted_path)
            names = list(case.path_parameters or {})
            if names:
                kind = self._path_kind(case.path, names[-1])
                ident = _as_id(case.path_parameters[names[-1]])
                if kind and ident:
                    self.pool.kill(kind, ident)
            if operation_id == "collections.delete_items" and isinstance(case.body, dict):
                for entry in case.body.get("items") or []:
                    if _as_id(entry):
                        self.pool.kill("item", int(entry))

    # -- judging answers
    def _found(
        self, operation_id: str, name: str, message: str, exchange: Exchange | None, rule: str = ""
    ) -> None:
        self.ran.setdefault(operation_id, set()).add(name)
        self.findings.setdefault((operation_id, name), Finding(message, rule or RULES[name], exchange))

    def _applies(self, name: str, response: Response) -> bool:
        # outside --strict any 4xx is a reasonable error, whatever its body (docs/design.md, settled gaps)
        return self.strict or not 400 <= response.status_code < 500 or name not in SKIPPED_OUTSIDE_STRICT

    def _excused(self, operation_id: str, name: str, case: Any, response: Response) -> bool:
        status = response.status_code
        if name == "positive_data_acceptance":
            if status == 400 and _semantic_400(operation_id, case):
                return True
            # spec 5: credentials that match no account are a 401 (user_invalid, password_incorrect)
            return status == 401 and operation_id == "auth.authenticate"
        if name == "negative_data_rejection":
            return valid_as_tolerated(self.document, case, response)
        if name == "ensure_resource_availability":
            return self._still_there(case)
        return False

    def _validate(
        self,
        operation_id: str,
        case: Any,
        response: Response,
        checks: Iterable[str],
        recorder: Any = None,
        transport: Mapping[str, Any] | None = None,
    ) -> None:
        """Run the checks that apply; keep the first unexcused failure of each for the operation."""
        transport = transport or self._transport(case)
        pending = []
        for name in checks:
            self.ran.setdefault(operation_id, set()).add(name)
            if (operation_id, name) in self.findings or not self._applies(name, response):
                continue
            if name == "ignored_auth":
                self._check_auth(operation_id, case, response, transport)
            else:
                pending.append(name)
        for failed in driver.judge(case, response, pending, transport=transport, recorder=recorder):
            if not self._excused(operation_id, failed.check, case, response):
                rule = RULES[failed.check].format(status=response.status_code)
                self._found(operation_id, failed.check, _failure_text(failed), exchange_of(response), rule)
        if response.status_code == 401:
            self._check_challenge(operation_id, response)

    def _still_there(self, case: Any) -> bool:
        """ensure_resource_availability takes a 404 about an id in the body for one about the linked
        resource: that resource is read back, and the 404 stands only if it is gone."""
        for name, value in (case.path_parameters or {}).items():
            kind, ident = self._path_kind(case.path, name), _as_id(value)
            path = {"collection": "/v1/collections/{}", "item": "/v1/items/{}"}.get(kind or "")
            if path and ident:
                return self.target.request("GET", path.format(ident)).status == 200
        return False

    def _check_auth(
        self, operation_id: str, case: Case, response: Response, transport: Mapping[str, Any]
    ) -> None:
        """schemathesis' ignored_auth, once per operation on its first valid 2xx; its 401s must challenge."""
        if (
            operation_id in self.auth_probed
            or not 200 <= response.status_code < 300
            or driver.is_negative(case)
        ):
            return
        self.auth_probed.add(operation_id)
        probe = driver.probe_auth(case, response, transport)
        if probe.failed is not None:
            message = _failure_text(probe.failed)
            self._found(operation_id, "ignored_auth", message, exchange_of(probe.answer or response))
        for answer in probe.unauthorized:
            self._check_challenge(operation_id, answer)

    def _probe_auth(self, operation_id: str) -> None:
        """No 2xx to probe from: the last valid request again, without credentials, must be a 401."""
        if operation_id in self.auth_probed or operation_id not in self.last_positive:
            return
        self.auth_probed.add(operation_id)
        case = self.last_positive[operation_id]
        try:
            probe = case.call(
                base_url=self.settings.base_url, session=self.session, timeout=self.settings.timeout
            )
        except requests.RequestException:
            return
        if probe.status_code not in (401, 403):
            message = f"without credentials: HTTP {probe.status_code}, expected 401"
            self._found(operation_id, "ignored_auth", message, exchange_of(probe))
        elif probe.status_code == 401:
            self._check_challenge(operation_id, probe)

    def _check_challenge(self, operation_id: str, response: Response) -> None:
        challenge = response.headers.get("www-authenticate")
        if not challenge:
            message = "a 401 without the WWW-Authenticate header (RFC 9110 11.6.1: the challenge is required)"
        elif self.strict and not challenge[0].lower().startswith("basic"):
            message = f"the 401's challenge is {challenge[0]!r}, not Basic (docs/design.md, status codes)"
        else:
            return
        self._found(operation_id, "response_headers_conformance", message, exchange_of(response))

    # -- outcomes
    def _record(self, operation_id: str, names: Iterable[str]) -> None:
        for name in names:
            finding = self.findings.get((operation_id, name))
            rule = finding.rule if finding else RULES[name].format(status="its status")
            with self.ctx.results.checking(LAYER, operation_id, name, rule):
                if finding is not None:
                    raise CheckFailed(finding.message, finding.exchange)

    def _skip(self, operation_id: str, names: Iterable[str], reason: str) -> None:
        for name in names:
            with self.ctx.results.checking(
                LAYER, operation_id, name, RULES[name].format(status="its status")
            ):
                raise CheckSkipped(f"{operation_id}: {reason}")

    # -- the run
    def run(self) -> None:
        operations = self._operations()
        if not operations:
            return
        selected = [operation_id for operation_id, _ in operations]
        if self.settings.read_only:
            self._discover()
        else:
            self._fill_pool()
            self._unsupported_methods(selected)
            self._stateful(selected)
        for operation_id, operation in operations:
            self._fuzz_operation(operation_id, operation)

    def _operations(self) -> list[tuple[str, driver.Operation]]:
        """The selected operations (GET only under --read-only); DELETEs last, the leaves first."""
        found = []
        for operation in driver.operations(self.schema):
            operation_id = self.ids.get((operation.method, operation.path))
            if operation_id is None or not self.ctx.selected(operation_id):
                continue
            if self.settings.read_only and operation.method != "GET":
                continue
            found.append((operation_id, operation))

        def order(entry: tuple[str, driver.Operation]) -> int:
            operation = entry[1]
            if operation.method != "DELETE":
                return -1
            kind = _deleted_kind(operation)
            return DELETE_ORDER.index(kind) if kind in DELETE_ORDER else len(DELETE_ORDER)

        return sorted(found, key=order)

    def _fuzz_operation(self, operation_id: str, operation: driver.Operation) -> None:
        names = list(FUZZ_CHECKS)
        found_before = sorted(self.ran.get(operation_id, set()) - set(names))
        reason = self._prepare(operation_id, operation)
        if reason is not None:
            self.pool.only.clear()
            self._skip(operation_id, names, reason)
            self._record(operation_id, found_before)
            return
        examples = self.settings.examples
        sent = 0
        for mode, count in (("positive", examples), ("negative", max(2, examples // 4))):
            try:
                sent += self._fuzz(operation_id, operation, mode, count)
            except driver.CannotDraw as exc:
                message = f"cannot draw {mode} requests from the document: {exc}"
                self._found(operation_id, "not_a_server_error", message, None)
            except Exception as exc:  # the layer broke on this operation: say so, go on with the next
                with self.ctx.results.checking(
                    LAYER, operation_id, "schemathesis", "the layer runs to the end"
                ):
                    raise RuntimeError(f"the contract layer broke on {mode} requests: {exc!r}") from exc
        self.pool.only.clear()
        self._probe_auth(operation_id)
        if not sent:
            self._skip(operation_id, names, "no request could be made on ids the run created")
            names = []
        ran = self.ran.get(operation_id, set())
        self._record(operation_id, [name for name in names if name in ran])
        self._record(operation_id, sorted(name for name in ran if name not in names and name in RULES))

    def _prepare(self, operation_id: str, operation: driver.Operation) -> str | None:
        """Things of the kinds a writing operation's path names; why it cannot run, if it cannot."""
        if operation_id in NO_OP_UPDATES and not self._read_current(operation):
            return "the current values cannot be read, so no update can be a no-op"
        if self.settings.read_only or operation.method.upper() == "GET":
            return None
        for name in re.findall(r"\{([^}]+)\}", operation.path):
            kind = self._path_kind(operation.path, name)
            if kind == "team" and not self.settings.team_id:
                return "needs the team's id (--team-id)"
            if kind is not None and kind not in self.pool.fixed and not self.pool.live.get(kind):
                self._fresh(kind, 1)
        if operation.method.upper() == "DELETE":
            # a DELETE removes only things made for it: a stack, a commented item or a
            # collection the other operations test on would take its children along
            kind = _deleted_kind(operation)
            if kind is not None and kind not in self.pool.fixed:
                fresh = self._fresh(kind, 2) or (self.pool.live.get(kind, []) if kind == "member" else [])
                self.pool.only[kind] = set(fresh) | set(self.pool.dead.get(kind, [])[-2:])
        for name in re.findall(r"\{([^}]+)\}", operation.path):
            kind = self._path_kind(operation.path, name)
            if kind is not None and not self.pool.candidates(kind):
                return f"no {kind} made by the run to use"
        return None

    def _fuzz(self, operation_id: str, operation: driver.Operation, mode: str, count: int) -> int:
        """`count` cases of the operation in a mode, each made safe, sent and judged; how many were sent."""
        sent = 0

        def send(case: Case) -> None:
            nonlocal sent
            try:
                response = self._send(operation_id, case)
            except Rejected:
                driver.reject()
            sent += 1
            if response is None:
                return
            if mode == "positive":
                self.last_positive[operation_id] = case
            self._validate(operation_id, case, response, FUZZ_CHECKS)

        driver.fuzz(operation, mode, count, self._seed(f"{operation_id}:{mode}"), send)
        return sent

    # -- methods the document does not list
    def _unsupported_methods(self, selected: list[str]) -> None:
        """Each path is sent the methods the document does not list for it, without a body.

        Safe on a real server: DELETE, POST and PUT go only to paths that end in something the
        run made (an undocumented DELETE /v1/users/me or /v1/teams/{id} could exist); other
        paths get only GET and PATCH.
        """
        for path, item in self.document["paths"].items():
            declared = {method for method in item if method in METHODS}
            owners = [
                item[m]["operationId"] for m in METHODS if m in item and item[m]["operationId"] in selected
            ]
            concrete = self._concrete(path) if owners else None
            if concrete is None:
                continue  # nothing to put in the path: the operation's other checks say why
            names = re.findall(r"\{([^}]+)\}", path)
            ours = bool(names) and self._path_kind(path, names[-1]) not in self.pool.fixed
            operation_id = owners[0]
            self.ran.setdefault(operation_id, set()).add("unsupported_method")
            for method in (m.upper() for m in METHODS if m not in declared):
                if not ours and method not in ("GET", "PATCH"):
                    continue
                exchange = self.target.request(method, concrete)
                allow = exchange.header("allow")
                if exchange.status != 405:
                    message = f"{method} {path}: HTTP {exchange.status}, expected 405 Method Not Allowed"
                elif not allow:
                    message = f"{method} {path}: a 405 without the Allow header (RFC 9110 15.5.6)"
                elif self.strict and not declared <= {m.strip().lower() for m in allow.split(",")}:
                    message = f"{method} {path}: Allow {allow!r} leaves out documented methods"
                else:
                    continue
                self._found(operation_id, "unsupported_method", message, exchange)
                break

    def _concrete(self, path: str) -> str | None:
        values = {}
        for name in re.findall(r"\{([^}]+)\}", path):
            kind = self._path_kind(path, name)
            options = self.pool.candidates(kind, dead=False) if kind else []
            if not options:
                return None
            values[name] = options[0]
        return path.format(**values)

    # -- the stateful phase
    def _stateful(self, selected: list[str]) -> None:
        """schemathesis' state machine over the document's links, on what it makes itself."""
        quick = self.settings.quick
        try:
            driver.run_stateful(
                self.schema,
                _Links(self),
                examples=3 if quick else max(4, self.settings.examples // 2),
                steps=4 if quick else 6,
                seed=self._seed("stateful"),
                operation_ids=[o for o in selected if o not in NO_OP_UPDATES],
            )
        except Exception as exc:  # the phase broke: say so, and go on with the operations one by one
            with self.ctx.results.checking(LAYER, "contract", "stateful links", "the layer runs to the end"):
                raise RuntimeError(f"the stateful phase broke: {exc!r}") from exc
        finally:
            self.pool.scope = None

    # -- things to test on
    def _create(self, kind: str, path: str, body: dict[str, Any]) -> int | None:
        """POST one thing of a kind; register its removal and pool its id."""
        exchange = self.target.request("POST", path, json_body=body)
        operation_id = self.ids.get(("POST", _template_of(path, self.ids)), "")
        made = _created_ids(operation_id, body, exchange.json()) if exchange.status == 201 else []
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
        fields = _body_fields(self.document, operation.path, operation.method)
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
                if isinstance(entry, dict) and _as_id(entry.get("id")):
                    self.pool.add(kind, int(entry["id"]))
        self.pool.fixed["user"] = self.pool.fixed["account"] = [user.id for user in self.settings.users]
        if self.settings.team_id:
            self.pool.fixed["team"] = [self.settings.team_id]


class _Links(driver.Scenario):
    """The stateful phase's steps, as the run's: made safe, sent as the first user, tracked, judged."""

    def __init__(self, run: ContractRun) -> None:
        self.run = run

    def _operation_id(self, case: Case) -> str:
        return self.run.ids[(case.method.upper(), case.path)]

    def setup(self) -> None:
        self.run.pool.scope = set()  # each scenario names only what it made itself

    def before_call(self, case: Case) -> None:
        try:
            self.run._make_safe(self._operation_id(case), case)
        except Rejected:
            driver.reject()

    def call_kwargs(self, case: Case) -> dict[str, Any]:
        return self.run._transport(case)

    def after_call(self, case: Case, response: Response) -> None:
        self.run._track(self._operation_id(case), case, response)

    def validate(self, case: Case, response: Response, transport: Mapping[str, Any], recorder: Any) -> None:
        self.run._validate(self._operation_id(case), case, response, STATEFUL_CHECKS, recorder, transport)


def _created_ids(operation_id: str, body: Any, data: Any) -> list[int]:
    """The ids a 201 made: the answer's, each entry's of a list (a copy), or the member the body named
    (Add team member answers the whole member list)."""
    if operation_id == "teams.add_team_member" and isinstance(body, dict) and isinstance(data, list):
        ident, email = _as_id(body.get("id")), body.get("email")
        for entry in data:
            if isinstance(entry, dict) and (
                entry.get("id") == ident or email and entry.get("email") == email
            ):
                return [i for i in [_as_id(entry.get("id"))] if i]
        return []
    entries = data if isinstance(data, list) else [data]
    return [i for i in (_as_id(e.get("id")) for e in entries if isinstance(e, dict)) if i is not None]


def _template_of(path: str, ids: dict[tuple[str, str], str]) -> str:
    """The document's path template of a concrete path (ids are digits)."""
    for _, template in ids:
        if re.fullmatch(re.sub(r"\\\{[^}]+\\\}", r"\\d+", re.escape(template)), path):
            return template
    return path


def valid_as_tolerated(document: dict[str, Any], case: Any, response: Response) -> bool:
    """The invalid request is valid as a server may read it (docs/design.md, request tolerance and
    request encoding), so taking it is no failure.

    The design has a server ignore query parameters and body fields an operation does not have,
    take an empty value as null where the field is nullable and as absent where it is not text
    (not a string, or a string of an enum), and read a boolean query parameter's 1/0 as
    true/false; a form body reads as `_valid_as_form` says. The request as it was sent
    is read so, and must then be valid: its query against the operation's parameters, its body
    against the JSON body's schema. A JSON body or a query that is invalid only where no such
    reading applies (a wrong type, a missing field, a value outside an enum) still counts.
    """
    item = document["paths"][case.path]
    query_ok, changed = _query_as_tolerated(document, item, case.method.lower(), response)
    if not query_ok:
        return False
    if case.media_type in FORM_TYPES:
        return _valid_as_form(case, response, document)
    validator = driver.body_validator(case.operation)
    raw = response.request.body
    if validator is None or not raw:
        return changed
    try:
        body = json.loads(raw)
    except ValueError:
        return False
    if not isinstance(body, dict):
        return False
    fields = _field_schemas(document, case.path, case.method)
    read = {}
    for name, value in body.items():
        schema = fields.get(name)
        if schema is None or (value == "" and (schema.get("nullable") or _means_nothing(schema))):
            changed = True  # ignored, or null or absent
            if schema is not None and schema.get("nullable"):
                read[name] = None
            continue
        read[name] = value
    return changed and validator.is_valid(read)


def _query_as_tolerated(
    document: dict[str, Any], item: dict[str, Any], method: str, response: Response
) -> tuple[bool, bool]:
    """(the query string as sent is valid as the tolerance reads it, that reading changed something)"""
    params, required = {}, []
    for parameter in [*item.get("parameters", []), *item[method].get("parameters", [])]:
        parameter = resolve(parameter, document)
        if parameter.get("in") == "query":
            params[parameter["name"]] = _flat_schema(parameter.get("schema", {}), document)
            if parameter.get("required"):
                required.append(parameter["name"])
    changed = False
    read: dict[str, Any] = {}
    for name, text in parse_qsl(urlsplit(str(response.request.url)).query, keep_blank_values=True):
        schema = params.get(name)
        if schema is None or (text == "" and (schema.get("nullable") or _means_nothing(schema))):
            changed = True  # ignored, or absent (a query string has no null)
        elif schema.get("type") == "array":  # `tags=a,b` is two tags (request encoding)
            items = _flat_schema(schema.get("items", {}), document)
            read.setdefault(name, []).extend(_text_as(part, items) for part in text.split(",") if part)
        elif name in read:
            return False, changed  # a single value given twice is refused
        else:
            changed = changed or (schema.get("type") == "boolean" and text in ("1", "0"))
            read[name] = _text_as(text, schema)
    schema = {"type": "object", "properties": params, "required": required}
    return Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER).is_valid(read), changed


def _text_as(text: str, schema: dict[str, Any]) -> Any:
    """A query parameter's text as the value it stands for under its schema (or the text)."""
    kind = schema.get("type")
    if kind == "integer" and re.fullmatch(r"-?\d+", text):
        return int(text)
    if kind == "number" and _NUMBER.fullmatch(text):
        return float(text)
    if kind == "boolean" and text in ("true", "false", "1", "0"):
        return text in ("true", "1")
    return text


def _means_nothing(schema: dict[str, Any]) -> bool:
    """docs/design.md, request tolerance: "" is absent for a field that is not text (null where nullable)."""
    return schema.get("type") != "string" or "enum" in schema


def _flat_schema(schema: dict[str, Any], document: dict[str, Any]) -> dict[str, Any]:
    """The schema, with a `description` + `allOf: [$ref]` field read as the schema it refers to."""
    schema = resolve(schema, document)
    if "allOf" in schema and "type" not in schema:
        own = {key: value for key, value in schema.items() if key != "allOf"}
        schema = {**resolve(schema["allOf"][0], document), **own}
    return schema


def _valid_as_form(case: Any, response: Response, document: dict[str, Any]) -> bool:
    """The invalid body is valid as the form that was sent reads (docs/design.md, request encoding).

    A form carries text only, so many violations do not survive the encoding: the integer 0
    in a boolean field travels as "0" (false), false in a text field as the text "false", null
    as "null", an object in a multipart part as its JSON text, an empty list as nothing, and
    `tags=a,b` is a list. Each field of the form that was sent takes the first reading of its
    text that is valid where it stands; an empty text that fits nowhere is the field's absence
    where the field is not free text (request tolerance). Then the whole must be valid against
    the JSON body's schema, so every other violation (a missing field, a number out of range,
    a value outside an enum) still counts.
    """
    sent = _sent_form(response)
    validator = driver.body_validator(case.operation)
    if sent is None or validator is None:
        return False
    fits = _fits(case)
    fields = _field_schemas(document, case.path, case.method)
    read = {}
    for name, texts in sent.items():
        readings = _form_readings(texts)
        value = next((value for value in readings if fits(name, value)), _NO_READING)
        if value is _NO_READING and texts == [""] and _means_nothing(fields.get(name, {})):
            continue  # absent
        read[name] = readings[0] if value is _NO_READING else value
    return validator.is_valid(read)


_NO_READING = object()


def _fits(case: Any) -> Callable[[str, Any], bool]:
    """Is a value valid for a field of the operation's JSON body, where it stands?"""
    validator = driver.body_validator(case.operation)
    if validator is None:
        return lambda name, value: False

    def fits(name: str, value: Any) -> bool:
        return not any(list(e.instance_path[:1]) == [name] for e in validator.iter_errors({name: value}))

    return fits


def _sent_form(response: Response) -> dict[str, list[str]] | None:
    """The fields of the form body that was sent, each with its texts (a repeated key has several)."""
    request = response.request
    content_type = request.headers.get("Content-Type", "")
    body = request.body.encode() if isinstance(request.body, str) else request.body or b""
    if content_type.startswith("application/x-www-form-urlencoded"):
        return parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
    if not content_type.startswith("multipart/form-data"):
        return None
    message = BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body
    )
    fields: dict[str, list[str]] = {}
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        payload = part.get_payload(decode=True) or b""
        if isinstance(name, str):
            fields.setdefault(name, []).append(payload.decode("utf-8", "replace"))
    return fields


def _form_readings(texts: list[str]) -> list[Any]:
    """What a form field's texts may stand for: the text, a list (the repeated key's texts, or
    one text split at commas, empty parts dropped), a boolean, null, a number, JSON, an object."""
    readings: list[Any] = [texts[0]] if len(texts) == 1 else [texts, [_number(t) for t in texts]]
    for text in texts:
        parts = [part for part in text.split(",") if part != ""]
        readings += [text, parts, [_number(part) for part in parts]]
        if text in ("true", "1", "false", "0"):
            readings.append(text in ("true", "1"))
        if text in ("", "null"):
            readings.append(None)
        if _NUMBER.fullmatch(text):
            readings.append(json.loads(text))
        if text[:1] in ("{", "["):
            try:
                readings.append(json.loads(text))
            except ValueError:
                pass
        # an object sent as one field: HTTP clients send a dict's keys only (requests does), so a
        # server may take `metadata=v` for an entry under the empty key
        readings.append({"": text})
    return readings


_NUMBER = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?")


def _number(text: str) -> Any:
    return json.loads(text) if _NUMBER.fullmatch(text) else text


def _session(base_url: str) -> requests.Session:
    """A keep-alive session that reads the proxy and CA settings of the environment once, not per request."""
    session = requests.Session()
    session.proxies = requests.utils.get_environ_proxies(base_url)
    session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    session.trust_env = False
    return session


def _deleted_kind(operation: driver.Operation) -> str | None:
    """What a DELETE operation removes (the kind of its last path parameter, or items by body)."""
    if operation.path.endswith("/items"):
        return "item"
    names = re.findall(r"\{([^}]+)\}", operation.path)
    if not names:
        return None
    if names[-1] == "user_id":
        return "member" if operation.path.startswith("/v1/teams/") else "account"
    return PATH_KINDS.get(names[-1])


def _flat(value: Any) -> list[Any]:
    """The scalars of nested lists and objects (keys too): what a form encoding may send of them."""
    if isinstance(value, dict):
        return [x for key, item in value.items() for x in [key, *_flat(item)]]
    if isinstance(value, list):
        return [x for item in value for x in _flat(item)]
    return [value]


def _email_like(value: Any) -> bool:
    return isinstance(value, str) and re.fullmatch(r"[^@\s]+@[^@\s]+", value) is not None


def _body_fields(document: dict[str, Any], path: str, method: str) -> set[str]:
    """The top-level fields of an operation's JSON request body."""
    body = resolve(document["paths"][path][method.lower()].get("requestBody", {}), document)
    return _properties(body.get("content", {}).get("application/json", {}).get("schema", {}), document)


def _field_schemas(document: dict[str, Any], path: str, method: str) -> dict[str, dict[str, Any]]:
    """name -> schema of each top-level field of an operation's JSON request body (the first
    definition of a name: its own properties, then allOf, then the alternatives)."""
    body = resolve(document["paths"][path][method.lower()].get("requestBody", {}), document)
    schema = body.get("content", {}).get("application/json", {}).get("schema", {})

    def walk(node: dict[str, Any]) -> dict[str, dict[str, Any]]:
        node = resolve(node, document)
        out = {name: _flat_schema(prop, document) for name, prop in node.get("properties", {}).items()}
        for key in ("allOf", "oneOf", "anyOf"):
            for part in node.get(key, []):
                for name, prop in walk(part).items():
                    out.setdefault(name, prop)
        return out

    return walk(schema)


def _properties(schema: dict[str, Any], document: dict[str, Any]) -> set[str]:
    schema = resolve(schema, document)
    names = set(schema.get("properties", {}))
    for key in ("allOf", "anyOf", "oneOf"):
        for part in schema.get(key, []):
            names |= _properties(part, document)
    return names


@check(LAYER, "*", "schemathesis", "the OpenAPI document is the contract", writes=False, records_own=True)
def contract(ctx: RunContext) -> None:
    try:
        ContractRun(ctx).run()
    except Exception as exc:  # the layer broke (or the target went away): one error; the other layers run
        with ctx.results.checking(LAYER, "contract", "schemathesis", "the layer runs to the end"):
            raise RuntimeError(f"the contract layer stopped: {exc!r}") from exc
