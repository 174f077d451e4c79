"""The camera's own motion between frames read: how far a hand-held, shaken or bumped camera moved the
picture (told by the table's texture, else by the dice found moving alike), and how much each block of
the picture changed once that move is taken out.

:class:`CameraMotion` keeps what it needs of the last frame read; the watch loop asks it once per frame.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections

CAMERA_MOVED = 1.0
"""Shift, px from one frame to the next, from which the camera counts as moved (hand-held, knocked)."""

DRIFTED = 0.25
"""Shift, px from one frame to the next, from which the table's texture tells a drift: a hand holds
a phone still to a fraction of a pixel a frame and no better; less is the estimate's own noise."""

TEXTURED = 0.3
"""Phase-correlation peak from which the table shows its own shift (a carpet, wood grain, a
cloth's weave); plain felt gives less and tells nothing."""

MAX_SHAKE = 12.0
"""Largest shift, px from one frame to the next, taken for the camera's: a hand shakes a camera
by a few px a frame; more is a hand or dice sweeping across, or a cut."""

CORNERS = 120
"""Corners of the table's texture followed from frame to frame to tell the camera's turn and zoom."""

FOLLOWED = 24
"""Corners that must agree on one turn, zoom and shift for it to be the camera's: fewer is a plain
table, or a hand sweeping across."""

AGREE = 2.0
"""Dice moving alike within this many px of each other: the camera moved, not the dice."""


class CameraMotion:
    """How far the camera moved the picture from one frame read to the next."""

    def __init__(self) -> None:
        self._last_centres: NDArray[np.float64] = np.zeros((0, 2))
        self._last_boxes: NDArray[np.float32] = np.zeros((0, 4), np.float32)
        self._hanning: NDArray[np.float32] | None = None
        self.last_gray: NDArray[np.float32] | None = None
        """The last frame read, half-size grey with the dice found blotted out (None before the first)."""
        self.table_shifted = False
        """Whether the table's texture showed the picture moved, at least ``CAMERA_MOVED`` px, in the last frame read."""
        self.table_drifted = False
        """Whether the table's texture told the picture's move in the last frame read, at least ``DRIFTED`` px."""
        self.shift: NDArray[np.float64] = np.zeros(2)
        """How far the camera moved the picture between the last two frames read, px (x, y)."""
        self.move: NDArray[np.float64] = np.eye(2, 3)
        """The camera's move between the last two frames read, turn and zoom too: the 2x3 affine
        map from a point of the table in the last picture to the same point in this one."""
        self._table_move: NDArray[np.float64] | None = None
        self._last_table: NDArray[np.uint8] | None = None

    @property
    def moved(self) -> bool:
        """Whether the camera moved the picture between the last two frames read (by ``CAMERA_MOVED``,
        or by ``DRIFTED`` where the table's texture tells): its move was taken out of the change."""
        return bool(np.hypot(*self.shift) > 0)

    def block_change(
        self, image: NDArray[np.uint8], thumb: NDArray[np.uint8], last: NDArray[np.uint8] | None, found: Detections
    ) -> NDArray[np.float32] | None:
        """How much each 8x8 block of the picture changed from the last frame's thumbnail ``last`` to
        this one's ``thumb``, grey levels; None at the start (no ``last``). Measures the camera's move
        first (``shift``).

        Brightness is matched first, so an exposure or white-balance jump is no change. When the
        camera moved, the last picture is moved with it first, and a block changes only where it
        differs from all the blocks around it (a camera turns and tilts a little too)."""
        shift = self._measure(image, found)
        missed, self._last_boxes = self._last_boxes, found.boxes.astype(np.float32)
        self.shift = np.zeros(2)
        self.move = np.eye(2, 3)
        if self._table_move is not None:
            self.move = self._table_move
        elif bool(np.hypot(*shift) >= CAMERA_MOVED):
            self.move = np.array([[1.0, 0.0, shift[0]], [0.0, 1.0, shift[1]]])
        if last is None:
            return None
        now = thumb.astype(np.float32)
        before = last.astype(np.float32) * (float(thumb.mean()) / max(float(last.mean()), 1.0))
        drifted = self.table_drifted and bool(np.hypot(*shift) >= DRIFTED)
        if not (drifted or bool(np.hypot(*shift) >= CAMERA_MOVED)):
            return np.abs(now - before)
        moved = np.array([[1, 0, shift[0] / 8], [0, 1, shift[1] / 8]], np.float32)
        size = (thumb.shape[1], thumb.shape[0])
        before = np.asarray(cv2.warpAffine(before, moved, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE), np.float32)
        self.shift = np.asarray(shift, np.float64)
        # what the shift leaves (a little turn or tilt, pips and edges at a fraction of a block)
        # is within the blocks around
        around = np.ones((3, 3), np.uint8)
        changed: NDArray[np.float32] = np.maximum(cv2.erode(before, around) - now, now - cv2.dilate(before, around))
        # blocks the camera brought in past the last picture's edge were not seen before: no change
        edge = (int(np.ceil(abs(shift[0]) / 8)) + 1, int(np.ceil(abs(shift[1]) / 8)) + 1)
        changed[:, : edge[0]] = changed[:, -edge[0] :] = 0
        changed[: edge[1], :] = changed[-edge[1] :, :] = 0
        # a die found in the last frame and missed in this one: its pips and edges flicker under the move
        rows, cols = changed.shape
        for x0, y0, x1, y1 in missed:
            changed[max(0, int(y0 // 8) - 1) : min(rows, int(y1 // 8) + 2), max(0, int(x0 // 8) - 1) : min(cols, int(x1 // 8) + 2)] = 0
        return changed

    def shift_since(self, seen: NDArray[np.float32]) -> NDArray[np.float64] | None:
        """How far the picture moved from ``seen`` (an earlier ``last_gray``) to the last frame read,
        px; None before a frame is read, where the table is too plain to tell, or the shift is implausible."""
        return self._shift_between(seen, self.last_gray) if self.last_gray is not None else None

    def _measure(self, image: NDArray[np.uint8], found: Detections) -> NDArray[np.float64]:
        """How far the camera moved the picture since the last frame read, px: the shift the dice
        found agree on (two at least, within ``AGREE`` px of each other), unless the table shows its
        own shift (``_table_motion``): dice pushed along together are no camera. Zero else."""
        centres = (found.boxes[:, :2] + found.boxes[:, 2:]).astype(np.float64) / 2
        last, self._last_centres = self._last_centres, centres
        table = self._table_motion(image, found)
        self.table_shifted = table is not None and bool(np.hypot(*table) >= CAMERA_MOVED)
        self.table_drifted = table is not None and bool(np.hypot(*table) >= DRIFTED)
        if table is not None:
            return table
        table = np.zeros(2)
        if len(centres) < 2 or len(last) < 2:
            return table
        sizes = (found.boxes[:, 2] - found.boxes[:, 0]).astype(np.float64)
        gaps = np.linalg.norm(centres[:, None, :] - last[None, :, :], axis=2)
        nearest = gaps.argmin(axis=1)
        near = gaps[np.arange(len(centres)), nearest] <= sizes / 2
        if near.sum() < 2:
            return table
        moves = centres[near] - last[nearest[near]]
        shift = np.median(moves, axis=0)
        agreeing = np.linalg.norm(moves - shift, axis=1) <= AGREE
        return np.asarray(shift, np.float64) if agreeing.sum() >= 2 and np.hypot(*shift) <= MAX_SHAKE else table

    def _table_motion(self, image: NDArray[np.uint8], found: Detections) -> NDArray[np.float64] | None:
        """The table's shift since the last frame read, px, by phase correlation of half-size grey
        pictures with the dice found blotted out (a lone die must not tell its own slide for the
        camera's), made exact by the corners of the table's texture where they tell
        (``_turn_between``); None where the table is too plain to tell (felt), or the shift is implausible."""
        height, width = image.shape[:2]
        gray = np.asarray(cv2.resize(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (width // 2, height // 2), interpolation=cv2.INTER_AREA), np.float32)
        fill = float(gray.mean())
        table = np.full(gray.shape, 255, np.uint8)
        for x0, y0, x1, y1 in found.boxes:
            gray[max(0, int(y0 / 2) - 2) : int(y1 / 2) + 3, max(0, int(x0 / 2) - 2) : int(x1 / 2) + 3] = fill
            table[max(0, int(y0 / 2) - 8) : int(y1 / 2) + 9, max(0, int(x0 / 2) - 8) : int(x1 / 2) + 9] = 0
        last, self.last_gray = self.last_gray, gray
        last_table, self._last_table = self._last_table, table
        self._table_move = None
        if last is None or last.shape != gray.shape:
            return None
        shift = self._shift_between(last, gray)
        if shift is None:
            return None
        self._table_move = self._turn_between(last, gray, shift, last_table if last_table is not None and last_table.shape == table.shape else table)
        if self._table_move is None or np.array_equal(self._table_move, np.eye(2, 3)):
            # the phase correlation alone (its noise, under a pixel, is no move): the corners saw none
            self._table_move = None
            return shift if np.hypot(*shift) >= CAMERA_MOVED else np.zeros(2)
        # the table's corners saw the camera move: the move of the picture's middle, to a fraction of a pixel
        height, width = gray.shape
        return np.asarray(self._table_move @ np.array([width, height, 1.0]) - (width, height), np.float64)

    def _turn_between(
        self, before: NDArray[np.float32], after: NDArray[np.float32], shift: NDArray[np.float64], table: NDArray[np.uint8]
    ) -> NDArray[np.float64] | None:
        """The camera's move from ``before`` to ``after`` (half-size pictures) with its turn and
        zoom, as a 2x3 map of frame px: corners of the table's texture followed across, the map
        most of them agree on (``FOLLOWED`` at least, within ``CAMERA_MOVED`` of ``shift``, the
        phase correlation's, in the picture's middle);
        the identity where the move is within the estimate's noise everywhere in the picture;
        None where the corners do not tell. Only corners of the ``table`` mask (off the dice found) count."""
        before8, after8 = before.astype(np.uint8), after.astype(np.uint8)
        corners = cv2.goodFeaturesToTrack(before8, CORNERS, 0.01, 8, mask=table)
        if corners is None or len(corners) < FOLLOWED:
            return None
        followed, status, _ = cv2.calcOpticalFlowPyrLK(before8, after8, corners, None, winSize=(15, 15), maxLevel=2)
        ok = status.ravel() == 1
        if int(ok.sum()) < FOLLOWED:
            return None
        half, inliers = cv2.estimateAffinePartial2D(corners[ok], followed[ok], method=cv2.RANSAC, ransacReprojThreshold=1.0)
        if half is None or int(inliers.sum()) < FOLLOWED:
            return None
        move = np.asarray(half, np.float64)
        move[:, 2] *= 2  # half-size px to frame px
        height, width = before.shape
        reach = np.array([[0, 0, 1], [2 * width, 0, 1], [0, 2 * height, 1], [2 * width, 2 * height, 1]], np.float64)
        moved = reach @ move.T - reach[:, :2]
        centre = move @ np.array([width, height, 1.0]) - (width, height)
        if np.hypot(*(centre - shift)) > CAMERA_MOVED:
            return None  # the two disagree: dice or a hand sway the one, or the other followed them
        if np.hypot(moved[:, 0], moved[:, 1]).max() < DRIFTED:
            return np.eye(2, 3)
        return move

    def _shift_between(self, before: NDArray[np.float32], after: NDArray[np.float32]) -> NDArray[np.float64] | None:
        """The shift of ``after`` from ``before`` (half-size pictures), px of the frame; None where
        the table is too plain to tell, or the shift is implausible."""
        if self._hanning is None or self._hanning.shape != after.shape:
            self._hanning = np.asarray(cv2.createHanningWindow((after.shape[1], after.shape[0]), cv2.CV_32F), np.float32)
        (dx, dy), response = cv2.phaseCorrelate(before, after, self._hanning)
        if response < TEXTURED or np.hypot(dx, dy) * 2 > MAX_SHAKE:
            return None
        return np.array([dx * 2, dy * 2])
