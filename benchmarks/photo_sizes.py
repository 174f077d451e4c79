"""The reader on labelled photos resized, to see it on real dice of other sizes: the byler photos
hold dice of 30-50 px only, a webcam at another height sees 15-150 px.

    python benchmarks/photo_sizes.py PHOTOS [--split CSV NAME] [--model DIR ...] [--as-labelled]

One row per size factor and model: rolls exact, recall, precision, value accuracy, right when sure,
unsure share, and the median of found box side over labelled box side, for each labelled die
and the found box overlapping it most (at IoU 0.25 or more; 1.00 is right, and a finder that
learned one size pulls every box towards it). Labels are the reviewed ones, as ``evaluate``
scores them, unless ``--as-labelled``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.assessment import PHOTO_SIZES, resized
from scorekeeper.evaluation.dataset import load_dataset, with_label_fixes
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.processing import box_iou
from scorekeeper.vision.reader import open_reader


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("photos", type=Path, help="a labelled photo folder")
    parser.add_argument("--split", nargs=2, metavar=("CSV", "NAME"), help="only the photos of this split")
    parser.add_argument("--model", type=Path, action="append", help="model folder; repeat to compare (default: the committed models/)")
    parser.add_argument("--as-labelled", action="store_true", help="score the labels as given, without the reviewed fixes")
    args = parser.parse_args(argv)
    items = load_dataset(args.photos, Path(args.split[0]), args.split[1]) if args.split else load_dataset(args.photos)
    if not args.as_labelled:
        items = with_label_fixes(items, args.photos)[0]
    frames = [(item.load(), item.labels) for item in items]
    readers = {str(m) if m else "models/": open_reader(m) for m in (args.model or [None])}
    width = max(len(name) for name in readers)
    print(f"{len(frames)} photos, {sum(len(labels) for _, labels in frames)} dice")
    print(f"{'size':>5}  {'model':{width}}  exact   recall  precision  value  sure     unsure  box/label")
    for factor in sorted((*PHOTO_SIZES, 1.0)):
        for name, reader in readers.items():
            score, ratios = Score(), []
            for frame, labels in frames:
                small, truth = resized(frame, labels, factor)
                found = reader.read(small)
                score.add(truth, found)
                if len(found) and len(truth):
                    overlap = box_iou(truth.boxes, found.boxes)
                    for t, f in enumerate(overlap.argmax(1)):
                        if overlap[t, f] >= 0.25:
                            ratios.append(np.sqrt(_area(found.boxes[f]) / _area(truth.boxes[t])))
            ratio = f"{np.median(ratios):.2f}" if ratios else "-"
            print(
                f"x{factor:<4}  {name:{width}}  {score.exact:2d}/{score.images}  {score.recall:7.2%}  {score.precision:8.2%}  "
                f"{score.value_accuracy:6.2%}  {score.sure_accuracy:7.2%}  {score.unsure_share:6.2%}  {ratio:>9}"
            )
    return 0


def _area(box: NDArray[np.float32]) -> float:
    return float(max(box[2] - box[0], 1e-6) * max(box[3] - box[1], 1e-6))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
