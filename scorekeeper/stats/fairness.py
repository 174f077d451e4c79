"""Are the table's dice fair? Every face read, counted, and a chi-square test of uniformity.

>>> test = fairness((100, 100, 100, 100, 100, 100))
>>> test.chi_square, test.p_value
(0.0, 1.0)
>>> print(fairness((60, 55, 48, 52, 40, 45)))
chi-square 5.2 on 5 degrees of freedom, p = 0.40: the faces look fair (300 dice)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from scorekeeper.game import Event
from scorekeeper.game.save import load_events
from scorekeeper.rules import FarkleError
from scorekeeper.stats.replay import rolls_read

FACES = 6
ALPHA = 0.01
"""A p-value below this calls the dice suspicious: a fair set is flagged one game in a hundred."""
MIN_EXPECTED = 5
"""The chi-square approximation wants at least this many of each face expected (30 dice in all)."""


def chi_square_sf(x: float, df: int) -> float:
    """Chance that a chi-square variable with ``df`` degrees of freedom exceeds ``x``.

    The regularized upper incomplete gamma function Q(df/2, x/2): its power series
    below a + 1, its continued fraction above (Numerical Recipes, 6.2).

    >>> round(chi_square_sf(11.0705, 5), 4), round(chi_square_sf(3.8415, 1), 4)
    (0.05, 0.05)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom {df!r}: need at least 1")
    if x <= 0:
        return 1.0
    a, z = df / 2, x / 2
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-16:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-16:
            break
    return min(1.0, math.exp(log_front) * h)


@dataclass(frozen=True)
class FairnessTest:
    """A chi-square test that every face comes up one time in six."""

    counts: tuple[int, ...]
    """How often each face 1-6 was read."""
    chi_square: float
    """The statistic: sum of (observed - expected)^2 / expected."""
    p_value: float
    """Chance that fair dice look at least this uneven."""

    @property
    def dice(self) -> int:
        """Faces counted."""
        return sum(self.counts)

    @property
    def degrees_of_freedom(self) -> int:
        return FACES - 1

    @property
    def enough(self) -> bool:
        """Whether enough dice were read for the test to mean anything."""
        return self.dice >= MIN_EXPECTED * FACES

    def suspicious(self, alpha: float = ALPHA) -> bool:
        """The faces are too uneven to put down to chance (at level ``alpha``), given enough dice."""
        return self.enough and self.p_value < alpha

    def verdict(self) -> str:
        """What the table should make of it, in words."""
        if not self.enough:
            return f"too few dice to tell ({self.dice} read; {MIN_EXPECTED * FACES} needed)"
        if self.suspicious():
            return "the faces are uneven: a die may be loaded or misread"
        return "the faces look fair"

    def __str__(self) -> str:
        """The test's figures and verdict in one line, the dice counted said once."""
        counted = "" if not self.enough else f" ({self.dice} dice)"
        return (
            f"chi-square {self.chi_square:.1f} on {self.degrees_of_freedom} degrees of freedom, "
            f"p = {_p(self.p_value)}: {self.verdict()}{counted}"
        )


def _p(value: float) -> str:
    return f"{value:.2f}" if value >= 0.01 else f"{value:.1e}"


def fairness(counts: Sequence[int]) -> FairnessTest:
    """The chi-square test of ``counts`` (how often each face 1-6 came up)."""
    if len(counts) != FACES or any(c < 0 for c in counts):
        raise ValueError(f"face counts {list(counts)!r}: expected six counts, none below zero")
    total = sum(counts)
    if total == 0:
        return FairnessTest(tuple(counts), 0.0, 1.0)
    expected = total / FACES
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return FairnessTest(tuple(counts), statistic, chi_square_sf(statistic, FACES - 1))


def face_counts(events: Iterable[Event], source: str | None = None) -> tuple[int, ...]:
    """How often each face 1-6 was rolled in a game, after corrections.

    ``source`` keeps only the rolls from there ("camera" or "typed"); None counts all.
    """
    counts = [0] * FACES
    for roll, came_from in rolls_read(events):
        if source is None or came_from == source:
            for face in roll.values:
                counts[face - 1] += 1
    return tuple(counts)


def add_counts(counts: Iterable[Sequence[int]]) -> tuple[int, ...]:
    """Face counts of several games added up."""
    total = [0] * FACES
    for game in counts:
        for face, count in enumerate(game):
            total[face] += count
    return tuple(total)


def saved_face_counts(paths: Iterable[str | Path], source: str | None = None) -> tuple[tuple[int, ...], list[str]]:
    """Face counts over saved games and journals (told apart by what they hold: ``load_events``),
    and a message for each file that could not be read or holds no game (and was left out)."""
    per_game = []
    skipped = []
    for path in paths:
        try:
            per_game.append(face_counts(load_events(path)[0], source))
        except FarkleError as exc:
            skipped.append(str(exc))
    return add_counts(per_game), skipped
