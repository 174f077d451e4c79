"""Players' corrections, kept for training: the crop of each corrected die and the value it really shows.

Each tap correction in the window adds a PNG of the die (with a margin) to the corrections folder and one
line to its ``corrections.jsonl``: the file, the value read, the value it really is
(null: not a die), the box in the frame and the frame's size. ``scorekeeper train`` reads them back
with ``load_corrections``: the pip reader then learns the dice of the players' own table.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

INDEX = "corrections.jsonl"
"""The list of corrections in the folder, one JSON object a line."""
MARGIN = 0.25
"""Margin around the die's box, as a share of its size."""

Box = tuple[float, float, float, float]


class CorrectionsError(ValueError):
    """A corrections folder that cannot be read at all."""


def _window(box: Box, width: int, height: int) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = box
    pad_x, pad_y = (x1 - x0) * MARGIN, (y1 - y0) * MARGIN
    left, top = max(0, int(x0 - pad_x)), max(0, int(y0 - pad_y))
    right, bottom = min(width, int(np.ceil(x1 + pad_x))), min(height, int(np.ceil(y1 + pad_y)))
    return left, top, right, bottom


def crop(frame: NDArray[np.uint8], box: Box) -> NDArray[np.uint8]:
    """The die's box with a margin, clipped to the frame.

    >>> crop(np.zeros((100, 100, 3), np.uint8), (40, 40, 60, 60)).shape
    (30, 30, 3)
    """
    left, top, right, bottom = _window(box, frame.shape[1], frame.shape[0])
    return frame[top:bottom, left:right]


def box_in_crop(box: Box, frame_size: tuple[int, int]) -> Box:
    """Where the die's box lies in the picture ``crop`` cut from a frame of ``frame_size`` (width, height).

    >>> box_in_crop((40, 40, 60, 60), (100, 100)), box_in_crop((0, 2, 20, 22), (100, 100))
    ((5.0, 5.0, 25.0, 25.0), (0.0, 2.0, 20.0, 22.0))
    """
    left, top, _, _ = _window(box, *frame_size)
    x0, y0, x1, y1 = box
    return (float(x0 - left), float(y0 - top), float(x1 - left), float(y1 - top))


def save_correction(folder: Path, frame: NDArray[np.uint8], box: Box, was: int | None, now: int | None) -> Path:
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
    with open(folder / INDEX, "a+b") as stream:
        # after a crash in the middle of a line, the next record starts on a line of its own
        start = b""
        if stream.tell():
            stream.seek(-1, os.SEEK_END)
            start = b"" if stream.read(1) == b"\n" else b"\n"
        stream.write(start + json.dumps(record).encode("utf-8") + b"\n")
        stream.flush()
        os.fsync(stream.fileno())
    return path


@dataclass(frozen=True)
class Correction:
    """One die a player corrected, as kept in a corrections folder."""

    picture: Path
    """The die's PNG, cut from the frame with a margin (``MARGIN``)."""
    box: Box
    """The die's box in the picture's pixels: x0, y0, x1, y1."""
    value: int | None
    """The value the die really shows, 1-6; None: not a die."""
    was: int | None
    """What the reader (or an earlier correction) had said; None: the die had been missed."""

    def load(self) -> NDArray[np.uint8]:
        """The picture, BGR."""
        image = cv2.imread(str(self.picture), cv2.IMREAD_COLOR)
        if image is None:
            raise CorrectionsError(f"cannot read the correction's picture {self.picture}")
        return np.asarray(image, np.uint8)


def _face(record: dict[str, Any], key: str) -> int | None:
    value = record.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 6:
        raise ValueError(f"{key!r} must be 1-6 or null, got {value!r}")
    return value


def _record(line: str, folder: Path) -> tuple[Correction, tuple[int, int], Box]:
    record = json.loads(line)
    if not isinstance(record, dict):
        raise ValueError(f"expected a JSON object, got {line.strip()[:40]!r}")
    name = record.get("file")
    if not isinstance(name, str) or not name or Path(name).name != name:
        raise ValueError(f"'file' must be a picture's name in the folder, got {name!r}")
    box, size = record.get("box"), record.get("frame_size")
    if not (isinstance(box, list) and len(box) == 4 and all(isinstance(v, (int, float)) and math.isfinite(v) for v in box)):
        raise ValueError(f"'box' must be four numbers x0, y0, x1, y1, got {box!r}")
    if not (box[2] > box[0] and box[3] > box[1]):
        raise ValueError(f"'box' {box!r} is empty")
    if not (isinstance(size, list) and len(size) == 2 and all(isinstance(v, int) and v > 0 for v in size)):
        raise ValueError(f"'frame_size' must be the frame's width and height, got {size!r}")
    value, was = _face(record, "value"), _face(record, "was")
    if value is None and was is None:
        raise ValueError("'value' and 'was' are both null: nothing was corrected")
    picture = folder / name
    if not picture.is_file():
        raise ValueError(f"its picture {name} is missing")
    frame_box = (float(box[0]), float(box[1]), float(box[2]), float(box[3]))
    return Correction(picture, box_in_crop(frame_box, (size[0], size[1])), value, was), (size[0], size[1]), frame_box


def load_corrections(folder: Path) -> tuple[list[Correction], list[str]]:
    """The corrections kept in ``folder``, and a message for each line that cannot be used (those are
    skipped: a half-written last line after a crash must not cost the rest).

    A die corrected twice (first 5, then 6: the second correction's ``was`` is the first's value,
    on the same box of the same frame) counts once, with its last value.
    """
    folder = Path(folder)
    index = folder / INDEX
    if not index.is_file():
        raise CorrectionsError(f"{folder} is not a corrections folder: it has no {INDEX} (the window keeps its corrections in <its data folder>/corrections)")
    try:
        lines = index.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise CorrectionsError(f"cannot read {index}: {exc}") from None
    kept: list[tuple[Correction, tuple[int, int], Box]] = []
    problems = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            entry = _record(line, folder)
        except ValueError as exc:  # json.JSONDecodeError is a ValueError
            problems.append(f"{index}:{number}: {exc}; line skipped")
            continue
        correction, size, frame_box = entry
        # a second correction of the same die replaces the first
        kept = [k for k in kept if not (k[1] == size and k[2] == frame_box and k[0].value == correction.was)]
        kept.append(entry)
    return [k[0] for k in kept], problems
