"""The large schemathesis fuzz run of benchmarks/fuzz.py (issue 7, part 3), and proof that its
counting sees a server error (a fault planted in front of the mock)."""

from __future__ import annotations

import pytest

from benchmarks.fuzz import operations, run
from tests.conformance.faults import Answer, Forward, Request, World, wrap_with


@pytest.mark.slow
def test_a_large_fuzz_run_finds_no_server_error():
    result = run()  # the script's budget: 200 fuzzing cases per operation, 300 stateful scenarios
    assert result.server_errors == 0, result.examples
    assert result.failures == 0, result.examples + result.errors
    assert result.operations >= operations() and len(operations()) == 49
    assert result.total >= 12_000, result.cases
    assert result.cases["fuzzing"] >= 6_000 and result.cases["stateful"] >= 1_000, result.cases


async def list_tags_crashes(request: Request, forward: Forward, world: World) -> Answer:
    """List all tags answers 500 (the conformance tests' fault harness, tests/conformance/faults.py)."""
    if request.on("GET", "/v1/tags"):
        return Answer(500, [(b"content-type", b"text/plain")], b"boom")
    return await forward(request)


@pytest.mark.slow
def test_a_planted_server_error_is_counted():
    result = run(
        max_examples=5, stateful_examples=0, only=r"^tags\.list_tags$", wrap=wrap_with(list_tags_crashes)
    )
    assert result.operations == {"GET /v1/tags"}
    assert result.server_errors > 0
    assert result.failed_checks["not_a_server_error"] > 0
    assert any("/v1/tags" in line for line in result.examples)
