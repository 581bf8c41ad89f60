"""The operations of the spec, the inventory and the OpenAPI document are the same 49 method+path pairs.

The spec side is parsed from spec/api-spec.md (section 4 tables and prose, section 5), so editing the
spec without the inventory, or the inventory without the document, fails here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from csapi.openapi import load_inventory
from tests import oas, spec_md

PROJECT_ROOT = Path(__file__).resolve().parents[1]
SHARED_SPEC = PROJECT_ROOT.parent / "shared" / "spec" / "api-spec.md"
EXPECTED_OPERATION_COUNT = 49


def spec_pairs() -> set[tuple[str, str]]:
    return {(method, oas.path_shape(path)) for method, path, _ in spec_md.operations()}


@pytest.fixture(scope="module")
def doc() -> oas.Node:
    return oas.project_document()


def test_spec_names_49_distinct_operations() -> None:
    ops = spec_md.operations()
    assert len(ops) == EXPECTED_OPERATION_COUNT, (
        f"parsing spec/api-spec.md found {len(ops)} distinct method+path pairs, expected "
        f"{EXPECTED_OPERATION_COUNT} (section 4 tables, 4.9/4.10 prose, section 5 ping and auth): {ops}"
    )
    assert len(spec_pairs()) == len(ops), "two spec operations differ only by path parameter names"


def test_inventory_equals_spec_operations() -> None:
    inventory = [(op["method"].upper(), oas.path_shape(op["path"])) for op in load_inventory()]
    assert len(inventory) == len(set(inventory)), "openapi/inventory.yaml lists a method+path twice"
    assert len(inventory) == EXPECTED_OPERATION_COUNT
    assert set(inventory) == spec_pairs(), (
        f"in the spec, not in openapi/inventory.yaml: {sorted(spec_pairs() - set(inventory))}; "
        f"in the inventory, not in the spec: {sorted(set(inventory) - spec_pairs())}"
    )


def test_document_operations_equal_inventory(doc: oas.Node) -> None:
    inventory = {(op["method"].upper(), oas.path_shape(op["path"])) for op in load_inventory()}
    documented = oas.method_paths(doc)
    assert documented == inventory, (
        f"in openapi/inventory.yaml, missing from the document: {sorted(inventory - documented)}; "
        f"in the document, not in the inventory: {sorted(documented - inventory)}"
    )


@pytest.mark.parametrize("literal_path", ["/v1/collections/count", "/v1/items/copy"])
def test_literal_path_has_its_own_path_item(doc: oas.Node, literal_path: str) -> None:
    """A router that tries literal paths first must find these, not `/v1/collections/{collection_id}`."""
    methods = [method for method, path, _ in spec_md.operations() if path == literal_path]
    assert methods, f"spec section 4 no longer names {literal_path}"
    item = doc.get("paths", {}).get(literal_path)
    assert item is not None, f"{literal_path} (spec section 4) is not a path item of its own in the document"
    for method in methods:
        assert method.lower() in oas.resolve(doc, item), f"{method} {literal_path} missing from its path item"


def test_vendored_spec_equals_shared_spec() -> None:
    if not SHARED_SPEC.exists():
        pytest.skip(f"no shared spec at {SHARED_SPEC}")
    assert spec_md.SPEC_PATH.read_bytes() == SHARED_SPEC.read_bytes(), (
        f"{spec_md.SPEC_PATH} differs from {SHARED_SPEC}: re-vendor it"
    )
