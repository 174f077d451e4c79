"""The calibration profile of one camera over one table, and the rolling-area filter.

A profile says which camera to open and at what resolution, where on the table the dice are
rolled (a polygon), how big a die looks, how many still frames make a roll, and, where a table
asks for more caution than the dice reader's own unsure line, the stricter line. It is a TOML (or
JSON) file::

    format = 1
    camera = "webcam:0"
    resolution = [1280, 720]
    area = [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
    die_size = 0.0
    settle_frames = 14

The unsure line is the dice model's: measured with the models and kept in their manifest
(``models/manifest.json``), carried by every reading (``Detections.unsure_below``). A profile
holds none of its own unless ``confidence`` asks for a stricter one.

The rolling area is given in fractions of the frame's width and height, so it holds whatever
resolution the camera actually gives; the die size is in pixels at ``resolution``.

>>> profile = CalibrationProfile(area=((0.1, 0.1), (0.9, 0.1), (0.9, 0.9), (0.1, 0.9)))
>>> profile_from_text(profile_to_toml(profile)) == profile
True
>>> found = Detections(np.array([[10, 10, 30, 30], [300, 200, 330, 230]]), np.array([5, 3]), np.array([0.9, 0.8]))
>>> inside, aside = split_by_area(profile, found, 640, 480)
>>> inside.roll(), aside.roll()
([3], [5])
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.settling import SETTLE_FRAMES
from scorekeeper.safe_input import parse_json, parse_toml, read_text, shorten
from scorekeeper.safe_output import write_atomically
from scorekeeper.vision.detections import Detections

FORMAT = 1
"""The profile format this code reads and writes."""

DEFAULT_PROFILE_PATH = Path(__file__).resolve().parents[2] / "calibration" / "default.toml"
"""The default profile shipped in the repository's ``calibration/`` folder."""

LAST_PROFILE = "last-calibration.toml"
"""The calibration profile the window saved last, in the scorekeeper home folder; loaded on start
(and what the table there has learned beside it)."""

WHOLE_FRAME: tuple[tuple[float, float], ...] = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))
"""The rolling area that is the whole picture, corners in fractions of its width and height."""

DIE_SIZE_RANGE = (0.5, 2.0)
"""A box this many times smaller or larger than the expected die size is not a die."""


class CalibrationError(ValueError):
    """A calibration profile that cannot be used; the message names the field and what is allowed."""


@dataclass(frozen=True)
class CalibrationProfile:
    """How one camera sees one table."""

    camera: str = "webcam:0"
    """The frame source to open: ``webcam:N``, ``video:PATH``, ``images:DIR`` or ``demo``."""
    resolution: tuple[int, int] = (1280, 720)
    """Width and height to ask the camera for, px."""
    area: tuple[tuple[float, float], ...] = WHOLE_FRAME
    """The rolling area's corners, as fractions (0-1) of the frame's width and height."""
    die_size: float = 0.0
    """Edge of a die seen from above, px at ``resolution``; 0 when not measured (any size counts)."""
    settle_frames: int = SETTLE_FRAMES
    """Consecutive still frames before the dice count as settled."""
    confidence: float | None = None
    """A stricter unsure line for this table: dice read with less confidence than this, or than the
    reader's own line where that is higher, are unsure and need a tap. None: the reader's line alone."""

    def __post_init__(self) -> None:
        check_profile(self)

    @property
    def stricter_line(self) -> float:
        """The unsure line this profile holds dice to over the reader's own (0: the reader's alone)."""
        return 0.0 if self.confidence is None else self.confidence

    def die_size_at(self, width: int) -> float:
        """The expected die edge in a frame ``width`` px wide (0 when not measured)."""
        return self.die_size * width / self.resolution[0]


def _polygon_area(points: NDArray[np.float64]) -> float:
    x, y = points[:, 0], points[:, 1]
    return float(0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))))


def _segments_cross(a: NDArray[np.float64], b: NDArray[np.float64], c: NDArray[np.float64], d: NDArray[np.float64]) -> bool:
    def side(p: NDArray[np.float64], q: NDArray[np.float64], r: NDArray[np.float64]) -> float:
        return float((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]))

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def check_profile(profile: CalibrationProfile) -> None:
    """Raise :class:`CalibrationError` naming the first field that is out of range."""
    width, height = profile.resolution
    if not (isinstance(width, int) and isinstance(height, int) and 16 <= width <= 8192 and 16 <= height <= 8192):
        raise CalibrationError(f"resolution must be two whole numbers of pixels, 16-8192, got {list(profile.resolution)}")
    if len(profile.area) < 3:
        raise CalibrationError(f"area needs at least 3 corners, got {len(profile.area)}")
    points = np.array(profile.area, np.float64)
    if points.shape != (len(profile.area), 2) or not np.all(np.isfinite(points)):
        raise CalibrationError(f"area corners must be [x, y] pairs of numbers, got {[list(p) for p in profile.area]}")
    if points.min() < 0 or points.max() > 1:
        raise CalibrationError(
            f"area corners are fractions of the frame, 0-1; got {[list(p) for p in profile.area]}"
        )
    n = len(points)
    for i in range(n):
        for j in range(i + 2, n):
            if (j + 1) % n == i:
                continue
            if _segments_cross(points[i], points[(i + 1) % n], points[j], points[(j + 1) % n]):
                raise CalibrationError(
                    f"the rolling area's edges cross (corners {i + 1}-{i + 2} and {j + 1}-{(j + 1) % n + 1}): "
                    "list the corners in order around the area"
                )
    if _polygon_area(points) < 0.01:
        raise CalibrationError("the rolling area covers less than 1% of the frame: drag its corners apart")
    if not (math.isfinite(profile.die_size) and 0 <= profile.die_size <= min(width, height) / 2):
        raise CalibrationError(
            f"die_size must be 0 (not measured) or a die's edge in pixels up to half the frame, got {profile.die_size}"
        )
    if not (isinstance(profile.settle_frames, int) and 2 <= profile.settle_frames <= 300):
        raise CalibrationError(f"settle_frames must be a whole number 2-300, got {profile.settle_frames!r}")
    if profile.confidence is not None and not (math.isfinite(profile.confidence) and 0 <= profile.confidence <= 1):
        raise CalibrationError(f"confidence must be 0-1, got {profile.confidence}")


def _number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise CalibrationError(f"{name} must be a number, got {value!r}")
    return float(value)


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CalibrationError(f"{name} must be a whole number, got {value!r}")
    return value


def profile_from_table(table: Mapping[str, Any]) -> CalibrationProfile:
    """A profile from the parsed TOML/JSON table; every key is checked, unknown keys refused."""
    known = {f.name for f in fields(CalibrationProfile)} | {"format"}
    unknown = sorted(set(table) - known)
    if unknown:
        raise CalibrationError(f"unknown key(s) {shorten(', '.join(unknown))}; a profile has {', '.join(sorted(known))}")
    version = table.get("format", FORMAT)
    if version != FORMAT:
        raise CalibrationError(f"profile format {version!r} is not supported; this program reads format {FORMAT}")
    values: dict[str, Any] = {}
    if "camera" in table:
        if not isinstance(table["camera"], str):
            raise CalibrationError(f"camera must be a source such as \"webcam:0\", got {table['camera']!r}")
        values["camera"] = table["camera"]
    if "resolution" in table:
        res = table["resolution"]
        if not isinstance(res, list) or len(res) != 2:
            raise CalibrationError(f"resolution must be [width, height], got {res!r}")
        values["resolution"] = (_whole(res[0], "resolution width"), _whole(res[1], "resolution height"))
    if "area" in table:
        area = table["area"]
        if not isinstance(area, list) or not all(isinstance(p, list) and len(p) == 2 for p in area):
            raise CalibrationError(f"area must be a list of [x, y] corners, got {area!r}")
        values["area"] = tuple((_number(x, "area corner x"), _number(y, "area corner y")) for x, y in area)
    if "die_size" in table:
        values["die_size"] = _number(table["die_size"], "die_size")
    if "settle_frames" in table:
        values["settle_frames"] = _whole(table["settle_frames"], "settle_frames")
    if "confidence" in table:
        values["confidence"] = _number(table["confidence"], "confidence")
    return CalibrationProfile(**values)


def profile_to_table(profile: CalibrationProfile) -> dict[str, Any]:
    """The profile as a plain table (what TOML and JSON files hold)."""
    table: dict[str, Any] = {
        "format": FORMAT,
        "camera": profile.camera,
        "resolution": list(profile.resolution),
        "area": [[x, y] for x, y in profile.area],
        "die_size": profile.die_size,
        "settle_frames": profile.settle_frames,
    }
    if profile.confidence is not None:
        table["confidence"] = profile.confidence
    return table


def profile_to_toml(profile: CalibrationProfile) -> str:
    """The profile as a commented TOML file."""
    area = ", ".join(f"[{x!r}, {y!r}]" for x, y in profile.area)
    return (
        "# scorekeeper calibration profile\n"
        f"format = {FORMAT}\n"
        "# The frame source: webcam:N, video:PATH, images:DIR or demo.\n"
        f"camera = {json.dumps(profile.camera)}\n"
        "# Width and height to ask the camera for, px.\n"
        f"resolution = [{profile.resolution[0]}, {profile.resolution[1]}]\n"
        "# The rolling area's corners in order, as fractions (0-1) of the frame's width and height.\n"
        f"area = [{area}]\n"
        "# A die's edge seen from above, px at this resolution; 0 = not measured.\n"
        f"die_size = {profile.die_size!r}\n"
        "# Consecutive still frames before a roll is taken.\n"
        f"settle_frames = {profile.settle_frames}\n"
        + (
            "# Dice are unsure (and need a tap) below the dice model's own line, kept in its manifest.\n"
            "# Set confidence (0-1) here to ask for more caution at this table.\n"
            if profile.confidence is None
            else "# Dice read with less confidence than this (or the dice model's own line, where higher) are unsure.\n"
            f"confidence = {profile.confidence!r}\n"
        )
    )


def profile_from_text(text: str, where: str = "profile", json_format: bool = False) -> CalibrationProfile:
    """Parse a profile from TOML (or JSON) text; errors name ``where``."""
    table = parse_json(text, where, CalibrationError) if json_format else parse_toml(text, where, CalibrationError)
    if not isinstance(table, dict):
        raise CalibrationError(f"{where}: a profile is a table of keys, got {type(table).__name__}")
    try:
        return profile_from_table(table)
    except CalibrationError as exc:
        raise CalibrationError(f"{where}: {exc}") from None


def load_profile(path: str | os.PathLike[str]) -> CalibrationProfile:
    """Read a ``.toml`` or ``.json`` profile."""
    file = Path(path)
    if not os.path.lexists(file):
        raise CalibrationError(f"calibration profile {str(file)!r} does not exist")
    text = read_text(file, "calibration profile", CalibrationError, limit=1_000_000)
    return profile_from_text(text, f"calibration profile {str(file)!r}", json_format=file.suffix.lower() == ".json")


def save_profile(profile: CalibrationProfile, path: str | os.PathLike[str]) -> None:
    """Write a profile as TOML (or JSON for ``.json``) atomically: the old file stays whole until the new one is."""
    file = Path(path)
    if file.suffix.lower() == ".json":
        text = json.dumps(profile_to_table(profile), indent=2) + "\n"
    else:
        text = profile_to_toml(profile)
    write_atomically(file, text)


def default_profile() -> CalibrationProfile:
    """The profile in ``calibration/default.toml``, or the built-in defaults where the file is not shipped."""
    if DEFAULT_PROFILE_PATH.is_file():
        return load_profile(DEFAULT_PROFILE_PATH)
    return CalibrationProfile()


def _inside(points: NDArray[np.float64], polygon: NDArray[np.float64]) -> NDArray[np.bool_]:
    """Even-odd test of each point against the polygon (points on an edge may go either way)."""
    x, y = points[:, 0:1], points[:, 1:2]
    x0, y0 = polygon[:, 0], polygon[:, 1]
    x1, y1 = np.roll(x0, -1), np.roll(y0, -1)
    crosses = (y0 > y) != (y1 > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        at = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
    return np.asarray(np.count_nonzero(crosses & (x < at), axis=1) % 2 == 1)


def split_by_area(
    profile: CalibrationProfile, detections: Detections, width: int, height: int
) -> tuple[Detections, Detections]:
    """The dice whose centre lies inside the rolling area (the roll), and those outside (set aside).

    Boxes far smaller or larger than the expected die size are not dice (a coin, a cup) and are
    dropped from both. Both results are held to the profile's stricter line, where it asks for
    one: the one place a table's line meets the readings (settling and all after read
    :attr:`Detections.unsure`).
    """
    boxes = detections.boxes.astype(np.float64)
    keep = np.ones(len(detections), bool)
    expected = profile.die_size_at(width)
    if expected > 0 and len(detections):
        edge = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        keep = (edge >= DIE_SIZE_RANGE[0] * expected) & (edge <= DIE_SIZE_RANGE[1] * expected)
    centres = np.stack([(boxes[:, 0] + boxes[:, 2]) / 2 / width, (boxes[:, 1] + boxes[:, 3]) / 2 / height], axis=1)
    if profile.area == WHOLE_FRAME:
        inside = np.ones(len(detections), bool)
    else:
        inside = _inside(centres.reshape(-1, 2), np.array(profile.area, np.float64))
    # The reader's own threshold (tuned with its model) is the floor: a profile may ask for more caution, not less.
    found = detections.held_to(profile.stricter_line)
    return found[keep & inside], found[keep & ~inside]
