"""Players' corrections, kept for training: the crop of each corrected die and the value it really shows.

Each tap correction in the window adds a PNG of the die (with a margin) to the corrections folder and one
line to its ``corrections.jsonl``: the file, the value read, the value it really is
(null: not a die), the box in the frame and the frame's size. When the game takes a correction back
(undo), a line ``{"withdrawn": FILE}`` follows; a redo adds ``{"restored": FILE}``: these lines follow
the game's steps in force (:mod:`scorekeeper.table_session.tap_pictures` writes them), and
``withdrawn_states`` reads back what they say now. The file only grows, so a crash never costs
what was kept before. ``scorekeeper train`` reads them back with
``load_corrections``: the pip reader then learns the dice of the players' own table.
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

from scorekeeper.safe_input import parse_json, read_file, read_text
from scorekeeper.safe_output import write_atomically
from scorekeeper.vision.images import MAX_IMAGE_BYTES

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
    cannot = OSError(f"cannot write the correction's picture {path}")
    encoded, picture = cv2.imencode(".png", image) if image.size else (False, None)
    if not encoded or picture is None:
        raise cannot
    try:
        write_atomically(path, picture.tobytes())
    except OSError:
        raise cannot from None
    height, width = frame.shape[:2]
    record = {
        "file": path.name,
        "was": was,
        "value": now,
        "box": [round(float(v), 1) for v in box],
        "frame_size": [int(width), int(height)],
    }
    _append(folder, record)
    return path


def withdraw_correction(folder: Path, picture: Path, withdrawn: bool = True) -> None:
    """Mark the correction saved as ``picture`` as taken back by the game (an undo), or with
    ``withdrawn=False`` as in force again (a redo). Its picture stays: a redo needs it."""
    key = "withdrawn" if withdrawn else "restored"
    _append(folder, {key: picture.name})


def _append(folder: Path, record: dict[str, Any]) -> None:
    """Add ``record``, stamped with the time, as a line of the folder's index."""
    record = {**record, "time": datetime.now().astimezone().isoformat(timespec="seconds")}
    with open(folder / INDEX, "a+b") as stream:
        # after a crash in the middle of a line, the next record starts on a line of its own
        start = b""
        if stream.tell():
            stream.seek(-1, os.SEEK_END)
            start = b"" if stream.read(1) == b"\n" else b"\n"
        stream.write(start + json.dumps(record).encode("utf-8") + b"\n")
        stream.flush()
        os.fsync(stream.fileno())


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
        data = np.frombuffer(read_file(self.picture, "correction's picture", CorrectionsError, MAX_IMAGE_BYTES), np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if len(data) else None
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


def _record(record: dict[str, Any]) -> tuple[str, Box, tuple[int, int], int | None, int | None]:
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
    return name, (float(box[0]), float(box[1]), float(box[2]), float(box[3])), (size[0], size[1]), value, was


def _status(record: dict[str, Any]) -> tuple[str, bool] | None:
    """A line saying the game took a correction back (True) or put it in force again (False)."""
    for key, withdrawn in (("withdrawn", True), ("restored", False)):
        if key in record:
            name = record[key]
            if not isinstance(name, str) or not name or Path(name).name != name:
                raise ValueError(f"{key!r} must be a picture's name in the folder, got {name!r}")
            return name, withdrawn
    return None


def withdrawn_states(folder: Path) -> dict[str, bool]:
    """For every picture the folder's index records, whether the game has taken its correction back
    (its last ``withdrawn``/``restored`` line); empty when there is no index yet. Unreadable lines
    are passed over: ``load_corrections`` reports them. Fast enough for the window to call on a
    resumed game: no picture is opened.
    """
    index = Path(folder) / INDEX
    if not os.path.lexists(index):
        return {}
    lines = read_text(index, "corrections index", CorrectionsError).splitlines()
    states: dict[str, bool] = {}
    for line in lines:
        try:
            record = parse_json(line, INDEX)
            status = _status(record) if isinstance(record, dict) else None
        except ValueError:
            continue
        if status is not None:
            if status[0] in states:
                states[status[0]] = status[1]
        elif isinstance(record, dict) and isinstance(record.get("file"), str):
            states[record["file"]] = False
    return states


@dataclass(frozen=True)
class CorrectionsRead:
    """What ``load_corrections`` found in a corrections folder."""

    corrections: tuple[Correction, ...]
    """The dice to learn from, in the order they were corrected."""
    problems: tuple[str, ...]
    """A message for each line that cannot be used (file, line number, why); those lines are skipped."""
    withdrawn: int
    """Corrections left out because the game took them back (undone, and not done again)."""


def load_corrections(folder: Path) -> CorrectionsRead:
    """The corrections kept in ``folder``. Lines that cannot be used are reported and skipped: a
    half-written last line after a crash must not cost the rest.

    A correction the game took back (undone) is left out: the player pressed undo because the tap
    was wrong, and a wrong label would teach the reader the misread. A die corrected twice (first 5,
    then 6: the second correction's ``was`` is the first's value, on the same box of the same frame)
    counts once, with its last value.
    """
    folder = Path(folder)
    index = folder / INDEX
    if not os.path.lexists(index):
        raise CorrectionsError(f"{folder} is not a corrections folder: it has no {INDEX} (the window keeps its corrections in <its data folder>/corrections)")
    lines = read_text(index, "corrections index", CorrectionsError).splitlines()
    records: list[tuple[int, str, Box, tuple[int, int], int | None, int | None]] = []
    withdrawn: dict[str, bool] = {}
    statuses: list[tuple[int, str]] = []
    problems: list[tuple[int, str]] = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            record = parse_json(line, f"{index}:{number}")
            if not isinstance(record, dict):
                raise ValueError(f"expected a JSON object, got {line.strip()[:40]!r}")
            status = _status(record)
            if status is not None:
                withdrawn[status[0]] = status[1]
                statuses.append((number, status[0]))
            else:
                records.append((number, *_record(record)))
        except ValueError as exc:
            problems.append((number, str(exc).removeprefix(f"{index}:{number}: ")))
    named = {record[1] for record in records}
    problems += [(number, f"it takes back {name}, which no line records") for number, name in statuses if name not in named]
    kept: dict[int, Correction] = {}
    # the same die (frame size, box) showing a value: the corrections that said so
    saying: dict[tuple[tuple[int, int], Box, int | None], list[int]] = {}
    left_out = 0
    for number, name, frame_box, size, value, was in records:
        if withdrawn.get(name, False):
            left_out += 1
            continue
        picture = folder / name
        if not picture.is_file():
            problems.append((number, f"its picture {name} is missing"))
            continue
        # a second correction of the same die replaces the first
        for earlier in saying.pop((size, frame_box, was), []):
            kept.pop(earlier, None)
        kept[number] = Correction(picture, box_in_crop(frame_box, size), value, was)
        saying.setdefault((size, frame_box, value), []).append(number)
    messages = tuple(f"{index}:{number}: {why}; line skipped" for number, why in sorted(problems))
    return CorrectionsRead(tuple(kept.values()), messages, left_out)
