"""``scorekeeper evaluate DATASET [--split CSV NAME] [--dice]``: how well the dice reader reads a labelled folder.

Prints the outcome per photo at the table (read right with nothing asked, asked for a tap, read
wrong with nothing asked; a die cut by the photo's edge is asked about, as the game asks), per group too where the split file has a ``group`` column, then recall and precision of dice found, value accuracy of found dice, roll-exact accuracy (the
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
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from scorekeeper.evaluation.dataset import LabelledImage
    from scorekeeper.vision.reader import OnnxDiceReader


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
    parser.add_argument(
        "--learn", type=_count, metavar="K",
        help="the table learns: in each seeded order of each table's photos (each group where the split file names groups), "
        "the first K teach it as confirmed rolls and the rest are scored (0: the cold read)",
    )
    parser.add_argument("--seeds", type=_count, default=5, metavar="N", help="orders of the photos with --learn (default 5)")
    parser.set_defaults(run=run)


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is below 0")
    return value


def run(args: argparse.Namespace) -> int:
    from scorekeeper.evaluation.assessment import groups_in, score_groups
    from scorekeeper.evaluation.dataset import IMAGE_SUFFIXES, LabelFix, describe_fixes, label_fixes_for, load_dataset, with_label_fixes
    from scorekeeper.vision.reader import ReaderError, open_reader

    if args.learn is not None and args.seeds < 1:
        print("scorekeeper evaluate: --seeds must be at least 1", file=sys.stderr)
        return 2
    try:
        if args.split:
            items = load_dataset(args.dataset, Path(args.split[0]), args.split[1])
        else:
            items = load_dataset(args.dataset)
        fixes: list[LabelFix] = []
        fixes_file = label_fixes_for(args.dataset)
        if not args.as_labelled:
            items, fixes = with_label_fixes(items, args.dataset)
        reader = open_reader(args.model)
        split_file = Path(args.split[0]) if args.split else args.dataset / "split.csv"
        group_of = groups_in(split_file)
        if items and args.learn is not None:
            return run_learning(args, reader, items, group_of)
        scores = score_groups(reader, items, group_of, counted=args.dice)
        score = scores.pop("")
    except (ValueError, ReaderError) as exc:  # DatasetError and ModelError are ValueErrors
        print(f"scorekeeper evaluate: {exc}", file=sys.stderr)
        return 2
    if not items:
        print(
            f"scorekeeper evaluate: no labelled images in {args.dataset}: {args.dataset / 'images'} holds no photos "
            f"({', '.join(IMAGE_SUFFIXES)}); put the photos there and their labels in labels/",
            file=sys.stderr,
        )
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


def run_learning(args: argparse.Namespace, reader: OnnxDiceReader, items: list[LabelledImage], group_of: dict[str, str]) -> int:
    """``--learn K``: each table taught by its first K photos in each of ``--seeds`` orders."""
    from scorekeeper.evaluation.learning import TablePhotos, learn_and_score, tables_of

    if args.learn and not reader.can_learn:
        print(f"scorekeeper evaluate: the pip reader in {reader.files.pips} gives no embedding, so a table cannot learn with it", file=sys.stderr)
        return 2
    results = {}
    for name, photos in sorted(tables_of(items, group_of).items()):
        if args.learn >= len(photos):
            print(f"scorekeeper evaluate: table {name or args.dataset.name!r} has {len(photos)} photos; --learn {args.learn} leaves none to score", file=sys.stderr)
            return 2
        results[name] = learn_and_score(reader, TablePhotos(reader, photos, args.dice), args.learn, args.seeds)
    if args.json:
        whole = results.pop("", None)
        body = whole.to_json() if whole is not None else {}
        groups = {"groups": {name: result.to_json() for name, result in results.items()}} if results else {}
        print(json.dumps({"dataset": str(args.dataset), "dice_told": args.dice, **body, **groups}))
        return 0
    how = "told how many dice each photo holds" if args.dice else "read blind"
    print(f"{args.dataset}: the first {args.learn} photos of each table teach it, the rest are scored; mean of {args.seeds} orders, {how}")
    print("table                 photos   right, nothing asked   asked   wrong, nothing asked   learned head used")
    for name, result in sorted(results.items()):
        scored = result.seeds[0].images if result.seeds else 0
        print(
            f"  {name or args.dataset.name:<20}{scored:5d}   {result.mean('right_unasked_share'):20.1%}   {result.mean('asked_share'):5.1%}"
            f"   {result.mean('wrong_unasked_share'):20.1%}   {result.head_used} of {len(result.seeds)} orders"
        )
    print("photos asked about, all orders together, and why (a photo may be asked about for more than one reason):")
    for name, result in sorted(results.items()):
        why = result.asked_why()
        print(
            f"  {name or args.dataset.name:<20}{sum(score.asked for score in result.seeds):5d} asked: {why['count']} another number of dice found, "
            f"{why['under_line']} a die under the line, {why['cut_by_edge']} a die cut by the frame's edge, {why['head_held_back']} a die the learned head held back"
        )
    return 0
