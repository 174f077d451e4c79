"""Plays a seeded game into a journal, printing each event once the game has taken it.

Run as a script by tests/test_journal_kill.py, which kills it with SIGKILL at random
moments and runs it again: each run goes on with the game the journal holds.
Usage: python journal_player.py JOURNAL [PAUSE_SECONDS]
Prints each event as a JSON line, and READY when play begins.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from scorekeeper.game import Action, Banked, DiceRolled, Farkled, Game, Kept, Phase, event_to_dict
from scorekeeper.game.journal import Journal, open_journal
from scorekeeper.rules import Dice, load_rules

PLAYERS = ("Ann", "Bob", "Cy")
READY = "# playing"
"""Printed once the game is open and play begins."""


def next_step(game: Game) -> str | Action:
    """The step this seeded player takes now: an action, or "undo"/"redo"."""
    state = game.state
    rng = random.Random(len(game.events))
    draw = rng.random()
    if draw < 0.04 and game.can_undo and len(game.events) > 4:
        return "undo"
    if draw < 0.06 and game.can_redo:
        return "redo"
    turn = state.turn
    assert turn is not None
    scored = state.roll_score()
    if scored is not None:
        if scored.farkle:
            return Farkled()
        options = scored.options
        return Kept(options[0].keep if rng.random() < 0.7 else rng.choice(options).keep)
    if state.can_bank() and (not state.can_roll() or rng.random() < 0.35):
        return Banked()
    return DiceRolled(Dice(rng.randint(1, 6) for _ in range(turn.dice_left)))


def take_next_step(game: Game, rolled: Callable[[DiceRolled], Action] = lambda roll: roll) -> None:
    """Take the step this seeded player takes now; a roll goes through ``rolled`` first."""
    step = next_step(game)
    if step == "undo":
        game.undo()
    elif step == "redo":
        game.redo()
    else:
        assert not isinstance(step, str)
        game.act(rolled(step) if isinstance(step, DiceRolled) else step)


def main() -> int:
    path = Path(sys.argv[1])
    pause = float(sys.argv[2]) if len(sys.argv) > 2 else 0.0
    if path.exists():
        game = open_journal(path).game
    else:
        game = Game.new(load_rules("retail"), PLAYERS, target=10000, started_at="2026-01-01T20:00:00+00:00",
                        sink=Journal.create(path).write)
        for event in game.events:
            print(json.dumps(event_to_dict(event)), flush=True)
    print(READY, flush=True)
    while not game.state.over:
        shown = len(game.events)
        take_next_step(game)
        for event in game.events[shown:]:
            print(json.dumps(event_to_dict(event)), flush=True)
        if pause:
            time.sleep(pause)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
