"""The scoreboard: one row per player, readable from across the table."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import QHeaderView, QSizePolicy, QTableView, QWidget

from scorekeeper.game import GameState
from scorekeeper.rules import GameKind
from scorekeeper.ui.controller import GameController

CURRENT = QColor("#fff2b3")
WINNER = QColor("#c8f0c0")
Index = QModelIndex | QPersistentModelIndex
STREAK = "F in a row"
"""The Farkle streak column's header: short, so the column stays narrow (its tool tip says it whole)."""
STREAK_TIP = "Farkles in a row since the player last banked"
"""The Farkle streak column's header in words, shown as its tool tip."""


class ScoreboardModel(QAbstractTableModel):
    """Name, banked score, on the board or not, and the Farkle streak (dice) or the Farkle cards held (cards)."""

    def __init__(self, controller: GameController) -> None:
        super().__init__(controller.signals)
        self._controller = controller
        self._state: GameState | None = controller.state
        controller.changed.connect(self.refresh)

    def refresh(self) -> None:
        self.beginResetModel()
        self._state = self._controller.state
        self.endResetModel()

    def columns(self) -> list[str]:
        state = self._state
        names = ["Player", "Score", "On the board"]
        if state is None or state.rules.kind is GameKind.DICE:
            names.append(STREAK)
        if state is not None and state.rules.turn.farkle_card_value:
            names.append("Farkle cards")
        return names

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() or self._state is None else len(self._state.players)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns())

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.columns()[section]
        if role == Qt.ItemDataRole.ToolTipRole and self.columns()[section] == STREAK:
            return STREAK_TIP
        return None

    def text(self, row: int, column: int) -> str:
        state = self._state
        assert state is not None
        player = state.players[row]
        entry = state.rules.turn.entry_minimum
        if column == 0:
            marks = []
            if row in state.winners:
                marks.append("WINNER")
            if state.turn is not None and state.turn.player == row:
                marks.append("to play")
            if state.lap_mark == row and not state.over:
                marks.append("set the mark")
            return player.name + (f"  ({', '.join(marks)})" if marks else "")
        if column == 1:
            return f"{player.score:,}"
        if column == 2:
            if player.on_board or not entry:
                return "yes"
            return f"no: needs {entry:,} in one turn"
        if self.columns()[column] == STREAK:
            return str(player.farkle_streak) if player.farkle_streak else ""
        return str(player.farkle_cards) if player.farkle_cards else ""

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        state = self._state
        if state is None or not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(row, column)
        current = state.turn is not None and state.turn.player == row
        if role == Qt.ItemDataRole.BackgroundRole:
            if row in state.winners:
                return QBrush(WINNER)
            if current:
                return QBrush(CURRENT)
        if role == Qt.ItemDataRole.FontRole and (current or row in state.winners):
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (1, 3, 4):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


class ScoreboardView(QTableView):
    """The scoreboard table, big type, no editing: always as tall as its rows, so every player's row
    is seen whole without scrolling, the player column taking the width the others leave."""

    def __init__(self, model: ScoreboardModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        font = self.font()
        font.setPointSize(max(font.pointSize(), 10) + 5)
        self.setFont(font)
        self.verticalHeader().setVisible(False)
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(False)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setSelectionMode(QTableView.SelectionMode.NoSelection)
        self.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        model.modelReset.connect(self.fit_rows)
        self.fit_rows()

    def fit_rows(self) -> None:
        """Stretch the player column and take the height of the header and every row."""
        header = self.horizontalHeader()
        if header.count():
            header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.resizeRowsToContents()
        scroll = self.horizontalScrollBar()
        below = scroll.sizeHint().height() if scroll.isVisible() else 0
        self.setFixedHeight(header.sizeHint().height() + self.verticalHeader().length() + 2 * self.frameWidth() + below)
