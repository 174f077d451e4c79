"""The pictures of tap corrections, kept for training: which of them count follows from the game's steps in force.

Every correction a player makes with a tap is a game step naming the crop of the die it
corrected; the crop is saved in the corrections folder for training. A crop counts while the
game's steps in force (:attr:`Game.actions`: the log after its undos, redos and history edits)
hold a correction naming it; whenever the game changes, the corrections folder's index is made
to agree: what left that set is withdrawn from training, what came back is restored. A wrong
tap, undone, must not teach the reader the misread; this holds in a resumed game too.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from scorekeeper.game import DieCorrected, Event, Game
from scorekeeper.vision.corrections import Box, CorrectionsError, save_correction, withdraw_correction, withdrawn_states

if TYPE_CHECKING:
    from scorekeeper.game.journal import Journal

log = logging.getLogger(__name__)


def pictures_named(steps: Iterable[Event]) -> list[str]:
    """The correction pictures the correction steps among ``steps`` name, in order, each once:
    given a game's steps in force, the pictures that count.

    >>> pictures_named([DieCorrected(3, 5, "a.png"), DieCorrected(5, 6), DieCorrected(4, 2, "b.png"), DieCorrected(3, 5, "a.png")])
    ['a.png', 'b.png']
    """
    return list(dict.fromkeys(step.picture for step in steps if isinstance(step, DieCorrected) and step.picture is not None))


class TapPictures:
    """The corrections folder's pictures, withdrawn from training and restored as the game's steps
    in force say."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        """Where the crops of corrected dice are kept (``save_correction``)."""
        self.recorded: dict[str, bool] | None = None
        """What the folder's index says of each picture it records: whether it is withdrawn from
        training; None until it is read, which it is again for each game of another journal."""
        self.journal: Path | None = None
        """The journal of the game the index was last made to agree with."""
        self.counted: frozenset[str] = frozenset()
        """The pictures that game's steps in force named then."""

    def keep(self, frame: NDArray[np.uint8], box: Box, was: int | None, now: int | None) -> Path | None:
        """Save the corrected die for training; its picture's path, or None if it could not be saved."""
        try:
            picture = save_correction(self.folder, frame, box, was, now)
        except OSError as exc:
            log.warning("correction not kept for training: %s", exc)
            return None
        if self.recorded is not None:
            self.recorded[picture.name] = False
        return picture

    def refused(self, picture: Path | None) -> None:
        """The game refused the tap that kept ``picture``: it is withdrawn from training (nothing
        the game refuses teaches the reader)."""
        if picture is not None:
            self._mark(picture.name, True)

    def follow(self, game: Game | None, journal: Journal | None) -> None:
        """Make the index agree with ``game``: each picture a correction step of its log names is
        withdrawn unless a step in force names it, and restored when one does again. This holds for
        a game resumed after a crash too, and squares up a withdrawal the crash cut off. A picture
        that counted before a history edit of the same journal and that the edited log no longer
        names (the tap deleted, or changed to other faces) is withdrawn as well: the table no
        longer stands behind it."""
        if game is None:
            return
        path = journal.path if journal is not None else None
        counted = frozenset(pictures_named(game.actions))
        dropped: frozenset[str] = frozenset()
        if self.recorded is None or path != self.journal:
            self.recorded = self._read_index()
        elif path is not None:
            dropped = self.counted - counted
        self.journal, self.counted = path, counted
        for name in [*sorted(dropped), *pictures_named(game.events)]:
            self._mark(name, name not in counted)

    def _read_index(self) -> dict[str, bool]:
        try:
            return withdrawn_states(self.folder)
        except CorrectionsError as exc:
            log.warning("corrections not followed through undo: %s", exc)
            return {}

    def _mark(self, name: str, withdrawn: bool) -> None:
        """Mark the picture ``name`` withdrawn from training (or restored), where the index records
        it and not so marked already."""
        if self.recorded is None:
            self.recorded = self._read_index()
        if self.recorded.get(name, withdrawn) == withdrawn:
            return
        try:
            withdraw_correction(self.folder, self.folder / name, withdrawn)
        except OSError as exc:
            log.warning("could not mark the correction %s %s: %s", name, "withdrawn" if withdrawn else "restored", exc)
            return
        self.recorded[name] = withdrawn
