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
    Floats,
    Moves,
    Standing,
    slot,
    solve_standing,
    standings,
    win_table,
    win_value,
)
from scorekeeper.errors import ScorekeeperError
from scorekeeper.rules import MAX_TARGET, GameKind, RuleSet


class CoachError(ScorekeeperError):
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
    """Values per standing: those of :func:`~scorekeeper.coach.solver.standings`, and any other
    (a score too low to pay a penalty whole) solved when first asked for."""
    win: Floats
    """(rows, 8): chance to score at least r more steps (row r) with n dice (column n)."""
    _moves: Moves | None = field(default=None, repr=False)

    @classmethod
    def solve(cls, rules: RuleSet) -> Policy:
        """Solve ``rules`` from scratch (the cache in :mod:`scorekeeper.coach.cache` saves this)."""
        why = cannot_advise(rules)
        if why is not None:
            raise CoachError(why)
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

    def _slot(self, dice: int, wild: bool | None) -> int:
        """The tables' column of ``dice`` dice, the wild die among them where ``wild`` (None: as at
        the start of a turn, among them where the rules have it); wild-die variant only."""
        wild_die = self.rules.scoring.wild_die
        return slot(dice, wild_die and (wild is None or wild))

    def farkle_chance(self, dice: int, wild: bool | None = None) -> float:
        """Chance that rolling ``dice`` dice scores nothing (``wild``: the wild die among them, see :meth:`roll_value`)."""
        _check_dice(dice, allow_none=False)
        return float(self.farkle[self._slot(dice, wild)])

    def standing(self, on_board: bool = True, streak: int = 0, score: int | None = None) -> Standing:
        """The standing of a player after ``streak`` Farkles in a row with a banked ``score`` (None:
        enough to pay any penalty whole, or nothing while off the board, where a score is never above 0)."""
        turn = self.rules.turn
        if score is None:
            score = MAX_TARGET + turn.each_farkle_penalty + turn.farkle_penalty if on_board else 0
        return Standing(on_board or not turn.entry_minimum, turn.farkle_cost(score, streak))

    def _tables(self, standing: Standing) -> Tables:
        """The values of ``standing``, solved now if no table holds them yet."""
        table = self.tables.get(standing)
        if table is None:
            _, rolls = solve_standing(self.rules, self.moves, standing)
            table = self.tables[standing] = Tables(rolls)
        return table

    def can_bank(self, total: int, on_board: bool = True) -> bool:
        """Whether the rules let a player bank ``total``."""
        return total > 0 and (on_board or total >= self.rules.turn.entry_minimum)

    def roll_value(
        self,
        total: int,
        dice: int,
        on_board: bool = True,
        streak: int = 0,
        score: int | None = None,
        wild: bool | None = None,
    ) -> float:
        """Expected points this turn adds to the score (a Farkle's penalty taken off) if the player
        rolls ``dice`` dice now and plays on best. ``wild`` (wild-die variant): whether the wild die
        is among the dice (None: as at the start of a turn, where the rules have it)."""
        _check_dice(dice, allow_none=False)
        standing = self.standing(on_board, streak, score)
        table = self._tables(standing)
        steps = _steps(total)
        column = self._slot(dice, wild)
        if steps < len(table.rolls):
            return float(table.rolls[steps, column])
        # Above the cap every later state banks: one roll, then bank.
        moves = self.moves
        after: Floats = np.where(moves.after == moves.won, win_value(self.rules), (steps + moves.points) * float(STEP))
        return float(moves.roll_values(after, -float(standing.farkle_cost))[column])

    def value(
        self,
        total: int,
        dice: int,
        on_board: bool = True,
        streak: int = 0,
        score: int | None = None,
        wild: bool | None = None,
    ) -> float:
        """Expected points this turn adds to the score from here with best play (``dice`` = 0: no dice
        left; ``wild``: see :meth:`roll_value`)."""
        _check_dice(dice, allow_none=True)
        banked = float(total) if self.can_bank(total, on_board) else None
        if dice == 0:
            return banked if banked is not None else 0.0
        rolled = self.roll_value(total, dice, on_board, streak, score, wild)
        return rolled if banked is None else max(banked, rolled)

    def expected_points_per_turn(self, on_board: bool = True, streak: int = 0, score: int | None = None) -> float:
        """Expected points a turn adds to the score with best play, from six dice and nothing scored."""
        return self.roll_value(0, ALL_DICE, on_board, streak, score)

    def bank_threshold(
        self, dice: int, on_board: bool = True, streak: int = 0, score: int | None = None, wild: bool | None = None
    ) -> int:
        """The smallest turn total (a multiple of 50) at which banking is at least as good as rolling
        ``dice`` dice (``wild``: see :meth:`roll_value`)."""
        _check_dice(dice, allow_none=False)
        rolls = self._tables(self.standing(on_board, streak, score)).rolls[:, self._slot(dice, wild)]
        totals = np.arange(len(rolls)) * STEP
        entry = 0 if on_board else self.rules.turn.entry_minimum
        good = np.flatnonzero((totals >= max(entry, STEP)) & (totals >= rolls))
        # The solver only stops once banking wins just below its cap, so this is never empty.
        return int(good[0]) * STEP

    def win_chance_rolling(self, total: int, dice: int, need: int, wild: bool | None = None) -> float:
        """Chance to end the turn with at least ``need`` banked if the player rolls ``dice`` dice now
        (``wild``: see :meth:`roll_value`)."""
        _check_dice(dice, allow_none=False)
        column = self._slot(dice, wild)
        short = _steps(need) - _steps(total)
        if short <= 0:
            return 1.0 - float(self.farkle[column])
        return float(self._win_rows(short)[min(short, WIN_ROWS_MAX), column])

    def win_chance(self, total: int, dice: int, need: int, wild: bool | None = None) -> float:
        """Chance to end the turn with at least ``need`` banked, from here with best play."""
        _check_dice(dice, allow_none=True)
        if total > 0 and total >= need:
            return 1.0
        if dice == 0:
            return 0.0
        return self.win_chance_rolling(total, dice, need, wild)

    def _win_rows(self, short: int) -> Floats:
        # Beyond 100,000 points short the chances are far below anything shown: stop growing there.
        short = min(short, WIN_ROWS_MAX)
        if short >= len(self.win):
            self.win = win_table(self.moves, max(short + 1, 2 * len(self.win)), self.win)
        return self.win


def cannot_advise(rules: RuleSet) -> str | None:
    """Why the coach gives no advice under ``rules``, in words for the table; None when it does.

    It works out the odds of every roll from the rules, so it says so where the rules do not hold
    them: the card edition, and spicy, where which face of each die has red pips is each die's own.

    >>> from scorekeeper.rules import load_rules
    >>> cannot_advise(load_rules("retail+wild-die")) is None
    True
    >>> print(cannot_advise(load_rules("retail+spicy")))
    The coach cannot advise under spicy: which face of each die has red pips is not in the rules, so the odds of a red face (and of a double score) are unknown to it.
    """
    if rules.kind is not GameKind.DICE:
        return (
            f"The coach has no advice for the card edition ({rules.name}): it works out the odds of dice, "
            "and cards have none it can know."
        )
    if rules.scoring.spicy:
        return (
            "The coach cannot advise under spicy: which face of each die has red pips is not in the rules, "
            "so the odds of a red face (and of a double score) are unknown to it."
        )
    return None


def not_counted(rules: RuleSet) -> tuple[str, ...]:
    """What the coach's advice under ``rules`` leaves out, in words for the table (empty: nothing).

    It plays each turn for the most points that turn adds to the score, so a Farkle's cost beyond
    that turn is not in its sums, nor what a bank leaves the next player under piggyback.

    >>> from scorekeeper.rules import load_rules
    >>> not_counted(load_rules("retail+farkle-penalty-500"))
    ()
    >>> print(not_counted(load_rules("retail+three-farkle-penalty"))[0])
    The 1,000 for 3 Farkles in a row is counted only in the turn it falls due: the advice does not weigh that a Farkle before then brings it nearer.
    """
    turn = rules.turn
    lines = []
    if turn.farkle_penalty and turn.farkle_penalty_streak >= 2:
        lines.append(
            f"The {turn.farkle_penalty:,} for {turn.farkle_penalty_streak} Farkles in a row is counted only in the turn "
            "it falls due: the advice does not weigh that a Farkle before then brings it nearer."
        )
    if turn.piggyback:
        lines.append(
            "Piggyback: whether to take on a pot is weighed exactly, but a bank is advised for its own points: "
            "the advice does not weigh what the dice it leaves are worth to the next player."
        )
    return tuple(lines)


def _steps(points: int) -> int:
    if points < 0:
        raise CoachError(f"turn total {points!r}: cannot be below zero")
    return points // STEP


def _check_dice(dice: int, allow_none: bool) -> None:
    low = 0 if allow_none else 1
    if not low <= dice <= ALL_DICE:
        raise CoachError(f"dice {dice!r}: expected {low} to {ALL_DICE} dice")

