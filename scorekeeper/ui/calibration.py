"""The calibration dialog: drag the rolling area's corners on the live view, measure the die size
from dice placed on the table, set the settling and confidence, and save the profile.

The profile saved here is the one loaded the next time the program starts.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
from PySide6.QtCore import QPoint, QPointF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from scorekeeper.camera.calibration import WHOLE_FRAME, CalibrationError, CalibrationProfile, save_profile
from scorekeeper.camera.sources import SourceError, SourceKind, SourceSpec
from scorekeeper.camera.settling import TableState
from scorekeeper.camera.watch import WatchStep
from scorekeeper.table_session.learner import TableLearner
from scorekeeper.table_session.session import Drawing
from scorekeeper.rules import DieToken
from scorekeeper.table_session.table_colours import TableColours
from scorekeeper.table_session.teaching import TeachingError, TeachingStep, marks_words
from scorekeeper.ui.camera_view import CameraView, DiePicker, open_picker
from scorekeeper.vision.detections import Detections

HANDLE = 9.0
"""Radius of a corner handle, px on screen."""
GRAB = 24.0
"""How near a corner a press must be to pick it up, px on screen."""


def measured_die_size(step: WatchStep, resolution_width: int) -> float | None:
    """The median edge of the dice seen, in pixels at the profile's resolution (None if no dice)."""
    boxes = np.concatenate([step.dice.boxes, step.aside.boxes])
    if not len(boxes):
        return None
    edges = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    width = step.frame.size[0]
    return round(float(np.median(edges)) * resolution_width / width, 1)


class AreaEditor(CameraView):
    """The live view with the rolling area's corners as handles to drag."""

    area_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.dragging: int | None = None

    def corner_at(self, point: QPointF) -> int | None:
        if self.image is None:
            return None
        width, height = self.image.width(), self.image.height()
        best, nearest = None, GRAB
        for index, (u, v) in enumerate(self.area):
            corner = self.to_widget(u * width, v * height)
            distance = ((corner.x() - point.x()) ** 2 + (corner.y() - point.y()) ** 2) ** 0.5
            if distance <= nearest:
                best, nearest = index, distance
        return best

    def corner_position(self, index: int) -> QPointF:
        """Where corner ``index`` is drawn (tests drag from there)."""
        assert self.image is not None
        u, v = self.area[index]
        return self.to_widget(u * self.image.width(), v * self.image.height())

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.dragging = self.corner_at(event.position())
        if self.dragging is None:
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self.dragging is None or self.image is None:
            return
        scale, x, y = self._placement()
        u = (event.position().x() - x) / scale / self.image.width()
        v = (event.position().y() - y) / scale / self.image.height()
        corners = list(self.area)
        corners[self.dragging] = (round(min(max(u, 0.0), 1.0), 4), round(min(max(v, 0.0), 1.0), 4))
        self.area = tuple(corners)
        self.area_changed.emit()
        self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self.dragging = None

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.image is None:
            return
        painter = QPainter(self)
        painter.setPen(QPen(QColor("white"), 2))
        painter.setBrush(QColor("#2980b9"))
        for index in range(len(self.area)):
            painter.drawEllipse(self.corner_position(index), HANDLE, HANDLE)
        painter.end()


def source_spec(name: str) -> str | None:
    """The ``--source`` of a frame source's name as the window shows it; None if it names no source.

    >>> source_spec("demo table (seed 5, 640x480)"), source_spec("webcam:1 (1280x720)"), source_spec("scripted table")
    ('demo', 'webcam:1', None)
    """
    head = name.split(" (")[0]
    if head == "demo table":
        return SourceKind.DEMO.value
    try:
        SourceSpec.from_str(head)
    except SourceError:
        return None
    return head


class CalibrationDialog(QDialog):
    """Edits a copy of the profile; Save writes it, naming the source it was made on, and hands it to the window."""

    saved = Signal(object, object)
    """The profile just saved (a :class:`CalibrationProfile`) and the file it was saved in (a :class:`Path`)."""
    empty_table = Signal()
    """The table is empty now: what the camera finds on it is the table's own (a logo, a knot)."""

    def __init__(
        self, profile: CalibrationProfile, save_to: Path, parent: QWidget | None = None, source: str | None = None,
        learner: TableLearner | None = None, colours: TableColours | None = None, marks: str = "",
    ) -> None:
        """``source``: the name of the frame source being calibrated (see :func:`source_spec`); None takes
        the ``source_name`` of ``parent`` (the camera pane), if it has one. ``learner``: the table that
        learns, taught by the teaching step (None: no reader that learns is loaded). ``colours``: the
        table's die colours, taught the marks named in ``marks`` (``"w"`` the wild die, ``"r"`` red
        pips: those the game plays)."""
        super().__init__(parent)
        self.setWindowTitle("Calibrate the camera")
        self.profile = profile
        self.save_to = save_to
        self.source = source if source is not None else str(getattr(parent, "source_name", ""))
        self.latest: WatchStep | None = None
        self.editor = AreaEditor()
        self.editor.area = profile.area
        self.editor.setMinimumSize(640, 400)
        self.die_size = QDoubleSpinBox()
        self.die_size.setRange(0, 4096)
        self.die_size.setDecimals(1)
        self.die_size.setSuffix(" px")
        self.die_size.setValue(profile.die_size)
        self.measure = QPushButton("Measure from the dice on the table")
        self.settle = QSpinBox()
        self.settle.setRange(2, 300)
        self.settle.setValue(profile.settle_frames)
        self.confidence = QDoubleSpinBox()
        self.confidence.setRange(0, 1)
        self.confidence.setSingleStep(0.05)
        self.confidence.setSpecialValueText("the dice model's own")
        self.confidence.setValue(profile.stricter_line)
        self.teaching = TeachingStep(learner, colours, marks)
        self.hold = QPushButton("Hold this throw")
        self.teach = QPushButton("Teach this throw")
        self.release = QPushButton("Back to the live view")
        self.teach_report = QLabel()
        self.teach_report.setWordWrap(True)
        reset = QPushButton("Whole frame")
        empty = QPushButton("The table is empty: remember what the camera finds on it")
        self.message = QLabel("Drag the blue corners around the rolling area; dice outside it are the ones set aside.")
        self.message.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        save_as = buttons.addButton("Save as...", QDialogButtonBox.ButtonRole.ActionRole)
        form = QFormLayout()
        size_row = QHBoxLayout()
        size_row.addWidget(self.die_size)
        size_row.addWidget(self.measure)
        form.addRow("Die size (0: any)", size_row)
        form.addRow("Still frames before a roll is taken", self.settle)
        form.addRow("Dice read below this confidence are unsure (a stricter line than the model's)", self.confidence)
        form.addRow("Rolling area", reset)
        form.addRow("Empty table", empty)
        teach_row = QHBoxLayout()
        for button in (self.hold, self.teach, self.release):
            teach_row.addWidget(button)
        form.addRow("Teach it your dice (optional)", teach_row)
        form.addRow("", self.teach_report)
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor, 1)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        self.measure.clicked.connect(self.measure_die_size)
        reset.clicked.connect(self.whole_frame)
        empty.clicked.connect(self.remember_empty_table)
        self.hold.clicked.connect(self.hold_throw)
        self.teach.clicked.connect(self.teach_throw)
        self.release.clicked.connect(self.release_throw)
        self.editor.die_tapped.connect(self.die_tapped)
        self.editor.table_tapped.connect(self.table_tapped)
        self.picker: DiePicker | None = None
        self.show_learned()
        buttons.accepted.connect(lambda: self.save(self.save_to))
        buttons.rejected.connect(self.reject)
        save_as.clicked.connect(self.save_as)

    def show_step(self, step: WatchStep) -> None:
        """A frame from the live view (a held throw stays on screen instead until it is taught or let go)."""
        self.latest = step
        if self.teaching.held is None:
            self.editor.show_frame(step.frame.image, Drawing(step.dice, np.ones(len(step.dice), bool), step.dice.unsure, step.aside))

    # the teaching step

    def show_learned(self, line: str = "") -> None:
        """What the table has seen and how well it reads (after each refit of the learner)."""
        learner = self.teaching.learner
        colours = self.teaching.colours
        held = self.teaching.held is not None
        self.hold.setEnabled((learner is not None or colours is not None) and not held)
        self.teach.setEnabled(held)
        self.release.setEnabled(held)
        if learner is None and colours is None:
            self.teach_report.setText("The dice reader is not loaded here, so the table cannot learn your dice.")
            return
        intro = (
            "Throw all your dice in the rolling area and hold the throw; tap a die that is read wrong (or empty table "
            "where the camera missed one), then teach it. A few throws teach the table your dice; a game also teaches "
            "it as you play. "
        )
        words = [intro + marks_words(self.teaching.offer)]
        if learner is not None:
            words.append(self.teaching.report(learner.summary()))
        if colours is not None:
            words.append(colours.summary())
        self.teach_report.setText(" ".join(word for word in words if word))

    def _show_held(self) -> None:
        held = self.teaching.held
        if held is None:
            return
        dice = held.detections()
        drawing = Drawing(dice, np.ones(len(dice), bool), np.zeros(len(dice), bool), Detections.empty(), True, "Held throw", tuple(held.marks))
        self.editor.show_frame(held.frame, drawing)

    def hold_throw(self) -> None:
        step = self.latest
        try:
            if step is None:
                raise TeachingError("no picture yet: wait for the live view")
            self.teaching.hold(step.frame.image, step.dice, step.state is TableState.STILL)
        except TeachingError as exc:
            self.message.setText(f"Nothing held: {exc}.")
            return
        marks = marks_words(self.teaching.offer)
        self.message.setText(
            "Held. Tap a die read wrong to correct it, empty table to add a die the camera missed"
            + (f". {marks} Then Teach this throw." if marks else "; then Teach this throw.")
        )
        self._show_held()
        self.show_learned()

    def teach_throw(self) -> None:
        try:
            count = self.teaching.teach()
        except TeachingError as exc:
            self.message.setText(f"Not taught: {exc}.")
            return
        self.message.setText(f"Taught {count} dice. Throw again, hold and teach; the table learns each throw in the background.")
        self.show_learned()

    def release_throw(self) -> None:
        self.teaching.release()
        self.message.setText("Let go: the live view again.")
        self.show_learned()

    def _open_picker(self, at: QPoint, allow_none: bool, current: int | None, mark: str = "") -> DiePicker:
        self.picker = open_picker(self, self.picker, at, allow_none, current, self.teaching.offer, mark)
        return self.picker

    def die_tapped(self, index: int, at: QPoint) -> None:
        held = self.teaching.held
        if held is None:
            return
        picker = self._open_picker(at, True, held.values[index], held.marks[index])
        picker.picked.connect(lambda face, i=index: self.correct_die(i, face))

    def table_tapped(self, x: float, y: float, at: QPoint) -> None:
        if self.teaching.held is None:
            return
        picker = self._open_picker(at, False, None)
        picker.picked.connect(lambda face: self.add_missed(x, y, face))

    def correct_die(self, index: int, face: DieToken | None) -> None:
        """Die ``index`` of the held throw is ``face``, its face with its marks (None: no die)."""
        self.teaching.correct(index, face)
        self._show_held()

    def add_missed(self, x: float, y: float, face: DieToken) -> None:
        """A die the camera missed at (``x``, ``y``) frame pixels shows ``face``."""
        self.teaching.add_missed(x, y, face)
        self._show_held()

    def remember_empty_table(self) -> None:
        self.empty_table.emit()
        self.message.setText(
            "What the camera finds on the empty table now (a logo, a knot) is remembered and never taken for a die, "
            "until the camera moves."
        )

    def whole_frame(self) -> None:
        self.editor.area = WHOLE_FRAME
        self.editor.update()

    def measure_die_size(self) -> None:
        size = measured_die_size(self.latest, self.profile.resolution[0]) if self.latest is not None else None
        if size is None:
            self.message.setText("No dice seen: place a few dice on the table (the dice reader must be working).")
            return
        self.die_size.setValue(size)
        self.message.setText(f"Die size measured: {size:.1f} px at {self.profile.resolution[0]}x{self.profile.resolution[1]}.")

    def edited(self) -> CalibrationProfile:
        """The profile as set in the dialog; :class:`CalibrationError` if a field is out of range."""
        return replace(
            self.profile,
            camera=source_spec(self.source) or self.profile.camera,
            area=tuple(self.editor.area),
            die_size=float(self.die_size.value()),
            settle_frames=int(self.settle.value()),
            confidence=float(self.confidence.value()) or None,
        )

    def save(self, path: Path) -> bool:
        try:
            profile = self.edited()
            path.parent.mkdir(parents=True, exist_ok=True)
            save_profile(profile, path)
        except (CalibrationError, OSError) as exc:
            self.message.setText(f"Not saved: {exc}")
            return False
        self.saved.emit(profile, path)
        self.accept()
        return True

    def save_as(self) -> None:
        name, _ = QFileDialog.getSaveFileName(self, "Save the calibration profile", str(self.save_to), "Profiles (*.toml)")
        if name:
            self.save(Path(name))
