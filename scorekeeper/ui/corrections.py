"""Corrections kept for training: the crop of each corrected die and the value it really shows.

Each correction adds a PNG of the die (with a margin) to the corrections folder and one
line to its ``corrections.jsonl``: the file, the value read, the value it really is
(null: not a die), the box in the frame and the frame's size.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

INDEX = "corrections.jsonl"
"""The list of corrections in the folder, one JSON object a line."""
MARGIN = 0.25
"""Margin around the die's box, as a share of its size."""


def crop(frame: NDArray[np.uint8], box: tuple[float, float, float, float]) -> NDArray[np.uint8]:
    """The die's box with a margin, clipped to the frame.

    >>> crop(np.zeros((100, 100, 3), np.uint8), (40, 40, 60, 60)).shape
    (30, 30, 3)
    """
    x0, y0, x1, y1 = box
    pad_x, pad_y = (x1 - x0) * MARGIN, (y1 - y0) * MARGIN
    height, width = frame.shape[:2]
    left, top = max(0, int(x0 - pad_x)), max(0, int(y0 - pad_y))
    right, bottom = min(width, int(np.ceil(x1 + pad_x))), min(height, int(np.ceil(y1 + pad_y)))
    return frame[top:bottom, left:right]


def save_correction(
    folder: Path, frame: NDArray[np.uint8], box: tuple[float, float, float, float], was: int | None, now: int | None
) -> Path:
    """Save the crop and its label; returns the crop's path."""
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    path = folder / f"{stamp}.png"
    image = crop(frame, box)
    if image.size == 0 or not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write the correction's picture {path}")
    height, width = frame.shape[:2]
    record = {
        "file": path.name,
        "was": was,
        "value": now,
        "box": [round(float(v), 1) for v in box],
        "frame_size": [int(width), int(height)],
        "time": datetime.now().astimezone().isoformat(timespec="seconds"),
    }
    with open(folder / INDEX, "a", encoding="utf-8") as stream:
        stream.write(json.dumps(record) + "\n")
        stream.flush()
        os.fsync(stream.fileno())
    return path
