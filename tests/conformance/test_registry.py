"""The registry: one declaration for every check, unique stable ids, typed failures."""

from __future__ import annotations

import importlib
from collections import Counter

import pytest

from csapi.conformance import failures, registry
from csapi.conformance.registry import REGISTRY, by_id, check, declare, recorded_by
from csapi.conformance.runner import LAYERS


@pytest.fixture(scope="module", autouse=True)
def every_layer() -> None:
    for layer in LAYERS:
        importlib.import_module(f"csapi.conformance.{layer}")


def test_every_check_has_a_unique_id():
    ids = Counter(c.id for c in REGISTRY)
    assert all(ids), [c for c in REGISTRY if not c.id]
    assert [i for i, n in ids.items() if n > 1] == []
    assert len(by_id()) == len(REGISTRY)


def test_a_decorated_check_is_named_by_its_function():
    made_in_a_loop = ("refused", "shaped", "visibility", "unlisted")
    for entry in REGISTRY:
        if not entry.recorded_by and entry.func.__name__ not in made_in_a_loop:
            assert entry.id == entry.func.__name__, entry


def test_a_second_check_with_the_same_id_is_refused(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(registry, "REGISTRY", list(REGISTRY))
    with pytest.raises(ValueError, match="two checks"):
        check("behaviour", "items.get_item", "again")(by_id()["item_create_fields_persist"].func)
    with pytest.raises(ValueError, match="two checks"):
        declare("behaviour", "items.get_item", "again", "", id="stateful_model.create", recorded_by="x")


def test_the_machine_properties_are_declared_in_the_registry():
    props = recorded_by("stateful_model")
    assert len(props) >= 40
    assert all(p.id.startswith("stateful_model.") and p.name.startswith("stateful: ") for p in props)
    assert all(p.records_own and p.layer == "behaviour" for p in props)
    assert by_id()["stateful_model"].records_own
    # the runner calls a declared property's func: it does nothing and records nothing
    assert props[0].func(None) is None  # type: ignore[arg-type]


def test_ids_of_generated_checks_are_stable():
    ids = set(by_id())
    assert "refused_no_key_auth_ping" in ids
    assert "refused_no_user_collections_create_collection" in ids
    assert "challenge_no_user_users_get_current_user" in ids
    assert "private_collection_hidden" in ids and "public_item_not_writable" in ids


def test_every_failure_kind_is_distinct_and_typed():
    kinds = [k.kind for k in failures.FAILURE_KINDS]
    assert len(set(kinds)) == len(kinds)
    for kind in failures.FAILURE_KINDS:
        assert issubclass(kind, failures.CheckFailed)
    with pytest.raises(failures.NotGone) as raised:
        failures.expect(False, "still there", kind=failures.NotGone)
    assert raised.value.kind == "not_gone" and raised.value.message == "still there"


def test_every_contract_check_raises_a_typed_failure():
    from csapi.conformance.contract import data

    assert set(data.FAILURES) == set(data.RULES)


def test_a_behaviour_check_lives_in_the_module_of_its_resource():
    """A behaviour check about an operation `<resource>.<name>` (the operationId's prefix, spec 4.x)
    lives in behaviour/<resource>.py or the package behaviour/<resource>/; the state machine's check
    lives in behaviour/machine/ (its declared properties have no module of their own)."""
    layer = "csapi.conformance.behaviour"
    misplaced = []
    for entry in REGISTRY:
        if entry.layer != "behaviour" or entry.recorded_by:
            continue
        module = entry.func.__module__
        resource = entry.operation.split(".")[0]
        home = f"{layer}.machine" if entry.id == "stateful_model" else f"{layer}.{resource}"
        if module != home and not module.startswith(f"{home}."):
            misplaced.append((entry.id, entry.operation, module))
    assert misplaced == []


def test_import_all_imports_subpackages():
    """A package inside a layer package (behaviour/items/, behaviour/machine/) imports its own
    modules, so its checks register like those of a flat module."""
    modules = {c.func.__module__ for c in REGISTRY if c.layer == "behaviour" and not c.recorded_by}
    assert any(m.startswith("csapi.conformance.behaviour.items.") for m in modules)
    assert "csapi.conformance.behaviour.machine.machine" in modules
