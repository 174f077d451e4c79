"""Every label of the program shows plain text: Qt would read a player named ``<h1>Ann</h1>``, or
a file or a message quoting one, as HTML."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QLabel, QWidget


def make_plain(widget: QWidget) -> None:
    """Make every label under ``widget`` plain text."""
    for label in widget.findChildren(QLabel):
        label.setTextFormat(Qt.TextFormat.PlainText)


class PlainTextLabels(QObject):
    """An application event filter that makes each label plain text as it is first shown
    (polished): the dialogs', message boxes' and tool tips' included."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Labels made plain text as they are polished; every event goes on as usual."""
        if event.type() == QEvent.Type.Polish and isinstance(watched, QLabel):
            watched.setTextFormat(Qt.TextFormat.PlainText)
        return super().eventFilter(watched, event)
