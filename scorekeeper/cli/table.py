"""``scorekeeper table [PROFILE] [--forget] [--json]``: what a table has taught the reader.

The table learned beside a calibration profile (``PROFILE.table.npz``; by default the window's,
``last-calibration.toml`` in the scorekeeper home): how many dice of each value the players
confirmed or corrected there, and whether the reader reads with it now (the safety rule).
``--forget`` deletes it, and the dice's colours the table learned (``PROFILE.colours.npz``: the
wild die, red pips): the reader then reads that table cold and learns it again.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "table",
        help="what a table has taught the dice reader, or forget it",
        description="Show what the table of a calibration profile has taught the dice reader, or forget it.",
    )
    parser.add_argument(
        "profile", nargs="?", type=Path, metavar="PROFILE",
        help="the calibration profile (or its .table.npz file); default: the window's last-calibration.toml in the scorekeeper home",
    )
    parser.add_argument("--forget", action="store_true", help="delete what the table learned (its dice and their colours)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--model", type=Path, metavar="PATH", help="a model folder (with manifest.json) instead of the committed one")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scorekeeper.game.games_folder import default_home
    from scorekeeper.camera.calibration import LAST_PROFILE
    from scorekeeper.vision.reader import ModelError, open_reader
    from scorekeeper.vision.table_head import MIN_JUDGED
    from scorekeeper.vision.die_colours import SUFFIX as COLOURS_SUFFIX
    from scorekeeper.vision.table_memory import SUFFIX, TableFileError, TableMemory, table_file_for

    profile = args.profile if args.profile is not None else default_home() / LAST_PROFILE
    path = profile if profile.name.endswith(SUFFIX) else table_file_for(profile)
    if args.forget:
        colours = path.with_name(path.name[: -len(SUFFIX)] + COLOURS_SUFFIX)
        if colours.is_file():
            colours.unlink()
            print(f"Forgot the dice's colours the table learned ({colours} deleted): teach the wild die and red pips again in the teaching step.")
            if not path.exists():
                return 0
        if not path.exists():
            print(f"scorekeeper table: {path} holds nothing to forget", file=sys.stderr)
            return 0
        if not path.is_file():
            print(f"scorekeeper table: {path} is not a table file; nothing was deleted", file=sys.stderr)
            return 2
        path.unlink()
        print(f"Forgot what the table learned ({path} deleted): the reader reads it cold and learns it again from the next rolls confirmed.")
        return 0
    if not os.path.lexists(path):
        record: dict[str, Any] = {"table": str(path), "dice": 0, "rolls": 0, "counts": {}, "in_use": False}
        print(json.dumps(record) if args.json else f"{path}: nothing learned yet (each roll the players confirm at this table teaches it)")
        return 0
    try:
        reader = open_reader(args.model, threads=1)
        memory = TableMemory.load(path, reader)
        learned = memory.head()
    except (ModelError, TableFileError) as exc:
        print(f"scorekeeper table: {exc}", file=sys.stderr)
        return 2
    verdict = learned.verdict
    record = {
        "table": str(path),
        "dice": len(memory),
        "rolls": memory.confirmed,
        "counts": {("not a die" if value == 0 else str(value)): count for value, count in memory.counts().items()},
        "in_use": learned.in_use is not None,
        "held_out": None if verdict is None else {
            "rolls": verdict.rolls, "right_with_it": verdict.head_right, "right_by_the_model": verdict.model_right,
            "wrong_with_it": verdict.head_wrong, "wrong_by_the_model": verdict.model_wrong,
            "asked_with_it": verdict.head_asked, "asked_by_the_model": verdict.model_asked,
            "unsure_below": round(verdict.unsure_below, 4), "model_unsure_below": round(verdict.model_unsure_below, 4),
        },
    }
    if args.json:
        print(json.dumps(record))
        return 0
    counts = ", ".join(f"{name}: {count}" for name, count in record["counts"].items())
    print(f"{path}: {len(memory)} dice learned from {memory.confirmed} rolls ({counts})")
    if verdict is None:
        print(f"  the reader reads alone until the table has confirmed {MIN_JUDGED} rolls")
    else:
        if learned.in_use is not None:
            how = "reads with what it learned"
        elif verdict.model_right == verdict.rolls:
            how = "reads alone (the model alone reads every held-out roll right with nothing asked)"
        else:
            how = "reads alone (what it learned does not read them better in every respect)"
        print(f"  {verdict.in_words()}; the reader {how}")
    return 0
