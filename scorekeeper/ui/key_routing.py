"""Keys for the turn go to the typing line wherever the focus is: a digit, a command key or
Enter pressed while a button, the scoreboard, the history or the camera has the focus."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QLineEdit, QPlainTextEdit, QTextEdit, QWidget

from scorekeeper.game.commands import LINE_CHARACTERS
from scorekeeper.ui.keyboard import command_of, is_enter

TYPED = LINE_CHARACTERS
"""Characters of the typed line (dice and their marks, points, corrections, options, the piggyback
choice's words) that reach it wherever the focus is."""
TEXT_INPUTS = (QLineEdit, QAbstractSpinBox, QTextEdit, QPlainTextEdit)
"""Widgets that take typing themselves: keys pressed in them stay there."""


class TurnKeys(QObject):
    """An application event filter that sends the keys for the turn pressed anywhere in ``window``
    (outside a text input) on to the typing line ``typing_target`` names."""

    def __init__(self, window: QWidget, typing_target: Callable[[], QWidget]) -> None:
        super().__init__(window)
        self._window = window
        self._typing_target = typing_target

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The keyboard does it all, whatever was clicked last: a key for the turn pressed while the
        focus is on a button, the scoreboard, the history or the camera goes to the typing line."""
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent) and self._for_the_turn(watched, event):
            target = self._typing_target()
            target.setFocus(Qt.FocusReason.OtherFocusReason)
            copy = QKeyEvent(event.type(), event.key(), event.modifiers(), event.text(), event.isAutoRepeat(), event.count())
            QApplication.sendEvent(target, copy)
            return True
        return super().eventFilter(watched, event)

    def _for_the_turn(self, watched: QObject, event: QKeyEvent) -> bool:
        if not isinstance(watched, QWidget) or watched.window() is not self._window or isinstance(watched, TEXT_INPUTS):
            return False
        focus = QApplication.focusWidget()
        if watched is not (focus or self._window) or not self._typing_target().isEnabled():
            return False
        plain = not event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
        typed = plain and (event.text() in TYPED and event.text() != "" or event.key() == Qt.Key.Key_Backspace)
        return command_of(event) is not None or is_enter(event) or typed
