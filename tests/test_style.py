"""The code base stays ruff-clean (E, F, I, B, UP), checked in the same run CI makes."""

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
