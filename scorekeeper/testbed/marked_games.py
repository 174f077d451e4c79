"""A whole camera game on the demo table under the wild-die or spicy variant, with no window, and
how well the camera told the dice's marks: each roll it settled, right with nothing asked, asked,
or wrong with nothing asked (the demo's labels are the truth). Used by tests and
``benchmarks/camera_marks.py``.

The dice's faces are read from the labels (the reader is not what is measured); the marks are
told from the picture by the table's colour judge, taught by one teaching throw or a few.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from scorekeeper.camera.demo_table import DemoTable
from scorekeeper.camera.settling import EventKind, SettleEvent, SettleParams
from scorekeeper.camera.watch import Watcher
from scorekeeper.game import Game, GameState
from scorekeeper.rules import Dice, load_rules, score_roll
from scorekeeper.table_session.camera_game import CameraGame
from scorekeeper.table_session.marks import MarksInPlay
from scorekeeper.table_session.session import DiceOnTable
from scorekeeper.table_session.table_colours import TableColours, teach_from_labels
from scorekeeper.vision.detections import Detections


class TruthReader:
    """Reads each frame of ``watcher`` as its labels: the faces are never wrong."""

    def __init__(self) -> None:
        self.watcher: Watcher | None = None

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        """The watcher's latest frame's labels."""
        assert self.watcher is not None and self.watcher.latest_frame is not None
        truth = self.watcher.latest_frame.truth
        assert truth is not None
        return truth


class SimpleChooser:
    """Keeps the roll's best keep and banks at 300 or more (a chooser for rules the coach does not solve)."""

    def keep(self, state: GameState) -> Dice:
        """The roll's best keep."""
        assert state.turn is not None and state.turn.roll is not None
        best = score_roll(state.rules, state.turn.roll).best
        assert best is not None
        return best.keep

    def bank(self, state: GameState) -> bool:
        """Bank at 300 points or more."""
        return state.turn is not None and state.turn.total >= 300

    def piggyback(self, state: GameState) -> bool:
        """Never take on the last bank's pot: six fresh dice."""
        return False


@dataclass
class MarksTally:
    """How the camera told the marks of each roll it settled."""

    right: int = 0
    """Rolls whose marks were all right, with nothing asked."""
    asked: int = 0
    """Rolls with a mark the camera could not tell (not taken: thrown again)."""
    wrong: int = 0
    """Rolls taken with a mark wrong, nothing asked."""
    wrong_rolls: list[str] = field(default_factory=list)
    """Each wrong roll: told, then the truth."""

    def line(self) -> str:
        """The tally in one line."""
        total = self.right + self.asked + self.wrong
        return f"{total} rolls: {self.right} right with nothing asked, {self.asked} asked, {self.wrong} wrong with nothing asked"


def _truth_marks(dice: DiceOnTable, truth: Detections) -> list[str]:
    """The labelled marks of ``dice`` as read (each box matched to the label it overlaps most)."""
    marks = []
    for box in dice.read_boxes:
        x0, y0, x1, y1 = box
        ix = np.clip(np.minimum(x1, truth.boxes[:, 2]) - np.maximum(x0, truth.boxes[:, 0]), 0, None)
        iy = np.clip(np.minimum(y1, truth.boxes[:, 3]) - np.maximum(y0, truth.boxes[:, 1]), 0, None)
        marks.append(truth.marks[int(np.argmax(ix * iy))])
    return marks


def play_marked_demo(
    variant: str, seed: int, home: Path, *, target: int | None = None, max_frames: int = 40000, size: tuple[int, int] = (640, 480)
) -> tuple[Game, MarksTally, list[str], int]:
    """A game for Ann and Bob under retail with ``variant``, to ``target`` (the rules' own if None),
    on the demo table of ``seed`` at ``size``; the game, the marks' tally, what the camera game said,
    and the teaching throws."""
    rules = load_rules("retail", [variant])
    in_play = MarksInPlay.of(rules)
    table = DemoTable(*size, seed=seed, realtime=False, wild=in_play.wild, spicy=in_play.red)
    reader = TruthReader()
    watcher = Watcher(table, reader, settle=SettleParams(settle_frames=6))
    reader.watcher = watcher
    colours = TableColours(None)
    throws = teach_from_labels(watcher, colours, in_play.letters)
    game = Game.new(rules, ["Ann", "Bob"], target=target)
    said: list[str] = []
    camera = CameraGame(game, SimpleChooser(), home / "corrections", said.append)
    camera.session.colours = colours
    tally = MarksTally()
    settle = camera.session.table_event

    def told(event: SettleEvent, frame: NDArray[np.uint8]) -> None:
        taken = camera.session.taken
        settle(event, frame)
        truth = watcher.latest_frame.truth if watcher.latest_frame is not None else None
        if event.kind is not EventKind.SETTLED or truth is None:
            return
        pending = camera.session.pending
        dice = pending if pending is not None else camera.session.taken if camera.session.taken is not taken else None
        if dice is None:
            return
        if any(dice.doubt):
            tally.asked += 1
            return
        right = _truth_marks(dice, truth)
        if list(dice.read_marks) == right:
            tally.right += 1
        else:
            tally.wrong += 1
            tally.wrong_rolls.append(f"{Dice(dice.read, dice.read_marks)} (truly {Dice(dice.read, right)})")

    camera.session.table_event = told  # type: ignore[method-assign]
    camera.run(watcher, max_frames)
    return game, tally, said, throws
