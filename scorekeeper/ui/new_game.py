"""The new game dialog: players (add, remove, reorder), the rules, the target, each option."""

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
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.game.state import MAX_NAME_LENGTH
from scorekeeper.rules import FarkleError, RuleSet, Ties, load_rules, preset_names, variant_names
from scorekeeper.ui.rules_view import rules_text


OPTIONS = (
    ("four_of_a_kind_as_two_pairs", "Four of a kind counts as two pairs toward three pairs"),
    ("instant_win_banks_turn", "Six of a kind scores the turn before it wins"),
    ("farkle_cards_count_toward_entry", "Farkle cards count toward getting on the board"),
    ("penalty_below_zero", "The Farkle penalty may take a score below zero"),
    ("play_off", "A tie at the end is played off"),
)
"""The questions the rule texts leave open, as switches (see the README's table)."""


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
        self.summary = QLabel()
        self.summary.setWordWrap(True)
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
        right.addWidget(self.summary, 1)
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
            self.rules = with_options(rules, {name: box.isChecked() for name, box in self.options.items()})
        except FarkleError as exc:
            self.rules = None
            self.error.setText(str(exc))
            self._allow()
            return
        self.error.clear()
        keep = self.target.currentText()
        self.target.clear()
        self.target.addItems([f"{t:,}" for t in self.rules.allowed_targets(max(len(self.names()), 1))])
        if keep and self.target.findText(keep) >= 0:
            self.target.setCurrentText(keep)
        self.summary.setText(rules_text(self.rules))
        self._allow()

    def _allow(self) -> None:
        ok = self.rules is not None and bool(self.names())
        self.start_button.setEnabled(ok)

    def setup(self) -> GameSetup | None:
        """The game to start, or None if the dialog is not complete."""
        if self.rules is None or not self.names():
            return None
        return GameSetup(self.rules, self.names(), int(self.target.currentText().replace(",", "")))
