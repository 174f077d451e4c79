"""Pure-numpy pre- and post-processing around the two ONNX models (OpenCV only for resizing).

Stage 1, the finder, looks at the frame scaled down so its long side is at most
``FINDER_MAX_SIDE`` (and at most ``FINDER_SCALE`` of full size), and outputs a centre heatmap, box size and centre
offset on a grid ``STRIDE`` times coarser than its input. Stage 2, the pip reader, looks at a
square ``CROP`` x ``CROP`` crop of each found die cut from the full-resolution frame and gives
seven scores: not a die, 1, 2, ..., 6 pips.

>>> frame = np.zeros((480, 640, 3), np.uint8)
>>> tensor, scale = finder_input(frame)
>>> tensor.shape, scale
((1, 3, 368, 480), 0.75)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections, below_line

STRIDE = 4
"""Finder output cells per input pixel: one heatmap cell covers 4x4 input pixels."""
ALIGN = 16
"""The finder's input sides are padded to a multiple of this (its deepest stride)."""
FINDER_SCALE = 0.75
"""The finder looks at no more than three quarters of the frame's resolution. A webcam 80 cm above
the table sees a die about 15 px across at 640x480; at half size two such dice touching were
2 heatmap cells apart, and the finder took many packed small dice for one."""
FINDER_MAX_SIDE = 960
"""Long side of the finder's input at most; bigger frames are scaled down further."""
CROP = 32
"""Side of the pip reader's square input crop, px."""
CROP_CONTEXT = 1.25
"""Crop side as a multiple of the found box's longer side: the whole die plus a margin."""
NOT_A_DIE = 0
"""Index of the pip reader's "not a die" score; index v is v pips."""
SURE_FIND = 0.8
"""A finder peak at least this high is a find the finder is sure of: if the pip reader only doubts
it is a die (``DOUBTED``), it is kept, and asked about, rather than dropped (``dice_kept``)."""
DOUBTED = 0.7
"""The pip reader's "not a die" probability below which a sure find stays a die."""
WEAK_FIND = 0.2
"""Finder peaks from this high up to its threshold are weak finds: read too, but kept only where
the pip reader is sure of them (``dice_kept``), as a black die with dim pips on a dark table is."""
WEAK_NOT_A_DIE = 0.1
"""The pip reader's "not a die" probability below which a weak find can be a die."""
REPEAT_MARGIN = 0.1
"""A find centred inside a stronger die's box, more than this share of its side in from each edge,
is that die found again (``found_again``)."""
ONE_SIZE = (0.7, 1.4)
"""Dice on one table are one size: an unsure find whose side is under the first or over the second
share of the sure dice's median side in the same frame is a speck, a knot or a pip, not a die
(``off_size``)."""
VIEWS = 4
"""Each crop is read in its four quarter turns and the readings averaged (the averaged confidence
knows its doubts better)."""

EDGE_MARGIN = 2.0
"""A box within this many pixels of the frame edge touches it."""
CUT_SHARE = 0.8
"""A box touching one frame edge frames a die cut by it where its side across that edge is under
this share of its other side. Pips sit about a quarter of a die in from its sides, so a die cut by
less than a fifth still shows them all, and its box is still about square."""


@dataclass(frozen=True, eq=False)
class Finds:
    """Every candidate die in one frame before the decision step: the finder's boxes and scores
    and the pip reader's say on each, view by view."""

    boxes: NDArray[np.float32]
    """(n, 4) boxes x0, y0, x1, y1 in frame pixels, best-scored first."""
    scores: NDArray[np.float32]
    """(n,) the finder's peak heights."""
    probs: NDArray[np.float32]
    """(views, n, 7) the pip reader's class probabilities per view (column 0: not a die)."""
    embeddings: NDArray[np.float32]
    """(views, n, d) the pip reader's embedding per view; d is 0 for a model without one."""

    def __len__(self) -> int:
        return len(self.boxes)

    @property
    def mean_probs(self) -> NDArray[np.float32]:
        """(n, 7) the pip reader's probabilities averaged over the views: what it reads alone."""
        result: NDArray[np.float32] = self.probs.mean(0).astype(np.float32)
        return result


def finder_scale(height: int, width: int, scale: float = FINDER_SCALE, max_side: int = FINDER_MAX_SIDE) -> float:
    """The factor the frame is resized by for the finder (trained at ``scale`` and ``max_side``).

    >>> finder_scale(480, 640), finder_scale(1080, 1920), finder_scale(480, 640, 0.5, 640)
    (0.75, 0.5, 0.5)
    """
    return min(scale, max_side / max(height, width))


def finder_input(frame: NDArray[np.uint8], scale: float | None = None) -> tuple[NDArray[np.float32], float]:
    """The finder's input tensor (1, 3, H, W), BGR in 0-1, padded with zeros to multiples of
    ``ALIGN``, and the scale used."""
    h, w = frame.shape[:2]
    s = finder_scale(h, w) if scale is None else scale
    sw, sh = max(1, round(w * s)), max(1, round(h * s))
    small = cv2.resize(frame, (sw, sh), interpolation=cv2.INTER_AREA)
    ph, pw = math.ceil(sh / ALIGN) * ALIGN, math.ceil(sw / ALIGN) * ALIGN
    tensor = np.zeros((1, 3, ph, pw), np.float32)
    # Plane by plane: transposing the interleaved image took twice as long (1.0 against 0.56 ms at
    # 960x540), a twentieth of a 1280x720 read.
    for channel, plane in enumerate(cv2.split(small)):
        tensor[0, channel, :sh, :sw] = plane
    tensor *= np.float32(1 / 255)
    return tensor, s


def _peaks(heat: NDArray[np.float32], threshold: float) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
    """Rows and columns of the cells at or above ``threshold`` that are the maximum of their 3x3
    neighbourhood (only those few cells are compared: comparing the whole map took twice as long)."""
    ys, xs = np.nonzero(heat >= threshold)
    padded = np.pad(heat, 1, mode="constant", constant_values=-1.0)
    peak = np.ones(len(ys), np.bool_)
    for dy in (0, 1, 2):
        for dx in (0, 1, 2):
            peak &= heat[ys, xs] >= padded[ys + dy, xs + dx]
    return ys[peak], xs[peak]


def decode_finder(
    output: NDArray[np.float32], scale: float, frame_hw: tuple[int, int], threshold: float
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Boxes (n, 4) in frame pixels and their scores from the finder's (1, 5, h, w) output:
    heatmap (already sigmoid), log of box width and height in cells, centre offset in cells.

    >>> out = np.zeros((1, 5, 8, 8), np.float32)
    >>> out[0, 0, 3, 4] = 0.9
    >>> out[0, 1:3, 3, 4] = np.log(2.0)
    >>> boxes, scores = decode_finder(out, 0.5, (64, 64), 0.3)
    >>> boxes.tolist(), scores.astype(float).round(2).tolist()
    ([[28.0, 20.0, 44.0, 36.0]], [0.9])
    """
    heat = output[0, 0]
    ys, xs = _peaks(heat, threshold)
    scores = heat[ys, xs].astype(np.float32)
    cx = (xs + 0.5 + output[0, 3, ys, xs]) * STRIDE / scale
    cy = (ys + 0.5 + output[0, 4, ys, xs]) * STRIDE / scale
    bw = np.exp(np.clip(output[0, 1, ys, xs], -3, 5)) * STRIDE / scale
    bh = np.exp(np.clip(output[0, 2, ys, xs], -3, 5)) * STRIDE / scale
    fh, fw = frame_hw
    boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], 1).astype(np.float32).reshape(-1, 4)
    boxes[:, [0, 2]] = boxes[:, [0, 2]].clip(0, fw)
    boxes[:, [1, 3]] = boxes[:, [1, 3]].clip(0, fh)
    order = np.argsort(-scores, kind="stable")
    return boxes[order], scores[order]


def cut_by_edge(boxes: NDArray[np.float32], width: int, height: int) -> NDArray[np.bool_]:
    """Boxes of dice cut by the frame edge, whose pips may be cut off: boxes reaching past an edge,
    touching a corner (two edges), or touching one edge and narrower across it than ``CUT_SHARE``
    of their other side. A whole die lying against the edge is read like any other.

    >>> boxes = np.array([[0, 10, 12, 40], [0, 10, 28, 40], [50, 50, 60, 80], [80, 0, 100, 15], [90, 50, 120, 80]], np.float32)
    >>> cut_by_edge(boxes, 100, 100).tolist()
    [True, False, False, True, True]
    """
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    m = EDGE_MARGIN
    x0, y0, x1, y1 = boxes.T
    w, h = x1 - x0, y1 - y0
    past = (x0 < -m) | (y0 < -m) | (x1 > width + m) | (y1 > height + m)
    left_right = (x0 <= m) | (x1 >= width - m)
    top_bottom = (y0 <= m) | (y1 >= height - m)
    return np.asarray(past | (left_right & top_bottom) | (left_right & (w < CUT_SHARE * h)) | (top_bottom & (h < CUT_SHARE * w)))


def box_iou(a: NDArray[np.float32], b: NDArray[np.float32]) -> NDArray[np.float32]:
    """(len(a), len(b)) intersection over union of two sets of x0, y0, x1, y1 boxes.

    >>> box_iou(np.array([[0, 0, 10, 10]], np.float32), np.array([[5, 0, 15, 10]], np.float32)).astype(float).round(3).tolist()
    [[0.333]]
    """
    a = np.asarray(a, np.float32).reshape(-1, 4)
    b = np.asarray(b, np.float32).reshape(-1, 4)
    x0 = np.maximum(a[:, None, 0], b[None, :, 0])
    y0 = np.maximum(a[:, None, 1], b[None, :, 1])
    x1 = np.minimum(a[:, None, 2], b[None, :, 2])
    y1 = np.minimum(a[:, None, 3], b[None, :, 3])
    inter = (x1 - x0).clip(0) * (y1 - y0).clip(0)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    result: NDArray[np.float32] = (inter / np.maximum(union, 1e-6)).astype(np.float32)
    return result


def suppress_overlaps(boxes: NDArray[np.float32], scores: NDArray[np.float32], iou: float = 0.5) -> NDArray[np.int64]:
    """Indices of the boxes kept by greedy non-maximum suppression, best first.

    >>> suppress_overlaps(np.array([[0, 0, 10, 10], [1, 1, 10, 10], [20, 20, 30, 30]], np.float32),
    ...                   np.array([0.9, 0.8, 0.7], np.float32)).tolist()
    [0, 2]
    """
    order = np.argsort(-scores, kind="stable")
    keep: list[int] = []
    overlaps = box_iou(boxes, boxes)
    suppressed = np.zeros(len(boxes), bool)
    for i in order:
        if suppressed[i]:
            continue
        keep.append(int(i))
        suppressed |= overlaps[i] > iou
    return np.array(keep, np.int64)


def crop_boxes(
    frame: NDArray[np.uint8], boxes: NDArray[np.float32], context: float = CROP_CONTEXT, angles: NDArray[np.float32] | None = None
) -> NDArray[np.uint8]:
    """(n, CROP, CROP, 3) square crops centred on each box, ``context`` times its longer side,
    cut from the full-resolution frame (the outside of the frame reads as black). ``angles``
    (degrees, counter-clockwise, one per box) turn each crop about its centre; training uses them.

    >>> frame = np.full((100, 100, 3), 200, np.uint8)
    >>> crop_boxes(frame, np.array([[40, 40, 60, 60]], np.float32)).shape
    (1, 32, 32, 3)
    """
    crops = np.zeros((len(boxes), CROP, CROP, 3), np.uint8)
    turns = np.zeros(len(boxes), np.float32) if angles is None else np.asarray(angles, np.float32).reshape(len(boxes))
    for i, (x0, y0, x1, y1) in enumerate(np.asarray(boxes, np.float32).reshape(-1, 4)):
        side = max(x1 - x0, y1 - y0, 2.0) * context
        s = CROP / side
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        # Area-average when shrinking a lot, so pips do not alias away.
        src, k, ox, oy = frame, 1, 0, 0
        if s < 0.5:
            k = int(1 / s)
            # a turned crop's corners reach out to side / sqrt(2) from the centre
            ox, oy = max(0, int(cx - side)), max(0, int(cy - side))
            bx1, by1 = min(frame.shape[1], int(cx + side) + 1), min(frame.shape[0], int(cy + side) + 1)
            if bx1 <= ox or by1 <= oy:
                continue
            src = np.asarray(cv2.resize(frame[oy:by1, ox:bx1], None, fx=1 / k, fy=1 / k, interpolation=cv2.INTER_AREA), np.uint8)
        # crop = R(angle) * s * (frame - centre) + CROP / 2, in the (maybe shrunk) source's pixels
        theta = math.radians(float(turns[i]))
        a, b = s * k * math.cos(theta), s * k * math.sin(theta)
        sx, sy = (cx - ox) / k, (cy - oy) / k
        m = np.array([[a, b, CROP / 2 - a * sx - b * sy], [-b, a, CROP / 2 + b * sx - a * sy]], np.float32)
        crops[i] = cv2.warpAffine(src, m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    return crops


def reader_input(crops: NDArray[np.uint8]) -> NDArray[np.float32]:
    """The pip reader's input (n, 3, CROP, CROP), BGR in 0-1."""
    result: NDArray[np.float32] = np.ascontiguousarray(crops.transpose(0, 3, 1, 2), dtype=np.float32) * np.float32(1 / 255)
    return result


def dihedral_views(batch: NDArray[np.float32], views: int = VIEWS) -> NDArray[np.float32]:
    """The first ``views`` of the eight turns and mirror images of each crop, view by view:
    (views * n, 3, h, w). A die reads the same every way up, so the pip reader's mean over them is
    steadier than any one reading.

    >>> views = dihedral_views(np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2), 8)
    >>> views.shape, views[1, 0].tolist()
    ((8, 1, 2, 2), [[1.0, 3.0], [0.0, 2.0]])
    """
    if not 1 <= views <= 8:
        raise ValueError(f"views must be 1 to 8, got {views}")
    out = []
    for k in range(views):
        turned = np.rot90(batch, k % 4, axes=(2, 3))
        out.append(turned[..., ::-1] if k >= 4 else turned)
    result: NDArray[np.float32] = np.ascontiguousarray(np.concatenate(out))
    return result


def pips_input(frame: NDArray[np.uint8], boxes: NDArray[np.float32]) -> NDArray[np.float32]:
    """The pip reader's batch for the found ``boxes`` of one frame: each die's crop in its
    ``VIEWS`` quarter turns, view by view ((VIEWS * n, 3, CROP, CROP); ``mean_over_views`` undoes it).

    >>> pips_input(np.zeros((100, 100, 3), np.uint8), np.array([[40, 40, 60, 60]], np.float32)).shape
    (4, 3, 32, 32)
    """
    return dihedral_views(reader_input(crop_boxes(frame, boxes)), VIEWS)

def mean_over_views(probs: NDArray[np.float32], views: int) -> NDArray[np.float32]:
    """(views * n, k) probabilities from ``dihedral_views`` back to (n, k), averaged per crop.

    >>> mean_over_views(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32), 2).tolist()
    [[0.5, 0.5]]
    """
    result: NDArray[np.float32] = probs.reshape(views, -1, probs.shape[1]).mean(0).astype(np.float32)
    return result


def softmax(logits: NDArray[np.float32]) -> NDArray[np.float32]:
    """Row-wise softmax.

    >>> softmax(np.array([[0.0, 0.0]], np.float32)).tolist()
    [[0.5, 0.5]]
    """
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    result: NDArray[np.float32] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return result


def dice_kept(
    scores: NDArray[np.float32], not_a_die: NDArray[np.float32], confidences: NDArray[np.float32], threshold: float, unsure_below: float
) -> NDArray[np.bool_]:
    """Which finds are dice. Of those at or over the finder's ``threshold``: those the pip reader
    takes for a die (P(not a die) < 0.5), and those the finder is sure of (score >= ``SURE_FIND``)
    that the reader only doubts (< ``DOUBTED``). A die kept on doubt reads at most 50% on its value,
    far under the unsure line: the window asks about it instead of dropping a die the players can
    see (a dark die on dark felt, read "not a die" at 53%, was the miss in one sample scene).
    Of the weak finds under the threshold, only those the reader would score without asking:
    "not a die" under ``WEAK_NOT_A_DIE`` and the value's ``confidences`` at least ``unsure_below``.

    >>> scores = np.array([0.3, 0.9, 0.9, 0.5, 0.2, 0.2], np.float32)
    >>> not_a_die = np.array([0.2, 0.6, 0.8, 0.6, 0.05, 0.05], np.float32)
    >>> confidences = np.array([0.8, 0.3, 0.2, 0.4, 0.9, 0.8], np.float32)
    >>> dice_kept(scores, not_a_die, confidences, threshold=0.3, unsure_below=0.85).tolist()
    [True, True, False, False, True, False]
    """
    strong = (not_a_die < 0.5) | ((scores >= SURE_FIND) & (not_a_die < DOUBTED))
    weak = (not_a_die < WEAK_NOT_A_DIE) & (confidences >= unsure_below)
    result: NDArray[np.bool_] = np.where(scores >= threshold, strong, weak)
    return result


def found_again(boxes: NDArray[np.float32], scores: NDArray[np.float32], kept: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which kept finds are a die already found: centred well inside (``REPEAT_MARGIN``) the box of
    a stronger find that is kept and not itself found again. Top faces do not overlap, so such a
    find is the stronger die's side face, glare, or the whole die around its top face: one die is
    one find, however sure the second is (a 6 boxed twice across its side face made a sample
    scene's seven dice eight; told the count, a sure second box pushed a real die out).

    >>> boxes = np.array([[0, 0, 20, 20], [6, 4, 26, 24], [22, 0, 42, 20]], np.float32)
    >>> scores = np.array([0.8, 0.4, 0.7], np.float32)
    >>> found_again(boxes, scores, np.ones(3, bool)).tolist()
    [False, True, False]
    """
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    mx, my = (boxes[:, 2] - boxes[:, 0]) * REPEAT_MARGIN, (boxes[:, 3] - boxes[:, 1]) * REPEAT_MARGIN
    # inside[j, i]: find j's centre is in the middle of find i's box
    inside = (
        (boxes[:, 0] + mx <= cx[:, None]) & (cx[:, None] <= boxes[:, 2] - mx) & (boxes[:, 1] + my <= cy[:, None]) & (cy[:, None] <= boxes[:, 3] - my)
    )
    again = np.zeros(len(boxes), bool)
    for j in np.argsort(-scores, kind="stable"):
        if kept[j]:
            again[j] = bool(np.any(inside[j] & kept & ~again & (scores > scores[j])))
    return again


def likeliest_dice(likelihood: NDArray[np.float32], candidates: NDArray[np.bool_], count: int) -> NDArray[np.bool_]:
    """Which ``count`` (0 or more) of the ``candidates`` are likeliest to be dice, when the table
    is known to hold that many: ranked by ``likelihood``, the finder's score times the pip reader's
    P(die). A find the blind reader dropped can be picked to make up the count; it then reads
    unsure, and the window asks.

    >>> likelihood = np.array([0.9, 0.4, 0.95, 0.6], np.float32) * (1 - np.array([0.05, 0.9, 0.1, 0.2], np.float32))
    >>> likeliest_dice(likelihood, np.ones(4, bool), 2).tolist()
    [True, False, True, False]
    >>> likeliest_dice(likelihood, np.array([True, True, False, True]), 5).tolist()
    [True, True, False, True]
    """
    ranked = np.where(candidates, likelihood, -1.0)
    order = np.argsort(-ranked, kind="stable")[: min(count, int(candidates.sum()))]
    picked = np.zeros(len(likelihood), bool)
    picked[order] = True
    return picked


def off_size(boxes: NDArray[np.float32], kept: NDArray[np.bool_], sure: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """Which kept finds, unsure ones, are far smaller or larger (``ONE_SIZE``) than the median of
    the kept sure dice in the same frame. With no sure die there is no size to go by: none.

    >>> boxes = np.array([[0, 0, 40, 40], [50, 0, 90, 40], [100, 0, 112, 12], [0, 50, 38, 88]], np.float32)
    >>> off_size(boxes, np.ones(4, bool), np.array([True, True, False, False])).tolist()
    [False, False, True, False]
    """
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    side = np.sqrt((boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]))
    reference = kept & sure
    if not reference.any():
        return np.zeros(len(boxes), bool)
    typical = float(np.median(side[reference]))
    result: NDArray[np.bool_] = kept & ~sure & ((side < ONE_SIZE[0] * typical) | (side > ONE_SIZE[1] * typical))
    return result


def read_finds(
    boxes: NDArray[np.float32],
    scores: NDArray[np.float32],
    probs: NDArray[np.float32],
    threshold: float,
    unsure_below: float,
    dice: int | None = None,
    ceilings: NDArray[np.float32] | None = None,
) -> Detections:
    """The dice among the finder's finds (``boxes``, ``scores``), given the pip reader's class
    probabilities averaged over the views (``probs``, column 0 "not a die"): those ``dice_kept``,
    less repeats (``found_again``) and specks (``off_size``). Given ``dice``, the number of dice on
    the table, the ``likeliest_dice`` of the finds that are not repeats or specks instead, and the
    other finds kept blind reported as dropped. A kept die then reads only as sure as it is likelier
    a die than the likeliest dropped one (its confidence times ``l / (l + l_dropped)``, with ``l``
    the finder's score times P(die)): where a dropped find is nearly as likely a die, the players
    are asked rather than the count trusted (a board game's round number tokens, read "1", had
    outranked two small real dice). ``ceilings`` (n,), where given, caps each find's confidence in
    its value (a table's head holding a die back: ``table_head.read_with_head``).

    >>> boxes = np.array([[0, 0, 40, 40], [50, 0, 90, 40], [100, 0, 110, 10]], np.float32)
    >>> probs = np.array([[0.0, 0.95, 0, 0, 0, 0.05, 0], [0.1, 0, 0, 0, 0, 0.9, 0], [0.3, 0.6, 0, 0, 0, 0.1, 0]], np.float32)
    >>> found = read_finds(boxes, np.array([0.9, 0.9, 0.9], np.float32), probs, 0.3, 0.85)
    >>> found.values.tolist(), found.unsure.tolist()
    ([1, 5], [False, False])
    >>> read_finds(boxes, np.array([0.9, 0.9, 0.9], np.float32), probs, 0.3, 0.85, dice=1).dropped.tolist()
    [[50.0, 0.0, 90.0, 40.0]]
    """
    if dice is not None and dice < 0:
        raise ValueError(f"the number of dice on the table must be 0 or more, got {dice}")
    if not len(boxes):
        return Detections(np.zeros((0, 4), np.float32), np.zeros(0, np.int64), np.zeros(0, np.float32), unsure_below)
    values = probs[:, 1:].argmax(1) + 1
    confidences = probs[np.arange(len(values)), values]
    if ceilings is not None:
        confidences = np.minimum(confidences, ceilings)
    unsure = below_line(confidences, unsure_below)
    is_die = dice_kept(scores, probs[:, NOT_A_DIE], confidences, threshold, unsure_below)
    not_dice = found_again(boxes, scores, is_die)
    not_dice |= off_size(boxes, is_die & ~not_dice, ~unsure)
    is_die &= ~not_dice
    dropped = np.zeros((0, 4), np.float32)
    if dice is not None:
        likelihood = scores * (1 - probs[:, NOT_A_DIE])
        picked = likeliest_dice(likelihood, ~not_dice, dice)
        rivals = is_die & ~picked
        dropped = boxes[rivals]
        if rivals.any():
            confidences = confidences * likelihood / (likelihood + likelihood[rivals].max())
        is_die = picked
    return Detections(boxes[is_die], values[is_die], confidences[is_die], unsure_below, dropped)
