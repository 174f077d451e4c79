"""The pictures of tap corrections, kept for training and squared with the game through undo and redo.

Every correction a player makes with a tap is a game step naming the crop of the die it
corrected; the crop is saved in the corrections folder for training. Whenever the game takes
that step back (undo, in this session or after a resume), the crop is withdrawn from training
too, and restored on redo: a wrong tap, undone, must not teach the reader the misread.
"""

from __future__ import annotations

import logging
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from scorekeeper.game import DieCorrected, Game
from scorekeeper.vision.corrections import Box, CorrectionsError, save_correction, withdraw_correction, withdrawn_states

if TYPE_CHECKING:
    from scorekeeper.game.journal import Journal
    from scorekeeper.table_session.session import DiceOnTable

log = logging.getLogger(__name__)


def _pictures_in_force(game: Game) -> set[str]:
    """The training pictures that ``game``'s correction steps in force name."""
    return {a.picture for a in game.actions if isinstance(a, DieCorrected) and a.picture is not None}


@dataclass
class Tap:
    """A tap correction the game took as a step: undo and redo of that step change the die drawn."""

    game: Game
    """The game the step belongs to."""
    step: DieCorrected
    """The step itself: while the game holds it (the very object), the correction stands."""
    dice: weakref.ref[DiceOnTable]
    """The dice drawn when the tap was made; weak, so a game's taps do not keep every roll's frame."""
    box: Box
    """The tapped die's box."""
    undone: bool = False
    """Whether the game has taken the step back."""


class TapPictures:
    """The corrections folder's pictures and the taps that made them, followed through the game."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        """Where the crops of corrected dice are kept (``save_correction``)."""
        self.taps: list[Tap] = []
        """Tap corrections of the game on screen, followed through undo and redo."""
        self.pictures: dict[str, bool] = {}
        """The folder's pictures, and whether each is withdrawn from training now."""
        self.game: Game | None = None
        """The game ``pictures`` was last squared with."""
        self.journal: Journal | None = None
        """That game's journal: a history edit rebuilds the game on the same journal."""

    def keep(self, frame: NDArray[np.uint8], box: Box, was: int | None, now: int | None) -> Path | None:
        """Save the corrected die for training; its picture's path, or None if it could not be saved."""
        try:
            picture = save_correction(self.folder, frame, box, was, now)
        except OSError as exc:
            log.warning("correction not kept for training: %s", exc)
            return None
        self.pictures[picture.name] = False
        return picture

    def refused(self, picture: Path | None) -> None:
        """The game refused the tap that kept ``picture``: it is withdrawn from training (nothing
        the game refuses teaches the reader)."""
        if picture is not None:
            self._mark(picture.name, True)

    def follow(self, game: Game | None, step: DieCorrected, dice: DiceOnTable, box: Box) -> None:
        """Follow the game step a tap became through undo and redo."""
        if game is not None:
            self.taps.append(Tap(game, step, weakref.ref(dice), box))

    def square(self, game: Game | None, journal: Journal | None) -> list[tuple[DiceOnTable, Box, int | None]]:
        """Square taps and pictures with ``game``: each picture a correction step of ``game`` names is
        withdrawn while the step is undone and restored when it is done again; this holds for a game
        resumed after a crash too, and squares up a withdrawal the crash cut off. A tap a history edit
        deleted, or changed to other faces, is withdrawn as well: the table no longer stands behind it.

        Returns, for each tap whose step was undone or done again since, the dice it was made on, the
        die's box and the face that die shows now (as read again, or as tapped). Taps of a game no
        longer on screen (another game, or one rebuilt by a history edit) are forgotten."""
        self.taps = [tap for tap in self.taps if tap.game is game]
        if game is None:
            return []
        in_force = {id(step) for step in game.actions}
        changed: list[tuple[DiceOnTable, Box, int | None]] = []
        for tap in self.taps:
            undone = id(tap.step) not in in_force
            if undone == tap.undone:
                continue
            tap.undone = undone
            dice = tap.dice()
            if dice is not None:
                changed.append((dice, tap.box, tap.step.was if undone else tap.step.now))
        self._square_pictures(game, journal, in_force)
        return changed

    def _square_pictures(self, game: Game, journal: Journal | None, in_force: set[int]) -> None:
        if game is not self.game:
            dropped: set[str] = set()
            if self.game is not None and journal is not None and journal is self.journal:
                dropped = _pictures_in_force(self.game) - _pictures_in_force(game)
            self.game, self.journal = game, journal
            try:
                self.pictures = withdrawn_states(self.folder)
            except CorrectionsError as exc:
                log.warning("corrections not followed through undo: %s", exc)
                self.pictures = {}
            for name in sorted(dropped):
                self._mark(name, True)
        for event in game.events:
            if isinstance(event, DieCorrected) and event.picture is not None:
                self._mark(event.picture, id(event) not in in_force)

    def _mark(self, name: str, withdrawn: bool) -> None:
        """Mark the picture ``name`` withdrawn from training (or restored), where it is there and
        not so marked already."""
        if self.pictures.get(name, withdrawn) == withdrawn:
            return
        try:
            withdraw_correction(self.folder, self.folder / name, withdrawn)
        except OSError as exc:
            log.warning("could not mark the correction %s %s: %s", name, "withdrawn" if withdrawn else "restored", exc)
            return
        self.pictures[name] = withdrawn
