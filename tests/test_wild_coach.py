"""Issue 54, items 3 and 4: the coach under the wild die and spicy.

Under the wild die the coach advises exactly: its state gains whether the wild die is among the dice to
roll (a wild die kept stays aside until all six are picked up again), and its values are checked
against a brute-force expectimax over every ordered throw, the wild die the first die of each throw
where it is among them, written apart from the solver (no hot dice, so that it ends). Under spicy it
cannot (which face of each die has red pips is each die's own, not in the rules), and says so in
``coach``, ``coach --json`` and the window's hint, never advising by other rules.
"""

from __future__ import annotations

import functools
import itertools
import json

import pytest
from pytestqt.qtbot import QtBot

from scorekeeper.cli import main
from scorekeeper.coach import CoachError, Policy, Situation, advise_state, cannot_advise, policy_for
from scorekeeper.game import Game, Pot
from scorekeeper.rules import Dice, RuleSet, load_rules, score_roll
from scorekeeper.ui.coach_hint import CoachHint

STARTED_AT = "2026-01-01T20:00:00+00:00"
NO_HOT_DICE = load_rules("retail", ["wild-die"], overrides={"turn": {"hot_dice": False}})
WILD = load_rules("retail+wild-die")


def brute_rolled(rules: RuleSet, total: int, dice: int, wild: bool) -> float:
    """Expected points banked by rolling ``dice`` dice at ``total`` (the wild die the first of them
    where ``wild``) and playing on best, no hot dice."""

    @functools.lru_cache(maxsize=None)
    def decide(total: int, dice: int, wild: bool) -> float:
        return float(total) if dice == 0 else max(float(total), rolled(total, dice, wild))

    @functools.lru_cache(maxsize=None)
    def rolled(total: int, dice: int, wild: bool) -> float:
        value = 0.0
        marks = ("w",) + ("",) * (dice - 1) if wild else ("",) * dice
        for throw in itertools.product(range(1, 7), repeat=dice):
            scored = score_roll(rules, Dice(throw, marks))
            if not scored.farkle:
                value += max(
                    decide(total + o.points, dice - len(o.keep), wild and "w" not in o.keep.marks) for o in scored.options
                )
        return value / 6**dice

    return rolled(total, dice, wild)


@functools.lru_cache(maxsize=None)
def solved(rules: RuleSet) -> Policy:
    return Policy.solve(rules)


@pytest.mark.parametrize("total", [0, 300, 1000])
@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("wild", [True, False])
def test_the_wild_die_values_match_a_brute_force_over_every_throw(total: int, dice: int, wild: bool) -> None:
    policy = solved(NO_HOT_DICE)
    assert policy.roll_value(total, dice, wild=wild) == pytest.approx(brute_rolled(NO_HOT_DICE, total, dice, wild), abs=1e-6)


def test_the_wild_die_among_the_dice_is_worth_points_but_no_farkle_odds() -> None:
    policy = solved(WILD)
    plain = solved(load_rules("retail"))
    for dice in range(1, 6):
        # the wild 1 scores at least as a 1, so it never turns a Farkle into a score: the same odds
        assert policy.farkle_chance(dice, wild=True) == pytest.approx(plain.farkle_chance(dice))
    for dice in range(3, 6):
        # but with two more dice it can make three of a kind: rolling with it is worth more (with one
        # or two dice the wild 1 can only be a 1)
        assert policy.roll_value(300, dice, wild=True) > policy.roll_value(300, dice, wild=False)
    assert policy.roll_value(300, 2, wild=True) == pytest.approx(policy.roll_value(300, 2, wild=False))
    assert policy.roll_value(300, 3, wild=False) == pytest.approx(plain.roll_value(300, 3), rel=0.2)
    assert policy.expected_points_per_turn() > plain.expected_points_per_turn()


def game(rules: RuleSet = WILD) -> Game:
    return Game.new(rules, ["Ann", "Bob"], started_at=STARTED_AT)


def test_the_advice_follows_the_wild_die_from_the_roll_to_the_dice_left() -> None:
    g = game()
    g.roll("1w 5 2 3 4 6")  # the roll on the table says the wild die is in it
    situation = Situation.of(g.state)
    assert situation is not None and situation.wild
    g = game()
    g.roll("1w 5 2 3 4 4")
    g.keep("1w")
    situation = Situation.of(g.state)
    assert situation is not None and not situation.wild and situation.dice == 5
    g.roll("1 5 2 3 4")  # the wild die lies aside: this roll has none
    advice = advise_state(solved(WILD), g.state)
    assert advice is not None and not advice.situation.wild
    g = game()
    g.roll("1w 5 2 3 4 4")
    g.keep("5")  # the wild die is rolled again with the four others
    situation = Situation.of(g.state)
    assert situation is not None and situation.wild and situation.dice == 5
    advice = advise_state(solved(WILD), g.state)
    assert advice is not None and advice.roll_value == pytest.approx(solved(WILD).roll_value(50, 5, wild=True))


def test_hot_dice_pick_the_wild_die_up_again_and_a_pot_keeps_where_it_lies() -> None:
    g = game(load_rules("retail+wild-die+piggyback"))
    g.roll("1w 1 1 2 3 4")
    g.keep("1 1 1")  # plain 1s first: the two plain 1s and the wild one: three 1s, 1,000
    assert g.state.turn is not None and g.state.turn.wild_aside
    g.bank()
    assert g.state.pot_offered() == Pot(3, 1000, 0, wild_aside=True)
    advice = advise_state(solved(load_rules("retail+wild-die+piggyback")), g.state)
    assert advice is not None and advice.pot is not None
    policy = solved(load_rules("retail+wild-die+piggyback"))
    assert advice.pot.piggyback_value == pytest.approx(policy.roll_value(1000, 3, wild=False))
    assert advice.pot.fresh_value == pytest.approx(policy.roll_value(0, 6, wild=True))
    g.piggyback()
    assert g.state.turn is not None and g.state.turn.wild_aside and g.state.turn.dice_left == 3
    g.roll("1 5 5")  # hot dice: 1 5 5, all six picked up again, the wild die with them
    g.keep("1 5 5")
    assert g.state.turn is not None and not g.state.turn.wild_aside and g.state.turn.dice_left == 6


# --------------------------------------------------------------------------- spicy: said plainly

SPICY_WORDS = (
    "The coach cannot advise under spicy: which face of each die has red pips is not in the rules, "
    "so the odds of a red face (and of a double score) are unknown to it."
)


def test_spicy_is_refused_by_the_solver_saying_why() -> None:
    assert cannot_advise(load_rules("retail+spicy")) == SPICY_WORDS
    assert cannot_advise(load_rules("retail+wild-die+spicy")) == SPICY_WORDS
    with pytest.raises(CoachError) as refused:
        policy_for(load_rules("retail+spicy"))
    assert str(refused.value) == SPICY_WORDS


def test_coach_says_it_cannot_advise_under_spicy_in_words_and_in_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "--rules", "retail+spicy"]) == 0
    assert capsys.readouterr().out == f"No advice under retail+spicy. {SPICY_WORDS}\n"
    assert main(["coach", "--rules", "retail+spicy", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["rules"] == "retail+spicy" and result["cannot_advise"] == SPICY_WORDS
    assert result["bank_at"] is None and result["expected_points_per_turn"] is None


def test_coach_shows_the_wild_die_kept_and_among_the_dice(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["coach", "--rules", "retail+wild-die", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    policy = policy_for(WILD)
    assert result["cannot_advise"] is None
    assert result["bank_at"]["3"] == policy.bank_threshold(3, wild=True)
    assert result["bank_at_with_the_wild_die_kept"]["3"] == policy.bank_threshold(3, wild=False)
    assert list(result["bank_at_with_the_wild_die_kept"]) == ["1", "2", "3", "4", "5"]
    assert main(["coach", "--rules", "retail+wild-die"]) == 0
    assert "With the wild die among the dice left (as the turn starts), and with it kept:" in capsys.readouterr().out


def test_the_window_hint_says_it_cannot_advise_under_spicy(qtbot: QtBot) -> None:
    hint = CoachHint()
    qtbot.addWidget(hint)
    g = game(load_rules("retail+spicy"))
    g.roll("1r 5 2 3 4 4")
    hint.show_state(g.state)
    assert hint.advice() is None and hint.best_keep() is None
    assert hint.hint_text() == SPICY_WORDS
