"""The size of the rolls' pictures a game keeps: per roll and per game of 200 rolls.

    python benchmarks/roll_picture_sizes.py [--rolls 200] [--seed 1] [--players 6] [--home DIR]
        [--photos FOLDER...] [--sheet FILE.pdf|html|csv]

Plays camera rolls through the window's table session, writing a real journal: each roll is a
rendered scene of ``sample_images/`` with as many dice as the player has to roll (640x480, 800x600
and 1280x720 frames, every table and light, with a webcam's sensor noise), read as labelled, with
now and then a die corrected by a tap (a second picture for that roll). Keeps the best scoring dice
and rolls on until two dice are left; six players; a game won before all the rolls are taken is
followed by another, so the total is that of the rolls asked for. Prints the pictures' sizes
(median, largest, the total) and the time to take a roll with its picture; ``--photos`` also the
pictures of real labelled photos; ``--sheet`` also writes the first game's score sheet.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.game import Game
from scorekeeper.game.controller import GameController
from scorekeeper.game.journal import Journal
from scorekeeper.game.photos import photos_folder
from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.rules import load_rules, score_roll
from scorekeeper.table_session import TableSession
from scorekeeper.table_session.roll_pictures import draw_roll, encode_jpeg
from scorekeeper.evaluation.dataset import parse_yolo_labels
from scorekeeper.vision.detections import Detections

SAMPLES = Path(__file__).resolve().parent.parent / "sample_images"
BANK_WITH = 2
"""The player rolls on until this few dice are left (or a Farkle): many rolls to a game, as at a real table."""
NOISE = 2.0
"""Standard deviation of the sensor noise added to each frame, grey levels (a webcam shows 1-4)."""


def scenes_by_count() -> dict[int, list[tuple[NDArray[np.uint8], Detections]]]:
    """The rendered sample scenes with their labelled dice, by how many dice each shows."""
    found: dict[int, list[tuple[NDArray[np.uint8], Detections]]] = {}
    for path in sorted((SAMPLES / "images").glob("*.jpg")):
        image = cv2.imread(str(path))
        labels = parse_yolo_labels((SAMPLES / "labels" / f"{path.stem}.txt").read_text(), image.shape[1], image.shape[0])
        found.setdefault(len(labels), []).append((image, labels))
    return found


PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Flo")


def play_game(home: Path, rolls: int, seed: int, players: tuple[str, ...] = PLAYERS) -> tuple[Journal, Game, list[float]]:
    """A camera game of ``rolls`` rolls (fewer if it is won first) written to a journal in ``home``; the
    seconds each roll taken with its picture took."""
    rng = np.random.default_rng(seed)
    scenes = scenes_by_count()
    controller = GameController(home)
    assert controller.start(load_rules("retail"), players)
    game, journal = controller.game, controller.journal
    assert game is not None and journal is not None
    session = TableSession(controller, home / "corrections")
    timings: list[float] = []
    for _ in range(rolls):
        turn = game.state.turn
        if turn is None:
            break
        scene, dice = scenes[turn.dice_left][int(rng.integers(len(scenes[turn.dice_left])))]
        # a camera never sends the same frame twice: sensor noise makes each roll's picture its own
        frame = np.clip(scene + rng.normal(0.0, NOISE, scene.shape), 0, 255).astype(np.uint8)
        started = time.perf_counter()
        session.saw(dice, Detections.empty())
        session.table_event(SettleEvent(EventKind.SETTLED, 0, 0.0, dice, dice.unsure), frame)
        timings.append(time.perf_counter() - started)
        taken = session.taken
        if taken is not None and rng.random() < 0.1:
            session.correct(taken, 0, 5 if taken.values[0] != 5 else 1)
        roll = game.state.turn.roll if game.state.turn is not None else None
        assert roll is not None, "the session took no roll"
        best = score_roll(game.state.rules, roll).best
        if best is None:
            game.farkle()
            continue
        game.keep(best.keep)
        turn = game.state.turn
        if game.state.can_bank() and turn is not None and turn.dice_left <= BANK_WITH:
            game.bank()
    return journal, game, timings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rolls", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=6, choices=range(1, 7), help="how many play (default 6)")
    parser.add_argument("--home", type=Path, help="where the game's journal and pictures go (default: a temporary folder)")
    parser.add_argument(
        "--photos", type=Path, nargs="*", default=[], metavar="FOLDER",
        help="also the picture of each photo in these labelled folders (real tables: ../shared/data/NAME)",
    )
    parser.add_argument("--sheet", type=Path, help="also write the game's score sheet here (.pdf, .html or .csv)")
    args = parser.parse_args(argv)
    home = args.home or Path(tempfile.mkdtemp(prefix="roll-pictures-"))
    sizes: list[int] = []
    timings: list[float] = []
    games = 0
    while len(timings) < args.rolls:
        journal, game, taken = play_game(home, args.rolls - len(timings), args.seed + games, PLAYERS[: args.players])
        journal.close()
        games += 1
        timings += taken
        sizes += [path.stat().st_size for path in photos_folder(journal.path).glob("*.jpg")]
        if args.sheet is not None and games == 1:
            from scorekeeper.cli.export import sheet_format
            from scorekeeper.export import write_sheet

            write_sheet(game.events, args.sheet, sheet_format(args.sheet, None), journal.path, hold_interrupts=True)
            print(f"score sheet of the first game: {args.sheet}")
    kb = [size / 1000 for size in sizes]
    rolls = len(timings)
    print(f"{rolls} rolls in {games} game(s) (a game won before {args.rolls} rolls is followed by another), "
          f"{len(sizes)} pictures (a tap adds one) in {home}")
    print(f"per picture: median {statistics.median(kb):.1f} KB, mean {statistics.mean(kb):.1f} KB, largest {max(kb):.1f} KB")
    print(f"the {rolls} rolls' pictures: {sum(sizes) / 1e6:.2f} MB; per roll taken {sum(sizes) / rolls / 1000:.1f} KB")
    print(f"taking a roll with its picture: median {statistics.median(timings) * 1000:.1f} ms")
    for folder in args.photos:
        real = []
        for path in sorted((folder / "images").glob("*.jpg")):
            image = cv2.imread(str(path))
            if image is not None:
                real.append(len(encode_jpeg(draw_roll(image, [], [], [], []))) / 1000)
        print(f"{folder.name}: {len(real)} photos, picture median {statistics.median(real):.1f} KB, largest {max(real):.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
