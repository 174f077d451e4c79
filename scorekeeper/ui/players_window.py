"""Game > Players: every finished game of the scorekeeper home added up per player, head to head
with the player chosen, and the records with the game each comes from (its score sheet opens in
the browser). A name typed two ways is merged into another here, and kept so.

It draws and forwards what is asked; the numbers, the merges and what they refuse come from
:mod:`scorekeeper.stats.history`, which ``scorekeeper history`` prints.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, QSortFilterProxyModel, Qt, QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.errors import ScorekeeperError
from scorekeeper.export import write_sheet
from scorekeeper.game.games_folder import games_folder
from scorekeeper.game.save import game_file_kind, load_events
from scorekeeper.stats.history import (
    PLAYER_COLUMNS,
    GamesRead,
    HeadToHead,
    History,
    Merges,
    PlayerRecord,
    Record,
    counted_line,
    load_merges,
    merge_players,
    player_key,
    read_games,
    summarise,
    unmerge_player,
    when,
)
from scorekeeper.ui.plain_labels import make_plain

Index = QModelIndex | QPersistentModelIndex
SORT_ROLE = Qt.ItemDataRole.UserRole
"""The role whose value a column sorts by (numbers as numbers, names without case)."""
ALL_RULES = "All rules"
"""The rules filter's first choice: every game counted."""
HEAD_TO_HEAD_COLUMNS = ("Opponent", "Games together", "Ahead", "Behind")
"""The head-to-head table's headings."""
RECORD_COLUMNS = ("Record", "Amount", "Player", "Game", "File")
"""The records table's headings."""


class PlayersModel(QAbstractTableModel):
    """One row per player of a :class:`History`, the columns of :data:`PLAYER_COLUMNS` by name."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._players: tuple[PlayerRecord, ...] = ()

    def set_players(self, players: tuple[PlayerRecord, ...]) -> None:
        """Show ``players``, a row each in this order."""
        self.beginResetModel()
        self._players = players
        self.endResetModel()

    def player(self, row: int) -> PlayerRecord:
        """The player of ``row``."""
        return self._players[row]

    @staticmethod
    def column(title: str) -> int:
        """The column headed ``title``."""
        return [column.title for column in PLAYER_COLUMNS].index(title)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 - Qt's signature
        return 0 if parent.isValid() else len(self._players)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(PLAYER_COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        column, player = PLAYER_COLUMNS[index.column()], self._players[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return column.cell(player)
        if role == SORT_ROLE:
            return column.sort_key(player)
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 0 and len(player.spellings) > 1:
            return "Typed as " + ", ".join(player.spellings)
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return PLAYER_COLUMNS[section].title
        if role == Qt.ItemDataRole.ToolTipRole:
            return PLAYER_COLUMNS[section].explained
        return None


class RowsModel(QAbstractTableModel):
    """Rows of text cells under fixed headings (head to head, the records), numbers to the right."""

    def __init__(self, headings: tuple[str, ...], numbers: frozenset[int], parent: QWidget | None = None) -> None:
        """``numbers``: the columns that hold numbers."""
        super().__init__(parent)
        self._headings = headings
        self._numbers = numbers
        self._rows: list[tuple[str, ...]] = []

    def set_rows(self, rows: list[tuple[str, ...]]) -> None:
        """Show ``rows``."""
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._headings)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._rows[index.row()][index.column()]
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in self._numbers:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headings[section]
        return None


def head_to_head_rows(history: History, player: str) -> list[tuple[str, ...]]:
    """The head-to-head rows of ``player`` (as shown), most games together first."""
    mine: list[HeadToHead] = sorted((h for h in history.head_to_head if h.player == player), key=lambda h: -h.games)
    return [(h.opponent, f"{h.games:,}", f"{h.ahead:,}", f"{h.behind:,}") for h in mine]


def record_row(record: Record) -> tuple[str, ...]:
    """A record's cells under :data:`RECORD_COLUMNS`."""
    return (record.what.capitalize(), record.amount, record.player, when(record.started_at), record.game.name)


def _table(model: QAbstractItemModel) -> QTableView:
    table = QTableView()
    table.setModel(model)
    table.verticalHeader().hide()
    table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QTableView.SelectionMode.SingleSelection)
    table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    return table


class PlayersWindow(QDialog):
    """The players over every finished game of a home, head to head and the records."""

    def __init__(self, home: Path, parent: QWidget | None = None, open_url: Callable[[QUrl], bool] = QDesktopServices.openUrl) -> None:
        """``home``: the scorekeeper home whose games are read; ``open_url`` opens a sheet written
        for a record's game (the desktop's browser; a test passes its own)."""
        super().__init__(parent)
        self.setWindowTitle("Players: every game remembered")
        self._home = home
        self._open_url = open_url
        self._read = GamesRead(games_folder(home), (), (), ())
        self.history = History(0, 0, (), (), (), ())
        self.counted = QLabel()
        self.counted.setWordWrap(True)
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setStyleSheet("color: #a04000")
        self.rules = QComboBox()
        self.rules.currentIndexChanged.connect(lambda _=0: self.refresh())
        self.model = PlayersModel(self)
        self.sorted = QSortFilterProxyModel(self)
        self.sorted.setSourceModel(self.model)
        self.sorted.setSortRole(SORT_ROLE)
        self.players = _table(self.sorted)
        self.players.setSortingEnabled(True)
        self.players.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.players.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.players.selectionModel().selectionChanged.connect(lambda *_: self._show_head_to_head())
        self.merge_button = QPushButton("Merge into another name...")
        self.merge_button.setToolTip("Count the chosen player as another one from now on, in every game (the games are not changed)")
        self.merge_button.clicked.connect(self.choose_merge)
        self.unmerge_button = QPushButton("Undo a merge...")
        self.unmerge_button.setToolTip("Count a name merged into the chosen player as a player of their own again")
        self.unmerge_button.clicked.connect(self.choose_unmerge)
        self._merges = Merges()
        self.head_to_head_title = QLabel()
        self.head_to_head = RowsModel(HEAD_TO_HEAD_COLUMNS, frozenset({1, 2, 3}), self)
        self.head_to_head_table = _table(self.head_to_head)
        self.records = RowsModel(RECORD_COLUMNS, frozenset({1}), self)
        self.records_table = _table(self.records)
        self.records_table.setMinimumHeight(4 * self.records_table.verticalHeader().defaultSectionSize())
        self.records_table.doubleClicked.connect(lambda index: self.open_sheet(index.row()))
        self.open_button = QPushButton("Open the game's score sheet")
        self.open_button.clicked.connect(lambda: self.open_sheet(self._record_row()))
        self._build_layout()
        make_plain(self)
        self.reload()
        self.resize(960, 680)

    def _build_layout(self) -> None:
        layout = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(self.counted, 1)
        top.addWidget(QLabel("Rules:"))
        top.addWidget(self.rules)
        layout.addLayout(top)
        layout.addWidget(self.notes)
        layout.addWidget(self.players, 3)
        row = QHBoxLayout()
        row.addWidget(self.head_to_head_title, 1)
        row.addWidget(self.merge_button)
        row.addWidget(self.unmerge_button)
        layout.addLayout(row)
        layout.addWidget(self.head_to_head_table, 2)
        records_row = QHBoxLayout()
        records_row.addWidget(QLabel("Records across the games"), 1)
        records_row.addWidget(self.open_button)
        layout.addLayout(records_row)
        layout.addWidget(self.records_table, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def reload(self) -> None:
        """Read the games folder again, and show it under the rules chosen (if they are still there)."""
        self._read = read_games(self._home)
        chosen = self.rules.currentText()
        names = sorted({game.rules for game in self._read.finished})
        self.rules.blockSignals(True)
        self.rules.clear()
        self.rules.addItems([ALL_RULES, *names])
        self.rules.setCurrentIndex(max(0, self.rules.findText(chosen)))
        self.rules.blockSignals(False)
        self.refresh()

    def refresh(self) -> None:
        """Add the games read up again under the rules chosen and the merges kept."""
        self._merges, problem = load_merges(self._home)
        rules = None if self.rules.currentIndex() <= 0 else self.rules.currentText()
        self.history = summarise(self._read, self._merges, rules=rules)
        chosen = self.selected_player()
        self.model.set_players(self.history.players)
        self.counted.setText(f"{counted_line(self.history)} in {self._read.folder}")
        notes = [note for note in (self._read.cache_note, problem) if note] + [str(skipped) for skipped in self.history.skipped]
        self.notes.setText("\n".join(notes))
        self.notes.setVisible(bool(notes))
        self.records.set_rows([record_row(record) for record in self.history.records])
        self.open_button.setEnabled(bool(self.history.records))
        shown = [player.name for player in self.history.players]
        self.select_player(chosen if chosen in shown else (shown[0] if shown else ""))

    def selected_player(self) -> str | None:
        """The name of the player chosen in the table, if one is."""
        rows = self.players.selectionModel().selectedRows()
        if not rows:
            return None
        return self.model.player(self.sorted.mapToSource(rows[0]).row()).name

    def select_player(self, name: str) -> None:
        """Choose the player shown as ``name`` (nothing where there is none such)."""
        self.players.clearSelection()
        for row in range(self.model.rowCount()):
            if self.model.player(row).name == name:
                self.players.selectRow(self.sorted.mapFromSource(self.model.index(row, 0)).row())
        self._show_head_to_head()

    def _show_head_to_head(self) -> None:
        name = self.selected_player()
        self.merge_button.setEnabled(name is not None and len(self.history.players) > 1)
        self.unmerge_button.setEnabled(bool(self._merged_spellings()))
        if name is None:
            self.head_to_head_title.setText("Head to head: choose a player above")
            self.head_to_head.set_rows([])
            return
        rows = head_to_head_rows(self.history, name)
        self.head_to_head_title.setText(f"Head to head: {name}" + ("" if rows else " has played no one yet"))
        self.head_to_head.set_rows(rows)

    def choose_merge(self) -> None:
        """Ask which name the chosen player is, and merge them into it."""
        name = self.selected_player()
        if name is None:
            return
        others = [player.name for player in self.history.players if player.name != name]
        into, chosen = QInputDialog.getItem(
            self, "Merge a name", f"Count {name} as (in every game, from now on):", others, 0, False
        )
        if chosen and into:
            self.merge(name, into)

    def merge(self, name: str, into: str) -> bool:
        """Merge the player ``name`` into ``into``; says why where it is refused."""
        try:
            merge_players(self._home, self._read, name, into)
        except ScorekeeperError as exc:
            QMessageBox.warning(self, "Cannot merge", str(exc))
            return False
        except OSError as exc:
            QMessageBox.warning(self, "Cannot merge", f"{self._home}: the merge cannot be kept: {exc.strerror or exc}")
            return False
        self.refresh()
        self.select_player(next((p.name for p in self.history.players if name in p.spellings or p.name == into), into))
        return True

    def _merged_spellings(self) -> list[str]:
        """The names merged into the chosen player, as typed."""
        name = self.selected_player()
        player = next((p for p in self.history.players if p.name == name), None)
        return [typed for typed in player.spellings if player_key(typed) in self._merges.into] if player is not None else []

    def choose_unmerge(self) -> None:
        """Ask which name merged into the chosen player is a player of their own, and undo its merge."""
        merged = self._merged_spellings()
        if not merged:
            return
        name, chosen = QInputDialog.getItem(self, "Undo a merge", "Count as a player of their own again:", merged, 0, False)
        if chosen and name:
            self.unmerge(name)

    def unmerge(self, name: str) -> bool:
        """Undo the merge of the name ``name``; says why where it cannot be."""
        try:
            unmerge_player(self._home, name)
        except ScorekeeperError as exc:
            QMessageBox.warning(self, "Cannot undo the merge", str(exc))
            return False
        except OSError as exc:
            QMessageBox.warning(self, "Cannot undo the merge", f"{self._home}: the change cannot be kept: {exc.strerror or exc}")
            return False
        self.refresh()
        return True

    def _record_row(self) -> int:
        rows = self.records_table.selectionModel().selectedRows()
        return rows[0].row() if rows else 0

    def open_sheet(self, row: int) -> Path | None:
        """Write the HTML score sheet of the game of record ``row`` to a temporary folder and open it
        in the browser; returns the sheet, or None (saying why) where it cannot be."""
        if not 0 <= row < len(self.history.records):
            return None
        game = self.history.records[row].game
        sheet = Path(tempfile.mkdtemp(prefix="scorekeeper-sheet-")) / f"{game.stem}.html"
        try:
            events, _ = load_events(game)
            write_sheet(events, sheet, "html", game if game_file_kind(game) == "journal" else None)
        except (ScorekeeperError, OSError) as exc:
            QMessageBox.warning(self, "Cannot open the score sheet", str(exc))
            return None
        if not self._open_url(QUrl.fromLocalFile(str(sheet))):
            QMessageBox.information(self, "The score sheet", f"No browser opened it; the sheet is in {sheet}")
        return sheet
