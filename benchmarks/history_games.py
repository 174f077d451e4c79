"""Time ``scorekeeper history`` over many finished games, and its peak memory as the games grow.

    python benchmarks/history_games.py [--games 1000] [--steps 250,500,1000] [--runs 3] [--seed 1] [--keep DIR]

Makes ``--games`` finished games in a temporary scorekeeper home (deleted at the end unless
``--keep`` names a folder to make them in): two to four players from a pool of twelve names typed
as players type them (``Ann``, ``ann``), retail rules to 10,000, seeded random dice played by a
plain strategy (keep the best, bank from 350 or with two dice or fewer left), each game's journal
written as the window writes it. Then for each count of ``--steps`` (the first that many games)
runs ``scorekeeper history`` as a fresh process, start-up included: ``--runs`` times on games it
has not read (the home's history cache removed before each: every game read and added up, as a
player's first ``history`` over games brought from elsewhere), then ``--runs`` times more with the
cache the last of those kept (only the cache and each file's size and time read). It prints the
median seconds of each and their peak memory (RSS), and that of the largest process a cold run read
games in (many new files are read on up to 4 processors): the time should grow in line with the
games and the memory stay flat. The games are not committed; the script
makes them each time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from scorekeeper.game import Game, event_to_dict
from scorekeeper.game.games_folder import games_folder
from scorekeeper.stats.history import CACHE_FILE
from scorekeeper.game.journal import FORMAT, SUFFIX, VERSION
from scorekeeper.rules import Dice, load_rules, score_roll

NAMES = ("Ann", "ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lee", "Mary Lou")
"""The players drawn from; ``ann`` is Ann typed another way."""


def play_game(rng: random.Random, started_at: str) -> Game:
    """One finished game of two to four players with seeded random dice."""
    names: list[str] = []
    while len(names) < rng.randint(2, 4):
        name = rng.choice(NAMES)
        if name.casefold() not in (taken.casefold() for taken in names):
            names.append(name)
    game = Game.new(load_rules("retail"), names, started_at=started_at)
    rules = game.state.rules
    while not game.state.over:
        turn = game.state.turn
        assert turn is not None
        dice = Dice([rng.randint(1, 6) for _ in range(turn.dice_left)])
        game.roll(dice)
        scored = score_roll(rules, dice)
        if scored.farkle:
            game.farkle()
            continue
        game.keep(scored.options[0].keep)
        turn = game.state.turn
        if turn is not None and (turn.total >= 350 or turn.dice_left <= 2):
            game.bank()
    return game


def write_games(home: Path, count: int, seed: int) -> list[Path]:
    """``count`` finished games as journals in ``home``'s games folder, oldest first."""
    rng = random.Random(seed)
    folder = games_folder(home)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for number in range(count):
        started_at = f"2026-{1 + number // 28 % 12:02d}-{1 + number % 28:02d}T20:{number % 60:02d}:00+00:00"
        game = play_game(rng, started_at)
        path = folder / f"game-{number:05d}{SUFFIX}"
        lines = [json.dumps({"format": FORMAT, "version": VERSION})]
        lines += [json.dumps(event_to_dict(event), separators=(",", ":")) for event in game.events]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


PEAK_MEMORY = (
    "import resource, sys; from scorekeeper.cli import main; status = main(sys.argv[1:]); "
    "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
    "file=sys.stderr); sys.exit(status)"
)
"""``scorekeeper`` run as its entry point does, then the peak memory (KB) of it and of the largest
process it started (0 for none) as the last line of stderr."""


def run_history(home: Path) -> tuple[float, float, float]:
    """Seconds of one ``scorekeeper history`` on ``home`` (a fresh process, start-up included), its
    peak memory and that of the largest process it read games in, in MB."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK_MEMORY, "history"],
        env={**os.environ, "SCOREKEEPER_HOME": str(home)}, capture_output=True, text=True, check=True,
    )
    seconds = time.perf_counter() - start
    own, worker = done.stderr.split()[-2:]
    return seconds, int(own) / 1024, int(worker) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--steps", default="250,500,1000", help="the counts of games timed, each at most --games")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, help="make the games in this home folder and leave them there")
    args = parser.parse_args()
    steps = sorted({min(int(step), args.games) for step in args.steps.split(",")})
    with tempfile.TemporaryDirectory(prefix="scorekeeper-history-") as scratch:
        root = args.keep or Path(scratch)
        made = time.perf_counter()
        paths = write_games(root / "all", args.games, args.seed)
        events = sum(len(path.read_text(encoding="utf-8").splitlines()) - 1 for path in paths)
        print(f"{args.games:,} finished games, {events:,} events, made in {time.perf_counter() - made:.1f} s in {root / 'all'}")
        print("games  cold median s  peak MB  worker MB  warm median s  peak MB")
        for step in steps:
            home = root / f"first-{step}"
            folder = games_folder(home)
            folder.mkdir(parents=True, exist_ok=True)
            for path in paths[:step]:
                os.link(path, folder / path.name)
            cold = []
            for _ in range(args.runs):
                (home / CACHE_FILE).unlink(missing_ok=True)
                cold.append(run_history(home))
            warm = [run_history(home) for _ in range(args.runs)]
            print(
                f"{step:5,}  {statistics.median(s for s, _, _ in cold):13.2f}  {max(m for _, m, _ in cold):7.0f}  "
                f"{max(w for _, _, w in cold):9.0f}  {statistics.median(s for s, _, _ in warm):13.2f}  {max(m for _, m, _ in warm):7.0f}"
            )

if __name__ == "__main__":
    main()
