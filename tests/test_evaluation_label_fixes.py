"""The reviewed label fixes of the shared real photo sets dice3 and rune55 load and apply to the photos they name."""

from __future__ import annotations

import pytest

from conftest import shared_data_folder
from scorekeeper.evaluation.dataset import label_fixes_for, load_dataset, read_label_fixes, with_label_fixes



@pytest.mark.parametrize("name", ["dice3", "rune55"])
def test_every_label_fix_names_a_photo_and_finds_its_die(name: str) -> None:
    folder = shared_data_folder(name, "split.csv", "images", "labels")
    path = label_fixes_for(folder)
    assert path is not None
    fixes = read_label_fixes(path)
    stems = {p.stem for p in (folder / "images").iterdir()}
    assert {fix.stem for fix in fixes} <= stems
    assert all(fix.why and (fix.seen != fix.labelled or fix.box is None) for fix in fixes)
    left_out = {fix.stem for fix in fixes if fix.box is None}
    applied = 0
    for split in ("train", "test"):
        as_given = load_dataset(folder, split=split)
        items, split_fixes = with_label_fixes(as_given, folder)
        applied += len(split_fixes)
        assert [i.path.stem for i in items] == [i.path.stem for i in as_given if i.path.stem not in left_out]
        changes = {fix.stem: 0 for fix in split_fixes if fix.box is not None}
        for fix in split_fixes:
            if fix.box is not None:
                changes[fix.stem] += (fix.labelled is None) - (fix.seen is None)
        given = {i.path.stem: len(i.labels) for i in as_given}
        assert {i.path.stem: len(i.labels) for i in items if i.path.stem in changes} == {stem: given[stem] + n for stem, n in changes.items()}
    assert applied == len(fixes), "each fix applies to its split and finds what it fixes"
