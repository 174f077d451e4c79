"""How many of the 36 rendered sample rolls a reader can be expected to read exactly: roll exact on
fresh scenes drawn exactly as ``sample_images/`` is (``sample_scenes``, other seeds), with a 95%
interval, and what that rate predicts for a set of 36.

    python benchmarks/sample_rolls.py [--model DIR] [--scenes 720]

The 36 committed samples are one draw: a reader that reads 30 of them may be a 75% or a 90% reader.
This draws many more the same way, so the samples target ("every roll exact") can be judged as a
rate: with a roll-exact rate p, all 36 come out exact with chance p ** 36 (at p = 98% about one in
two). None of these scenes is a training, card, tuning or sample scene.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

from scorekeeper.evaluation.assessment import machine_name
from scorekeeper.evaluation.score import Score
from scorekeeper.vision.reader import open_reader
from scorekeeper.synthetic.render import render
from scorekeeper.evaluation.samples import sample_scenes

DRAW_SEED = 271_828
"""Seeds ``DRAW_SEED + k`` give the k-th set of 36 scenes: not the samples' (``SAMPLES_SEED``), the
training scenes', the model card's or the tuning benchmarks'."""
SET = 36
"""Scenes in one set, as in ``sample_images/``: lights, tilts and frame sizes taken in turn."""


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate.

    >>> [round(x, 3) for x in wilson(30, 36)]
    [0.681, 0.921]
    """
    if not trials:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=None, help="model folder (default: the committed models)")
    parser.add_argument("--scenes", type=int, default=720, help="fresh sample-like scenes, in sets of 36 (default 720: 20 sets)")
    args = parser.parse_args()
    reader = open_reader(args.model)
    sets = max(1, args.scenes // SET)
    total, per_set, failures = Score(), [], []
    start = time.monotonic()
    for k in range(sets):
        score = Score()
        for i, scene in enumerate(sample_scenes(SET, DRAW_SEED + k)):
            image, labels = render(scene)
            found = reader.read(image)
            size = (image.shape[1], image.shape[0])
            score.add(labels, found, f"set {k} scene {i:02d} ({scene.light}, tilt {scene.tilt:.0f}, {len(labels)} dice)", size=size)
            total.add(labels, found, size=size)
        per_set.append(score.exact)
        failures += score.failures
    lo, hi = wilson(total.exact, total.images)
    p = total.roll_exact
    print(f"{total.images} sample-like scenes ({sets} sets of {SET}), read on {machine_name()} in {time.monotonic() - start:.0f} s")
    print(total.report())
    print(f"roll exact 95% interval {lo * 100:.1f}-{hi * 100:.1f}%")
    print(f"exact per set of {SET}: {sorted(per_set)}  (median {statistics.median(per_set):g})")
    print(f"chance that all {SET} of a set are exact at this rate: {p ** SET * 100:.2g}% (all {sets} sets drawn: {sum(n == SET for n in per_set)} were)")
    print(f"roll-exact rate at which all {SET} come out exact half the time: {0.5 ** (1 / SET) * 100:.1f}%")
    print("first failures:")
    for line in failures[:12]:
        print(f"  {line}")


if __name__ == "__main__":
    main()
