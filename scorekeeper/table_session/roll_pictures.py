"""The picture of each roll the camera took: the rolling area with the dice as scored, kept with the game.

A roll's picture is drawn from the frame the dice settled in: cut to the rolling area, each die
boxed with its value; a die a tap corrected shows the corrected value in its own colour, marked
"tap", and a find a tap said is no die is crossed out. It is encoded as a JPEG of at most
:data:`LONG_SIDE` pixels on its long side and about :data:`TARGET_BYTES` (the quality steps down
until it fits), and written beside the game's journal under its SHA-256
(:func:`scorekeeper.game.photos.photo_file`) whole or not at all
(:func:`~scorekeeper.safe_output.write_atomically`), and on disk before the journal line naming it.

>>> frame = np.full((480, 640, 3), 90, np.uint8)
>>> image = draw_roll(frame, [(100.0, 100.0, 140.0, 140.0)], [5], [(100.0, 100.0, 140.0, 140.0)], [3])
>>> image.shape
(480, 640, 3)
>>> len(encode_jpeg(image)) <= TARGET_BYTES
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.game.photos import PHOTO_SUFFIX, photos_folder, read_photo
from scorekeeper.camera.calibration import WHOLE_FRAME
from scorekeeper.safe_output import sync_folder, write_atomically
from scorekeeper.rules import die_token

Box = tuple[float, float, float, float]

LONG_SIDE = 640
"""The longest side of a roll's picture, pixels."""
TARGET_BYTES = 60_000
"""The size a roll's picture is kept under, bytes (the quality steps down, then the picture gets
smaller): 200 rolls stay under 12 MB."""
QUALITIES = (85, 75, 65, 55, 45, 35)
"""JPEG qualities tried in turn until the picture fits :data:`TARGET_BYTES`."""
LEAST_SIDE = 320
"""The long side a picture that will not fit :data:`TARGET_BYTES` is made smaller down to, pixels."""
SHRINK = 0.85
"""How much smaller each such step makes it."""
MARGIN = 0.04
"""Share of the frame kept around the rolling area (and the dice) when the picture is cut."""

READ = (60, 200, 60)
"""BGR colour of a die as the camera read it."""
TAPPED = (230, 80, 230)
"""BGR colour of a die a tap corrected or added."""
NOT_A_DIE = (80, 80, 230)
"""BGR colour of a find a tap said is no die."""


def _cut(shape: tuple[int, ...], area: Sequence[tuple[float, float]], boxes: Sequence[Box]) -> tuple[int, int, int, int]:
    """The part of the frame the picture keeps: the rolling area and every die, with a margin."""
    height, width = shape[:2]
    xs = [x * width for x, _ in area] + [v for b in boxes for v in (b[0], b[2])]
    ys = [y * height for _, y in area] + [v for b in boxes for v in (b[1], b[3])]
    pad = MARGIN * max(width, height)
    x0, x1 = max(0, int(min(xs) - pad)), min(width, int(max(xs) + pad + 1))
    y0, y1 = max(0, int(min(ys) - pad)), min(height, int(max(ys) + pad + 1))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return 0, 0, width, height
    return x0, y0, x1, y1


def _label(image: NDArray[np.uint8], text: str, x: int, y: int, colour: tuple[int, int, int], scale: float) -> None:
    """``text`` at (x, y) (its lower left corner) on a dark plate, so it reads on any table."""
    thickness = max(1, round(scale * 2))
    (w, h), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    y = max(y, h + 2)
    cv2.rectangle(image, (x - 1, y - h - 2), (x + w + 1, y + base), (25, 25, 25), -1)
    cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, scale, colour, thickness, cv2.LINE_AA)


def draw_roll(
    frame: NDArray[np.uint8],
    boxes: Sequence[Box],
    values: Sequence[int],
    read_boxes: Sequence[Box],
    read_values: Sequence[int],
    area: Sequence[tuple[float, float]] = WHOLE_FRAME,
    marks: Sequence[str] = (),
    read_marks: Sequence[str] = (),
) -> NDArray[np.uint8]:
    """The roll's picture: ``frame`` cut to the rolling ``area`` (corners as fractions of the frame)
    and scaled to :data:`LONG_SIDE` at most, each die of ``boxes`` drawn with its value of ``values``
    (the roll as scored now); a die whose value differs from the camera's read (``read_boxes``,
    ``read_values``), or that the camera missed, is drawn as corrected, and a read die no longer
    among ``boxes`` is crossed out as no die. ``marks`` and ``read_marks`` (aligned with ``values``
    and ``read_values``; empty: plain dice) are the dice's marks, written after the value (``1w``:
    the wild die, ``5r``: red pips); a mark changed by a tap is drawn as corrected too."""
    x0, y0, x1, y1 = _cut(frame.shape, area, [*boxes, *read_boxes])
    scale = min(1.0, LONG_SIDE / max(x1 - x0, y1 - y0))
    image: NDArray[np.uint8] = np.ascontiguousarray(frame[y0:y1, x0:x1], dtype=np.uint8).copy()
    if scale < 1.0:
        size = (max(1, round((x1 - x0) * scale)), max(1, round((y1 - y0) * scale)))
        image = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    text = 0.5 + 0.4 * (max(image.shape[:2]) / LONG_SIDE)

    def corners(box: Box) -> tuple[tuple[int, int], tuple[int, int]]:
        return (
            (round((box[0] - x0) * scale), round((box[1] - y0) * scale)),
            (round((box[2] - x0) * scale), round((box[3] - y0) * scale)),
        )

    read = {box: str(die_token(value, mark)) for box, value, mark in zip(read_boxes, read_values, read_marks or [""] * len(read_values))}
    for box in read_boxes:
        if box not in boxes:
            (a, b), (c, d) = corners(box)
            cv2.rectangle(image, (a, b), (c, d), NOT_A_DIE, 2)
            cv2.line(image, (a, b), (c, d), NOT_A_DIE, 2)
            cv2.line(image, (a, d), (c, b), NOT_A_DIE, 2)
            _label(image, "no die (tap)", a, b - 3, NOT_A_DIE, text * 0.7)
    for box, value, mark in zip(boxes, values, marks or [""] * len(values)):
        (a, b), (c, d) = corners(box)
        shown = str(die_token(value, mark))
        tapped = read.get(box) != shown
        colour = TAPPED if tapped else READ
        cv2.rectangle(image, (a, b), (c, d), colour, 3 if tapped else 2)
        _label(image, shown, a, b - 3, colour, text)
        if tapped:
            _label(image, "tap" if box not in read else f"tap, read {read[box]}", a, d + 16, colour, text * 0.6)
    return image


def encode_jpeg(image: NDArray[np.uint8], target: int = TARGET_BYTES) -> bytes:
    """``image`` as a JPEG of at most ``target`` bytes: the first of :data:`QUALITIES` that gets it
    there; where none does (a busy table at the lowest quality), the picture is made smaller, down
    to :data:`LEAST_SIDE` on its long side."""
    while True:
        for quality in QUALITIES:
            ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_OPTIMIZE, 1])
            if not ok:
                raise OSError("the JPEG encoder refused the roll's picture")
            data: bytes = encoded.tobytes()
            if len(data) <= target:
                return data
        if max(image.shape[:2]) * SHRINK < LEAST_SIDE:
            return data
        image = np.asarray(cv2.resize(image, None, fx=SHRINK, fy=SHRINK, interpolation=cv2.INTER_AREA), np.uint8)


def write_photo(journal: Path, data: bytes) -> str:
    """Keep the picture ``data`` beside ``journal``; its name (SHA-256). Whole or not at all
    (:func:`~scorekeeper.safe_output.write_atomically`), so once this returns the picture survives
    a crash (a picture already kept whole under that name is left as it is; a damaged one is
    written again)."""
    name = hashlib.sha256(data).hexdigest()
    folder = photos_folder(journal)
    path = folder / (name + PHOTO_SUFFIX)
    kept = read_photo(path)
    if kept is not None and hashlib.sha256(kept).hexdigest() == name:
        return name
    created = not folder.is_dir()
    folder.mkdir(parents=True, exist_ok=True)
    if created:
        sync_folder(folder.parent)
    write_atomically(path, data)
    return name
