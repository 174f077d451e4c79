"""What a table teaches the reader: a small classifier over the pip reader's embedding, fitted on
the dice the players confirmed or corrected at this table, whose log-probabilities are added to
the model's own.

Pure numpy. The head is multinomial logistic regression (L2 penalty, ``C``) over each crop view's
embedding, L2-normalised and standardised; it speaks only of the classes it has seen (a value not
yet seen at the table keeps the model's probability). ``judge`` decides whether it may be used:
on the confirmed rolls held out one at a time it must read more right with nothing asked than the
model alone, none more wrong and none more asked. A die the model alone is unsure of is made sure
by the head only where every view of the model agrees with the head's value (``held_back``).

>>> rng = np.random.default_rng(0)
>>> embeddings = rng.normal(0, 1, (40, 2, 8)).astype(np.float32)
>>> values = np.arange(40) % 2 + 1
>>> embeddings[:, :, 0] += 3 * values[:, None]
>>> head = fit_head(embeddings, values)
>>> own = head.log_probs(embeddings).mean(1)
>>> head.classes.tolist(), (own[:, 1:3].argmax(1) + 1).tolist() == values.tolist()
([1, 2], True)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scorekeeper.vision.detections import Detections
from scorekeeper.vision.processing import Finds, read_finds

CLASSES = 7
"""The pip reader's classes: 0 not a die, 1-6 pips."""
C = 0.1
"""Inverse strength of the head's L2 penalty (scikit-learn's ``C``: the sum of the samples' losses
weighs ``C`` against half the squared weights)."""
STEPS = 300
"""Accelerated gradient steps of a fit; a refit from the last weights takes ``WARM_STEPS``."""
WARM_STEPS = 30
"""Steps of a fit that starts from a near solution: a refit, and each held-out roll in ``judge``."""


@dataclass(frozen=True, eq=False)
class TableHead:
    """A fitted head: standardisation, weights and the classes it has seen."""

    mean: NDArray[np.float32]
    """(d,) mean of the normalised training embeddings."""
    scale: NDArray[np.float32]
    """(d,) their standard deviation (at least a small floor)."""
    weights: NDArray[np.float32]
    """(d, k) one column per seen class."""
    bias: NDArray[np.float32]
    """(k,) one per seen class."""
    classes: NDArray[np.int64]
    """(k,) the seen classes, 0 (not a die) to 6, ascending."""
    bound: float = 0.0
    """The largest eigenvalue of the fit's features' Gram matrix (a little over): a fit on a subset
    of the same crops may take it as its own."""
    unsure_below: float = 0.0
    """The table's own unsure line: dice read with this head and less confidence are unsure
    (the reader's line still holds where it is higher). Set from the held-out rolls (``judge``)."""

    def features(self, embeddings: NDArray[np.float32]) -> NDArray[np.float32]:
        """(..., d) embeddings normalised and standardised as in the fit."""
        return _standardised(_normalised(embeddings), self.mean, self.scale)

    def log_probs(self, embeddings: NDArray[np.float32]) -> NDArray[np.float32]:
        """(..., 7) the head's log-probability of each class: its own for the seen ones, 0 for the
        rest (so adding them leaves the model's probability of an unseen class as it was)."""
        logits = self.features(embeddings) @ self.weights + self.bias
        logits = logits - logits.max(-1, keepdims=True)
        own = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
        out = np.zeros((*own.shape[:-1], CLASSES), np.float32)
        out[..., self.classes] = own
        return out

    def adjust(self, probs: NDArray[np.float32], embeddings: NDArray[np.float32]) -> NDArray[np.float32]:
        """(n, 7) class probabilities of ``n`` crops from the model's per-view probabilities
        (views, n, 7) and the embeddings (views, n, d): per view ``combined``, then averaged over
        the views as the model's own are."""
        seen = np.zeros(CLASSES, bool)
        seen[self.classes] = True
        return combined(probs, self.log_probs(embeddings), seen)


def combined(probs: NDArray[np.float32], head_log_probs: NDArray[np.float32], seen: NDArray[np.bool_]) -> NDArray[np.float32]:
    """(n, 7) the model's and the head's say together, both given per view (views, n, 7): the
    classes the head has ``seen`` share the model's probability of them in proportion to
    p_model * p_head; the others keep the model's probability. Averaged over the views.

    >>> p = np.array([[[0.1, 0.6, 0.3, 0, 0, 0, 0]]], np.float32)
    >>> h = np.log(np.array([[[1, 0.1, 0.9, 1, 1, 1, 1]]], np.float32))
    >>> [round(float(v), 3) for v in combined(p, h, np.array([False, True, True, False, False, False, False]))[0]]
    [0.1, 0.164, 0.736, 0.0, 0.0, 0.0, 0.0]
    """
    probs = np.asarray(probs, np.float32)
    mass = (probs * seen).sum(-1, keepdims=True)
    logits = np.where(seen, np.log(np.maximum(probs, 1e-12)) + head_log_probs, -np.inf)
    logits = logits - logits.max(-1, keepdims=True)
    e = np.exp(logits)
    within = e / e.sum(-1, keepdims=True)
    result: NDArray[np.float32] = np.where(seen, within * mass, probs).mean(0).astype(np.float32)
    return result


def _normalised(embeddings: NDArray[np.float32]) -> NDArray[np.float32]:
    x = np.asarray(embeddings, np.float32)
    result: NDArray[np.float32] = x / np.maximum(np.linalg.norm(x, axis=-1, keepdims=True), 1e-6)
    return result


def _standardised(x: NDArray[np.float32], mean: NDArray[np.float32], scale: NDArray[np.float32]) -> NDArray[np.float32]:
    result: NDArray[np.float32] = ((x - mean) / scale).astype(np.float32)
    return result


def fit_head(embeddings: NDArray[np.float32], values: NDArray[np.int64], start: TableHead | None = None, bound: float | None = None) -> TableHead:
    """The head fitted on crops given as (n, views, d) embeddings with their true classes (n,):
    each view is a sample. ``start`` (a head over the same classes) warm-starts the fit; ``bound``
    is a known ``TableHead.bound`` of a fit on a superset of these crops (saves finding it)."""
    embeddings = np.asarray(embeddings, np.float32)
    values = np.asarray(values, np.int64).reshape(-1)
    if embeddings.ndim != 3 or len(embeddings) != len(values) or not len(values):
        raise ValueError(f"a head needs (n, views, d) embeddings with one class each, got {embeddings.shape} and {values.shape}")
    if values.min() < 0 or values.max() >= CLASSES:
        raise ValueError(f"classes must be 0 (not a die) to 6, got {sorted(set(values.tolist()))}")
    views = embeddings.shape[1]
    x = _normalised(embeddings.reshape(-1, embeddings.shape[2]))
    mean = x.mean(0)
    scale = np.maximum(x.std(0), 1e-3).astype(np.float32)
    x = _standardised(x, mean, scale)
    classes = np.unique(values)
    target = np.searchsorted(classes, np.repeat(values, views))
    top = _top_eigenvalue(x) if bound is None else bound
    if len(classes) == 1:
        # one class: the head says nothing beyond it (log-probability 0 for it)
        return TableHead(mean, scale, np.zeros((x.shape[1], 1), np.float32), np.zeros(1, np.float32), classes, top)
    warm = start is not None and np.array_equal(start.classes, classes)
    w0 = start.weights if warm and start is not None else np.zeros((x.shape[1], len(classes)), np.float32)
    b0 = start.bias if warm and start is not None else np.zeros(len(classes), np.float32)
    weights, bias = _minimise(x, target, len(classes), w0, b0, WARM_STEPS if warm else STEPS, top)
    return TableHead(mean, scale, weights, bias, classes, top)


def _minimise(
    x: NDArray[np.float32], target: NDArray[np.intp], k: int, w: NDArray[np.float32], b: NDArray[np.float32], steps: int, top: float
) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """Nesterov-accelerated gradient descent on C * sum of cross-entropies + |W|^2 / 2 (bias free)."""
    n = len(x)
    onehot = np.zeros((n, k), np.float32)
    onehot[np.arange(n), target] = 1
    # The loss's gradient is Lipschitz with at most C * (top + n) / 2 (softmax's Hessian is at most
    # half the identity; top bounds x's Gram matrix, n the bias's) plus 1 for the penalty.
    step = 1.0 / (C * 0.5 * (top + n) + 1.0)
    w, b = w.astype(np.float32).copy(), b.astype(np.float32).copy()
    yw, yb, t = w.copy(), b.copy(), 1.0
    for _ in range(steps):
        logits = x @ yw + yb
        logits -= logits.max(1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(1, keepdims=True)
        residual = C * (p - onehot)
        new_w = yw - step * (x.T @ residual + yw)
        new_b = yb - step * residual.sum(0)
        t_next = (1 + math.sqrt(1 + 4 * t * t)) / 2
        momentum = (t - 1) / t_next
        yw = new_w + momentum * (new_w - w)
        yb = new_b + momentum * (new_b - b)
        w, b, t = new_w, new_b, t_next
    return w.astype(np.float32), b.astype(np.float32)


def _top_eigenvalue(x: NDArray[np.float32], rounds: int = 12) -> float:
    """The largest eigenvalue of x.T @ x, by power iteration (a little over, to be safe)."""
    v = np.ones(x.shape[1], np.float32) / np.sqrt(x.shape[1])
    value = 0.0
    for _ in range(rounds):
        u = x.T @ (x @ v)
        value = float(np.linalg.norm(u))
        if value == 0:
            return 0.0
        v = u / value
    return value * 1.1


LIFT_FLOOR = 0.5
"""A die the model alone gives its value less than this stays unsure whatever the head says: the
head may make sure a die the model doubts, never one it thinks more likely another value or no die."""


def held_back(view_probs: NDArray[np.float32], values: NDArray[np.int64], model_line: float) -> NDArray[np.bool_]:
    """Which of ``n`` finds read ``values`` (n,) by a table's head the head may not make sure, given
    the model's own probabilities per view (views, n, 7): those the model alone reads under its
    own ``model_line`` where it gives the value under ``LIFT_FLOOR`` or one of its views reads
    another value.

    >>> views = np.array([[[0, 0.1, 0.8, 0.1, 0, 0, 0]], [[0, 0.6, 0.3, 0.1, 0, 0, 0]]], np.float32)
    >>> held_back(views, np.array([2]), 0.85).tolist(), held_back(views[:1], np.array([2]), 0.85).tolist()
    ([True], [False])
    """
    probs = np.asarray(view_probs, np.float32)
    values = np.asarray(values, np.int64).reshape(-1)
    n = np.arange(len(values))
    own = probs.mean(0)[n, values]
    views_agree = (probs[:, :, 1:].argmax(2) + 1 == values[None]).all(0)
    result: NDArray[np.bool_] = (own < model_line) & ((own < LIFT_FLOOR) | ~views_agree)
    return result


def read_with_head(
    finds: Finds, probs: NDArray[np.float32], threshold: float, model_line: float, line: float, dice: int | None = None
) -> Detections:
    """The dice among ``finds`` read with a table head's class probabilities ``probs`` (n, 7) at
    its unsure ``line``: as ``read_finds``, where a find the head may not make sure (``held_back``)
    keeps the model's own confidence, measured against the model's line (its confidence times
    ``line / model_line``, so under ``line`` as the model's is under its own)."""
    values = probs[:, 1:].argmax(1) + 1
    held = held_back(finds.probs, values, model_line)
    own = finds.mean_probs[np.arange(len(values)), values]
    ceilings = np.where(held, own * line / max(model_line, 1e-6), 1.0).astype(np.float32)
    return read_finds(finds.boxes, finds.scores, probs, threshold, line, dice, ceilings)


MIN_JUDGED = 5
"""Confirmed rolls a table needs before its head is judged, and so used: fewer held-out rolls say
too little to tell a head that helps from one that hurts (docs/experiments.md)."""
LINE_FLOOR = 0.5
"""A table's unsure line is never under this: a die read sure must be read its value more likely than not."""
LINES = np.round(np.arange(LINE_FLOOR, 1.0, 0.01), 3)
"""The unsure lines a table's head is tried at (with the model's own)."""


@dataclass(frozen=True, eq=False)
class ConfirmedRoll:
    """A roll the players confirmed (or corrected) at the table, as the reader found it then."""

    finds: Finds
    """Every candidate die the reader found in the roll's frame."""
    dice: int
    """How many dice were thrown."""
    roll: tuple[int, ...]
    """The values the players confirmed, sorted."""
    id: int
    """The roll's number at its table: its examples carry it (``Examples.rolls``)."""


@dataclass(frozen=True, eq=False)
class Examples:
    """The crops a table taught, as the pip reader sees them."""

    embeddings: NDArray[np.float32]
    """(n, views, d) each crop's embedding per view."""
    probs: NDArray[np.float32]
    """(n, views, 7) the model's own probabilities per view."""
    values: NDArray[np.int64]
    """(n,) their classes: 0 not a die (a find tapped away), 1-6 (a die as confirmed or corrected,
    or added by a tap)."""
    rolls: NDArray[np.int64]
    """(n,) the ``ConfirmedRoll.id`` each crop came from."""

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, index: NDArray[np.bool_]) -> Examples:
        return Examples(self.embeddings[index], self.probs[index], self.values[index], self.rolls[index])

    @classmethod
    def joined(cls, parts: Sequence[Examples]) -> Examples:
        """All of ``parts`` in order (at least one)."""
        return cls(*(np.concatenate([getattr(part, name) for part in parts]) for name in ("embeddings", "probs", "values", "rolls")))

    def fit(self, start: TableHead | None = None, bound: float | None = None) -> TableHead | None:
        """The head fitted on these crops (see ``fit_head``); None where there are none or the model gives no embedding."""
        if not len(self) or not self.embeddings.shape[-1]:
            return None
        return fit_head(self.embeddings, self.values, start=start, bound=bound)


@dataclass(frozen=True)
class Verdict:
    """How a table's confirmed rolls, each held out in turn, read with a head fitted on the others
    against the model alone."""

    head_right: int
    """Held-out rolls read right with nothing asked with the head, at ``unsure_below``."""
    head_wrong: int
    """Held-out rolls read wrong with nothing asked with the head."""
    model_right: int
    """Held-out rolls the model alone read right with nothing asked, at its own line."""
    model_wrong: int
    """Held-out rolls the model alone read wrong with nothing asked."""
    rolls: int
    """Rolls judged."""
    model_unsure_below: float
    """The model's own line."""
    unsure_below: float
    """The head's line: of ``LINES`` and the model's own, above the confidence of every held-out
    die the head read wrong, the one that reads the most held-out rolls right with none wrong (the
    highest among equals); 1 where no line does."""

    @property
    def head_asked(self) -> int:
        """Held-out rolls the head's reading asked about."""
        return self.rolls - self.head_right - self.head_wrong

    @property
    def model_asked(self) -> int:
        """Held-out rolls the model alone asked about."""
        return self.rolls - self.model_right - self.model_wrong

    def in_words(self) -> str:
        """How sure the table is, as the teaching step and ``scorekeeper table`` say it.

        >>> Verdict(18, 0, 15, 0, 20, 0.85, 0.62).in_words()
        'on the last 20 rolls held out one at a time: 18 read right with nothing asked, 2 asked, 0 wrong with what it learned (a die is sure from 62%); 15, 5 and 0 by the model alone (sure from 85%)'
        """
        line = f" (a die is sure from {self.unsure_below:.0%})" if self.unsure_below < 1 else " (no line read none wrong)"
        return (
            f"on the last {self.rolls} rolls held out one at a time: {self.head_right} read right with nothing asked, {self.head_asked} asked, "
            f"{self.head_wrong} wrong with what it learned{line}; {self.model_right}, {self.model_asked} and {self.model_wrong} "
            f"by the model alone (sure from {self.model_unsure_below:.0%})"
        )

    @property
    def use_head(self) -> bool:
        """Learning never costs: the head is used only where it reads more held-out rolls right
        with nothing asked than the model alone, none more wrong and none more asked; where the
        model alone reads every one right with nothing asked, the model reads alone."""
        if self.rolls == 0 or self.model_right == self.rolls:
            return False
        return self.head_right > self.model_right and self.head_wrong <= self.model_wrong and self.head_asked <= self.model_asked


def judge(examples: Examples, rolls: Sequence[ConfirmedRoll], head: TableHead, threshold: float, unsure_below: float) -> Verdict:
    """``Verdict`` of ``head`` (fitted on all of ``examples``): each of ``rolls`` read by the decision
    step (``read_with_head`` at the finder's ``threshold``, told its count) with a head fitted on
    the examples of every other roll, at each of ``LINES`` and the model's own above the
    confidence of every held-out die that head read wrong, against the model alone at
    ``unsure_below``. Fewer than ``MIN_JUDGED`` rolls are not judged (the head is not used)."""
    if len(rolls) < MIN_JUDGED:
        return Verdict(0, 0, 0, 0, 0, unsure_below, 1.0)
    plain, taught = [], []
    floor = 0.0
    for roll in rolls:
        held = examples[examples.rolls != roll.id].fit(start=head, bound=head.bound)
        plain.append(roll.finds.mean_probs)
        if held is not None and roll.finds.embeddings.shape[-1] == len(held.mean):
            taught.append(held.adjust(roll.finds.probs, roll.finds.embeddings))
            floor = max(floor, _wrong_confidence(held, examples[(examples.rolls == roll.id) & (examples.values > 0)]))
        else:
            taught.append(plain[-1])
    model_right, model_wrong = _outcomes(
        rolls, [read_finds(roll.finds.boxes, roll.finds.scores, p, threshold, unsure_below, roll.dice) for roll, p in zip(rolls, plain)]
    )
    lines = {line for line in (unsure_below, *(float(line) for line in LINES)) if line > floor}
    best: tuple[int, int, float] | None = None
    for line in sorted(lines, reverse=True):
        right, wrong = _outcomes(rolls, [read_with_head(roll.finds, p, threshold, unsure_below, line, roll.dice) for roll, p in zip(rolls, taught)])
        if wrong == 0 and (best is None or right > best[0]):
            best = (right, wrong, line)
    if best is None:
        return Verdict(0, len(rolls), model_right, model_wrong, len(rolls), unsure_below, 1.0)
    return Verdict(best[0], best[1], model_right, model_wrong, len(rolls), unsure_below, best[2])


def _wrong_confidence(head: TableHead, dice: Examples) -> float:
    """The highest confidence ``head`` reads any of ``dice`` (held out from its fit) with a value
    other than theirs; 0 where it reads them all right."""
    if not len(dice):
        return 0.0
    probs = head.adjust(dice.probs.transpose(1, 0, 2), dice.embeddings.transpose(1, 0, 2))
    read = probs[:, 1:].argmax(1) + 1
    wrong = read != dice.values
    return float(probs[np.arange(len(read)), read][wrong].max()) if wrong.any() else 0.0


def _outcomes(rolls: Sequence[ConfirmedRoll], reads: Sequence[Detections]) -> tuple[int, int]:
    """(rolls read right with nothing asked, rolls read wrong with nothing asked), each roll read as ``reads`` says."""
    right = wrong = 0
    for roll, found in zip(rolls, reads):
        if len(found) != roll.dice or found.unsure.any():
            continue
        if tuple(found.roll()) == roll.roll:
            right += 1
        else:
            wrong += 1
    return right, wrong
