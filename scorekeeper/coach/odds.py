"""Every roll of n dice with its chance, and what each roll lets the player keep.

A roll is a multiset of faces: 462 of them for six dice instead of 46,656
ordered throws, each weighted by how many throws show it. Under the wild-die variant a roll with
the wild die among the dice is the wild die's face (each a sixth) and a multiset of the others.

>>> from fractions import Fraction
>>> from scorekeeper.rules import load_rules
>>> [str(farkle_chance(load_rules("retail"), n)) for n in (1, 2, 6)]
['2/3', '4/9', '5/216']
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.rules import Dice, KeepOption, RuleSet, score_roll

ALL_DICE = 6
STEP = 50
"""Every Farkle score is a multiple of this: the solver counts turn totals in these steps."""


@dataclass(frozen=True)
class RollOdds:
    """One roll of n dice, how likely it is, and the keeps it offers."""

    roll: Dice
    """The faces, sorted."""
    chance: Fraction
    """Exact chance of this roll when n fair dice are thrown."""
    options: tuple[KeepOption, ...]
    """Every legal keep, as the rules engine lists them; empty on a Farkle."""
    wins: bool
    """Keeping all six dice of this roll wins the game on the spot."""


def _throws(counts: tuple[int, ...]) -> int:
    """How many ordered throws show these face counts."""
    return math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)


@functools.lru_cache(maxsize=64)
def roll_odds(rules: RuleSet, dice: int, wild: bool = False) -> tuple[RollOdds, ...]:
    """Every distinct roll of ``dice`` dice under ``rules``, the wild die among them where ``wild``
    (wild-die variant); the chances add up to 1.

    >>> from scorekeeper.rules import load_rules
    >>> odds = roll_odds(load_rules("retail"), 2)
    >>> len(odds), sum(o.chance for o in odds)
    (21, Fraction(1, 1))
    >>> odds = roll_odds(load_rules("retail+wild-die"), 2, wild=True)
    >>> len(odds), sum(o.chance for o in odds), str(odds[0].roll)
    (36, Fraction(1, 1), '1 1w')
    """
    if not 1 <= dice <= ALL_DICE:
        raise ValueError(f"dice {dice!r}: a roll has 1 to {ALL_DICE} dice")
    found = []
    for faces in itertools.combinations_with_replacement(range(1, 7), dice - wild):
        others = Dice(faces)
        for shows in range(1, 7) if wild else (None,):
            roll = others if shows is None else Dice((*faces, shows), ("",) * len(faces) + ("w",))
            chance = Fraction(_throws(others.counts()), 6 ** len(faces) * (6 if wild else 1))
            scored = score_roll(rules, roll)
            found.append(RollOdds(roll, chance, scored.options, scored.wins))
    return tuple(found)


def farkle_chance(rules: RuleSet, dice: int, wild: bool = False) -> Fraction:
    """Exact chance that a roll of ``dice`` dice (the wild die among them where ``wild``) scores nothing under ``rules``.

    The wild 1 always scores (as a 1 at least), so with it a Farkle still needs every die off 1 and
    5 and no three alike: 4/6 x 4/6 for two dice.

    >>> from scorekeeper.rules import load_rules
    >>> [str(farkle_chance(load_rules("retail+wild-die"), n, wild=True)) for n in (1, 2)]
    ['2/3', '4/9']
    """
    return sum((o.chance for o in roll_odds(rules, dice, wild) if not o.options), Fraction(0))
