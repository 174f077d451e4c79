"""Time ``scorekeeper export`` against the length of the journal: 1k to 64k events by default.

    python benchmarks/export_time.py [--formats csv,html,pdf] [--sizes 1000,2000,...] [--runs 1]

Each journal is a two-player game of many short turns (a roll, a keep, a roll, a Farkle; a bank of
50 now and then, so that nobody reaches the target; every tenth keep undone and done again, as
players do). Each export is a fresh process, start-up
included, as a user would run it. Prints the seconds per size and format, then per format the
least-squares slope (seconds per 1,000 events) and the exponent of a power law fitted to the sizes
(1.0: linear; 2.0: quadratic).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.game import Game
from scorekeeper.game.journal import Journal
from scorekeeper.rules import load_rules

SIZES = (1000, 2000, 4000, 8000, 16000, 32000, 64000)
"""Events in the journals timed by default."""


def write_journal(path: Path, events: int) -> Path:
    """A journal of about ``events`` events (a few more, to finish the last turn)."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    turn = 0
    while len(game.events) < events:
        game.roll("1 2 3 4 6 6")
        game.keep("1")
        if turn % 10 == 0:
            game.undo()
            game.redo()
        if turn % 200 == 0:
            game.bank()
        else:
            game.roll("2 3 4 6 6")
            game.farkle()
        turn += 1
    journal.close()
    return path


def export_seconds(journal: Path, kind: str, runs: int) -> float:
    """The least of ``runs`` times of one export, seconds."""
    best = math.inf
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "scorekeeper", "export", str(journal), "--format", kind, "-o", str(journal.with_suffix(f".{kind}"))],
            check=True, capture_output=True,
        )
        best = min(best, time.perf_counter() - start)
    return best


def fit(sizes: list[int], seconds: list[float]) -> tuple[float, float]:
    """Least-squares slope (seconds per 1,000 events) and power-law exponent of ``seconds`` against ``sizes``."""
    n = len(sizes)
    mean_x, mean_y = sum(sizes) / n, sum(seconds) / n
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(sizes, seconds)) / sum((x - mean_x) ** 2 for x in sizes)
    logs = [(math.log(x), math.log(y)) for x, y in zip(sizes, seconds)]
    mean_lx, mean_ly = sum(x for x, _ in logs) / n, sum(y for _, y in logs) / n
    exponent = sum((x - mean_lx) * (y - mean_ly) for x, y in logs) / sum((x - mean_lx) ** 2 for x, _ in logs)
    return slope * 1000, exponent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formats", default="csv,html,pdf")
    parser.add_argument("--sizes", default=",".join(str(size) for size in SIZES))
    parser.add_argument("--runs", type=int, default=1)
    args = parser.parse_args()
    kinds = args.formats.split(",")
    sizes = [int(size) for size in args.sizes.split(",")]
    results: dict[str, list[float]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory() as folder:
        for size in sizes:
            journal = write_journal(Path(folder) / f"game-{size}.jsonl", size)
            lines = journal.read_text(encoding="utf-8").count("\n")
            for kind in kinds:
                results[kind].append(export_seconds(journal, kind, args.runs))
            print(f"{size:>6} events ({lines} lines, {journal.stat().st_size / 1e6:.1f} MB): "
                  + ", ".join(f"{kind} {results[kind][-1]:.2f} s" for kind in kinds), flush=True)
    for kind in kinds:
        slope, exponent = fit(sizes, results[kind])
        print(f"{kind}: {slope:.3f} s per 1,000 events, time ~ events^{exponent:.2f}")


if __name__ == "__main__":
    main()
