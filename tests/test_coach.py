"""The coach's policy against independent oracles: exact enumeration, brute-force expectimax, simulation."""

from __future__ import annotations

import functools
import itertools
import math
import random
from fractions import Fraction

import pytest

from scorekeeper.coach import Goal, Policy, Situation, advise, farkle_chance
from scorekeeper.rules import Dice, RuleSet, load_rules, score_roll

STEP = 50


@functools.lru_cache(maxsize=None)
def solved(name: str) -> Policy:
    return Policy.solve(load_rules(name))


def no_hot_dice(name: str, **turn: object) -> RuleSet:
    return load_rules(name, overrides={"turn": {"hot_dice": False, **turn}})


# Farkle chances

# The textbook odds of the standard chart (straight and three pairs score):
# 1 die 2/3, 2 dice 4/9, 3 dice 5/18, 4 dice 17/108, 5 dice 25/324, 6 dice 5/216 (0.02315).
TEXTBOOK = {1: Fraction(2, 3), 2: Fraction(4, 9), 3: Fraction(5, 18), 4: Fraction(17, 108),
            5: Fraction(25, 324), 6: Fraction(5, 216)}


def enumerated_farkle_chance(rules: RuleSet, dice: int) -> Fraction:
    """Every ordered throw of ``dice`` dice, scored one by one."""
    farkles = sum(score_roll(rules, throw).farkle for throw in itertools.product(range(1, 7), repeat=dice))
    return Fraction(farkles, 6**dice)


@pytest.mark.parametrize("dice", range(1, 7))
def test_farkle_chance_matches_exact_enumeration(dice: int) -> None:
    rules = load_rules("retail")
    exact = enumerated_farkle_chance(rules, dice)
    assert exact == TEXTBOOK[dice]
    assert farkle_chance(rules, dice) == exact
    assert solved("retail").farkle_chance(dice) == pytest.approx(float(exact), abs=1e-12)


def test_farkle_chance_follows_the_rules() -> None:
    # Without straight and three pairs, more six-dice rolls score nothing.
    rules = load_rules("retail", overrides={"scoring": {"straight": 0, "three_pairs": 0, "four_of_a_kind_and_pair": 0}})
    exact = enumerated_farkle_chance(rules, 6)
    assert exact > TEXTBOOK[6]
    assert Policy.solve(rules).farkle_chance(6) == pytest.approx(float(exact), abs=1e-12)


# Brute-force expectimax over ordered throws, written apart from the solver.


def brute_value(rules: RuleSet, total: int, dice: int, on_board: bool, farkled: float) -> float:
    """Best expected points from a decision point, trying every keep of every ordered throw (no hot dice)."""

    @functools.lru_cache(maxsize=None)
    def decide(total: int, dice: int) -> float:
        can_bank = total > 0 and (on_board or total >= rules.turn.entry_minimum)
        if dice == 0:
            return float(total) if can_bank else 0.0
        rolled = 0.0
        for throw in itertools.product(range(1, 7), repeat=dice):
            scored = score_roll(rules, throw)
            if scored.farkle:
                rolled += farkled
                continue
            rolled += max(decide(total + o.points, dice - len(o.keep)) for o in scored.options)
        rolled /= 6**dice
        return max(rolled, float(total)) if can_bank else rolled

    return decide(total, dice)


@pytest.mark.parametrize("total", [0, 50, 200, 300, 350, 450, 600, 1000])
@pytest.mark.parametrize("dice", [1, 2, 3])
def test_policy_equals_brute_force_expectimax(total: int, dice: int) -> None:
    rules = no_hot_dice("retail")
    policy = solved_rules(rules)
    assert policy.value(total, dice) == pytest.approx(brute_value(rules, total, dice, True, 0.0), abs=1e-9)


@functools.lru_cache(maxsize=None)
def solved_rules(rules: RuleSet) -> Policy:
    return Policy.solve(rules)


@pytest.mark.parametrize("total", [0, 100, 400, 550, 700])
def test_entry_minimum_and_penalty_equal_brute_force(total: int) -> None:
    rules = no_hot_dice("retail", entry_minimum=500, farkle_penalty=1000, farkle_penalty_streak=3)
    policy = solved_rules(rules)
    for dice in (1, 2, 3):
        off_board = brute_value(rules, total, dice, on_board=False, farkled=0.0)
        assert policy.value(total, dice, on_board=False) == pytest.approx(off_board, abs=1e-9)
        at_risk = brute_value(rules, total, dice, on_board=True, farkled=-1000.0)
        assert policy.value(total, dice, on_board=True, streak=2) == pytest.approx(at_risk, abs=1e-9)
        # A streak that is not one short of the penalty plays as no streak.
        assert policy.value(total, dice, streak=1) == policy.value(total, dice, streak=0)


def test_four_dice_with_entry_minimum_equal_brute_force() -> None:
    rules = no_hot_dice("house-2009")
    policy = solved_rules(rules)
    assert policy.value(0, 4, on_board=False) == pytest.approx(brute_value(rules, 0, 4, False, 0.0), abs=1e-9)
    assert policy.value(250, 4) == pytest.approx(brute_value(rules, 250, 4, True, 0.0), abs=1e-9)


@pytest.mark.parametrize(
    "name",
    [
        "retail", "pocket", "house-2009", "retail+doubling", "retail+three-farkle-penalty+entry-500",
        "retail+farkle-penalty-500+three-farkle-penalty+entry-500+below-zero",
    ],
)
def test_hot_dice_values_are_the_bellman_fixed_point(name: str) -> None:
    """With hot dice a turn has no end to brute-force, so check one step of expectimax
    over every ordered throw against the solved values after it, at states across the table."""
    policy = solved(name)
    rules = policy.rules
    for total, dice, on_board, streak in [(0, 6, True, 0), (300, 2, True, 0), (1000, 4, True, 2),
                                          (250, 3, False, 0), (3000, 5, True, 0), (400, 1, True, 2),
                                          (45_000, 3, True, 0)]:
        farkled = -float(policy.standing(on_board, streak).farkle_cost)
        win = float(rules.end.target)
        rolled = 0.0
        for throw in itertools.product(range(1, 7), repeat=dice):
            scored = score_roll(rules, throw)
            if scored.farkle:
                rolled += farkled
                continue
            best = -math.inf
            for option in scored.options:
                if scored.wins and len(option.keep) == 6:
                    best = max(best, win)
                    continue
                left = dice - len(option.keep)
                left = 6 if left == 0 and rules.turn.hot_dice else left
                best = max(best, policy.value(total + option.points, left, on_board, streak))
            rolled += best
        rolled /= 6**dice
        assert policy.roll_value(total, dice, on_board, streak) == pytest.approx(rolled, rel=1e-12, abs=1e-9)


def test_bank_thresholds_are_where_banking_first_catches_up() -> None:
    policy = solved("retail")
    for dice in range(1, 7):
        at = policy.bank_threshold(dice)
        assert at % STEP == 0 and at > 0
        assert policy.roll_value(at, dice) <= at
        for total in range(STEP, at, STEP):
            assert policy.roll_value(total, dice) > total
    # Fewer dice, less to gain and more to lose: bank sooner (1 die is the exception: it may bring hot dice).
    thresholds = [policy.bank_threshold(dice) for dice in range(2, 7)]
    assert thresholds == sorted(thresholds)


def test_not_on_the_board_never_banks_below_the_entry_minimum() -> None:
    policy = solved("house-2009")
    for dice in range(1, 7):
        assert policy.bank_threshold(dice, on_board=False) >= 1000
    advice = advise(policy, Situation(total=900, dice=1, on_board=False))
    assert not advice.bank and advice.bank_value is None
    assert "100 more to get on the board" in str(advice)
    # On the board the same turn banks.
    assert advise(policy, Situation(total=900, dice=1)).bank


def test_the_penalty_makes_a_player_one_farkle_short_bank_sooner() -> None:
    policy = solved("retail+three-farkle-penalty")
    for dice in range(1, 7):
        assert policy.bank_threshold(dice, streak=2) <= policy.bank_threshold(dice, streak=0)
    assert policy.bank_threshold(3, streak=2) < policy.bank_threshold(3, streak=0)
    assert policy.expected_points_per_turn(streak=2) < policy.expected_points_per_turn()


@pytest.mark.parametrize(("score", "cost"), [(5000, 500), (200, 200), (0, 0)])
@pytest.mark.parametrize("total", [0, 150, 400, 700])
def test_a_penalty_for_each_farkle_equals_brute_force_with_the_score_it_can_take(
    total: int, score: int, cost: int
) -> None:
    # issue 54: each Farkle costs 500, never below zero: a Farkle takes 500, or the score where it is less
    rules = no_hot_dice("retail", each_farkle_penalty=500)
    policy = solved_rules(rules)
    for dice in (1, 2, 3):
        want = brute_value(rules, total, dice, on_board=True, farkled=-float(cost))
        assert policy.value(total, dice, score=score) == pytest.approx(want, abs=1e-9)
    below = solved_rules(no_hot_dice("retail", each_farkle_penalty=500, penalty_below_zero=True))
    want = brute_value(below.rules, total, 2, on_board=True, farkled=-500.0)
    assert below.value(total, 2, score=0) == pytest.approx(want, abs=1e-9)


def test_a_penalty_for_each_farkle_makes_the_coach_bank_sooner_and_say_what_a_farkle_costs() -> None:
    plain, penalty = solved("retail"), solved("retail+farkle-penalty-500")
    for dice in range(1, 7):
        assert penalty.bank_threshold(dice, score=5000) <= plain.bank_threshold(dice)
    assert penalty.bank_threshold(3, score=5000) < plain.bank_threshold(3)
    # 300 with 3 dice: rolling pays without a penalty, not when a Farkle (27.8%) also costs 500
    situation = Situation(total=250, dice=4, roll=Dice.from_str("5 2 3 4"), score=5000)
    assert not advise(plain, situation).bank
    advice = advise(penalty, situation)
    assert advice.bank and advice.farkle_cost == 500
    assert "rolling 3 dice farkles 27.8% of the time (and costs 500 off the score)" in str(advice)
    # with no score to lose, the penalty takes nothing and the advice is the plain one's
    broke = advise(penalty, Situation(total=250, dice=4, roll=Dice.from_str("5 2 3 4"), score=0))
    assert broke.farkle_cost == 0 and not broke.bank
    start = advise(penalty, Situation(total=0, dice=6, score=5000))
    expected = penalty.expected_points_per_turn(score=5000)
    assert str(start) == f"Roll 6 dice: best play adds {expected:,.0f} a turn on average, a Farkle's 500 taken off."


def test_six_of_a_kind_that_wins_is_always_kept_whole() -> None:
    policy = solved("house-2009")
    advice = advise(policy, Situation(total=0, dice=6, roll=Dice.from_str("2 2 2 2 2 2")))
    assert advice.wins and advice.best_keep is not None and len(advice.best_keep.keep) == 6
    assert str(advice) == "Keep 2 2 2 2 2 2: six of a kind wins the game."
    # Under retail six of a kind only scores: keep it and roll the hot dice.
    retail = advise(solved("retail"), Situation(total=0, dice=6, roll=Dice.from_str("2 2 2 2 2 2")))
    assert not retail.wins and retail.dice == 6 and not retail.bank


def test_doubling_changes_what_a_keep_is_worth() -> None:
    roll = Dice.from_str("2 2 2 2 3 4")
    flat = advise(solved("retail"), Situation(total=0, dice=6, roll=roll))
    doubled = advise(solved("retail+doubling"), Situation(total=0, dice=6, roll=roll))
    assert flat.best_keep is not None and doubled.best_keep is not None
    assert (flat.best_keep.points, doubled.best_keep.points) == (1000, 400)
    assert flat.best is not None and doubled.best is not None
    assert flat.best.value > doubled.best.value


def test_the_best_keep_may_leave_points_on_the_table() -> None:
    # 1 1 5 scores 250 but leaves 3 dice; a lone 1 keeps 5 dice rolling, and is worth more.
    advice = advise(solved("retail"), Situation(total=0, dice=6, roll=Dice.from_str("1 1 5 2 3 4")))
    assert advice.best_keep is not None and str(advice.best_keep.keep) == "1"
    values = [keep.value for keep in advice.keeps]
    assert values == sorted(values, reverse=True)


# The last lap


def brute_win(rules: RuleSet, total: int, dice: int, need: int) -> float:
    """Best chance to end the turn with at least ``need``, over every ordered throw (no hot dice)."""
    if total >= need > 0 and total > 0:
        return 1.0
    if dice == 0:
        return 0.0
    chance = 0.0
    for throw in itertools.product(range(1, 7), repeat=dice):
        scored = score_roll(rules, throw)
        if not scored.farkle:
            chance += max(brute_win(rules, total + o.points, dice - len(o.keep), need) for o in scored.options)
    return chance / 6**dice


@pytest.mark.parametrize("need", [100, 300, 500, 800])
def test_last_lap_win_chance_equals_brute_force(need: int) -> None:
    rules = no_hot_dice("retail")
    policy = solved_rules(rules)
    for total, dice in [(0, 3), (50, 2), (200, 3), (400, 1)]:
        assert policy.win_chance(total, dice, need) == pytest.approx(brute_win(rules, total, dice, need), abs=1e-12)


def test_last_lap_advice_plays_to_finish_above_the_leader() -> None:
    policy = solved("retail")
    # For points, 500 with one die banks; a player 1,000 behind must roll on.
    assert advise(policy, Situation(total=500, dice=1)).bank
    behind = advise(policy, Situation(total=500, dice=1, need=1000))
    assert behind.goal is Goal.FINISH_ABOVE_LEADER and not behind.bank
    assert behind.bank_value == 0.0 and behind.roll_value is not None and 0 < behind.roll_value < 1
    assert "finishes above the leader" in str(behind)
    # With enough to pass the leader, bank however many dice are left.
    ahead = advise(policy, Situation(total=1000, dice=6, need=1000))
    assert ahead.bank and ahead.bank_value == 1.0
    # Keeps that are equally sure to get there stay in the engine's order: most points first.
    sure = advise(policy, Situation(total=0, dice=6, roll=Dice.from_str("1 5 2 3 4 4"), need=100))
    assert [(str(k.option.keep), k.value) for k in sure.keeps[:2]] == [("1 5", 1.0), ("1", 1.0)]
    assert sure.keeps[2].value < 1.0 and sure.bank


# Simulation


def play_turn(policy: Policy, rng: random.Random, on_board: bool = True) -> int:
    """One turn played by the policy with fair dice: the points it banks."""
    total, dice = 0, 6
    while True:
        roll = Dice(rng.randint(1, 6) for _ in range(dice))
        advice = advise(policy, Situation(total, dice, roll, on_board=on_board))
        if advice.farkled:
            return 0
        if advice.stuck:
            return 0
        total, dice = advice.total, advice.dice
        if advice.bank:
            return total


@pytest.mark.parametrize(("name", "on_board"), [("retail", True), ("house-2009", False)])
def test_solved_value_matches_a_long_simulation(name: str, on_board: bool) -> None:
    policy = solved(name)
    rng = random.Random(20261130)
    turns = 20_000
    banked = [play_turn(policy, rng, on_board) for _ in range(turns)]
    mean = sum(banked) / turns
    spread = math.sqrt(sum((b - mean) ** 2 for b in banked) / (turns - 1))
    standard_error = spread / math.sqrt(turns)
    # 3.3 standard errors: a correct solver fails this about once in a thousand seeds;
    # an error of a few percent in the values (about 20 points) fails it every time.
    assert abs(mean - policy.expected_points_per_turn(on_board)) < 3.3 * standard_error
    assert standard_error < 7
