"""A deliberately simple, brute-force Farkle scorer used as a test oracle.

Written independently of ``scorekeeper.rules`` from the rule texts in
``shared/rules/`` and the agreed semantics:

* A *keep* is a non-empty sub-multiset of the roll that can be split
  completely into combinations (every kept die is in exactly one combination).
* Its points are the maximum, over all complete splits, of the sum of the
  combination values.
* Farkle means there is no legal keep.
* Options are ordered by points descending, then fewer dice, then the keep
  tuple ascending; ``best`` is the first option, except where the roll wins the
  game on the spot (six of a kind under house-2009): keeping all six dice claims
  the win, so that keep is ``best`` whatever its points, though it keeps its
  place among the options.

Nothing here is clever: every sub-multiset of the roll is tried, and every way
of splitting it into combinations is tried.  Results are cached by the sorted
roll, so scoring all 55,986 ordered rolls of 1..6 dice only does the brute
force for the 923 distinct multisets.

>>> oracle_score("retail", (), (1, 1, 1, 1)).best
((1, 1, 1, 1), 1100)
>>> oracle_score("retail", (), (2, 2, 3, 3, 4, 6)).farkle
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

FACES = (1, 2, 3, 4, 5, 6)

RULE_SETS = ("retail", "pocket", "house-2009", "flip")
VARIANTS = ("doubling", "farkle-penalty-500", "below-zero", "piggyback")
OFF_THE_CHART = ("farkle-penalty-500", "below-zero", "piggyback")
"""Variants that change what a Farkle costs or how a turn starts, not what any dice score (issue 54:
"a penalty for each Farkle ... and whether scores may go below zero"; piggyback: "the next player may
roll only the dice the previous player left"): the chart is the rule set's own."""


@dataclass(frozen=True)
class Table:
    """Point values of every combination under one rule set (0 = no such combination)."""

    triple_ones: int  # three 1s; three f (f = 2..6) is always f * 100
    kind_mode: str  # "flat", "multiple" (house-2009) or "doubling"
    straight: int  # 1 2 3 4 5 6
    three_pairs: int  # six dice, every face count even (four of a kind counts as two pairs)
    four_plus_pair: int  # counts 4 and 2 of two different faces
    two_triplets: int  # counts 3 and 3 of two different faces
    six_same_wins: bool  # a roll of six dice all the same face wins the game

    def triple(self, face: int) -> int:
        """T(f): the value of three dice showing ``face``."""
        return self.triple_ones if face == 1 else face * 100

    def n_of_a_kind(self, face: int, n: int) -> int:
        """Value of exactly ``n`` (3..6) dice of ``face`` taken as one combination."""
        if n == 3:
            return self.triple(face)
        if self.kind_mode == "flat":
            return {4: 1000, 5: 2000, 6: 3000}[n]
        if self.kind_mode == "multiple":  # house-2009
            return {4: 2 * self.triple(face), 5: 3 * self.triple(face), 6: 1000}[n]
        if self.kind_mode == "doubling":
            return {4: 2, 5: 4, 6: 8}[n] * self.triple(face)
        raise AssertionError(self.kind_mode)


def table_for(rule_set: str, variants: tuple[str, ...] = ()) -> Table:
    """The combination values for a preset name plus variants, straight from the spec."""
    variants = tuple(variant for variant in variants if variant not in OFF_THE_CHART)
    if rule_set in ("retail", "flip") and variants == ():
        return Table(1000, "flat", 1500, 1500, 1500, 2500, False)
    if rule_set == "retail" and variants == ("doubling",):
        return Table(1000, "doubling", 1500, 1500, 1500, 2500, False)
    if rule_set == "pocket" and variants == ():
        return Table(300, "flat", 1500, 1500, 1500, 2500, False)
    if rule_set == "house-2009" and variants == ():
        return Table(1000, "multiple", 1000, 1000, 0, 0, True)
    raise ValueError(f"oracle does not know {rule_set!r} with {variants!r}")


# A multiset of dice is represented as a tuple of six counts: counts[f - 1] = number of f's.
Counts = tuple[int, int, int, int, int, int]


def to_counts(dice: tuple[int, ...]) -> Counts:
    return tuple(dice.count(f) for f in FACES)  # type: ignore[return-value]


def to_dice(counts: Counts) -> tuple[int, ...]:
    return tuple(f for f in FACES for _ in range(counts[f - 1]))


def small_combinations(table: Table) -> list[tuple[Counts, int]]:
    """Every combination that uses dice of a single face: singles and 3..6 of a kind."""
    combos: list[tuple[Counts, int]] = []
    for face in FACES:
        for n in range(1, 7):
            if n == 1:
                value = {1: 100, 5: 50}.get(face, 0)
            elif n == 2:
                value = 0  # a lone pair scores nothing
            else:
                value = table.n_of_a_kind(face, n)
            if value:
                counts = [0] * 6
                counts[face - 1] = n
                combos.append((tuple(counts), value))  # type: ignore[arg-type]
    return combos


def six_dice_combination_values(table: Table, counts: Counts) -> list[int]:
    """Values of the six-dice combinations that use exactly the dice in ``counts``."""
    if sum(counts) != 6:
        return []
    shape = sorted(c for c in counts if c > 0)
    values = []
    if shape == [1, 1, 1, 1, 1, 1]:
        values.append(table.straight)
    if all(c % 2 == 0 for c in counts):  # 2+2+2, 4+2 and 6 all count as three pairs
        values.append(table.three_pairs)
    if shape == [2, 4]:
        values.append(table.four_plus_pair)
    if shape == [3, 3]:
        values.append(table.two_triplets)
    return [v for v in values if v]


@lru_cache(maxsize=None)
def best_split(table: Table, counts: Counts) -> int | None:
    """Max total over all complete splits of ``counts`` into combinations, or None if none exists."""
    if sum(counts) == 0:
        return 0
    best: int | None = None
    # A six-dice combination uses every die, so it is a whole split by itself.
    for value in six_dice_combination_values(table, counts):
        best = value if best is None else max(best, value)
    # Otherwise take one single-face combination out and split the rest.
    for combo, value in small_combinations(table):
        if all(c <= have for c, have in zip(combo, counts)):
            rest: Counts = tuple(have - c for c, have in zip(combo, counts))  # type: ignore[assignment]
            rest_best = best_split(table, rest)
            if rest_best is not None:
                total = value + rest_best
                best = total if best is None else max(best, total)
    return best


@dataclass(frozen=True)
class OracleResult:
    options: tuple[tuple[tuple[int, ...], int], ...]  # ((keep, points), ...) in the agreed order
    farkle: bool
    wins: bool

    @property
    def best(self) -> tuple[tuple[int, ...], int] | None:
        if self.wins:
            return next(option for option in self.options if len(option[0]) == 6)
        return self.options[0] if self.options else None


def option_order(option: tuple[tuple[int, ...], int]) -> tuple[int, int, tuple[int, ...]]:
    keep, points = option
    return (-points, len(keep), keep)


@lru_cache(maxsize=None)
def _score_sorted(rule_set: str, variants: tuple[str, ...], sorted_roll: tuple[int, ...]) -> OracleResult:
    table = table_for(rule_set, variants)
    counts = to_counts(sorted_roll)
    options = []
    # Every sub-multiset of the roll: choose how many of each face to keep.
    for keep_counts in itertools.product(*(range(c + 1) for c in counts)):
        if sum(keep_counts) == 0:
            continue
        points = best_split(table, keep_counts)  # type: ignore[arg-type]
        if points is not None:
            options.append((to_dice(keep_counts), points))  # type: ignore[arg-type]
    wins = table.six_same_wins and len(sorted_roll) == 6 and len(set(sorted_roll)) == 1
    options.sort(key=option_order)
    return OracleResult(tuple(options), farkle=not options, wins=wins)


def oracle_score(rule_set: str, variants: tuple[str, ...], roll: tuple[int, ...]) -> OracleResult:
    """Score ``roll`` (any order) under ``rule_set`` + ``variants``; cached by the sorted roll."""
    return _score_sorted(rule_set, tuple(variants), tuple(sorted(roll)))
