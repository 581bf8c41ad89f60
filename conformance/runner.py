"""A conformance run: setup checks, preflight, the three layers of checks, cleanup, verdicts, exit status.

Setup mistakes are caught before the run, each in one line: `check_setup` (no request: the base
URL, --include/--exclude, the --accept file; a settings.UsageError, exit 2) and `preflight` (the
target answers GET /v1/ping as the API does, takes the key and every user's credentials;
`Unreachable`, exit 3). A run that ran no check at all is exit 2 too: it cannot pass.

The run's coverage (coverage.py) observes every request the checks send; the checks the
settings leave out are recorded with the reason, without changing the counts or the status.
Progress goes to stderr while it runs (results.Progress).

Exit status: 0 every check passed (or failed with an --accept entry's reason), 1 failures (or an
expired --accept entry), 2 bad usage (the settings, the setup checks, a run that checked
nothing), 3 the target cannot be reached, is not the API, or refuses the credentials.
"""

from __future__ import annotations

import difflib
import importlib
import json
import random
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO
from urllib.parse import urlsplit

import httpx

from ..openapi import document as project_document
from ..openapi import load_document
from .accept import Acceptance
from .accept import load as load_accept
from .coverage import Coverage
from .failures import CheckSkipped
from .registry import LAYERS, REGISTRY, Check, RunContext, recorded_by, unselected
from .report import write_report
from .results import SKIP, Progress, Results, summary, write_junit
from .settings import Settings, UsageError
from .target import Exchange, Target

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_UNREACHABLE = 0, 1, 2, 3
METHODS = ("get", "put", "post", "delete", "patch")


class Unreachable(Exception):
    """The target cannot be reached, is not the API, or refuses the key or the credentials."""


@dataclass
class Setup:
    """What check_setup found: the document, the work planned (checks; the contract layer counts
    one per operation) and the --accept entries."""

    document: dict[str, Any]
    planned: int
    acceptance: Acceptance | None = None


@dataclass
class Verdict:
    results: Results
    left_behind: list[str]
    coverage: dict[str, Any]  # coverage.py's documented shape

    @property
    def exit_status(self) -> int:
        if self.ran == 0:
            return EXIT_USAGE  # a run that checked nothing cannot pass
        return EXIT_OK if self.results.ok and not self.left_behind else EXIT_FAILED

    @property
    def ran(self) -> int:
        """Checks that ran: passed, failed or broke (not skipped)."""
        return sum(o.status != SKIP for o in self.results.outcomes)


def run(
    settings: Settings,
    *,
    client: httpx.Client | None = None,
    out: TextIO | None = None,
    progress: Progress | None = None,
) -> int:
    """Run the suite against settings.base_url and print the verdict (on `out`, default stdout); the
    exit status. A setup mistake found before any request raises UsageError (the CLI: one line, exit 2)."""
    out = sys.stdout if out is None else out
    setup = check_setup(settings)
    target = Target(settings, client) if client is not None else Target(settings)
    try:
        preflight(target)
        verdict = run_checks(settings, target, progress=progress or Progress(), setup=setup)
    except Unreachable as exc:
        print(f"csapi conform: {exc}", file=out)
        return EXIT_UNREACHABLE
    finally:
        if client is None:  # ours to close
            target.client.close()
    print(summary(verdict.results), file=out)
    if verdict.left_behind:
        print("could not remove: " + "; ".join(verdict.left_behind), file=out)
    if settings.junit_xml:
        write_junit(verdict.results, settings.junit_xml)
    if settings.report:
        write_report(verdict.coverage, settings.report)
    if settings.coverage_json:
        text = json.dumps(verdict.coverage, indent=1, ensure_ascii=False)
        settings.coverage_json.write_text(text + "\n", encoding="utf-8", errors="backslashreplace")
    if verdict.ran == 0:
        print(f"csapi conform: {_nothing_ran(verdict.results)}", file=out)
    return verdict.exit_status


def _nothing_ran(results: Results) -> str:
    reasons = sorted({o.message for o in results.outcomes})
    why = f" ({len(results.outcomes)} skipped: {'; '.join(reasons)})" if reasons else ""
    return f"no check ran{why}: a run that checks nothing cannot pass (exit 2)"


# ---------------------------------------------------------------------- before the run
def check_setup(settings: Settings, layers: tuple[str, ...] = LAYERS) -> Setup:
    """The setup mistakes found without a request, each a UsageError of one line: a base URL with
    the document's version prefix, --include/--exclude names the document does not have, settings
    that select no check, an --accept file that cannot be read or names nothing known."""
    document = load_document(settings.document) if settings.document else project_document()
    _check_base_url(settings.base_url, document)
    for layer in layers:
        importlib.import_module(f".{layer}", __package__)  # registers its checks
    _check_names(settings, document)
    planned = sum(_weight(check, settings, document) for check in REGISTRY if check.layer in layers)
    if planned == 0:
        narrowing = [f"--include {' '.join(settings.include)}"] if settings.include else []
        narrowing += [f"--exclude {' '.join(settings.exclude)}"] if settings.exclude else []
        narrowing += ["--read-only"] if settings.read_only else []
        chosen = " with ".join(narrowing) or "the settings"
        raise UsageError(f"{chosen} selects no check: the run would check nothing")
    acceptance = load_accept(settings.accept, document) if settings.accept else None
    return Setup(document, planned, acceptance)


def version_prefix(document: dict[str, Any]) -> str:
    """The first segment every path of the document starts with (`/v1`), or ""."""
    firsts = {"/" + path.strip("/").split("/", 1)[0] for path in document.get("paths", {})}
    return firsts.pop() if len(firsts) == 1 and firsts != {"/"} else ""


def _check_base_url(base_url: str, document: dict[str, Any]) -> None:
    prefix = version_prefix(document)
    path = urlsplit(base_url).path.rstrip("/")
    if prefix and path.endswith(prefix):
        trimmed = base_url.rstrip("/")
        use = trimmed[: len(trimmed) - len(prefix)]
        raise UsageError(
            f"--base-url {base_url} ends in {prefix}, which the suite adds itself (every path of the "
            f"document starts with {prefix}): drop it, use --base-url {use}"
        )


def names_of(document: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The document's operationIds and tags: what --include/--exclude may name."""
    operations, tags = [], {str(t.get("name")) for t in document.get("tags", []) if isinstance(t, dict)}
    for item in document.get("paths", {}).values():
        for method, op in item.items():
            if method in METHODS and isinstance(op, dict) and "operationId" in op:
                operations.append(str(op["operationId"]))
                tags |= {str(tag) for tag in op.get("tags", [])}
    return operations, sorted(tags)


def _check_names(settings: Settings, document: dict[str, Any]) -> None:
    operations, tags = names_of(document)
    known = {*operations, *tags}
    for option, names in (("--include", settings.include), ("--exclude", settings.exclude)):
        for name in names:
            if name not in known:
                near = nearest(name, known)
                raise UsageError(f"{option} {name}: no operationId or tag of that name in the document{near}")


def nearest(name: str, known: set[str] | list[str]) -> str:
    """` (nearest: a, b, c)`: the known names closest to `name`, regardless of case; or ""."""
    by_lower: dict[str, str] = {}
    for candidate in sorted(known):
        by_lower.setdefault(candidate.lower(), candidate)
    near = difflib.get_close_matches(name.lower(), list(by_lower), n=3, cutoff=0.6)
    return f" (nearest: {', '.join(by_lower[n] for n in near)})" if near else ""


def _weight(check: Check, settings: Settings, document: dict[str, Any]) -> int:
    """The share of the run's work a check is: 0 when the settings leave it out (or it is a
    declared property, which its recorder runs), a recorder's 1 when any of its properties is
    selected, the contract layer's one per operation it covers, any other check's 1."""
    if check.recorded_by or _left_out(check, settings, document):
        return 0
    if not check.records_own:
        return 1
    if check.operation == "*":  # the contract layer, over every selected operation
        return sum(
            unselected(document, settings, op_id) is None and (method == "get" or not settings.read_only)
            for method, op_id in _operations(document)
        )
    properties = recorded_by(check.id)
    return int(
        not properties
        or any(
            not _left_out(p, settings, document) and not unselected(document, settings, p.operation)
            for p in properties
        )
    )


def _operations(document: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        (method, str(op["operationId"]))
        for item in document.get("paths", {}).values()
        for method, op in item.items()
        if method in METHODS and isinstance(op, dict) and "operationId" in op
    ]


def preflight(target: Target) -> None:
    """The target answers GET /v1/ping as the API does, takes the key, and knows every user given.

    The spec leaves ping's answer open ("not shown"): any 2xx whose body is JSON (or empty) will
    do; a web page, a 404, a redirect, another error or a 2xx that is not JSON is a setup mistake
    (a wrong base URL or port, a proxy's page), said in one line."""
    try:
        ping = target.request("GET", "/v1/ping", user=False)
    except httpx.HTTPError as exc:
        raise Unreachable(f"cannot reach {target.settings.base_url}: {exc}") from None
    if ping.status == 401:
        raise Unreachable("the target refuses the API key (GET /v1/ping answered 401)")
    problem = _not_the_api(ping)
    if problem:
        raise Unreachable(problem)
    for user in target.settings.users:
        me = target.request("GET", "/v1/users/me", user=user)
        if me.status == 401:
            raise Unreachable(f"the target refuses the credentials of user {user.id} (GET /v1/users/me: 401)")


def _not_the_api(ping: Exchange) -> str | None:
    """Why GET /v1/ping's answer is not the API's (one line), or None when it may be."""
    ctype = (ping.header("content-type") or "").split(";", 1)[0].strip().lower()
    text = ping.response_text.strip()
    html = "html" in ctype or text[:15].lower().startswith(("<!doctype", "<html", "<head", "<body"))
    looks_json = "json" in ctype or _parses(text)
    answered = f"GET {ping.url} answered {ping.status} ({ctype or 'no Content-Type'}"
    answered += f", {len(ping.response_text)} characters)" if text else ", empty)"
    check_url = "check --base-url: its host, port and path prefix"
    if 300 <= ping.status < 400:
        where = ping.header("location")
        to = f" to {where}" if where else ""
        return f"{answered}: a redirect{to}, not the API's answer; use the URL it redirects to as --base-url"
    if ping.status == 404:
        return f"{answered}: no such endpoint there, so this is not the API's root; {check_url}"
    if html:
        return (
            f"{answered}: a web page, not the API (a web server, a reverse proxy's or a single-page "
            f"app's index?); {check_url}"
        )
    if not 200 <= ping.status < 300:
        cause = "the API is down or not ready behind it" if ping.status >= 500 else "not the API's answer"
        return f"{answered}: {cause}; {check_url}, and that the service is up"
    if text and not looks_json:
        return f"{answered}: not JSON, so not the API's answer; {check_url}"
    return None


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


# ---------------------------------------------------------------------- the run
def run_checks(
    settings: Settings,
    target: Target,
    progress: Progress | None = None,
    layers: tuple[str, ...] = LAYERS,
    *,
    setup: Setup | None = None,
) -> Verdict:
    """Every selected check of `layers`, in layer order; then remove what the run made (also on Ctrl-C),
    and accept the failures the --accept entries of `setup` match."""
    for layer in layers:
        importlib.import_module(f".{layer}", __package__)  # registers its checks
    if setup is not None:
        document = setup.document
    else:
        document = load_document(settings.document) if settings.document else project_document()
    results = Results(progress=progress)
    context = RunContext(settings, target, results, document, random.Random(settings.seed))
    coverage = Coverage(document, settings)
    if progress is not None:
        planned = (
            setup.planned
            if setup
            else sum(_weight(c, settings, document) for c in REGISTRY if c.layer in layers)
        )
        progress.plan(results, planned)
        coverage.watch = lambda operation: progress.at(coverage.layer, operation)
    started, clock = datetime.now(UTC), time.monotonic()
    checks = [c for c in sorted(REGISTRY, key=lambda c: LAYERS.index(c.layer)) if c.layer in layers]
    try:
        with coverage.recording(target), progress.heartbeat() if progress else _nothing():
            current = ""
            for check in checks:
                reason = _left_out(check, settings, document)
                if reason:
                    results.leave_out(check.layer, check.operation, check.name, check.rule, reason)
                    continue
                if progress is not None and check.layer != current:
                    if current:
                        progress.finish_layer(current)
                    progress.start_layer(check.layer)
                current = coverage.layer = check.layer
                if progress is not None:
                    progress.at(check.layer, check.operation)
                    progress.begin_check(_weight(check, settings, document))
                _run_one(check, context)
                if progress is not None:
                    progress.end_check()
            if progress is not None and current:
                progress.finish_layer(current)
    finally:
        left_behind = target.cleanup()  # not observed: removing is not exercising
    _property_ids(results)
    if setup is not None and setup.acceptance is not None:
        setup.acceptance.apply(results)
    when = started.strftime("%Y-%m-%dT%H:%M:%SZ")
    data = coverage.as_dict(results, seconds=time.monotonic() - clock, started=when, left_behind=left_behind)
    return Verdict(results, left_behind, data)


def _property_ids(results: Results) -> None:
    """A declared property's outcome carries the property's id, not its recorder's."""
    declared = {(c.layer, c.operation, c.name, c.recorded_by): c.id for c in REGISTRY if c.recorded_by}
    for outcome in results.outcomes:
        outcome.id = declared.get((outcome.layer, outcome.operation, outcome.check, outcome.id), outcome.id)


def _left_out(check: Check, settings: Settings, document: dict[str, Any]) -> str | None:
    """Why the settings leave the check out (the reason coverage shows), or None to run it."""
    if check.writes and settings.read_only:
        return "--read-only"
    if check.strict and not settings.strict:
        return "not --strict (a gap choice of docs/design.md)"
    return None if check.records_own else unselected(document, settings, check.operation)


@contextmanager
def _nothing() -> Iterator[None]:
    yield


def _run_one(check: Check, context: RunContext) -> None:
    context.results.running = check.id  # what the check records carries its id
    if check.records_own:
        check.func(context)
        return
    with context.results.checking(check.layer, check.operation, check.name, check.rule, id=check.id):
        if len(context.settings.users) < check.users:
            raise CheckSkipped(f"needs {check.users} users: pass --user ID:TOKEN {check.users} times")
        check.func(context)
