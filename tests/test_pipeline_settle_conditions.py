"""Settling that holds: recordings of each condition met at real tables, played through the watch
loop with the default profile. Every rest of half a second or more is taken once with its roll, a
bounce under half a second never is, and no roll comes from moving dice.

Rendered clips script the dice exactly (camera drift and shake, exposure and white-balance jumps,
a hand passing over still dice, a recording that starts at rest); clips made from the real photos
in ``../shared/data`` move a photographed table as a handheld camera moves (homography jitter),
step its exposure and pass a hand over it. Those skip where the data is absent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.pipeline.calibration import CalibrationProfile
from scorekeeper.pipeline.demo import Choreography, render_scene
from scorekeeper.pipeline.settling import EventKind, SettleEvent
from scorekeeper.pipeline.sources import BaseSource, Frame
from scorekeeper.pipeline.watch import Watcher
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.render import Scene, TableLook
from tests.pipeline_films import FilmReader

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "byler_d6"


@dataclass
class Clip:
    """A recording: its frames, each frame's true dice, and the rolls a player would call."""

    frames: list[NDArray[np.uint8]]
    truth: list[Detections]
    rolls: list[list[int]]
    """The rolls, in order: one per rest of half a second or more."""
    scenes: list[Scene] | None = None


class ClipSource(BaseSource):
    """Plays a clip's frames at 30 per second, unpaced."""

    def __init__(self, clip: Clip) -> None:
        super().__init__(False)
        self.clip = clip
        self.size = (clip.frames[0].shape[1], clip.frames[0].shape[0])
        self.name = "clip"

    def read(self) -> Frame | None:
        if self._index >= len(self.clip.frames):
            return None
        frame = Frame(self.clip.frames[self._index], self._index, self._index / 30, self.clip.truth[self._index])
        self._index += 1
        return frame


class TruthReader:
    """Each frame's true dice, spoiled as a real reader spoils them (``FilmReader``), or exactly."""

    def __init__(self, clip: Clip, watcher_frame: Callable[[], int], seed: int = 0) -> None:
        self.clip = clip
        self.frame = watcher_frame
        self.rng = np.random.default_rng(seed)

    def read(self, image: NDArray[np.uint8], dice: int | None = None) -> Detections:
        truth = self.clip.truth[self.frame()]
        n = len(truth)
        keep = self.rng.random(n) >= 0.04
        boxes = truth.boxes + self.rng.normal(0, 0.8, (n, 4)).astype(np.float32)
        boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2] + 1)
        return Detections(boxes[keep], truth.values[keep], self.rng.uniform(0.8, 0.99, n)[keep].astype(np.float32))


def settled(clip: Clip, seed: int = 0) -> list[SettleEvent]:
    """The rolls the watch loop takes from ``clip`` with the default profile."""
    source = ClipSource(clip)
    watcher = Watcher(source, None, CalibrationProfile())  # type: ignore[arg-type]
    frame = lambda: watcher.latest_frame.index if watcher.latest_frame is not None else 0  # noqa: E731
    if clip.scenes is not None:
        watcher.reader = FilmReader(clip.scenes, clip.truth, seed=seed).follow(watcher)
    else:
        watcher.reader = TruthReader(clip, frame, seed)
    return [event for event in watcher.events() if event.kind is EventKind.SETTLED]


def rendered(film: Choreography, rolls: list[list[int]], camera: Callable[[int, Scene], Scene] | None = None, colour: Callable[[int], tuple[float, float, float]] | None = None) -> Clip:
    scenes = film.drain()
    if camera is not None:
        scenes = [camera(i, scene) for i, scene in enumerate(scenes)]
    frames, truth = [], []
    for i, scene in enumerate(scenes):
        image, labels = render_scene(scene)
        if colour is not None:
            image = np.clip(image * np.array(colour(i), np.float32), 0, 255).astype(np.uint8)
        frames.append(image)
        truth.append(labels)
    return Clip(frames, truth, rolls, scenes)


def handheld(seed: int, drift: float, shake: float) -> Callable[[int, Scene], Scene]:
    """A camera held in the hand: the picture drifts ``drift`` px a frame on a slow wander and
    shakes by up to ``shake`` px each frame."""
    rng = np.random.default_rng(seed)
    steps = rng.normal(0, 1, (100000, 2))
    heading = np.cumsum(steps * 0.15, axis=0)

    def move(i: int, scene: Scene) -> Scene:
        angle = heading[i, 0]
        x = drift * 40 * np.sin(i / 40 + angle * 0.1) + rng.uniform(-shake, shake)
        y = drift * 40 * np.cos(i / 53 + heading[i, 1] * 0.1) + rng.uniform(-shake, shake)
        return replace(scene, shift=(float(scene.shift[0] + x), float(scene.shift[1] + y)))

    return move


def three_throws(seed: int, table: TableLook | None = None) -> tuple[Choreography, list[list[int]]]:
    film = Choreography(640, 480, seed=seed, table=table)
    rolls = [[1, 3, 5, 6], [2, 2, 4], [6]]
    film.empty(10)
    for roll in rolls:
        film.throw(roll, frames=18)
        film.rest(30)  # a second at rest
        film.sweep(14)
        film.empty(18)
    return film, rolls


def condition_fixed_camera() -> Clip:
    film, rolls = three_throws(1)
    return rendered(film, rolls)


def condition_handheld() -> Clip:
    film, rolls = three_throws(2, TableLook(kind="cloth", color=(70, 90, 150), color2=(40, 60, 110), seed=2))
    return rendered(film, rolls, camera=handheld(2, drift=1.0, shake=3.0))


def condition_handheld_felt() -> Clip:
    film, rolls = three_throws(7)
    return rendered(film, rolls, camera=handheld(7, drift=1.0, shake=3.0))


def condition_exposure_and_white_balance() -> Clip:
    film, rolls = three_throws(3)

    def colour(i: int) -> tuple[float, float, float]:
        # auto exposure and white balance jump every 25 frames, dice lying still or not
        step = i // 25
        gain = (1.0, 1.35, 0.8, 1.15)[step % 4]
        tint = ((1.0, 1.0, 1.0), (1.15, 1.0, 0.85), (0.85, 1.0, 1.2))[step % 3]
        return gain * tint[0], gain * tint[1], gain * tint[2]

    return rendered(film, rolls, colour=colour)


def condition_starts_at_rest() -> Clip:
    film = Choreography(640, 480, seed=4)
    film.throw([2, 3, 5], frames=2)
    film.drain()
    film.rest(18)  # the recording starts with the dice at rest for 0.6 s
    film.sweep(14)
    film.empty(18)
    film.throw([4, 4], frames=18)
    film.rest(30)
    return rendered(film, [[2, 3, 5], [4, 4]])


def condition_hand_over_still_dice() -> Clip:
    film = Choreography(640, 480, seed=5)
    film.empty(10)
    film.throw([1, 2, 6, 6], frames=18)
    film.rest(30)
    rest_from = len(film.scenes) - 30
    film.rest(40)

    def hand(i: int, scene: Scene) -> Scene:
        # a hand reaches across the table over the resting dice and back, touching none
        u = (i - rest_from - 32) / 24
        if 0 <= u <= 1:
            return replace(scene, hand=(float(-100 + 840 * u), 240.0, 90.0))
        return scene

    return rendered(film, [[1, 2, 6, 6]], camera=hand)


def condition_bounces() -> Clip:
    film = Choreography(640, 480, seed=6)
    film.empty(10)
    film.throw([3, 5, 6], frames=18)
    film.rest(4)  # the first die down lay still up to 0.4 s: a bounce, not a rest
    film.hop([4, 1, 2], frames=6)
    film.rest(11)  # 0.4 s: still bouncing
    film.hop([5, 5, 2], frames=6)
    film.rest(30)  # at rest at last
    return rendered(film, [[2, 5, 5]])


RENDERED = {
    "fixed camera, three throws": condition_fixed_camera,
    "handheld camera over a cloth (drift 1 px and shake 3 px a frame)": condition_handheld,
    "handheld camera over plain felt": condition_handheld_felt,
    "exposure and white-balance jumps": condition_exposure_and_white_balance,
    "recording starts at rest (0.6 s)": condition_starts_at_rest,
    "hand passing over still dice": condition_hand_over_still_dice,
    "bounces of 0.4 s before the rest": condition_bounces,
}


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RENDERED))
def test_every_rest_of_half_a_second_is_taken_once_with_its_roll_on_rendered_clips(name: str) -> None:
    clip = RENDERED[name]()
    assert [event.roll() for event in settled(clip)] == [sorted(roll) for roll in clip.rolls]
