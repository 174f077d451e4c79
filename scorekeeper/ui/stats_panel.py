"""The table statistics: a row per player, and the dice faces read with the chi-square verdict.

Like the coach's hint it follows a game source (``changed`` signal, ``events``
and ``state``: the window's controller) or is shown a log with
:meth:`StatsPanel.show_events`. The numbers come from :mod:`scorekeeper.stats`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen, QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.coach import Policy, rules_key
from scorekeeper.game import Event, GameStarted
from scorekeeper.stats import (
    EXPLAINED,
    HEADER,
    NOTE,
    FairnessTest,
    coach_for,
    counted,
    face_counts,
    fairness,
    saved_face_counts,
    stats_rows,
)

log = logging.getLogger(__name__)

Index = QModelIndex | QPersistentModelIndex
SHORT_HEADER = ("Player", "Turns", "Farkles", "Rate", "Avg turn", "Best", "Per turn", "Left")
"""Column titles narrow enough for a side panel; the tooltips give :data:`scorekeeper.stats.HEADER`."""


class PlayerStatsModel(QAbstractTableModel):
    """One row per player, the columns of :data:`scorekeeper.stats.HEADER`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, ...]] = []

    def set_rows(self, rows: list[tuple[str, ...]]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADER)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return SHORT_HEADER[section]
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{HEADER[section]}: {EXPLAINED[section]}" if EXPLAINED[section] else HEADER[section]
        return None


class FaceChart(QWidget):
    """A bar per face with its count, and a dashed line where fair dice would put them."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._counts: tuple[int, ...] = (0,) * 6
        self._suspicious = False
        self.setMinimumSize(240, 150)

    def counts(self) -> tuple[int, ...]:
        """The counts drawn, faces 1-6."""
        return self._counts

    def set_result(self, result: FairnessTest) -> None:
        """Draw ``result``'s counts, in red when the test finds the faces uneven."""
        self._counts = result.counts
        self._suspicious = result.suspicious()
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        metrics = painter.fontMetrics()
        line = metrics.height()
        width, height = self.width(), self.height()
        top, bottom = line + 4, height - line - 4
        slot = width / 6
        total = sum(self._counts)
        expected = total / 6
        tallest = max(max(self._counts), expected, 1)
        scale = (bottom - top) / tallest
        colour = QColor("#c0392b") if self._suspicious else QColor("#2e86c1")
        for face, count in enumerate(self._counts):
            x = face * slot + slot * 0.15
            bar = QRectF(x, bottom - count * scale, slot * 0.7, count * scale)
            painter.fillRect(bar, colour)
            painter.setPen(self.palette().text().color())
            label = QRectF(face * slot, bottom - count * scale - line - 2, slot, line)
            painter.drawText(label, Qt.AlignmentFlag.AlignCenter, str(count))
            painter.drawText(QRectF(face * slot, bottom + 2, slot, line), Qt.AlignmentFlag.AlignCenter, str(face + 1))
        if total:
            pen = QPen(QColor("#555555"))
            pen.setStyle(Qt.PenStyle.DashLine)
            painter.setPen(pen)
            level = bottom - expected * scale
            painter.drawLine(0, int(level), width, int(level))
        painter.end()


class StatsPanel(QWidget):
    """Per-player statistics and the fairness of the dice, this game and across saved games."""

    def __init__(self, source: Any = None, policy: Policy | None = None, parent: QWidget | None = None) -> None:
        """``source``: an object with a ``changed`` signal and an ``events`` log (the window's
        GameController); None to feed logs with :meth:`show_events`. ``policy``: the coach for the
        "left on the table" column; None looks up the policy of the game's rules."""
        super().__init__(parent)
        self._source = source
        self._policy = policy
        self._events: tuple[Event, ...] = ()
        self._stale = True
        self.model = PlayerStatsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.explained = QLabel(NOTE)
        self.explained.setWordWrap(True)
        self.explained.setStyleSheet("color: #555")
        self.game_chart = FaceChart()
        self.game_result = QLabel()
        self.game_result.setWordWrap(True)
        self.saved_chart = FaceChart()
        self.saved_result = QLabel("Across saved games: choose the games to add up.")
        self.saved_result.setWordWrap(True)
        self.choose = QPushButton("Choose saved games...")
        self.choose.clicked.connect(self._choose_saved)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Players"))
        layout.addWidget(self.table, 1)
        layout.addWidget(self.explained)
        layout.addWidget(QLabel("Dice faces read this game (after corrections)"))
        layout.addWidget(self.game_chart, 1)
        layout.addWidget(self.game_result)
        saved_row = QHBoxLayout()
        saved_row.addWidget(QLabel("Across saved games"))
        saved_row.addStretch(1)
        saved_row.addWidget(self.choose)
        layout.addLayout(saved_row)
        layout.addWidget(self.saved_chart, 1)
        layout.addWidget(self.saved_result)
        self.saved_chart.hide()
        if source is not None:
            source.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Read the source's log again (deferred while the panel is hidden)."""
        if self._source is not None:
            self._events = tuple(self._source.events)
        self._stale = True
        if self.isVisible() or self._source is None:
            self._update()

    def show_events(self, events: Iterable[Event]) -> None:
        """Show the statistics of the game whose log is ``events``."""
        self._events = tuple(events)
        self._stale = True
        self._update()

    def game_fairness(self) -> FairnessTest:
        """The chi-square test of this game's faces."""
        return fairness(face_counts(self._events) if self._events else (0,) * 6)

    def set_saved_games(self, paths: Sequence[str | Path]) -> FairnessTest:
        """Add up the faces of the saved games at ``paths`` (files that cannot be read are named and left out)."""
        counts, skipped = saved_face_counts(paths)
        result = fairness(counts)
        self.saved_chart.set_result(result)
        self.saved_chart.show()
        read = len(paths) - len(skipped)
        text = f"{read} saved game{'s' if read != 1 else ''}: {result}"
        if skipped:
            text += "\nLeft out: " + "; ".join(skipped)
        self.saved_result.setText(text)
        return result

    def showEvent(self, event: QShowEvent) -> None:
        if self._stale:
            self._update()
        super().showEvent(event)

    def _update(self) -> None:
        self._stale = False
        if not self._events:
            self.model.set_rows([])
            self.game_chart.set_result(fairness((0,) * 6))
            self.game_result.setText("No game yet.")
            return
        self.model.set_rows(stats_rows(self._events, self._coach()))
        result = self.game_fairness()
        self.game_chart.set_result(result)
        self.game_result.setText(f"{result}\n{counted(self._events)}")

    def _coach(self) -> Policy | None:
        started = self._events[0]
        if self._policy is not None and isinstance(started, GameStarted):
            if rules_key(self._policy.rules) == rules_key(started.rules):
                return self._policy
        coach = coach_for(self._events)
        if coach is not None:
            self._policy = coach
        return coach

    def _choose_saved(self) -> None:
        home = getattr(self._source, "home", None)
        folder = str(Path(home) / "games") if home is not None else ""
        paths, _ = QFileDialog.getOpenFileNames(
            self, "Saved games to add up", folder, "Saved games and journals (*.json *.jsonl);;All files (*)"
        )
        if paths:
            self.set_saved_games(paths)
