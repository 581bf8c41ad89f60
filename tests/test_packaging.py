"""Installed, csapi is one import name: `csapi.openapi`, `csapi.mock_server`, ..., `csapi.cli`.

The repository's root is the package `csapi` (pyproject.toml, ARCHITECTURE.md). Two things keep
that true: the wheel holds nothing but `csapi/` and its metadata, and no code imports a package of
the toolkit by its bare name (which works in a checkout, where the root is on sys.path, and fails
once installed, or imports another project's `fixtures` or `openapi`).
"""

import ast
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import venv
import zipfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("openapi", "mock_server", "fixtures", "conformance")
OURS = (*PACKAGES, "cli")
SKIPPED = {".venv", ".git", "build", "dist", ".hypothesis", ".schemathesis"}


def _sources() -> list[Path]:
    return [
        path
        for path in sorted(ROOT.rglob("*.py"))
        if not SKIPPED & set(path.relative_to(ROOT).parts) and ".egg-info" not in str(path)
    ]


def _own_names(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every absolute import that names a package of the toolkit bare."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return [(line, module) for line, module in found if module.split(".")[0] in OURS]


def test_no_code_imports_a_package_by_its_bare_name():
    """Inside a package: relative imports; cli.py, tests, benchmarks: `csapi.<package>`."""
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: import {module}"
        for path in _sources()
        for line, module in _own_names(ast.parse(path.read_text(), str(path)))
    ]
    assert wrong == []


def test_packages_never_name_the_distribution():
    """A package reaches its siblings relatively, so it does not care what the whole is called."""
    wrong = []
    for path in _sources():
        if path.relative_to(ROOT).parts[0] not in PACKAGES:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            absolute = isinstance(node, ast.ImportFrom) and node.level == 0
            if absolute and (node.module or "").startswith("csapi"):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert wrong == []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # built from a copy without the checkout's build/ folder, whose leftovers (modules since moved or
    # removed) setuptools would put into the wheel: the wheel a fresh clone builds
    source = tmp_path_factory.mktemp("source") / "csapi"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*SKIPPED, "*.egg-info", "__pycache__"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", str(out), str(source)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (built,) = out.glob("csapi-*.whl")
    return built


def test_the_wheel_installs_csapi_only(wheel: Path):
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/")[0] for name in names}
    assert top == {"csapi", f"{wheel.name.split('-')[0]}-{wheel.name.split('-')[1]}.dist-info"}
    for module in ("cli.py", "__main__.py", "openapi/openapi.yaml", "openapi/inventory.yaml"):
        assert f"csapi/{module}" in names
    for package in PACKAGES:
        assert f"csapi/{package}/__init__.py" in names
        assert f"csapi/{package}/py.typed" in names
    # every module of every package of the checkout (a subpackage pyproject.toml does not list would
    # be missing from the install, and its checks or handlers with it)
    modules = [p.relative_to(ROOT) for p in _sources() if p.relative_to(ROOT).parts[0] in PACKAGES]
    missing = [str(m) for m in modules if f"csapi/{m.as_posix()}" not in names]
    assert not missing, f"not in the wheel (pyproject.toml's packages?): {missing}"
    # What only the repository needs stays out of the wheel.
    assert not [name for name in names if name.startswith(("csapi/tests/", "csapi/benchmarks/"))]
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    assert "csapi = csapi.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()


@pytest.mark.slow
def test_the_wheel_lives_beside_pypis_fixtures_and_openapi(wheel: Path, tmp_path: Path):
    """A server team's venv with PyPI's `fixtures` and `openapi`: both still import; csapi serves
    and checks the server it serves, from outside the repository."""
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python, csapi = str(env_dir / "bin" / "python"), str(env_dir / "bin" / "csapi")
    pip = [python, "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, "fixtures", "openapi"], check=True, timeout=600)
    subprocess.run([*pip, str(wheel)], check=True, timeout=900)
    theirs = "import fixtures, openapi; print(fixtures.__file__, openapi.__file__)"
    printed = subprocess.run([python, "-c", theirs], check=True, capture_output=True, text=True, cwd=tmp_path)
    assert printed.stdout.count("site-packages/") == 2 and "csapi" not in printed.stdout
    for command in ([csapi, "--help"], [python, "-m", "csapi", "validate"]):
        assert subprocess.run(command, cwd=tmp_path, capture_output=True, timeout=120).returncode == 0

    port = _free_port()
    server = subprocess.Popen([csapi, "serve", "--port", str(port), "--api-key", "k"], cwd=tmp_path)
    try:
        base = f"http://127.0.0.1:{port}"
        users = _credentials(f"{base}/__mock__/credentials", server)["users"][:3]
        conform = [csapi, "conform", "--base-url", base, "--api-key", "k", "--team-id", "4", "--quick"]
        conform += [arg for user in users for arg in ("--user", f"{user['id']}:{user['token']}")]
        result = subprocess.run(conform, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    finally:
        server.terminate()
        server.wait(timeout=30)


def _credentials(url: str, server: subprocess.Popen[bytes]) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while True:
        assert server.poll() is None, "serve exited"
        try:
            with urllib.request.urlopen(url) as answer:
                return dict(json.loads(answer.read()))
        except OSError:
            assert time.monotonic() < deadline, "serve did not answer in time"
            time.sleep(0.1)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
