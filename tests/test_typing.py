"""mypy --strict holds on the whole package (as configured in pyproject.toml), run as a terminal
runs it: in its own process, from the project's root, so pytest's import path cannot hide an error."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_strict_passes_on_the_whole_package() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    modules = len(list((ROOT / "scorekeeper").rglob("*.py")))
    assert f"no issues found in {modules} source files" in result.stdout, result.stdout
