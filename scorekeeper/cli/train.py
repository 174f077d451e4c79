"""``scorekeeper train [FOLDER...]``: train the dice reader's models from scratch, choose their unsure
line and write the model card; ``--choose-unsure-line`` chooses the line alone on existing models.

A folder is either labelled photos (images/, labels/, split.csv) or the corrections the window kept
from players' taps (corrections.jsonl). Needs the ``train`` extra (torch); everything else in
scorekeeper runs without it.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "train",
        help="train the dice reader's models (needs the train extra)",
        description=(
            "Render synthetic scenes, add the train split of labelled photo folders (YOLO labels, "
            "class = pips - 1, split.csv), train the dice finder and the pip reader from scratch with a "
            "fixed seed, export both to ONNX, choose their unsure line on rendered rolls (unsure_line.json) and write "
            "the model card (models/README.md). Corrections "
            "folders that the window kept from players' taps (corrections.jsonl; the window's is "
            "~/.local/share/scorekeeper/corrections) teach the pip reader their dice too."
        ),
    )
    parser.add_argument(
        "photos", nargs="*", type=Path, metavar="FOLDER",
        help="labelled photo folders (images/, labels/, split.csv) or corrections folders (corrections.jsonl)",
    )
    parser.add_argument("--out", type=Path, default=REPO / "models", help="model folder to write (default: models/)")
    parser.add_argument("--samples", type=Path, default=REPO / "sample_images", help="rendered sample images to measure in the card")
    parser.add_argument(
        "--unseen",
        nargs="+",
        type=Path,
        default=[],
        metavar="FOLDER",
        help="labelled photo folders not to train on, measured in the card as tables the reader never met",
    )
    parser.add_argument("--card-only", action="store_true", help="only measure the models in --out and rewrite the card")
    parser.add_argument(
        "--choose-unsure-line", action="store_true",
        help=(
            "only choose the unsure line of the models in --out on rendered rolls and write it there as "
            "unsure_line.json (from the ONNX files: no train extra needed; the card quotes it once rewritten with --card-only)"
        ),
    )
    parser.add_argument("--quick", action="store_true", help="a few minutes' smoke run (not the committed model)")
    parser.add_argument(
        "--device", choices=("cpu", "cuda"), default="cpu",
        help="where the networks train: cpu (the recipe) or cuda on a machine with an accelerator (recorded in the manifest)",
    )
    parser.add_argument(
        "--workers", type=_count, default=None, metavar="N",
        help="processes that render scenes and make batches (default: 2 renderers, batches made between steps)",
    )
    parser.add_argument(
        "--threads", type=_count, default=None, metavar="N",
        help="torch threads of the training process, onnxruntime's while the unsure line is chosen (default 2, the recipe's; 1 where other work shares the cores)",
    )
    parser.add_argument(
        "--checkpoint", type=Path, default=None, metavar="DIR",
        help=(
            "keep the training's checkpoint in DIR and go on from the one there: the same command, run again, "
            "trains on where the last stopped (the recipe and data must be the same)"
        ),
    )
    parser.add_argument(
        "--sitting", type=_minutes, default=None, metavar="MINUTES",
        help="with --checkpoint: stop at the first checkpoint after MINUTES of training, to go on in the next sitting",
    )
    parser.add_argument(
        "--no-card", action="store_true",
        help="train only; write the card later with --card-only on the machine it should describe (its speeds are that machine's)",
    )
    parser.set_defaults(run=run)


def _count(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of processes (1 or more)")
    return int(text)


def _minutes(text: str) -> float:
    try:
        minutes = float(text)
    except ValueError:
        minutes = -1.0
    if not 0 < minutes < 10_000:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of minutes (more than 0)")
    return minutes


def _report(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from scorekeeper.vision.corrections import INDEX

    if args.choose_unsure_line:
        return _choose_unsure_line(args)

    photos, corrections = [], []
    for folder in map(Path, args.photos):
        if (folder / "images").is_dir():
            photos.append(folder)
        elif (folder / INDEX).is_file():
            corrections.append(folder)
        else:
            print(
                f"scorekeeper train: {folder} is neither a labelled photo folder (images/ and labels/ in it) "
                f"nor a corrections folder ({INDEX} in it)",
                file=sys.stderr,
            )
            return 2
    not_photos = [str(folder) for folder in args.unseen if not (folder / "images").is_dir()]
    if not_photos:
        print(f"scorekeeper train: --unseen takes labelled photo folders (images/ and labels/ in them); not one: {', '.join(not_photos)}", file=sys.stderr)
        return 2
    from scorekeeper.training.card import write_card

    command = "scorekeeper train " + " ".join(shlex.quote(str(p)) for p in args.photos)
    if args.unseen:
        command += " --unseen " + " ".join(shlex.quote(str(p)) for p in args.unseen)
    if args.sitting is not None and args.checkpoint is None:
        print("scorekeeper train: --sitting stops a training to go on later, which needs --checkpoint DIR to keep it in", file=sys.stderr)
        return 2
    if not args.card_only:
        try:
            from scorekeeper.training.checkpoint import CheckpointError
            from scorekeeper.training.train import TrainConfig, can_train_on, quick, run_training
        except ImportError as exc:
            print(f"scorekeeper train: needs the train extra ({exc.name} is missing): pip install '.[train]'", file=sys.stderr)
            return 2
        if not can_train_on(args.device):
            print("scorekeeper train: --device cuda, but torch sees no CUDA device here: train with --device cpu (the default)", file=sys.stderr)
            return 2
        config = TrainConfig(device=args.device)
        if args.workers:
            config = replace(config, workers=args.workers, prep_workers=args.workers)
        if args.threads:
            config = replace(config, threads=args.threads)
        if args.quick:
            config = quick(config)
        try:
            progress = run_training(config, photos, args.out, _report, corrections, args.checkpoint, args.sitting)
        except CheckpointError as exc:
            print(f"scorekeeper train: {exc}", file=sys.stderr)
            return 2
        if progress.stopped_at is not None:
            return 0
    if args.no_card:
        _report(f"models written to {args.out}; no card written (--no-card)")
        return 0
    write_card(args.out, photos, args.samples, command, _report, corrections, args.unseen)
    _report(f"model card written to {args.out / 'README.md'}")
    return 0


def _choose_unsure_line(args: argparse.Namespace) -> int:
    """``--choose-unsure-line``: the training step that chooses the line, alone on the models in ``--out``."""
    from scorekeeper.training.unsure_line import QUICK_SCENES, SCENES, choose_unsure_line
    from scorekeeper.vision.reader import UNSURE_LINE_FILE, ModelError

    if args.photos or args.unseen or args.card_only:
        print("scorekeeper train: --choose-unsure-line works on the models in --out alone: give it no FOLDER, --unseen or --card-only", file=sys.stderr)
        return 2
    try:
        choose_unsure_line(args.out, QUICK_SCENES if args.quick else SCENES, args.threads or 2, _report)
    except ModelError as exc:
        print(f"scorekeeper train: {exc}", file=sys.stderr)
        return 2
    _report(f"unsure line written to {args.out / UNSURE_LINE_FILE}")
    return 0
