"""Measuring a table that learns, the way players meet it: in seeded orders of a table's photos,
the first K teach the table (as confirmed rolls: every die read or missed with its labelled value,
every find read as a die where none lies as "not a die"), and the rest are read with what it
learned and scored. ``K = 0`` is the cold read.

Each photo is read once (``OnnxDiceReader.finds``); the orders then only refit and decide.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.evaluation.dataset import LabelledImage
from scorekeeper.evaluation.score import ASKED_WHY, Score
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import Finds, box_iou
from scorekeeper.vision.reader import OnnxDiceReader
from scorekeeper.vision.table_head import ConfirmedRoll, Examples, TableHead, held_back, judge
from scorekeeper.vision.table_memory import MEASURED_ROLLS, SIZES, best_die_size, size_votes

TEACH_IOU = 0.3
"""A find teaches a labelled die's value where their boxes overlap this much: the labels of some
sources frame the whole die where the finder frames its top face."""


@contextmanager
def model_alone(reader: OnnxDiceReader) -> Iterator[None]:
    """Within it, ``reader`` reads with the model alone (its learned head set aside, then given back)."""
    learned, reader.learned = reader.learned, None
    try:
        yield
    finally:
        reader.learned = learned


def find_indices(finds: Finds, boxes: NDArray[np.float32]) -> NDArray[np.int64]:
    """The index among ``finds`` of each of ``boxes``, which the decision step took from them."""
    return np.array([int(np.flatnonzero((finds.boxes == box).all(1))[0]) for box in boxes], np.int64)


@dataclass(frozen=True, eq=False)
class Photo:
    """One labelled photo read once: its finds and what it teaches when confirmed."""

    name: str
    """The image file's name."""
    size: tuple[int, int]
    """The photo's width and height, px."""
    labels: Detections
    """The labelled dice."""
    confirmed: ConfirmedRoll
    """The photo as a roll the players confirmed."""
    taught: Examples
    """What it teaches: the finds matched to a labelled die, the cold read's dice that match none
    as "not a die", and labelled dice no find matches as dice added by a tap."""


def read_photo(reader: OnnxDiceReader, item: LabelledImage, counted: bool, number: int) -> Photo:
    """``item`` read once, with what it would teach once the players confirmed it as roll ``number``."""
    frame = item.load()
    finds = reader.finds(frame)
    with model_alone(reader):
        cold = reader.decide(finds, len(item.labels) if counted else None)
    labels = item.labels
    overlaps = box_iou(labels.boxes, finds.boxes) if len(labels) and len(finds) else np.zeros((len(labels), len(finds)), np.float32)
    matched_find = np.full(len(labels), -1)
    used = np.zeros(len(finds), bool)
    for flat in np.argsort(-overlaps, axis=None, kind="stable"):
        t, f = divmod(int(flat), overlaps.shape[1])
        if overlaps[t, f] < TEACH_IOU:
            break
        if matched_find[t] < 0 and not used[f]:
            matched_find[t], used[f] = f, True
    shown = find_indices(finds, cold.boxes)
    extra = np.array([f for f in shown if not used[f]], np.int64)
    missed = np.flatnonzero(matched_find < 0)
    found = np.concatenate([matched_find[matched_find >= 0], extra]).astype(np.int64)
    embeddings = finds.embeddings[:, found].transpose(1, 0, 2)
    probs = finds.probs[:, found].transpose(1, 0, 2)
    values = np.concatenate([labels.values[matched_find >= 0], np.zeros(len(extra), np.int64)])
    if len(missed):
        added = reader.finds_at(frame, labels.boxes[missed])
        embeddings = np.concatenate([embeddings, added.embeddings.transpose(1, 0, 2)])
        probs = np.concatenate([probs, added.probs.transpose(1, 0, 2)])
        values = np.concatenate([values, labels.values[missed]])
    confirmed = ConfirmedRoll(finds, len(labels), tuple(labels.roll()), number)
    taught = Examples(embeddings, probs, values.astype(np.int64), np.full(len(values), number, np.int64))
    return Photo(item.path.name, (frame.shape[1], frame.shape[0]), labels, confirmed, taught)


@dataclass
class LearnedScore:
    """Outcomes after teaching K photos, over seeded orders."""

    k: int
    """Photos taught before scoring."""
    seeds: list[Score] = field(default_factory=list)
    """One score per order (the photos after the first K)."""
    head_used: int = 0
    """Orders in which the safety rule let the learned head read."""
    fit_seconds: list[float] = field(default_factory=list)
    """Seconds each order's fit and safety check took."""

    def mean(self, name: str) -> float:
        """The mean over orders of one of ``Score``'s shares."""
        return float(np.mean([getattr(score, name) for score in self.seeds])) if self.seeds else 0.0

    def asked_why(self) -> dict[str, int]:
        """Of the photos asked about in every order together, how many for each reason (``ASKED_WHY``)."""
        return {reason: sum(score.why[reason] for score in self.seeds) for reason in ASKED_WHY}

    def to_json(self) -> dict[str, Any]:
        """The means and each order's shares, with why photos were asked about."""
        shares = ("right_unasked_share", "asked_share", "wrong_unasked_share")
        return {
            "learn": self.k,
            **{name: round(self.mean(name), 4) for name in shares},
            "head_used": self.head_used,
            "orders": len(self.seeds),
            "asked": sum(score.asked for score in self.seeds),
            "asked_why": self.asked_why(),
            "fit_seconds_median": round(float(np.median(self.fit_seconds)), 4) if self.fit_seconds else None,
            "seeds": [
                {name: round(getattr(score, name), 4) for name in shares} | {"photos": score.images, "asked": score.asked, "asked_why": dict(score.why)}
                for score in self.seeds
            ],
        }


def taught_head(photos: Sequence[Photo], threshold: float, unsure_below: float) -> TableHead | None:
    """The head the safety rule lets a table use after confirming ``photos`` (one roll each), or None."""
    if not photos:
        return None
    examples = Examples.joined([photo.taught for photo in photos])
    head = examples.fit()
    if head is None:
        return None
    verdict = judge(examples, [photo.confirmed for photo in photos], head, threshold, unsure_below)
    return replace(head, unsure_below=verdict.unsure_below) if verdict.use_head else None


class TablePhotos:
    """One table's labelled photos, each read once per die size the table is told (``read``)."""

    def __init__(self, reader: OnnxDiceReader, items: Sequence[LabelledImage], counted: bool) -> None:
        self.reader = reader
        self.items = list(items)
        self.counted = counted
        self._read: dict[tuple[int, float], Photo] = {}
        self._votes: dict[int, NDArray[np.int64]] = {}

    def __len__(self) -> int:
        return len(self.items)

    def die_size(self, indices: Sequence[int]) -> float:
        """The table's die size as its first confirmed rolls (of these photos, at most
        ``MEASURED_ROLLS``) measure it, as ``TableMemory`` does: each read at every one of ``SIZES``
        by the model alone (a table has no head before those rolls are confirmed)."""
        votes = np.zeros(len(SIZES), np.int64)
        with model_alone(self.reader):
            for i in list(indices)[:MEASURED_ROLLS]:
                if i not in self._votes:
                    item = self.items[i]
                    self._votes[i] = size_votes(self.reader, item.load(), item.labels.roll())
                votes += self._votes[i]
        return best_die_size(votes)

    def read(self, index: int, die_size: float) -> Photo:
        """Photo ``index`` read by a reader told the table's die size."""
        key = (index, die_size)
        if key not in self._read:
            before = self.reader.die_size
            self.reader.die_size = die_size
            try:
                self._read[key] = read_photo(self.reader, self.items[index], self.counted, index)
            finally:
                self.reader.die_size = before
        return self._read[key]


def learn_and_score(reader: OnnxDiceReader, table: TablePhotos, k: int, seeds: int, learn: bool = True) -> LearnedScore:
    """``seeds`` orders of a table's photos: the first ``k`` teach it (the table's die size, and
    with ``learn`` the head), the rest are scored."""
    result = LearnedScore(k)
    learned = reader.learned
    try:
        for seed in range(seeds):
            order = np.random.default_rng(seed).permutation(len(table))
            die_size = table.die_size([int(i) for i in order[:k]])
            photos = {int(i): table.read(int(i), die_size) for i in order}
            taught = [photos[int(i)] for i in order[:k]]
            start = time.perf_counter()
            reader.learned = taught_head(taught, reader.files.finder_threshold, reader.unsure_below) if k and learn else None
            result.fit_seconds.append(time.perf_counter() - start)
            result.head_used += int(reader.learned is not None)
            score = Score()
            for i in order[k:]:
                photo = photos[int(i)]
                finds = photo.confirmed.finds
                found = reader.decide(finds, len(photo.labels) if table.counted else None)
                score.add(photo.labels, found, photo.name, size=photo.size, held=held_dice(reader, finds, found))
            result.seeds.append(score)
    finally:
        reader.learned = learned
    return result


def held_dice(reader: OnnxDiceReader, finds: Finds, found: Detections) -> NDArray[np.bool_]:
    """Which of the dice ``found`` among ``finds`` the reader's learned head held back (``held_back``);
    none where the model reads alone."""
    if reader.learned is None or not len(found):
        return np.zeros(len(found), bool)
    return held_back(finds.probs[:, find_indices(finds, found.boxes)], found.values, reader.unsure_below)


def tables_of(items: Iterable[LabelledImage], group_of: Mapping[str, str]) -> dict[str, list[LabelledImage]]:
    """The photos per table: per group where the split file names groups, else all as one."""
    tables: dict[str, list[LabelledImage]] = {}
    for item in items:
        tables.setdefault(group_of.get(item.path.stem, ""), []).append(item)
    return tables
