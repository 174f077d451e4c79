"""What one table has taught the reader, kept across games: the crops of the dice the players
confirmed or corrected there with their values, and the latest confirmed rolls as the reader found
them (for the safety rule). Saved beside the table's calibration profile as one ``.npz`` file,
written whole; bounded (``MAX_DICE`` crops, the oldest dropped first; ``JUDGED_ROLLS`` rolls).

``TableMemory.learn`` turns a confirmed roll into examples; ``TableMemory.head`` fits the table's
head and says whether the safety rule lets the reader use it.
"""

from __future__ import annotations

import io
import os
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.safe_npz import read_npz
from scorekeeper.safe_output import write_atomically
from scorekeeper.vision.processing import CROP, VIEWS, Finds
from scorekeeper.vision.reader import OnnxDiceReader
from scorekeeper.vision.table_head import MIN_JUDGED, ConfirmedRoll, Examples, TableHead, Verdict, judge

MAX_DICE = 600
"""Crops a table keeps at most (a hundred rolls of six); past it the oldest are dropped. About
2 MB on disk."""
JUDGED_ROLLS = 20
"""The latest confirmed rolls the safety rule holds out one at a time (older ones still teach)."""
SIZES = (0.0, 32.0, 48.0, 64.0, 96.0, 128.0, 160.0, 200.0, 256.0)
"""Die sizes (px in the frame; 0: the model's own scale) each of a table's first confirmed rolls
is read at, to measure the size its dice are found best at."""
SIZE_MARGIN = 2
"""Rolls another die size must read right beyond the model's own scale to be taken: one roll
more among a table's first few is chance."""
MEASURED_ROLLS = 5
"""Confirmed rolls the die size is measured on; later rolls teach the head only."""
FORMAT = 1
"""The table file format this code reads and writes."""
SUFFIX = ".table.npz"
"""A table file's name: its calibration profile's name with this in place of the suffix."""


class TableFileError(ValueError):
    """A table file that cannot be used: damaged, of another format, or not a table file."""


def counts_in_words(counts: dict[int, int]) -> str:
    """A table's crops per class, as the players read them.

    >>> counts_in_words({0: 2, 1: 3, 5: 9})
    'no die: 2, 1: 3, 5: 9'
    """
    return ", ".join(f"{'no die' if value == 0 else value}: {count}" for value, count in counts.items())


def table_file_for(profile: Path) -> Path:
    """Where the table learned at ``profile``'s table is kept.

    >>> table_file_for(Path("home/last-calibration.toml")).as_posix()
    'home/last-calibration.table.npz'
    """
    return profile.with_name(profile.stem + SUFFIX)


@dataclass(frozen=True, eq=False)
class Learned:
    """A refit's outcome: the head, whether the reader may use it, and why."""

    head: TableHead | None
    """The head fitted on every example (with the table's unsure line), or None with no example."""
    verdict: Verdict | None
    """The safety rule's verdict on it; None where it was not judged (fewer than ``MIN_JUDGED`` rolls)."""

    @property
    def in_use(self) -> TableHead | None:
        """The head the reader reads with, or None where the model reads alone."""
        if self.head is None or self.verdict is None or not self.verdict.use_head:
            return None
        return self.head


class TableMemory:
    """A table's examples and latest confirmed rolls. Not thread-safe: one owner (the learner)."""

    def __init__(self, reader: OnnxDiceReader) -> None:
        self.reader = reader
        self.crops = np.zeros((0, CROP, CROP, 3), np.uint8)
        """(n, CROP, CROP, 3) the crops taught, oldest first."""
        self.examples = _no_examples()
        """The crops as the pip reader sees them, with their classes and rolls."""
        self.rolls: list[ConfirmedRoll] = []
        """The latest confirmed rolls (at most ``JUDGED_ROLLS``)."""
        self.confirmed = 0
        """Rolls confirmed at this table so far (the next roll's id)."""
        self.size_votes = np.zeros(len(SIZES), np.int64)
        """For each of ``SIZES``, how many of the first confirmed rolls a read at that size got
        right with nothing asked."""
        self.sized_rolls = 0
        """Rolls measured so far (at most ``MEASURED_ROLLS``)."""
        self._head: TableHead | None = None

    def __len__(self) -> int:
        return len(self.examples)

    def counts(self) -> dict[int, int]:
        """How many crops of each class the table holds (0: not a die)."""
        return dict(sorted(Counter(int(v) for v in self.examples.values).items()))

    def learn(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], values: list[int], not_dice: NDArray[np.float32]) -> None:
        """A roll the players confirmed: the dice at ``boxes`` show ``values`` (as confirmed or
        corrected; dice added by a tap included) and the finds at ``not_dice`` were tapped away."""
        frame = np.asarray(frame, np.uint8)
        boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
        not_dice = np.asarray(not_dice, np.float32).reshape(-1, 4)
        if len(boxes) != len(values):
            raise ValueError(f"a confirmed roll needs one value per box, got {len(boxes)} boxes and {len(values)} values")
        if any(not 1 <= v <= 6 for v in values):
            raise ValueError(f"pip values must be 1-6, got {values}")
        crops = self.reader.crops(frame, np.concatenate([boxes, not_dice]))
        classes = np.array([*values, *([0] * len(not_dice))], np.int64)
        probs, embeddings = self.reader.read_crops(crops)
        number = self.confirmed
        self.confirmed += 1
        if self.sized_rolls < MEASURED_ROLLS:
            self.size_votes += size_votes(self.reader, frame, sorted(values))
            self.sized_rolls += 1
        self.rolls = [*self.rolls, ConfirmedRoll(self.reader.finds(frame), len(values), tuple(sorted(values)), number)][-JUDGED_ROLLS:]
        self.crops = np.concatenate([self.crops, crops])[-MAX_DICE:]
        taught = Examples(embeddings, probs, classes, np.full(len(classes), number, np.int64))
        joined = Examples.joined([self.examples, taught]) if len(self.examples) else taught
        self.examples = joined[np.arange(len(joined)) >= len(joined) - MAX_DICE]

    def die_size(self) -> float:
        """The die size the table's first confirmed rolls read best at (``best_die_size``)."""
        return best_die_size(self.size_votes)

    def head(self) -> Learned:
        """Fit the table's head on every crop kept and judge it on the latest rolls (the safety rule)."""
        head = self.examples.fit(start=self._head)
        if head is None:
            return Learned(None, None)
        self._head = head
        if len(self.rolls) < MIN_JUDGED:
            return Learned(head, None)
        verdict = judge(self.examples, self.rolls, head, self.reader.files.finder_threshold, self.reader.unsure_below)
        return Learned(replace(head, unsure_below=verdict.unsure_below), verdict)

    def save(self, path: Path) -> None:
        """Write the table file whole: crops, classes, the roll of each, and the judged rolls' finds."""
        rolls = self.rolls
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT),
            "model": np.array(self.reader.files.pips_sha256),
            "confirmed": np.array(self.confirmed),
            "size_votes": self.size_votes,
            "sized_rolls": np.array(self.sized_rolls),
            "crops": self.crops,
            "values": self.examples.values,
            "rolls": self.examples.rolls,
            "roll_ids": np.array([roll.id for roll in rolls], np.int64),
            "roll_dice": np.array([roll.dice for roll in rolls], np.int64),
            "roll_values": np.array([v for roll in rolls for v in roll.roll], np.int64),
            "roll_finds": np.array([len(roll.finds) for roll in rolls], np.int64),
            "finds_boxes": _joined([roll.finds.boxes for roll in rolls], 0, (0, 4)),
            "finds_scores": _joined([roll.finds.scores for roll in rolls], 0, (0,)),
            "finds_probs": _joined([roll.finds.probs for roll in rolls], 1, (VIEWS, 0, 7)),
            "finds_embeddings": _joined([roll.finds.embeddings for roll in rolls], 1, (VIEWS, 0, 0)),
        }
        buffer = io.BytesIO()
        np.savez_compressed(buffer, **arrays)
        write_atomically(path, buffer.getvalue())

    @classmethod
    def load(cls, path: Path, reader: OnnxDiceReader) -> TableMemory:
        """The table kept at ``path``. Rolls found with another model than ``reader``'s are not
        kept (their finds no longer say what this model finds); the crops still teach."""
        memory = cls(reader)
        if not os.path.lexists(path):
            raise TableFileError(f"table file {str(path)!r} does not exist")
        arrays = read_npz(path, "table file", TableFileError, advice="forget it to start the table afresh")
        try:
            version = int(arrays["format"])
            if version != FORMAT:
                raise TableFileError(f"table file {str(path)!r} is of format {version}; this scorekeeper reads format {FORMAT}")
            crops, values, rolls = np.asarray(arrays["crops"], np.uint8), np.asarray(arrays["values"], np.int64), np.asarray(arrays["rolls"], np.int64)
            if crops.shape[1:] != (CROP, CROP, 3) or not len(crops) == len(values) == len(rolls) or len(values) > MAX_DICE:
                raise TableFileError(
                    f"table file {str(path)!r} holds {len(crops)} crops for {len(values)} classes; "
                    f"a table file holds at most {MAX_DICE} crops of {CROP}x{CROP}, one class each"
                )
            if len(values) and (values.min() < 0 or values.max() > 6):
                raise TableFileError(f"table file {str(path)!r} holds classes outside 0-6 (0: not a die, 1-6 pips)")
            memory.confirmed = int(arrays["confirmed"])
            votes = np.asarray(arrays["size_votes"], np.int64).reshape(-1)
            if len(votes) != len(SIZES) or votes.min(initial=0) < 0:
                raise TableFileError(f"table file {str(path)!r} holds {len(votes)} die size votes for {len(SIZES)} sizes")
            memory.size_votes, memory.sized_rolls = votes, min(int(arrays["sized_rolls"]), MEASURED_ROLLS)
            if str(arrays["model"]) == reader.files.pips_sha256:
                memory.rolls = _rolls(arrays)
        except KeyError as exc:
            raise TableFileError(f"table file {str(path)!r} lacks {exc.args[0]!r}: it is not a table file of this scorekeeper") from None
        except TableFileError:
            raise
        except (ValueError, IndexError, TypeError) as exc:
            raise TableFileError(f"table file {str(path)!r} is damaged ({exc}); forget it to start the table afresh") from None
        if len(values):
            probs, embeddings = reader.read_crops(crops)
            memory.crops, memory.examples = crops, Examples(embeddings, probs, values, rolls)
        return memory


def best_die_size(votes: NDArray[np.int64]) -> float:
    """The die size that read the most confirmed rolls right (``size_votes`` added up): 0, the
    model's own scale, unless another size read at least ``SIZE_MARGIN`` more of them right; of
    the sizes tied best, the middle one.

    >>> best_die_size(np.array([0, 0, 0, 2, 2, 3, 2, 3, 2])), best_die_size(np.array([1, 1, 2, 2, 2, 1, 2, 2, 1]))
    (200.0, 0.0)
    """
    votes = np.asarray(votes, np.int64)
    if votes.max(initial=0) < votes[0] + SIZE_MARGIN:
        return 0.0
    best = np.flatnonzero(votes == votes.max())
    return float(SIZES[int(best[len(best) // 2])])


def size_votes(reader: OnnxDiceReader, frame: NDArray[np.uint8], roll: list[int]) -> NDArray[np.int64]:
    """For each of ``SIZES``, 1 where ``frame`` read at that die size, told the count, gives
    ``roll`` (sorted) with nothing asked, else 0."""
    votes = np.zeros(len(SIZES), np.int64)
    for i, size in enumerate(SIZES):
        found = reader.decide(reader.finds(frame, die_size=size), len(roll))
        votes[i] = int(found.roll() == roll and not found.unsure.any())
    return votes


def _no_examples() -> Examples:
    return Examples(np.zeros((0, VIEWS, 0), np.float32), np.zeros((0, VIEWS, 7), np.float32), np.zeros(0, np.int64), np.zeros(0, np.int64))


def _joined(parts: list[NDArray[np.float32]], axis: int, empty: tuple[int, ...]) -> NDArray[np.float32]:
    return np.concatenate(parts, axis) if parts else np.zeros(empty, np.float32)


def _rolls(arrays: dict[str, NDArray[np.generic]]) -> list[ConfirmedRoll]:
    """The judged rolls of a table file."""
    ids, dice, finds = (np.asarray(arrays[name], np.int64) for name in ("roll_ids", "roll_dice", "roll_finds"))
    if not len(ids) == len(dice) == len(finds) or len(ids) > JUDGED_ROLLS:
        raise ValueError(f"{len(ids)} rolls with {len(dice)} and {len(finds)} counts")
    values = np.asarray(arrays["roll_values"], np.int64)
    boxes = np.asarray(arrays["finds_boxes"], np.float32).reshape(-1, 4)
    scores = np.asarray(arrays["finds_scores"], np.float32).reshape(-1)
    probs = np.asarray(arrays["finds_probs"], np.float32).reshape(VIEWS, len(boxes), 7)
    embeddings = np.asarray(arrays["finds_embeddings"], np.float32)
    if embeddings.ndim != 3 or embeddings.shape[:2] != (VIEWS, len(boxes)):
        raise ValueError(f"embeddings of shape {embeddings.shape} for {len(boxes)} finds")
    if int(dice.sum()) != len(values) or int(finds.sum()) != len(boxes) or len(scores) != len(boxes):
        raise ValueError("the rolls' counts do not add up")
    rolls = []
    at_value = at_find = 0
    for number, n, m in zip(ids, dice, finds):
        part = slice(at_find, at_find + m)
        rolls.append(ConfirmedRoll(Finds(boxes[part], scores[part], probs[:, part], embeddings[:, part]), int(n), tuple(int(v) for v in values[at_value:at_value + n]), int(number)))
        at_value, at_find = at_value + n, at_find + m
    return rolls


def learned_reader(reader: OnnxDiceReader, profile: Path) -> str:
    """Set ``reader.learned`` from the table learned at ``profile`` (a calibration profile, or its
    table file), and ``reader.die_size`` from the size its confirmed rolls read best at; returns
    what it learned in words. A table the safety rule does not trust leaves the model reading
    alone, and says so."""
    path = profile if profile.name.endswith(SUFFIX) else table_file_for(profile)
    memory = TableMemory.load(path, reader)
    learned = memory.head()
    reader.learned = learned.in_use
    reader.die_size = memory.die_size()
    counts = counts_in_words(memory.counts())
    how = "reading with it" if reader.learned is not None else "the model reads alone (what it learned does not yet read its held-out rolls as well)"
    return f"{path}: {len(memory)} dice learned from {memory.confirmed} rolls ({counts or 'none'}); {how}"
