"""The live view: the frame with each die's box and one short tag beside it (its value, the wild die
and red-pip faces marked), and the tap picker."""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray
from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QMouseEvent, QPainter, QPaintEvent, QPen, QPolygonF
from PySide6.QtWidgets import QFrame, QGridLayout, QLabel, QPushButton, QSizePolicy, QWidget

from scorekeeper.rules import DieToken, die_token
from scorekeeper.table_session.session import Drawing

SCORING = QColor("#2ecc71")
NOT_SCORING = QColor("#e67e22")
UNSURE = QColor("#ff2dd4")
ASIDE = QColor("#95a5a6")
WILD = QColor("#f1c40f")
"""The wild die's tag and ring."""
RED_PIPS = QColor("#e0162b")
"""The stripe under the tag of a face whose pips are red."""
TAG_HEIGHT = 28.0
"""Height of the tag drawn beside each die's box, widget pixels (it is part of the die for a tap)."""
TAG_WIDTH = 30.0
"""The least width of a tag, widget pixels."""
TAG_GAP = 2.0
"""The room between a tag and its die's box, widget pixels."""
TAP_MARGIN = 8.0
"""A tap this close to a die's box or its tag, widget pixels, is a tap on the die."""
LEAST_SIZE = (160, 90)
"""The live view's least width and height, widget pixels: table mode shows it this small on a small screen."""
USUAL_SIZE = QSize(320, 240)
"""The live view's size as the window lays it out first, widget pixels (it grows from there)."""


def tag_text(value: int, mark: str, waiting: bool) -> str:
    """A die's one tag: its face, "W" for the wild die, "R" for red pips, "?" where it waits for a tap.

    >>> tag_text(4, "wr", True), tag_text(5, "", False)
    ('4WR?', '5')
    """
    return f"{value}{'W' if 'w' in mark else ''}{'R' if 'r' in mark else ''}{'?' if waiting else ''}"


def place_tags(boxes: list[QRectF], sizes: list[tuple[float, float]]) -> list[QRectF]:
    """Where each die's tag goes, given the dice's boxes and the tags' sizes (widget pixels): above
    its box where there is room, else below it, at its right or at its left; no tag ever overlaps
    another, and a tag keeps off the other dice's boxes where any place beside its own allows."""
    placed: list[QRectF] = []
    for index, (box, (width, height)) in enumerate(zip(boxes, sizes)):
        candidates = [
            QRectF(box.left(), box.top() - height - TAG_GAP, width, height),
            QRectF(box.left(), box.bottom() + TAG_GAP, width, height),
            QRectF(box.right() - width, box.top() - height - TAG_GAP, width, height),
            QRectF(box.right() - width, box.bottom() + TAG_GAP, width, height),
            QRectF(box.right() + TAG_GAP, box.top(), width, height),
            QRectF(box.left() - width - TAG_GAP, box.top(), width, height),
        ]
        others = [other for number, other in enumerate(boxes) if number != index]

        def free(tag: QRectF, keep_off: list[QRectF]) -> bool:
            return not any(tag.intersects(other) for other in (*placed, *keep_off))

        chosen = next((tag for tag in candidates if free(tag, others)), None) or next((tag for tag in candidates if free(tag, [])), None)
        if chosen is None:
            chosen = QRectF(candidates[0])
            while not free(chosen, []):
                chosen.translate(0, -(height + TAG_GAP))
        placed.append(chosen)
    return placed


def to_qimage(frame: NDArray[np.uint8]) -> QImage:
    """A BGR frame as a QImage of its own (the frame may change afterwards).

    The pixels are copied into the image's own memory: PySide6's QImage-from-buffer
    constructor loses references to None, and a live view calls it for every frame
    until CPython aborts ("deallocating None").
    """
    height, width = frame.shape[:2]
    image = QImage(width, height, QImage.Format.Format_BGR888)
    pixels = np.frombuffer(image.bits(), np.uint8, count=image.sizeInBytes()).reshape(height, image.bytesPerLine())
    pixels[:, : width * 3] = np.asarray(frame, np.uint8).reshape(height, width * 3)
    return image


class CameraView(QWidget):
    """Paints the latest frame scaled to fit, and the dice over it; taps say where."""

    die_tapped = Signal(int, QPoint)
    """A die of the overlay was tapped: its index, and where on screen (for the picker)."""
    table_tapped = Signal(float, float, QPoint)
    """Empty table was tapped: the point in frame pixels, and where on screen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.image: QImage | None = None
        self.frame: NDArray[np.uint8] | None = None
        self.overlay = Drawing.empty()
        self.area: tuple[tuple[float, float], ...] = ()
        self.message = "Waiting for the camera..."
        self.setMinimumSize(*LEAST_SIZE)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return USUAL_SIZE

    def show_frame(self, frame: NDArray[np.uint8], overlay: Drawing) -> None:
        self.frame = frame
        self.image = to_qimage(frame)
        self.overlay = overlay
        self.update()

    def set_overlay(self, overlay: Drawing) -> None:
        self.overlay = overlay
        self.update()

    def show_message(self, text: str) -> None:
        self.message = text
        self.image = None
        self.update()

    def _placement(self) -> tuple[float, float, float]:
        """Scale and offset of the frame in the widget."""
        assert self.image is not None
        scale = min(self.width() / self.image.width(), self.height() / self.image.height())
        x = (self.width() - self.image.width() * scale) / 2
        y = (self.height() - self.image.height() * scale) / 2
        return scale, x, y

    def to_frame(self, point: QPointF) -> tuple[float, float] | None:
        """A widget point in frame pixels, or None off the frame."""
        if self.image is None:
            return None
        scale, x, y = self._placement()
        fx, fy = (point.x() - x) / scale, (point.y() - y) / scale
        if not (0 <= fx < self.image.width() and 0 <= fy < self.image.height()):
            return None
        return fx, fy

    def to_widget(self, fx: float, fy: float) -> QPointF:
        """A frame pixel in widget coordinates."""
        scale, x, y = self._placement()
        return QPointF(x + fx * scale, y + fy * scale)

    def die_centre(self, index: int) -> QPoint:
        """Where die ``index`` of the overlay is drawn (tests click there)."""
        x0, y0, x1, y1 = self.overlay.dice.boxes[index]
        return self.to_widget((x0 + x1) / 2, (y0 + y1) / 2).toPoint()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#202020"))
        if self.image is None:
            painter.setPen(QColor("white"))
            font = QFont(self.font())
            font.setPointSize(max(font.pointSize(), 10) + 4)
            painter.setFont(font)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, self.message)
            return
        scale, x, y = self._placement()
        painter.drawImage(QRectF(x, y, self.image.width() * scale, self.image.height() * scale), self.image)
        width, height = self.image.width(), self.image.height()
        if self.area and len(self.area) >= 3:
            painter.setPen(QPen(QColor(255, 255, 255, 160), 2, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(QPolygonF([self.to_widget(u * width, v * height) for u, v in self.area]))
        font = self.tag_font()
        painter.setFont(font)
        for box in self.overlay.aside.boxes:
            self._box(painter, box, ASIDE, dashed=True)
        dice = self.overlay.dice
        for index, (tag, text) in enumerate(self.die_tags()):
            unsure = bool(self.overlay.unsure[index]) if index < len(self.overlay.unsure) else False
            scoring = bool(self.overlay.scoring[index]) if index < len(self.overlay.scoring) else False
            colour = UNSURE if unsure else SCORING if scoring else NOT_SCORING
            rect = self._box(painter, dice.boxes[index], colour, dashed=unsure, width=3 if self.overlay.frozen else 1)
            mark = self.overlay.marks[index] if index < len(self.overlay.marks) else ""
            if "w" in mark:
                painter.setPen(QPen(WILD, 3))
                painter.drawRoundedRect(rect.adjusted(-5, -5, 5, 5), 6, 6)
            painter.fillRect(tag, QBrush(WILD if "w" in mark and not unsure else colour))
            if "r" in mark:
                painter.fillRect(QRectF(tag.left(), tag.bottom() - 4, tag.width(), 4), QBrush(RED_PIPS))
            painter.setPen(QColor("black"))
            painter.drawText(tag, Qt.AlignmentFlag.AlignCenter, text)
        if self.overlay.caption:
            font.setPointSize(max(font.pointSize() - 4, 9))
            painter.setFont(font)
            # along the bottom of the picture, clear of the dice's value tags (drawn above each box)
            tag = QRectF(x, y + height * scale - 26, min(width * scale, 14.0 + 9.0 * len(self.overlay.caption)), 26)
            painter.fillRect(tag, QColor(0, 0, 0, 170))
            painter.setPen(QColor("white") if self.overlay.frozen else QColor("#bdc3c7"))
            painter.drawText(tag.adjusted(7, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter, self.overlay.caption)
        painter.end()

    def _box(self, painter: QPainter, box: NDArray[np.float32], colour: QColor, dashed: bool, width: int = 3) -> QRectF:
        """Draw a die's box; where it lies on screen."""
        rect = QRectF(self.to_widget(float(box[0]), float(box[1])), self.to_widget(float(box[2]), float(box[3])))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(colour, width, Qt.PenStyle.DashLine if dashed else Qt.PenStyle.SolidLine))
        painter.drawRect(rect)
        return rect

    def tag_font(self) -> QFont:
        """The type of the dice's tags."""
        font = QFont(self.font())
        font.setBold(True)
        font.setPointSize(max(font.pointSize(), 10) + 4)
        return font

    def die_tags(self) -> list[tuple[QRectF, str]]:
        """Each drawn die's one tag, where it lies on screen and what it says (see :func:`tag_text`);
        no two overlap (see :func:`place_tags`)."""
        if self.image is None:
            return []
        overlay = self.overlay
        metrics = QFontMetricsF(self.tag_font())
        boxes: list[QRectF] = []
        texts: list[str] = []
        for index, box in enumerate(overlay.dice.boxes):
            boxes.append(QRectF(self.to_widget(float(box[0]), float(box[1])), self.to_widget(float(box[2]), float(box[3]))))
            unsure = bool(overlay.unsure[index]) if index < len(overlay.unsure) else False
            mark = overlay.marks[index] if index < len(overlay.marks) else ""
            texts.append(tag_text(int(overlay.dice.values[index]), mark, unsure))
        sizes = [(max(TAG_WIDTH, metrics.horizontalAdvance(text) + 10), TAG_HEIGHT) for text in texts]
        return list(zip(place_tags(boxes, sizes), texts))

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        point = self.to_frame(event.position())
        if point is None:
            return
        fx, fy = point
        screen = event.globalPosition().toPoint()
        nearest = self.die_at(event.position())
        if nearest is not None:
            self.die_tapped.emit(nearest, screen)
        else:
            self.table_tapped.emit(fx, fy, screen)

    def die_at(self, point: QPointF) -> int | None:
        """The die drawn under ``point`` (widget pixels): a die's tag is that die; its box and tag with
        a ``TAP_MARGIN`` around them count as the die, where several do the one whose box's centre is
        nearest. None over empty table."""
        dice = self.overlay.dice
        tags = self.die_tags()
        on_tag = [index for index, (tag, _text) in enumerate(tags) if tag.contains(point)]
        if on_tag:
            return on_tag[0]
        hits: list[tuple[float, int]] = []
        for index, (box, (tag, _text)) in enumerate(zip(dice.boxes, tags)):
            rect = QRectF(self.to_widget(float(box[0]), float(box[1])), self.to_widget(float(box[2]), float(box[3])))
            margin = TAP_MARGIN
            if any(area.adjusted(-margin, -margin, margin, margin).contains(point) for area in (rect, tag)):
                centre = rect.center()
                hits.append(((centre.x() - point.x()) ** 2 + (centre.y() - point.y()) ** 2, index))
        return min(hits)[1] if hits else None


class DiePicker(QFrame):
    """A small popup: the six faces, and (for a die that was read) "not a die"; under the wild-die
    or spicy variant, switches for "the wild die" and "red pips" above them, set as the die stands."""

    picked = Signal(object)
    """The die chosen: its face 1-6, or the face with its marks (``"1w"``, ``"5r"``: see
    :func:`~scorekeeper.rules.die_token`) where a mark is switched on; None for "not a die"."""

    def __init__(
        self, parent: QWidget | None = None, allow_none: bool = True, current: int | None = None, offer: str = "", mark: str = ""
    ) -> None:
        """``offer``: the marks the game plays (``"w"`` the wild die, ``"r"`` red pips), a switch
        each; ``mark``: the die's marks now (those switches start on)."""
        super().__init__(parent, Qt.WindowType.Popup)
        self.setFrameShape(QFrame.Shape.Box)
        layout = QGridLayout(self)
        self.marks: dict[str, QPushButton] = {}
        """The mark switches, by letter."""
        for letter, text in (("w", "the wild die"), ("r", "red pips")):
            if letter in offer:
                switch = QPushButton(text)
                switch.setCheckable(True)
                switch.setChecked(letter in mark)
                colour, ink = (WILD, "black") if letter == "w" else (RED_PIPS, "white")
                switch.setStyleSheet(f"QPushButton:checked {{ background: {colour.name()}; color: {ink}; font-weight: bold }}")
                layout.addWidget(switch, len(self.marks), 0, 1, 3)
                self.marks[letter] = switch
        if self.marks:
            layout.addWidget(QLabel("Switch on what is true of this die, then tap its face."), len(self.marks), 0, 1, 3)
        top = len(self.marks) + (1 if self.marks else 0)
        self.buttons: dict[int | None, QPushButton] = {}
        for face in range(1, 7):
            button = QPushButton(str(face))
            font = button.font()
            font.setPointSize(max(font.pointSize(), 10) + 8)
            font.setBold(face == current)
            button.setFont(font)
            button.setMinimumSize(56, 56)
            button.clicked.connect(lambda _=False, f=face: self._pick(f))
            layout.addWidget(button, top + (face - 1) // 3, (face - 1) % 3)
            self.buttons[face] = button
        if allow_none:
            button = QPushButton("not a die")
            button.clicked.connect(lambda _=False: self._pick(None))
            layout.addWidget(button, top + 2, 0, 1, 3)
            self.buttons[None] = button

    def _pick(self, face: int | None) -> None:
        chosen: DieToken | None = None
        if face is not None:
            chosen = die_token(face, "".join(letter for letter in "wr" if letter in self.marks and self.marks[letter].isChecked()))
        self.picked.emit(chosen)
        self.close()


def open_picker(
    parent: QWidget, previous: DiePicker | None, at: QPoint, allow_none: bool, current: int | None, offer: str = "", mark: str = ""
) -> DiePicker:
    """A die picker shown at ``at`` over ``parent``, the ``previous`` one (if any) closed; ``offer``
    and ``mark`` as :class:`DiePicker` takes them."""
    if previous is not None:
        previous.close()
    picker = DiePicker(parent, allow_none, current, offer, mark)
    picker.move(at)
    picker.show()
    return picker
