"""Every test plays in a scorekeeper home of its own, never in the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``$SCOREKEEPER_HOME`` set to a fresh folder (``play`` keeps a journal there from its first step)."""
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path_factory.mktemp("home")))
