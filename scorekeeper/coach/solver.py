"""Value iteration over the states of one turn.

A decision point of a turn is (turn total, dice left to roll), and under the wild-die variant
whether the wild die is among those dice (a *slot*: :func:`slot`); the player's
standing (on the board or not, and what a Farkle would take off the score: the
penalty for each Farkle, the streak's penalty when due, no more than the score
where it may not go below zero) is fixed for the whole turn, so each standing
gets a table of its own. The value of a
point is the best of banking and rolling; rolling is worth the chance-weighted
value of every roll, each roll taken at its best keep.

The turn total only grows, so sweeping totals from the top down computes every
value from values already final: one sweep is value iteration run to its fixed
point. Above a cap the tables bank; the solver checks that the rows under the
cap bank too (rolling there loses points) and doubles the cap if not.

The win table answers the last lap's question instead: the chance to score at
least ``r`` more points this turn, swept from ``r = 0`` up.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from scorekeeper.coach.odds import ALL_DICE, STEP, roll_odds
from scorekeeper.rules import RuleSet

Floats = NDArray[np.float64]
Ints = NDArray[np.int64]

COLUMNS = 8
"""Table columns without the wild die: 0 = no dice left (bank, or nothing when below the entry
minimum), 1-6 = dice left, 7 = the game won on the spot."""
WILD_COLUMNS = 14
"""Table columns under the wild-die variant: 0 and 1-6 as without it, 7-12 = 1-6 dice left with the
wild die among them, 13 = the game won on the spot."""
FIRST_CAP = 20_000 // STEP
"""Turn totals (in steps) the sweep starts from; doubled while rolling still pays there."""
WIN_ROWS = 20_000 // STEP
"""Points needed (in steps) the win table covers when solved; it grows on demand."""
WIN_ROWS_MAX = 100_000 // STEP
"""... up to this many steps."""


def columns(rules: RuleSet) -> int:
    """How many columns the tables of ``rules`` have: :data:`WILD_COLUMNS` under the wild-die variant, else :data:`COLUMNS`."""
    return WILD_COLUMNS if rules.scoring.wild_die else COLUMNS


def slot(dice: int, wild: bool) -> int:
    """The column of ``dice`` dice left, the wild die among them where ``wild``.

    >>> slot(3, False), slot(3, True), slot(0, True)
    (3, 9, 0)
    """
    return dice + ALL_DICE if wild and dice else dice


@dataclass(frozen=True)
class Moves:
    """Every (roll, keep) pair of every number of dice, as flat arrays for the sweeps."""

    farkle: Floats
    """Chance that the dice of each slot (:func:`slot`) Farkle (index 0 unused)."""
    points: Ints
    """Steps each keep scores."""
    after: Ints
    """Column each keep leads to: the slot of the dice left after it (six, the wild die among them
    where there is one, on hot dice; 0 if none), or :attr:`won`."""
    starts: Ints
    """Index of each scoring roll's first keep (keeps are grouped by roll)."""
    spread: Floats
    """(slots, scoring rolls): the chance of each roll in the row of its slot."""
    won: int
    """The column of the game won on the spot: the last of the tables' columns."""

    @classmethod
    def of(cls, rules: RuleSet) -> Moves:
        won = columns(rules) - 1
        wild_die = rules.scoring.wild_die
        farkle = np.zeros(won)
        points: list[int] = []
        after: list[int] = []
        starts: list[int] = []
        owners: list[tuple[int, float]] = []
        for wild in (False, True) if wild_die else (False,):
            for dice in range(1, ALL_DICE + 1):
                start = slot(dice, wild)
                for odds in roll_odds(rules, dice, wild):
                    if not odds.options:
                        farkle[start] += float(odds.chance)
                        continue
                    starts.append(len(points))
                    owners.append((start, float(odds.chance)))
                    for option in odds.options:
                        left = dice - len(option.keep)
                        if odds.wins and len(option.keep) == ALL_DICE:
                            column = won
                        elif left == 0 and rules.turn.hot_dice:
                            column = slot(ALL_DICE, wild_die)  # all six picked up, the wild die with them
                        else:
                            column = slot(left, wild and "w" not in "".join(option.keep.marks))
                        points.append(option.points // STEP)
                        after.append(column)
        spread = np.zeros((won, len(owners)))
        for index, (start, chance) in enumerate(owners):
            spread[start, index] = chance
        return cls(farkle, np.array(points, dtype=np.int64), np.array(after, dtype=np.int64),
                   np.array(starts, dtype=np.int64), spread, won)

    def roll_values(self, values: Floats, farkled: float) -> Floats:
        """Value of rolling the dice of each slot (index: :func:`slot`), given the value after each keep."""
        best = np.maximum.reduceat(values, self.starts)
        result: Floats = self.spread @ best + self.farkle * farkled
        return result


@dataclass(frozen=True, order=True)
class Standing:
    """What about the player shapes a turn's values, fixed for the whole turn."""

    on_board: bool
    """Banking is allowed at any total (else only from the entry minimum on)."""
    farkle_cost: int = 0
    """Points a Farkle this turn takes off the banked score, beyond the turn's own points."""


def standings(rules: RuleSet) -> tuple[Standing, ...]:
    """The standings solved with the rule set (the first is the common one): on the board with
    the full penalty for each Farkle, and with the streak's on top; off the board, where a score
    is never above zero, the same if a penalty may go below zero, else with none. A score too low
    to pay a penalty whole makes a standing of its own, solved when it is first asked for."""
    turn = rules.turn
    costs = [turn.each_farkle_penalty]
    if turn.farkle_penalty:
        costs.append(turn.each_farkle_penalty + turn.farkle_penalty)
    found = [Standing(True, cost) for cost in costs]
    if turn.entry_minimum:
        found += [Standing(False, cost) for cost in costs] if turn.penalty_below_zero else [Standing(False, 0)]
    return tuple(dict.fromkeys(found))


def win_value(rules: RuleSet) -> float:
    """What winning on the spot is worth in points: the target, as a bank that ends the game would be."""
    return float(rules.end.target)


def sweep(rules: RuleSet, moves: Moves, standing: Standing, cap: int) -> tuple[Floats, Floats]:
    """Values V (rows 0..cap+max keep, one column per slot and the win) and roll values Q (rows
    0..cap-1, one column per slot) in points."""
    top = cap + int(moves.points.max()) + 1
    totals = np.arange(top, dtype=np.float64) * STEP
    entry = 0 if standing.on_board else rules.turn.entry_minimum
    bankable = totals >= max(entry, STEP)
    bank = np.where(bankable, totals, -np.inf)
    farkled = -float(standing.farkle_cost)
    won = moves.won
    width = won + 1
    values = np.empty((top, width))
    values[:, 0] = np.where(bankable, totals, 0.0)
    values[:, 1:won] = totals[:, None]
    values[:, won] = win_value(rules)
    rolls = np.zeros((cap, won))
    flat = values.reshape(-1)
    offsets = moves.points * width + moves.after
    for row in range(cap - 1, -1, -1):
        rolled = moves.roll_values(flat[offsets + row * width], farkled)
        rolls[row] = rolled
        values[row, 1:won] = np.maximum(rolled[1:], bank[row])
    return values, rolls


def banks_at_cap(rolls: Floats, cap: int) -> bool:
    """Whether banking beats rolling any number of dice over the last rows below the cap."""
    band = slice(max(cap - 40, 1), cap)
    totals = np.arange(cap, dtype=np.float64)[band] * STEP
    return bool(np.all(rolls[band, 1:] < totals[:, None]))


def solve_standing(rules: RuleSet, moves: Moves, standing: Standing) -> tuple[Floats, Floats]:
    """Sweep with a cap high enough that rolling no longer pays below it."""
    cap = max(FIRST_CAP, 2 * rules.turn.entry_minimum // STEP)
    while True:
        values, rolls = sweep(rules, moves, standing, cap)
        if banks_at_cap(rolls, cap):
            return values, rolls
        cap *= 2


def win_table(moves: Moves, rows: int, start: Floats | None = None) -> Floats:
    """Chance to score at least r more steps this turn (row r) with the dice of each slot (column:
    :func:`slot`).

    Row 0 is reached: bank. ``start`` holds rows already computed, to grow the table.
    """
    won = moves.won
    width = won + 1
    table = np.zeros((rows, width))
    done = 0
    if start is not None:
        done = min(len(start), rows)
        table[:done] = start[:done]
    if done == 0:
        table[0] = 1.0
        done = 1
    table[:, won] = 1.0
    flat = table.reshape(-1)
    for row in range(done, rows):
        reached = np.maximum(row - moves.points, 0)
        rolled = moves.roll_values(flat[reached * width + moves.after], 0.0)
        table[row, 1:won] = rolled[1:]
    return table
