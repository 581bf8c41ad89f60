"""openapi/compat/openapi_spec_validator.py: the door to openapi-spec-validator's internals."""

from typing import Any

from csapi.openapi.compat.openapi_spec_validator import META_SCHEMA_V30, SemanticValidator


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
