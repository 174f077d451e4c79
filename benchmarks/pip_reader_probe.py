"""The pip reader alone, at the labelled boxes of each source's test split: the share of dice read
right, the share read sure (at or over the line), and the share read wrong yet sure; then the same
with a table head fitted on the dice of that source's train split (what learning can give with a
whole source's confirmed dice). The finder and the decision step play no part, so a reader that
reads the dice right but unsurely is told apart from one that reads them wrong.

    python benchmarks/pip_reader_probe.py [--data DIR] [--model DIR] [--line 0.85]

Reads ``byler_d6``, ``dice3`` and ``rune55`` from ``--data`` (default ``../shared/data``) with the
project's reviewed labels; ``--model`` measures a model folder training wrote in place of the
committed models. Not a timing.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.dataset import LabelledImage, load_dataset, with_label_fixes
from scorekeeper.vision.reader import ModelError, OnnxDiceReader, open_reader
from scorekeeper.vision.table_head import fit_head

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("byler_d6", "dice3", "rune55")


def dice_at_labels(reader: OnnxDiceReader, items: list[LabelledImage]) -> tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.int64]]:
    """The pip reader's per-view probabilities (views, n, 7) and embeddings (views, n, d) at every
    labelled die's box, with the labelled values (n,)."""
    probs, embeddings, values = [], [], []
    for item in items:
        if len(item.labels):
            finds = reader.finds_at(item.load(), item.labels.boxes)
            probs.append(finds.probs)
            embeddings.append(finds.embeddings)
            values.append(item.labels.values)
    return np.concatenate(probs, 1), np.concatenate(embeddings, 1), np.concatenate(values)


def outcome(probs: NDArray[np.float32], values: NDArray[np.int64], line: float) -> str:
    """Right / sure / wrong and sure (% of the dice) of (n, 7) probabilities, a die read as its
    likeliest value of 1-6 and sure where that value's probability is at least ``line``."""
    read = probs[:, 1:].argmax(1) + 1
    sure = probs[np.arange(len(read)), read] >= line
    right = read == values
    return f"{100 * right.mean():5.1f} / {100 * sure.mean():5.1f} / {100 * (sure & ~right).mean():4.2f}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="the folder of labelled photo sources")
    parser.add_argument("--model", type=Path, metavar="DIR", help="a model folder training wrote, in place of the committed models")
    parser.add_argument("--line", type=float, default=0.85, help="the probability a die must reach to be sure (default 0.85)")
    args = parser.parse_args(argv)
    missing = [source for source in SOURCES if not (args.data / source / "split.csv").is_file()]
    if missing:
        print(f"pip_reader_probe: {', '.join(missing)} not found under {args.data}", file=sys.stderr)
        return 2
    try:
        reader = open_reader(args.model, threads=2, unsure_below=args.line)
    except ModelError as exc:
        print(f"pip_reader_probe: {exc}", file=sys.stderr)
        return 2
    print(f"dice at their labelled boxes, right / sure / wrong and sure (%), line {args.line}")
    print("| source | test dice (train dice) | the pip reader alone | with a head fitted on the train split |")
    print("|---|---|---|---|")
    for source in SOURCES:
        folder = args.data / source
        train_probs, train_embeddings, train_values = dice_at_labels(reader, with_label_fixes(load_dataset(folder, split="train"), folder)[0])
        probs, embeddings, values = dice_at_labels(reader, with_label_fixes(load_dataset(folder, split="test"), folder)[0])
        head = fit_head(train_embeddings.transpose(1, 0, 2), train_values)
        print(
            f"| {source} | {len(values)} ({len(train_values)}) | {outcome(probs.mean(0), values, args.line)} "
            f"| {outcome(head.adjust(probs, embeddings), values, args.line)} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
