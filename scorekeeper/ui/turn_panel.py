"""The current turn (dice edition): the roll, its keeps best first, Roll again or Bank."""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from scorekeeper.game import GameState, Kept, game_over
from scorekeeper.game.commands import take_step, typing_hint
from scorekeeper.game.describe import PotChoice, piggyback_offer_text, pot_choices
from scorekeeper.rules import FarkleError, GameKind, KeepOption
from scorekeeper.scoreboard.banner import FARKLE_SEEN, farkle_banner_text
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.dice_row import DiceRow
from scorekeeper.ui.keyboard import DiceEntry
from scorekeeper.ui.typing_line import TypingLine

W = TypeVar("W", bound=QWidget)

MAX_KEEP_BUTTONS = 8
"""Keeps shown as buttons; the rest can be typed."""


TYPING_PROMPT = "type here, then Enter"
"""What the empty typing line says; what it takes is said whole under it (:func:`typing_hint`)."""


def big(widget: W, extra: int, bold: bool = True) -> W:
    """The widget, its type ``extra`` points larger: the window is read from across the table."""
    font = widget.font()
    font.setPointSize(max(font.pointSize(), 10) + extra)
    font.setBold(bold)
    widget.setFont(font)
    return widget


def turn_headline(state: GameState) -> str:
    """Whose turn it is and where it stands, in one line."""
    turn, player = state.turn, state.current
    if turn is None or player is None:
        if state.winners:
            return game_over(state)
        return "Add players to start."
    piggybacked = f" ({turn.pot:,} piggybacked)" if turn.pot else ""
    parts = [f"{player.name}'s turn", f"{turn.total:,} this turn{piggybacked}"]
    if state.rules.kind is GameKind.DICE and turn.roll is None:
        parts.append(f"{turn.dice_left} dice to roll" if turn.dice_left else "all dice scored")
    return ": ".join(parts[:1]) + ": " + ", ".join(parts[1:])


def missing_text(state: GameState) -> str:
    """What the banner says while the roll on the table waits for dice the camera did not read ("" when none)."""
    missing = state.missing_dice()
    if not missing or state.turn is None:
        return ""
    return (
        f"{missing} of the {state.turn.dice_left} dice not read: this roll is not scored until "
        f"{'it is' if missing == 1 else 'they are'} added. "
        "Tap where each missed die lies, or type c - FACE; Z takes the roll back to throw again."
    )


def turn_notes(state: GameState) -> str:
    """Entry minimum, last lap and play-off, as the table needs to hear them: one line, a sentence
    starting with a capital."""
    notes = []
    offer = piggyback_offer_text(state)
    if offer:
        notes.append(offer.removesuffix("."))
    elif state.turn is not None and state.turn.pot and state.turn.total == state.turn.pot:
        notes.append(f"the {state.turn.pot:,} piggybacked is banked once you score; a Farkle loses it all")
    shortfall = state.entry_shortfall()
    if state.turn is not None and shortfall:
        notes.append(f"needs {shortfall:,} more this turn to get on the board ({state.rules.turn.entry_minimum:,})")
    if state.final_lap and state.lap_mark is not None:
        leader = max(state.players, key=lambda p: p.score)
        notes.append(f"LAST LAP: {leader.name} leads with {leader.score:,}")
    if state.play_off:
        notes.append("PLAY-OFF: " + ", ".join(state.players[seat].name for seat in state.play_off))
    text = "; ".join(notes)
    return text[:1].upper() + text[1:]


class TurnPanel(QWidget):
    """Shows the turn and offers only the steps the rules allow now."""

    keep_chosen = Signal(object)
    """A keep button was pressed (the :class:`KeepOption`)."""
    said = Signal(str)
    """The line under the turn changed (a refusal or a notice): its text, for table mode to show too."""

    def __init__(self, controller: GameController, parent: QWidget | None = None, typing_apart: bool = False) -> None:
        """With ``typing_apart`` the typing line, its hint and the message under it are left out of
        the panel's layout for the owner to place (:attr:`typing_area`), e.g. below a scrolled panel."""
        super().__init__(parent)
        self.controller = controller
        self.headline = big(QLabel(), 6)
        self.notes = big(QLabel(), 2)
        self.notes.setStyleSheet("color: #8a5a00")
        self.roll = big(QLabel(), 14)
        self.roll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.dice = DiceRow()
        """The roll painted as dice, under rules that mark dice (wild die, spicy), where a die's colour
        and pips say what its digit cannot."""
        self.farkle = big(QLabel(FARKLE_SEEN), 10)
        self.farkle.setWordWrap(True)
        self.farkle.setStyleSheet("color: white; background: #c0392b; padding: 6px")
        self.farkle.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.missing = big(QLabel(), 4)
        self.missing.setStyleSheet("color: black; background: #f5b041; padding: 6px")
        self.keeps = QWidget()
        self.keeps_layout = QGridLayout(self.keeps)
        self.keeps_layout.setContentsMargins(0, 0, 0, 0)
        self.keep_buttons: list[QPushButton] = []
        self.pot = QWidget()
        self.pot_layout = QHBoxLayout(self.pot)
        self.pot_layout.setContentsMargins(0, 0, 0, 0)
        self.pot_buttons: list[QPushButton] = []
        self._advised: KeepOption | None = None
        self.hint_slot = QVBoxLayout()
        self.farkle_button = QPushButton("Farkle: pass the dice (F)")
        self.bank_button = QPushButton("Bank (B)")
        self.roll_hint = big(QLabel(), 2, bold=False)
        self.undo_button = QPushButton("Undo (Z)")
        self.redo_button = QPushButton("Redo (Y)")
        for button in (self.farkle_button, self.bank_button):
            big(button, 4)
        self.typing = TypingLine(controller)
        """The typing line's rules, without Qt."""
        self.entry = DiceEntry()
        self.entry.takes_key = self.typing.takes_key
        self.entry_hint = QLabel()
        """What the typing line takes, under it: a label that wraps, so the hint is always read whole."""
        self.entry_hint.setStyleSheet("color: #555555")
        self.message = big(QLabel(), 1, bold=False)
        # Labels wrap rather than widen the window as their text grows.
        for label in (self.headline, self.notes, self.missing, self.roll_hint, self.entry_hint, self.message):
            label.setWordWrap(True)

        buttons = QHBoxLayout()
        buttons.addWidget(self.farkle_button)
        buttons.addWidget(self.bank_button)
        buttons.addStretch(1)
        buttons.addWidget(self.undo_button)
        buttons.addWidget(self.redo_button)
        layout = QVBoxLayout(self)
        for widget in (self.headline, self.notes, self.dice, self.roll, self.farkle, self.missing, self.keeps, self.pot):
            layout.addWidget(widget)
        layout.addLayout(self.hint_slot)
        layout.addWidget(self.roll_hint)
        layout.addLayout(buttons)
        self.typing_area = QWidget()
        """The typing line, its hint and the message under it."""
        typing = QVBoxLayout(self.typing_area)
        typing.setContentsMargins(0, 0, 0, 0)
        for widget in (self.entry, self.entry_hint, self.message):
            typing.addWidget(widget)
        if not typing_apart:
            layout.addWidget(self.typing_area)
        layout.addStretch(1)

        self.farkle_button.clicked.connect(lambda: self.command("farkle"))
        self.bank_button.clicked.connect(lambda: self.command("bank"))
        self.undo_button.clicked.connect(lambda: self.command("undo"))
        self.redo_button.clicked.connect(lambda: self.command("redo"))
        self.entry.command.connect(self.command)
        self.entry.submitted.connect(self.submit)
        controller.changed.connect(self.refresh)
        controller.refused.connect(self.show_refusal)
        controller.notice.connect(self.show_notice)
        controller.done.connect(self.show_notice)
        self.refresh()

    def show_refusal(self, text: str) -> None:
        self.message.setStyleSheet("color: #b03a2e")
        self.message.setText(f"Not allowed: {text}")
        self.said.emit(self.message.text())

    def show_notice(self, text: str) -> None:
        self.message.setStyleSheet("color: #1e5631")
        self.message.setText(text)
        self.said.emit(text)

    def command(self, name: str) -> None:
        """A step from a button or a key: bank, farkle, undo or redo."""
        self.controller.act(lambda game: take_step(game, name))

    def submit(self, text: str) -> None:
        """Enter in the typing line: the line read by the game's grammar and taken whole, or refused
        saying what was read of it (the line stays, selected, to be put right or typed over)."""
        if self.typing.enter(text):
            self.entry.clear()
        else:
            self.entry.selectAll()

    def choose(self, option: KeepOption) -> None:
        self.keep_chosen.emit(option)
        self.controller.take(Kept(option.keep))

    def choose_pot(self, choice: PotChoice) -> None:
        """A piggyback choice's button was pressed: take on the pot, or six fresh dice."""
        self.controller.take(choice.action)

    def highlight(self, keep: KeepOption | None) -> None:
        """Mark the keep the coach advises (None: no mark); kept across rebuilds of the buttons."""
        self._advised = keep
        for button in self.keep_buttons:
            advised = keep is not None and button.property("keep") == str(keep.keep)
            button.setStyleSheet("background: #d4efdf; border: 2px solid #1e8449" if advised else "")

    def refresh(self) -> None:
        state = self.controller.state
        self.setEnabled(state is not None)
        self.typing_area.setEnabled(state is not None)
        for button in (*self.keep_buttons, *self.pot_buttons):
            button.deleteLater()
        self.keep_buttons, self.pot_buttons = [], []
        if state is None:
            self.headline.setText("No game yet: Game > New game.")
            for widget in (self.notes, self.farkle, self.missing, self.farkle_button, self.bank_button):
                widget.hide()
            self.roll.setText("")
            self.dice.show_dice(None)
            self.dice.hide()
            return
        self.headline.setText(turn_headline(state))
        notes = turn_notes(state)
        self.notes.setText(notes)
        self.notes.setVisible(bool(notes))
        turn = state.turn
        scored = state.roll_score()
        roll = turn.roll if turn is not None and turn.roll else None
        self.roll.setText(str(roll) if roll is not None else "")
        self.dice.show_dice(roll)
        self.dice.setVisible(roll is not None and (state.rules.scoring.wild_die or state.rules.scoring.spicy))
        farkle = scored is not None and scored.farkle
        missing = state.missing_dice()
        self.farkle.setText(farkle_banner_text(state))
        self.farkle.setVisible(farkle)
        self.missing.setVisible(bool(missing))
        self.missing.setText(missing_text(state))
        self.farkle_button.setVisible(farkle and not missing)
        if scored is not None:
            for number, option in enumerate(scored.options[:MAX_KEEP_BUTTONS]):
                wins = option is scored.winning_keep
                button = QPushButton(f"Keep {option.keep}: {'WINS THE GAME' if wins else f'{option.points:,}'}")
                big(button, 3 if option is scored.best else 1, bold=option is scored.best)
                button.setToolTip(" + ".join(str(c) for c in option.split))
                button.setProperty("keep", str(option.keep))
                button.clicked.connect(lambda _=False, chosen=option: self.choose(chosen))
                self.keeps_layout.addWidget(button, number // 2, number % 2)
                self.keep_buttons.append(button)
        self.highlight(self._advised)
        self.keeps.setVisible(bool(self.keep_buttons))
        for choice in pot_choices(state):
            button = big(QPushButton(choice.label), 3)
            button.clicked.connect(lambda _=False, chosen=choice: self.choose_pot(chosen))
            self.pot_layout.addWidget(button)
            self.pot_buttons.append(button)
        self.pot.setVisible(bool(self.pot_buttons))
        can_bank = state.can_bank()
        self.bank_button.setVisible(can_bank)
        if turn is not None:
            total, bonus = state.bank_value()
            extra = f" + {bonus:,} for Farkle cards" if bonus else ""
            self.bank_button.setText(f"Bank {total:,}{extra} (B)")
        if self.pot_buttons:
            self.roll_hint.setText("Take the pot on, or six fresh dice; a roll typed or seen by the camera turns the pot down.")
        elif state.can_roll() and turn is not None:
            again = "Roll again" if turn.total else "Roll"
            self.roll_hint.setText(f"{again}: {turn.dice_left} dice. The camera takes the roll once they settle, "
                                   "or type them and press Enter.")
        elif scored is not None and not farkle:
            self.roll_hint.setText("Choose the dice to keep (or type them and press Enter).")
        else:
            self.roll_hint.setText("")
        self.roll_hint.setVisible(bool(self.roll_hint.text()))
        game = self.controller.game
        self.undo_button.setEnabled(game is not None and game.can_undo)
        self.redo_button.setEnabled(game is not None and game.can_redo)
        self.entry.setEnabled(not state.over)
        self.entry.setPlaceholderText(TYPING_PROMPT)
        hint = typing_hint(state.rules)
        self.entry_hint.setText(f"{hint[:1].upper()}{hint[1:]}.")
