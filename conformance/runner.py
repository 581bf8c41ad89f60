"""A conformance run: preflight, the three layers of checks, cleanup, verdicts, exit status.

The run's coverage (coverage.py) observes every request the checks send; the checks the
settings leave out are recorded with the reason, without changing the counts or the status.

Exit status: 0 every check passed, 1 failures, 2 bad usage (the CLI), 3 the target cannot
be reached or refuses the credentials at the start.
"""

from __future__ import annotations

import importlib
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TextIO

import httpx

from ..openapi import document as project_document
from ..openapi import load_document
from .coverage import Coverage
from .failures import CheckSkipped
from .registry import LAYERS, REGISTRY, Check, RunContext, unselected
from .report import write_report
from .results import Results, progress_line, summary, write_junit
from .settings import Settings
from .target import Target

EXIT_OK, EXIT_FAILED, EXIT_UNREACHABLE = 0, 1, 3  # 2, bad usage, is click's (cli.py)


class Unreachable(Exception):
    """The target cannot be reached, or refuses the key or the credentials."""


@dataclass
class Verdict:
    results: Results
    left_behind: list[str]
    coverage: dict[str, Any]  # coverage.py's documented shape

    @property
    def exit_status(self) -> int:
        return EXIT_OK if self.results.ok and not self.left_behind else EXIT_FAILED


def run(settings: Settings, *, client: httpx.Client | None = None, out: TextIO = sys.stdout) -> int:
    """Run the suite against settings.base_url and print the verdict; the exit status."""
    target = Target(settings, client) if client is not None else Target(settings)
    try:
        preflight(target)
        verdict = run_checks(settings, target, progress=progress_line())
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
    return verdict.exit_status


def preflight(target: Target) -> None:
    """The target answers, takes the key, and knows every user given."""
    try:
        ping = target.request("GET", "/v1/ping", user=False)
    except httpx.HTTPError as exc:
        raise Unreachable(f"cannot reach {target.settings.base_url}: {exc}") from None
    if ping.status == 401:
        raise Unreachable("the target refuses the API key (GET /v1/ping answered 401)")
    for user in target.settings.users:
        me = target.request("GET", "/v1/users/me", user=user)
        if me.status == 401:
            raise Unreachable(f"the target refuses the credentials of user {user.id} (GET /v1/users/me: 401)")


def run_checks(
    settings: Settings,
    target: Target,
    progress: Callable[[Results], None] | None = None,
    layers: tuple[str, ...] = LAYERS,
) -> Verdict:
    """Every selected check of `layers`, in layer order; then remove what the run made (also on Ctrl-C)."""
    for layer in layers:
        importlib.import_module(f".{layer}", __package__)  # registers its checks
    document = load_document(settings.document) if settings.document else project_document()
    results = Results(progress=progress)
    context = RunContext(settings, target, results, document, random.Random(settings.seed))
    coverage = Coverage(document, settings)
    started, clock = datetime.now(UTC), time.monotonic()
    try:
        with coverage.recording(target):
            for check in sorted(REGISTRY, key=lambda c: LAYERS.index(c.layer)):
                if check.layer not in layers:
                    continue
                reason = _left_out(check, context)
                if reason:
                    results.leave_out(check.layer, check.operation, check.name, check.rule, reason)
                    continue
                coverage.layer = check.layer
                _run_one(check, context)
    finally:
        left_behind = target.cleanup()  # not observed: removing is not exercising
    when = started.strftime("%Y-%m-%dT%H:%M:%SZ")
    data = coverage.as_dict(results, seconds=time.monotonic() - clock, started=when, left_behind=left_behind)
    return Verdict(results, left_behind, data)


def _left_out(check: Check, context: RunContext) -> str | None:
    """Why the settings leave the check out (the reason coverage shows), or None to run it."""
    settings = context.settings
    if check.writes and settings.read_only:
        return "--read-only"
    if check.strict and not settings.strict:
        return "not --strict (a gap choice of docs/design.md)"
    return None if check.records_own else unselected(context.document, settings, check.operation)


def _run_one(check: Check, context: RunContext) -> None:
    if check.records_own:
        check.func(context)
        return
    with context.results.checking(check.layer, check.operation, check.name, check.rule):
        if len(context.settings.users) < check.users:
            raise CheckSkipped(f"needs {check.users} users: pass --user ID:TOKEN {check.users} times")
        check.func(context)
