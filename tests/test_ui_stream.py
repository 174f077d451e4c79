"""The window and a phone as its camera: the Camera menu takes a typed or pasted address and
remembers it; a stream that drops and comes back is told in the status bar."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray
from pytestqt.qtbot import QtBot

from scorekeeper.settings import FILE as SETTINGS_FILE
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.main_window import MainWindow, WindowOptions
from scorekeeper.vision.detections import Detections
from scorekeeper.testbed.mjpeg_camera import jpegs, mjpeg_camera
from tests.test_camera_stream import textured
from tests.ui_fakes import ScriptedTable


class Blind:
    """Reads no dice."""

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        return Detections.empty()


def test_the_camera_menu_takes_a_phones_address_says_what_is_wrong_with_a_bad_one_and_remembers_it(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from PySide6.QtWidgets import QInputDialog, QMessageBox

    opened: list[str] = []

    def opener(spec: str, profile: object) -> ScriptedTable:
        opened.append(spec)
        return ScriptedTable(320, 240)

    window = MainWindow(GameController(tmp_path), WindowOptions(source="demo"), reader=Blind, opener=opener)  # type: ignore[arg-type]
    qtbot.addWidget(window)
    pane = window.camera_part.pane
    assert pane is not None
    assert "Use a &phone or IP camera..." in [action.text() for action in pane.menu_actions()]
    typed = iter([("webcam:0", True), (" 192.168.1.20:8080/video ", True)])
    offered: list[str] = []
    warned: list[str] = []
    monkeypatch.setattr(QInputDialog, "getText", lambda parent, title, label, echo, text: offered.append(text) or next(typed))
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warned.append(text))
    pane.choose_stream()
    assert warned == ["'webcam:0' is no IP camera's address: type the one the camera app shows, e.g. http://PHONE:8080/video."]
    assert offered == ["http://", "webcam:0"], "a bad address is offered again to be mended"
    qtbot.waitUntil(lambda: opened[-1:] == ["http://192.168.1.20:8080/video"], timeout=5000)
    assert json.loads((tmp_path / SETTINGS_FILE).read_text())["stream_address"] == "http://192.168.1.20:8080/video"

    window.menus.keep_photos.trigger()  # another setting saved keeps the address
    assert json.loads((tmp_path / SETTINGS_FILE).read_text()) == {"keep_photos": False, "stream_address": "http://192.168.1.20:8080/video", "phone_reach": ""}
    window.close()

    later = MainWindow(GameController(tmp_path), WindowOptions(source="demo"), reader=Blind, opener=opener)  # type: ignore[arg-type]
    qtbot.addWidget(later)
    offered.clear()
    monkeypatch.setattr(QInputDialog, "getText", lambda parent, title, label, echo, text: offered.append(text) or ("", False))
    before = len(opened)
    assert later.camera_part.pane is not None
    later.camera_part.pane.choose_stream()
    assert offered == ["http://192.168.1.20:8080/video"], "the last address is offered at the next start"
    assert len(opened) == before, "cancelled: the source stays"
    later.close()


def test_a_phone_stream_that_drops_is_told_in_the_status_bar_and_comes_back_by_itself(qtbot: QtBot, tmp_path: Path) -> None:
    frames = jpegs(textured(150))
    with mjpeg_camera(frames, loop=True) as camera:
        camera.drop_at(60, down=1.5)
        window = MainWindow(GameController(tmp_path), WindowOptions(source=camera.url), reader=Blind)
        qtbot.addWidget(window)
        window.show()
        label = window.source_label
        qtbot.waitUntil(lambda: f"Source: {camera.url} (160x120)" == label.text(), timeout=10000)
        qtbot.waitUntil(lambda: "stopped: reconnecting by itself; the game is kept" in label.text(), timeout=10000)
        qtbot.waitUntil(lambda: f"The stream from {camera.url} is back" in label.text(), timeout=10000)
        assert camera.connections == 2
        window.close()


def test_stopping_the_camera_while_the_stream_is_away_does_not_wait_for_it(qtbot: QtBot, tmp_path: Path) -> None:
    frames = jpegs(textured(40))
    with mjpeg_camera(frames) as camera:
        camera.drop_at(20, down=60)
        window = MainWindow(GameController(tmp_path), WindowOptions(source=camera.url), reader=Blind)
        qtbot.addWidget(window)
        pane = window.camera_part.pane
        assert pane is not None
        qtbot.waitUntil(lambda: "reconnecting by itself" in window.source_label.text(), timeout=10000)
        capture = pane.capture
        assert capture is not None
        started = time.monotonic()
        pane.manual_entry()
        assert capture.thread.isFinished() and time.monotonic() - started < 1.5, "the capture ends at once, not after its 3 s wait"
        window.close()
