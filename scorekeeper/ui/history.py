"""Every turn of every player, and a past turn corrected afterwards.

A correction replays the game with the turn played as corrected (see
:func:`scorekeeper.game.history_edits.with_turn_replaced`): all totals after it follow,
and the journal appends the new log, never rewriting what it holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
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
from scorekeeper.game import (
    Action,
    Banked,
    DiceRolled,
    DieCorrected,
    Farkled,
    FreshDice,
    Kept,
    Piggybacked,
    PointsEntered,
    face_from_str,
    face_to_str,
)
from scorekeeper.game.history_edits import segments
from scorekeeper.rules import Dice, FarkleError
from scorekeeper.ui.controller import GameController

Index = QModelIndex | QPersistentModelIndex

STEP_HELP = (
    "One step a line: roll 1 1 5 2 3 4 / keep 1 1 5 / correct 3 5 (- for a missed die or not a die) / "
    "points 400 / bank / farkle / piggyback or fresh (first in a turn offered the last bank's pot)"
)


def step_text(action: Action) -> str:
    """A step of a turn as one line of the turn editor.

    >>> step_text(Kept(Dice.from_str("1 1 5")))
    'keep 1 1 5'
    """
    if isinstance(action, DiceRolled):
        return f"roll {action.dice}"
    if isinstance(action, Kept):
        return f"keep {action.dice}"
    if isinstance(action, DieCorrected):
        return f"correct {face_to_str(action.was)} {face_to_str(action.now)}"
    if isinstance(action, PointsEntered):
        return f"points {action.points}" + (f" {action.note}" if action.note else "")
    if isinstance(action, Banked):
        return "bank"
    if isinstance(action, Farkled):
        return "farkle"
    if isinstance(action, Piggybacked):
        return "piggyback"
    if isinstance(action, FreshDice):
        return "fresh"
    raise FarkleError(f"{action!r} is not a step of a turn")


def parse_step(line: str) -> Action:
    """One line of the turn editor as a step.

    >>> parse_step("correct - 5")
    DieCorrected(was=None, now=5, picture=None, photo=None)
    """
    words = line.split()
    kind, rest = words[0].lower(), words[1:]
    try:
        if kind == "roll":
            return DiceRolled(Dice.from_str(" ".join(rest)), "typed")
        if kind == "keep":
            return Kept(Dice.from_str(" ".join(rest)))
        if kind == "correct" and len(rest) == 2:
            return DieCorrected(face_from_str(rest[0]), face_from_str(rest[1]))
        if kind == "points" and rest and rest[0].isdigit():
            return PointsEntered(int(rest[0]), " ".join(rest[1:]))
        if kind == "bank" and not rest:
            return Banked()
        if kind == "farkle" and not rest:
            return Farkled()
        if kind == "piggyback" and not rest:
            return Piggybacked()
        if kind == "fresh" and not rest:
            return FreshDice()
    except ValueError as exc:
        raise FarkleError(f"step {line!r}: {exc}") from None
    raise FarkleError(f"step {line!r} is not one of: {STEP_HELP}")


def parse_steps(text: str) -> list[Action]:
    """Every non-empty line of the editor as a step."""
    return [parse_step(line) for line in text.splitlines() if line.strip()]


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
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        turn = self.turns[index.row()]
        seat = self._controller.state.players if self._controller.state else ()
        after = turn.totals[[p.name for p in seat].index(turn.player)] if seat else 0
        kept = list(turn.kept) + list(turn.entries())
        penalty = f" (-{turn.penalty:,})" if turn.penalty else ""
        return (
            str(turn.number),
            turn.player,
            " / ".join(turn.rolls),
            " / ".join(kept),
            turn.outcome + penalty,
            f"{turn.points:,}",
            f"{after:,}",
        )[index.column()]


def carry_pictures(before: Sequence[Action], after: Sequence[Action]) -> list[Action]:
    """``after`` with each roll and correction keeping the pictures of the same step ``before`` (a roll
    of the same dice, a correction with the same faces; each used once, in order): the text shows no
    picture, and a step the edit leaves as it was must stay the step it was: a tap keeps its training
    picture (withdrawn if it is ever undone), a roll the camera took keeps its picture on the sheet.

    >>> before = [DiceRolled(Dice.from_str("2 3 4"), "camera", "a" * 64), DieCorrected(3, 5, "tap.png")]
    >>> after = carry_pictures(before, [DiceRolled(Dice.from_str("2 3 4")), DieCorrected(3, 5), DieCorrected(3, 5)])
    >>> after[0].photo == "a" * 64, [(step.picture, step.photo) for step in after[1:]]
    (True, [('tap.png', None), (None, None)])
    """
    left = [a for a in before if isinstance(a, (DiceRolled, DieCorrected))]
    out: list[Action] = []
    for action in after:
        if isinstance(action, DiceRolled):
            roll = next((a for a in left if isinstance(a, DiceRolled) and a.dice == action.dice), None)
            if roll is not None:
                left.remove(roll)
                action = replace(action, source=roll.source, photo=roll.photo)
        elif isinstance(action, DieCorrected):
            tap = next((a for a in left if isinstance(a, DieCorrected) and (a.was, a.now) == (action.was, action.now)), None)
            if tap is not None:
                left.remove(tap)
                action = replace(action, picture=tap.picture, photo=tap.photo)
        out.append(action)
    return out


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
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
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
