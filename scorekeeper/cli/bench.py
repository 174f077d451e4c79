"""``scorekeeper bench``: the dice reader's median latency at 640x480 and 1280x720, side by side with
the classical OpenCV reader (contours + blob counting), and both readers' accuracy on the same data:
rendered scenes, and the byler test photos where ``../shared/data/byler_d6`` is beside the checkout
(or ``--data`` names a labelled folder)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorekeeper.evaluation.score import Score

REPO = Path(__file__).resolve().parents[2]
BYLER = REPO.parent / "shared" / "data" / "byler_d6"


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "bench",
        help="latency and accuracy of the dice reader next to a classical OpenCV reader",
        description=__doc__,
    )
    parser.add_argument("--runs", type=int, default=100, metavar="N", help="timed reads per frame size (default 100)")
    parser.add_argument("--model", type=Path, metavar="PATH", help="a model folder instead of the committed one")
    parser.add_argument("--data", type=Path, metavar="DATASET", help="a labelled folder to measure accuracy on (default: byler_d6 test split if present)")
    parser.add_argument("--split", nargs=2, metavar=("CSV", "NAME"), help="only this split of --data")
    parser.add_argument("--scenes", type=int, default=100, metavar="N", help="rendered scenes for accuracy (default 100)")
    parser.add_argument("--threads", type=int, default=2, help="threads for both readers (default 2, as on the target laptop)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from scorekeeper.evaluation.assessment import BUSY_MACHINE, latency_frames, machine_name, measure_latency, score_dataset
    from scorekeeper.evaluation.classical import ClassicalDiceReader
    from scorekeeper.evaluation.dataset import LabelledImage, load_dataset, with_label_fixes
    from scorekeeper.vision.detections import DiceReader
    from scorekeeper.evaluation.score import Score
    from scorekeeper.vision.reader import ReaderError, open_reader
    from scorekeeper.synthetic.render import render
    from scorekeeper.synthetic.scene import at_rest, random_scene

    if args.runs < 1 or args.scenes < 0:
        print("scorekeeper bench: --runs must be at least 1 and --scenes at least 0", file=sys.stderr)
        return 2
    cv2.setNumThreads(args.threads)
    try:
        onnx = open_reader(args.model, threads=args.threads)
        items: list[LabelledImage] = []
        data_name = ""
        if args.data is not None:
            items = load_dataset(args.data, Path(args.split[0]), args.split[1]) if args.split else load_dataset(args.data)
            data_name = f"{args.data.name}" + (f" {args.split[1]}" if args.split else "")
        elif (BYLER / "split.csv").exists():
            items = load_dataset(BYLER, split="test")
            data_name = "byler_d6 test"
        if items:
            items, fixes = with_label_fixes(items, args.data or BYLER)
            data_name += ", reviewed labels" if fixes else ""
    except (ValueError, ReaderError) as exc:
        print(f"scorekeeper bench: {exc}", file=sys.stderr)
        return 2
    readers: dict[str, DiceReader] = {"onnx two-stage (this)": onnx, "classical OpenCV": ClassicalDiceReader()}
    rng = np.random.default_rng(31_337)
    scenes = [render(at_rest(random_scene(rng))) for _ in range(args.scenes)]
    sizes = ((640, 480), (1280, 720))
    frames = {size: latency_frames(*size) for size in sizes}
    rows = []
    elsewhere: list[float] = []
    for name, reader in readers.items():
        measured = [measure_latency(reader.read, frames[size], args.runs) for size in sizes]
        latency = [run.median_s * 1000 for run in measured]
        elsewhere += [run.busy_elsewhere for run in measured if run.busy_elsewhere is not None]
        rendered = Score()
        for image, labels in scenes:
            rendered.add(labels, reader.read(image), size=(image.shape[1], image.shape[0]))
        real = score_dataset(reader, items) if items else None
        rows.append((name, latency, rendered, real))
    print(f"on {machine_name()}: median of {args.runs} reads per size, {args.threads} threads; accuracy: roll exact / per-die right (found and read right) / precision")
    header = f"{'reader':24} {'640x480':>9} {'1280x720':>9}   {'rendered (' + str(args.scenes) + ')':>24}"
    if items:
        header += f"   {data_name + ' (' + str(len(items)) + ')':>24}"
    print(header)
    for name, latency, rendered, real in rows:
        line = f"{name:24} {latency[0]:7.1f}ms {latency[1]:7.1f}ms   {_acc(rendered):>24}"
        if real is not None:
            line += f"   {_acc(real):>24}"
        print(line)
    if elsewhere:
        busy = max(elsewhere)
        print(f"other processes kept up to {busy:.0%} of the {os.cpu_count()} CPUs busy while timing" + ("; the machine was busy, so these times are slower than idle" if busy > BUSY_MACHINE else ""))
    return 0


def _acc(score: Score) -> str:
    per_die = score.right / score.labelled if score.labelled else 1.0
    return f"{score.roll_exact:6.1%} / {per_die:6.1%} / {score.precision:6.1%}"
