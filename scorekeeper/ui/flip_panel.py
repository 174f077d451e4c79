"""The current turn under the card edition (Farkle Flip): no dice, so combinations are
picked from the chart or typed as points, and a drawn Farkle card ends the turn."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from scorekeeper.game import PointsEntered
from scorekeeper.game.commands import take_step
from scorekeeper.rules import Dice, FarkleError, RuleSet, score_roll
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.keyboard import PointsEntry
from scorekeeper.ui.turn_panel import big, turn_headline, turn_notes

CHART = (
    ("a 1", "1"),
    ("a 5", "5"),
    ("three 1s", "1 1 1"),
    ("three 2s", "2 2 2"),
    ("three 3s", "3 3 3"),
    ("three 4s", "4 4 4"),
    ("three 5s", "5 5 5"),
    ("three 6s", "6 6 6"),
    ("straight 1-6", "1 2 3 4 5 6"),
    ("three pairs", "2 2 3 3 4 4"),
    ("four of a kind and a pair", "2 2 2 2 3 3"),
    ("two triplets", "2 2 2 3 3 3"),
)
"""The chart's combinations, each with cards that make it (scored by the rules in force)."""

KINDS = ((4, "four"), (5, "five"), (6, "six"))
"""Four, five and six of a kind: one button when every face scores alike, else one a face."""


def chart(rules: RuleSet) -> list[tuple[str, int]]:
    """Every combination on the chart with its points under ``rules`` (those that score).

    >>> from scorekeeper.rules import load_rules
    >>> chart(load_rules("flip"))[:3]
    [('a 1', 100), ('a 5', 50), ('three 1s', 1000)]
    """
    found = []
    for name, cards in CHART:
        dice = Dice.from_str(cards)
        scored = score_roll(rules, dice)
        try:
            points = scored.option_for(dice).points
        except FarkleError:
            continue
        if len(dice) == 6 and any(len(c.dice) < 6 for c in scored.option_for(dice).split):
            continue
        found.append((name, points))
        if name == "three 6s":
            found += _of_a_kind(rules)
    return found


def _of_a_kind(rules: RuleSet) -> list[tuple[str, int]]:
    """Four, five and six of a kind on the chart, e.g. ``("four of a kind", 1000)``.

    >>> from scorekeeper.rules import load_rules
    >>> _of_a_kind(load_rules("flip"))
    [('four of a kind', 1000), ('five of a kind', 2000), ('six of a kind', 3000)]
    """
    found = []
    for count, word in KINDS:
        points = {face: rules.scoring.of_a_kind(face, count) for face in range(1, 7)}
        if len(set(points.values())) == 1:
            found += [(f"{word} of a kind", points[1])] if points[1] else []
        else:
            found += [(f"{word} {face}s", value) for face, value in points.items() if value]
    return found


class FlipPanel(QWidget):
    """Combinations banked this turn (chart buttons or typed points), Farkle card drawn, Bank."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.headline = big(QLabel(), 6)
        self.notes = big(QLabel(), 2)
        self.notes.setStyleSheet("color: #8a5a00")
        self.headline.setWordWrap(True)
        self.notes.setWordWrap(True)
        self.chart = QWidget()
        self.chart_layout = QGridLayout(self.chart)
        self.chart_buttons: list[QPushButton] = []
        self.points = PointsEntry()
        self.add_points = QPushButton("Add points (Enter)")
        self.card_button = big(QPushButton("Farkle card drawn: the turn ends (F)"), 3)
        self.card_button.setStyleSheet("color: #b03a2e")
        self.bank_button = big(QPushButton("Bank (B)"), 4)
        self.undo_button = QPushButton("Undo (Z)")
        self.redo_button = QPushButton("Redo (Y)")
        self.message = QLabel()
        self.message.setWordWrap(True)
        typed = QHBoxLayout()
        typed.addWidget(QLabel("Or type the points:"))
        typed.addWidget(self.points)
        typed.addWidget(self.add_points)
        typed.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.card_button)
        buttons.addWidget(self.bank_button)
        buttons.addStretch(1)
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.redo_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.notes)
        layout.addWidget(QLabel("Combinations banked this turn (from the chart):"))
        layout.addWidget(self.chart)
        layout.addLayout(typed)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.add_points.clicked.connect(lambda: self.enter(self.points.value(), ""))
        self.points.submitted.connect(lambda points: self.enter(points, ""))
        self.points.command.connect(self.command)
        self.card_button.clicked.connect(lambda: self.command("farkle"))
        self.bank_button.clicked.connect(lambda: self.command("bank"))
        self.undo_button.clicked.connect(lambda: self.command("undo"))
        self.redo_button.clicked.connect(lambda: self.command("redo"))
        controller.changed.connect(self.refresh)
        controller.refused.connect(lambda text: self._say(f"Not allowed: {text}", "#b03a2e"))
        controller.notice.connect(lambda text: self._say(text, "#1e5631"))
        self._rules: RuleSet | None = None
        self.refresh()

    def _say(self, text: str, colour: str) -> None:
        self.message.setStyleSheet(f"color: {colour}")
        self.message.setText(text)

    def command(self, name: str) -> None:
        """A step from a button or a key: bank, farkle (a Farkle card drawn), undo or redo."""
        self.controller.act(lambda game: take_step(game, name))

    def enter(self, points: int, note: str) -> None:
        if self.controller.take(PointsEntered(points, note)):
            self.points.setValue(0)
            self.points.selectAll()

    def refresh(self) -> None:
        state = self.controller.state
        if state is None:
            return
        if state.rules is not self._rules:
            self._rules = state.rules
            for button in self.chart_buttons:
                button.deleteLater()
            self.chart_buttons = []
            for number, (name, points) in enumerate(chart(state.rules)):
                button = QPushButton(f"{name}: {points:,}")
                button.clicked.connect(lambda _=False, p=points, n=name: self.enter(p, n))
                self.chart_layout.addWidget(button, number // 3, number % 3)
                self.chart_buttons.append(button)
        self.headline.setText(turn_headline(state))
        notes = turn_notes(state)
        self.notes.setText(notes)
        self.notes.setVisible(bool(notes))
        playing = state.turn is not None
        self.chart.setEnabled(playing)
        self.add_points.setEnabled(playing)
        self.card_button.setEnabled(playing)
        self.bank_button.setVisible(state.can_bank())
        total, bonus = state.bank_value()
        extra = f" + {bonus:,} for Farkle cards" if bonus else ""
        self.bank_button.setText(f"Bank {total:,}{extra} (B)")
        game = self.controller.game
        self.undo_button.setEnabled(game is not None and game.can_undo)
        self.redo_button.setEnabled(game is not None and game.can_redo)
