"""The resume offer: every unfinished game with its players, scores and date, the one played last first."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QListView, QListWidget, QPushButton, QVBoxLayout, QWidget

from scorekeeper.game.resume import UnfinishedGame
from scorekeeper.ui.turn_panel import big


class ResumeChoice(enum.Enum):
    """What the players chose in the resume offer."""

    RESUME = "resume"
    """Go on with the chosen game."""
    SET_ASIDE = "set aside"
    """Start a new game; the chosen one is not offered again."""
    NEW_GAME = "new game"
    """Start a new game; offer the unfinished ones again next time."""
    OTHER_FILE = "other file"
    """Pick a journal by its file (one set aside, or from elsewhere)."""
    DELETE = "delete"
    """Delete the chosen game, its journal and its roll pictures (once the players confirm)."""
    CANCEL = "cancel"
    """Close the offer and change nothing."""


class ResumeDialog(QDialog):
    """A list of unfinished games to go on with; :attr:`choice` and :meth:`chosen` say what was picked."""

    def __init__(self, games: Sequence[UnfinishedGame], on_start: bool, parent: QWidget | None = None) -> None:
        """``on_start``: offered as the window opens (new game buttons) rather than from the menu (a file button)."""
        super().__init__(parent)
        self.setWindowTitle("Go on with a game?" if on_start else "Resume a game")
        self.games = list(games)
        self.choice = ResumeChoice.CANCEL
        count = len(self.games)
        heading = (
            f"There {'is an unfinished game' if count == 1 else f'are {count} unfinished games'}: go on with one?"
            if count
            else "There is no unfinished game to go on with."
        )
        self.heading = big(QLabel(heading), 3)
        self.list = big(QListWidget(), 3, bold=False)
        # A long row (many players, a long rules name) wraps inside the list rather than running off its right edge.
        self.list.setWordWrap(True)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setUniformItemSizes(False)
        self.list.setSpacing(2)
        for game in self.games:
            self.list.addItem(str(game))
        self.list.setCurrentRow(0)
        self.list.itemDoubleClicked.connect(lambda _item: self._choose(ResumeChoice.RESUME))
        self.resume_button = big(QPushButton("Resume it"), 2)
        self.resume_button.setDefault(True)
        self.resume_button.setEnabled(bool(self.games))
        buttons = QHBoxLayout()
        buttons.addWidget(self.resume_button)
        self.buttons: dict[ResumeChoice, QPushButton] = {ResumeChoice.RESUME: self.resume_button}
        extra = (
            [(ResumeChoice.SET_ASIDE, "New game, set this one aside"), (ResumeChoice.NEW_GAME, "New game, ask again next time")]
            if on_start
            else [
                (ResumeChoice.OTHER_FILE, "Open another journal..."),
                (ResumeChoice.DELETE, "Delete this game..."),
                (ResumeChoice.CANCEL, "Cancel"),
            ]
        )
        for choice, text in extra:
            button = QPushButton(text)
            button.clicked.connect(lambda _=False, c=choice: self._choose(c))
            buttons.addWidget(button)
            self.buttons[choice] = button
        self.resume_button.clicked.connect(lambda: self._choose(ResumeChoice.RESUME))
        for choice in (ResumeChoice.SET_ASIDE, ResumeChoice.DELETE):
            self.buttons.get(choice, self.resume_button).setEnabled(bool(self.games))
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        self.resize(900, 360)

    def _choose(self, choice: ResumeChoice) -> None:
        self.choice = choice
        if choice is ResumeChoice.CANCEL:
            self.reject()
        else:
            self.accept()

    def chosen(self) -> Path | None:
        """The journal of the game picked in the list, if any."""
        row = self.list.currentRow()
        return self.games[row].path if 0 <= row < len(self.games) else None
