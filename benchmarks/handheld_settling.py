"""Settling under a phone held in the hand: the recordings of ``scorekeeper/testbed/handheld_clips.py``
(rendered, and byler_d6's real photos moved; each filmed from a fixed camera and by a drifting,
shaking, turning phone) through the watch loop with the default profile, the dice read by the
clips' own labels spoiled as a real reader spoils them (what the tests assert).

    python benchmarks/handheld_settling.py

Prints per source and camera: rests (half a second or more), taken, read right, spurious (rolls
taken while dice moved), and the cost in ms a frame of the watch loop (reader aside) and of the
camera's registration alone (``CameraMotion``), with the CPU.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from numpy.typing import NDArray  # noqa: E402

from scorekeeper.camera.motion import CameraMotion  # noqa: E402
from scorekeeper.testbed.handheld_clips import HandheldClip  # noqa: E402

from scorekeeper.testbed.handheld_clips import CAMERAS, SOURCES, filmed, play, score  # noqa: E402
from scorekeeper.testbed.settle_clips import DATA  # noqa: E402


def cpu() -> str:
    """The CPU's model name, as the system tells it."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def registration_ms(clip: HandheldClip) -> float:
    """Median ms a frame of the camera's registration (the watch loop's thumbnail included)."""
    motion = CameraMotion()
    last: NDArray[np.uint8] | None = None
    times = []
    for image, truth in zip(clip.frames, clip.truth):
        start = time.perf_counter()
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        thumb = np.asarray(cv2.resize(gray, (image.shape[1] // 8, image.shape[0] // 8), interpolation=cv2.INTER_AREA), np.uint8)
        motion.block_change(image, thumb, last, truth)
        times.append(time.perf_counter() - start)
        last = thumb
    return statistics.median(times) * 1000


def main() -> None:
    print(f"CPU: {cpu()}")
    print(f"{'source':<20} {'camera':<26} {'rests':>5} {'taken':>5} {'read right':>10} {'spurious':>8} {'loop ms':>8} {'register ms':>11}")
    for source, make in SOURCES.items():
        if source != "rendered" and not DATA.is_dir():
            print(f"({DATA} is not here: {source} left out)")
            continue
        table, rests = make()
        for camera, path in CAMERAS.items():
            clip = filmed(table, rests, path, seed=1)
            start = time.perf_counter()
            events = play(clip)
            cost = (time.perf_counter() - start) / len(clip.frames) * 1000
            result = score(clip, events)
            print(f"{source:<20} {camera:<26} {result.rests:>5} {result.taken:>5} {result.read_right:>10} {result.spurious:>8} {cost:>8.1f} {registration_ms(clip):>11.1f}", flush=True)


if __name__ == "__main__":
    main()
