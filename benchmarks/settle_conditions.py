"""Settle results per condition: the test recordings of ``scorekeeper/testbed/settle_clips.py`` through the watch
loop with the default profile, read by the clips' own labels spoiled as a real reader spoils them
(what the tests assert), or by the project's ONNX dice reader.

    python benchmarks/settle_conditions.py [--reader labels|onnx|both]

For each recording: the rests a player would call (each half a second or more), how many were
taken once with the right roll, taken with another roll, missed, and rolls taken that are no rest.
The clips from real photos need ``../shared/data/byler_d6``; they are left out where it is absent.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.camera.watch import default_reader  # noqa: E402
from scorekeeper.vision.detections import DiceReader  # noqa: E402
from scorekeeper.testbed.settle_clips import DATA, PHOTO_CLIPS, RENDERED, Clip, settled  # noqa: E402


def judge(clip: Clip, reader: DiceReader | None) -> str:
    """One line: rests, right, wrong roll, missed, extra."""
    taken = [event.roll() for event in settled(clip, reader=reader)]
    wanted = [sorted(roll) for roll in clip.rolls]
    right = sum(1 for roll in wanted if roll in taken)
    wrong = max(0, min(len(taken), len(wanted)) - right)
    missed = max(0, len(wanted) - len(taken))
    extra = max(0, len(taken) - len(wanted))
    return f"{len(wanted)} rests: {right} right, {wrong} another roll, {missed} missed, {extra} extra"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reader", choices=("labels", "onnx", "both"), default="labels")
    args = parser.parse_args()
    clips = dict(RENDERED)
    if DATA.is_dir():
        clips.update(PHOTO_CLIPS)
    else:
        print(f"({DATA} is not here: the clips from real photos are left out)")
    readers: list[tuple[str, DiceReader | None]] = []
    if args.reader in ("labels", "both"):
        readers.append(("labels, spoiled", None))
    if args.reader in ("onnx", "both"):
        readers.append(("ONNX reader", default_reader()))
    for name, build in clips.items():
        clip = build()
        for label, reader in readers:
            start = time.perf_counter()
            line = judge(clip, reader)
            print(f"{name} [{label}]: {line} ({len(clip.frames)} frames, {time.perf_counter() - start:.0f} s)", flush=True)


if __name__ == "__main__":
    main()
