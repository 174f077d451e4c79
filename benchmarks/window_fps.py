"""Frame rate of the window's live view with dice detection on, on the demo table.

    python benchmarks/window_fps.py [--sizes 640x480,1280x720] [--seconds 10] [--runs 3] [--unpaced]

Runs the real window (off screen unless a display is set) with the project's ONNX dice
reader, the settling and the worker thread, on the demo table, and counts the frames the
live view draws per second; it also reports the frames the watch loop went through and those
the dice reader really read (a picture unchanged on a quiet table is not read again). No game
is started, so the demo table throws handfuls on its own clock all the time (in a game it waits
for the players between throws, and the reader rests with it). The demo table is paced at 30
frames per second as a webcam is; ``--unpaced`` lets it run as fast as the whole chain allows
(the headroom). Prints each run and the median per size.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEventLoop, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from scorekeeper.camera.sources import open_source  # noqa: E402
from scorekeeper.camera.watch import WatchStep  # noqa: E402
from scorekeeper.ui.controller import GameController  # noqa: E402
from scorekeeper.ui.main_window import MainWindow, WindowOptions  # noqa: E402
from scorekeeper.ui.worker import default_reader  # noqa: E402


def run_for(app: QApplication, seconds: float) -> None:
    """Run a Qt event loop for ``seconds``, as the program does (app.quit would close the window)."""
    loop = QEventLoop()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()


def one_run(app: QApplication, size: tuple[int, int], seconds: float, paced: bool, home: Path) -> tuple[float, float, float, int]:
    """Frames drawn per second, frames through the watch loop per second, frames the reader read
    per second, most dice seen in a frame."""
    window = MainWindow(
        GameController(home),
        WindowOptions(source="demo"),
        reader=default_reader,
        opener=lambda spec, profile: open_source("demo", resolution=size, realtime=paced),
    )
    window.show()
    pane = window.camera
    run_for(app, 4.0)  # the model loads, the first frames come
    if pane.reader_note:
        window.close()
        raise SystemExit(f"detection is not on: {pane.reader_note}")
    steps: list[WatchStep] = []
    pane.step_shown.connect(steps.append)
    watcher = pane.capture.worker.watcher if pane.capture is not None else None
    assert watcher is not None, "the capture worker has no watch loop"
    frames_read = watcher.frames_read
    start = time.perf_counter()
    run_for(app, seconds)
    elapsed = time.perf_counter() - start
    drawn = len(steps) / elapsed
    looped = statistics.median(step.fps for step in steps) if steps else 0.0
    read = (watcher.frames_read - frames_read) / elapsed
    dice = max((len(step.dice) for step in steps), default=0)
    window.close()
    run_for(app, 0.3)
    return drawn, looped, read, dice


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="640x480,1280x720")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--unpaced", action="store_true", help="do not pace the demo table to 30 fps")
    args = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    pacing = "unpaced" if args.unpaced else "paced at 30 fps"
    for text in args.sizes.split(","):
        width, height = (int(v) for v in text.lower().split("x"))
        drawn_runs, looped_runs, read_runs = [], [], []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as home:
                drawn, looped, read, dice = one_run(app, (width, height), args.seconds, not args.unpaced, Path(home))
            drawn_runs.append(drawn)
            looped_runs.append(looped)
            read_runs.append(read)
            print(f"{width}x{height} ({pacing}): {drawn:.1f} frames drawn/s, {looped:.1f} through the watch loop/s, "
                  f"{read:.1f} read by the reader/s, at most {dice} dice seen", flush=True)
        print(f"{width}x{height} ({pacing}): median {statistics.median(drawn_runs):.1f} frames drawn/s, "
              f"{statistics.median(looped_runs):.1f} through the loop/s, {statistics.median(read_runs):.1f} read/s "
              f"over {args.runs} runs of {args.seconds:g} s", flush=True)


if __name__ == "__main__":
    main()
