"""Whole conformance runs for the tests that try the suite on many servers (test_faults.py,
test_variants.py): a run and how its failures read, one served mock that the servers take turns
in front of, and runs in a second process (the second core) judged at the end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from csapi.conformance.registry import LAYERS
from csapi.conformance.results import PASS, SKIP
from csapi.conformance.runner import Verdict, run_checks
from csapi.conformance.settings import Settings
from csapi.conformance.target import Target
from tests.conformance.conftest import Live, live_mock
from tests.conformance.faults import Switch

ROOT = Path(__file__).resolve().parents[2]


def run(settings: Settings, layers: tuple[str, ...] = LAYERS) -> Verdict:
    """A run of `layers` (and its cleanup), as `csapi conform` makes it."""
    target = Target(settings)
    try:
        return run_checks(settings, target, layers=layers)
    finally:
        target.client.close()


def shown(verdict: Verdict) -> str:
    """The run's failures and errors, each with its request and a trimmed answer."""
    return "\n".join(
        f"{o.status} [{o.layer}] {o.operation}: {o.check}: {o.message[:500]}"
        + (f"\n    {o.exchange.curl()[:400]}\n    {o.exchange.shown()[:400]}" if o.exchange else "")
        for o in verdict.results.outcomes
        if o.status not in (PASS, SKIP)
    )


@contextmanager
def served() -> Iterator[tuple[Live, Switch, dict[str, Any]]]:
    """One served mock (building it is the costly part) with a `Switch` to plant a server in front,
    and the fixtures to reset it to before each."""
    switch = Switch()
    with live_mock(0, wrap=switch.wrap) as live:
        yield live, switch, live.store.snapshot()


class Background:
    """Runs made in a second process while the tests of this one go on: `start(code)` runs the Python
    `code`, which prints one JSON object per run; `results(key)` waits for it and gives them by `key`."""

    def __init__(self) -> None:
        self.process: subprocess.Popen[str] | None = None
        self.stderr = ""
        self._results: dict[str, dict[str, Any]] | None = None
        self._out: IO[str] = tempfile.TemporaryFile("w+")
        self._err: IO[str] = tempfile.TemporaryFile("w+")

    def start(self, code: str) -> None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        self.process = subprocess.Popen(
            [sys.executable, "-W", "error", "-c", code],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=self._err,
            text=True,
        )

    def results(self, key: str) -> dict[str, dict[str, Any]]:
        if self._results is None:
            assert self.process is not None, "no background run was started"
            self.process.wait(timeout=900)
            self._out.seek(0)
            self._err.seek(0)
            lines = [json.loads(line) for line in self._out if line.startswith("{")]
            self._results = {entry[key]: entry for entry in lines}
            self.stderr = self._err.read()[-3000:]
        return self._results

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._out.close()
        self._err.close()
