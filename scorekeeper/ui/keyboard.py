"""The keyboard path: one line where the dice are typed, and single keys for the rest.

Digits type a roll (or, with a roll on the table, the dice to keep), ``w`` after the wild die's
face and ``r`` after a red-pip face (``1w 5r 3``); Enter takes them. ``c 3 5`` or ``c35`` corrects a
misread die (``c - 5`` adds a missed 5, ``c 4 -`` says the 4 is not a die), ``o1`` keeps an option,
``pig`` or ``fresh`` answers the piggyback offer: :mod:`scorekeeper.game.commands` parses the line, as
it does for ``play``. B banks, F calls the Farkle, Z and Y undo and redo, with or without Shift (or
Ctrl). The card edition's points box takes the same keys, and
Enter there adds the points.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal, SignalInstance
from PySide6.QtGui import QFocusEvent, QKeyEvent
from PySide6.QtWidgets import QLineEdit, QSpinBox, QWidget

from scorekeeper.game.commands import STEPS

COMMAND_KEYS = {Qt.Key(ord(letter.upper())): step for letter, step in STEPS.items()}
"""Single keys and the step each one takes: the letters of :data:`~scorekeeper.game.commands.STEPS`."""

COMMAND_MODIFIERS = (
    Qt.KeyboardModifier.NoModifier,
    Qt.KeyboardModifier.ShiftModifier,
    Qt.KeyboardModifier.ControlModifier,
)
"""The keys of :data:`COMMAND_KEYS` work alone, with Shift (caps) or with Ctrl."""


def command_of(event: QKeyEvent) -> str | None:
    """The step a key press stands for ("bank", "farkle", "undo", "redo"), or None.

    >>> from PySide6.QtCore import QEvent
    >>> command_of(QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_B, Qt.KeyboardModifier.ShiftModifier, "B"))
    'bank'
    >>> command_of(QKeyEvent(QEvent.Type.KeyPress, Qt.Key.Key_B, Qt.KeyboardModifier.AltModifier, ""))
    """
    key = Qt.Key(event.key())
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    if key in COMMAND_KEYS and modifiers in COMMAND_MODIFIERS:
        return COMMAND_KEYS[key]
    return None


def is_enter(event: QKeyEvent) -> bool:
    """Whether the key is Return or the keypad's Enter."""
    return Qt.Key(event.key()) in (Qt.Key.Key_Return, Qt.Key.Key_Enter)


def take_key(event: QKeyEvent, command: SignalInstance, submit: Callable[[], None]) -> bool:
    """Act on a key press an entry does not type: a command key is sent on through ``command``,
    Enter calls ``submit``. False for any other key (the entry types it as usual)."""
    step = command_of(event)
    if step is not None:
        command.emit(step)
        return True
    if is_enter(event):
        submit()
        return True
    return False


class DiceEntry(QLineEdit):
    """The typing line: a command key is passed on unless it spells a word of the line
    (:attr:`takes_key` says), everything else is typed, and Enter sends the whole line on."""

    submitted = Signal(str)
    """Enter was pressed with this text."""
    command = Signal(str)
    """A command key was pressed: "bank", "farkle", "undo" or "redo"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setPlaceholderText("type the dice, e.g. 115234, then Enter")
        self.takes_key: Callable[[str, str], bool] = lambda text, letter: True
        """Whether a command key's letter pressed on the line's text takes its step (else it is typed)."""
        font = self.font()
        font.setPointSize(max(font.pointSize(), 10) + 6)
        self.setFont(font)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        step = command_of(event)
        held = event.modifiers() & Qt.KeyboardModifier.ControlModifier
        if step is not None and not held and not self.takes_key(self.text(), chr(event.key()).lower()):
            self.insert(chr(event.key()).lower())
        elif not take_key(event, self.command, lambda: self.submitted.emit(self.text())):
            super().keyPressEvent(event)


class PointsEntry(QSpinBox):
    """The card edition's points box: digits type points, Enter adds them, command keys are passed on."""

    submitted = Signal(int)
    """Enter was pressed with these points."""
    command = Signal(str)
    """A command key was pressed: "bank", "farkle", "undo" or "redo"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setRange(0, 10000)
        self.setSingleStep(50)

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Typing replaces what the box shows (the 0 it rests at), however the focus came."""
        super().focusInEvent(event)
        self.selectAll()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not take_key(event, self.command, self._submit):
            super().keyPressEvent(event)

    def _submit(self) -> None:
        self.interpretText()
        self.submitted.emit(self.value())

