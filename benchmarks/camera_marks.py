"""How well the camera tells the dice's marks in whole games on the demo table: per variant and
seed, the rolls settled whose marks were right with nothing asked, asked about (the roll not
taken, thrown again), or wrong with nothing asked.

    python benchmarks/camera_marks.py [--variants wild-die,spicy] [--seeds 1,2,3] [--size 640x480] [--target N] [--json FILE]

Each game is Ann and Bob under retail with the variant (``wild-die``, ``spicy``), played from the
demo table by the table session with no window (``watch demo --game``); the table learns the
dice's colours from the demo's first throws of all six dice (their labels play the players' taps),
the faces are read from the labels (the dice reader is not what is measured), and the demo's
labels are the truth the marks are checked against. No timings.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scorekeeper.testbed.marked_games import play_marked_demo  # noqa: E402

VARIANTS = ("wild-die", "spicy")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default=",".join(VARIANTS), help="the variants, comma-separated (default wild-die,spicy)")
    parser.add_argument("--seeds", default="1,2,3", help="demo table seeds, comma-separated (default 1,2,3)")
    parser.add_argument("--size", default="640x480", help="the demo table's frame size (default 640x480)")
    parser.add_argument("--target", type=int, help="play to this score (default: the rules' own)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the tallies as JSON")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    rows = []
    for variant in args.variants.split(","):
        total = [0, 0, 0]
        for seed in (int(s) for s in args.seeds.split(",")):
            with tempfile.TemporaryDirectory() as home:
                game, tally, _, throws = play_marked_demo(variant, seed, Path(home), target=args.target, size=(width, height))
            over = "game over" if game.state.over else "game not finished"
            print(f"{variant} seed {seed}: taught from {throws} throw{'' if throws == 1 else 's'}; {tally.line()} ({over})", flush=True)
            for roll in tally.wrong_rolls:
                print(f"    wrong: {roll}")
            rows.append({"variant": variant, "seed": seed, "teaching_throws": throws, "right": tally.right, "asked": tally.asked, "wrong": tally.wrong, "over": game.state.over})
            total = [total[0] + tally.right, total[1] + tally.asked, total[2] + tally.wrong]
        rolls = sum(total)
        print(
            f"{variant}: {rolls} rolls: {total[0]} right with nothing asked ({100 * total[0] / max(rolls, 1):.1f}%), "
            f"{total[1]} asked ({100 * total[1] / max(rolls, 1):.1f}%), {total[2]} wrong with nothing asked",
            flush=True,
        )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
