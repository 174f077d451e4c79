"""The corrections the window keeps from players' taps, read back for training."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.vision.corrections import INDEX, CorrectionsError, load_corrections, save_correction, withdraw_correction, withdrawn_states


def _table_with_die(box: tuple[int, int, int, int]) -> np.ndarray:
    frame = np.full((240, 320, 3), 90, np.uint8)
    x0, y0, x1, y1 = box
    frame[y0:y1, x0:x1] = 250
    return frame


@pytest.mark.parametrize("box", [(100, 80, 140, 120), (0, 5, 30, 35), (290, 200, 320, 240)], ids=["middle", "top-left edge", "bottom-right edge"])
def test_a_kept_correction_reads_back_with_its_die_boxed_in_its_picture(tmp_path: Path, box: tuple[int, int, int, int]) -> None:
    save_correction(tmp_path, _table_with_die(box), tuple(map(float, box)), 3, 5)
    found = load_corrections(tmp_path)
    assert found.problems == () and found.withdrawn == 0 and len(found.corrections) == 1
    correction = found.corrections[0]
    assert (correction.value, correction.was) == (5, 3)
    picture = correction.load()
    x0, y0, x1, y1 = map(int, correction.box)
    assert (x1 - x0, y1 - y0) == (box[2] - box[0], box[3] - box[1])
    assert (picture[y0:y1, x0:x1] == 250).all(), "the box in the picture is the die"
    outside = np.ones(picture.shape[:2], bool)
    outside[y0:y1, x0:x1] = False
    assert outside.any() and (picture[outside] == 90).all(), "and the margin round it is the table"


def test_bad_lines_are_reported_and_skipped_and_the_rest_kept(tmp_path: Path) -> None:
    frame = _table_with_die((100, 80, 140, 120))
    save_correction(tmp_path, frame, (100.0, 80.0, 140.0, 120.0), 3, 5)
    good = json.loads((tmp_path / INDEX).read_text())
    bad = [
        {**good, "value": 7},
        {**good, "file": "gone.png"},
        {**good, "file": "../elsewhere.png"},
        {**good, "box": [10, 10, 5, 20]},
        {**good, "value": None, "was": None},
        [1, 2],
    ]
    with open(tmp_path / INDEX, "a", encoding="utf-8") as stream:
        stream.write("".join(json.dumps(line) + "\n" for line in bad))
        stream.write("\n")
        stream.write('{"file": "20261201-1200')  # a crash in the middle of the last line
    save_correction(tmp_path, frame, (100.0, 80.0, 140.0, 120.0), None, 2)
    found = load_corrections(tmp_path)
    assert [(c.was, c.value) for c in found.corrections] == [(3, 5), (None, 2)]
    problems = found.problems
    assert len(problems) == 7
    assert all(f"{tmp_path / INDEX}:{n}:" in p and p.endswith("line skipped") for n, p in zip((2, 3, 4, 5, 6, 7, 9), problems))
    assert "'value' must be 1-6 or null, got 7" in problems[0]
    assert "gone.png is missing" in problems[1]


def test_a_die_corrected_twice_counts_once_with_its_last_value(tmp_path: Path) -> None:
    frame = _table_with_die((100, 80, 140, 120))
    box = (100.0, 80.0, 140.0, 120.0)
    save_correction(tmp_path, frame, box, 3, 5)
    save_correction(tmp_path, frame, (10.0, 10.0, 40.0, 40.0), 6, None)
    save_correction(tmp_path, frame, box, 5, 4)
    assert [(c.was, c.value) for c in load_corrections(tmp_path).corrections] == [(6, None), (5, 4)]
    save_correction(tmp_path, frame, (10.0, 10.0, 40.0, 40.0), None, 2)
    save_correction(tmp_path, frame, box, 4, 5)
    save_correction(tmp_path, frame, (50.0, 50.0, 90.0, 90.0), 4, 5)
    found = load_corrections(tmp_path).corrections
    assert [(c.was, c.value) for c in found] == [(None, 2), (4, 5), (4, 5)], "a third time too; another box is another die"


def test_a_correction_the_game_took_back_is_left_out_until_it_is_done_again(tmp_path: Path) -> None:
    frame = _table_with_die((100, 80, 140, 120))
    box = (100.0, 80.0, 140.0, 120.0)
    first = save_correction(tmp_path, frame, box, 3, 5)
    second = save_correction(tmp_path, frame, box, 5, 6)
    assert withdrawn_states(tmp_path) == {first.name: False, second.name: False}
    withdraw_correction(tmp_path, second)
    assert withdrawn_states(tmp_path) == {first.name: False, second.name: True}
    found = load_corrections(tmp_path)
    assert [(c.was, c.value) for c in found.corrections] == [(3, 5)], "with the 6 undone, the die is a 5 again"
    assert found.withdrawn == 1 and found.problems == ()
    withdraw_correction(tmp_path, second, withdrawn=False)
    assert [(c.was, c.value) for c in load_corrections(tmp_path).corrections] == [(5, 6)], "redone"
    withdraw_correction(tmp_path, second)
    withdraw_correction(tmp_path, first)
    assert load_corrections(tmp_path).corrections == ()
    assert withdrawn_states(tmp_path) == {first.name: True, second.name: True}
    assert second.is_file(), "the picture stays, for a redo"


def test_a_withdrawal_of_a_correction_never_recorded_is_reported(tmp_path: Path) -> None:
    frame = _table_with_die((100, 80, 140, 120))
    save_correction(tmp_path, frame, (100.0, 80.0, 140.0, 120.0), 3, 5)
    withdraw_correction(tmp_path, tmp_path / "elsewhere.png")
    with open(tmp_path / INDEX, "a", encoding="utf-8") as stream:
        stream.write(json.dumps({"withdrawn": "../up.png"}) + "\n")
    with open(tmp_path / INDEX, "a", encoding="utf-8") as stream:
        stream.write('{"file": "cut off mid-wr')
    assert list(withdrawn_states(tmp_path).values()) == [False], "only pictures a line records, whatever else is there"
    assert withdrawn_states(tmp_path / "new") == {}
    found = load_corrections(tmp_path)
    assert len(found.corrections) == 1 and found.withdrawn == 0
    assert found.problems[:2] == (
        f"{tmp_path / INDEX}:2: it takes back elsewhere.png, which no line records; line skipped",
        f"{tmp_path / INDEX}:3: 'withdrawn' must be a picture's name in the folder, got '../up.png'; line skipped",
    )


def test_a_folder_without_corrections_is_refused_with_where_they_are_kept(tmp_path: Path) -> None:
    with pytest.raises(CorrectionsError, match=f"{tmp_path} is not a corrections folder: it has no {INDEX}"):
        load_corrections(tmp_path)
