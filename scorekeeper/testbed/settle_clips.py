"""Test recordings of the conditions met at real tables, for settling: rendered clips (camera
drift and shake, exposure and white-balance jumps, a hand over still dice, a recording that starts
at rest, bounces) and clips made from the real photos in ``../shared/data`` moved as a handheld
camera moves. Tests and ``benchmarks/settle_conditions.py`` play them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.demo_table import Choreography, render_scene
from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.camera.frames import BaseSource, Frame
from scorekeeper.camera.watch import Watcher
from scorekeeper.evaluation.dataset import parse_yolo_labels
from scorekeeper.vision.detections import DiceReader, Detections
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook
from scorekeeper.testbed.films import FilmReader

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "byler_d6"
"""The labelled photos the clips from real photos are made of, in ``../shared/data`` beside a source checkout."""


@dataclass
class Clip:
    """A recording: its frames, each frame's true dice, and the rolls a player would call."""

    frames: list[NDArray[np.uint8]]
    """The pictures, 30 a second."""
    truth: list[Detections]
    """Each picture's true dice."""
    rolls: list[list[int]]
    """The rolls, in order: one per rest of half a second or more."""
    scenes: list[Scene] | None = None
    """Each picture's rendered scene (None for clips made from photos)."""


class ClipSource(BaseSource):
    """Plays a clip's frames at 30 per second, unpaced."""

    def __init__(self, clip: Clip) -> None:
        super().__init__(False)
        self.clip = clip
        self.size = (clip.frames[0].shape[1], clip.frames[0].shape[0])
        self.name = "clip"

    def read(self) -> Frame | None:
        """The next frame, with its true dice; None after the last."""
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
        """The watcher's frame's true dice, a few missed and every box jittered."""
        truth = self.clip.truth[self.frame()]
        n = len(truth)
        keep = self.rng.random(n) >= 0.04
        boxes = truth.boxes + self.rng.normal(0, 0.8, (n, 4)).astype(np.float32)
        boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2] + 1)
        return Detections(boxes[keep], truth.values[keep], self.rng.uniform(0.8, 0.99, n)[keep].astype(np.float32))


def settled(clip: Clip, seed: int = 0, reader: DiceReader | None = None) -> list[SettleEvent]:
    """The rolls the watch loop takes from ``clip`` with the default profile, read by ``reader``,
    else by the clip's true dice spoiled as a real reader spoils them."""
    source = ClipSource(clip)
    watcher = Watcher(source, reader, CalibrationProfile())  # type: ignore[arg-type]
    if reader is None:
        if clip.scenes is not None:
            watcher.reader = FilmReader(clip.scenes, clip.truth, seed=seed).follow(watcher)
        else:
            watcher.reader = TruthReader(clip, lambda: watcher.latest_frame.index if watcher.latest_frame is not None else 0, seed)
    return [event for event in watcher.events() if event.kind is EventKind.SETTLED]


def rendered(film: Choreography, rolls: list[list[int]], camera: Callable[[int, Scene], Scene] | None = None, colour: Callable[[int], tuple[float, float, float]] | None = None) -> Clip:
    """The film rendered: its frames seen by ``camera`` (moved scenes) and tinted by ``colour`` (a
    gain per channel), with ``rolls`` the rolls a player would call."""
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
    """Three throws, each a second at rest, then swept off, on ``table``; the film and its rolls."""
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
    """Three throws filmed from a camera that stays put."""
    film, rolls = three_throws(1)
    return rendered(film, rolls)


def condition_handheld() -> Clip:
    """Three throws over a cloth, filmed by a camera held in the hand."""
    film, rolls = three_throws(2, TableLook(kind="cloth", color=(70, 90, 150), color2=(40, 60, 110), seed=2))
    return rendered(film, rolls, camera=handheld(2, drift=1.0, shake=3.0))


def condition_handheld_felt() -> Clip:
    """Three throws over plain felt, filmed by a camera held in the hand."""
    film, rolls = three_throws(7)
    return rendered(film, rolls, camera=handheld(7, drift=1.0, shake=3.0))


def condition_exposure_and_white_balance() -> Clip:
    """Three throws with the exposure and white balance jumping every 25 frames."""
    film, rolls = three_throws(3)

    def colour(i: int) -> tuple[float, float, float]:
        # auto exposure and white balance jump every 25 frames, dice lying still or not
        step = i // 25
        gain = (1.0, 1.35, 0.8, 1.15)[step % 4]
        tint = ((1.0, 1.0, 1.0), (1.15, 1.0, 0.85), (0.85, 1.0, 1.2))[step % 3]
        return gain * tint[0], gain * tint[1], gain * tint[2]

    return rendered(film, rolls, colour=colour)


def condition_starts_at_rest() -> Clip:
    """A recording that starts with dice at rest, then one throw more."""
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
    """One throw, and a hand passing over the dice at rest, touching none."""
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
    """One throw whose dice lie still for a moment twice before they come to rest."""
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


PHOTOS = ("IMG_20191208_111820", "IMG_20191208_112214")
"""Two test-split photos of byler_d6 (6 and 7 dice): the first roll of a clip, then the second."""


def photo(stem: str) -> tuple[NDArray[np.uint8], Detections]:
    """The byler_d6 photo ``stem`` and its labelled dice."""
    image = cv2.imread(str(DATA / "images" / f"{stem}.jpg"))
    assert image is not None, stem
    height, width = image.shape[:2]
    return np.asarray(image, np.uint8), parse_yolo_labels((DATA / "labels" / f"{stem}.txt").read_text(), width, height)


def photo_clip(seed: int, frames: int = 40, exposure: bool = False, hand: bool = False) -> Clip:
    """The photos in turn, ``frames`` each (the clip starts with the first one's dice at rest),
    filmed by a handheld camera: each frame the photo moves by a homography that drifts and
    shakes (a few px of shift, a little turn and tilt); with ``exposure``, the brightness steps
    every 12 frames; with ``hand``, a hand crosses over the dice halfway through each photo."""
    rng = np.random.default_rng(seed)
    images, truth, rolls = [], [], []
    for stem in PHOTOS:
        image, labels = photo(stem)
        height, width = image.shape[:2]
        rolls.append(labels.roll())
        drift = np.zeros(2)
        for t in range(frames):
            drift += rng.normal(0, 0.8, 2)
            dx, dy = drift + rng.uniform(-3, 3, 2)
            turn = np.deg2rad(rng.uniform(-0.4, 0.4))
            tilt = rng.uniform(-2e-6, 2e-6, 2)
            moved = np.array(
                [[np.cos(turn), -np.sin(turn), dx], [np.sin(turn), np.cos(turn), dy], [tilt[0], tilt[1], 1.0]]
            ) @ np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]])
            moved = np.array([[1, 0, width / 2], [0, 1, height / 2], [0, 0, 1]]) @ moved
            frame = cv2.warpPerspective(image, moved, (width, height), borderMode=cv2.BORDER_REFLECT)
            corners = np.stack(
                [labels.boxes[:, [0, 1]], labels.boxes[:, [2, 1]], labels.boxes[:, [2, 3]], labels.boxes[:, [0, 3]]], axis=1
            ).reshape(-1, 1, 2)
            placed = cv2.perspectiveTransform(corners.astype(np.float64), moved).reshape(-1, 4, 2)
            boxes = np.concatenate([placed.min(axis=1), placed.max(axis=1)], axis=1)
            seen = np.ones(len(labels), bool)
            if exposure:
                gain = (1.0, 1.3, 0.75, 1.15)[(t // 12) % 4]
                frame = np.clip(frame * gain, 0, 255).astype(np.uint8)
            if hand and frames // 2 <= t < frames // 2 + 12:
                u = (t - frames // 2) / 11
                centre = (int(-120 + (width + 240) * u), height // 2)
                cv2.ellipse(frame, centre, (150, 95), 20, 0, 360, (125, 165, 215), -1)
                cv2.ellipse(frame, centre, (150, 95), 20, 0, 360, (90, 120, 170), 6)
                middle = (boxes[:, :2] + boxes[:, 2:]) / 2
                seen = np.hypot((middle[:, 0] - centre[0]) / 150, (middle[:, 1] - centre[1]) / 95) > 1.1
            images.append(np.asarray(frame, np.uint8))
            truth.append(Detections(boxes[seen].astype(np.float32), labels.values[seen], np.full(int(seen.sum()), 0.95, np.float32)))
    return Clip(images, truth, rolls)


PHOTO_CLIPS = {
    "real photos, handheld (homography jitter), starting at rest": lambda: photo_clip(1),
    "real photos, handheld, exposure steps": lambda: photo_clip(2, exposure=True),
    "real photos, handheld, a hand occluding the dice": lambda: photo_clip(3, frames=50, hand=True),
}


SPECK = np.array([89, 321, 129, 361], np.float32)
"""Where byler_d6's white board shows a dark speck (at 109, 341), as a reader finding a 1 there boxes it."""


def photo_table_clip(seed: int) -> Clip:
    """Two throws of six dice on byler_d6's real table: the board without dice (the first photo's
    dice painted out), where a reader may take its speck for a 1 (the truth below does, in every
    frame it shows); then the first photo's dice tumble in, rest, and are swept off under a hand,
    then six of the second photo's the same way (each die the photo's own picture of it, moved)."""
    rng = np.random.default_rng(seed)
    image, first = photo(PHOTOS[0])
    height, width = image.shape[:2]
    painted = np.zeros((height, width), np.uint8)
    for x0, y0, x1, y1 in first.boxes.astype(int):
        painted[max(0, y0 - 6) : y1 + 6, max(0, x0 - 6) : x1 + 6] = 255
    board = np.asarray(cv2.inpaint(image, painted, 5, cv2.INPAINT_TELEA), np.uint8)
    frames: list[NDArray[np.uint8]] = []
    truth: list[Detections] = []

    def film(dice: list[tuple[NDArray[np.uint8], NDArray[np.float32], int]], hand: float | None = None) -> None:
        frame, boxes, values = board.copy(), [], []
        for crop, box, value in dice:
            x0, y0 = int(round(box[0])), int(round(box[1]))
            frame[y0 : y0 + crop.shape[0], x0 : x0 + crop.shape[1]] = crop
            boxes.append(box)
            values.append(value)
        boxes.append(SPECK)
        values.append(1)
        seen = np.ones(len(boxes), bool)
        if hand is not None:
            centre = (int(-120 + (width + 240) * hand), height // 2)
            cv2.ellipse(frame, centre, (150, 95), 20, 0, 360, (125, 165, 215), -1)
            cv2.ellipse(frame, centre, (150, 95), 20, 0, 360, (90, 120, 170), 6)
            middle = (np.array(boxes)[:, :2] + np.array(boxes)[:, 2:]) / 2
            seen = np.hypot((middle[:, 0] - centre[0]) / 150, (middle[:, 1] - centre[1]) / 95) > 1.1
        frames.append(frame)
        truth.append(Detections(np.array(boxes, np.float32)[seen], np.array(values)[seen], np.full(int(seen.sum()), 0.95, np.float32)))

    for _ in range(25):
        film([])  # the empty board before the first throw: only the speck
    rolls = []
    for stem in PHOTOS:
        picture, labels = photo(stem)
        labels = labels[np.arange(len(labels)) < 6]
        rolls.append(labels.roll())
        dice = []
        for box, value in zip(labels.boxes, labels.values):
            x0, y0, x1, y1 = box.astype(int)
            dice.append((picture[y0:y1, x0:x1].copy(), np.array([x0, y0, x1, y1], np.float32), int(value)))
        start = rng.uniform(-160, 160, (len(dice), 2))
        for t in range(12):  # the dice tumble in and come to rest where the photo has them
            u = (1 - (t + 1) / 12) ** 2
            film([(crop, box + np.tile(start[i] * u, 2).astype(np.float32), value) for i, (crop, box, value) in enumerate(dice)])
        for _ in range(40):
            film(dice)
        for t in range(12):  # a hand sweeps them off the board
            film(dice if t < 6 else [], hand=t / 11)
        for _ in range(25):
            film([])
    return Clip(frames, truth, rolls)
