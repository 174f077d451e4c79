"""The capture thread at the window's close: one busy in a camera call is waited for before the
program ends (Python torn down under a running Qt thread crashes)."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Signal
from pytestqt.qtbot import QtBot

from scorekeeper.ui import worker
from scorekeeper.ui.worker import CaptureThread, wait_for_lingering


class StuckInACameraCall(QObject):
    """A worker whose camera call does not return until ``release`` is set, whatever it is asked."""

    ended = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()

    def run(self) -> None:
        self.release.wait(10)
        self.ended.emit()

    def stop(self) -> None:
        """A camera call cannot be interrupted: the worker only ends once it returns."""


def test_a_capture_thread_still_in_a_camera_call_is_waited_for_and_given_up_on_in_time(qtbot: QtBot) -> None:
    stuck = StuckInACameraCall()
    capture = CaptureThread(stuck)
    capture.start()
    qtbot.waitUntil(capture.thread.isRunning)
    capture.stop(wait_ms=0)
    assert capture in worker._LINGERING and capture.thread.isRunning()
    assert not wait_for_lingering(100)  # the call still has not returned
    assert capture.thread.isRunning()
    threading.Timer(0.3, stuck.release.set).start()
    assert wait_for_lingering(5000)
    assert capture.thread.isFinished() and capture not in worker._LINGERING
    assert wait_for_lingering(0)  # nothing left to wait for
