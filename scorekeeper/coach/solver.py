"""Value iteration over the states of one turn.

A decision point of a turn is (turn total, dice left to roll); the player's
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
"""Table columns: 0 = no dice left (bank, or nothing when below the entry minimum),
1-6 = dice left, 7 = the game won on the spot."""
WON = 7
FIRST_CAP = 20_000 // STEP
"""Turn totals (in steps) the sweep starts from; doubled while rolling still pays there."""
WIN_ROWS = 20_000 // STEP
"""Points needed (in steps) the win table covers when solved; it grows on demand."""
WIN_ROWS_MAX = 100_000 // STEP
"""... up to this many steps."""


@dataclass(frozen=True)
class Moves:
    """Every (roll, keep) pair of every number of dice, as flat arrays for the sweeps."""

    farkle: Floats
    """Chance that n dice Farkle, at index n (index 0 unused)."""
    points: Ints
    """Steps each keep scores."""
    after: Ints
    """Column each keep leads to: dice left after it (6 on hot dice, 0 if none), or WON."""
    starts: Ints
    """Index of each scoring roll's first keep (keeps are grouped by roll)."""
    spread: Floats
    """(7, scoring rolls): the chance of each roll in the row of its number of dice."""

    @classmethod
    def of(cls, rules: RuleSet) -> Moves:
        farkle = np.zeros(ALL_DICE + 1)
        points: list[int] = []
        after: list[int] = []
        starts: list[int] = []
        owners: list[tuple[int, float]] = []
        for dice in range(1, ALL_DICE + 1):
            for odds in roll_odds(rules, dice):
                if not odds.options:
                    farkle[dice] += float(odds.chance)
                    continue
                starts.append(len(points))
                owners.append((dice, float(odds.chance)))
                for option in odds.options:
                    left = dice - len(option.keep)
                    if odds.wins and len(option.keep) == ALL_DICE:
                        column = WON
                    elif left == 0 and rules.turn.hot_dice:
                        column = ALL_DICE
                    else:
                        column = left
                    points.append(option.points // STEP)
                    after.append(column)
        spread = np.zeros((ALL_DICE + 1, len(owners)))
        for index, (dice, chance) in enumerate(owners):
            spread[dice, index] = chance
        return cls(farkle, np.array(points, dtype=np.int64), np.array(after, dtype=np.int64),
                   np.array(starts, dtype=np.int64), spread)

    def roll_values(self, values: Floats, farkled: float) -> Floats:
        """Value of rolling n dice (index n), given the value after each keep."""
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
    """Values V (rows 0..cap+max keep, COLUMNS) and roll values Q (rows 0..cap-1, 7) in points."""
    top = cap + int(moves.points.max()) + 1
    totals = np.arange(top, dtype=np.float64) * STEP
    entry = 0 if standing.on_board else rules.turn.entry_minimum
    bankable = totals >= max(entry, STEP)
    bank = np.where(bankable, totals, -np.inf)
    farkled = -float(standing.farkle_cost)
    values = np.empty((top, COLUMNS))
    values[:, 0] = np.where(bankable, totals, 0.0)
    values[:, 1:WON] = totals[:, None]
    values[:, WON] = win_value(rules)
    rolls = np.zeros((cap, ALL_DICE + 1))
    flat = values.reshape(-1)
    offsets = moves.points * COLUMNS + moves.after
    for row in range(cap - 1, -1, -1):
        rolled = moves.roll_values(flat[offsets + row * COLUMNS], farkled)
        rolls[row] = rolled
        values[row, 1:WON] = np.maximum(rolled[1:], bank[row])
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
    """Chance to score at least r more steps this turn (row r) with n dice (column n).

    Row 0 is reached: bank. ``start`` holds rows already computed, to grow the table.
    """
    table = np.zeros((rows, COLUMNS))
    done = 0
    if start is not None:
        done = min(len(start), rows)
        table[:done] = start[:done]
    if done == 0:
        table[0] = 1.0
        done = 1
    table[:, WON] = 1.0
    flat = table.reshape(-1)
    for row in range(done, rows):
        reached = np.maximum(row - moves.points, 0)
        rolled = moves.roll_values(flat[reached * COLUMNS + moves.after], 0.0)
        table[row, 1:WON] = rolled[1:]
    return table
