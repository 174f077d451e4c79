"""The empty table's own finds (a logo, a knot) are learned and not offered as dice; a moved
camera forgets them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.demo_table import Choreography
from scorekeeper.camera.settling import EventKind, SettleParams
from scorekeeper.camera.sources import VideoSource
from scorekeeper.camera.watch import Watcher, default_reader
from scorekeeper.vision.detections import Detections
from scorekeeper.synthetic.table import TableLook
from conftest import shared_data_folder
from scorekeeper.testbed.films import FilmReader, write_video
from scorekeeper.testbed.settle_clips import ClipSource, TruthReader, photo_table_clip

LOGO = np.array([[282, 30, 306, 54]], np.float32)
"""Where the table shows something the reader takes for a 3, in every frame."""


class WithLogo:
    """A film's reader that also finds the table's logo as a die."""

    def __init__(self, inner: FilmReader) -> None:
        self.inner = inner

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        found = self.inner.read(frame, dice)
        return Detections(
            np.concatenate([found.boxes, LOGO]), np.concatenate([found.values, [3]]), np.concatenate([found.confidences, [0.9]])
        )


def rolls_of(film: Choreography, tmp_path: Path, learn_first: bool = False, thrown: int | None = None) -> list[list[int]]:
    """The rolls the watch loop takes from ``film`` (a game expecting ``thrown`` dice thrown, or free play)."""
    scenes = film.drain()
    labels = write_video(scenes, tmp_path / "film.avi")
    with VideoSource(tmp_path / "film.avi", realtime=False) as video:
        watcher = Watcher(video, None, CalibrationProfile(), SettleParams(settle_frames=10))  # type: ignore[arg-type]
        watcher.reader = WithLogo(FilmReader(scenes, labels, seed=1).follow(watcher))
        watcher.thrown = thrown
        if learn_first:
            watcher.learn_empty_table()
        return [event.roll() for event in watcher.events() if event.kind is EventKind.SETTLED]


SPOTS = [(60.0, 150.0), (150.0, 105.0), (215.0, 180.0)]
"""Where the dice of every throw land."""


def three_rolls(seed: int) -> Choreography:
    """Three throws onto the same spots, each picked up again: a die landing where one lay is no
    part of the table. The table is a cloth, whose weave shows the camera moving."""
    film = Choreography(320, 240, seed=seed, table=TableLook(kind="cloth", color=(70, 90, 150), color2=(40, 60, 110), seed=seed))
    film.empty(10)
    for roll in ([1, 5, 6], [2, 2], [4, 6, 6]):
        film.throw(roll, frames=12, spots=SPOTS[: len(roll)])
        film.rest(25)
        film.sweep(12)
        film.empty(20)
    return film


def test_a_find_that_stays_put_through_the_first_throw_is_the_table_and_no_die_of_that_roll(tmp_path: Path) -> None:
    # A game expecting three dice: the logo lying still before anything moved is no roll, and
    # lying unchanged through the first throw it is the table's, not a die of that roll.
    assert rolls_of(three_rolls(2), tmp_path, thrown=3) == [[1, 5, 6], [2, 2], [4, 6, 6]]


def test_in_free_play_a_lone_find_at_rest_from_the_start_is_taken_but_is_no_die_of_the_first_throw(tmp_path: Path) -> None:
    # With no dice count to go by, a find at rest from the first frame may be a recording that
    # starts with a die at rest: it is taken; the throw after it still tells it for the table.
    assert rolls_of(three_rolls(2), tmp_path) == [[3], [1, 5, 6], [2, 2], [4, 6, 6]]


def test_a_recording_that_starts_with_the_dice_expected_at_rest_is_still_taken(tmp_path: Path) -> None:
    film = Choreography(320, 240, seed=5, table=TableLook(kind="cloth", color=(70, 90, 150), color2=(40, 60, 110), seed=5))
    film.throw([2, 4, 4], frames=2, spots=SPOTS)
    film.drain()
    film.rest(25)  # the recording starts with the three dice expected lying still (and the logo)
    film.sweep(12)
    film.empty(20)
    film.throw([1, 5], frames=12, spots=SPOTS[1:])
    film.rest(25)
    assert rolls_of(film, tmp_path, thrown=3) == [[2, 3, 4, 4], [1, 5]]


def test_the_empty_table_learned_at_calibration_is_never_a_die(tmp_path: Path) -> None:
    assert rolls_of(three_rolls(3), tmp_path, learn_first=True) == [[1, 5, 6], [2, 2], [4, 6, 6]]


def test_a_moved_camera_forgets_the_table(tmp_path: Path) -> None:
    film = three_rolls(4)
    film.bump((6.0, 4.0), frames=2)  # the camera is knocked: the logo is elsewhere in the picture now
    film.throw([3, 5], frames=12, spots=SPOTS[:2])
    film.rest(25)
    assert rolls_of(film, tmp_path, learn_first=True)[-1] == [3, 3, 5]


def test_a_speck_on_a_real_board_is_no_roll_and_no_die_of_the_first_throw() -> None:
    shared_data_folder("byler_d6", "images", "labels")
    clip = photo_table_clip(1)
    watcher = Watcher(ClipSource(clip), None, CalibrationProfile())  # type: ignore[arg-type]
    watcher.reader = TruthReader(clip, lambda: watcher.latest_frame.index if watcher.latest_frame is not None else 0)
    watcher.thrown = 6  # a game's first throw: six dice expected
    rolls = [event.roll() for event in watcher.events() if event.kind is EventKind.SETTLED]
    assert rolls == [sorted(roll) for roll in clip.rolls]
    assert [len(roll) for roll in rolls] == [6, 6], "the photos' own dice, and no speck"


def test_the_committed_reader_takes_no_part_of_a_real_board_for_a_roll() -> None:
    # Told six dice while none lie there (the dice in the hand between throws), the committed
    # reader keeps its six likeliest finds and reads the board's binder hole as a 3: a one-die
    # roll after each sweep. It is told the count only while a throw is under way.
    shared_data_folder("byler_d6", "images", "labels")
    clip = photo_table_clip(1)
    watcher = Watcher(ClipSource(clip), default_reader(), CalibrationProfile())
    watcher.thrown = 6
    rolls = [event.roll() for event in watcher.events() if event.kind is EventKind.SETTLED]
    assert rolls == [sorted(roll) for roll in clip.rolls]
