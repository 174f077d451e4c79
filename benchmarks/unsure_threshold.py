"""Where the reader's "unsure" line should be: share of sure dice read right, and share marked
unsure, per confidence threshold, on rendered settled rolls that neither training nor the tests use.

    python benchmarks/unsure_threshold.py [--model DIR] [--scenes 1600] [PHOTOS --split CSV NAME]

The model's threshold (``TrainConfig.unsure_below``) is the lowest here at which at least 99.9% of
sure dice are right on these scenes. Labelled photos given after the options are shown beside them
for information only: choosing the line on a test split would flatter it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.dataset import load_dataset
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.evaluation import match
from scorekeeper.vision.reader import OnnxDiceReader
from scorekeeper.vision.render import render
from scorekeeper.vision.samples import sample_scenes

CHOICE_SEED = 31_415
"""Seed of the scenes the threshold is chosen on (not the samples', training's or the model card's)."""
SCENES = 1600
"""About 7,000 matched dice: one wrong die moves the share by 0.015 points. At 400 scenes (1,650
dice) one moved it by 0.06, too coarse to tell 99.9% from 100%: the 24-channel reader had no sure
die wrong there at 0.8, and 8 of about 6,500 wrong at 0.8 on these 1,600 (99.88%)."""
THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
TARGET = 0.999


def matched_confidences(reader: OnnxDiceReader, labelled: Iterable[tuple[NDArray[np.uint8], Detections]]) -> tuple[NDArray[np.float64], NDArray[np.bool_]]:
    """Confidence and rightness of every read die that matches a labelled one (frames are made
    one at a time: 400 rendered frames held at once would take up to a gigabyte)."""
    confidences, right = [], []
    for frame, labels in labelled:
        found = reader.read(frame)
        for t, f in match(labels, found):
            confidences.append(float(found.confidences[f]))
            right.append(bool(found.values[f] == labels.values[t]))
    return np.array(confidences), np.array(right, bool)


def table(name: str, confidences: NDArray[np.float64], right: NDArray[np.bool_]) -> float | None:
    """Print the trade-off; return the lowest threshold meeting the target."""
    print(f"\n{name}: {len(right)} matched dice, {int((~right).sum())} read wrong")
    print("threshold  right when sure  unsure  wrong and sure")
    chosen = None
    for t in THRESHOLDS:
        sure = confidences >= t
        rate = float(right[sure].mean()) if sure.any() else 1.0
        print(f"{t:9.2f}  {rate * 100:14.2f}%  {(~sure).mean() * 100:5.1f}%  {int((~right[sure]).sum()):14d}")
        if chosen is None and rate >= TARGET:
            chosen = t
    return chosen


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: the committed models/)")
    parser.add_argument("--scenes", type=int, default=SCENES, help=f"rendered scenes (default {SCENES}; about 12 min on 2 cores)")
    parser.add_argument("photos", nargs="*", type=Path, help="labelled photo folders, shown for information")
    parser.add_argument("--split", nargs=2, metavar=("CSV", "NAME"), help="only the photos of this split")
    args = parser.parse_args(argv)
    reader = OnnxDiceReader(args.model)
    rendered = (render(scene) for scene in sample_scenes(args.scenes, CHOICE_SEED))
    chosen = table(f"rendered settled rolls (seed {CHOICE_SEED}, {args.scenes} scenes)", *matched_confidences(reader, rendered))
    for folder in args.photos:
        items = load_dataset(folder, Path(args.split[0]), args.split[1]) if args.split else load_dataset(folder)
        table(f"{folder} (information only)", *matched_confidences(reader, ((item.load(), item.labels) for item in items)))
    print(f"\nmodel's line: {reader.unsure_below}; lowest line with >= {TARGET * 100:.1f}% right when sure on the rendered rolls: {chosen}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
