"""The code base stays ruff-clean (E, F, I, B, UP) and, where pyproject.toml's [tool.mypy] says
(`files`: openapi/ and mock_server/store/), mypy-clean in strict mode: the same checks CI makes."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_reports_nothing():
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_reports_nothing(tmp_path: Path):
    """`python -m mypy` from the repository root, its cache in tmp_path so nothing is left behind."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr
