"""``scorekeeper evaluate DATASET [--split CSV NAME] [--dice]``: how well the dice reader reads a labelled folder.

Prints the outcome per photo at the table (read right with nothing asked, asked for a tap, read
wrong with nothing asked), per group too where the split file has a ``group`` column, then recall and precision of dice found, value accuracy of found dice, roll-exact accuracy (the
share of images whose sorted values equal the labels': what scoring needs), how often dice are
marked unsure and how often sure ones are right, and the confusion of values. A data set the
project has reviewed labels for (``scorekeeper/evaluation/label_fixes/NAME.csv``) is scored against
them, and says so; ``--as-labelled`` scores the labels as given.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "evaluate",
        help="measure the dice reader on a labelled photo folder",
        description="Measure the dice reader on a folder of labelled photos (images/, labels/ in YOLO format, class = pips - 1).",
    )
    parser.add_argument("dataset", type=Path, metavar="DATASET", help="the folder (holding images/ and labels/)")
    parser.add_argument("--split", nargs=2, metavar=("CSV", "NAME"), help="only the images of split NAME in CSV (stem,split)")
    parser.add_argument("--model", type=Path, metavar="PATH", help="a model folder (with manifest.json) instead of the committed one")
    parser.add_argument("--json", action="store_true", help="print the metrics as one JSON object")
    parser.add_argument(
        "--as-labelled", action="store_true", help="score the labels as given, without the project's reviewed fixes for this data set"
    )
    parser.add_argument(
        "--dice", action="store_true", help="tell the reader how many dice each photo holds (the labelled count), as a game does"
    )
    parser.add_argument("--failures", type=int, default=20, metavar="N", help="list at most N images not read exactly (default 20)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from scorekeeper.evaluation.assessment import groups_in, score_groups
    from scorekeeper.evaluation.dataset import LabelFix, describe_fixes, label_fixes_for, load_dataset, with_label_fixes
    from scorekeeper.vision.reader import OnnxDiceReader, ReaderError

    try:
        if args.split:
            items = load_dataset(args.dataset, Path(args.split[0]), args.split[1])
        else:
            items = load_dataset(args.dataset)
        fixes: list[LabelFix] = []
        fixes_file = label_fixes_for(args.dataset)
        if not args.as_labelled:
            items, fixes = with_label_fixes(items, args.dataset)
        reader = OnnxDiceReader(args.model)
        split_file = Path(args.split[0]) if args.split else args.dataset / "split.csv"
        group_of = groups_in(split_file)
        scores = score_groups(reader, items, group_of, counted=args.dice)
        score = scores.pop("")
    except (ValueError, ReaderError) as exc:  # DatasetError and ModelError are ValueErrors
        print(f"scorekeeper evaluate: {exc}", file=sys.stderr)
        return 2
    if not items:
        print(f"scorekeeper evaluate: no labelled images in {args.dataset}", file=sys.stderr)
        return 2
    if args.json:
        fixed = {"label_fixes": str(fixes_file), "labels_fixed": len(fixes)} if fixes else {}
        groups = {"groups": {name: group.to_json() for name, group in sorted(scores.items())}} if scores else {}
        print(json.dumps({"dataset": str(args.dataset), "dice_told": args.dice, **fixed, **score.to_json(), **groups, "failures": score.failures}))
        return 0
    how = ", the reader told how many dice each photo holds" if args.dice else ", read blind"
    print(f"{args.dataset}" + (f" (split {args.split[1]})" if args.split else "") + how)
    if fixes:
        print(
            f"labels as reviewed in {fixes_file}: {describe_fixes(fixes)} "
            "(each checked on the photo; --as-labelled scores the labels as given)"
        )
    print(score.report())
    if scores:
        print("per group:  photos   right, nothing asked   asked   wrong, nothing asked   wrong, no die unsure")
        for name, group in sorted(scores.items()):
            print(
                f"  {name:<18}{group.images:5d}   {group.right_unasked_share:20.1%}   {group.asked_share:5.1%}"
                f"   {group.wrong_unasked_share:20.1%}   {group.wrong_none_unsure_share:20.1%}"
            )
    if score.failures:
        print(f"not read exactly ({len(score.failures)}):")
        for line in score.failures[: args.failures]:
            print(f"  {line}")
    return 0
