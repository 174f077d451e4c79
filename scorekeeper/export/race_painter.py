"""The score race painted with Qt's painter, for every place that draws it with Qt: the window's panel
and table mode (:mod:`scorekeeper.ui.race_view`) and a page of the PDF sheet (:mod:`scorekeeper.export.pdf`).
:func:`paint_race` draws the shapes :func:`scorekeeper.scoreboard.race.race_drawing` lays out, as
vectors. It imports Qt, so only the window and the PDF writer load it."""

from __future__ import annotations

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen, QPolygonF

from scorekeeper.scoreboard.race import Cross, Label, Race, RaceDrawing, Rule, Shade, Trace, race_drawing


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
