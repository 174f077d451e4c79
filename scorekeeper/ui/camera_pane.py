"""The camera side of the window: live view, taps, the camera banner and status.

A view: the :class:`~scorekeeper.table_session.session.TableSession` decides when settled dice become a
roll, what to ask and what to draw; the pane draws what it says and forwards taps to it.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from scorekeeper.camera.calibration import LAST_PROFILE, CalibrationError, CalibrationProfile, default_profile, load_profile
from scorekeeper.camera.empty_table import EmptyTable
from scorekeeper.camera.settling import SettleEvent
from scorekeeper.camera.sources import SourceError, parse_stream
from scorekeeper.camera.watch import WatchStep
from scorekeeper.table_session.assembly import CameraTable
from scorekeeper.table_session.learner import TableLearner
from scorekeeper.table_session.session import DiceOnTable, Drawing, TableSession
from scorekeeper.table_session.table_colours import TableColours
from scorekeeper.ui.camera_view import CameraView, DiePicker, open_picker
from scorekeeper.settings import load_settings, save_settings
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.worker import CaptureThread, CaptureWorker, ReaderFactory, SourceOpener, default_opener, default_reader, marked_opener

if TYPE_CHECKING:
    from scorekeeper.ui.window_options import WindowOptions



def load_start_profile(home: Path, chosen: Path | None) -> tuple[CalibrationProfile, Path | None, str]:
    """The profile to start with: the one asked for, else the last saved, else the shipped default;
    with its file (None for the default), and what was wrong with any that could not be used."""
    problems: list[str] = []
    for path in (chosen, home / LAST_PROFILE):
        if path is not None and (path.is_file() or path == chosen):
            try:
                return load_profile(path), path, " ".join(problems)
            except CalibrationError as exc:
                problems.append(f"{exc}; it was not used.")
    return default_profile(), None, " ".join(problems)


STREAM_PROMPT = (
    "The address your phone's camera app shows, e.g. http://192.168.1.20:8080/video\n"
    "(IP Webcam on Android: Start server, then the address under the picture, /video at the end)."
)
"""What the Camera menu's phone choice asks."""


class CameraPane(QWidget):
    """Live view, camera banner and status: draws what the table session says, forwards taps to it."""

    source_changed = Signal(str)
    """What the status bar should say about the source."""
    step_shown = Signal(object)
    """Each :class:`WatchStep` drawn in the live view (the calibration dialog shows them too)."""
    table_learned = Signal(str)
    """What the table has learned, in a line, after each refit (emitted from the learner's thread)."""

    def __init__(
        self,
        controller: GameController,
        options: WindowOptions,
        parent: QWidget | None = None,
        reader: ReaderFactory = default_reader,
        opener: SourceOpener = default_opener,
        autostart: bool = True,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.reader_factory = reader
        self.opener = opener
        self.spec = options.source
        self.profile, profile_file, self.note = load_start_profile(controller.home, options.calibration)
        """``note``: what the table should know about the camera side (a profile not used, no reader)."""
        self.profile_name = str(profile_file) if profile_file is not None else "default profile"
        self.view = CameraView()
        self.view.area = self.profile.area
        self.banner = QFrame()
        self.banner.setStyleSheet("background: #c0392b; color: white")
        self.banner_text = QLabel()
        self.banner_text.setWordWrap(True)
        reconnect = QPushButton("Reconnect")
        manual = QPushButton("Type the dice instead")
        row = QHBoxLayout(self.banner)
        row.addWidget(self.banner_text, 1)
        row.addWidget(reconnect)
        row.addWidget(manual)
        self.banner.hide()
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.prompt = QLabel()
        self.prompt.setWordWrap(True)
        font = self.prompt.font()
        font.setPointSize(max(font.pointSize(), 10) + 3)
        font.setBold(True)
        self.prompt.setFont(font)
        self.prompt.setStyleSheet("color: #b03a2e")
        for label in (self.prompt, self.status):  # long lines wrap or clip; they never widen the pane
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.banner)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.prompt)
        layout.addWidget(self.status)
        reconnect.clicked.connect(self.reconnect)
        manual.clicked.connect(self.manual_entry)
        self.view.die_tapped.connect(self.die_tapped)
        self.view.table_tapped.connect(self.table_tapped)
        self.capture: CaptureThread | None = None
        self.demo_marks = ""
        """The marks the demo table's set was opened with (a wild die ``"w"``, red pips ``"r"``)."""
        self.latest: WatchStep | None = None
        self.picker: DiePicker | None = None
        self.source_name = ""
        self.empty_table = EmptyTable()
        """The empty table's own finds, kept across reconnections and calibrations."""
        self.reader_note = ""
        """Why the dice reader could not be loaded ("" while it reads)."""
        self.shown_at: deque[float] = deque(maxlen=61)
        self.table = CameraTable(
            controller,
            self.profile,
            profile_file or controller.home / LAST_PROFILE,
            keep_photos=options.keep_photos,
            on_change=self.redraw,
            on_learned=lambda summary: self.table_learned.emit(summary.line()),
        )
        """The camera game this pane drives; what the table learns is kept beside the calibration
        profile the window started with."""
        self.table.on_expect = self.expect
        controller.changed.connect(self.session.game_changed)
        self.learned_label = QLabel()
        self.learned_label.setWordWrap(True)
        self.learned_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        layout.addWidget(self.learned_label)
        self.table_learned.connect(self.learned_label.setText)
        self.redraw()
        if autostart:
            self.start()

    @property
    def session(self) -> TableSession:
        """The table session the pane draws and forwards taps to."""
        return self.table.session

    @property
    def colours(self) -> TableColours:
        """What this table learned of its dice's colours (the wild die, red pips)."""
        return self.table.colours

    @property
    def learner(self) -> TableLearner | None:
        """The table that learns from the rolls confirmed here, once a reader that can learn is loaded."""
        return self.table.learner

    def menu_actions(self) -> list[QAction]:
        """The Camera menu."""
        actions = []
        for text, slot in (
            ("&Reconnect the camera", self.reconnect),
            ("Use the &demo table", lambda: self.switch("demo")),
            ("Use a &webcam...", self.choose_webcam),
            ("Use a &phone or IP camera...", self.choose_stream),
            ("Play a &video...", self.choose_video),
            ("Step through a folder of &photos...", self.choose_folder),
            ("&Manual entry (camera off)", self.manual_entry),
            ("&Calibrate...", self.calibrate),
            ("&Forget what this table learned...", self.forget_table),
        ):
            action = QAction(text, self)
            action.triggered.connect(lambda _=False, s=slot: s())
            actions.append(action)
        return actions

    def start(self) -> None:
        """Open the source in a worker thread (the window goes on while it opens)."""
        self.stop()
        self.banner.hide()
        self.view.show_message("Opening the camera...")
        self.demo_marks = self.session.marks_offered()
        opener = marked_opener(self.demo_marks) if self.opener is default_opener and self.demo_marks else self.opener
        worker = CaptureWorker(self.spec, self.profile, self.reader_factory, opener, self.empty_table, self.table.reopened())
        worker.opened.connect(self.opened)
        worker.stepped.connect(self.stepped)
        worker.table_event.connect(self.table_event)
        worker.reader_missing.connect(self.reader_missing)
        worker.reader_ready.connect(self.reader_ready)
        worker.lost.connect(self.camera_lost)
        worker.notice.connect(self.stream_notice)
        worker.failed.connect(self.camera_failed)
        self.capture = CaptureThread(worker)
        self.capture.start()

    def stop(self) -> None:
        if self.capture is not None:
            self.capture.stop()
            self.capture = None

    def switch(self, spec: str) -> None:
        self.spec = spec
        self.start()

    def reconnect(self) -> None:
        self.start()

    def choose_webcam(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        number, ok = QInputDialog.getInt(self, "Webcam", "Camera number (0 is the first):", 0, 0, 99)
        if ok:
            self.switch(f"webcam:{number}")

    def choose_stream(self) -> None:
        """Ask for an IP camera's address (the last one typed filled in), then read from it and
        remember it for the next time."""
        from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox

        home = self.controller.home
        settings, _ = load_settings(home)
        text = settings.stream_address or "http://"
        while True:
            text, ok = QInputDialog.getText(self, "Phone or IP camera", STREAM_PROMPT, QLineEdit.EchoMode.Normal, text)
            if not ok:
                return
            try:
                spec = parse_stream(text)
                break
            except SourceError as exc:
                QMessageBox.warning(self, "Phone or IP camera", f"{exc}.")
        address = str(spec)
        try:
            save_settings(home, replace(load_settings(home)[0], stream_address=address))
        except OSError as exc:
            self.source_changed.emit(f"The address is used but could not be remembered: {exc}")
        self.switch(address)

    def choose_video(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Play a video", "", "Videos (*.mp4 *.avi *.mkv *.mov *.webm);;All files (*)")
        if name:
            self.switch(f"video:{name}")

    def choose_folder(self) -> None:
        name = QFileDialog.getExistingDirectory(self, "A folder of photos")
        if name:
            self.switch(f"images:{name}")

    def manual_entry(self) -> None:
        self.stop()
        self.banner.hide()
        self.view.show_message("Camera off: type the dice in the turn panel.")
        self.source_changed.emit("Camera off: manual entry")

    def calibrate(self) -> None:
        from scorekeeper.ui.calibration import CalibrationDialog

        marks = self.session.marks_offered() or self.colours.learned()
        dialog = CalibrationDialog(self.profile, self.controller.home / LAST_PROFILE, self, learner=self.learner, colours=self.colours, marks=marks)
        self.table_learned.connect(dialog.show_learned)
        dialog.finished.connect(lambda _: self.table_learned.disconnect(dialog.show_learned))
        dialog.saved.connect(self.use_profile)
        dialog.empty_table.connect(self.learn_empty_table)
        self.step_shown.connect(dialog.show_step)
        dialog.finished.connect(lambda _: self.step_shown.disconnect(dialog.show_step))
        if self.latest is not None:
            dialog.show_step(self.latest)
        dialog.open()
        self.calibration_dialog = dialog

    def learn_empty_table(self) -> None:
        """The calibration's empty-table view: what the camera finds now is the table's."""
        if self.capture is not None:
            self.capture.worker.learn_empty_table()

    def use_profile(self, profile: CalibrationProfile, path: Path) -> None:
        """Read with ``profile``, just saved at ``path``: what the table learns is kept beside it from now on."""
        self.profile = profile
        self.profile_name = str(path)
        self.table.use_profile(profile, path)
        self.view.area = profile.area
        self.start()

    # worker signals

    def opened(self, name: str, note: str) -> None:
        self.source_name = name
        self.banner.hide()
        self.source_changed.emit(f"Source: {name}" + (f". {note}" if note else ""))

    def reader_ready(self, reader: object) -> None:
        """Start the table that learns with the first reader that can (each reconnection loads the same model)."""
        started = self.learner is None
        learner = self.table.learn_with(reader)
        if started and learner is not None:
            self.learned_label.setText(learner.summary().line())

    def forget_table(self) -> None:
        """Ask, then drop what this table learned (here and in its file)."""
        from PySide6.QtWidgets import QMessageBox

        if self.learner is None and not self.colours.learned():
            QMessageBox.information(self, "Forget what this table learned", "The table has learned nothing yet: no dice reader that learns is loaded.")
            return
        learned = [self.learner.summary().line() + "."] if self.learner is not None else []
        learned += [self.colours.summary()] if self.colours.learned() else []
        answer = QMessageBox.question(
            self, "Forget what this table learned",
            f"{' '.join(learned)}\n\nForget it all? The reader then reads this table as it reads any other, "
            "and learns it again from the next rolls you confirm.",
        )
        if answer == QMessageBox.StandardButton.Yes:
            if self.learner is not None:
                self.learner.forget()
            self.colours.forget()

    def shutdown_learner(self) -> None:
        """Let the learner finish what it is learning (it saves the table file), then stop it."""
        self.table.stop_learning()

    def reader_missing(self, why: str) -> None:
        self.reader_note = f"Dice reader unavailable ({why}): the camera is shown, type the dice."
        self.note = self.reader_note
        self.redraw()

    def camera_lost(self, why: str) -> None:
        self.banner_text.setText(f"Camera lost: {why}. The game is kept.")
        self.banner.show()
        self.view.show_message("No picture. Reconnect, or type the dice by hand.")

    def stream_notice(self, text: str) -> None:
        """A stream dropped and is being opened again, or is back: the status bar says so."""
        self.source_changed.emit(f"Source: {self.source_name}. {text}.")

    def camera_failed(self, why: str) -> None:
        self.banner_text.setText(f"No camera: {why}")
        self.banner.show()
        self.view.show_message("No picture. Reconnect, choose another source (Camera menu), or type the dice.")
        self.source_changed.emit("No camera: manual entry")

    def stepped(self, step: WatchStep) -> None:
        self.latest = step
        self.session.saw(step.dice, step.aside)
        self.view.show_frame(step.frame.image, self.overlay())
        self.shown_at.append(time.perf_counter())
        self.step_shown.emit(step)
        reading = "camera only" if self.reader_note else f"dice {step.state}, {step.fps:.0f} frames/s read"
        self.status.setText(f"{self.source_name}: {reading}, {self.view_fps():.0f} frames/s shown. Calibration: {self.profile_name}")
        if self.capture is not None:
            self.capture.worker.view_ready()

    def view_fps(self) -> float:
        """Frames drawn per second over the last two seconds or so."""
        times = self.shown_at
        return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0.0

    def table_event(self, event: SettleEvent, step: WatchStep) -> None:
        self.session.saw(step.dice, step.aside)
        self.session.table_event(event, step.frame.image)

    # what the session says

    @property
    def pending(self) -> DiceOnTable | None:
        """A settled roll waiting for taps on its flagged dice."""
        return self.session.pending

    @property
    def taken(self) -> DiceOnTable | None:
        """The roll taken, as read and tapped."""
        return self.session.taken

    def overlay(self) -> Drawing:
        return self.session.drawing()

    def redraw(self) -> None:
        """Draw what the session says now: the boxes and the question."""
        self.prompt.setText(self.session.prompt or self.note)
        self.view.set_overlay(self.overlay())

    def expect(self, count: int | None) -> None:
        """The game expects ``count`` dice thrown next: the reader is told, a demo table throws them
        (with the wild die where the game plays one and it is among them). A game playing other
        marks than the demo table's set throws is played on a set that has them: the demo opens again."""
        if self.spec == "demo" or (self.spec or "").startswith("demo:"):
            if self.capture is not None and self.opener is default_opener and self.session.marks_offered() != self.demo_marks:
                self.start()
                return
        if self.capture is not None:
            self.table.expect(count)

    # taps

    def _open_picker(self, at: QPoint, allow_none: bool, current: int | None, mark: str = "") -> DiePicker:
        self.picker = open_picker(self, self.picker, at, allow_none, current, self.session.marks_offered(), mark)
        return self.picker

    def die_tapped(self, index: int, at: QPoint) -> None:
        dice = self.session.tappable()
        if dice is None:
            self.session.tap_refused()
            return
        picker = self._open_picker(at, True, dice.values[index], dice.marks[index])
        picker.picked.connect(lambda face, i=index: self.session.correct(dice, i, face))

    def table_tapped(self, x: float, y: float, at: QPoint) -> None:
        dice = self.session.tappable()
        if dice is None:
            return
        picker = self._open_picker(at, False, None)
        picker.picked.connect(lambda face: self.session.add_missed(dice, x, y, face))
