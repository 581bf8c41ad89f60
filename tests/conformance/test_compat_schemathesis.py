"""conformance/compat/schemathesis.py: the door to schemathesis' internals."""

import sys
import tomllib
from pathlib import Path

import pytest

from csapi.conformance import driver
from csapi.conformance.compat.schemathesis import builtin_checks
from csapi.openapi import compat

MODULE = "csapi.conformance.compat.schemathesis"
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_the_range_is_the_pin_of_pyproject() -> None:
    lowest, below = compat.RANGES["schemathesis"]
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert f"schemathesis>={lowest},<{below}" in dependencies


def test_another_release_fails_at_import_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat, "version", lambda distribution: "4.33.0")
    monkeypatch.delitem(sys.modules, MODULE)
    with pytest.raises(compat.IncompatibleVersion, match=r"schemathesis>=4\.32,<4\.33"):
        __import__(MODULE)


def test_every_check_the_driver_names_is_built_in() -> None:
    named = {*driver.RESPONSE_CHECKS, *driver.INPUT_CHECKS, *driver.METHOD_CHECKS, *driver.STATEFUL_CHECKS}
    checks = builtin_checks()
    assert named <= set(checks)
    assert all(callable(function) for function in checks.values())
