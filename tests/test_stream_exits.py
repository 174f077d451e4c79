"""``scorekeeper watch`` on a phone's stream, run as the player runs it (a process of its own), ends
cleanly however the session ends: the frames' end, Ctrl-C while the stream plays, Ctrl-C while it
is away, the camera refusing it. Before, the stream's thread was still inside OpenCV when Python
ended, and the process died of SIGABRT ("FATAL: exception not rethrown") nearly every time."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.testbed.mjpeg_camera import MjpegCamera, jpegs, mjpeg_camera
from tests.test_camera_stream import textured

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


class Watch:
    """``python -m scorekeeper watch URL ...`` running, its stderr read line by line."""

    def __init__(self, camera: MjpegCamera, *args: str, home: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper", "watch", camera.url, *args],
            cwd=ROOT,
            env={**os.environ, "SCOREKEEPER_HOME": str(home)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: list[str] = []

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        assert self.process.stderr is not None
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            line = self.process.stderr.readline()
            if not line:
                break
            self.lines.append(line.rstrip("\n"))
            if text in line:
                return
        pytest.fail(f"{text!r} never came: {self.lines}")

    def ended(self, timeout: float = 30.0) -> int:
        _, rest = self.process.communicate(timeout=timeout)
        self.lines += rest.splitlines()
        assert not [line for line in self.lines if "FATAL" in line or "Traceback" in line], self.lines
        return self.process.returncode


def test_watch_ends_cleanly_at_the_frames_end(tmp_path: Path) -> None:
    frames = jpegs(textured(30, (320, 240)))
    with mjpeg_camera(frames, loop=True) as camera:
        for _ in range(3):  # it crashed at 10 runs of 10: three clean ends in a row are no luck
            watch = Watch(camera, "--max-frames", "20", home=tmp_path)
            assert watch.ended() == 0


def test_watch_ends_cleanly_on_ctrl_c_while_the_stream_plays(tmp_path: Path) -> None:
    frames = jpegs(textured(30, (320, 240)))
    with mjpeg_camera(frames, loop=True) as camera:
        for _ in range(2):
            watch = Watch(camera, home=tmp_path)
            watch.wait_for("watching")
            time.sleep(0.5)
            watch.process.send_signal(signal.SIGINT)
            assert watch.ended() == 0


def test_watch_ends_cleanly_on_ctrl_c_while_the_stream_is_away_having_said_so_once(tmp_path: Path) -> None:
    frames = jpegs(textured(30, (320, 240)))
    with mjpeg_camera(frames) as camera:
        camera.drop_at(15, down=600)
        watch = Watch(camera, home=tmp_path)
        watch.wait_for("watching")
        seen = len(watch.lines)
        watch.wait_for("stopped: reconnecting by itself")
        camera.stop()  # the app is closed: nothing takes connections at the port now
        time.sleep(2.5)  # two tries, refused
        watch.process.send_signal(signal.SIGINT)
        assert watch.ended() == 0
    assert len(watch.lines[seen:]) == 1, f"one line for the outage, not one a try: {watch.lines[seen:]}"


def test_watch_ends_with_the_reason_when_the_camera_refuses_the_stream_after_a_drop(tmp_path: Path) -> None:
    frames = jpegs(textured(30, (320, 240)))
    with mjpeg_camera(frames, loop=True) as camera:
        watch = Watch(camera, home=tmp_path)
        watch.wait_for("watching")
        camera.password = ("ann", "hunter2")  # the app restarted, asking for a password now
        camera.drop_at(camera.position + 3, down=0.2)
        assert watch.ended() == 2
    assert "the camera asks for a user name and password (401)" in watch.lines[-1], watch.lines
