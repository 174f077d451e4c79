"""Rolls read by the whole watch pipeline from real photos: how many come out exactly right,
and how many rolls a shaken, re-exposed clip of each photo gives (it should be one).

    python benchmarks/watch_photos.py [--data ../shared/data/byler_d6] [--split test]

Steps ``images:`` through the labelled photos of the byler_d6 set (real dice, phone camera),
each held long enough to settle, with the project's ONNX reader, and compares each photo's
settled roll with its labels: exact rolls, photos with no roll, and dice marked unsure. Then
plays each photo as a clip of 70 frames: still, a hand-held camera shaking by up to 8 px, a
bump that stays, an auto-exposure jump, and counts the settled events (anything but one is a
roll missed or taken twice). Photos are only read, never copied into the project.
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.camera.sources import Frame
from scorekeeper.vision.detections import DiceReader

from scorekeeper.camera.settling import EventKind
from scorekeeper.camera.sources import ImageFolderSource
from scorekeeper.camera.watch import ReaderUnavailable, Watcher, default_reader

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "byler_d6"


class ShakenClip:
    """One photo as a clip: still, shaken, bumped, re-exposed."""

    def __init__(self, image: np.ndarray, seed: int) -> None:
        rng = np.random.default_rng(seed)
        shifts = [(0.0, 0.0)] * 20 + [tuple(rng.uniform(-8, 8, 2)) for _ in range(12)] + [(10.0, -6.0)] * 38
        gains = [1.0] * 45 + [1.3] * 25
        self.frames = []
        for (dx, dy), gain in zip(shifts, gains):
            moved = cv2.warpAffine(image, np.float32([[1, 0, dx], [0, 1, dy]]), image.shape[1::-1], borderMode=cv2.BORDER_REFLECT)
            self.frames.append(np.clip(moved.astype(np.float32) * gain, 0, 255).astype(np.uint8))
        self.index = 0

    def read(self) -> Frame | None:
        if self.index >= len(self.frames):
            return None
        self.index += 1
        return Frame(self.frames[self.index - 1], self.index - 1, (self.index - 1) / 30)


def rolls_per_clip(folder: Path, stems: list[str], reader: DiceReader) -> Counter[int]:
    counts: Counter[int] = Counter()
    for number, stem in enumerate(stems):
        image = cv2.imread(str(folder / f"{stem}.jpg"), cv2.IMREAD_COLOR)
        watcher = Watcher(ShakenClip(image, number), reader)
        counts[sum(1 for event in watcher.events() if event.kind is EventKind.SETTLED)] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--split", default="test")
    args = parser.parse_args()
    if not (args.data / "split.csv").is_file():
        sys.exit(f"no labelled photos at {args.data}")
    try:
        reader = default_reader()
    except ReaderUnavailable as exc:
        sys.exit(str(exc))
    with open(args.data / "split.csv", newline="") as handle:
        stems = [row["stem"] for row in csv.DictReader(handle) if row["split"] == args.split]
    truth = {}
    for stem in stems:
        lines = (args.data / "labels" / f"{stem}.txt").read_text().split("\n")
        truth[stem] = sorted(int(line.split()[0]) + 1 for line in lines if line.strip())
    with tempfile.TemporaryDirectory() as folder:
        for stem in stems:
            (Path(folder) / f"{stem}.jpg").symlink_to(args.data / "images" / f"{stem}.jpg")
        rolls: dict[str, tuple[list[int], int]] = {}
        start = time.perf_counter()
        with ImageFolderSource(folder) as photos:
            watcher = Watcher(photos, reader)
            for step in watcher:
                for event in step.events:
                    if event.kind is EventKind.SETTLED and photos.current_file is not None:
                        rolls[photos.current_file.stem] = (event.roll(), int(event.unsure.sum()))
            frames = watcher.frames_read
        seconds = time.perf_counter() - start
    exact = sum(1 for stem in stems if stem in rolls and rolls[stem][0] == truth[stem])
    missing = sum(1 for stem in stems if stem not in rolls)
    unsure = sum(n for _, n in rolls.values())
    dice = sum(len(t) for t in truth.values())
    print(f"{len(stems)} {args.split} photos, {dice} dice; {frames} frames read in {seconds:.1f} s")
    print(f"exact rolls {exact}/{len(stems)} ({exact / len(stems):.0%}), no roll taken {missing}, dice marked unsure {unsure}")
    counts = rolls_per_clip(args.data / "images", stems, reader)
    print("rolls per shaken clip: " + ", ".join(f"{n} roll(s): {counts[n]} clips" for n in sorted(counts)))


if __name__ == "__main__":
    main()
