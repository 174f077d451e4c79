"""The empty table's own finds (a logo, a knot) are learned and not offered as dice; a moved
camera forgets them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.pipeline.calibration import CalibrationProfile
from scorekeeper.pipeline.demo import Choreography
from scorekeeper.pipeline.settling import EventKind, SettleParams
from scorekeeper.pipeline.sources import VideoSource
from scorekeeper.pipeline.watch import Watcher
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.render import TableLook
from tests.pipeline_films import FilmReader, write_video

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


def rolls_of(film: Choreography, tmp_path: Path, learn_first: bool = False) -> list[list[int]]:
    scenes = film.drain()
    labels = write_video(scenes, tmp_path / "film.avi")
    with VideoSource(tmp_path / "film.avi", realtime=False) as video:
        watcher = Watcher(video, None, CalibrationProfile(), SettleParams(settle_frames=10))  # type: ignore[arg-type]
        watcher.reader = WithLogo(FilmReader(scenes, labels, seed=1).follow(watcher))
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


def test_a_find_that_stays_put_through_a_throw_is_the_table_and_not_offered_as_a_die(tmp_path: Path) -> None:
    # Unlearned, the logo lying still is a one-die roll, and a die of the first throw; lying
    # unchanged through that throw, it is the table's from then on.
    assert rolls_of(three_rolls(2), tmp_path) == [[3], [1, 3, 5, 6], [2, 2], [4, 6, 6]]


def test_the_empty_table_learned_at_calibration_is_never_a_die(tmp_path: Path) -> None:
    assert rolls_of(three_rolls(3), tmp_path, learn_first=True) == [[1, 5, 6], [2, 2], [4, 6, 6]]


def test_a_moved_camera_forgets_the_table(tmp_path: Path) -> None:
    film = three_rolls(4)
    film.bump((6.0, 4.0), frames=2)  # the camera is knocked: the logo is elsewhere in the picture now
    film.throw([3, 5], frames=12, spots=SPOTS[:2])
    film.rest(25)
    assert rolls_of(film, tmp_path, learn_first=True)[-1] == [3, 3, 5]
