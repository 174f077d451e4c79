"""Example games played through ``scorekeeper.game.Game``.

Every expected number is worked out by hand from the rule texts in ``shared/rules/``; the
comment next to it says how. R = farkle-rules-and-scoring.txt (retail chart), H =
farkle-house-rules-2009.txt, F = farkle-flip-card-game.txt.

Rolls used again and again (retail chart, R):

* ``2 2 3 3 4 6``: no 1, no 5, no three of a kind, only two pairs, no straight: a Farkle.
* ``1 1 1 1 1 1``: six of a kind = 3,000 (better than two lots of three 1s, 2,000, or three
  pairs, 1,500); all six dice score, so hot dice: all six are rolled again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.game import Game, Outcome, Phase, Redone, SaveFileError, Undone, load_game, save_game
from scorekeeper.rules import (
    GameOver,
    IllegalAction,
    IllegalBank,
    IllegalKeep,
    IllegalRoll,
    RuleSet,
    load_rules,
)

FARKLE_ROLL = "2 2 3 3 4 6"
STARTED_AT = "2026-01-01T20:00:00+00:00"


def new_game(rules: RuleSet | str, players: tuple[str, ...] = ("Ann", "Bob"), **kwargs: Any) -> Game:
    if isinstance(rules, str):
        rules = load_rules(rules)
    return Game.new(rules, list(players), started_at=STARTED_AT, **kwargs)


def snapshot(game: Game) -> tuple[Any, Any]:
    return game.state, game.events


def farkle_turn(game: Game) -> None:
    game.roll(FARKLE_ROLL)
    game.farkle()


def bank_six_ones(game: Game, times: int) -> None:
    """Roll six 1s ``times`` times (hot dice each time) and bank: 3,000 x times under retail."""
    for _ in range(times):
        game.roll("1 1 1 1 1 1")
        game.keep("1 1 1 1 1 1")
    game.bank()


def assert_refused(game: Game, action: Callable[[], None], error: type[Exception], *quoted: str) -> str:
    """``action`` raises exactly ``error`` quoting ``quoted`` and leaves state and log as they were."""
    before = snapshot(game)
    with pytest.raises(error) as caught:
        action()
    assert type(caught.value) is error, f"{type(caught.value).__name__}: {caught.value}"
    assert isinstance(caught.value, ValueError)
    message = str(caught.value)
    for text in quoted:
        assert text in message, f"{text!r} not in {message!r}"
    after = snapshot(game)
    assert after[0] == before[0]
    assert after[1] == before[1]
    return message


# --------------------------------------------------------------------------- a turn


def test_a_game_starts_with_the_first_player_to_roll() -> None:
    game = new_game("retail")
    state = game.state
    assert [p.name for p in state.players] == ["Ann", "Bob"]
    assert [p.score for p in state.players] == [0, 0]
    assert state.turn is not None and state.turn.player == 0
    assert (state.turn.total, state.turn.dice_left, state.turn.roll) == (0, 6, None)
    assert state.phase is Phase.TO_ROLL
    assert state.target == 10000  # R: "First past 10,000"


def test_keep_scores_the_kept_dice_and_locks_them() -> None:
    game = new_game("retail")
    game.roll("1 1 5 2 3 4")
    assert game.state.phase is Phase.TO_KEEP
    assert game.state.turn.roll is not None and str(game.state.turn.roll) == "1 1 2 3 4 5"
    game.keep("1 1 5")
    # R: each 1 = 100, each 5 = 50: 100 + 100 + 50 = 250; three dice set aside, three left.
    assert game.state.turn.total == 250
    assert game.state.turn.dice_left == 3
    assert game.state.turn.roll is None
    # Set-aside dice are locked: only the three left can be rolled.
    assert_refused(game, lambda: game.roll("1 2 3 4"), IllegalRoll, "4 dice", "3")
    game.roll("5 2 3")
    game.keep("5")  # + 50
    assert (game.state.turn.total, game.state.turn.dice_left) == (300, 2)


def test_keeping_one_scoring_die_is_enough() -> None:
    # R: "you only have to keep at least one. Leaving a lone 5 in the roll gives you more dice"
    game = new_game("retail")
    game.roll("1 5 2 2 3 4")
    game.keep("1")  # the 5 stays in the roll
    assert (game.state.turn.total, game.state.turn.dice_left) == (100, 5)


def test_hot_dice_gives_all_six_again() -> None:
    game = new_game("retail")
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")  # 250, three dice left
    game.roll("1 5 5")
    game.keep("1 5 5")  # 100 + 50 + 50 = 200: all six dice have scored
    turn = game.state.turn
    assert turn.total == 450
    assert turn.dice_left == 6  # R: "score with all six dice and you can pick them all back up"
    assert turn.hot_dice == 1
    game.roll("2 2 3 3 4 6")  # six dice may be rolled again
    # "Everything you've built is still at risk - Farkle and it's all gone."
    game.farkle()
    assert game.state.players[0].score == 0
    assert game.state.history[-1].outcome is Outcome.FARKLED


def test_farkle_loses_the_turn_total_and_passes_the_turn() -> None:
    game = new_game("retail")
    game.roll("1 2 2 3 4 6")
    game.keep("1")  # 100
    game.roll("2 2 3 3 4")  # five dice, nothing scores
    game.farkle()
    state = game.state
    assert state.players[0].score == 0
    assert state.players[0].farkle_streak == 1
    assert state.turn.player == 1
    assert (state.turn.total, state.turn.dice_left, state.turn.roll) == (0, 6, None)
    record = state.history[-1]
    assert (record.player, record.outcome, record.points, record.score_after) == (0, Outcome.FARKLED, 0, 0)


def test_banked_points_are_safe_from_a_later_farkle() -> None:
    game = new_game("retail")
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()  # Ann 250
    farkle_turn(game)  # Bob
    game.roll("5 2 2 3 3 4")
    game.keep("5")  # 50 at risk
    game.roll("2 2 3 3 4")  # five dice, nothing scores
    game.farkle()
    # R: "your banked score is safe": the 50 is lost, the 250 stays.
    assert game.state.players[0].score == 250
    assert game.state.history[-1].score_after == 250


def test_bank_adds_the_turn_and_passes_the_dice() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")  # R: straight 1,500, hot dice
    game.roll("5 2 2 3 4 6")
    game.keep("5")  # + 50
    game.bank()
    state = game.state
    assert state.players[0].score == 1550
    assert state.players[0].on_board is True
    assert state.turn.player == 1 and state.turn.total == 0
    record = state.history[-1]
    assert (record.outcome, record.points, record.score_after) == (Outcome.BANKED, 1550, 1550)


def test_farkle_refused_when_the_roll_scores() -> None:
    game = new_game("retail")
    game.roll("1 2 2 3 3 4")
    assert_refused(game, game.farkle, IllegalAction, "1 2 2 3 3 4", "not a Farkle")


def test_farkle_refused_when_dice_are_missing() -> None:
    game = new_game("retail")
    game.roll("2 2 3 3 4")  # five of the six dice read
    assert game.state.missing_dice() == 1
    assert_refused(game, game.farkle, IllegalAction, "5 of the 6")
    game.correct(None, 6)  # the missed die shows a 6: still nothing scores
    game.farkle()
    assert game.state.turn.player == 1


def test_farkle_refused_without_a_roll() -> None:
    game = new_game("retail")
    assert_refused(game, game.farkle, IllegalAction, "no roll")


# --------------------------------------------------------------------------- entry minimum


def test_entry_minimum_blocks_the_bank_until_met_house_2009() -> None:
    # H: "Each player must score 1000 points in one turn to 'get on the board'."
    game = new_game("house-2009")
    game.roll("1 5 2 2 3 4")
    game.keep("1 5")  # 100 + 50 = 150, 850 short of 1,000
    message = assert_refused(game, game.bank, IllegalBank, "Ann", "850")
    assert "1,000" in message or "1000" in message
    game.roll("1 1 1 2")
    game.keep("1 1 1")  # H: "3 ones 1,000": 1,150 in all
    game.bank()
    assert game.state.players[0].score == 1150
    assert game.state.players[0].on_board is True
    farkle_turn(game)  # Bob
    # H: "Once a player has gotten on the board they can quit at any time during their turn,
    # regardless of how many points they score during that turn."
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()
    assert game.state.players[0].score == 1200


def test_entry_minimum_counts_one_turn_only() -> None:
    # 600 banked over two turns is not 1,000 "in one turn": each turn is refused on its own.
    game = new_game("house-2009")
    game.roll("1 5 2 2 3 4")
    game.keep("1 5")
    assert_refused(game, game.bank, IllegalBank, "Ann", "850")
    game.roll("2 2 3 6")
    game.farkle()
    assert game.state.players[0].score == 0 and game.state.players[0].on_board is False


def test_entry_500_variant() -> None:
    # R: "Getting on the board: you must bank at least 500 in one turn"
    game = new_game(load_rules("retail", variants=["entry-500"]))
    game.roll("5 5 2 2 3 4")
    game.keep("5 5")  # 50 + 50 = 100, four dice left
    game.roll("1 5 2 3")
    game.keep("1 5")  # + 150 = 250, two dice left
    assert_refused(game, game.bank, IllegalBank, "Ann", "250")
    game.roll("5 2")
    game.keep("5")  # 300, one die left
    assert_refused(game, game.bank, IllegalBank, "Ann", "200")
    game.roll("1")
    game.keep("1")  # 400, hot dice
    assert_refused(game, game.bank, IllegalBank, "Ann", "100")
    game.roll("5 2 2 3 4 6")
    game.keep("5")  # 450
    assert_refused(game, game.bank, IllegalBank, "Ann", "50")
    game.roll("1 2 2 3 4")
    game.keep("1")  # 550
    game.bank()
    assert game.state.players[0].score == 550
    farkle_turn(game)
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()  # on the board: 50 is enough
    assert game.state.players[0].score == 600


def test_retail_has_no_entry_minimum() -> None:
    game = new_game("retail")
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()
    assert game.state.players[0].score == 50


# --------------------------------------------------------------------------- Farkle penalty


def test_three_farkles_in_a_row_cost_1000() -> None:
    # R: "Three Farkles in a row costs you 1,000 points."
    game = new_game(load_rules("retail", variants=["three-farkle-penalty"]))
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")  # straight 1,500
    game.bank()  # Ann 1500
    for _ in range(2):
        farkle_turn(game)  # Bob
        farkle_turn(game)  # Ann
    assert game.state.players[0].farkle_streak == 2
    assert game.state.players[0].score == 1500
    farkle_turn(game)  # Bob's third: he has nothing to lose, the score stays at 0
    assert game.state.players[1].score == 0
    assert game.state.players[1].farkle_streak == 0  # the streak starts over
    farkle_turn(game)  # Ann's third Farkle in a row: 1,500 - 1,000 = 500
    assert game.state.players[0].score == 500
    assert game.state.players[0].farkle_streak == 0
    assert game.state.history[-1].penalty == 1000
    assert game.state.history[-1].score_after == 500


def test_farkle_penalty_stops_at_zero_by_default() -> None:
    game = new_game(load_rules("retail", variants=["three-farkle-penalty"]))
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")  # 1,000
    game.roll("5 2 3")
    game.keep("5")  # + 50
    game.bank()  # Ann 1,050
    farkle_turn(game)  # Bob 1
    farkle_turn(game)  # Ann 1
    farkle_turn(game)  # Bob 2
    farkle_turn(game)  # Ann 2
    farkle_turn(game)  # Bob 3
    farkle_turn(game)  # Ann 3: 1,050 - 1,000 = 50
    assert game.state.players[0].score == 50
    farkle_turn(game)  # Bob 1
    farkle_turn(game)  # Ann 1
    farkle_turn(game)  # Bob 2
    farkle_turn(game)  # Ann 2
    farkle_turn(game)  # Bob 3
    farkle_turn(game)  # Ann 3: 50 - 1,000 stops at 0 (the preset's reading: "your banked score is safe")
    assert game.state.players[0].score == 0
    assert game.state.history[-1].penalty == 50


def test_farkle_penalty_may_go_below_zero_when_the_rules_say_so() -> None:
    rules = load_rules(
        "retail", variants=["three-farkle-penalty"], overrides={"turn": {"penalty_below_zero": True}}
    )
    game = new_game(rules)
    for _ in range(3):
        farkle_turn(game)
        farkle_turn(game)
    assert [p.score for p in game.state.players] == [-1000, -1000]


def test_a_bank_resets_the_farkle_streak() -> None:
    game = new_game(load_rules("retail", variants=["three-farkle-penalty"]))
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")
    game.bank()  # Ann 1500
    farkle_turn(game)  # Bob
    farkle_turn(game)  # Ann 1
    farkle_turn(game)  # Bob
    farkle_turn(game)  # Ann 2
    farkle_turn(game)  # Bob (his third: 0 stays 0)
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()  # Ann 1550, streak back to 0
    assert game.state.players[0].farkle_streak == 0
    farkle_turn(game)  # Bob
    farkle_turn(game)  # Ann: only one Farkle since the bank, no penalty
    assert game.state.players[0].score == 1550
    assert game.state.players[0].farkle_streak == 1
    assert game.state.history[-1].penalty == 0


def test_no_penalty_without_the_variant() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")
    game.bank()
    for _ in range(3):
        farkle_turn(game)
        farkle_turn(game)
    assert game.state.players[0].score == 1500


# --------------------------------------------------------------------------- six of a kind wins


def _house_straight_and_bank(game: Game) -> None:
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")  # H: "A straight (1 through 6) 1,000"; all six scored: hot dice
    game.bank()


def test_six_of_a_kind_wins_on_the_spot_house_2009() -> None:
    # H: "6 of any number equals WINS the game"
    game = new_game("house-2009")
    _house_straight_and_bank(game)  # Ann 1000 (meets the 1,000 entry)
    farkle_turn(game)  # Bob
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")  # 1,000 at risk, hot dice
    game.roll("3 3 3 3 3 3")
    assert game.state.phase is Phase.TO_KEEP  # rolled, but not yet kept: no win yet
    game.keep("3 3 3 3 3 3")
    state = game.state
    assert state.phase is Phase.OVER
    assert state.over is True
    assert state.winners == (0,)
    # The preset's reading: the game is won before anything is scored, so nothing is banked.
    assert state.players[0].score == 1000
    assert state.history[-1].outcome is Outcome.WON
    assert state.history[-1].points == 0
    assert_refused(game, lambda: game.roll("1 2 3"), GameOver, "over")


def test_six_of_a_kind_banks_the_turn_first_when_the_rules_say_so() -> None:
    rules = load_rules("house-2009", overrides={"turn": {"instant_win_banks_turn": True}})
    game = new_game(rules)
    _house_straight_and_bank(game)  # Ann 1000
    farkle_turn(game)
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")  # 1,000
    game.roll("3 3 3 3 3 3")
    game.keep("3 3 3 3 3 3")  # H: "All six dice the same 1,000": turn 2,000
    state = game.state
    assert state.winners == (0,)
    assert state.players[0].score == 1000 + 2000
    assert state.history[-1].outcome is Outcome.WON
    assert state.history[-1].points == 2000


def test_keeping_part_of_six_of_a_kind_does_not_win() -> None:
    game = new_game("house-2009")
    game.roll("4 4 4 4 4 4")
    game.keep("4 4 4")  # H: "3 fours 400"
    assert game.state.over is False
    assert (game.state.turn.total, game.state.turn.dice_left) == (400, 3)


def test_six_of_a_kind_only_scores_under_retail() -> None:
    game = new_game("retail")
    game.roll("3 3 3 3 3 3")
    game.keep("3 3 3 3 3 3")  # R: "Six of a kind 3,000"
    assert game.state.over is False
    assert (game.state.turn.total, game.state.turn.dice_left) == (3000, 6)


# --------------------------------------------------------------------------- the end of the game


def test_reaching_the_target_starts_the_last_lap() -> None:
    game = new_game("retail")
    bank_six_ones(game, 4)  # Ann 12,000 >= 10,000
    state = game.state
    assert state.players[0].score == 12000
    assert state.over is False  # R: "First past 10,000 doesn't end it"
    assert state.lap_mark == 0
    assert state.final_lap is True
    assert state.turn.player == 1
    game.roll("1 2 2 3 4 6")
    game.keep("1")
    game.bank()  # Bob's one more turn: 100
    state = game.state
    assert state.over is True and state.phase is Phase.OVER
    assert state.winners == (0,)
    assert state.turn is None


def test_everyone_else_gets_exactly_one_more_turn() -> None:
    game = new_game("retail", ("Ann", "Bob", "Cid"))
    farkle_turn(game)  # Ann
    bank_six_ones(game, 4)  # Bob 12,000: the last lap starts
    assert game.state.lap_mark == 1
    assert game.state.turn.player == 2
    farkle_turn(game)  # Cid
    assert game.state.over is False and game.state.turn.player == 0
    farkle_turn(game)  # Ann: play comes back to Bob, the lap is over
    assert game.state.over is True
    assert game.state.winners == (1,)
    assert [record.player for record in game.state.history] == [0, 1, 2, 0]


def test_a_late_turn_can_steal_the_game() -> None:
    # R: "the highest total when that lap finishes takes the game - so a big last turn can steal it"
    game = new_game("retail")
    bank_six_ones(game, 4)  # Ann 12,000
    bank_six_ones(game, 5)  # Bob 15,000
    assert game.state.over is True
    assert game.state.winners == (1,)
    assert [p.score for p in game.state.players] == [12000, 15000]


def test_one_lap_does_not_extend_when_the_leader_is_beaten() -> None:
    game = new_game("retail", ("Ann", "Bob", "Cid"))
    bank_six_ones(game, 4)  # Ann 12,000
    bank_six_ones(game, 5)  # Bob 15,000 beats her, but one-lap: no more turns for Ann
    farkle_turn(game)  # Cid
    assert game.state.over is True
    assert game.state.winners == (1,)
    assert_refused(game, lambda: game.roll("1 2 3 4 5 6"), GameOver, "over", "Bob")


def test_extend_final_lap_gives_the_others_another_turn() -> None:
    # H: "let each player have one more turn, each time anyone beats the high scorer"
    game = new_game(load_rules("retail", variants=["extend-final-lap"]), ("Ann", "Bob", "Cid"))
    bank_six_ones(game, 4)  # Ann 12,000: last lap
    bank_six_ones(game, 5)  # Bob 15,000 beats Ann: Cid and Ann each get one more turn
    assert game.state.lap_mark == 1
    farkle_turn(game)  # Cid
    assert game.state.over is False
    assert game.state.turn.player == 0  # Ann plays again
    bank_six_ones(game, 2)  # Ann 18,000 beats Bob: Bob and Cid get one more turn
    assert game.state.lap_mark == 0
    assert game.state.over is False and game.state.turn.player == 1
    farkle_turn(game)  # Bob
    farkle_turn(game)  # Cid: nobody beat Ann
    assert game.state.over is True
    assert game.state.winners == (0,)


def test_extend_final_lap_ends_when_nobody_beats_the_leader() -> None:
    game = new_game(load_rules("retail", variants=["extend-final-lap"]), ("Ann", "Bob", "Cid"))
    bank_six_ones(game, 4)  # Ann 12,000
    bank_six_ones(game, 4)  # Bob 12,000: a tie does not beat her
    assert game.state.lap_mark == 0
    farkle_turn(game)  # Cid
    assert game.state.over is True
    assert game.state.winners == (0, 1)


def test_a_tie_is_shared_by_default() -> None:
    game = new_game("retail")
    bank_six_ones(game, 4)  # Ann 12,000
    bank_six_ones(game, 4)  # Bob 12,000
    assert game.state.over is True
    assert game.state.winners == (0, 1)


def test_a_tie_is_played_off_when_the_rules_say_so() -> None:
    game = new_game(load_rules("retail", overrides={"end": {"ties": "play-off"}}))
    bank_six_ones(game, 4)  # Ann 12,000
    bank_six_ones(game, 4)  # Bob 12,000
    state = game.state
    assert state.over is False
    assert state.play_off == (0, 1)
    assert state.turn.player == 0
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    game.bank()  # Ann 12,050
    assert game.state.over is False and game.state.turn.player == 1
    farkle_turn(game)  # Bob
    assert game.state.over is True
    assert game.state.winners == (0,)
    assert [p.score for p in game.state.players] == [12050, 12000]


def test_a_play_off_that_ties_again_plays_on() -> None:
    game = new_game(load_rules("retail", overrides={"end": {"ties": "play-off"}}))
    bank_six_ones(game, 4)
    bank_six_ones(game, 4)
    farkle_turn(game)  # Ann
    farkle_turn(game)  # Bob: still 12,000 each
    assert game.state.over is False
    assert game.state.play_off == (0, 1)
    assert game.state.turn.player == 0


# --------------------------------------------------------------------------- the card edition


def test_flip_points_cards_and_bank() -> None:
    game = new_game("flip")
    game.enter_points(400, "three 4s")
    game.enter_points(1000, "four 2s")
    assert game.state.turn.total == 1400
    game.bank()  # F: 1,400 in one turn gets Ann on the board (1,000 needed)
    assert game.state.players[0].score == 1400
    game.enter_points(500)
    game.farkle()  # Bob draws a Farkle card: his 500 is lost, he holds the card
    bob = game.state.players[1]
    assert (bob.score, bob.farkle_cards) == (0, 1)
    assert game.state.turn.player == 0
    game.farkle()  # Ann draws one too
    assert game.state.players[0].farkle_cards == 1
    assert game.state.players[0].score == 1400  # F: "Once scores are entered ... they are safe."
    game.enter_points(1000, "four 2s")
    game.bank()  # F: each Farkle card adds 100 when its holder banks: 1,000 + 100
    bob = game.state.players[1]
    assert (bob.score, bob.farkle_cards) == (1100, 0)
    record = game.state.history[-1]
    assert (record.points, record.card_bonus) == (1100, 100)


def test_flip_example_from_the_text() -> None:
    # F: "if you have four twos in the center and stop drawing to take that 1,000 points, and you
    # also have three Farkle Cards in your possession, you would add another 300 to your score."
    game = new_game("flip")
    for _ in range(3):
        game.farkle()  # Ann
        game.farkle()  # Bob
    assert game.state.players[0].farkle_cards == 3
    game.enter_points(1000, "four twos")
    game.bank()
    assert game.state.players[0].score == 1300
    assert game.state.players[0].farkle_cards == 0


def test_flip_entry_counts_the_cards_by_default() -> None:
    game = new_game("flip")
    for _ in range(2):
        game.farkle()
        game.farkle()
    game.enter_points(700)
    # 700 + 2 cards x 100 = 900: 100 short of 1,000
    assert_refused(game, game.bank, IllegalBank, "Ann", "100")
    game.enter_points(100)
    game.bank()  # 800 + 200 = 1,000
    assert game.state.players[0].score == 1000


def test_flip_entry_without_the_cards_when_the_rules_say_so() -> None:
    rules = load_rules("flip", overrides={"turn": {"farkle_cards_count_toward_entry": False}})
    game = new_game(rules)
    for _ in range(2):
        game.farkle()
        game.farkle()
    game.enter_points(800)
    assert_refused(game, game.bank, IllegalBank, "Ann", "200")
    game.enter_points(200)
    game.bank()  # 1,000 of combinations, then the 200 of the cards
    assert game.state.players[0].score == 1200


def test_flip_refuses_dice_actions() -> None:
    game = new_game("flip")
    assert_refused(game, lambda: game.roll("1 1 5"), IllegalAction, "card edition")
    assert_refused(game, lambda: game.keep("1"), IllegalAction, "card edition")
    assert_refused(game, lambda: game.correct(1, 5), IllegalAction, "card edition")


def test_flip_bank_with_nothing_is_refused() -> None:
    game = new_game("flip")
    assert_refused(game, game.bank, IllegalBank, "nothing")


def test_flip_short_target_with_six_players() -> None:
    six = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")
    game = new_game("flip", six, target=5000)
    assert game.state.target == 5000
    with pytest.raises(IllegalAction) as caught:
        new_game("flip", six, target=6025)
    assert "6,025" in str(caught.value)


def test_any_target_from_1000_up_is_played_to_by_any_table() -> None:
    # issue 54: any multiple of 50 from 1,000 up, whatever the rules' own targets and the table's size
    for target in (1000, 5000, 6050, 1_000_000):
        assert new_game("flip", ("Ann", "Bob"), target=target).state.target == target


# --------------------------------------------------------------------------- illegal actions


def test_die_seven_is_refused() -> None:
    game = new_game("retail")
    assert_refused(game, lambda: game.roll("1 7 3"), IllegalRoll, "7", "1 7 3")
    assert_refused(game, lambda: game.roll([1, 7, 3]), IllegalRoll, "7")
    assert_refused(game, lambda: game.roll([0, 2]), IllegalRoll, "0")


def test_seven_dice_are_refused() -> None:
    game = new_game("retail")
    assert_refused(game, lambda: game.roll("1 2 3 4 5 6 1"), IllegalRoll, "7 dice")


def test_empty_roll_is_refused() -> None:
    game = new_game("retail")
    assert_refused(game, lambda: game.roll(""), IllegalRoll, "at least one die")


def test_more_dice_than_left_is_refused() -> None:
    game = new_game("retail")
    game.roll("1 5 2 3 4 4")
    game.keep("1 5")
    assert_refused(game, lambda: game.roll("1 2 3 4 5"), IllegalRoll, "1 2 3 4 5", "5 dice", "4")


def test_keep_not_in_the_roll_is_refused() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 6 6")
    assert_refused(game, lambda: game.keep("1 1"), IllegalKeep, "1 1", "not in the roll")
    assert_refused(game, lambda: game.keep("5"), IllegalKeep, "5", "not in the roll")


def test_keep_with_a_non_scoring_die_is_refused() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 6 6")
    assert_refused(game, lambda: game.keep("1 2"), IllegalKeep, "1 2", "non-scoring die 2")
    assert_refused(game, lambda: game.keep("6 6"), IllegalKeep, "6 6")


def test_keep_without_a_roll_is_refused() -> None:
    game = new_game("retail")
    assert_refused(game, lambda: game.keep("1"), IllegalAction, "keep 1", "roll first")


def test_bank_with_nothing_is_refused() -> None:
    game = new_game("retail")
    assert_refused(game, game.bank, IllegalBank, "nothing")


def test_bank_with_a_roll_on_the_table_is_refused() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 6 6")
    assert_refused(game, game.bank, IllegalBank, "1 2 3 4 6 6")


def test_bank_below_entry_is_refused() -> None:
    game = new_game("house-2009")
    game.roll("5 2 2 3 4 6")
    game.keep("5")
    assert_refused(game, game.bank, IllegalBank, "Ann", "950")


def test_roll_with_a_roll_on_the_table_is_refused() -> None:
    game = new_game("retail")
    game.roll("1 2 3 4 6 6")
    assert_refused(game, lambda: game.roll("5 5"), IllegalAction, "5 5", "1 2 3 4 6 6")


def test_enter_points_that_no_combination_scores_is_refused() -> None:
    game = new_game("retail")
    assert_refused(game, lambda: game.enter_points(30), IllegalAction, "30")
    assert_refused(game, lambda: game.enter_points(0), IllegalAction, "0")
    assert_refused(game, lambda: game.enter_points(-50), IllegalAction, "-50")
    game.roll("1 2 3 4 6 6")
    assert_refused(game, lambda: game.enter_points(100), IllegalAction, "100", "1 2 3 4 6 6")


def test_nothing_is_allowed_after_the_game_ended() -> None:
    game = new_game("retail")
    bank_six_ones(game, 4)
    farkle_turn(game)
    assert game.state.over
    assert_refused(game, lambda: game.roll("1 2 3"), GameOver, "roll 1 2 3", "over")
    assert_refused(game, lambda: game.keep("1"), GameOver, "keep 1", "over")
    assert_refused(game, game.bank, GameOver, "bank", "over")
    assert_refused(game, game.farkle, GameOver, "over")
    assert_refused(game, lambda: game.enter_points(100), GameOver, "100", "over")
    assert_refused(game, lambda: game.correct(1, 2), GameOver, "over")
    assert_refused(game, lambda: game.add_player("Cid"), GameOver, "Cid", "over")


def test_domain_errors_are_value_errors() -> None:
    for error in (IllegalRoll, IllegalKeep, IllegalAction, IllegalBank, GameOver, SaveFileError):
        assert issubclass(error, ValueError)


# --------------------------------------------------------------------------- corrections


def test_correct_a_misread_die() -> None:
    game = new_game("retail")
    game.roll("1 2 3 3 4 6")
    game.correct(3, 5)  # one 3 was really a 5: the roll is a straight
    turn = game.state.turn
    assert turn.roll is not None and str(turn.roll) == "1 2 3 4 5 6"
    assert [str(roll) for roll in turn.rolls] == ["1 2 3 4 5 6"]
    game.keep("1 2 3 4 5 6")
    assert game.state.turn.total == 1500  # R: straight 1,500


def test_correct_adds_a_missed_die() -> None:
    game = new_game("retail")
    game.roll("2 3 4 6 6")
    assert game.state.missing_dice() == 1
    game.correct(None, 5)
    assert str(game.state.turn.roll) == "2 3 4 5 6 6"
    assert game.state.missing_dice() == 0
    game.keep("5")
    assert (game.state.turn.total, game.state.turn.dice_left) == (50, 5)


def test_correct_removes_something_that_is_not_a_die() -> None:
    game = new_game("retail")
    game.roll("1 5 2 2 3 4")
    game.keep("1 5")  # four dice left
    game.roll("1 2 4 4")  # the camera took a button for a 4
    game.correct(4, None)
    assert str(game.state.turn.roll) == "1 2 4"
    assert game.state.missing_dice() == 1


def test_bad_corrections_are_refused() -> None:
    game = new_game("retail")
    assert_refused(game, lambda: game.correct(3, 5), IllegalAction, "no roll")
    game.roll("1 2 3 3 4 6")
    assert_refused(game, lambda: game.correct(5, 6), IllegalRoll, "no 5")
    assert_refused(game, lambda: game.correct(None, 5), IllegalRoll)  # would be seven dice
    assert_refused(game, lambda: game.correct(3, 3), IllegalAction, "changes nothing")
    assert_refused(game, lambda: game.correct(3, 7), IllegalRoll, "7")


# --------------------------------------------------------------------------- undo, redo, players


def test_undo_and_redo_walk_the_log() -> None:
    game = new_game("retail")
    states = [game.state]
    game.roll("1 1 5 2 3 4")
    states.append(game.state)
    game.keep("1 1 5")
    states.append(game.state)
    game.bank()
    states.append(game.state)
    assert game.state.players[0].score == 250
    for expected in reversed(states[:-1]):
        game.undo()
        assert game.state == expected
    for expected in states[1:]:
        game.redo()
        assert game.state == expected
    assert game.can_redo is False
    assert_refused(game, game.redo, IllegalAction, "nothing to redo")


def test_a_new_step_after_undo_drops_the_redo() -> None:
    game = new_game("retail")
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.undo()
    game.keep("1")
    assert game.state.turn.total == 100
    assert game.can_redo is False


def test_undo_with_nothing_to_undo() -> None:
    game = Game.new(load_rules("retail"), [], started_at=STARTED_AT)
    assert_refused(game, game.undo, IllegalAction, "nothing to undo")


def test_add_player() -> None:
    game = new_game("retail")
    game.roll("1 2 2 3 4 6")
    game.keep("1")
    game.bank()  # Ann 100
    game.add_player("Cid")  # joins after Bob
    assert [p.name for p in game.state.players] == ["Ann", "Bob", "Cid"]
    farkle_turn(game)  # Bob
    assert game.state.turn.player == 2
    assert_refused(game, lambda: game.add_player("ann"), IllegalAction, "ann", "already")
    assert_refused(game, lambda: game.add_player("  "), IllegalAction, "empty")


def test_act_with_a_log_marker_is_refused_and_the_game_saves_as_before(tmp_path: Path) -> None:
    game = new_game("retail")
    game.roll(FARKLE_ROLL)
    # not an Action (a misuse of the API): undo and redo have their own methods
    assert_refused(game, lambda: game.act(Undone()), IllegalAction, "Undone()", "not a step of play")  # type: ignore[arg-type]
    assert_refused(game, lambda: game.act(Redone()), IllegalAction, "Redone()", "not a step of play")  # type: ignore[arg-type]
    path = tmp_path / "game.json"
    save_game(game, path)
    assert load_game(path).state == game.state


def test_no_new_player_in_the_last_lap() -> None:
    game = new_game("retail")
    bank_six_ones(game, 4)
    assert_refused(game, lambda: game.add_player("Cid"), IllegalAction, "Cid", "last lap")


# --------------------------------------------------------------------------- save and load


def played_game() -> Game:
    game = new_game(load_rules("house-2009", variants=["three-farkle-penalty"]), ("Ann", "Bob", "Cid"))
    _house_straight_and_bank(game)
    game.roll("2 2 3 3 4")
    game.correct(None, 6)
    game.farkle()
    game.roll("1 5 2 2 3 4", source="camera")
    game.correct(2, 1)
    game.keep("1 1 5")
    game.undo()
    game.undo()
    game.redo()
    game.keep("1 1")
    return game


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    game = played_game()
    path = tmp_path / "game.json"
    save_game(game, path)
    loaded = load_game(path)
    assert loaded.state == game.state
    assert loaded.events == game.events
    assert (loaded.can_undo, loaded.can_redo) == (game.can_undo, game.can_redo)
    # Only the file itself is left behind: no temporary files.
    assert sorted(os.listdir(tmp_path)) == ["game.json"]
    # The loaded game plays on exactly as the original.
    for each in (game, loaded):
        each.roll("1 1 1 2")
        each.keep("1 1 1")
        each.bank()
    assert loaded.state == game.state
    assert loaded.state.players[2].score == 200 + 1000  # 1 1 = 200, then H: "3 ones 1,000"


def test_save_overwrites_an_older_save(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    game = new_game("retail")
    save_game(game, path)
    game.roll("1 2 2 3 4 6")
    game.keep("1")
    save_game(game, path)
    assert load_game(path).events == game.events
    assert sorted(os.listdir(tmp_path)) == ["game.json"]


def _saved(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "game.json"
    save_game(played_game(), path)
    return path, json.loads(path.read_text(encoding="utf-8"))


def _assert_load_refused(path: Path, *quoted: str) -> str:
    before = path.read_bytes()
    with pytest.raises(SaveFileError) as caught:
        load_game(path)
    message = str(caught.value)
    assert str(path) in message
    for text in quoted:
        assert text in message, f"{text!r} not in {message!r}"
    assert path.read_bytes() == before
    return message


def test_a_save_from_a_newer_version_is_refused(tmp_path: Path) -> None:
    path, document = _saved(tmp_path)
    document["version"] = 99
    path.write_text(json.dumps(document), encoding="utf-8")
    _assert_load_refused(path, "newer", "99")


def test_a_truncated_save_is_refused(tmp_path: Path) -> None:
    path, _ = _saved(tmp_path)
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])
    _assert_load_refused(path, "damaged")


def test_a_corrupt_save_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\x00\x01 not json at all {")
    _assert_load_refused(path)
    path.write_text('{"format": "something-else", "version": 1, "events": []}', encoding="utf-8")
    _assert_load_refused(path, "not a scorekeeper")
    path.write_text('{"format": "scorekeeper-game", "version": 1, "events": {}}', encoding="utf-8")
    _assert_load_refused(path, "events")
    path.write_text('{"format": "scorekeeper-game", "version": 1, "events": []}', encoding="utf-8")
    _assert_load_refused(path)


def test_a_save_with_an_unreadable_event_is_refused(tmp_path: Path) -> None:
    path, document = _saved(tmp_path)
    document["events"][3] = {"type": "rolled", "dice": [1, 9]}
    path.write_text(json.dumps(document), encoding="utf-8")
    _assert_load_refused(path, "damaged")
    document["events"][3] = {"type": "teleported"}
    path.write_text(json.dumps(document), encoding="utf-8")
    _assert_load_refused(path, "teleported")


def test_a_save_with_an_event_that_does_not_apply_is_refused(tmp_path: Path) -> None:
    path, document = _saved(tmp_path)
    players = [i for i, event in enumerate(document["events"]) if event["type"] == "player"]
    # A keep straight after the players sat down: there is no roll to keep from.
    document["events"].insert(players[-1] + 1, {"type": "kept", "dice": [1]})
    path.write_text(json.dumps(document), encoding="utf-8")
    _assert_load_refused(path, "damaged", "keep 1")


def test_a_save_with_an_undo_too_many_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_game(Game.new(load_rules("retail"), [], started_at=STARTED_AT), path)
    document = json.loads(path.read_text(encoding="utf-8"))
    document["events"].append({"type": "undo"})
    path.write_text(json.dumps(document), encoding="utf-8")
    _assert_load_refused(path, "undo")


def test_a_missing_save_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.json"
    with pytest.raises(SaveFileError) as caught:
        load_game(path)
    assert str(path) in str(caught.value)
    assert not path.exists()


def test_saving_into_a_missing_directory_fails_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "no-such-dir" / "game.json"
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(SaveFileError) as caught:
        save_game(played_game(), path)
    assert str(path) in str(caught.value)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before
    assert not path.parent.exists()


def test_saving_over_a_directory_fails_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    target.mkdir()
    with pytest.raises(SaveFileError) as caught:
        save_game(played_game(), target)
    assert str(target) in str(caught.value)
    assert sorted(os.listdir(tmp_path)) == ["game.json"]
    assert target.is_dir() and not any(target.iterdir())


def test_undo_never_removes_the_set_up() -> None:
    game = new_game("retail")
    assert game.can_undo is False
    assert_refused(game, game.undo, IllegalAction, "nothing to undo", "players seated at the start stay")
    game.roll("1 2 2 3 4 6")
    game.undo()
    assert [p.name for p in game.state.players] == ["Ann", "Bob"] and game.can_undo is False
