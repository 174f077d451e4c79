"""The score race on screen: in the window's panel beside the history, and large in table mode once a
game is over (painted by :func:`scorekeeper.export.race_painter.paint_drawing`, as the PDF sheet paints it)."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from scorekeeper.export.race_painter import paint_drawing
from scorekeeper.scoreboard.race import Race, RaceDrawing, describe_race, race_drawing, score_race
from scorekeeper.ui.controller import GameController


class RaceView(QWidget):
    """The score race of the game on screen, redrawn as the game changes (a turn ends, an undo, a
    corrected turn); its type ``size`` pixels high."""

    def __init__(self, controller: GameController, size: float = 13, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.type_px = size
        """The type's size, pixels."""
        self.race: Race | None = None
        """The race drawn now (None: no game)."""
        self.setMinimumSize(240, 160)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        controller.changed.connect(self.refresh)
        self.refresh()

    def refresh(self) -> None:
        """Take the race from the game's log and repaint."""
        events = self.controller.events
        self.race = score_race(events) if events else None
        self.setAccessibleDescription(describe_race(self.race) if self.race is not None else "No game yet")
        self.update()

    def drawing(self) -> RaceDrawing | None:
        """What is painted at the widget's size now."""
        if self.race is None:
            return None
        return race_drawing(self.race, self.width() - 8, self.height() - 8, self.type_px)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        try:
            painter.fillRect(self.rect(), QColor("white"))
            drawing = self.drawing()
            if drawing is None:
                painter.setPen(QColor("#555555"))
                painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignCenter), "No game yet")
            else:
                paint_drawing(painter, drawing, QPointF(4, 4), self.font().family())
        finally:
            painter.end()
