"""Training data: rendered scenes and real labelled photos, turned into finder images with boxes and
pip-reader crops with classes. No torch here: this runs in worker processes."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.corrections import CorrectionsError, load_corrections
from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import CROP, CROP_CONTEXT, box_iou, crop_boxes, finder_scale
from scorekeeper.synthetic.render import render_with_visibility
from scorekeeper.synthetic.scene import random_scene

SYNTH_SIZES = ((640, 480), (640, 480), (640, 480), (800, 600), (1280, 720))
"""Frame sizes rendered, drawn uniformly (webcams are mostly 640x480)."""

UPRIGHT_TILT = 10.0
"""Camera tilt, degrees, from which the point under the camera lies in the frame's lower part or
below it: a die's side faces then show below its top face (but for dice near that point, whose
side faces hardly show), as in any upright webcam's picture of the table."""


@dataclass
class Samples:
    """Finder images with their boxes, and pip-reader crops with their classes (0 = not a die)."""

    images: list[NDArray[np.uint8]] = field(default_factory=list)
    """Frames at the finder's scale."""
    boxes: list[NDArray[np.float32]] = field(default_factory=list)
    """Per frame (n, 4) dice boxes at the finder's scale."""
    ignore: list[NDArray[np.float32]] = field(default_factory=list)
    """Per frame (m, 4) boxes of dice too hidden to demand either way."""
    crops: list[NDArray[np.uint8]] = field(default_factory=list)
    """(k, CROP, CROP, 3) crop batches."""
    classes: list[NDArray[np.int64]] = field(default_factory=list)
    """(k,) class per crop."""
    real: list[bool] = field(default_factory=list)
    """Per frame: a real photo (True) or rendered."""
    upright: list[bool] = field(default_factory=list)
    """Per frame: a tilted view whose up and down must be kept (mirrored, never turned), so the
    finder learns that the face above another of the same die is its top face."""
    photos: list[tuple[NDArray[np.uint8], Detections]] = field(default_factory=list)
    """Real photos at full resolution with their labels: the pip reader's batches cut fresh
    crops of their dice (``fresh_photo_crops``)."""

    def extend(self, other: Samples) -> None:
        self.images += other.images
        self.boxes += other.boxes
        self.ignore += other.ignore
        self.crops += other.crops
        self.classes += other.classes
        self.real += other.real
        self.upright += other.upright
        self.photos += other.photos


JITTER_SHIFT = 0.07
"""Spread of a jittered box's centre, as a share of its longer side (a normal's sigma)."""
JITTER_SCALE = 0.1
"""Spread of a jittered box's log size."""


def jitter_boxes(boxes: NDArray[np.float32], rng: np.random.Generator) -> NDArray[np.float32]:
    """Boxes moved and resized a little, as the finder's boxes will be."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    n = len(boxes)
    return moved_boxes(boxes, rng.normal(0, JITTER_SHIFT, n), rng.normal(0, JITTER_SHIFT, n), rng.normal(0, JITTER_SCALE, n))


def moved_boxes(boxes: NDArray[np.float32], dx: NDArray[np.float64], dy: NDArray[np.float64], log_scale: NDArray[np.float64]) -> NDArray[np.float32]:
    """``boxes`` moved by ``dx`` and ``dy`` of their longer side and scaled by ``exp(log_scale)``."""
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
    side = np.maximum(w, h)
    cx = cx + dx * side
    cy = cy + dy * side
    f = np.exp(log_scale)
    w, h = w * f, h * f
    return np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1).astype(np.float32)


SMALL_SHARE = 0.35
"""Share of the fresh photo crops brought down to a webcam's small die and back up."""
SMALL_SIDES = (14.0, 26.0)
"""Die sizes, px across, that those crops are brought down to."""


def fresh_photo_crops(
    photos: list[tuple[NDArray[np.uint8], Detections]], count: int, rng: np.random.Generator, small_share: float = SMALL_SHARE
) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """``count`` crops of dice drawn at random from labelled photos, with their values, each cut
    afresh: box jittered as the finder's are, turned by any angle (and the crop widened by up to the
    turned box's reach, as a finder's box round a die lying askew would be), and ``small_share``
    of them brought down to the resolution of a die ``SMALL_SIDES`` px across, then back up, as the reader
    sees a webcam's small dice. Two hundred photos cut once would be a few thousand crops to learn
    by heart; the test photos' dice lie at angles and sizes the training photos' may not.

    >>> frame = np.zeros((120, 120, 3), np.uint8)
    >>> labels = Detections(np.array([[40, 40, 80, 80]], np.float32), np.array([4]), np.ones(1, np.float32))
    >>> crops, values = fresh_photo_crops([(frame, labels)], 3, np.random.default_rng(0))
    >>> crops.shape, values.tolist()
    ((3, 32, 32, 3), [4, 4, 4])
    """
    per_photo = np.array([len(labels) for _, labels in photos], np.int64)
    if not per_photo.sum() or count <= 0:
        return np.zeros((0, CROP, CROP, 3), np.uint8), np.zeros(0, np.int64)
    crops = np.zeros((count, CROP, CROP, 3), np.uint8)
    values = np.zeros(count, np.int64)
    # the dice numbered photo by photo: a pick's photo is the first whose running count passes it
    ends = np.cumsum(per_photo)
    picks = rng.integers(0, int(ends[-1]), count)
    which = np.searchsorted(ends, picks, side="right")
    die = picks - (ends - per_photo)[which]
    angles = rng.uniform(-45, 45, count).astype(np.float32)
    widen = 1 + rng.random(count) * (np.abs(np.cos(np.radians(angles))) + np.abs(np.sin(np.radians(angles))) - 1)
    small = rng.random(count) < small_share
    sizes = np.round(rng.uniform(*SMALL_SIDES, count) * CROP_CONTEXT).astype(int)
    # each die's three draws in turn, as ``jitter_boxes`` die by die makes them
    moves = rng.standard_normal((count, 3))
    boxes = np.stack([photos[p][1].boxes[d] for p, d in zip(which, die)]).astype(np.float32)
    boxes = moved_boxes(boxes, JITTER_SHIFT * moves[:, 0], JITTER_SHIFT * moves[:, 1], JITTER_SCALE * moves[:, 2])
    for i, (p, d) in enumerate(zip(which, die)):
        frame, labels = photos[p]
        crop = crop_boxes(frame, boxes[i : i + 1], CROP_CONTEXT * widen[i], angles[i : i + 1])[0]
        if small[i]:
            low = cv2.resize(crop, (sizes[i], sizes[i]), interpolation=cv2.INTER_AREA)
            crop = cv2.resize(low, (CROP, CROP), interpolation=cv2.INTER_LINEAR)
        crops[i] = crop
        values[i] = labels.values[d]
    return crops, values


CORRECTION_CROPS = 12
"""Crops cut once from each die a player corrected (each photo die gets as many: ``photo_repeat``
times two); a "not a die" correction gets four times as many, having no fresh crops in the batches."""


def corrected_die_samples(picture: NDArray[np.uint8], box: tuple[float, float, float, float], value: int | None, seed: int) -> Samples:
    """Pip-reader samples from one die a player corrected: crops at jittered boxes (class 0 for
    "not a die"), and for a die its picture, for fresh crops in every batch (``fresh_photo_crops``).
    The picture is widened by repeating its edges: it holds the die with a quarter of a margin, and
    a turned, widened crop reaches further.

    >>> out = corrected_die_samples(np.zeros((30, 30, 3), np.uint8), (5, 5, 25, 25), 4, seed=0)
    >>> len(out.photos), out.photos[0][1].boxes.tolist(), out.classes[0][:3].tolist()
    (1, [[25.0, 25.0, 45.0, 45.0]], [4, 4, 4])
    """
    rng = np.random.default_rng(seed)
    pad = int(math.ceil(max(box[2] - box[0], box[3] - box[1])))
    frame = np.asarray(cv2.copyMakeBorder(picture, pad, pad, pad, pad, cv2.BORDER_REPLICATE), np.uint8)
    where = np.array([box], np.float32) + pad
    count = CORRECTION_CROPS * (1 if value is not None else 4)
    out = Samples()
    out.crops.append(crop_boxes(frame, jitter_boxes(np.repeat(where, count, 0), rng)))
    out.classes.append(np.full(count, value or 0, np.int64))
    if value is not None:
        out.photos.append((frame, Detections(where, np.array([value]), np.ones(1, np.float32))))
    return out


def corrections_samples(folder: Path, seed: int, report: Callable[[str], None]) -> Samples:
    """Pip-reader samples from the dice players corrected, kept in a corrections folder by the
    window. Lines and pictures that cannot be used are reported and skipped."""
    found = load_corrections(folder)
    for problem in found.problems:
        report(problem)
    out = Samples()
    values = []
    for n, correction in enumerate(found.corrections):
        try:
            picture = correction.load()
        except CorrectionsError as exc:
            report(f"{exc}; skipped")
            continue
        out.extend(corrected_die_samples(picture, correction.box, correction.value, seed=seed + 15_485_863 * (n + 1)))
        values.append(correction.value)
    dice = sum(v is not None for v in values)
    skipped = len(found.corrections) - len(values) + len(found.problems)
    report(f"{folder}: {len(values)} corrections used ({dice} dice, {len(values) - dice} not dice), {found.withdrawn} taken back in the game, {skipped} skipped")
    return out


def off_every_face(boxes: NDArray[np.float32], labels: NDArray[np.float32]) -> NDArray[np.bool_]:
    """Which boxes have their centre outside every labelled die: a crop there shows the strip
    between touching dice, half a die or the table, never a die to read, however much it overlaps
    one.

    >>> off_every_face(np.array([[0, 0, 10, 10], [8, 0, 18, 10]], np.float32), np.array([[0, 0, 10, 10]], np.float32)).tolist()
    [False, True]
    """
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    labels = np.asarray(labels, np.float32).reshape(-1, 4)
    cx, cy = ((boxes[:, 0] + boxes[:, 2]) / 2)[:, None], ((boxes[:, 1] + boxes[:, 3]) / 2)[:, None]
    inside = (labels[:, 0] <= cx) & (cx <= labels[:, 2]) & (labels[:, 1] <= cy) & (cy <= labels[:, 3])
    result: NDArray[np.bool_] = ~np.any(inside, axis=1)
    return result


def negative_boxes(labels: NDArray[np.float32], hw: tuple[int, int], rng: np.random.Generator, count: int) -> NDArray[np.float32]:
    """Boxes the size of the dice that frame none of them: table, clutter, hands, and next to a die
    its side face, half of it or the gap between touching dice. A box overlapping a die by less than
    IoU 0.5 counts when its centre is off every labelled die: those are the half dice and gaps the
    finder proposes between touching dice, and the pip reader must learn to refuse them."""
    h, w = hw
    sides = (labels[:, 2:] - labels[:, :2]).max(1) if len(labels) else np.array([40.0])
    out: list[NDArray[np.float32]] = []
    for _ in range(count * 6):
        if len(out) >= count:
            break
        side = float(rng.choice(sides)) * math.exp(rng.normal(0, 0.3))
        if len(labels) and rng.random() < 0.5:
            anchor = labels[rng.integers(len(labels))]
            cx = (anchor[0] + anchor[2]) / 2 + rng.choice([-1, 1]) * rng.uniform(0.5, 0.9) * side
            cy = (anchor[1] + anchor[3]) / 2 + rng.uniform(-0.5, 0.5) * side
            if rng.random() < 0.5:
                cx, cy = cy - (anchor[1] + anchor[3]) / 2 + (anchor[0] + anchor[2]) / 2, cx - (anchor[0] + anchor[2]) / 2 + (anchor[1] + anchor[3]) / 2
        else:
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        box = np.array([[cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2]], np.float32)
        if len(labels) and (box_iou(box, labels).max() >= 0.5 or not off_every_face(box, labels)[0]):
            continue
        out.append(box[0])
    return np.array(out, np.float32).reshape(-1, 4)


def frame_samples(
    frame: NDArray[np.uint8],
    labels: Detections,
    usable: NDArray[np.bool_],
    rng: np.random.Generator,
    crops_per_die: int,
    negatives: int,
    upright: bool = False,
) -> Samples:
    """One frame's finder sample (scaled down as the reader does) and its crops.

    ``usable`` marks the dice that are clearly visible and at rest; the others are neither
    demanded of the finder nor shown to the pip reader.
    """
    h, w = frame.shape[:2]
    s = finder_scale(h, w)
    small = np.asarray(cv2.resize(frame, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA), np.uint8)
    out = Samples()
    out.images.append(small)
    out.real.append(False)
    out.upright.append(upright)
    out.boxes.append(labels.boxes[usable] * s)
    out.ignore.append(labels.boxes[~usable] * s)
    good = labels.boxes[usable]
    if len(good) and crops_per_die:
        boxes = np.concatenate([jitter_boxes(good, rng) for _ in range(crops_per_die)])
        out.crops.append(crop_boxes(frame, boxes))
        out.classes.append(np.tile(labels.values[usable], crops_per_die))
    neg = negative_boxes(labels.boxes, (h, w), rng, negatives)
    if len(neg):
        out.crops.append(crop_boxes(frame, neg))
        out.classes.append(np.zeros(len(neg), np.int64))
    return out


def synthetic_samples(seed: int) -> Samples:
    """One rendered scene's samples (a worker's unit of work)."""
    rng = np.random.default_rng(seed)
    width, height = SYNTH_SIZES[int(rng.integers(len(SYNTH_SIZES)))]
    scene = random_scene(rng, width, height)
    frame, labels, visible, index = render_with_visibility(scene, whole_die=True)
    moving = np.array([scene.dice[i].moving for i in index], bool)
    usable = (visible > 0.6) & ~moving
    return frame_samples(frame, labels, usable, rng, crops_per_die=2, negatives=3, upright=scene.tilt >= UPRIGHT_TILT)


def photo_samples(frame: NDArray[np.uint8], labels: Detections, seed: int, crops_per_die: int = 12) -> Samples:
    """Samples from one real labelled photo (all its dice are usable)."""
    rng = np.random.default_rng(seed)
    out = frame_samples(frame, labels, np.ones(len(labels), bool), rng, crops_per_die=crops_per_die, negatives=16)
    out.real = [True]
    return out


def photo_repeats(task: tuple[LabelledImage, int], seed: int, repeat: int) -> tuple[NDArray[np.uint8], Samples]:
    """A real photo (the ``n``-th of its folder) loaded and cut ``repeat`` times, each with fresh
    jitter (a worker's unit of work): the frame once for the finder, which augments it itself,
    and every cut's pip-reader crops."""
    item, n = task
    frame = item.load()
    out = Samples()
    for r in range(repeat):
        part = photo_samples(frame, item.labels, seed=seed + 7919 * n + r, crops_per_die=2)
        if r == 0:
            out.extend(part)
        else:
            out.crops += part.crops
            out.classes += part.classes
    return frame, out
