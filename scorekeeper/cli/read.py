"""``scorekeeper read [--json] [--model PATH] [--dice N] IMAGE...``: the dice in photos.

With ``--json``, one line per image (a contract other tools read):
``{"image": PATH, "width": W, "height": H, "dice": [{"box": [x0, y0, x1, y1], "value": 1-6,
"confidence": C, "unsure": bool}], "roll": [sorted values]}`` (with ``--dice N`` also
``"dropped": [[x0, y0, x1, y1], ...]``, the finds left out as least likely to be dice), or ``{"image": PATH, "error": "..."}``
for an image that cannot be read; the others go on and the exit status is 1. ``--profile`` reads
with what that table has learned, where the safety rule lets it (a line on stderr says which), at
the die size the profile measured (or, where it has none, the size the table's rolls read best at).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from scorekeeper.terminal import visible
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.reader import MAX_DICE


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "read",
        help="read the dice in photos",
        description="Find every die in each photo and read its pips with the ONNX dice reader.",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per image, one per line")
    parser.add_argument("--model", type=Path, metavar="PATH", help="a model folder (with manifest.json) instead of the committed one")
    parser.add_argument(
        "--dice",
        type=_dice_count,
        metavar="N",
        help="how many dice are on the table: keep the N finds likeliest to be dice and report the rest as dropped (default: read blind)",
    )
    parser.add_argument(
        "--profile", type=Path, metavar="PROFILE",
        help="read with what the table of this calibration profile has learned (its PROFILE.table.npz beside it, or that file itself)",
    )
    parser.add_argument("images", nargs="+", type=Path, metavar="IMAGE", help="image files (PNG, JPEG, ...)")
    parser.set_defaults(run=run)


def _dice_count(text: str) -> int:
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--dice takes the number of dice on the table (0-{MAX_DICE}), got {text[:40]!r}") from None
    if not 0 <= count <= MAX_DICE:
        raise argparse.ArgumentTypeError(f"--dice takes the number of dice on the table (0-{MAX_DICE}), got {count}")
    return count


def _text(path: Path, width: int, height: int, found: Detections) -> str:
    dropped = len(found.dropped)
    left_out = f"; {dropped} more {'find' if dropped == 1 else 'finds'} dropped, least likely to be dice" if dropped else ""
    if not len(found):
        return f"{path}: no dice ({width}x{height}{left_out})"
    unsure = int(found.unsure.sum())
    note = (f", {unsure} unsure (tap to fix)" if unsure else "") + left_out
    lines = [f"{path}: {' '.join(str(v) for v in found.roll())}  ({len(found)} dice{note})"]
    for die in found.to_json():
        x0, y0, x1, y1 = die["box"]
        flag = "  unsure" if die["unsure"] else ""
        lines.append(f"  {die['value']} at ({x0:.0f}, {y0:.0f})-({x1:.0f}, {y1:.0f}), confidence {die['confidence']:.2f}{flag}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from scorekeeper.camera.calibration import CalibrationError, CalibrationProfile, load_profile
    from scorekeeper.vision.images import load_frame
    from scorekeeper.vision.reader import ModelError, ReaderError, open_reader
    from scorekeeper.vision.table_memory import SUFFIX, TableFileError, learned_reader

    calibration: CalibrationProfile | None = None
    try:
        reader = open_reader(args.model)
        if args.profile is not None:
            note = learned_reader(reader, args.profile)
            print(visible(f"scorekeeper read: {note}"), file=sys.stderr)
            if not args.profile.name.endswith(SUFFIX) and args.profile.exists():
                calibration = load_profile(args.profile)
    except (ModelError, TableFileError, CalibrationError) as exc:
        print(visible(f"scorekeeper read: {exc}"), file=sys.stderr)
        return 2
    failed = 0
    for path in args.images:
        try:
            frame = load_frame(path)
            if calibration is not None and calibration.die_size > 0:
                reader.die_size = calibration.die_size_at(frame.shape[1])
            found = reader.read(frame, args.dice)
        except (ValueError, ReaderError, MemoryError) as exc:  # ImageError is a ValueError
            failed += 1
            message = str(exc) if not isinstance(exc, MemoryError) else "not enough memory to decode this image"
            if args.json:
                print(json.dumps({"image": str(path), "error": message}), flush=True)
            else:
                print(visible(f"scorekeeper read: {path}: {message}"), file=sys.stderr)
            continue
        height, width = frame.shape[:2]
        if args.json:
            record: dict[str, Any] = {"image": str(path), "width": width, "height": height, "dice": found.to_json(), "roll": found.roll()}
            if args.dice is not None:
                record["dropped"] = [[round(float(v), 1) for v in box] for box in found.dropped]
            print(json.dumps(record), flush=True)
        else:
            print(visible(_text(path, width, height, found)), flush=True)
    return 1 if failed else 0
