"""mypy --strict holds on the pure packages and the command line (as configured in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_strict_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    stdout, stderr, status = api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-incremental"])
    assert status == 0, stdout + stderr
