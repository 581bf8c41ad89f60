"""The contract layer's run: schemathesis over every selected operation, then one outcome per
(operation, check); and the check that runs it."""

from __future__ import annotations

import base64
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from .. import driver
from ..driver import Case, Response
from ..failures import CheckFailed, CheckSkipped
from ..registry import RunContext, check
from ..target import RATE_LIMIT_RETRIES, Exchange, retry_after
from .data import (
    DELETE_ORDER,
    FAILURES,
    FUZZ_CHECKS,
    INVALID_INPUT,
    LAYER,
    MESSAGE_CHARS,
    METHODS,
    NO_OP_UPDATES,
    POSITIVE_STATUSES,
    RULES,
    SKIPPED_OUTSIDE_STRICT,
    STATEFUL_CHECKS,
    STRICT_NEGATIVE_STATUSES,
    deleted_kind,
    large_page,
    semantic_400,
)
from .loosened import spec_only
from .pool import Pool, Rejected, as_id
from .safety import Safety
from .things import Things
from .tolerated import carries_undeclared, valid_as_tolerated, valid_by_the_spec


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


def failure_text(failed: driver.Failed) -> str:
    text = re.sub(r"\n{2,}", "\n", failed.text.strip()).replace("\n", "\n   ")
    return text if len(text) <= MESSAGE_CHARS else text[:MESSAGE_CHARS] + " ..."


@dataclass
class Finding:
    message: str
    rule: str
    exchange: Exchange | None


class ContractRun(Safety, Things):
    def __init__(self, ctx: RunContext) -> None:
        self.ctx = ctx
        self.settings = ctx.settings
        self.target = ctx.target
        self.strict = ctx.settings.strict
        self.document = ctx.document
        self.session = keep_alive(ctx.settings.base_url)
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
        # answers are judged by the spec alone without --strict (loosened.py); requests are the same
        judged_by = self.document if self.strict else spec_only(self.document)
        self.schema = driver.from_document(judged_by, self._options())

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

    def _send(self, operation_id: str, case: Case) -> Response | None:
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

    # -- judging answers
    def _found(
        self, operation_id: str, name: str, message: str, exchange: Exchange | None, rule: str = ""
    ) -> None:
        self.ran.setdefault(operation_id, set()).add(name)
        self.findings.setdefault((operation_id, name), Finding(message, rule or RULES[name], exchange))

    def _applies(self, name: str, response: Response) -> bool:
        # outside --strict any 4xx is a reasonable error, whatever its body (docs/design.md, settled gaps)
        return self.strict or not 400 <= response.status_code < 500 or name not in SKIPPED_OUTSIDE_STRICT

    def _documents(self, case: Any, status: str) -> bool:
        """The document declares that status for the case's operation."""
        operation = self.document["paths"][case.path][case.method.lower()]
        return status in operation.get("responses", {})

    def _excused(self, operation_id: str, name: str, case: Any, response: Response) -> bool:
        status = response.status_code
        if name == "positive_data_acceptance":
            if status in INVALID_INPUT and (
                carries_undeclared(self.document, case, response) or semantic_400(operation_id, case)
            ):
                return True
            if operation_id == "auth.authenticate":
                # spec 5: credentials that match no account are refused; which status, spec 7 does not show
                return status == 401 or not self.strict and 400 <= status < 500
            # spec 7 shows no status for a conflict (an address taken, a second like) nor for a page
            # size above the server's maximum (spec 8 sets none): 400 and 422 are usual choices; and
            # spec 8 sets no content size limit, which a server may enforce with a 413
            conflict = self._documents(case, "409")
            limited = status in INVALID_INPUT and (conflict or large_page(case)) or status == 413
            return not self.strict and limited
        if name == "negative_data_rejection":
            tolerated = valid_as_tolerated(self.document, case, response)
            # without --strict, a request that breaks only the design's constraints may be taken
            return tolerated or not self.strict and valid_by_the_spec(self.document, case, response)
        if name == "ensure_resource_availability":
            return self._still_there(case)
        if name == "use_after_free" and not self.strict:
            return _tombstone(response)
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
                self._found(operation_id, failed.check, failure_text(failed), exchange_of(response), rule)
        if response.status_code == 401:
            self._check_challenge(operation_id, response)

    def _still_there(self, case: Any) -> bool:
        """ensure_resource_availability takes a 404 about an id in the body for one about the linked
        resource: that resource is read back, and the 404 stands only if it is gone."""
        for name, value in (case.path_parameters or {}).items():
            kind, ident = self._path_kind(case.path, name), as_id(value)
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
        if probe.answer is not None and probe.answer.status_code == 429:
            self.auth_probed.discard(operation_id)  # a rate limit: no verdict, probe a later case again
            return
        if probe.failed is not None:
            message = failure_text(probe.failed)
            self._found(operation_id, "ignored_auth", message, exchange_of(probe.answer or response))
        for answer in probe.unauthorized:
            self._check_challenge(operation_id, answer)

    def _probe_auth(self, operation_id: str) -> None:
        """No 2xx to probe from: the last valid request again, without credentials, must be refused
        (a 401 under --strict)."""
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
        if probe.status_code == 429:
            return  # a rate limit: no verdict
        # --strict: 401 (or 403), docs/design.md's status table. Otherwise any refusal: the spec sets no
        # status for missing credentials (spec 7), and a server may judge the input first (a page size
        # it refuses is a 400 with credentials or without); a 2xx is auth ignored, a 5xx a server error
        refused = probe.status_code in (401, 403) if self.strict else 400 <= probe.status_code < 500
        if not refused:
            expected = "401" if self.strict else "a refusal (4xx)"
            message = f"without credentials: HTTP {probe.status_code}, expected {expected}"
            self._found(operation_id, "ignored_auth", message, exchange_of(probe))
        elif probe.status_code == 401:
            self._check_challenge(operation_id, probe)

    def _check_challenge(self, operation_id: str, response: Response) -> None:
        """--strict: a 401 challenges for Basic (docs/design.md, status codes); the spec says nothing
        of the header, so without --strict a 401 may come without it (as many APIs answer)."""
        if not self.strict:
            return
        challenge = response.headers.get("www-authenticate")
        if not challenge:
            message = "a 401 without the WWW-Authenticate header (RFC 9110 11.6.1: the challenge is required)"
        elif not challenge[0].lower().startswith("basic"):
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
                    raise FAILURES.get(name, CheckFailed)(finding.message, finding.exchange)

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
            kind = deleted_kind(operation)
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
            kind = deleted_kind(operation)
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
                if exchange.status >= 500:
                    message = f"{method} {path}: HTTP {exchange.status}, a server error"
                elif not self.strict:
                    # the spec lists operations and forbids no others: Rails routes PATCH as PUT and
                    # answers 404 to a method it has no route for
                    continue
                elif exchange.status != 405:
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


def _tombstone(response: Response) -> bool:
    """The answer is an item marked deleted (deleted_at set): spec 2.2 gives items deleted_at and
    spec 3 leaves its lifecycle open, so a deleted item may still be answered so (not --strict)."""
    try:
        data = response.json()
    except ValueError:
        return False
    one = data[0] if isinstance(data, list) and len(data) == 1 else data
    return isinstance(one, dict) and bool(one.get("deleted_at"))


class _RateLimited(Retry):
    """urllib3's retries, waiting a 429's Retry-After as conform's own requests do (target.retry_after)."""

    def get_retry_after(self, response: Any) -> float | None:
        return retry_after(response.headers.get("Retry-After"))


def keep_alive(base_url: str) -> requests.Session:
    """A keep-alive session that reads the proxy and CA settings of the environment once, not per
    request, and sends a request again after a 429's Retry-After (a rate limit; spec 8 sets none)."""
    session = requests.Session()
    retry = _RateLimited(
        total=RATE_LIMIT_RETRIES,
        connect=0,
        read=0,
        redirect=0,
        status=RATE_LIMIT_RETRIES,
        status_forcelist=[429],
        allowed_methods=None,  # a 429 was not processed: any method may be sent again
        respect_retry_after_header=True,
        raise_on_status=False,
    )
    for scheme in ("http://", "https://"):
        session.mount(scheme, HTTPAdapter(max_retries=retry))
    session.proxies = requests.utils.get_environ_proxies(base_url)
    session.verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    session.trust_env = False
    return session


@check(LAYER, "*", "schemathesis", "the OpenAPI document is the contract", writes=False, records_own=True)
def contract(ctx: RunContext) -> None:
    try:
        ContractRun(ctx).run()
    except Exception as exc:  # the layer broke (or the target went away): one error; the other layers run
        with ctx.results.checking(LAYER, "contract", "schemathesis", "the layer runs to the end"):
            raise RuntimeError(f"the contract layer stopped: {exc!r}") from exc
