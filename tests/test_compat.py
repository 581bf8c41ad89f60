"""The compat modules: each library's internals behind one door, guarded by the range it was tested on.

One row per library: the module's range is the pin of pyproject.toml, and another release stops
the import with one line naming the range (`csapi` prints that line and exits 2:
tests/mock_server/test_compat.py runs `csapi serve` so).
"""

import importlib
import re
import sys
import tomllib
from pathlib import Path

import pytest

from csapi.openapi import compat

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"
MODULES = {
    "connexion": ("csapi.mock_server.compat.connexion", "3.4.0"),
    "greenery": ("csapi.openapi.compat.greenery", "4.3.0"),
    "jsonschema": ("csapi.mock_server.compat.jsonschema", "4.27.1"),
    "openapi-spec-validator": ("csapi.openapi.compat.openapi_spec_validator", "0.10.0"),
    "schemathesis": ("csapi.conformance.compat.schemathesis", "4.33.0"),
    "uvicorn": ("csapi.mock_server.compat.uvicorn", "0.55.0"),
}


@pytest.mark.parametrize("distribution", MODULES)
def test_the_range_is_the_pin_of_pyproject(distribution: str) -> None:
    importlib.import_module(MODULES[distribution][0])
    lowest, below = compat.RANGES[distribution]
    pins = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert any(re.fullmatch(rf"{distribution}(\[[^]]*\])?>={lowest},<{below}", pin) for pin in pins), pins


@pytest.mark.parametrize("distribution", MODULES)
def test_another_release_fails_at_import_with_one_line(
    distribution: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    module, other_release = MODULES[distribution]
    importlib.import_module(module)
    lowest, below = compat.RANGES[distribution]
    monkeypatch.setattr(compat, "version", lambda name: other_release if name == distribution else "0")
    monkeypatch.delitem(sys.modules, module)
    with pytest.raises(compat.IncompatibleVersion) as raised:
        importlib.import_module(module)
    message = str(raised.value)
    assert "\n" not in message
    assert f"{distribution}>={lowest},<{below}" in message and other_release in message


def test_the_guard_refuses_a_missing_library() -> None:
    with pytest.raises(compat.IncompatibleVersion, match="no-such-library none is installed"):
        compat.require("no-such-library", "1.0", "2.0")
