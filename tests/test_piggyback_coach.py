"""Issue 54, item 2: the coach weighs piggybacking exactly.

Taking on a pot of P points with n dice is the mid-turn state the solver already values (a total of P,
n dice to roll), except that the player must roll before banking; six fresh dice are the start of a
turn. Checked against a brute-force expectimax over every ordered throw, written apart from the
solver (no hot dice, so that it ends), and against chances worked out by hand in the last lap.
"""

from __future__ import annotations

import functools
import itertools

import pytest

from scorekeeper.coach import Goal, Policy, advise_state, not_counted
from scorekeeper.game import Game, Pot
from scorekeeper.rules import RuleSet, load_rules, score_roll

STARTED_AT = "2026-01-01T20:00:00+00:00"


def brute_rolled(rules: RuleSet, total: int, dice: int) -> float:
    """Expected points banked by rolling ``dice`` dice at ``total`` and playing on best (no hot dice)."""

    @functools.lru_cache(maxsize=None)
    def decide(total: int, dice: int) -> float:
        return float(total) if dice == 0 else max(float(total), rolled(total, dice))

    @functools.lru_cache(maxsize=None)
    def rolled(total: int, dice: int) -> float:
        value = 0.0
        for throw in itertools.product(range(1, 7), repeat=dice):
            scored = score_roll(rules, throw)
            if not scored.farkle:
                value += max(decide(total + o.points, dice - len(o.keep)) for o in scored.options)
        return value / 6**dice

    return rolled(total, dice)


@functools.lru_cache(maxsize=None)
def solved(rules: RuleSet) -> Policy:
    return Policy.solve(rules)


def offered(rules: RuleSet, roll: str, keep: str, target: int | None = None) -> Game:
    game = Game.new(rules, ["Ann", "Bob"], target=target, started_at=STARTED_AT)
    game.roll(roll)
    game.keep(keep)
    game.bank()
    return game


NO_HOT_DICE = load_rules("retail", ["piggyback"], overrides={"turn": {"hot_dice": False}})


@pytest.mark.parametrize(
    ("roll", "keep", "pot", "take"),
    [
        ("1 1 1 2 3 4", "1 1 1", Pot(3, 1000, 0), True),  # R: three 1s 1,000, 3 dice left
        ("1 1 5 5 2 3", "1 1 5 5", Pot(2, 300, 0), False),  # 300 on 2 dice: 4/9 of rolls Farkle
    ],
)
def test_the_pot_is_valued_as_the_brute_force_says(roll: str, keep: str, pot: Pot, take: bool) -> None:
    game = offered(NO_HOT_DICE, roll, keep)
    policy = solved(NO_HOT_DICE)
    advice = advise_state(policy, game.state)
    assert advice is not None and advice.pot is not None and advice.pot.pot == pot
    assert advice.pot.piggyback_value == pytest.approx(brute_rolled(NO_HOT_DICE, pot.points, pot.dice), abs=1e-9)
    assert advice.pot.fresh_value == pytest.approx(policy.expected_points_per_turn(), abs=1e-9)
    assert advice.pot.take is take
    words = str(advice)
    assert words.startswith("Piggyback: 1,000 on 3 dice banks " if take else "Roll six fresh dice: they bank ")


def test_once_piggybacked_the_coach_does_not_bank_the_pot_unscored() -> None:
    game = offered(NO_HOT_DICE, "1 1 1 2 3 4", "1 1 1")
    game.piggyback()
    advice = advise_state(solved(NO_HOT_DICE), game.state)
    assert advice is not None and advice.pot is None and not advice.bank and advice.bank_value is None
    assert str(advice).startswith(
        "Roll 3 dice: the 1,000 piggybacked is banked only once you score; rolling 3 dice farkles 27.8% of the time"
    )


def test_in_the_last_lap_the_chance_is_worked_out_by_hand() -> None:
    rules = load_rules("retail+piggyback")
    # Ann banks 1,050 with 2 dice left, past the 1,000 target: Bob must finish above 1,050. On the
    # pot any score does it, and 2 dice score 5 times in 9 (R: a 1 or a 5 among them; 16 of 36 miss).
    game = offered(rules, "1 1 1 5 2 3", "1 1 1 5", target=1000)
    advice = advise_state(solved(rules), game.state)
    assert advice is not None and advice.goal is Goal.FINISH_ABOVE_LEADER and advice.pot is not None
    assert advice.pot.piggyback_value == pytest.approx(5 / 9, abs=1e-12)
    assert advice.pot.fresh_value < 5 / 9 and advice.pot.take
    assert str(advice).startswith("Piggyback: 1,050 on 2 dice finishes above the leader 55.6% of the time (last lap), six fresh dice ")


def test_the_coach_says_what_it_leaves_out_under_piggyback() -> None:
    assert not_counted(load_rules("retail+piggyback")) == (
        "Piggyback: whether to take on a pot is weighed exactly, but a bank is advised for its own points: "
        "the advice does not weigh what the dice it leaves are worth to the next player.",
    )
    assert not_counted(load_rules("retail")) == ()
