"""Labelled photo folders in YOLO layout: ``images/STEM.jpg`` + ``labels/STEM.txt`` (one line per
die: ``class cx cy w h`` normalised, class = pips - 1), optionally ``split.csv`` (``stem,split``).

Both the real photos in ``../shared/data/byler_d6`` and the rendered ``sample_images/`` use it.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
"""Image files a data set folder may hold."""


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
        image = cv2.imread(str(self.path), cv2.IMREAD_COLOR)
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
            raise DatasetError(f"{source}:{number}: expected 'class cx cy w h', got {line!r}") from None
        if len(parts) != 5 or not 0 <= cls <= 5:
            raise DatasetError(f"{source}:{number}: expected 'class cx cy w h' with class 0-5 (pips - 1), got {line!r}")
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


def read_split(path: Path) -> dict[str, str]:
    """``stem -> split name`` from a ``stem,split`` CSV file."""
    try:
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as exc:
        raise DatasetError(f"cannot read split file {path}: {exc.strerror}") from None
    if rows and not {"stem", "split"} <= set(rows[0]):
        raise DatasetError(f"split file {path} needs the columns 'stem,split', got {','.join(rows[0])}")
    return {row["stem"]: row["split"] for row in rows}


def load_dataset(folder: Path, split_csv: Path | None = None, split: str | None = None) -> list[LabelledImage]:
    """Every labelled image of a folder, or only those of one split.

    ``split`` alone reads ``folder/split.csv``; an image without a label file has no dice.
    """
    folder = Path(folder)
    images_dir = folder / "images"
    labels_dir = folder / "labels"
    if not images_dir.is_dir():
        raise DatasetError(f"{folder} is not a data set: it has no images/ folder (expected images/ and labels/)")
    stems: dict[str, Path] = {p.stem: p for p in sorted(images_dir.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}
    if split is not None:
        table = read_split(split_csv or folder / "split.csv")
        unknown = sorted(set(table.values()))
        if split not in unknown:
            raise DatasetError(f"split {split!r} not in {split_csv or folder / 'split.csv'}; it has {', '.join(unknown)}")
        stems = {stem: path for stem, path in stems.items() if table.get(stem) == split}
    result = []
    for stem, path in stems.items():
        label_path = labels_dir / f"{stem}.txt"
        text = label_path.read_text(encoding="utf-8") if label_path.exists() else ""
        height, width = _image_size(path)
        result.append(LabelledImage(path, parse_yolo_labels(text, width, height, str(label_path))))
    return result


def _image_size(path: Path) -> tuple[int, int]:
    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise DatasetError(f"cannot read image {path}")
    return int(image.shape[0]), int(image.shape[1])


def iter_images(items: list[LabelledImage]) -> Iterator[tuple[LabelledImage, NDArray[np.uint8]]]:
    """Each labelled image with its pixels."""
    for item in items:
        yield item, item.load()
