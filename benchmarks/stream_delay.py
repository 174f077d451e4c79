"""The delay from a frame sent to a roll taken, from a phone's MJPEG stream against the same frames from a file.

    python benchmarks/stream_delay.py [--rolls 12] [--size 640x480] [--reader fake|onnx] [--fps 30]

A film of ``--rolls`` rolls (each thrown, at rest for 1.5 s, then picked up) is rendered once and
encoded as JPEGs. It is then watched twice with the same watch loop and settling as ``scorekeeper
watch``: served as an MJPEG stream (multipart/x-mixed-replace, as phone camera apps serve it) from
127.0.0.1 at ``--fps`` and read through :class:`~scorekeeper.camera.sources.StreamSource`; and as
the same JPEGs in a file read through :class:`~scorekeeper.camera.sources.VideoSource` paced to the
same rate. Each delay runs from the moment the first frame of a roll's rest is sent (written to
the stream's socket; due by the file's pace) to the moment the watch loop gives the roll taken,
so it holds the settling wait (``settle_frames`` still frames) in both; the difference between
the two is what the stream adds. ``fake`` reads the dice from the renderer's labels (the
pipeline's own cost), ``onnx`` is the project's reader (2 threads). Prints each roll's delays and
the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.camera.demo_table import Choreography, render_scene  # noqa: E402
from scorekeeper.camera.settling import EventKind  # noqa: E402
from scorekeeper.camera.sources import FrameSource, StreamSource, VideoSource  # noqa: E402
from scorekeeper.camera.watch import Watcher, default_reader  # noqa: E402
from scorekeeper.vision.detections import DiceReader  # noqa: E402
from scorekeeper.testbed.films import FilmReader  # noqa: E402
from scorekeeper.testbed.mjpeg_camera import as_streamed, jpegs, mjpeg_camera, write_mjpeg  # noqa: E402

LEAD, THROW, REST, EMPTY = 10, 12, 45, 20
"""Frames of the film: the empty table first, then for each roll thrown, at rest, picked up."""


def film(rolls: int, width: int, height: int) -> tuple[Choreography, list[int]]:
    """The film, and the frame each roll's rest starts at."""
    shoot = Choreography(width, height, seed=3)
    rng = np.random.default_rng(3)
    shoot.empty(LEAD)
    rests = []
    for _ in range(rolls):
        shoot.throw([int(v) for v in rng.integers(1, 7, int(rng.integers(2, 7)))], frames=THROW)
        rests.append(len(shoot.scenes))
        shoot.rest(REST)
        shoot.empty(EMPTY)
    return shoot, rests


def taken_times(source: FrameSource, reader: DiceReader, over: Callable[[], bool]) -> list[float]:
    """The monotonic time of each roll taken while watching ``source``, until it ends or ``over()``."""
    watcher = Watcher(source, reader)
    taken = []
    for step in watcher.steps():
        taken += [time.monotonic() for event in step.events if event.kind is EventKind.SETTLED]
        if over():
            break
    return taken


def delays(rests: list[float], taken: list[float]) -> list[float]:
    """Each roll's delay, ms: the first roll taken after each rest began (NaN where none was)."""
    out = []
    for i, start in enumerate(rests):
        end = rests[i + 1] if i + 1 < len(rests) else float("inf")
        after = [t for t in taken if start <= t < end]
        out.append((after[0] - start) * 1000 if after else float("nan"))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=12)
    parser.add_argument("--size", default="640x480", help="WIDTHxHEIGHT of the frames")
    parser.add_argument("--reader", choices=("fake", "onnx"), default="fake")
    parser.add_argument("--fps", type=float, default=30.0)
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    shoot, rest_frames = film(args.rolls, width, height)
    scenes = shoot.drain()
    rendered = [render_scene(scene) for scene in scenes]
    frames = jpegs([image for image, _ in rendered])
    with tempfile.TemporaryDirectory() as folder:
        recording = write_mjpeg(frames, Path(folder) / "film.mjpeg")

        def reader(streamed: bool) -> DiceReader:
            if args.reader == "onnx":
                return default_reader()
            # each picture told as its source decodes it: the stream's own JPEG decoder, the file's FFMPEG
            film_reader = FilmReader(scenes, [labels for _, labels in rendered], seed=1)
            return film_reader.by_images(as_streamed(frames)) if streamed else film_reader.by_picture(recording)

        with mjpeg_camera(frames, args.fps) as camera, StreamSource(camera.url) as stream:
            taken = taken_times(stream, reader(True), lambda: len(camera.sent) >= len(frames))
            sent = dict(camera.sent)
            streamed = delays([sent[frame] for frame in rest_frames if frame in sent], taken)

        with VideoSource(recording, realtime=True) as video:
            video.fps = args.fps
            started = time.monotonic()
            taken = taken_times(video, reader(False), lambda: False)
            filed = delays([started + frame / args.fps for frame in rest_frames], taken)

    print(f"{len(rest_frames)} rolls of {width}x{height} at {args.fps:g} frames/s, reader {args.reader}")
    print("roll  stream ms  file ms")
    for number, (a, b) in enumerate(zip(streamed, filed), start=1):
        print(f"{number:4}  {a:9.0f}  {b:7.0f}")
    for name, values in (("stream", streamed), ("file", filed)):
        good = [v for v in values if v == v]
        missed = len(values) - len(good)
        median = statistics.median(good) if good else float("nan")
        print(f"{name}: median {median:.0f} ms over {len(good)} rolls" + (f", {missed} not taken" if missed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
