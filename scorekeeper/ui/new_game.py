"""The new game dialog: players (add, remove, reorder), the rules, the target, the Farkle penalty, each option."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.game import Game
from scorekeeper.game.state import MAX_NAME_LENGTH
from scorekeeper.rules import (
    FarkleError,
    IllegalAction,
    RuleSet,
    Ties,
    load_rules,
    numbered_variants,
    preset_names,
    variant_names,
)
from scorekeeper.rules.loading import MAX_POINTS
from scorekeeper.safe_input import is_plain_number, quote
from scorekeeper.ui.rules_view import rules_text


OPTIONS = (
    ("four_of_a_kind_as_two_pairs", "Four of a kind counts as two pairs toward three pairs"),
    ("instant_win_banks_turn", "Six of a kind scores the turn before it wins"),
    ("farkle_cards_count_toward_entry", "Farkle cards count toward getting on the board"),
    ("penalty_below_zero", "A Farkle penalty may take a score below zero (below-zero)"),
    ("play_off", "A tie at the end is played off"),
)
"""The questions the rule texts leave open, as switches (see the table in docs/rules-and-house-rules.md)."""
SWITCHED_VARIANTS = ("below-zero",)
"""Variants the dialog offers as one of :data:`OPTIONS` rather than as a variant of their own."""
PENALTY_VARIANT = "farkle-penalty-N"
"""The numbered variant the dialog's penalty box sets."""


def read_target(text: str, rules: RuleSet, players: int) -> int:
    """The target typed as ``text`` ("3,000" or "3000"), if a game of ``players`` under ``rules`` may
    be played to it; else :class:`~scorekeeper.rules.IllegalAction` saying what to type.

    >>> from scorekeeper.rules import load_rules
    >>> read_target("3,050", load_rules("retail"), 2)
    3050
    >>> read_target("three", load_rules("retail"), 2)
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalAction: play to 'three': type a number of points, such as 5,000
    """
    digits = text.replace(",", "").replace(" ", "").strip()
    if not is_plain_number(digits):
        raise IllegalAction(f"play to {quote(text)}: type a number of points, such as 5,000")
    target = int(digits)
    Game.new(rules, [f"player {seat + 1}" for seat in range(players)], target=target)
    return target



def option_values(rules: RuleSet) -> dict[str, bool]:
    """Each open question's answer under ``rules``."""
    return {
        "four_of_a_kind_as_two_pairs": rules.scoring.four_of_a_kind_as_two_pairs,
        "instant_win_banks_turn": rules.turn.instant_win_banks_turn,
        "farkle_cards_count_toward_entry": rules.turn.farkle_cards_count_toward_entry,
        "penalty_below_zero": rules.turn.penalty_below_zero,
        "play_off": rules.end.ties is Ties.PLAY_OFF,
    }


def with_options(rules: RuleSet, chosen: dict[str, bool]) -> RuleSet:
    """``rules`` with the open questions answered as ``chosen``.

    >>> from scorekeeper.rules import load_rules
    >>> with_options(load_rules("retail"), {"play_off": True}).end.ties
    <Ties.PLAY_OFF: 'play-off'>
    """
    values = {**option_values(rules), **chosen}
    if values == option_values(rules):
        return rules
    return replace(
        rules,
        scoring=replace(rules.scoring, four_of_a_kind_as_two_pairs=values["four_of_a_kind_as_two_pairs"]),
        turn=replace(
            rules.turn,
            instant_win_banks_turn=values["instant_win_banks_turn"],
            farkle_cards_count_toward_entry=values["farkle_cards_count_toward_entry"],
            penalty_below_zero=values["penalty_below_zero"],
        ),
        end=replace(rules.end, ties=Ties.PLAY_OFF if values["play_off"] else Ties.SHARED),
    )


@dataclass(frozen=True)
class GameSetup:
    """What the dialog settled on."""

    rules: RuleSet
    """The rules in force, variants applied."""
    players: tuple[str, ...]
    """Names in seat order."""
    target: int
    """The score the game is played to."""


class NewGameDialog(QDialog):
    """Players, rules preset or file, variants and target; the rules shown as they will be played."""

    def __init__(
        self, players: tuple[str, ...] = (), rules: str = "retail", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.rules_file: Path | None = None
        self.rules: RuleSet | None = None
        self.players = QListWidget()
        self.players.setDragDropMode(QListWidget.DragDropMode.InternalMove)
        self.name = QLineEdit()
        self.name.setMaxLength(MAX_NAME_LENGTH)
        self.name.setPlaceholderText("name, then Add")
        add = QPushButton("Add")
        remove = QPushButton("Remove")
        up = QPushButton("Up")
        down = QPushButton("Down")
        self.preset = QComboBox()
        self.preset.addItems(preset_names())
        self.preset.addItem("rules file...")
        self.file_label = QLabel()
        self.variants: dict[str, QCheckBox] = {}
        options = QGroupBox("Options")
        options_layout = QVBoxLayout(options)
        for name, description in sorted(variant_names().items()):
            if name in numbered_variants() or name in SWITCHED_VARIANTS:
                continue
            box = QCheckBox(f"{description} ({name})")
            self.variants[name] = box
            options_layout.addWidget(box)
            box.toggled.connect(lambda _=False: self.update_rules())
        self.options: dict[str, QCheckBox] = {}
        for name, description in OPTIONS:
            box = QCheckBox(description)
            self.options[name] = box
            options_layout.addWidget(box)
            box.toggled.connect(lambda _=False: self.update_rules())
        self.target = QComboBox()
        self.target.setEditable(True)
        self.target.setToolTip("The rules' own target, or type any multiple of 50 from 1,000 up")
        self.target.editTextChanged.connect(lambda _="": self._allow())
        self.target_note = QLabel()
        """Why the typed target cannot be played to (empty when it can; its line is kept, so the
        dialog does not jump while a number is typed)."""
        self.target_note.setStyleSheet("color: #b03a2e")
        self.target_note.setMinimumHeight(self.target_note.fontMetrics().height())
        self.penalty = QSpinBox()
        self.penalty.setRange(0, MAX_POINTS)
        self.penalty.setSingleStep(50)
        self.penalty.setGroupSeparatorShown(True)
        self.penalty.setKeyboardTracking(False)
        self.penalty.setSuffix(" points")
        self.penalty.setSpecialValueText("nothing (the score is safe)")
        self.penalty.setToolTip("Points each Farkle takes off the score, e.g. 100 or 500 (the variant farkle-penalty-N)")
        self.penalty.valueChanged.connect(lambda _=0: self.update_rules())
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        # The rules as they will be played scroll where they are longer than the dialog (many variants).
        summary_view = QScrollArea()
        summary_view.setWidget(self.summary)
        summary_view.setWidgetResizable(True)
        summary_view.setFrameShape(QFrame.Shape.NoFrame)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b03a2e")
        self.error.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.start_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        """Starts the game: a click only, never Enter (Enter in the name field adds the name)."""
        self.start_button.setText("Start the game")

        seats = QHBoxLayout()
        seats.addWidget(self.players, 1)
        side = QVBoxLayout()
        for button in (up, down, remove):
            side.addWidget(button)
        side.addStretch(1)
        seats.addLayout(side)
        adding = QHBoxLayout()
        adding.addWidget(self.name, 1)
        adding.addWidget(add)
        form = QFormLayout()
        form.addRow("Rules", self.preset)
        form.addRow("", self.file_label)
        form.addRow("Play to", self.target)
        form.addRow("", self.target_note)
        form.addRow("Each Farkle costs", self.penalty)
        layout = QHBoxLayout(self)
        left = QVBoxLayout()
        left.addWidget(QLabel("Players, in seat order (drag or Up/Down to reorder):"))
        left.addLayout(seats)
        left.addLayout(adding)
        left.addLayout(form)
        left.addWidget(options)
        left.addWidget(self.error)
        left.addWidget(self.buttons)
        layout.addLayout(left, 1)
        right = QVBoxLayout()
        right.addWidget(QLabel("The rules as they will be played:"))
        right.addWidget(summary_view, 1)
        layout.addLayout(right, 1)

        add.clicked.connect(self.add_player)
        self.name.returnPressed.connect(self.add_player)
        remove.clicked.connect(lambda: self.players.takeItem(self.players.currentRow()))
        up.clicked.connect(lambda: self.move_player(-1))
        down.clicked.connect(lambda: self.move_player(1))
        self.preset.currentIndexChanged.connect(self.preset_chosen)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.players.model().rowsInserted.connect(lambda *_: self.update_rules())
        self.players.model().rowsRemoved.connect(lambda *_: self.update_rules())
        for name in players:
            self.players.addItem(name)
        if rules in preset_names():
            self.preset.setCurrentText(rules)
        self.update_rules(reset_options=True)
        self.resize(900, 560)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Enter never starts the game (in the name field it adds the name): only the button does."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    def add_player(self) -> None:
        name = self.name.text().strip()
        if not name:
            return
        if any(n.casefold() == name.casefold() for n in self.names()):
            self.error.setText(f"There is already a player called {name!r}.")
            return
        self.players.addItem(name)
        self.name.clear()
        self.error.clear()

    def move_player(self, step: int) -> None:
        row = self.players.currentRow()
        if row < 0 or not 0 <= row + step < self.players.count():
            return
        item = self.players.takeItem(row)
        self.players.insertItem(row + step, item)
        self.players.setCurrentRow(row + step)

    def names(self) -> tuple[str, ...]:
        return tuple(self.players.item(row).text() for row in range(self.players.count()))

    def preset_chosen(self) -> None:
        if self.preset.currentText() == "rules file...":
            name, _ = QFileDialog.getOpenFileName(self, "Rules file", "", "Rules (*.toml)")
            self.rules_file = Path(name) if name else None
        self.update_rules(reset_options=True)

    def update_rules(self, reset_options: bool = False) -> None:
        chosen = [name for name, box in self.variants.items() if box.isChecked()]
        penalty = [PENALTY_VARIANT.replace("-N", f"-{self.penalty.value()}")]
        base: str | Path = self.preset.currentText()
        if base == "rules file...":
            if self.rules_file is None:
                self.file_label.setText("no file chosen")
                self.rules = None
                self._allow()
                return
            base = self.rules_file
            self.file_label.setText(str(self.rules_file))
        else:
            self.file_label.setText("")
        try:
            rules = load_rules(base, chosen)
            if reset_options or self.rules is None:
                for name, value in option_values(rules).items():
                    self.options[name].blockSignals(True)
                    self.options[name].setChecked(value)
                    self.options[name].blockSignals(False)
            if reset_options:
                self.penalty.blockSignals(True)
                self.penalty.setValue(rules.turn.each_farkle_penalty)
                self.penalty.blockSignals(False)
            if self.penalty.value() != rules.turn.each_farkle_penalty:
                rules = load_rules(base, [*chosen, *penalty])
            self.rules = with_options(rules, {name: box.isChecked() for name, box in self.options.items()})
        except FarkleError as exc:
            self.rules = None
            self.error.setText(str(exc))
            self._allow()
            return
        self.error.clear()
        keep = self.target.currentText()
        self.target.blockSignals(True)
        self.target.clear()
        self.target.addItems([f"{t:,}" for t in self.rules.allowed_targets(max(len(self.names()), 1))])
        if keep and self._target(keep) is not None:
            self.target.setCurrentText(keep)
        self.target.blockSignals(False)
        self._allow()

    def _target(self, text: str) -> int | None:
        """The target ``text`` asks for, or None (the reason shown under it) if the game cannot be played to it."""
        if self.rules is None:
            return None
        try:
            target = read_target(text, self.rules, max(len(self.names()), 1))
        except FarkleError as exc:
            self.target_note.setText(str(exc))
            return None
        self.target_note.clear()
        return target

    def _allow(self) -> None:
        target = self._target(self.target.currentText())
        if self.rules is not None:
            self.summary.setText(rules_text(self.rules, target))
        self.start_button.setEnabled(self.rules is not None and bool(self.names()) and target is not None)

    def setup(self) -> GameSetup | None:
        """The game to start, or None if the dialog is not complete."""
        target = self._target(self.target.currentText())
        if self.rules is None or not self.names() or target is None:
            return None
        return GameSetup(self.rules, self.names(), target)
