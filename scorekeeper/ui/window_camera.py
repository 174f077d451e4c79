"""The window's camera part: the live camera pane (or a notice where this build has no camera
pipeline), the Game menu's choice to keep a picture of each roll, and letting the camera go at close."""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel, QMainWindow, QWidget

from scorekeeper.settings import load_settings, save_settings
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.turn_panel import big

if TYPE_CHECKING:
    from scorekeeper.ui.camera_pane import CameraPane
    from scorekeeper.ui.window_options import WindowOptions
    from scorekeeper.ui.worker import ReaderFactory, SourceOpener

log = logging.getLogger(__name__)


class WindowCamera:
    """The camera pane the window shows, where this build can read a camera; otherwise a notice to
    type the dice by hand, and no Camera menu."""

    def __init__(
        self,
        window: QMainWindow,
        controller: GameController,
        options: WindowOptions,
        reader: ReaderFactory | None,
        opener: SourceOpener | None,
        source_label: QLabel,
    ) -> None:
        """``reader`` and ``opener`` replace the ONNX reader and the frame sources (tests); the
        pane says what it reads from in ``source_label``."""
        self._window = window
        self._controller = controller
        self.pane: CameraPane | None = None
        """The live camera pane; None where the camera pipeline is not in this build."""
        self.widget: QWidget
        """What the window shows for the camera: the pane, or the notice."""
        try:
            from scorekeeper.ui.camera_pane import CameraPane
            from scorekeeper.ui.worker import default_opener, default_reader
        except ImportError as exc:
            log.warning("the camera pipeline is not available: %s", exc)
            missing = big(QLabel(f"Camera view unavailable in this build ({exc}).\nType the dice by hand."), 3)
            missing.setWordWrap(True)
            missing.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.widget = missing
            return
        self.pane = CameraPane(controller, options, window, reader=reader or default_reader, opener=opener or default_opener)
        self.pane.source_changed.connect(lambda text: source_label.setText(text))
        self.widget = self.pane

    def menu_actions(self) -> list[QAction]:
        """The Camera menu's actions (none without a camera pane)."""
        return self.pane.menu_actions() if self.pane is not None else []

    def keep_photos(self, keep: bool) -> None:
        """Game > Keep a picture of each roll: from the next roll on, and at every later start."""
        if self.pane is not None:
            self.pane.session.keep_photos = keep
        try:
            home = self._controller.home
            save_settings(home, replace(load_settings(home)[0], keep_photos=keep))
        except OSError as exc:
            self._say(f"The setting holds until the window closes; it could not be saved: {exc}")
            return
        self._say("Each roll taken keeps its picture." if keep else "Rolls keep no pictures from now on.")

    def close(self) -> None:
        """Stop the capture and let the table learner finish (the window is closing)."""
        if self.pane is not None:
            self.pane.stop()
            self.pane.shutdown_learner()

    def _say(self, text: str) -> None:
        self._window.statusBar().showMessage(text, 8000)
