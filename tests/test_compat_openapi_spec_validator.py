"""openapi/compat/openapi_spec_validator.py: the door to openapi-spec-validator's internals."""

import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from csapi.openapi import compat
from csapi.openapi.compat.openapi_spec_validator import META_SCHEMA_V30, SemanticValidator

MODULE = "csapi.openapi.compat.openapi_spec_validator"
PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def _document() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "info": {"title": "t", "version": "1"},
        "paths": {"/a/{x}": {"get": {"responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {"N": {"type": "integer", "default": "no"}}},
    }


def test_semantic_errors_carry_their_path_from_the_root() -> None:
    errors = SemanticValidator(_document(), "file:///tmp/openapi.yaml").iter_errors()
    found = {tuple(error.path): error.message for error in errors}
    assert found.keys() == {("paths", "/a/{x}", "get"), ("components", "schemas", "N")}
    assert "'no' is not of type 'integer'" == found[("components", "schemas", "N")]


def test_the_meta_schema_is_openapi_3_0() -> None:
    assert str(META_SCHEMA_V30["id"]).startswith("https://spec.openapis.org/oas/3.0/schema/")


def test_the_range_is_the_pin_of_pyproject() -> None:
    lowest, below = compat.RANGES["openapi-spec-validator"]
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    assert f"openapi-spec-validator>={lowest},<{below}" in dependencies


def test_another_release_fails_at_import_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(compat, "version", lambda distribution: "0.10.1")
    monkeypatch.delitem(sys.modules, MODULE)
    with pytest.raises(compat.IncompatibleVersion, match=r"openapi-spec-validator>=0\.9,<0\.10"):
        __import__(MODULE)
