"""The code base stays ruff-clean (E, F, I, B, UP) and mypy-clean in strict mode (the whole package
but its tests and benchmarks, through .ci/mypy): the same checks CI makes."""

import os
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
    """`.ci/mypy`: strict mode over the whole package as `csapi` (tests and benchmarks aside), its
    cache in tmp_path so nothing is left behind."""
    result = subprocess.run(
        ["bash", str(ROOT / ".ci" / "mypy"), "--cache-dir", str(tmp_path / "mypy")],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
