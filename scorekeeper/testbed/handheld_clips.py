"""Recordings of dice thrown under a phone held in the hand, for settling: the picture drifts on
and on (it never stops when the dice do), shakes, now and then turns, and a hand passes. Made
deterministically from rendered scenes and from the real photos in ``../shared/data``, each also
filmed from a fixed camera; every clip knows its rests, so a player's calls can be checked.

Tests and ``benchmarks/handheld_settling.py`` play them through the watch loop.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.demo_table import Choreography, render_scene
from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.camera.watch import Watcher
from scorekeeper.synthetic.table import TableLook
from scorekeeper.testbed.films import tumbling
from scorekeeper.testbed.settle_clips import PHOTOS, Clip, ClipSource, photo
from scorekeeper.vision.detections import Detections

HALF_SECOND = 15
"""Frames (at 30 a second) of the shortest rest a player calls a roll."""


@dataclass(frozen=True)
class HandPath:
    """How a phone held over the table moves the picture, frame by frame."""

    seed: int
    """Draws the wander, the shake and the turns."""
    drift: float = 1.0
    """Speed of the slow drift, px a frame: it never stops, and its heading wanders round."""
    shake: float = 2.0
    """The hand's tremor, px: a few Hz, plus a little noise each frame."""
    turn: float = 1.5
    """Size of the occasional turn of the wrist, degrees (over a third of a second, every few seconds)."""

    def homographies(self, frames: int, width: int, height: int) -> list[NDArray[np.float64]]:
        """One homography a frame, from the table as a fixed camera sees it to the picture."""
        rng = np.random.default_rng(self.seed)
        heading = rng.uniform(0, 2 * math.pi) + np.cumsum(rng.normal(2 * math.pi / 150, 0.02, frames))
        centre = np.cumsum(self.drift * np.stack([np.cos(heading), np.sin(heading)], axis=1), axis=0)
        centre -= centre.mean(axis=0)
        t = np.arange(frames)
        phases = rng.uniform(0, 2 * math.pi, 4)
        tremor = self.shake * 0.6 * np.stack(
            [np.sin(t * 2 * math.pi * 5.3 / 30 + phases[0]) + 0.5 * np.sin(t * 2 * math.pi * 8.1 / 30 + phases[1]),
             np.sin(t * 2 * math.pi * 6.2 / 30 + phases[2]) + 0.5 * np.sin(t * 2 * math.pi * 9.4 / 30 + phases[3])],
            axis=1,
        )
        tremor += rng.uniform(-0.4, 0.4, (frames, 2)) * self.shake
        angle = np.cumsum(rng.normal(0, 0.03, frames))  # degrees: a slow roll of the wrist
        start, sign = int(rng.integers(20, 60)), float(rng.choice([-1.0, 1.0]))
        while start < frames:  # the wrist turns one way, and later back
            angle = angle + sign * self.turn * np.clip((t - start) / 10, 0, 1)
            start, sign = start + int(rng.integers(70, 130)), -sign
        # zoomed in a fifth, so that the picture's edge never shows past the table filmed;
        # the phone rises and sinks a little
        zoom = 1.2 + 0.012 * np.sin(t / 70 + phases[0])
        out = []
        to_centre = np.array([[1, 0, -width / 2], [0, 1, -height / 2], [0, 0, 1]], np.float64)
        for i in range(frames):
            a = math.radians(angle[i])
            dx, dy = centre[i] + tremor[i]
            move = np.array([[zoom[i] * math.cos(a), -zoom[i] * math.sin(a), dx], [zoom[i] * math.sin(a), zoom[i] * math.cos(a), dy], [0, 0, 1]])
            out.append(np.linalg.inv(to_centre) @ move @ to_centre)
        return out


@dataclass(frozen=True)
class Rest:
    """A stretch of frames with every die lying still."""

    start: int
    """The first frame of the rest."""
    stop: int
    """The frame after its last."""
    roll: tuple[int, ...]
    """The dice's values, sorted."""

    @property
    def called(self) -> bool:
        """Whether a player calls it a roll: half a second or more."""
        return self.stop - self.start >= HALF_SECOND


@dataclass
class HandheldClip(Clip):
    """A recording with its rests and, each frame, which of its true dice are tumbling."""

    rests: list[Rest] | None = None
    """The rests, in order, short ones (a bounce) too."""
    moving: list[NDArray[np.bool_]] | None = None
    """Each frame's true dice: which are tumbling (a reader reads them as anything)."""


def _area(boxes: NDArray[np.float32]) -> NDArray[np.float32]:
    """Each box's area, px (0 for a box turned inside out)."""
    return np.asarray((boxes[:, 2] - boxes[:, 0]).clip(0) * (boxes[:, 3] - boxes[:, 1]).clip(0), np.float32)


def filmed(
    table: list[tuple[NDArray[np.uint8], Detections, NDArray[np.bool_]]], rests: list[Rest], path: HandPath | None, seed: int
) -> HandheldClip:
    """The table's frames (picture, true dice, tumbling) seen by a camera moving along ``path``
    (None: a fixed camera), with fresh sensor noise each frame."""
    rng = np.random.default_rng(seed)
    height, width = table[0][0].shape[:2]
    moves = path.homographies(len(table), width, height) if path is not None else None
    frames, truth, moving = [], [], []
    for i, (image, dice, tumbles) in enumerate(table):
        boxes = dice.boxes
        if moves is not None:
            image = np.asarray(cv2.warpPerspective(image, moves[i], (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT), np.uint8)
            corners = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], axis=1).reshape(-1, 1, 2)
            placed = cv2.perspectiveTransform(corners.astype(np.float64), moves[i]).reshape(-1, 4, 2)
            boxes = np.concatenate([placed.min(axis=1), placed.max(axis=1)], axis=1).astype(np.float32)
        # a die the picture has moved off the frame is not seen; one cut by the edge is, as cut
        inside = np.clip(boxes, 0, [width, height, width, height]).astype(np.float32)
        seen = _area(inside) >= 0.5 * np.maximum(_area(boxes), 1)
        boxes, dice, tumbles = inside[seen], dice[seen], tumbles[seen]
        noisy = image.astype(np.float32) + rng.normal(0, 2.0, image.shape).astype(np.float32)
        frames.append(np.clip(noisy + 0.5, 0, 255).astype(np.uint8))
        truth.append(Detections(boxes.astype(np.float32), dice.values, np.full(len(dice), 0.95, np.float32)))
        moving.append(tumbles)
    # the rests as filmed: the dice in the picture as they come to rest
    as_filmed = [Rest(rest.start, rest.stop, tuple(sorted(int(v) for v in truth[rest.start].values))) for rest in rests]
    called = [list(rest.roll) for rest in as_filmed if rest.called]
    return HandheldClip(frames, truth, called, None, as_filmed, moving)


def _script(film: Choreography) -> list[Rest]:
    """Throws with rests of 0.3 to 2 s, dice hopping between rests, a hand passing over still dice
    and sweeping them off; returns the rests."""
    rests: list[Rest] = []

    def spots(count: int) -> list[tuple[float, float]]:
        # where the phone points: the middle of the table, so that no die leaves the picture
        chosen: list[tuple[float, float]] = []
        while len(chosen) < count:
            x, y = float(film.rng.uniform(130, film.width - 130)), float(film.rng.uniform(110, film.height - 110))
            if all(math.hypot(x - u, y - v) > 2 * film.size for u, v in chosen):
                chosen.append((x, y))
        return chosen

    def rest(frames: int, hand_over: bool = False) -> None:
        start = len(film.scenes)
        film.rest(frames)
        if hand_over:  # a hand passes over the dice in the middle third of the rest, touching none
            over = range(start + frames // 3, start + frames - frames // 3)
            for f in over:
                u = (f - over.start) / max(1, len(over) - 1)
                film.scenes[f] = replace(film.scenes[f], hand=(float(-100 + (film.width + 200) * u), film.height / 2, 1.4 * film.size))
        rests.append(Rest(start, len(film.scenes), tuple(sorted(d.value for d in film.dice))))

    film.empty(12)
    film.throw([1, 3, 5, 6], frames=18, spots=spots(4))
    rest(60)  # two seconds
    film.hop([2, 3, 4, 6])
    rest(9)  # a bounce: 0.3 s
    film.hop([2, 2, 4, 6])
    rest(HALF_SECOND)
    film.hop([1, 2, 4, 5])
    rest(45, hand_over=True)
    film.sweep(14)
    film.empty(20)
    film.throw([3, 6], frames=18, spots=spots(2))
    rest(24)
    film.hop([1, 6])
    rest(36)
    film.sweep(14)
    film.empty(20)
    film.throw([5], frames=18, spots=spots(1))
    rest(30)  # a lone die: nothing but the table tells the camera's move from its own
    film.sweep(14)
    film.empty(15)
    return rests


@functools.lru_cache(maxsize=1)
def rendered_table(seed: int) -> tuple[list[tuple[NDArray[np.uint8], Detections, NDArray[np.bool_]]], list[Rest]]:
    """The script rendered on a wooden table, as a fixed camera sees it."""
    film = Choreography(640, 480, seed=seed, table=TableLook(kind="wood", seed=seed))
    rests = _script(film)
    table = []
    for scene in film.drain():
        image, labels = render_scene(scene)
        table.append((np.asarray(image, np.uint8), labels, tumbling(scene, labels) if len(labels) else np.zeros(0, bool)))
    return table, rests


@functools.lru_cache(maxsize=1)
def photo_table(seed: int) -> tuple[list[tuple[NDArray[np.uint8], Detections, NDArray[np.bool_]]], list[Rest]]:
    """The script on byler_d6's real table: the board with the first photo's dice painted out, and
    the photos' own pictures of their dice thrown in, hopping, passed over and swept off."""
    rng = np.random.default_rng(seed)
    image, first = photo(PHOTOS[0])
    painted = np.zeros(image.shape[:2], np.uint8)
    for x0, y0, x1, y1 in first.boxes.astype(int):
        painted[max(0, y0 - 6) : y1 + 6, max(0, x0 - 6) : x1 + 6] = 255
    board = np.asarray(cv2.inpaint(image, painted, 5, cv2.INPAINT_TELEA), np.uint8)
    height, width = board.shape[:2]
    table: list[tuple[NDArray[np.uint8], Detections, NDArray[np.bool_]]] = []
    rests: list[Rest] = []
    faces: dict[int, NDArray[np.uint8]] = {}
    for stem in PHOTOS:
        picture, labels = photo(stem)
        for box, value in zip(labels.boxes.astype(int), labels.values):
            faces.setdefault(int(value), picture[box[1] : box[3], box[0] : box[2]].copy())

    def frame(places: NDArray[np.float64], values: list[int], tumbles: NDArray[np.bool_], hand: float | None = None) -> None:
        picture, boxes = board.copy(), []
        for (x, y), value, tumble in zip(places, values, tumbles):
            crop = faces[int(rng.integers(1, 7)) if tumble else value]
            h, w = crop.shape[:2]
            x0, y0 = int(round(x - w / 2)), int(round(y - h / 2))
            x0, y0 = min(max(x0, 0), width - w), min(max(y0, 0), height - h)
            picture[y0 : y0 + h, x0 : x0 + w] = crop
            boxes.append((x0, y0, x0 + w, y0 + h))
        seen = np.ones(len(boxes), bool)
        if hand is not None:
            centre = (int(-120 + (width + 240) * hand), height // 2)
            cv2.ellipse(picture, centre, (150, 95), 20, 0, 360, (125, 165, 215), -1)
            cv2.ellipse(picture, centre, (150, 95), 20, 0, 360, (90, 120, 170), 6)
            middle = np.array([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in boxes]).reshape(-1, 2)
            seen = np.hypot((middle[:, 0] - centre[0]) / 150, (middle[:, 1] - centre[1]) / 95) > 1.1
        dice = Detections(np.array(boxes, np.float32).reshape(-1, 4)[seen], np.array(values, np.int64)[seen], np.full(int(seen.sum()), 0.95, np.float32))
        table.append((picture, dice, np.asarray(tumbles, bool)[seen]))

    def move(start: NDArray[np.float64], end: NDArray[np.float64], values: list[int], frames: int) -> None:
        for t in range(frames):
            u = 1 - (1 - (t + 1) / frames) ** 2
            frame(start + (end - start) * u, values, np.full(len(values), t < frames - 1))

    def rest(places: NDArray[np.float64], values: list[int], frames: int, hand: bool = False) -> None:
        start = len(table)
        for t in range(frames):
            over = hand and frames // 3 <= t < frames - frames // 3
            frame(places, values, np.zeros(len(values), bool), (t - frames // 3) / (frames - 2 * (frames // 3) - 1) if over else None)
        rests.append(Rest(start, len(table), tuple(sorted(values))))

    def empty(frames: int) -> None:
        for _ in range(frames):
            frame(np.zeros((0, 2)), [], np.zeros(0, bool))

    empty(12)
    for stem, plan in zip(PHOTOS, ((60, 9, HALF_SECOND, 45), (24, 36))):
        labels = photo(stem)[1]
        labels = labels[np.arange(len(labels)) < 5]
        places = ((labels.boxes[:, :2] + labels.boxes[:, 2:]) / 2).astype(np.float64)
        values = [int(v) for v in labels.values]
        move(places + rng.uniform(-160, 160, places.shape) + np.array([0, 200]), places, values, 14)
        for k, frames in enumerate(plan):
            if k:
                values = [int(v) for v in rng.integers(1, 7, len(values))]
                hopped = places + rng.uniform(-35, 35, places.shape)
                move(places, hopped, values, 6)
                places = hopped
            rest(places, values, frames, hand=frames == 45)
        move(places, places - np.array([width, 0]), values, 12)
        empty(18)
    lone = np.array([[width * 0.6, height * 0.45]])  # a lone die: only the table tells the camera's move from its own
    move(lone + np.array([[-120.0, 220.0]]), lone, [3], 14)
    rest(lone, [3], 30)
    move(lone, lone - np.array([width, 0]), [3], 12)
    empty(15)
    return table, rests


SOURCES: dict[str, Callable[[], tuple[list[tuple[NDArray[np.uint8], Detections, NDArray[np.bool_]]], list[Rest]]]] = {
    "rendered": lambda: rendered_table(11),
    "real photos moved": lambda: photo_table(12),
}
"""The tables the clips are made of: rendered, and byler_d6's real photos (which need ``../shared/data``)."""

CAMERAS: dict[str, HandPath | None] = {
    "fixed camera": None,
    "handheld phone": HandPath(21, drift=1.0, shake=2.0, turn=1.5),
    "handheld phone, shakier": HandPath(22, drift=1.4, shake=3.5, turn=2.5),
}
"""The cameras each table is filmed by."""


class SpoiledReader:
    """Reads a clip's true dice as a real reader does: boxes jitter, a die is missed now and then,
    misread now and then, and read as anything while it tumbles."""

    def __init__(self, clip: HandheldClip, frame: Callable[[], int], seed: int = 0) -> None:
        self.clip = clip
        self.frame = frame
        self.rng = np.random.default_rng(seed)

    def read(self, image: NDArray[np.uint8], dice: int | None = None) -> Detections:
        """The current frame's true dice, spoiled."""
        index = self.frame()
        truth = self.clip.truth[index]
        tumbles = self.clip.moving[index] if self.clip.moving is not None else np.zeros(len(truth), bool)
        n = len(truth)
        rng = self.rng
        values = truth.values.copy()
        confidences = rng.uniform(0.8, 0.99, n)
        misread = rng.random(n) < 0.04
        values[misread] = rng.integers(1, 7, int(misread.sum()))
        confidences[misread] = rng.uniform(0.3, 0.6, int(misread.sum()))
        values[tumbles] = rng.integers(1, 7, int(tumbles.sum()))
        confidences[tumbles] = rng.uniform(0.1, 0.5, int(tumbles.sum()))
        boxes = truth.boxes + rng.normal(0, 0.8, (n, 4)).astype(np.float32)
        boxes[:, 2:] = np.maximum(boxes[:, 2:], boxes[:, :2] + 1)
        keep = rng.random(n) >= 0.04
        return Detections(boxes[keep], values[keep], confidences[keep].astype(np.float32))


def play(clip: HandheldClip, seed: int = 0) -> list[SettleEvent]:
    """The rolls the watch loop takes from ``clip`` with the default profile, its dice read by a
    :class:`SpoiledReader`."""
    source = ClipSource(clip)
    watcher = Watcher(source, None, CalibrationProfile())  # type: ignore[arg-type]
    watcher.reader = SpoiledReader(clip, lambda: watcher.latest_frame.index if watcher.latest_frame is not None else 0, seed)
    return [event for event in watcher.events() if event.kind is EventKind.SETTLED]


@dataclass(frozen=True)
class Score:
    """How the rolls taken from a clip match its rests."""

    rests: int
    """Rests of half a second or more."""
    taken: int
    """Of those, how many a roll was taken from (once)."""
    read_right: int
    """Of those taken, how many with the rest's roll."""
    spurious: int
    """Rolls taken while the dice moved (within a bounce, in flight, or a rest taken twice)."""


def score(clip: HandheldClip, events: list[SettleEvent]) -> Score:
    """Each roll taken matched to the rest it was taken in."""
    rests = [rest for rest in clip.rests or [] if rest.called]
    taken: dict[int, tuple[int, ...]] = {}
    spurious = 0
    for event in events:
        index = next((k for k, rest in enumerate(rests) if rest.start <= event.frame < rest.stop), None)
        if index is None or index in taken:
            spurious += 1
        else:
            taken[index] = tuple(event.roll())
    right = sum(1 for k, roll in taken.items() if roll == rests[k].roll)
    return Score(len(rests), len(taken), right, spurious)
