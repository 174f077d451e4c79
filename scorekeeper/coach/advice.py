"""Advice for the turn on the table: which keep, then roll or bank, and why.

Most of the game the advice maximizes the points the turn banks. In the last
lap (and in a play-off) points no longer matter, only finishing above the
leader: the advice then maximizes that chance, and says so.

Under the wild-die variant the advice knows whether the wild die is among the dice: the roll on the
table says (its die marked ``w``), and between rolls it is among the dice to roll unless a keep since
they were last all picked up (or the banker's, for a pot taken on) held it.

Under piggyback, a turn offered the pot of the last bank is weighed both ways exactly: taking it on
is the mid-turn state of that many dice and that total (rolling first: the pot is banked only after
scoring), against six fresh dice and nothing.

>>> from scorekeeper.coach.policy import Policy
>>> from scorekeeper.rules import Dice, load_rules
>>> policy = Policy.solve(load_rules("retail"))
>>> advice = advise(policy, Situation(total=0, dice=6, roll=Dice.from_str("1 1 5 2 3 4")))
>>> print(advice.best_keep)
1 for 100
>>> print(advice)
Keep 1 for 100, then roll: rolling 5 dice farkles 7.7% of the time; expected +304 if you roll
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorekeeper.coach.cache import rules_key
from scorekeeper.coach.odds import ALL_DICE, STEP
from scorekeeper.coach.policy import CoachError, Policy
from scorekeeper.game import GameState, Pot
from scorekeeper.game.describe import penalty_reason
from scorekeeper.rules import Dice, GameKind, KeepOption, score_roll

_SAME = 1e-9
"""Values closer than this are a tie; the rules engine's order (more points, fewer dice) breaks it."""


class Goal(enum.Enum):
    """What the advice tries to get the most of."""

    POINTS = "most points"
    """The points this turn banks, on average."""
    FINISH_ABOVE_LEADER = "finish above the leader"
    """The chance to end the turn above the leader's score (last lap, play-off)."""


@dataclass(frozen=True)
class Situation:
    """Everything about the turn that the advice depends on."""

    total: int
    """Points built up this turn."""
    dice: int
    """Dice in play: rolled next, or on the table now."""
    roll: Dice | None = None
    """The roll on the table, if any."""
    on_board: bool = True
    """Whether the player has met the entry minimum."""
    streak: int = 0
    """Farkles in a row so far."""
    score: int | None = None
    """The player's banked score, which a Farkle penalty may not take below zero (None: enough to pay any)."""
    need: int | None = None
    """Last lap: the turn total that finishes above the leader (None: play for points)."""
    offer: Pot | None = None
    """Piggyback: the pot the player may take on before rolling (None: no such choice)."""
    must_score: bool = False
    """Piggyback: the turn's total is all pot taken on, banked only once the player scores."""
    wild: bool = False
    """Wild-die variant: the wild die is among the dice in play (on the table now, or rolled next)."""

    @classmethod
    def of(cls, state: GameState) -> Situation | None:
        """The current turn of ``state``; None when there is no turn to advise on (no dice, or a
        roll with dice missing)."""
        turn, player = state.turn, state.current
        if turn is None or player is None or state.over or state.rules.kind is not GameKind.DICE:
            return None
        if turn.roll is not None and state.roll_score() is None:
            return None  # dice of the roll missing: it is not scored, so there is nothing to weigh yet
        need = None
        if state.final_lap or state.play_off:
            rivals = state.play_off or tuple(range(len(state.players)))
            others = [state.players[seat].score for seat in rivals if seat != turn.player]
            if others:
                need = max(others) - player.score + STEP
                if not player.on_board:
                    need = max(need, state.rules.turn.entry_minimum)
                need = max(need, STEP)
        wild = state.rules.scoring.wild_die and (
            any("w" in mark for mark in turn.roll.marks) if turn.roll is not None else not turn.wild_aside
        )
        return cls(
            turn.total, turn.dice_left, turn.roll, player.on_board, player.farkle_streak, player.score, need,
            state.pot_offered(), turn.pot > 0 and turn.total == turn.pot, wild,
        )


@dataclass(frozen=True)
class PotAdvice:
    """Piggyback: whether to take on the pot the last bank left or roll six fresh dice, valued by
    best play after each."""

    pot: Pot
    """The pot on offer."""
    piggyback_value: float
    """Taking the pot on: the expected points the turn adds (goal POINTS) or the chance to finish
    above the leader."""
    fresh_value: float
    """Six fresh dice: the same."""

    @property
    def take(self) -> bool:
        """Piggyback (True) rather than roll six fresh dice."""
        return self.piggyback_value > self.fresh_value


@dataclass(frozen=True)
class KeepValue:
    """One keep of the roll on the table, valued by best play after it."""

    option: KeepOption
    """The keep and its points."""
    value: float
    """Expected points the turn banks (goal POINTS) or the chance to finish above the leader."""
    bank: bool
    """Best play after this keep banks (True) or rolls on (False)."""
    wins: bool
    """This keep wins the game on the spot."""


@dataclass(frozen=True)
class Advice:
    """What to do now, with the numbers behind it."""

    goal: Goal
    """What the advice maximizes."""
    situation: Situation
    """The turn it advises on."""
    keeps: tuple[KeepValue, ...]
    """Every keep of the roll on the table, best first; empty when there is no roll or it Farkled."""
    bank: bool
    """Bank (after the best keep, or now) rather than roll."""
    total: int
    """Turn total after the best keep (or now)."""
    dice: int
    """Dice left to roll after the best keep (or now): 6 on hot dice, 0 when none are left."""
    bank_value: float | None
    """Value of banking there; None when the rules do not allow it."""
    roll_value: float | None
    """Value of rolling ``dice`` dice there; None when no dice are left."""
    farkle_chance: float | None
    """Chance that rolling ``dice`` dice Farkles; None when no dice are left."""
    entry_minimum: int = 0
    """The rules' entry minimum, for saying how far off the board the player is."""
    farkle_cost: int = 0
    """Points a Farkle this turn would take off the player's score (a penalty), beyond the turn's own."""
    pot: PotAdvice | None = None
    """Piggyback: the choice of the pot or six fresh dice, when it is the player's to make now."""
    farkle_why: str = ""
    """Why a Farkle this turn costs :attr:`farkle_cost`, in a few words ("third Farkle in a row";
    "" when it costs nothing)."""

    @property
    def farkled(self) -> bool:
        """The roll on the table scores nothing."""
        return self.situation.roll is not None and not self.keeps

    @property
    def best(self) -> KeepValue | None:
        """The best keep, if a scoring roll is on the table."""
        return self.keeps[0] if self.keeps else None

    @property
    def best_keep(self) -> KeepOption | None:
        """The dice to keep, if a scoring roll is on the table."""
        return self.keeps[0].option if self.keeps else None

    @property
    def wins(self) -> bool:
        """The best keep wins the game on the spot."""
        return bool(self.keeps) and self.keeps[0].wins

    @property
    def stuck(self) -> bool:
        """No dice left and too few points to bank: the turn can only end empty."""
        return self.dice == 0 and self.bank_value is None

    def __str__(self) -> str:
        return hint_text(self)


def _after_keep(situation: Situation, option: KeepOption, policy: Policy) -> tuple[int, bool]:
    """The dice left to roll after ``option`` (six on hot dice), and whether the wild die is among them."""
    left = situation.dice - len(option.keep)
    if left == 0 and policy.rules.turn.hot_dice:
        return ALL_DICE, policy.rules.scoring.wild_die
    return left, situation.wild and not any("w" in mark for mark in option.keep.marks)


def _value(policy: Policy, situation: Situation, total: int, dice: int, wild: bool) -> float:
    if situation.need is not None:
        return policy.win_chance(total, dice, situation.need, wild)
    return policy.value(total, dice, situation.on_board, situation.streak, situation.score, wild)


def _bank_value(policy: Policy, situation: Situation, total: int) -> float | None:
    if not policy.can_bank(total, situation.on_board) or (situation.must_score and total == situation.total):
        return None
    if situation.need is not None:
        return 1.0 if total >= situation.need else 0.0
    return float(total)


def _roll_value(policy: Policy, situation: Situation, total: int, dice: int, wild: bool) -> float | None:
    if dice == 0:
        return None
    if situation.need is not None:
        return policy.win_chance_rolling(total, dice, situation.need, wild)
    return policy.roll_value(total, dice, situation.on_board, situation.streak, situation.score, wild)


def advise(policy: Policy, situation: Situation) -> Advice:
    """The best play in ``situation`` under the rules ``policy`` was solved for."""
    if not 0 <= situation.dice <= ALL_DICE:
        raise CoachError(f"dice {situation.dice!r}: expected 0 to {ALL_DICE} dice in play")
    goal = Goal.POINTS if situation.need is None else Goal.FINISH_ABOVE_LEADER
    total, dice, wild = situation.total, situation.dice, situation.wild
    entry = policy.rules.turn.entry_minimum
    cost = policy.standing(situation.on_board, situation.streak, situation.score).farkle_cost
    why = penalty_reason(policy.rules.turn, situation.streak + 1) if cost else ""
    keeps: tuple[KeepValue, ...] = ()
    if situation.roll is not None:
        if len(situation.roll) > situation.dice:
            raise CoachError(f"roll {situation.roll}: {len(situation.roll)} dice, but only {situation.dice} are in play")
        scored = score_roll(policy.rules, situation.roll)
        valued = []
        win = 1.0 if situation.need is not None else float(policy.rules.end.target)
        for order, option in enumerate(scored.options):
            if scored.wins and len(option.keep) == ALL_DICE:
                valued.append((win, order, KeepValue(option, win, False, True)))
                continue
            after_total = total + option.points
            after_dice, after_wild = _after_keep(situation, option, policy)
            banked = _bank_value(policy, situation, after_total)
            rolled = _roll_value(policy, situation, after_total, after_dice, after_wild)
            value = _value(policy, situation, after_total, after_dice, after_wild)
            bank = rolled is None or (banked is not None and banked >= rolled)
            valued.append((value, order, KeepValue(option, value, bank, False)))
        top = max((value for value, _, _ in valued), default=0.0)
        # Best value first; keeps that tie with the best stay in the engine's order (more points, fewer dice).
        valued.sort(key=lambda item: (0, 0.0, item[1]) if item[0] >= top - _SAME else (1, -item[0], item[1]))
        keeps = tuple(keep for _, _, keep in valued)
        if not keeps or keeps[0].wins:
            return Advice(goal, situation, keeps, False, total, 0, None, None, None, entry, cost, farkle_why=why)
        best = keeps[0]
        total = total + best.option.points
        dice, wild = _after_keep(situation, best.option, policy)
    banked = _bank_value(policy, situation, total)
    rolled = _roll_value(policy, situation, total, dice, wild)
    bank = rolled is None or (banked is not None and banked >= rolled)
    chance = policy.farkle_chance(dice, wild) if dice else None
    pot = None
    if situation.offer is not None and situation.roll is None:
        offer = situation.offer
        taken = _roll_value(policy, situation, offer.points, offer.dice, not offer.wild_aside)
        assert taken is not None and rolled is not None
        pot = PotAdvice(offer, taken, rolled)
    return Advice(goal, situation, keeps, bank, total, dice, banked, rolled, chance, entry, cost, pot, why)


def advise_state(policy: Policy, state: GameState) -> Advice | None:
    """Advice for the current turn of ``state``; None when there is none to give (or other rules)."""
    situation = Situation.of(state)
    if situation is None or rules_key(state.rules) != rules_key(policy.rules):
        return None
    return advise(policy, situation)


def _points(value: float) -> str:
    return f"{value:,.0f}"


def _percent(chance: float) -> str:
    if 0 < chance < 0.001:
        # Long shots in the last lap still differ: two significant figures, not "0.0%".
        return f"{100 * chance:.2g}%"
    return f"{100 * chance:.1f}%"


def hint_text(advice: Advice) -> str:
    """One line for the table, e.g. "Keep 1 1 5 for 250, then bank: rolling 3 dice farkles 27.8% of the time; ..."."""
    situation = advice.situation
    if advice.pot is not None:
        return pot_text(advice.pot, advice.goal)
    if advice.farkled:
        lost = f"Farkle: no die scores; the turn's {_points(situation.total)} is lost"
        if advice.farkle_cost:
            return f"{lost} and {_points(advice.farkle_cost)} comes off the score ({advice.farkle_why})."
        return lost + "."
    best = advice.best
    if best is not None and best.wins:
        return f"Keep {best.option.keep}: six of a kind wins the game."
    opening = ""
    if best is not None:
        hot = " (hot dice)" if situation.dice == len(best.option.keep) and advice.dice else ""
        opening = f"Keep {best.option.keep} for {_points(best.option.points)}{hot}, then "
    if advice.stuck:
        return opening + "no dice are left and the turn is below the entry minimum: it ends empty."
    if advice.dice == 0:
        return opening + "bank: no dice are left."
    assert advice.farkle_chance is not None and advice.roll_value is not None
    dice = f"{advice.dice} {'die' if advice.dice == 1 else 'dice'}"
    risk = f"rolling {dice} farkles {_percent(advice.farkle_chance)} of the time"
    if advice.farkle_cost and advice.goal is Goal.POINTS:
        risk += f" (and costs {_points(advice.farkle_cost)} off the score)"
    last_lap = advice.goal is Goal.FINISH_ABOVE_LEADER
    need = situation.need or 0
    if best is None and situation.total == 0:
        if last_lap:
            return (
                f"Last lap: {_points(need)} this turn finishes above the leader; "
                f"best play gets there {_percent(advice.roll_value)} of the time."
            )
        if advice.farkle_cost:
            return (
                f"Roll {dice}: best play adds {_points(advice.roll_value)} a turn on average, "
                f"a Farkle's {_points(advice.farkle_cost)} taken off."
            )
        return f"Roll {dice}: best play banks {_points(advice.roll_value)} a turn on average."
    if best is None:
        lead = "Bank now" if advice.bank else "Roll again"
    else:
        lead = opening + ("bank" if advice.bank else "roll")
    if last_lap:
        if advice.bank:
            return f"{lead}: {_points(advice.total)} finishes above the leader (last lap)."
        return (
            f"Last lap, {_points(need)} finishes above the leader. {lead}: {risk}; "
            f"best play gets there {_percent(advice.roll_value)} of the time."
        )
    if advice.bank_value is None and situation.must_score and best is None:
        return (
            f"Roll {dice}: the {_points(situation.total)} piggybacked is banked only once you score; {risk}; "
            f"best play banks {_points(advice.roll_value)} this turn on average."
        )
    if advice.bank_value is None:
        short = advice.entry_minimum - advice.total
        return (
            f"{lead}: {_points(short)} more to get on the board; {risk}; "
            f"best play banks {_points(advice.roll_value)} this turn on average."
        )
    gain = advice.roll_value - advice.bank_value
    return f"{lead}: {risk}; expected {gain:+,.0f} if you roll"


def pot_text(pot: PotAdvice, goal: Goal) -> str:
    """The piggyback choice's line, e.g. "Piggyback: 1,000 on 3 dice banks 835 this turn on average,
    six fresh dice 602."."""
    dice = f"{pot.pot.dice} {'die' if pot.pot.dice == 1 else 'dice'}"
    value = _percent if goal is Goal.FINISH_ABOVE_LEADER else _points
    last_lap = goal is Goal.FINISH_ABOVE_LEADER
    how = ("finishes", "finish") if last_lap else ("banks", "bank")
    when = "above the leader {} of the time (last lap)" if last_lap else "{} this turn on average"
    taken, fresh = value(pot.piggyback_value), value(pot.fresh_value)
    if pot.take:
        return f"Piggyback: {_points(pot.pot.points)} on {dice} {how[0]} {when.format(taken)}, six fresh dice {fresh}."
    return f"Roll six fresh dice: they {how[1]} {when.format(fresh)}, piggybacking {_points(pot.pot.points)} on {dice} {taken}."
