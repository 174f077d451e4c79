"""A camera game written to a real journal, without Qt or a camera: the table session fed rendered
sample scenes as settled rolls, each keeping its picture beside the journal. Tests only."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from scorekeeper.game import Event, Game
from scorekeeper.game.controller import GameController
from scorekeeper.game.games_folder import new_journal_path
from scorekeeper.game.journal import Journal
from scorekeeper.game.photos import photo_file
from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.rules import load_rules, score_roll
from scorekeeper.table_session import TableSession
from scorekeeper.evaluation.dataset import parse_yolo_labels
from scorekeeper.vision.detections import Detections


class JournalPlay(GameController):
    """A game written to a real journal by the controller every table plays through (no Qt),
    noting for each journal line that names a picture whether the picture was on disk as the line
    was written."""

    def __init__(self, home: Path) -> None:
        super().__init__(home)
        self.lines_naming: list[tuple[str, bool]] = []
        self.journal = Journal.create(new_journal_path(home))
        self.game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=self.write)

    def write(self, event: Event) -> None:
        assert self.journal is not None
        photo = getattr(event, "photo", None)
        if photo is not None:
            self.lines_naming.append((photo, photo_file(self.journal.path, photo).is_file()))
        self.journal.write(event)


SCENE = Path(__file__).parent.parent / "sample_images" / "images" / "scene_08_daylight_tilt27_cloth.jpg"
"""A rendered roll of four dice at 640x480."""


def load_scene() -> tuple[np.ndarray, Detections]:
    """The rendered roll and its true dice."""
    image = cv2.imread(str(SCENE))
    labels = SCENE.parent.parent / "labels" / (SCENE.stem + ".txt")
    truth = parse_yolo_labels(labels.read_text(), image.shape[1], image.shape[0])
    assert len(truth) == 4
    return image, truth


def settle(session: TableSession, found: Detections, frame: np.ndarray) -> None:
    """The dice ``found`` settle in ``frame``."""
    session.saw(found, Detections.empty())
    session.table_event(SettleEvent(EventKind.SETTLED, 0, 0.0, found, found.unsure), frame)


def camera_turn(play: JournalPlay, session: TableSession, frame: np.ndarray, found: Detections) -> None:
    """A turn of one camera roll, the scene's four dice with the two out of view typed in (a roll
    with dice missing is not scored): the best keep banked, or the Farkle called."""
    settle(session, found, frame)
    game = play.game
    assert game is not None and game.state.turn is not None and game.state.turn.roll is not None, "the roll was not taken"
    for face in range(game.state.missing_dice()):
        game.correct(None, 2 + face)
    best = score_roll(game.state.rules, game.state.turn.roll).best
    if best is None:
        game.farkle()
    else:
        game.keep(best.keep)
        game.bank()
    session.game_changed()
