"""A solved rule set: the value of every turn state, looked up in well under a millisecond.

>>> from scorekeeper.rules import load_rules
>>> policy = Policy.solve(load_rules("retail"))
>>> round(policy.farkle_chance(6), 5), policy.bank_threshold(1)
(0.02315, 350)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from scorekeeper.coach.odds import ALL_DICE, STEP
from scorekeeper.coach.solver import (
    WIN_ROWS,
    WIN_ROWS_MAX,
    WON,
    Floats,
    Moves,
    Standing,
    solve_standing,
    standings,
    win_table,
    win_value,
)
from scorekeeper.rules import FarkleError, GameKind, RuleSet


class CoachError(FarkleError):
    """The coach cannot advise under these rules, or was asked about a state that cannot be."""


@dataclass(frozen=True)
class Tables:
    """The solved values of one standing (the value of a state is the better of this and banking)."""

    rolls: Floats
    """(cap, 7): value of rolling n dice (column n) at each turn total (row, in steps) below the cap."""


@dataclass(eq=False)
class Policy:
    """The solitaire-optimal turn policy of one rule set, and the last lap's win chances."""

    rules: RuleSet
    """The rules it was solved for."""
    farkle: Floats
    """Chance that n dice Farkle, at index n."""
    tables: dict[Standing, Tables]
    """Values per standing; standings missing here play as the first one."""
    win: Floats
    """(rows, 8): chance to score at least r more steps (row r) with n dice (column n)."""
    _moves: Moves | None = field(default=None, repr=False)

    @classmethod
    def solve(cls, rules: RuleSet) -> Policy:
        """Solve ``rules`` from scratch (the cache in :mod:`scorekeeper.coach.cache` saves this)."""
        if rules.kind is not GameKind.DICE:
            raise CoachError(
                f"rules {rules.name!r} are the card edition: the coach works out the odds of dice, "
                "and cards have none it can know"
            )
        moves = Moves.of(rules)
        tables = {}
        for standing in standings(rules):
            _, rolls = solve_standing(rules, moves, standing)
            tables[standing] = Tables(rolls)
        return cls(rules, moves.farkle, tables, win_table(moves, WIN_ROWS), moves)

    @property
    def moves(self) -> Moves:
        """The roll and keep arrays, rebuilt when the policy came from the cache."""
        if self._moves is None:
            self._moves = Moves.of(self.rules)
        return self._moves

    def farkle_chance(self, dice: int) -> float:
        """Chance that rolling ``dice`` dice scores nothing."""
        _check_dice(dice, allow_none=False)
        return float(self.farkle[dice])

    def standing(self, on_board: bool = True, streak: int = 0) -> Standing:
        """The standing whose table holds a player's values."""
        turn = self.rules.turn
        at_risk = bool(turn.farkle_penalty) and streak + 1 >= turn.farkle_penalty_streak
        wanted = Standing(on_board or not turn.entry_minimum, at_risk and (on_board or turn.penalty_below_zero))
        return wanted if wanted in self.tables else Standing(wanted.on_board, False)

    def can_bank(self, total: int, on_board: bool = True) -> bool:
        """Whether the rules let a player bank ``total``."""
        return total > 0 and (on_board or total >= self.rules.turn.entry_minimum)

    def farkle_value(self, standing: Standing) -> float:
        """Points a Farkle costs beyond the turn: the penalty when it is due."""
        return -float(self.rules.turn.farkle_penalty) if standing.at_risk else 0.0

    def roll_value(self, total: int, dice: int, on_board: bool = True, streak: int = 0) -> float:
        """Expected points this turn banks if the player rolls ``dice`` dice now and plays on best."""
        _check_dice(dice, allow_none=False)
        standing = self.standing(on_board, streak)
        table = self.tables[standing]
        steps = _steps(total)
        if steps < len(table.rolls):
            return float(table.rolls[steps, dice])
        # Above the cap every later state banks: one roll, then bank.
        moves = self.moves
        after: Floats = np.where(moves.after == WON, win_value(self.rules), (steps + moves.points) * float(STEP))
        return float(moves.roll_values(after, self.farkle_value(standing))[dice])

    def value(self, total: int, dice: int, on_board: bool = True, streak: int = 0) -> float:
        """Expected points this turn banks from here with best play (``dice`` = 0: no dice left)."""
        _check_dice(dice, allow_none=True)
        banked = float(total) if self.can_bank(total, on_board) else None
        if dice == 0:
            return banked if banked is not None else 0.0
        rolled = self.roll_value(total, dice, on_board, streak)
        return rolled if banked is None else max(banked, rolled)

    def expected_points_per_turn(self, on_board: bool = True, streak: int = 0) -> float:
        """Expected points a turn banks with best play, from six dice and nothing scored."""
        return self.roll_value(0, ALL_DICE, on_board, streak)

    def bank_threshold(self, dice: int, on_board: bool = True, streak: int = 0) -> int:
        """The smallest turn total (a multiple of 50) at which banking is at least as good as rolling ``dice``."""
        _check_dice(dice, allow_none=False)
        rolls = self.tables[self.standing(on_board, streak)].rolls[:, dice]
        totals = np.arange(len(rolls)) * STEP
        entry = 0 if on_board else self.rules.turn.entry_minimum
        good = np.flatnonzero((totals >= max(entry, STEP)) & (totals >= rolls))
        # The solver only stops once banking wins just below its cap, so this is never empty.
        return int(good[0]) * STEP

    def win_chance_rolling(self, total: int, dice: int, need: int) -> float:
        """Chance to end the turn with at least ``need`` banked if the player rolls ``dice`` dice now."""
        _check_dice(dice, allow_none=False)
        short = _steps(need) - _steps(total)
        if short <= 0:
            return 1.0 - float(self.farkle[dice])
        return float(self._win_rows(short)[min(short, WIN_ROWS_MAX), dice])

    def win_chance(self, total: int, dice: int, need: int) -> float:
        """Chance to end the turn with at least ``need`` banked, from here with best play."""
        _check_dice(dice, allow_none=True)
        if total > 0 and total >= need:
            return 1.0
        if dice == 0:
            return 0.0
        return self.win_chance_rolling(total, dice, need)

    def _win_rows(self, short: int) -> Floats:
        # Beyond 100,000 points short the chances are far below anything shown: stop growing there.
        short = min(short, WIN_ROWS_MAX)
        if short >= len(self.win):
            self.win = win_table(self.moves, max(short + 1, 2 * len(self.win)), self.win)
        return self.win


def _steps(points: int) -> int:
    if points < 0:
        raise CoachError(f"turn total {points!r}: cannot be below zero")
    return points // STEP


def _check_dice(dice: int, allow_none: bool) -> None:
    low = 0 if allow_none else 1
    if not low <= dice <= ALL_DICE:
        raise CoachError(f"dice {dice!r}: expected {low} to {ALL_DICE} dice")

