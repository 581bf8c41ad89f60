"""The mock's door to library internals (mock_server/compat/) and `create_app(fast_paths=False)`.

- connexion's and jsonschema's internals are used only in the compat modules, which check the
  installed versions first: outside the range, `csapi serve` prints one line naming it, exits 2.
- No format is registered on jsonschema's global checker: int64 is checked by the mock's own,
  in both modes.
- `fast_paths=False` touches none of the fast paths (the core HTTP tests run on it too: conftest).
- Building apps grows no module-level cache: every cache is per app or bounded.
"""

from __future__ import annotations

import ast
import collections
import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Set
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft4Validator

from csapi.mock_server import app as app_module
from csapi.mock_server.app import create_app
from csapi.mock_server.compat import connexion as compat_connexion
from csapi.mock_server.compat.jsonschema import FORMAT_CHECKER, is_int64
from csapi.mock_server.store import Store
from tests.mock_server.conftest import API_KEY, PRO, Api, assert_error, auth_headers, empty_data
from tests.mock_server.served import free_port

ROOT = Path(__file__).resolve().parents[2]
SKIPPED = {".venv", ".git", "build", "dist", ".hypothesis", ".schemathesis"}
BOTH = pytest.mark.parametrize("fast_paths", [True, False], ids=["fast", "public"], indirect=True)


# ---------------------------------------------------------------------- the door
# connexion's and jsonschema's modules that their documentation presents as public.
DOCUMENTED = {
    "connexion": {
        "connexion",
        "connexion.context",
        "connexion.datastructures",
        "connexion.exceptions",
        "connexion.lifecycle",
        "connexion.middleware",
        "connexion.options",
        "connexion.problem",
        "connexion.resolver",
        "connexion.security",
        "connexion.validators",
    },
    "jsonschema": {"jsonschema", "jsonschema.exceptions", "jsonschema.validators"},
}
# Names of connexion's internals the mock once used outside compat/ (built, so that this file
# does not hold them: a grep for them finds the compat modules alone).
INTERNALS = ("_middleware" + "_app", "_accepts" + "_kwarg", "_resolve" + "_func")


def _project_sources() -> list[Path]:
    """Every Python file of the project but those of a compat package (the doors themselves)."""
    return [
        path
        for path in sorted(ROOT.rglob("*.py"))
        if not SKIPPED & set(path.relative_to(ROOT).parts)
        and "compat" not in path.relative_to(ROOT).parts
        and ".egg-info" not in str(path)
    ]


def test_library_internals_are_used_only_in_the_compat_modules():
    """Outside compat/: connexion and jsonschema only through their documented modules, no
    underscore name imported from them, and none of the internals the mock needs."""
    wrong = []
    for path in _project_sources():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        wrong += [f"{where}: {name}" for name in INTERNALS if name in text]
        for node in ast.walk(ast.parse(text, str(path))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules, names = [node.module], [alias.name for alias in node.names]
            elif isinstance(node, ast.Import):
                modules, names = [alias.name for alias in node.names], []
            else:
                continue
            for module in modules:
                library = module.split(".")[0]
                if library in DOCUMENTED and module not in DOCUMENTED[library]:
                    wrong.append(f"{where}:{node.lineno}: {module}")
                if library in DOCUMENTED:
                    wrong += [f"{where}:{node.lineno}: {module}.{n}" for n in names if n.startswith("_")]
    assert wrong == []


@pytest.mark.parametrize(
    ("distribution", "fake", "wanted"),
    [("connexion", "3.4.0", "connexion>=3.3,<3.4"), ("jsonschema", "4.27.0", "jsonschema>=4.26,<4.27")],
)
def test_serve_with_a_library_outside_the_range_prints_one_line_and_exits_2(
    tmp_path: Path, distribution: str, fake: str, wanted: str
):
    """A distribution's metadata first on the path makes importlib.metadata report `fake`."""
    info = tmp_path / f"{distribution}-{fake}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {fake}\n")
    path = os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-m", "csapi", "serve", "--port", str(free_port())],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert wanted in result.stderr and f"{distribution} {fake} is installed" in result.stderr
    assert result.stdout == ""  # stopped before the banner: nothing was built or bound


# ---------------------------------------------------------------------- formats
def test_importing_the_mock_and_building_apps_registers_no_global_format():
    """In a fresh interpreter, so that nothing else of the test session could have touched it."""
    script = textwrap.dedent(
        """
        from jsonschema import Draft4Validator
        before = dict(Draft4Validator.FORMAT_CHECKER.checkers)
        import csapi.mock_server
        from csapi.mock_server.app import create_app
        for fast_paths in (True, False):
            app = create_app(api_key="k", fixtures="empty", validate_responses=True, fast_paths=fast_paths)
            with app.test_client() as client:
                answer = client.get("/v1/collections/" + str(2**63), headers={"X-API-Key": "k"})
                assert answer.status_code in (400, 401), answer.status_code
        assert "int64" not in Draft4Validator.FORMAT_CHECKER.checkers
        assert Draft4Validator.FORMAT_CHECKER.checkers == before
        print("clean")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.stdout.strip() == "clean", result.stderr


def test_the_mock_s_format_checker_is_draft_4_s_and_int64():
    assert FORMAT_CHECKER is not Draft4Validator.FORMAT_CHECKER
    assert set(FORMAT_CHECKER.checkers) == set(Draft4Validator.FORMAT_CHECKER.checkers) | {"int64"}
    assert all(is_int64(v) for v in (0, -(2**63), 2**63 - 1, "9" * 30, True, 1.5))
    assert not any(is_int64(v) for v in (2**63, -(2**63) - 1, 10**40))


@BOTH
def test_int64_is_checked_in_parameters_and_bodies(api: Api, fast_paths: bool):
    for path in (f"/v1/collections/{2**63}", f"/v1/items?collection_id={2**63}"):
        assert "int64" in assert_error(api.get(path), 400, "invalid_input")["message"]
    assert api.get(f"/v1/collections/{2**63 - 1}").status_code == 404  # the largest id: valid, unknown
    body = {"name": "n", "type": "private", "users": [2**63]}
    assert "int64" in assert_error(api.post("/v1/collections", json=body), 400, "invalid_input")["message"]


# ---------------------------------------------------------------------- fast_paths=False
@pytest.mark.parametrize("fast_paths", [False], ids=["public"], indirect=True)
def test_the_public_app_uses_no_fast_path(api: Api, monkeypatch: pytest.MonkeyPatch, fast_paths: bool):
    def refuse(*args: Any) -> None:
        raise AssertionError("a fast path was used with fast_paths=False")

    monkeypatch.setattr(app_module, "use_fast_operations", refuse)
    create_app(Store(data=empty_data()), api_key=API_KEY, fast_paths=False)  # does not call it
    remembered = compat_connexion.accepts_kwarg.cache_info()
    assert api.get("/v1/collections?per_page=5").status_code == 200
    assert api.post("/v1/collections", json={"name": "n", "type": "private"}).status_code == 201
    assert compat_connexion.accepts_kwarg.cache_info() == remembered  # connexion's own handlers
    assert compat_connexion.validator_map(fast=False)["parameter"] is compat_connexion.ParameterValidator


# ---------------------------------------------------------------------- no growth with apps
def _size(value: Any) -> int | None:
    kind = type(value)  # not isinstance: it would ask connexion's context proxies, out of a request
    if hasattr(kind, "cache_info"):  # functools.cache, lru_cache
        return int(value.cache_info().currsize)
    if issubclass(kind, Mapping | Set | list | collections.deque):
        return len(value)
    return None


def _module_level_sizes() -> dict[str, int]:
    """The size of every container and cache held by a module of csapi or a class defined there."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("csapi.") or module is None:
            continue
        for attribute, value in list(vars(module).items()):
            if attribute.startswith("__"):  # __builtins__, __annotations__...: Python's, not a cache
                continue
            held = [(attribute, value)]
            if isinstance(value, type) and value.__module__ == name:
                held += [(f"{attribute}.{key}", inner) for key, inner in vars(value).items()]
            for label, item in held:
                size = _size(item)
                if size is not None:
                    sizes[f"{name}.{label}"] = size
    return sizes


def _use(fast_paths: bool) -> None:
    """Build an app and send it what fills caches: auth, parameters, JSON and form bodies, arrays."""
    store = Store(data=empty_data())
    app = create_app(store, api_key=API_KEY, validate_responses=True, fast_paths=fast_paths)
    headers = auth_headers(store, PRO)
    with app.test_client() as client:
        created = client.post("/v1/collections", headers=headers, json={"name": "a", "type": "private"})
        assert created.status_code == 201, created.text
        cid = created.json()["id"]
        form = client.post("/v1/collections", headers=headers, data={"name": "b", "type": "private"})
        assert form.status_code == 201, form.text
        for path in (
            "/v1/collections?page=1&per_page=5",
            f"/v1/collections/{cid}",
            f"/v1/items?collection_id={cid}&tags[]=a&count=3",
        ):
            assert client.get(path, headers=headers).status_code == 200, path
        assert client.put(f"/v1/collections/{cid}", headers=headers, json={"name": "c"}).status_code == 200
        assert client.delete(f"/v1/collections/{cid}", headers=headers).status_code in (200, 204)


def test_building_apps_grows_no_module_level_cache():
    for fast_paths in (True, False):  # once each: what is filled once per process is filled now
        _use(fast_paths)
    before = _module_level_sizes()
    for n in range(10):
        _use(fast_paths=n % 2 == 0)
    after = _module_level_sizes()
    grown = {name: (before.get(name), size) for name, size in after.items() if size != before.get(name)}
    assert grown == {}


def test_fast_json_writes_what_json_dumps_writes():
    """compat's FastJson (the fast paths' jsonifier): byte for byte json.dumps(data, cls=...),
    non-ASCII escaped, floats as repr writes them, and an error leaves no stale encoder behind."""
    fast = compat_connexion.FastJson()
    JSONEncoder = compat_connexion.fast_jsonifier().dumps_args["cls"]  # connexion's  # noqa: N806
    samples: list[Any] = [
        {"name": "café ☕", "n": 1e16, "x": -0.5, "none": None, "ok": True, "list": [1, "a", {"b": []}]},
        [{"id": i, "tags": ["é"] * i} for i in range(5)],
        "plain",
        42,
    ]
    for data in samples:
        assert fast.dumps(data, cls=JSONEncoder) == json.dumps(data, cls=JSONEncoder)
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        fast.dumps(looped, cls=JSONEncoder)
    assert fast.dumps(samples[0], cls=JSONEncoder) == json.dumps(samples[0], cls=JSONEncoder)


def test_each_parameter_definition_is_checked_once():
    """connexion appends a path's parameters to its operations' lists once per layer; the fast
    request validation checks each definition once, in connexion's order."""
    item_id = {"name": "item_id", "in": "path"}
    include = {"name": "include", "in": "query"}
    assert compat_connexion._distinct([include, item_id, item_id, item_id]) == [include, item_id]


@pytest.mark.parametrize(
    "produces",
    [
        [],
        ["application/json"],
        ["application/json", "text/plain"],
        ["application/octet-stream", "text/plain"],
    ],
)
def test_the_response_decorator_infers_the_content_type_as_connexion_does(
    produces: list[str], monkeypatch: pytest.MonkeyPatch
):
    """compat's response decorator, given its operation, answers (or raises) as connexion's does
    with the same operation behind its `operation` proxy."""
    connexion_response = sys.modules[compat_connexion.AsyncResponseDecorator.__module__]
    operation: Any = type("Operation", (), {"produces": produces})()
    monkeypatch.setattr(connexion_response, "operation", operation)
    framework = compat_connexion.StarletteDecorator.framework
    fast = compat_connexion._ResponseDecorator(operation, framework=framework, jsonifier=None)
    own = connexion_response.AsyncResponseDecorator(framework=framework, jsonifier=None)
    headers: list[dict[str, str]] = [{}, {"Content-Type": "application/json"}, {"content-type": "image/png"}]
    for data in (None, {"a": 1}, "text", b"bytes", iter([])):
        for header in headers:
            answers = []
            for decorator in (fast, own):
                try:
                    answers.append(decorator._infer_content_type(data, dict(header)))
                except Exception as exc:
                    answers.append(repr(exc))
            assert answers[0] == answers[1], (data, header)
