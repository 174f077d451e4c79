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

Marked dice (issue 54's house rules, from the farklescorekeeper app; no rule text has them): under
``wild-die`` "one die of a different colour counts as any face when it shows a 1 (the score is the
best it can make; a straight with it counts)"; showing 2-6 it is that face. Under ``spicy`` "each
die has one face whose pips are red; a scoring combination that includes a red face scores double".
A die is then a face and a mark (``"w"`` the wild die, ``"r"`` red pips, ``"wr"`` both); a keep's
points are the most over every face the wild 1 may stand for and every complete split, each
combination holding a red die counted twice. Rolls are scored per multiset of marked dice.

>>> oracle_score_marked("retail", ("wild-die",), ((1, "w"), (2, ""), (2, ""))).best
(((1, 'w'), (2, ''), (2, '')), 200)
>>> oracle_score_marked("retail", ("spicy",), ((1, ""), (1, ""), (1, ""), (1, "r"))).best
(((1, ''), (1, ''), (1, ''), (1, 'r')), 2100)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

FACES = (1, 2, 3, 4, 5, 6)

RULE_SETS = ("retail", "pocket", "house-2009", "flip")
VARIANTS = ("doubling", "farkle-penalty-500", "below-zero", "piggyback", "wild-die", "spicy")
OFF_THE_CHART = ("farkle-penalty-500", "below-zero", "piggyback")
"""Variants that change what a Farkle costs or how a turn starts, not what any dice score (issue 54:
"a penalty for each Farkle ... and whether scores may go below zero"; piggyback: "the next player may
roll only the dice the previous player left"): the chart is the rule set's own."""
MARKING = ("wild-die", "spicy")
"""Variants that mark dice (the wild die, red pips): the chart is the rule set's own, and what a
marked die does is worked out below, not in the table."""


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
    variants = tuple(variant for variant in variants if variant not in OFF_THE_CHART and variant not in MARKING)
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


# ---------------------------------------------------------------------------------------------
# Marked dice: the wild die and red pips.
# ---------------------------------------------------------------------------------------------

Die = tuple[int, str]
"""A die: its face 1-6 and its mark ("" plain, "w" the wild die, "r" red pips, "wr" both)."""

# With the wild die's face settled, a keep is a multiset over twelve kinds of die: each face, plain
# or red. Kinds[2 * (f - 1)] counts the plain f's, kinds[2 * (f - 1) + 1] the red ones.
Kinds = tuple[int, ...]


@lru_cache(maxsize=None)
def best_split_red(table: Table, kinds: Kinds) -> int | None:
    """Max total over all complete splits of ``kinds`` into combinations, a combination holding a red
    die counting twice; None if there is no complete split."""
    if sum(kinds) == 0:
        return 0
    best: int | None = None
    faces: Counts = tuple(kinds[2 * i] + kinds[2 * i + 1] for i in range(6))  # type: ignore[assignment]
    any_red = any(kinds[2 * i + 1] for i in range(6))
    for value in six_dice_combination_values(table, faces):
        doubled = 2 * value if any_red else value
        best = doubled if best is None else max(best, doubled)
    for combo, value in small_combinations(table):
        face = next(i for i in range(6) if combo[i])
        size = combo[face]
        # how many of the combination's dice are red: every possibility
        for red in range(size + 1):
            plain = size - red
            if kinds[2 * face] < plain or kinds[2 * face + 1] < red:
                continue
            rest = list(kinds)
            rest[2 * face] -= plain
            rest[2 * face + 1] -= red
            rest_best = best_split_red(table, tuple(rest))
            if rest_best is not None:
                total = (2 * value if red else value) + rest_best
                best = total if best is None else max(best, total)
    return best


@lru_cache(maxsize=None)
def marked_points(table: Table, keep: tuple[Die, ...]) -> int | None:
    """Points of a marked keep: the best over every face the wild 1 may stand for; None if it does
    not split into combinations whatever it stands for."""
    wild = [i for i, (face, mark) in enumerate(keep) if "w" in mark]
    stand_ins: tuple[int | None, ...] = FACES if wild and keep[wild[0]][0] == 1 else (None,)
    best: int | None = None
    for stand_in in stand_ins:
        kinds = [0] * 12
        for i, (face, mark) in enumerate(keep):
            counted = stand_in if stand_in is not None and i == wild[0] else face
            kinds[2 * (counted - 1) + ("r" in mark)] += 1
        points = best_split_red(table, tuple(kinds))
        if points is not None and (best is None or points > best):
            best = points
    return best


@dataclass(frozen=True)
class MarkedResult:
    options: tuple[tuple[tuple[Die, ...], int], ...]  # ((keep, points), ...) in the agreed order
    farkle: bool
    wins: bool

    @property
    def best(self) -> tuple[tuple[Die, ...], int] | None:
        if self.wins:
            return next(option for option in self.options if len(option[0]) == 6)
        return self.options[0] if self.options else None


def marked_order(option: tuple[tuple[Die, ...], int]) -> tuple[int, int, tuple[int, ...], tuple[str, ...]]:
    """Points descending, then fewer dice, then the faces ascending, then the marks ("" < "r" < "w" < "wr")."""
    keep, points = option
    return (-points, len(keep), tuple(face for face, _ in keep), tuple(mark for _, mark in keep))


@lru_cache(maxsize=None)
def _score_marked(rule_set: str, variants: tuple[str, ...], roll: tuple[Die, ...]) -> MarkedResult:
    table = table_for(rule_set, variants)
    kinds = sorted(set(roll))
    options = []
    for taken in itertools.product(*(range(roll.count(kind) + 1) for kind in kinds)):
        keep = tuple(kind for kind, n in zip(kinds, taken) for _ in range(n))
        if not keep:
            continue
        points = marked_points(table, keep)
        if points is not None:
            options.append((keep, points))
    options.sort(key=marked_order)
    others = {face for face, mark in roll if not ("w" in mark and face == 1)}
    wins = table.six_same_wins and len(roll) == 6 and len(others) <= 1
    return MarkedResult(tuple(options), farkle=not options, wins=wins)


def oracle_score_marked(rule_set: str, variants: tuple[str, ...], roll: tuple[Die, ...]) -> MarkedResult:
    """Score a roll of marked dice (any order) under ``rule_set`` + ``variants``; cached by the sorted roll."""
    return _score_marked(rule_set, tuple(variants), tuple(sorted(roll)))


def marked_rolls(variants: tuple[str, ...], wild_shows: tuple[int, ...] = FACES, unmarked: bool = True) -> list[tuple[Die, ...]]:
    """Every roll of 1-6 dice (as a sorted multiset) the marking variants among ``variants`` allow:
    any dice plain or (spicy) red, and at most one of them (wild-die) the wild die, showing one of
    ``wild_shows``; ``unmarked``: the rolls without the wild die too."""
    plain: list[Die] = [(face, "") for face in FACES]
    wilds: list[Die] = []
    if "spicy" in variants:
        plain += [(face, "r") for face in FACES]
    if "wild-die" in variants:
        wilds = [(face, mark) for face in wild_shows for mark in (("w", "wr") if "spicy" in variants else ("w",))]
    rolls = []
    for n in range(1, 7):
        if unmarked or not wilds:
            rolls += [tuple(sorted(roll)) for roll in itertools.combinations_with_replacement(plain, n)]
        for wild in wilds:
            rolls += [tuple(sorted((*rest, wild))) for rest in itertools.combinations_with_replacement(plain, n - 1)]
    return rolls
