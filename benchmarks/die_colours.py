"""How well the die colours judge (vision/die_colours.py) tells the wild die and red pips, taught
from one roll as the teaching step teaches it: right with nothing asked / wrong with nothing asked
/ asked (%), for the wild die per roll and for red pips per die.

    python benchmarks/die_colours.py [--data DIR] [--demo-seeds 20] [--demo-rolls 10] [--teachers 8] [--json FILE]

(a) The demo table with a wild die and spicy dice: for each seed, the first settled throw of six
holding the wild die and a red face teaches; every other settled throw of that film is judged.
(b) Real photos from ``--data`` (default ``../shared/data``: byler_d6, dice3, rune55; a source that
is absent is left out): in each photo the white dice with dark pips are a roll, one of them
recoloured blue as the wild die and one die in six given red pips; within each source and group,
each of ``--teachers`` photos in turn teaches (one red face at least) and the group's other photos
are judged. Greyscale photos are left out (recolouring them would make the only colour in them).
Not a timing.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from scorekeeper.evaluation.dataset import load_dataset, read_split, with_label_fixes
from scorekeeper.camera.demo_table import DemoTable
from scorekeeper.evaluation.die_colours import MarkedRoll, Measure, marked_photo, measure, photo_rolls, settled_rolls, teach
from scorekeeper.vision.detections import Detections

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("byler_d6", "dice3", "rune55")


def demo_frames(seed: int, rolls: int) -> Iterator[tuple[np.ndarray, Detections]]:
    """A demo table's frames with their labels, a wild die and spicy dice, for ``rolls`` throws of six."""
    table = DemoTable(640, 480, seed=seed, realtime=False, wild=True, spicy=True)
    table.expect(6)
    while table.rolls <= rolls:
        frame = table.read()
        if frame is None or frame.truth is None:
            return
        yield frame.image, frame.truth


def demo(seeds: int, rolls: int) -> Measure:
    """Part (a): every seed's film taught by its first full throw with the wild die and a red face."""
    total = Measure()
    for seed in range(seeds):
        film: list[MarkedRoll] = settled_rolls(demo_frames(seed, rolls))
        teacher = next((roll for roll in film if roll.wild is not None and roll.red and len(roll.labels) == 6), None)
        if teacher is None:
            continue
        measure(teach(teacher), [roll for roll in film if roll is not teacher], total)
    return total


def real(data: Path, teachers: int) -> dict[str, Measure]:
    """Part (b): per source and group, each of ``teachers`` photos teaching in turn."""
    out: dict[str, Measure] = {}
    for source in SOURCES:
        folder = data / source
        if not (folder / "images").is_dir():
            print(f"{folder}: not there, left out", file=sys.stderr)
            continue
        items = with_label_fixes(load_dataset(folder), folder)[0]
        items = [item for item in items if not _grey(item.load())]
        groups = read_split(folder / "split.csv", "group") if "group" in (folder / "split.csv").read_text().splitlines()[0] else {}
        by_group: dict[str, list[int]] = {}
        for n, item in enumerate(items):
            by_group.setdefault(groups.get(item.path.stem, ""), []).append(n)
        for group, members in sorted(by_group.items()):
            chosen = [items[n] for n in members]
            rolls = photo_rolls(chosen, seed=54)
            if len(rolls) < 2:
                continue
            rng = np.random.default_rng(54)
            total = Measure()
            named = {roll.name for roll in rolls}
            candidates = [item for item in chosen if item.path.stem in named]
            for item in rng.permutation(np.array(candidates, dtype=object))[:teachers]:
                teacher = marked_photo(item, rng, teaching=True)
                if teacher is not None:
                    measure(teach(teacher), [roll for roll in rolls if roll.name != teacher.name], total)
            name = f"{source} {group}".strip()
            out[name] = total
            print(f"{name}: {len(rolls)} rolls, {sum(len(roll.labels) for roll in rolls)} dice", file=sys.stderr)
    return out


def _grey(image: np.ndarray) -> bool:
    channels = image.astype(np.int16)
    return bool(np.abs(channels[..., 0] - channels[..., 1]).max() <= 8 and np.abs(channels[..., 1] - channels[..., 2]).max() <= 8)


def _row(name: str, result: Measure) -> str:
    cells = []
    for tally in (result.wild, result.wild_unknown, result.red, result.red_faces):
        if tally.total:
            cells.append(f"{100 * tally.right / tally.total:5.1f} / {100 * tally.wrong / tally.total:4.1f} / {100 * tally.asked / tally.total:4.1f} ({tally.total})")
        else:
            cells.append("-")
    return f"| {name} | " + " | ".join(cells) + " |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data", help="the folder of labelled photo sources")
    parser.add_argument("--demo-seeds", type=int, default=20, help="demo films (one teaching throw each)")
    parser.add_argument("--demo-rolls", type=int, default=10, help="throws of six per demo film")
    parser.add_argument("--teachers", type=int, default=8, help="photos of each real group that teach in turn")
    parser.add_argument("--json", type=Path, help="also write the numbers here")
    args = parser.parse_args()
    results = {"demo table": demo(args.demo_seeds, args.demo_rolls), **real(args.data, args.teachers)}
    print("| rolls | wild die, known in the roll | wild die, not known | red pips, every die | red faces |")
    print("|---|---|---|---|---|")
    for name, result in results.items():
        print(_row(name, result))
    if args.json:
        args.json.write_text(json.dumps({name: result.to_json() for name, result in results.items()}, indent=1) + "\n")


if __name__ == "__main__":
    main()
