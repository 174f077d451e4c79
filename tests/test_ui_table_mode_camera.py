"""Table mode's small camera pane: the lines under the live picture are never drawn over it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from scorekeeper.rules import load_rules
from tests.test_ui_window import window_on
from tests.ui_fakes import ScriptedTable


def test_the_camera_status_lines_in_table_mode_lie_outside_the_live_picture(qtbot: QtBot, tmp_path: Path) -> None:
    window = window_on(qtbot, tmp_path, ScriptedTable(640, 480))
    assert window.controller.start(load_rules("retail", ["wild-die", "spicy"]), ["Ann", "Bob", "Cy"])
    window.table_mode_switch.set(True)
    qtbot.waitUntil(lambda: window.table_mode_switch.on and window.table_view.isAncestorOf(window.camera), timeout=5000)
    pane = window.camera
    pane.status.setText("scripted table (640x480): dice still, 30 frames/s read, 30 frames/s shown. Calibration: default profile, a long name")
    pane.prompt.setText("Wild and red dice are asked until the table is calibrated (Camera, Calibrate): tap each (?).")
    qtbot.wait(200)
    picture = QRect(pane.view.mapTo(pane, pane.view.rect().topLeft()), pane.view.size())
    lines = [label for label in pane.findChildren(QLabel) if label.isVisible() and label.text() and not pane.view.isAncestorOf(label)]
    assert lines, "the pane shows its lines"
    for label in lines:
        rect = QRect(label.mapTo(pane, label.rect().topLeft()), label.size())
        assert not rect.intersects(picture), f"{label.text()[:40]!r} is drawn over the live picture: {rect} and {picture}"
        assert label.height() >= label.heightForWidth(label.width()) if label.wordWrap() else label.height() >= label.sizeHint().height()
    window.close()
