"""A training run's checkpoint: what lets ``scorekeeper train --checkpoint DIR`` stop at the end of a
sitting and go on where it stopped in the next, on the same recipe and the same data.

The checkpoint names the recipe (the training settings that decide the models) and the data (a
fingerprint of the photos and labels trained on); a run that asks for another recipe or finds
other data is refused, saying which, rather than mixing two trainings in one model. The weights
and optimiser states themselves are torch's (``training/train.py`` writes and reads them); this
module holds what needs no torch: the recipe, the fingerprint, the sitting's clock and the checks.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from scorekeeper.errors import ScorekeeperError
from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.vision.corrections import INDEX

CHECKPOINT_FILE = "checkpoint.pt"
"""The checkpoint's file in its folder."""
FORMAT = 1
"""The checkpoint format this program writes and reads."""
MAX_CHECKPOINT_BYTES = 64 << 20
"""The largest checkpoint file read: the recipe's is under 4 MB."""
SAVE_EVERY = 500
"""Optimiser steps between checkpoints within a sitting (about a minute and a half of the recipe on 2 cores)."""
RUN_ONLY = frozenset({"threads", "workers", "prep_workers"})
"""Training settings that change how fast a run goes, not the batches it draws: a sitting may change them."""
STAGES = ("finder", "reader")
"""The trained stages, in order."""


class CheckpointError(ScorekeeperError):
    """A checkpoint that cannot be gone on from: another recipe, other data, a newer format, damage."""


@dataclass(frozen=True)
class Place:
    """Where a training run stands: a stage and the optimiser steps done in it."""

    stage: str
    """``finder`` or ``reader`` (``STAGES``)."""
    step: int
    """Steps of that stage done (0 to its step count)."""

    def in_words(self, steps: Mapping[str, int]) -> str:
        """The place as a person reads it, e.g. ``finder step 1,500 of 35,000``.

        >>> Place("finder", 1500).in_words({"finder": 35000, "reader": 44000})
        'finder step 1,500 of 35,000'
        """
        return f"{self.stage} step {self.step:,} of {steps[self.stage]:,}"


def recipe_of(config: Mapping[str, object]) -> dict[str, object]:
    """The settings of a training configuration (``asdict(TrainConfig)``) that decide its models.

    >>> recipe_of({"seed": 1, "threads": 2, "workers": 4, "prep_workers": 0})
    {'seed': 1}
    """
    return {key: _plain(value) for key, value in config.items() if key not in RUN_ONLY}


def _plain(value: object) -> object:
    """``value`` as the checkpoint keeps it: tuples as lists (as JSON and torch's loader give them back)."""
    return [_plain(v) for v in value] if isinstance(value, (tuple, list)) else value


def recipe_differences(saved: Mapping[str, object], asked: Mapping[str, object]) -> list[str]:
    """Each setting whose value differs between a checkpoint's recipe and the one asked for, in words.

    >>> recipe_differences({"seed": 1, "finder_steps": 35000}, {"seed": 1, "finder_steps": 400})
    ['finder_steps 35000 in the checkpoint, 400 asked']
    >>> recipe_differences({"seed": 1}, {"seed": 1, "squash": 1.33})
    ['squash not in the checkpoint, 1.33 asked']
    """
    out = []
    for key in sorted(set(saved) | set(asked)):
        if key not in saved:
            out.append(f"{key} not in the checkpoint, {asked[key]} asked")
        elif key not in asked:
            out.append(f"{key} {saved[key]} in the checkpoint, not known to this program")
        elif saved[key] != asked[key]:
            out.append(f"{key} {saved[key]} in the checkpoint, {asked[key]} asked")
    return out


def data_fingerprint(photos: Sequence[Sequence[LabelledImage]], corrections: Sequence[Path]) -> str:
    """A fingerprint of the training data: each photo's file name and size and its labels (the
    reviewed fixes applied), and each corrections folder's index, so a checkpoint is never gone on
    from with other photos, labels or corrections than it was trained on."""
    digest = hashlib.sha256()
    for items in photos:
        digest.update(b"folder\0")
        for item in items:
            digest.update(f"{item.path.name}\0{item.path.stat().st_size}\0".encode())
            digest.update(item.labels.boxes.astype("<f4").tobytes())
            digest.update(item.labels.values.astype("<i8").tobytes())
    for folder in corrections:
        digest.update(b"corrections\0")
        digest.update((Path(folder) / INDEX).read_bytes())
    return digest.hexdigest()[:16]


def check_resumable(path: Path, saved: Mapping[str, object], recipe: Mapping[str, object], data: str) -> Place:
    """Where the checkpoint read from ``path`` (its torch-free fields ``saved``) lets a run with
    ``recipe`` on data of fingerprint ``data`` go on from; raises :class:`CheckpointError` saying
    why it cannot (another format, recipe or data, or fields that make no sense)."""
    fmt = saved.get("format")
    if fmt != FORMAT:
        newer = isinstance(fmt, int) and fmt > FORMAT
        raise CheckpointError(
            f"{path} is a checkpoint of format {fmt!r}; this scorekeeper reads format {FORMAT}"
            + (": update scorekeeper to go on from it" if newer else ": start afresh with another --checkpoint folder")
        )
    saved_recipe = saved.get("recipe")
    if not isinstance(saved_recipe, Mapping):
        raise CheckpointError(f"{path} holds no recipe: it is damaged; start afresh with another --checkpoint folder")
    differences = recipe_differences(saved_recipe, recipe)
    if differences:
        raise CheckpointError(
            f"{path} was trained on another recipe ({'; '.join(differences)}): run with the checkpoint's "
            "settings to go on, or start afresh with another --checkpoint folder"
        )
    if saved.get("data") != data:
        raise CheckpointError(
            f"{path} was trained on other photos, labels or corrections (fingerprint {saved.get('data')!r}, "
            f"these give {data!r}): give the same folders to go on, or start afresh with another --checkpoint folder"
        )
    stage, step = saved.get("stage"), saved.get("step")
    steps = {name: recipe.get(f"{name}_steps") for name in STAGES}
    if stage not in STAGES or not isinstance(step, int) or not isinstance(steps[str(stage)], int) or not 0 <= step <= int(str(steps[str(stage)])):
        raise CheckpointError(f"{path} stands at {stage!r} step {step!r}, which this recipe has not: it is damaged; start afresh with another --checkpoint folder")
    return Place(str(stage), step)


class Sitting:
    """The clock of one sitting: training stops at the first checkpoint after ``minutes`` (never
    when ``minutes`` is None)."""

    def __init__(self, minutes: float | None) -> None:
        self.minutes = minutes
        self._start = time.monotonic()

    def over(self, now: float | None = None) -> bool:
        """Whether the sitting's time is spent.

        >>> Sitting(None).over(), Sitting(0.0).over()
        (False, True)
        """
        if self.minutes is None:
            return False
        return (time.monotonic() if now is None else now) - self._start >= self.minutes * 60
