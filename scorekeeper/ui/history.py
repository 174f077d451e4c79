"""Every turn of every player, and a past turn corrected afterwards.

A correction replays the game with the turn played as corrected (see
:func:`scorekeeper.game.history_edits.with_turn_replaced`): all totals after it follow,
and the journal appends the new log, never rewriting what it holds.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.export import SheetTurn, score_sheet
from scorekeeper.game.commands import STEP_HELP, parse_steps, step_text
from scorekeeper.game.history_edits import carry_pictures, segments
from scorekeeper.rules import FarkleError
from scorekeeper.ui.controller import GameController

Index = QModelIndex | QPersistentModelIndex

WIDE_HEADERS = ("Rolls", "Kept", "Outcome")
"""The Rolls, Kept and Outcome columns: they share the width the others leave, their text cut short
with "..." where it is longer (the whole of it in the cell's tool tip), so every column is seen."""


class HistoryModel(QAbstractTableModel):
    """One row per finished turn: who, the dice, how it ended, the score after."""

    HEADERS = ("#", "Player", "Rolls", "Kept", "Outcome", "Points", "Score after")

    def __init__(self, controller: GameController) -> None:
        super().__init__(controller.signals)
        self._controller = controller
        self.turns: tuple[SheetTurn, ...] = ()
        controller.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        self.beginResetModel()
        events = self._controller.events
        self.turns = score_sheet(events).turns if events else ()
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.turns)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        """A cell's text; its tool tip is the same text, whole where the column cuts it short."""
        if not index.isValid() or role not in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return None
        turn = self.turns[index.row()]
        seat = self._controller.state.players if self._controller.state else ()
        after = turn.totals[[p.name for p in seat].index(turn.player)] if seat else 0
        kept = list(turn.kept) + list(turn.entries())
        return (
            str(turn.number),
            turn.player,
            " / ".join(turn.rolls),
            " / ".join(kept),
            turn.outcome,
            f"{turn.points - turn.penalty:,}",
            f"{after:,}",
        )[index.column()]


class TurnEditDialog(QDialog):
    """A past turn's steps as text, to put right; refused edits say why and change nothing."""

    def __init__(self, controller: GameController, turn: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.turn = turn
        part = next(p for p in segments(controller.events) if p.turn == turn)
        self.before = part.actions
        """The turn's steps as played."""
        state = controller.state
        who = state.players[state.history[turn].player].name if state is not None else ""
        self.setWindowTitle(f"Correct turn {turn + 1} ({who})")
        self.resize(560, 380)
        self.steps = QPlainTextEdit("\n".join(step_text(action) for action in part.actions))
        self.error = QLabel()
        self.error.setStyleSheet("color: #b03a2e")
        self.error.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Correct the turn")
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        help_text = QLabel(STEP_HELP)
        help_text.setWordWrap(True)
        layout.addWidget(help_text)
        layout.addWidget(self.steps)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        controller.refused.connect(self.error.setText)

    def apply(self) -> None:
        try:
            actions = carry_pictures(self.before, parse_steps(self.steps.toPlainText()))
        except FarkleError as exc:
            self.error.setText(str(exc))
            return
        if self.controller.edit_turn(self.turn, actions):
            self.accept()


class HistoryPanel(QWidget):
    """The history table with a button to correct the chosen turn."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.model = HistoryModel(controller)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for column, name in enumerate(HistoryModel.HEADERS):
            if name in WIDE_HEADERS:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.edit_button = QPushButton("Correct this turn...")
        self.table.doubleClicked.connect(lambda index: self.edit(index.row()))
        self.edit_button.clicked.connect(self.edit_selected)
        self.model.modelReset.connect(self.table.scrollToBottom)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.edit_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table)
        layout.addLayout(row)

    def edit_selected(self) -> None:
        rows = self.table.selectionModel().selectedRows()
        if rows:
            self.edit(rows[0].row())

    def edit(self, turn: int) -> TurnEditDialog:
        dialog = TurnEditDialog(self.controller, turn, self)
        dialog.open()
        return dialog
