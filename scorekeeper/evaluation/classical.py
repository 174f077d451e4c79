"""The classical OpenCV dice reader hobby projects use (contours + blob counting): the baseline
``scorekeeper bench`` compares the ONNX reader with. Not used for scoring.

Dice are outlined by edges (Canny, closed, outer contours that are roughly square and solid);
pips are counted as round blobs darker or lighter than the die's face inside each outline.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections


class ClassicalDiceReader:
    """Contours find the dice, blob counting reads them. Sizes in pixels of the frame."""

    def __init__(self, min_side: float = 14, max_side: float = 160) -> None:
        self.min_side = min_side
        """Smallest die side considered, px."""
        self.max_side = max_side
        """Largest die side considered, px."""
        params = cv2.SimpleBlobDetector_Params()  # type: ignore[attr-defined]
        params.filterByArea = True
        params.minArea = 2
        params.maxArea = 5000
        params.filterByCircularity = True
        params.minCircularity = 0.6
        params.filterByConvexity = True
        params.minConvexity = 0.8
        params.filterByInertia = True
        params.minInertiaRatio = 0.4
        params.minThreshold = 30
        params.maxThreshold = 230
        params.thresholdStep = 20
        params.minDistBetweenBlobs = 1
        self._params = params

    def _count(self, face: NDArray[np.uint8], side: float) -> int:
        best = 0
        for img in (face, 255 - face):  # dark pips on light dice, then light pips on dark dice
            params = self._params
            params.minArea = max(2.0, (side * 0.05) ** 2 * math.pi)
            params.maxArea = (side * 0.16) ** 2 * math.pi
            params.blobColor = 0
            keypoints = cv2.SimpleBlobDetector_create(params).detect(img)  # type: ignore[attr-defined]
            count = len(keypoints)
            if 1 <= count <= 6 and count > best:
                best = count
        return best

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        """The dice in one BGR frame; given ``dice``, that many of the largest, the rest dropped."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        blurred = cv2.GaussianBlur(gray, (5, 5), 0)
        edges = cv2.Canny(blurred, 40, 120)
        edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        boxes, values = [], []
        for contour in contours:
            (cx, cy), (w, h), _angle = cv2.minAreaRect(contour)
            side = max(w, h)
            if not self.min_side <= side <= self.max_side or min(w, h) < 0.6 * side:
                continue
            hull_area = cv2.contourArea(cv2.convexHull(contour))
            if hull_area < 0.5 * w * h:
                continue
            x, y, bw, bh = cv2.boundingRect(contour)
            inner = int(side * 0.1)
            face = np.asarray(blurred[y + inner : y + bh - inner, x + inner : x + bw - inner], np.uint8)
            if face.size == 0:
                continue
            count = self._count(face, side)
            if count:
                boxes.append([x, y, x + bw, y + bh])
                values.append(count)
        if not boxes:
            return Detections.empty()
        found = np.array(boxes, np.float32)
        order = np.argsort(-(found[:, 2] - found[:, 0]) * (found[:, 3] - found[:, 1]), kind="stable")
        kept, dropped = (order, order[:0]) if dice is None else (order[:dice], order[dice:])
        return Detections(found[kept], np.array(values)[kept], np.ones(len(kept), np.float32), dropped=found[dropped])
