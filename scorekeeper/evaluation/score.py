"""How well a reader reads labelled images: dice found, values right, rolls exact.

>>> truth = Detections(np.array([[0, 0, 10, 10], [20, 0, 30, 10]]), np.array([1, 5]), np.ones(2))
>>> found = Detections(np.array([[1, 0, 10, 10], [50, 50, 60, 60]]), np.array([1, 2]), np.array([0.9, 0.3]))
>>> score = Score()
>>> score.add(truth, found)
>>> score.recall, score.precision, score.value_accuracy, score.roll_exact
(0.5, 0.5, 1.0, 0.0)
>>> score.right_unasked_share, score.asked_share, score.wrong_unasked_share
(0.0, 1.0, 0.0)
>>> score.add(truth, Detections(found.boxes[:1], found.values[:1], np.ones(1)))
>>> score.wrong_unasked_share, score.wrong_none_unsure_share
(0.0, 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import box_iou, cut_by_edge

ASKED_WHY = ("count", "under_line", "cut_by_edge", "head_held_back")
"""Why an image is asked about: the finder found another number of dice than were thrown; a die
read under the unsure line; a die cut by the frame's edge; a die the table's head held back
(the head read it surer than the model alone would have let it)."""
MATCH_IOU = 0.5
"""A found die counts as a labelled die when their boxes overlap at least this much (IoU)."""


def match(truth: Detections, found: Detections, iou: float = MATCH_IOU) -> list[tuple[int, int]]:
    """Pairs (truth index, found index), greedily by overlap, each die at most once."""
    if not len(truth) or not len(found):
        return []
    overlaps = box_iou(truth.boxes, found.boxes)
    pairs: list[tuple[int, int]] = []
    for flat in np.argsort(-overlaps, axis=None, kind="stable"):
        t, f = divmod(int(flat), overlaps.shape[1])
        if overlaps[t, f] < iou:
            break
        if any(t == a or f == b for a, b in pairs):
            continue
        pairs.append((t, f))
    return pairs


@dataclass
class Score:
    """Running counts over images; the rates are properties."""

    images: int = 0
    """Images seen."""
    labelled: int = 0
    """Labelled dice."""
    found: int = 0
    """Dice the reader reported."""
    matched: int = 0
    """Reported dice that match a labelled one."""
    right: int = 0
    """Matched dice with the right value."""
    sure: int = 0
    """Matched dice not marked unsure."""
    sure_right: int = 0
    """Matched dice not marked unsure with the right value."""
    exact: int = 0
    """Images whose sorted values equal the labels'."""
    right_unasked: int = 0
    """Images read exactly with nothing that makes the window ask: no die unsure."""
    asked: int = 0
    """Images on which the window asks the players: a die unsure, or another number of dice found
    than labelled (the game knows how many were thrown)."""
    unasked: int = 0
    """Images read wrong with nothing that makes the window ask the players: as many dice found as
    labelled (the game knows how many were thrown, and says so of a missed or an extra die) and none of
    them unsure. The only misreads that would be scored without a tap."""
    wrong_none_unsure: int = 0
    """Images read wrong with no die unsure, however many dice were found: the misreads scored
    without a tap where nothing checks the count (a reader used without the game)."""
    confusion: NDArray[np.int64] = field(default_factory=lambda: np.zeros((7, 7), np.int64))
    """Rows: labelled value 1-6 (row 0: no die); columns: read value (column 0: missed)."""
    failures: list[str] = field(default_factory=list)
    """One line per image that was not read exactly."""
    why: dict[str, int] = field(default_factory=lambda: dict.fromkeys(ASKED_WHY, 0))
    """Of the images asked about, how many for each of ``ASKED_WHY`` (an image may be asked about
    for more than one)."""

    def add(
        self, truth: Detections, found: Detections, name: str = "", size: tuple[int, int] | None = None, held: NDArray[np.bool_] | None = None
    ) -> None:
        """Score one image's reading; given the frame's ``size`` (width, height), dice cut by its
        edge count as unsure, as the game asks about them (``cut_by_edge``). ``held`` (one per
        found die) marks the dice a table's head held back (``table_head.held_back``)."""
        pairs = match(truth, found)
        self.images += 1
        self.labelled += len(truth)
        self.found += len(found)
        self.matched += len(pairs)
        unsure = (found.unsure | cut_by_edge(found.boxes, *size)) if size is not None else found.unsure
        for t, f in pairs:
            ok = truth.values[t] == found.values[f]
            self.right += int(ok)
            self.confusion[truth.values[t], found.values[f]] += 1
            if not unsure[f]:
                self.sure += 1
                self.sure_right += int(ok)
        for t in set(range(len(truth))) - {t for t, _ in pairs}:
            self.confusion[truth.values[t], 0] += 1
        for f in set(range(len(found))) - {f for _, f in pairs}:
            self.confusion[0, found.values[f]] += 1
        asks = ([f"{int(unsure.sum())} unsure"] if unsure.any() else []) + ([f"{len(found)} of {len(truth)} dice found"] if len(found) != len(truth) else [])
        self.asked += int(bool(asks))
        if asks:
            held_back = found.unsure & held if held is not None else np.zeros(len(found), bool)
            cut = cut_by_edge(found.boxes, *size) if size is not None else np.zeros(len(found), bool)
            reasons = (len(found) != len(truth), bool((found.unsure & ~held_back).any()), bool(cut.any()), bool(held_back.any()))
            for reason, applies in zip(ASKED_WHY, reasons):
                self.why[reason] += int(applies)
        if truth.roll() == found.roll():
            self.exact += 1
            self.right_unasked += int(not asks)
            return
        self.unasked += int(not asks)
        self.wrong_none_unsure += int(not unsure.any())
        if name:
            self.failures.append(f"{name}: labelled {truth.roll()}, read {found.roll()} ({'the window asks: ' + ', '.join(asks) if asks else 'unasked'})")

    @property
    def recall(self) -> float:
        """Share of labelled dice found."""
        return self.matched / self.labelled if self.labelled else 1.0

    @property
    def precision(self) -> float:
        """Share of reported dice that are labelled dice."""
        return self.matched / self.found if self.found else 1.0

    @property
    def value_accuracy(self) -> float:
        """Share of found dice read with the right value."""
        return self.right / self.matched if self.matched else 1.0

    @property
    def roll_exact(self) -> float:
        """Share of images whose sorted values equal the labels' (what scoring needs)."""
        return self.exact / self.images if self.images else 1.0

    @property
    def right_unasked_share(self) -> float:
        """Share of images read exactly with nothing asked: the rolls a game scores without a tap."""
        return self.right_unasked / self.images if self.images else 1.0

    @property
    def asked_share(self) -> float:
        """Share of images on which the window asks for a tap."""
        return self.asked / self.images if self.images else 0.0

    @property
    def wrong_unasked_share(self) -> float:
        """Share of images read wrong with nothing asked: misreads a game would score."""
        return self.unasked / self.images if self.images else 0.0

    @property
    def wrong_none_unsure_share(self) -> float:
        """Share of images read wrong with no die unsure, miscounts included."""
        return self.wrong_none_unsure / self.images if self.images else 0.0

    @property
    def unsure_share(self) -> float:
        """Share of found dice marked unsure."""
        return 1 - self.sure / self.matched if self.matched else 0.0

    @property
    def sure_accuracy(self) -> float:
        """Share of found dice not marked unsure that are read right."""
        return self.sure_right / self.sure if self.sure else 1.0

    def to_json(self) -> dict[str, Any]:
        """The metrics as a JSON-able dict."""
        return {
            "images": self.images,
            "dice": self.labelled,
            "recall": round(self.recall, 4),
            "precision": round(self.precision, 4),
            "value_accuracy": round(self.value_accuracy, 4),
            "roll_exact": round(self.roll_exact, 4),
            "sure_accuracy": round(self.sure_accuracy, 4),
            "unsure_share": round(self.unsure_share, 4),
            "wrong_unasked": self.unasked,
            "right_unasked_share": round(self.right_unasked_share, 4),
            "asked_share": round(self.asked_share, 4),
            "wrong_unasked_share": round(self.wrong_unasked_share, 4),
            "wrong_none_unsure_share": round(self.wrong_none_unsure_share, 4),
            "asked_why": dict(self.why),
            "confusion": self.confusion.tolist(),
        }

    def report(self) -> str:
        """The metrics and the confusion of values as text."""
        lines = [
            f"images {self.images}, labelled dice {self.labelled}, found {self.found}",
            f"recall          {self.recall:7.2%}",
            f"precision       {self.precision:7.2%}",
            f"value accuracy  {self.value_accuracy:7.2%}",
            f"roll exact      {self.roll_exact:7.2%}",
            f"right when sure {self.sure_accuracy:7.2%}  (unsure {self.unsure_share:.2%} of found dice)",
            f"wrong, unasked  {self.unasked} of {self.images} rolls (as many dice found as labelled, none unsure)",
            f"at the table    right, nothing asked {self.right_unasked_share:.1%} · asked {self.asked_share:.1%} · wrong, nothing asked {self.wrong_unasked_share:.1%}",
            f"count unchecked wrong with no die unsure {self.wrong_none_unsure_share:.1%} (a miscount with every die sure counted as unasked)",
            "confusion (rows: labelled, columns: read; '-' = missed / not a labelled die):",
            "       -    1    2    3    4    5    6",
        ]
        for row in range(7):
            label = "-" if row == 0 else str(row)
            lines.append(f"  {label} " + "".join(f"{int(v):5d}" for v in self.confusion[row]))
        return "\n".join(lines)
