"""Leave one source out: the training recipe run without one real photo source, scored on that
source's held-out split, as the closest the project can see to a table the reader has never met.

    python benchmarks/leave_one_out.py SOURCE [--data DIR] [--out DIR] [--model DIR] [--quick]

SOURCE is a folder name under ``--data`` (default ``../shared/data``): the recipe trains on every
other folder there (``scorekeeper train``'s committed recipe, needs the train extra) into ``--out``,
then reads SOURCE's test split blind and told each photo's count, per group where its split file
has one. ``--model`` scores a model already trained without SOURCE instead of training one.
``--quick`` is a smoke run of a few minutes (not a number to report).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.evaluation.assessment import table_outcomes
from scorekeeper.vision.reader import open_reader

REPO = Path(__file__).resolve().parent.parent


def _report(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("source", help="the photo folder's name under --data to leave out")
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="the folder of labelled photo sources")
    parser.add_argument("--out", type=Path, help="where the model trained without SOURCE goes (default: a temporary folder)")
    parser.add_argument("--model", type=Path, help="score this model (trained without SOURCE) instead of training one")
    parser.add_argument("--quick", action="store_true", help="a smoke run of a few minutes, not a number to report")
    args = parser.parse_args(argv)
    left_out = args.data / args.source
    if not (left_out / "images").is_dir():
        print(f"leave_one_out: {left_out} is not a labelled photo folder (no images/ in it)", file=sys.stderr)
        return 2
    others = sorted(folder for folder in args.data.iterdir() if (folder / "images").is_dir() and folder != left_out)
    model = args.model
    if model is None:
        from scorekeeper.training.train import TrainConfig, quick, run_training

        model = args.out or Path(tempfile.mkdtemp(prefix=f"without-{args.source}-"))
        config = quick(TrainConfig()) if args.quick else TrainConfig()
        _report(f"training without {args.source} on {', '.join(folder.name for folder in others)} into {model}")
        seconds = run_training(config, others, model, _report).seconds
        _report(f"trained in {seconds / 60:.1f} min")
    reader = open_reader(model)
    blind, counted = table_outcomes(reader, left_out, "test" if (left_out / "split.csv").exists() else None)
    print(f"{args.source} left out (model {model}): right, nothing asked / asked / wrong, nothing asked")
    for group in sorted(blind):
        b, c = blind[group], counted[group]
        print(
            f"  {group or 'all':<18} {b.images:4d} photos  blind {b.right_unasked_share:6.1%} {b.asked_share:6.1%} {b.wrong_unasked_share:5.1%}"
            f"   told the count {c.right_unasked_share:6.1%} {c.asked_share:6.1%} {c.wrong_unasked_share:5.1%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
