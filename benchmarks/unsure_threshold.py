"""Where the reader's "unsure" line should be: share of sure dice read right, and share marked
unsure, per confidence threshold, on rendered settled rolls that neither training nor the tests use.

    python benchmarks/unsure_threshold.py [--model DIR] [--scenes 1600] [--record] [PHOTOS --split CSV NAME]

The model's threshold (``TrainConfig.unsure_below``) is the lowest here at which at least 99.9% of
sure dice are right on these scenes. Labelled photos given after the options are shown beside them
for information only: choosing the line on a test split would flatter it.

``--record`` writes the measurement beside the model card, as ``unsure_line.json`` in the model
folder (the models' SHA-256, the scenes, each threshold's counts and the line chosen): the tests
hold the manifest's ``unsure_below`` to it, so a line moved by hand, or a model retrained without
measuring again, fails them.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.dataset import load_dataset
from scorekeeper.vision.detections import Detections
from scorekeeper.evaluation.score import match
from scorekeeper.vision.reader import MANIFEST_FILE, OnnxDiceReader, default_model_dir
from scorekeeper.synthetic.render import render
from scorekeeper.evaluation.samples import sample_scenes

CHOICE_SEED = 31_415
"""Seed of the scenes the threshold is chosen on (not the samples', training's or the model card's)."""
SCENES = 1600
"""About 7,000 matched dice: one wrong die moves the share by 0.015 points. At 400 scenes (1,650
dice) one moved it by 0.06, too coarse to tell 99.9% from 100%: the 24-channel reader had no sure
die wrong there at 0.8, and 8 of about 6,500 wrong at 0.8 on these 1,600 (99.88%)."""
THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
TARGET = 0.999
RECORD_FILE = "unsure_line.json"
"""The measurement ``--record`` writes into the model folder."""


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


def rows(confidences: NDArray[np.float64], right: NDArray[np.bool_]) -> list[dict[str, float | int]]:
    """Per threshold: dice read sure, of them read wrong, and dice marked unsure."""
    out: list[dict[str, float | int]] = []
    for t in THRESHOLDS:
        sure = confidences >= t
        out.append({"threshold": t, "sure": int(sure.sum()), "wrong_and_sure": int((~right[sure]).sum()), "unsure": int((~sure).sum())})
    return out


def lowest_line(measured: list[dict[str, float | int]]) -> float | None:
    """The lowest threshold at which at least ``TARGET`` of the sure dice are right."""
    for row in measured:
        sure = int(row["sure"])
        if sure and 1 - int(row["wrong_and_sure"]) / sure >= TARGET:
            return float(row["threshold"])
    return None


def table(name: str, confidences: NDArray[np.float64], right: NDArray[np.bool_]) -> tuple[list[dict[str, float | int]], float | None]:
    """Print the trade-off; return the rows and the lowest threshold meeting the target."""
    print(f"\n{name}: {len(right)} matched dice, {int((~right).sum())} read wrong")
    print("threshold  right when sure  unsure  wrong and sure")
    measured = rows(confidences, right)
    for row in measured:
        sure, wrong = int(row["sure"]), int(row["wrong_and_sure"])
        rate = 1 - wrong / sure if sure else 1.0
        print(f"{row['threshold']:9.2f}  {rate * 100:14.2f}%  {int(row['unsure']) / max(len(right), 1) * 100:5.1f}%  {wrong:14d}")
    return measured, lowest_line(measured)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: the committed models/)")
    parser.add_argument("--scenes", type=int, default=SCENES, help=f"rendered scenes (default {SCENES}; about 12 min on 2 cores)")
    parser.add_argument("--record", action="store_true", help=f"write the measurement as {RECORD_FILE} in the model folder")
    parser.add_argument("photos", nargs="*", type=Path, help="labelled photo folders, shown for information")
    parser.add_argument("--split", nargs=2, metavar=("CSV", "NAME"), help="only the photos of this split")
    args = parser.parse_args(argv)
    reader = OnnxDiceReader(args.model)
    rendered = (render(scene) for scene in sample_scenes(args.scenes, CHOICE_SEED))
    measured, chosen = table(f"rendered settled rolls (seed {CHOICE_SEED}, {args.scenes} scenes)", *matched_confidences(reader, rendered))
    for folder in args.photos:
        items = load_dataset(folder, Path(args.split[0]), args.split[1]) if args.split else load_dataset(folder)
        table(f"{folder} (information only)", *matched_confidences(reader, ((item.load(), item.labels) for item in items)))
    print(f"\nmodel's line: {reader.unsure_below}; lowest line with >= {TARGET * 100:.1f}% right when sure on the rendered rolls: {chosen}")
    if args.record:
        folder = args.model or default_model_dir()
        manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
        record = {
            "models": {key: manifest[key]["sha256"] for key in ("finder", "pips")},
            "seed": CHOICE_SEED,
            "scenes": args.scenes,
            "target": TARGET,
            "rows": measured,
            "chosen": chosen,
        }
        (folder / RECORD_FILE).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"recorded in {folder / RECORD_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
