"""Frames per second of ``scorekeeper watch`` on rendered 640x480 and 1280x720 videos.

    python benchmarks/watch_fps.py [--runs 5] [--frames 300] [--reader fake|onnx|both]

A film of Farkle rolls (throws with motion blur, rests, a knock, a camera bump, a hand sweeping
the dice away) is rendered once per size and written as an MJPG .avi; then the whole watch loop
(decode the video, read the dice, rolling-area filter, settling) runs over it ``--runs`` times.
``fake`` reads the dice from the renderer's labels (the pipeline's own cost); ``onnx`` is the
project's dice reader (2 threads) and is what ``scorekeeper watch`` uses. Each is timed as
``watch`` runs (a picture unchanged since the roll was taken is not read again) and with the
reader on every frame (the worst case: dice moving all the time). Prints every run and the
median frames per second; the target is 60 or more at 640x480 on 2 cores.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from scorekeeper.camera.demo_table import Choreography, render_scene
from scorekeeper.camera.settling import SettleParams
from scorekeeper.camera.sources import VideoSource
from scorekeeper.camera.watch import REUSE_FRAMES, ReaderUnavailable, Watcher, default_reader
from scorekeeper.vision.detections import DiceReader, Detections


def film(width: int, height: int, frames: int) -> Choreography:
    """Rolls until the film is ``frames`` long."""
    shoot = Choreography(width, height, seed=1)
    rng = np.random.default_rng(1)
    while len(shoot.scenes) < frames:
        shoot.throw([int(v) for v in rng.integers(1, 7, 6)], frames=24)
        shoot.rest(30)
        shoot.knock(0, int(rng.integers(1, 7)), (shoot.size, 0.0))
        shoot.bump((8.0, -5.0))
        shoot.rest(30)
        shoot.sweep(16)
        shoot.empty(15)
    del shoot.scenes[frames:]
    return shoot


class LabelReader:
    """The renderer's labels of the frame being watched: what the pipeline costs without a model."""

    def __init__(self, labels: list[Detections]) -> None:
        self.labels = labels
        self.watcher: Watcher | None = None

    def read(self, frame: np.ndarray, dice: int | None = None) -> Detections:
        assert self.watcher is not None and self.watcher.latest_frame is not None
        return self.labels[self.watcher.latest_frame.index]


def time_watch(path: Path, reader: DiceReader, reuse: int) -> tuple[float, float]:
    """Frames per second, and the share of frames the reader read."""
    with VideoSource(path) as video:
        watcher = Watcher(video, reader, settle=SettleParams(), reuse=reuse)
        if isinstance(reader, LabelReader):
            reader.watcher = watcher
        start = time.perf_counter()
        frames = sum(1 for _ in watcher)
        return frames / (time.perf_counter() - start), watcher.frames_read / frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--reader", choices=("fake", "onnx", "both"), default="both")
    args = parser.parse_args()
    onnx: DiceReader | None = None
    if args.reader in ("onnx", "both"):
        try:
            onnx = default_reader()
        except ReaderUnavailable as exc:
            print(f"onnx reader: not measured: {exc}", file=sys.stderr)
    print(f"{os.cpu_count()} cores, OpenCV {cv2.__version__}, {args.frames} frames, {args.runs} runs")
    with tempfile.TemporaryDirectory() as folder:
        for width, height in ((640, 480), (1280, 720)):
            shoot = film(width, height, args.frames)
            path = Path(folder) / f"film_{width}x{height}.avi"
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (width, height))
            labels = []
            for scene in shoot.scenes:
                image, truth = render_scene(scene)
                writer.write(image)
                labels.append(truth)
            writer.release()
            readers: list[tuple[str, DiceReader]] = []
            if args.reader in ("fake", "both"):
                readers.append(("fake (labels)", LabelReader(labels)))
            if onnx is not None:
                readers.append(("onnx", onnx))
            for name, reader in readers:
                for reuse, mode in ((REUSE_FRAMES, "watch"), (0, "every frame read")):
                    runs, share = [], 1.0
                    for _ in range(args.runs):
                        fps, share = time_watch(path, reader, reuse)
                        runs.append(fps)
                    print(
                        f"{width}x{height}  {name:13}  {mode:16}  {share:4.0%} read  runs "
                        + ", ".join(f"{fps:.0f}" for fps in runs)
                        + f"  median {statistics.median(runs):.0f} fps"
                    )


if __name__ == "__main__":
    main()
