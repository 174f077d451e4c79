"""The window's game controller: :class:`scorekeeper.game.controller.GameController` with its
callbacks sent on as Qt signals, so a widget connects to them and is let go of when it closes; each
game won is kept in the home's history cache as it ends."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from scorekeeper.game.controller import GameController as PlainController
from scorekeeper.stats.history import remember_game


class ControllerSignals(QObject):
    """The controller's callbacks as signals."""

    changed = Signal()
    """The game moved on (or was replaced): redraw from the controller's state."""
    refused = Signal(str)
    """The engine (or the disk) refused a step; nothing changed. The reason, for the screen."""
    notice = Signal(str)
    """Something to tell the table: a turn ended, a game was won, resumed or recovered."""
    done = Signal(str)
    """A line confirming a step taken, undone or redone (a roll, a keep, a tap, an undo)."""


class GameController(PlainController):
    """The plain controller; views call its methods and connect to :attr:`changed`,
    :attr:`refused`, :attr:`notice` and :attr:`done`."""

    def __init__(self, home: Path, parent: QObject | None = None) -> None:
        super().__init__(home)
        self.signals = ControllerSignals(parent)
        """The QObject the signals belong to."""
        self.changed = self.signals.changed
        self.refused = self.signals.refused
        self.notice = self.signals.notice
        self.done = self.signals.done
        self.on_changed.append(self.changed.emit)
        self.on_refused.append(self.refused.emit)
        self.on_notice.append(self.notice.emit)
        self.on_done.append(self.done.emit)
        self.on_game_over.append(partial(remember_game, home))
