"""A conformance run: preflight, the three layers of checks, cleanup, verdicts, exit status.

Exit status: 0 every check passed, 1 failures, 2 bad usage (the CLI), 3 the target cannot
be reached or refuses the credentials at the start.
"""

from __future__ import annotations

import importlib
import random
import sys
from dataclasses import dataclass
from typing import TextIO

import httpx

from ..openapi import document as project_document
from ..openapi import load_document
from .failures import CheckSkipped
from .registry import REGISTRY, Check, RunContext
from .results import Results, progress_line, summary, write_junit, write_report
from .settings import Settings
from .target import Target

LAYERS = ("contract", "behaviour", "access")
EXIT_OK, EXIT_FAILED, EXIT_UNREACHABLE = 0, 1, 3  # 2, bad usage, is click's (cli.py)


class Unreachable(Exception):
    """The target cannot be reached, or refuses the key or the credentials."""


@dataclass
class Verdict:
    results: Results
    left_behind: list[str]

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
        write_report(verdict.results, settings.report)
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
    settings: Settings, target: Target, progress=None, layers: tuple[str, ...] = LAYERS
) -> Verdict:
    """Every selected check of `layers`, in layer order; then remove what the run made (also on Ctrl-C)."""
    for layer in layers:
        importlib.import_module(f".{layer}", __package__)  # registers its checks
    document = load_document(settings.document) if settings.document else project_document()
    results = Results(progress=progress)
    context = RunContext(settings, target, results, document, random.Random(settings.seed))
    try:
        for check in sorted(REGISTRY, key=lambda c: LAYERS.index(c.layer)):
            if check.layer in layers and _wanted(check, context):
                _run_one(check, context)
    finally:
        left_behind = target.cleanup()
    return Verdict(results, left_behind)


def _wanted(check: Check, context: RunContext) -> bool:
    settings = context.settings
    if (check.writes and settings.read_only) or (check.strict and not settings.strict):
        return False
    return check.records_own or context.selected(check.operation)


def _run_one(check: Check, context: RunContext) -> None:
    if check.records_own:
        check.func(context)
        return
    with context.results.checking(check.layer, check.operation, check.name, check.rule):
        if len(context.settings.users) < check.users:
            raise CheckSkipped(f"needs {check.users} users: pass --user ID:TOKEN {check.users} times")
        check.func(context)
