"""Testing the tester (issue 5 item 5, issue 15 item 4): the suite passes the correct mock, and
finds every fault planted in front of it (tests/conformance/faults.py and faults_*.py).

Every fault: a --quick run of the layer expected to catch it (the others would only cost time),
narrowed (--include) to the fault's operations, against the mock with that one fault in front,
must fail a check of that layer. A fault against a docs/design.md choice (`strict`) gets a --strict run,
as only --strict checks those choices. The faults take turns in front of one served mock,
whose state is reset to the same fixtures before each (building the app is the costly part).

No false positive: three --quick runs of the whole suite, each with its own seed, against the
mock as it is, pass; the last one with --strict, as the strict faults' runs are; and the same
three against the mock served with --strict-requests. Those are the slow part, so they run in a
second process (the second core) while the faults are tried, and are judged at the end.

The ratio of faults found, and by which layers, is printed at the end of the session
(conftest.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from csapi.conformance.results import FAIL, PASS
from tests.conformance import runs
from tests.conformance.conftest import SETTLE_AT_ONCE, Live, live_mock
from tests.conformance.faults import FAULTS, Switch, World
from tests.conformance.runs import Background, run, shown

SEEDS = (1, 2, 3)
STRICT_SEED = 3  # its run is --strict too: the strict faults are judged by --strict runs
LAYERS = {"contract", "behaviour", "access"}

# fault name -> the layers that failed a check on it (empty: not detected); read by conftest.py
DETECTED: dict[str, set[str]] = {}


# ---------------------------------------------------------------------- no false positive
def quick_runs(seeds: list[int]) -> None:
    """A --quick run of every layer against the correct mock, per seed, as `serve` runs it and as
    `serve --strict-requests` does (unknown fields refused: no failure either); one JSON line each."""
    for strict_requests in (False, True):
        for seed in seeds:
            with live_mock(seed, strict_requests=strict_requests) as live:
                verdict = run(live.settings(quick=True, seed=seed, strict=seed == STRICT_SEED))
            passed = sorted({o.layer for o in verdict.results.outcomes if o.status == PASS})
            result = {"ok": verdict.results.ok, "left": verdict.left_behind, "shown": shown(verdict)}
            key = run_name(seed, strict_requests)
            print(json.dumps({"run": key, "passed": passed, **result}), flush=True)


def run_name(seed: int, strict_requests: bool) -> str:
    """How a quick run is named in its JSON line, and in the test that judges it."""
    return f"{seed}{' --strict-requests' if strict_requests else ''}"


@pytest.fixture(scope="module", autouse=True)
def background_runs(request: pytest.FixtureRequest) -> Iterator[Background]:
    """The quick runs of the correct mock, started in a second process when any of them is selected."""
    background = Background()
    if any(item.originalname == "test_the_correct_mock_passes_a_quick_run" for item in request.session.items):
        background.start(f"from tests.conformance.test_faults import quick_runs; quick_runs({list(SEEDS)})")
    yield background
    background.close()


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[Live, Switch, dict[str, Any]]]:
    with runs.served() as found:
        yield found


def _param(name: str) -> Any:
    reason = FAULTS[name].missing_check
    return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=reason) if reason else ())


# ---------------------------------------------------------------------- every planted fault found
@pytest.mark.parametrize("name", [_param(name) for name in FAULTS])
def test_the_planted_fault_is_detected(name: str, served: tuple[Live, Switch, dict[str, Any]]) -> None:
    (live, switch, fresh), fault = served, FAULTS[name]
    DETECTED[name] = set()
    live.store.reset(fresh)  # the same fixtures for every fault, whatever the one before did
    settings = live.settings(quick=True, include=fault.operations, strict=fault.strict, settle=SETTLE_AT_ONCE)
    with switch.planted(fault, World(settings.users, settings.api_key)):
        verdict = run(settings, layers=(fault.layer,))  # the layer it is for: the others cost time only
    failed = [o for o in verdict.results.outcomes if o.status == FAIL]
    DETECTED[name] = {o.layer for o in failed}
    assert failed, f"{name} ({fault.description}) went unnoticed\n{shown(verdict)}"
    assert fault.layer in DETECTED[name], f"{name}: found by {sorted(DETECTED[name])} only, not {fault.layer}"


def test_every_fault_is_named_and_described() -> None:
    assert len(FAULTS) >= 25
    for name, fault in FAULTS.items():
        assert name == fault.name and fault.description and fault.operations and fault.layer in LAYERS


# ---------------------------------------------------------------------- (judged last: they ran meanwhile)
@pytest.mark.parametrize("strict_requests", [False, True], ids=["serve", "serve --strict-requests"])
@pytest.mark.parametrize("seed", SEEDS)
def test_the_correct_mock_passes_a_quick_run(
    seed: int, strict_requests: bool, background_runs: Background
) -> None:
    results = background_runs.results("run")
    key = run_name(seed, strict_requests)
    assert key in results, f"the quick run {key} did not finish:\n{background_runs.stderr}"
    result = results[key]
    assert result["ok"], f"false positive(s) with --seed {key}:\n{result['shown']}"
    assert result["left"] == []
    assert set(result["passed"]) == LAYERS
