"""The reader's unsure line and its trade-off: per candidate line, the share of sure dice read right
and the dice marked unsure, on the rendered rolls training chose the line on (read from the model
folder's ``unsure_line.json``), beside the same on labelled photos.

    python benchmarks/unsure_threshold.py [--model DIR] [PHOTOS --split CSV NAME]

The line is chosen by training (``scorekeeper train``, or ``scorekeeper train --choose-unsure-line``
on existing models: ``scorekeeper.training.unsure_line``). Labelled photos are shown for information
only: choosing the line on a test split would flatter it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from scorekeeper.evaluation.dataset import load_dataset
from scorekeeper.training.unsure_line import CANDIDATES, LineRow, count_at, lowest_line, read_unsure_line, readings
from scorekeeper.vision.reader import default_model_dir, open_reader


def table(name: str, rows: Sequence[LineRow]) -> None:
    """Print the trade-off of each candidate line."""
    print(f"\n{name}")
    print("     line  right when sure  unsure  wrong and sure")
    for row in rows:
        print(f"{row.line:9.2f}  {row.right_when_sure * 100:14.2f}%  {row.unsure / max(row.sure + row.unsure, 1) * 100:5.1f}%  {row.wrong_and_sure:14d}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: the committed models/)")
    parser.add_argument("photos", nargs="*", type=Path, help="labelled photo folders, shown for information")
    parser.add_argument("--split", nargs=2, metavar=("CSV", "NAME"), help="only the photos of this split")
    args = parser.parse_args(argv)
    folder = args.model or default_model_dir()
    chosen = read_unsure_line(folder)
    table(f"rendered settled rolls the line was chosen on (seed {chosen.seed}, {chosen.scenes} scenes)", chosen.rows)
    reader = open_reader(folder, unsure_below=chosen.line)
    for photos in args.photos:
        items = load_dataset(photos, Path(args.split[0]), args.split[1]) if args.split else load_dataset(photos)
        rows = count_at(CANDIDATES, readings(reader, ((item.load(), item.labels) for item in items)))
        met = lowest_line(rows, chosen.target)
        table(f"{photos} (information only; lowest line with >= {chosen.target:.1%} right when sure: {met.line if met else None})", rows)
    print(f"\nthe models' line: {chosen.line} (chosen by training, {'meeting' if chosen.met_target else 'short of'} {chosen.target:.1%} right when sure)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
