"""The score race painted with Qt's painter: in the window's panel beside the history, large in table
mode once a game is over, and on a page of the PDF sheet (:func:`paint_race` draws the shapes
:func:`scorekeeper.scoreboard.race.race_drawing` lays out, as vectors)."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from scorekeeper.scoreboard.race import Cross, Label, Race, RaceDrawing, Rule, Shade, Trace, describe_race, race_drawing, score_race
from scorekeeper.ui.controller import GameController


def _pen(colour: str, width: float, dashed: bool = False) -> QPen:
    pen = QPen(QColor(colour), width)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    if dashed:
        pen.setCapStyle(Qt.PenCapStyle.FlatCap)
        pen.setDashPattern([4.0, 3.0])
    return pen


def _label(painter: QPainter, label: Label, family: str) -> None:
    font = QFont(family)
    font.setPixelSize(max(1, round(label.size)))
    font.setBold(label.bold)
    painter.setFont(font)
    painter.setPen(QColor(label.colour))
    wide = QFontMetricsF(font).horizontalAdvance(label.text)
    shift = {"start": 0.0, "middle": wide / 2, "end": wide}[label.anchor]
    painter.drawText(QPointF(label.x - shift, label.y), label.text)


def paint_drawing(painter: QPainter, drawing: RaceDrawing, origin: QPointF, family: str = "sans-serif") -> None:
    """Paint ``drawing`` with its top left corner at ``origin``, in the painter's units."""
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(origin)
        for part in drawing.parts:
            if isinstance(part, Shade):
                colour = QColor(part.colour)
                colour.setAlphaF(part.opacity)
                painter.fillRect(QRectF(part.x, part.y, part.width, part.height), colour)
            elif isinstance(part, Rule):
                painter.setPen(_pen(part.colour, part.width, part.dashed))
                painter.drawLine(QLineF(part.x1, part.y1, part.x2, part.y2))
            elif isinstance(part, Trace):
                painter.setPen(_pen(part.colour, part.width))
                painter.drawPolyline(QPolygonF([QPointF(x, y) for x, y in part.points]))
            elif isinstance(part, Cross):
                painter.setPen(_pen(part.colour, part.width))
                s = part.size
                painter.drawLine(QLineF(part.x - s, part.y - s, part.x + s, part.y + s))
                painter.drawLine(QLineF(part.x - s, part.y + s, part.x + s, part.y - s))
            else:
                _label(painter, part, family)
    finally:
        painter.restore()


def paint_race(painter: QPainter, race: Race, area: QRectF, size: float) -> None:
    """Paint ``race`` filling ``area``, its type ``size`` high (the painter's units)."""
    paint_drawing(painter, race_drawing(race, area.width(), area.height(), size), area.topLeft())


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
