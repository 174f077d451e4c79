"""Shared test set-up, for tests and doctests alike: Qt without a screen, no writes into the user's
own cache folder or scorekeeper home, and the one rule for the labelled photos in ``../shared/data``."""

import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("SCOREKEEPER_CACHE_DIR", tempfile.mkdtemp(prefix="scorekeeper-test-cache-"))

CHECKOUT = Path(__file__).resolve().parent
"""The root of this checkout; the shared photos lie beside it, in ``../shared/data``."""


def shared_data_folder(name: str, *needed: str, checkout: Path = CHECKOUT, environ: Mapping[str, str] = os.environ) -> Path:
    """``../shared/data/NAME`` beside the checkout, with each of ``needed`` in it.

    Where it is missing the test skips on a developer's machine, but fails in CI (``CI=true``)
    when ``../shared`` is beside the clone: there the data is owed, and a run that skips its
    tests must not pass.
    """
    folder = checkout.parent / "shared" / "data" / name
    missing = [part for part in needed if not (folder / part).exists()] if folder.is_dir() else [name]
    if not missing:
        return folder
    what = f"{folder} lacks {', '.join(missing)}" if folder.is_dir() else f"{folder} is not there"
    if environ.get("CI", "").lower() == "true" and (checkout.parent / "shared").is_dir():
        pytest.fail(f"{what}: CI has ../shared beside the clone, so this data is owed; restore it (it is never copied into the project)")
    pytest.skip(f"{what} (the labelled photos are not beside this checkout)")


@pytest.fixture(scope="session")
def shared_data() -> Callable[..., Path]:
    """:func:`shared_data_folder`, for tests and fixtures that read ``../shared/data``."""
    return shared_data_folder


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """``$SCOREKEEPER_HOME`` set to a fresh folder for each test (``play`` keeps a journal there from its first step)."""
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path_factory.mktemp("home")))
