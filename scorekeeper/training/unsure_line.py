"""Choosing the reader's unsure line: the step of training that writes ``unsure_line.json`` into a
model folder, which the reader reads its line from (``vision/reader.py``).

The exported models read rendered settled rolls that neither training nor the tests use; at each
candidate line, the dice a reader holding that line reads are matched to the labels, and the line
is the lowest at which at least 99.9% of the sure dice are right (the strictest candidate where
none is, and the file says so). The file keeps the line, the
rule, the rolls it was chosen on, the models' SHA-256 and each candidate's counts. Runs from the
ONNX files alone (onnxruntime, no torch): ``scorekeeper train --choose-unsure-line``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.samples import sample_scenes
from scorekeeper.evaluation.score import match
from scorekeeper.safe_output import write_atomically
from scorekeeper.synthetic.render import render_with_visibility
from scorekeeper.training.manifest import read_manifest
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import read_finds
from scorekeeper.vision.reader import UNSURE_LINE_FILE, ModelError, OnnxDiceReader, open_reader, unsure_line_record

CHOICE_SEED = 31_415
"""Seed of the rendered rolls the line is chosen on (not the samples', training's or the model card's)."""
SCENES = 1600
"""Rendered rolls the line is chosen on: about 7,000 matched dice, so one wrong die moves the share
right by 0.015 points, fine enough to tell 99.9% from 100%."""
QUICK_SCENES = 20
"""Rendered rolls of a smoke run (``--quick``): a line to try the step with, not one to use."""
CANDIDATES = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
"""The lines tried, lowest first."""
TARGET = 0.999
"""The share of sure dice that must be read right at the chosen line."""
RULE = "the lowest candidate line at which at least the target share of the sure dice are read right (the strictest candidate where none is)"
"""The rule, in words, as the file records it."""
DATA = "rendered settled rolls (scorekeeper.evaluation.samples.sample_scenes), read at each candidate line"
"""The rolls the line is chosen on, in words, as the file records it."""


@dataclass(frozen=True)
class LineRow:
    """What one candidate line does on the rolls it is tried on."""

    line: float
    """The candidate line: dice read with less confidence are unsure."""
    sure: int
    """Matched dice read at least this sure."""
    wrong_and_sure: int
    """Of them, read with another value than labelled."""
    unsure: int
    """Matched dice read less sure: the window would ask about them."""

    @property
    def right_when_sure(self) -> float:
        """Share of the sure dice read right (1 where none is sure)."""
        return 1 - self.wrong_and_sure / self.sure if self.sure else 1.0


@dataclass(frozen=True)
class UnsureLine:
    """A model folder's chosen unsure line, with how and on what it was chosen."""

    line: float
    """Dice read with less confidence are reported unsure."""
    met_target: bool
    """Whether at least ``target`` of the sure dice are right at ``line``."""
    target: float
    """The share of sure dice that must be right."""
    seed: int
    """Seed of the rendered rolls it was chosen on."""
    scenes: int
    """How many rendered rolls it was chosen on."""
    models: dict[str, str]
    """SHA-256 of the finder and the pip reader it was chosen for."""
    rows: tuple[LineRow, ...]
    """Every candidate's counts, lowest line first."""

    def to_json(self) -> dict[str, Any]:
        """The file's contents."""
        return {
            "line": self.line,
            "rule": RULE,
            "target": self.target,
            "met_target": self.met_target,
            "data": {"rolls": DATA, "seed": self.seed, "scenes": self.scenes},
            "models": dict(self.models),
            "rows": [asdict(row) for row in self.rows],
        }

    @property
    def chosen_row(self) -> LineRow:
        """The counts at the chosen line."""
        return next(row for row in self.rows if row.line == self.line)


def count_at(lines: Iterable[float], readings: Iterable[tuple[Detections, Callable[[float], Detections]]]) -> list[LineRow]:
    """Per candidate line, the counts over ``readings``: each the labels of one frame and the dice
    read in it at a given line."""
    lines = tuple(lines)
    counts = np.zeros((len(lines), 3), np.int64)
    for labels, read_at in readings:
        for i, line in enumerate(lines):
            found = read_at(line)
            pairs = match(labels, found)
            sure = [f for _, f in pairs if not found.unsure[f]]
            counts[i] += (len(sure), sum(int(found.values[f] != labels.values[t]) for t, f in pairs if not found.unsure[f]), len(pairs) - len(sure))
    return [LineRow(line, int(sure), int(wrong), int(unsure)) for line, (sure, wrong, unsure) in zip(lines, counts)]


def lowest_line(rows: Iterable[LineRow], target: float = TARGET) -> LineRow | None:
    """The lowest candidate at which at least ``target`` of the sure dice are right (one with no
    sure die does not count)."""
    return next((row for row in rows if row.sure and row.right_when_sure >= target), None)


def choose(rows: list[LineRow], seed: int, scenes: int, models: dict[str, str], target: float = TARGET) -> UnsureLine:
    """The line the rule picks among ``rows``: the lowest meeting ``target``, else the strictest."""
    met = lowest_line(rows, target)
    return UnsureLine((met or rows[-1]).line, met is not None, target, seed, scenes, models, tuple(rows))


def readings(reader: OnnxDiceReader, labelled: Iterable[tuple[NDArray[np.uint8], Detections]]) -> Iterator[tuple[Detections, Callable[[float], Detections]]]:
    """Each labelled frame's labels and its dice as the reader decides them, with nothing learned,
    at a given line (the finder and the pip reader run once per frame; frames are made one at a
    time, as 1,600 rendered frames held at once would take gigabytes)."""
    for frame, labels in labelled:
        finds = reader.finds(frame)
        yield labels, partial(read_finds, finds.boxes, finds.scores, finds.mean_probs, reader.files.finder_threshold)


def rendered_rolls(scenes: int, seed: int = CHOICE_SEED) -> Iterator[tuple[NDArray[np.uint8], Detections]]:
    """The rendered settled rolls the line is chosen on, with their labels (each framing the whole
    die, the training recipe's box convention), one at a time."""
    for scene in sample_scenes(scenes, seed):
        frame, labels, _, _ = render_with_visibility(scene, whole_die=True)
        yield frame, labels


def choose_unsure_line(model_dir: Path, scenes: int = SCENES, threads: int = 2, report: Callable[[str], None] | None = None) -> UnsureLine:
    """Choose the line of the models in ``model_dir`` on ``scenes`` rendered rolls and write it
    there as ``unsure_line.json``, replacing any there."""
    reader = open_reader(model_dir, threads, unsure_below=1.0)  # each candidate line is applied in ``readings``
    manifest = read_manifest(model_dir)
    rows = count_at(CANDIDATES, readings(reader, rendered_rolls(scenes)))
    chosen = choose(rows, CHOICE_SEED, scenes, {key: str(manifest[key]["sha256"]) for key in ("finder", "pips")})
    write_atomically(model_dir / UNSURE_LINE_FILE, json.dumps(chosen.to_json(), indent=1) + "\n")
    if report is not None:
        row = chosen.chosen_row
        met = "" if chosen.met_target else f" (no candidate has {TARGET:.1%} right: the strictest taken)"
        report(f"unsure line {chosen.line}{met}: {row.right_when_sure:.2%} of {row.sure:,} sure dice right, {row.unsure:,} unsure, on {scenes:,} rendered rolls")
    return chosen


def read_unsure_line(model_dir: Path) -> UnsureLine:
    """The model folder's chosen line with its counts, from the record the reader reads its line from
    (``unsure_line_record``; raises :class:`ModelError` saying why not)."""
    line, record = unsure_line_record(model_dir)
    try:
        rows = tuple(LineRow(float(row["line"]), int(row["sure"]), int(row["wrong_and_sure"]), int(row["unsure"])) for row in record["rows"])
        return UnsureLine(
            line, bool(record["met_target"]), float(record["target"]), int(record["data"]["seed"]),
            int(record["data"]["scenes"]), {key: str(record["models"][key]) for key in ("finder", "pips")}, rows,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"damaged unsure line {model_dir / UNSURE_LINE_FILE} ({exc!r})") from None
