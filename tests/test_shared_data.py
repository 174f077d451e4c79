"""The rule for the labelled photos in ``../shared/data``: skipped where absent, owed in CI."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import shared_data_folder


def checkout_with(tmp_path: Path, shared: bool, photos: bool) -> Path:
    """A checkout folder in ``tmp_path``, with ``../shared`` beside it and the photos in it, as asked."""
    checkout = tmp_path / "clone"
    checkout.mkdir()
    if shared:
        (tmp_path / "shared").mkdir()
    if photos:
        (tmp_path / "shared" / "data" / "byler_d6").mkdir(parents=True)
        (tmp_path / "shared" / "data" / "byler_d6" / "split.csv").write_text("stem,split\n")
    return checkout


def test_the_photos_are_found_where_they_are(tmp_path: Path) -> None:
    checkout = checkout_with(tmp_path, shared=True, photos=True)
    found = shared_data_folder("byler_d6", "split.csv", checkout=checkout, environ={"CI": "true"})
    assert found == tmp_path / "shared" / "data" / "byler_d6"


@pytest.mark.parametrize("photos", [False, True], ids=["folder-missing", "file-missing"])
def test_in_ci_with_shared_beside_the_clone_missing_photos_fail(tmp_path: Path, photos: bool) -> None:
    checkout = checkout_with(tmp_path, shared=True, photos=photos)
    with pytest.raises(pytest.fail.Exception, match="owed"):
        shared_data_folder("byler_d6", "split.csv", "images", checkout=checkout, environ={"CI": "true"})


@pytest.mark.parametrize("environ, shared", [({}, True), ({"CI": "false"}, True), ({"CI": "true"}, False)], ids=["local", "ci-false", "ci-without-shared"])
def test_elsewhere_missing_photos_skip(tmp_path: Path, environ: dict[str, str], shared: bool) -> None:
    checkout = checkout_with(tmp_path, shared=shared, photos=False)
    with pytest.raises(pytest.skip.Exception, match="not there"):
        shared_data_folder("byler_d6", "split.csv", checkout=checkout, environ=environ)
