"""Labelled photo folders in YOLO layout: ``images/STEM.jpg`` + ``labels/STEM.txt`` (one line per
die: ``class cx cy w h`` normalised, class = pips - 1), optionally ``split.csv`` (``stem,split``).

Both the real photos in ``../shared/data/byler_d6`` and the rendered ``sample_images/`` use it.
A folder's labels can be wrong: ``label_fixes/NAME.csv`` beside this module lists the dice of the
folder called NAME whose labels a person checked against the photo and found wrong (a value
misread, a die left unlabelled, a box on nothing the game can score, a photo whose labels cannot
be trusted at all), and ``apply_label_fixes`` puts them right.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_input import check_file, check_folder, quote, read_file, read_head, read_text, shorten
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.images import MAX_IMAGE_BYTES, MAX_PIXELS, header_size
from scorekeeper.vision.processing import box_iou

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
"""Image files a data set folder may hold."""

LABEL_FIXES_DIR = Path(__file__).with_name("label_fixes")
"""The reviewed label fixes of known data sets, one ``NAME.csv`` per folder name."""
MAX_LABEL_FIXES_BYTES = 10_000_000
"""The largest label fixes file read (a data set's fixes run to some kilobytes)."""


class DatasetError(ValueError):
    """A data set folder or label file that cannot be used as given."""


@dataclass(frozen=True)
class LabelledImage:
    """One photo and its dice."""

    path: Path
    """The image file."""
    labels: Detections
    """The labelled dice in image pixels (confidence 1)."""

    def load(self) -> NDArray[np.uint8]:
        """The image as BGR uint8."""
        _image_size(self.path)
        data = np.frombuffer(read_file(self.path, "image", DatasetError, MAX_IMAGE_BYTES), np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if len(data) else None
        if image is None:
            raise DatasetError(f"cannot read image {self.path}")
        return np.asarray(image, np.uint8)


def parse_yolo_labels(text: str, width: int, height: int, source: str = "labels") -> Detections:
    """Dice from YOLO label text (class = pips - 1, normalised centre and size).

    >>> parse_yolo_labels("4 0.5 0.5 0.1 0.2\\n", 100, 50).boxes.tolist(), parse_yolo_labels("4 0.5 0.5 0.1 0.2", 100, 50).roll()
    ([[45.0, 20.0, 55.0, 30.0]], [5])
    """
    boxes, values = [], []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts:
            continue
        try:
            cls, cx, cy, w, h = int(parts[0]), *(float(p) for p in parts[1:5])
        except (ValueError, TypeError):
            raise DatasetError(f"{source}:{number}: expected 'class cx cy w h', got {quote(line)}") from None
        if len(parts) != 5 or not 0 <= cls <= 5:
            raise DatasetError(f"{source}:{number}: expected 'class cx cy w h' with class 0-5 (pips - 1), got {quote(line)}")
        if not (0 <= cx <= 1 and 0 <= cy <= 1 and 0 < w <= 1 and 0 < h <= 1):
            raise DatasetError(
                f"{source}:{number}: centre and size must be fractions of the image (centre 0-1, size above 0 "
                f"up to 1), got {quote(line)}"
            )
        boxes.append([(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height])
        values.append(cls + 1)
    if not boxes:
        return Detections.empty()
    return Detections(np.array(boxes, np.float32), np.array(values), np.ones(len(values), np.float32))


def format_yolo_labels(labels: Detections, width: int, height: int) -> str:
    """YOLO label text for dice (the inverse of ``parse_yolo_labels``)."""
    lines = []
    for (x0, y0, x1, y1), value in zip(labels.boxes, labels.values):
        cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        lines.append(f"{int(value) - 1} {cx:.6f} {cy:.6f} {(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}")
    return "".join(line + "\n" for line in lines)


def read_split(path: Path, column: str = "split") -> dict[str, str]:
    """``stem -> split name`` from a ``stem,split`` CSV file (or ``stem -> group`` with ``column="group"``)."""
    text = read_text(path, "split file", DatasetError, limit=50_000_000)
    reader = csv.reader(io.StringIO(text, newline=""))
    table: dict[str, str] = {}
    try:
        header = next(reader, [])
        if not {"stem", column} <= set(header):
            raise DatasetError(f"split file {path} needs the columns 'stem,{column}', got {shorten(','.join(header))}")
        stem, value = header.index("stem"), header.index(column)
        for row in reader:
            if not row:
                continue
            if len(row) != len(header):
                raise DatasetError(f"{path}:{reader.line_num}: expected {len(header)} values, got {quote(row)}")
            table[row[stem]] = row[value]
    except csv.Error as exc:
        raise DatasetError(f"{path}:{reader.line_num}: not a CSV line ({exc})") from None
    return table


def load_dataset(folder: Path, split_csv: Path | None = None, split: str | None = None) -> list[LabelledImage]:
    """Every labelled image of a folder, or only those of one split.

    ``split`` alone reads ``folder/split.csv``; an image without a label file has no dice.
    """
    folder = Path(folder)
    images_dir = folder / "images"
    labels_dir = folder / "labels"
    check_folder(folder, "data set folder", DatasetError)
    if not images_dir.is_dir():
        raise DatasetError(f"{folder} is not a data set: it has no images/ folder (expected images/ and labels/)")
    stems: dict[str, Path] = {p.stem: p for p in sorted(images_dir.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}
    images = list(stems)
    if split is not None:
        table = read_split(split_csv or folder / "split.csv")
        unknown = sorted(set(table.values()))
        if split not in unknown:
            raise DatasetError(
                f"split {quote(split)} not in {split_csv or folder / 'split.csv'}; it has {shorten(', '.join(unknown)) or 'none'}"
            )
        named = sorted(stem for stem, name in table.items() if name == split)
        stems = {stem: path for stem, path in stems.items() if table.get(stem) == split}
        if not stems:
            there = f"{len(images):,} photos, such as {quote(images[0])}" if images else "no photos"
            raise DatasetError(
                f"none of the {len(named):,} images {split_csv or folder / 'split.csv'} names for split {quote(split)} "
                f"(such as {quote(named[0])}) is in {images_dir} ({there}): name the split file of this data set"
            )
    result = []
    for stem, path in stems.items():
        label_path = labels_dir / f"{stem}.txt"
        text = read_text(label_path, "label file", DatasetError, limit=10_000_000) if label_path.exists() else ""
        height, width = _image_size(path)
        result.append(LabelledImage(path, parse_yolo_labels(text, width, height, str(label_path))))
    return result


def _image_size(path: Path) -> tuple[int, int]:
    """Height and width of an image file, from its header where it has one; refuses giant images."""
    check_file(path, "image", DatasetError, MAX_IMAGE_BYTES)
    size = header_size(read_head(path, "image", 1 << 20, DatasetError))
    if size is None:
        data = np.frombuffer(read_file(path, "image", DatasetError, MAX_IMAGE_BYTES), np.uint8)
        image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED) if len(data) else None
        if image is None:
            raise DatasetError(f"cannot read image {path}")
        return int(image.shape[0]), int(image.shape[1])
    if size[0] * size[1] > MAX_PIXELS:
        raise DatasetError(f"{path}: image too big: {size[0]}x{size[1]} px; at most {MAX_PIXELS // 1_000_000} M pixels")
    return size[1], size[0]


@dataclass(frozen=True)
class LabelFix:
    """One die whose label a person found wrong on the photo, or a photo left out whole."""

    stem: str
    """The image's file name without its suffix."""
    box: tuple[float, float, float, float] | None
    """The die's box in image pixels (x0, y0, x1, y1): the label's own box when it has one. None:
    the fix is about the whole photo, which is left out (``seen`` is None too)."""
    labelled: int | None
    """The value the labels give it, or None where the labels leave the die out."""
    seen: int | None
    """The value on its top face; None where there is nothing the game can score (not a die, a
    symbol face, a die with no face up): the label's box is removed."""
    why: str
    """What the photo shows, for the next person to check."""

    def __str__(self) -> str:
        if self.box is None:
            return f"{self.stem} (the whole photo, left out)"
        was = "no label" if self.labelled is None else f"labelled {self.labelled}"
        shows = "nothing to score" if self.seen is None else f"shows {self.seen}"
        return f"{self.stem} die at {' '.join(f'{v:g}' for v in self.box)} ({was}, {shows})"


def read_label_fixes(path: Path) -> list[LabelFix]:
    """The fixes in a ``stem,box,labelled,seen,why`` CSV file (box: ``x0 y0 x1 y1`` in pixels;
    labelled empty for a die the labels leave out; seen ``-`` for a labelled box with nothing the
    game can score; box and labelled empty with seen ``-`` for a photo left out whole)."""
    try:
        text = read_text(path, "label fixes file", DatasetError, limit=MAX_LABEL_FIXES_BYTES)
    except DatasetError as exc:
        raise DatasetError(f"cannot read label fixes: {exc}") from None
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    fixes = []
    for number, row in enumerate(rows, start=2):
        try:
            corners = [float(v) for v in row["box"].split()]
            if len(corners) not in (0, 4):
                raise ValueError(row["box"])
            box = (corners[0], corners[1], corners[2], corners[3]) if corners else None
            labelled = int(row["labelled"]) if row["labelled"].strip() else None
            seen = None if row["seen"].strip() == "-" else int(row["seen"])
            fix = LabelFix(row["stem"].strip(), box, labelled, seen, row["why"].strip())
        except (KeyError, ValueError, AttributeError):
            raise DatasetError(
                f"{path}:{number}: expected 'stem,box,labelled,seen,why' with box 'x0 y0 x1 y1' and values 1-6 "
                f"(seen '-' where nothing can be scored), got {row!r}"
            ) from None
        values_ok = (seen is None or 1 <= seen <= 6) and (labelled is None or 1 <= labelled <= 6)
        if not (values_ok and fix.stem and (box is None or (box[2] > box[0] and box[3] > box[1]))):
            raise DatasetError(f"{path}:{number}: values must be 1-6 and the box x0 < x1, y0 < y1, got {row!r}")
        if box is None and (seen is not None or labelled is not None):
            raise DatasetError(f"{path}:{number}: a row without a box leaves the whole photo out: labelled empty and seen '-', got {row!r}")
        if box is not None and seen is None and labelled is None:
            raise DatasetError(f"{path}:{number}: seen '-' removes a labelled box: give the value it is labelled, got {row!r}")
        fixes.append(fix)
    return fixes


def label_fixes_for(folder: Path) -> Path | None:
    """The reviewed fixes of a data set folder (by its name), if the project has any."""
    path = LABEL_FIXES_DIR / f"{Path(folder).resolve().name}.csv"
    return path if path.is_file() else None


def describe_fixes(fixes: list[LabelFix]) -> str:
    """How many values the fixes put right and how many dice they add, and any boxes they remove
    and photos they leave out.

    >>> describe_fixes([LabelFix("a", (0, 0, 9, 9), 2, 3, ""), LabelFix("a", (20, 0, 29, 9), None, 1, "")])
    '1 value put right, 1 die added'
    >>> describe_fixes([LabelFix("a", (0, 0, 9, 9), 2, None, ""), LabelFix("b", None, None, None, "")])
    '0 values put right, 0 dice added, 1 box removed, 1 photo left out'
    """
    photos = sum(fix.box is None for fix in fixes)
    removed = sum(fix.box is not None and fix.seen is None for fix in fixes)
    added = sum(fix.labelled is None and fix.seen is not None for fix in fixes)
    values = len(fixes) - added - removed - photos
    text = f"{values} value{'s' * (values != 1)} put right, {added} {'die' if added == 1 else 'dice'} added"
    if removed:
        text += f", {removed} box{'es' * (removed != 1)} removed"
    if photos:
        text += f", {photos} photo{'s' * (photos != 1)} left out"
    return text


def with_label_fixes(items: list[LabelledImage], folder: Path) -> tuple[list[LabelledImage], list[LabelFix]]:
    """``items`` of ``folder`` with the project's reviewed fixes for it (``label_fixes_for``)
    applied, and the fixes that touched them."""
    path = label_fixes_for(folder)
    if path is None:
        return items, []
    stems = {item.path.stem for item in items}
    fixes = [fix for fix in read_label_fixes(path) if fix.stem in stems]
    return apply_label_fixes(items, fixes), fixes


def apply_label_fixes(items: list[LabelledImage], fixes: list[LabelFix]) -> list[LabelledImage]:
    """The images with their fixes applied, less the photos a fix leaves out; a fix of an image
    not among them is left out.

    A fix must still find what it fixes (a label of that value at its box, or no label there for
    a die the labels leave out): labels changed since the review are an error, not a silent skip.
    """
    by_stem: dict[str, list[LabelFix]] = {}
    for fix in fixes:
        by_stem.setdefault(fix.stem, []).append(fix)
    result = []
    for item in items:
        mine = by_stem.get(item.path.stem, [])
        if not mine:
            result.append(item)
            continue
        dice_fixes = [(fix, fix.box) for fix in mine if fix.box is not None]
        if len(dice_fixes) < len(mine):
            continue
        boxes, values = item.labels.boxes.reshape(-1, 4).copy(), item.labels.values.copy()
        removed = np.zeros(len(values), bool)
        for fix, corners in dice_fixes:
            box = np.array([corners], np.float32)
            overlap = box_iou(box, boxes)[0] if len(boxes) else np.zeros(0, np.float32)
            best = int(overlap.argmax()) if len(overlap) else -1
            if fix.labelled is None:
                if fix.seen is None:
                    raise DatasetError(f"label fix {fix}: neither a label to remove nor a die to add; give one")
                if best >= 0 and overlap[best] >= 0.3:
                    raise DatasetError(f"label fix {fix}: the labels now have a die there; review the fix")
                boxes, values = np.concatenate([boxes, box]), np.append(values, fix.seen)
                removed = np.append(removed, False)
            elif best < 0 or overlap[best] < 0.8 or int(values[best]) != fix.labelled:
                raise DatasetError(f"label fix {fix}: no die labelled {fix.labelled} there any more; review the fix")
            elif fix.seen is None:
                removed[best] = True
            else:
                values[best] = fix.seen
        kept = ~removed
        result.append(LabelledImage(item.path, Detections(boxes[kept], values[kept], np.ones(int(kept.sum()), np.float32))))
    return result
