"""The roll on the table painted as dice, in the turn panel: the wild die in its colour, a red face's
pips red (the looks come from :mod:`scorekeeper.scoreboard.dice_pictures`)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from scorekeeper.rules import Dice
from scorekeeper.scoreboard.dice_pictures import EDGE, PIP_SIZE, DieLook, die_looks

SIDE = 56
"""A die's side, in pixels."""
GAP = 12
"""The room between two dice, in pixels."""


class DiceRow(QWidget):
    """A row of dice, painted; it says the dice in words to a screen reader."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.looks: tuple[DieLook, ...] = ()
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("The roll")

    def show_dice(self, dice: Dice | None) -> None:
        """Paint ``dice`` (None: no roll, nothing painted)."""
        self.looks = die_looks(dice) if dice is not None else ()
        self.setAccessibleDescription(", ".join(look.words for look in self.looks))
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(len(self.looks) * (SIDE + GAP) + GAP, SIDE + 2 * 4)

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        width = len(self.looks) * (SIDE + GAP) - GAP
        left = (self.width() - width) / 2
        top = (self.height() - SIDE) / 2
        for number, look in enumerate(self.looks):
            x = left + number * (SIDE + GAP)
            painter.setPen(QPen(QColor(EDGE), 2))
            painter.setBrush(QColor(look.body))
            painter.drawRoundedRect(QRectF(x, top, SIDE, SIDE), SIDE * 0.16, SIDE * 0.16)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(look.pip))
            radius = SIDE * PIP_SIZE / 2
            for px, py in look.pips:
                painter.drawEllipse(QPointF(x + px * SIDE, top + py * SIDE), radius, radius)
        painter.end()
