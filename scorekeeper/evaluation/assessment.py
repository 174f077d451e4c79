"""Measuring a reader: on labelled folders, per renderer condition, and its latency.

Shared by ``scorekeeper evaluate``, ``scorekeeper train`` (the model card) and the benchmarks.
"""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.dataset import DatasetError, LabelledImage, load_dataset, read_split, with_label_fixes
from scorekeeper.vision.detections import DiceReader, Detections
from scorekeeper.evaluation.score import Score
from scorekeeper.safe_input import read_head
from scorekeeper.synthetic.die import DIE_COLOURS, random_look
from scorekeeper.synthetic.light import LIGHTS
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene, random_scene, relaid

CONDITION_SEED = 777_000
"""Seed of the rendered condition sets (never used for training data)."""


def score_dataset(reader: DiceReader, items: Iterable[LabelledImage], counted: bool = False) -> Score:
    """Read every image and compare with its labels; ``counted`` tells the reader how many dice
    each image holds (as a game does: six, then the dice left)."""
    return score_groups(reader, items, {}, counted)[""]


def score_groups(reader: DiceReader, items: Iterable[LabelledImage], group_of: Mapping[str, str], counted: bool = False) -> dict[str, Score]:
    """``score_dataset`` over all images (key ``""``) and per group (``group_of``: image stem ->
    group; images it does not name are in no group), reading each image once."""
    scores: dict[str, Score] = {"": Score()}
    for item in items:
        frame = item.load()
        found = reader.read(frame, dice=len(item.labels)) if counted else reader.read(frame)
        for key in ("", *([group_of[item.path.stem]] if item.path.stem in group_of else [])):
            scores.setdefault(key, Score()).add(item.labels, found, item.path.name, size=(frame.shape[1], frame.shape[0]))
    return scores


def table_outcomes(reader: DiceReader, folder: Path, split: str | None) -> tuple[dict[str, Score], dict[str, Score]]:
    """A photo folder's split read blind and told each photo's count, over all (key ``""``) and
    per group where ``split.csv`` has a ``group`` column; the project's reviewed labels where it has them."""
    items = with_label_fixes(load_dataset(folder, split=split), folder)[0]
    group_of = groups_in(folder / "split.csv")
    return score_groups(reader, items, group_of), score_groups(reader, items, group_of, counted=True)


def groups_in(split_file: Path) -> dict[str, str]:
    """``stem -> group`` from a split file with a ``group`` column; empty where there is no such
    file or column."""
    if not os.path.lexists(split_file):
        return {}
    first = read_head(split_file, "split file", 4096, DatasetError).partition(b"\n")[0]
    header = [name.strip() for name in first.decode("utf-8", errors="replace").removeprefix("\ufeff").split(",")]
    return read_split(split_file, "group") if "group" in header else {}


PHOTO_SIZES = (0.5, 0.65, 0.8, 1.25, 1.5, 2.0)
"""Factors labelled photos are resized by to measure the reader on dice of other sizes: the byler
photos' dice, 30-50 px, become 15-100 px, most of the range a webcam 40-100 cm above a table sees."""


def resized(frame: NDArray[np.uint8], labels: Detections, factor: float) -> tuple[NDArray[np.uint8], Detections]:
    """A labelled frame resized by ``factor`` (area-averaged down, bilinear up), with its labels.

    >>> frame, labels = resized(np.zeros((100, 80, 3), np.uint8), Detections(np.array([[10, 20, 30, 40]]), np.array([5]), np.ones(1)), 0.5)
    >>> frame.shape, labels.boxes.tolist()
    ((50, 40, 3), [[5.0, 10.0, 15.0, 20.0]])
    """
    h, w = frame.shape[:2]
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    out = np.asarray(cv2.resize(frame, size, interpolation=cv2.INTER_AREA if factor < 1 else cv2.INTER_LINEAR), np.uint8)
    scale = np.array([size[0] / w, size[1] / h, size[0] / w, size[1] / h], np.float32)
    return out, Detections(labels.boxes * scale, labels.values, labels.confidences)


def score_resized(reader: DiceReader, items: Iterable[LabelledImage], factor: float) -> Score:
    """``score_dataset`` on every image resized by ``factor``."""
    score = Score()
    for item in items:
        frame, labels = resized(item.load(), item.labels, factor)
        score.add(labels, reader.read(frame), item.path.name, size=(frame.shape[1], frame.shape[0]))
    return score


def _variants() -> dict[str, list[tuple[str, Callable[[Scene, np.random.Generator], Scene]]]]:
    def light(name: str) -> Callable[[Scene, np.random.Generator], Scene]:
        return lambda scene, rng: replace(scene, light=name)

    def tilt(lo: float, hi: float) -> Callable[[Scene, np.random.Generator], Scene]:
        return lambda scene, rng: replace(scene, tilt=float(rng.uniform(lo, hi)))

    def blur(lo: float, hi: float) -> Callable[[Scene, np.random.Generator], Scene]:
        return lambda scene, rng: replace(scene, blur=float(rng.uniform(lo, hi)) if hi else 0.0)

    def colour(name: str) -> Callable[[Scene, np.random.Generator], Scene]:
        return lambda scene, rng: replace(scene, dice=tuple(replace(d, look=random_look(rng, name)) for d in scene.dice))

    def layout(huddled: bool) -> Callable[[Scene, np.random.Generator], Scene]:
        return lambda scene, rng: relaid(scene, huddled, rng)

    return {
        "colour": [(name, colour(name)) for name in DIE_COLOURS],
        "tilt": [("0-5 deg", tilt(0, 5)), ("5-25 deg", tilt(5, 25)), ("25-45 deg", tilt(25, 45))],
        "blur": [("sharp", blur(0, 0)), ("sigma 0.5-1.5", blur(0.5, 1.5)), ("sigma 1.5-2.5", blur(1.5, 2.5))],
        "light": [(name, light(name)) for name in LIGHTS],
        "dice": [("apart", layout(False)), ("touching", layout(True))],
    }


def condition_scenes(scenes: int, seed: int = CONDITION_SEED) -> dict[tuple[str, str], list[Scene]]:
    """Rendered test scenes for each (condition, value): the same random base scenes with one
    condition set, dice at rest (a settled roll is what gets scored)."""
    out: dict[tuple[str, str], list[Scene]] = {}
    for condition, variants in _variants().items():
        for name, change in variants:
            rng = np.random.default_rng([seed, len(out)])
            base_rng = np.random.default_rng(seed)
            batch = []
            for _ in range(scenes):
                scene = random_scene(base_rng)
                scene = replace(scene, dice=tuple(replace(d, motion=(0.0, 0.0), tumble=0.0) for d in scene.dice), hand=None)
                batch.append(change(scene, rng))
            out[(condition, name)] = batch
    return out


def score_conditions(reader: DiceReader, scenes: int, seed: int = CONDITION_SEED) -> dict[tuple[str, str], Score]:
    """A score per renderer condition."""
    result = {}
    for key, batch in condition_scenes(scenes, seed).items():
        score = Score()
        for scene in batch:
            image, labels = render(scene)
            score.add(labels, reader.read(image), size=(image.shape[1], image.shape[0]))
        result[key] = score
    return result


BUSY_MACHINE = 0.1
"""Latency taken while other processes kept more than this share of the CPUs busy is too slow to
quote: a model card written while something else trained said 10.3 ms for a 7.1 ms read."""


@dataclass(frozen=True)
class Latency:
    """How long one read took, and how busy the rest of the machine was while it was measured."""

    median_s: float
    """Median seconds of one read."""
    busy_elsewhere: float | None
    """Share of all the machine's CPUs that other processes used meanwhile (0-1; None where the
    system does not tell, as off Linux). Above ``BUSY_MACHINE`` the median is slower than on the
    same machine idle."""


def machine_name() -> str:
    """The CPU's model and how many CPUs this process sees, e.g. ``"AMD EPYC, x86_64, 2 CPUs"``:
    two machines of 2 cores each can differ in speed by more than a core's worth, so a timing is
    quoted with the machine it was taken on."""
    model = ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as handle:
            model = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "")
    except OSError:
        pass
    model = model or platform.processor()
    return ", ".join(part for part in (model, platform.machine(), f"{os.cpu_count()} CPUs") if part)


def cpu_seconds_used() -> float | None:
    """CPU seconds every process together has used since boot (Linux ``/proc/stat``), else None."""
    try:
        with open("/proc/stat", encoding="ascii") as handle:
            ticks = [int(field) for field in handle.readline().split()[1:9]]
        per_second = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None
    # user nice system idle iowait irq softirq steal: all but idle and iowait is work
    return (sum(ticks) - ticks[3] - ticks[4]) / per_second


def measure_latency(read: Callable[[NDArray[np.uint8]], Detections], frames: list[NDArray[np.uint8]], runs: int) -> Latency:
    """The median of ``runs`` reads cycling through ``frames`` (after a warm-up), and the share
    of the CPUs other processes took meanwhile."""
    for frame in frames[:3]:
        read(frame)
    times = []
    machine_before, own_before, wall_before = cpu_seconds_used(), _own_cpu_seconds(), time.perf_counter()
    for i in range(runs):
        frame = frames[i % len(frames)]
        start = time.perf_counter()
        read(frame)
        times.append(time.perf_counter() - start)
    machine_after, own, wall = cpu_seconds_used(), _own_cpu_seconds() - own_before, time.perf_counter() - wall_before
    busy = None
    if machine_before is not None and machine_after is not None and wall > 0:
        busy = min(1.0, max(0.0, (machine_after - machine_before - own) / (wall * (os.cpu_count() or 1))))
    return Latency(statistics.median(times), busy)


def _own_cpu_seconds() -> float:
    times = os.times()
    return times.user + times.system


def latency_frames(width: int, height: int, count: int = 8, seed: int = 4242) -> list[NDArray[np.uint8]]:
    """Rendered frames of a given size with a typical handful of dice."""
    rng = np.random.default_rng(seed)
    return [render(random_scene(rng, width, height, dice=int(rng.integers(4, 9))))[0] for _ in range(count)]
