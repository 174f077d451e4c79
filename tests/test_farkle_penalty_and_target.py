"""Issue 54, item 1: any target, and a penalty for each Farkle (with a score that may go below zero).

The rule texts in ``/work/shared/rules/`` have neither: they say the opposite of a penalty ("your
banked score is safe", R; "Once points are recorded they cannot be lost", H) and name only the
card edition's shorter games (F: "you may decide to play to only 5,000 or 7,500 points"). The
issue asks for both as house rules: "--target N takes any multiple of 50 from 1,000 up"; "a penalty
for each Farkle (0 by default, e.g. -100 or -500), and whether scores may go below zero". Every
score below is worked out by hand from those words (R = farkle-rules-and-scoring.txt).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from scorekeeper.game import Game, describe_turn, load_game, save_game
from scorekeeper.game.events import Banked, DiceRolled, Farkled, Kept
from scorekeeper.game.journal import with_turn_replaced
from scorekeeper.rules import (
    Dice,
    RuleFileError,
    describe_rules,
    load_rules,
    rules_from_table,
    rules_to_table,
    rules_to_toml,
    variant_names,
)

STARTED_AT = "2026-01-01T20:00:00+00:00"
NOTHING = "2 2 3 3 4 6"
"""Six dice that score nothing under every preset (R: "2s, 3s, 4s and 6s are worth nothing")."""


def new_game(rules: str, players: tuple[str, ...] = ("Ann", "Bob"), target: int | None = None) -> Game:
    return Game.new(load_rules(rules), players, target=target, started_at=STARTED_AT)


def farkle(game: Game) -> None:
    game.roll(NOTHING)
    game.farkle()


def bank_1000(game: Game) -> None:
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")  # R: "Three 1s ... 1,000"
    game.bank()


def scores(game: Game) -> list[int]:
    return [player.score for player in game.state.players]


def said(game: Game) -> str:
    return describe_turn(game.state.history[-1], game.state)


# --------------------------------------------------------------------------- the rules


def test_the_penalty_and_below_zero_are_variants_in_words() -> None:
    described = variant_names()
    assert described["farkle-penalty-N"] == "Each Farkle costs N points"
    assert described["below-zero"] == "A Farkle penalty may take a score below zero"
    rules = load_rules("retail+farkle-penalty-500+below-zero")
    assert rules.turn == dataclasses.replace(load_rules("retail").turn, each_farkle_penalty=500, penalty_below_zero=True)
    assert (rules.scoring, rules.end) == (load_rules("retail").scoring, load_rules("retail").end)
    assert load_rules(rules.name) == rules  # the name a game keeps loads the same rules again


def test_the_penalty_is_said_in_the_rules_in_plain_words() -> None:
    lines = describe_rules(load_rules("retail+farkle-penalty-100"))
    assert "Each Farkle costs 100 off the score (never below zero)." in lines
    both = describe_rules(load_rules("retail+farkle-penalty-500+three-farkle-penalty+below-zero"))
    assert "Each Farkle costs 500 off the score (it may take a score below zero)." in both
    assert "3 Farkles in a row cost 1,000 more." in both
    assert not [line for line in describe_rules(load_rules("retail")) if "Each Farkle" in line]


@pytest.mark.parametrize(
    ("variant", "words"),
    [
        ("farkle-penalty-525", "[turn] each_farkle_penalty = 525: expected a whole number of points >= 0, a multiple of 50"),
        ("farkle-penalty-100050", "[turn] each_farkle_penalty = 100050: expected a whole number of points >= 0"),
        ("farkle-penalty-x", "no variant named 'farkle-penalty-x'"),
        ("farkle-penalty-N", "no variant named 'farkle-penalty-N'"),
    ],
)
def test_a_penalty_that_is_not_a_number_of_points_is_refused_saying_what_is(variant: str, words: str) -> None:
    with pytest.raises(RuleFileError) as caught:
        load_rules("retail", [variant])
    assert words in str(caught.value)
    if "no variant" in words:
        assert "farkle-penalty-N (a number for N: farkle-penalty-500)" in str(caught.value)


def test_a_rules_file_sets_the_penalty_and_writes_it_back(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text("[turn]\neach_farkle_penalty = 100\npenalty_below_zero = true\n[end]\ntarget = 3000\n", encoding="utf-8")
    rules = load_rules(path)
    assert (rules.turn.each_farkle_penalty, rules.turn.penalty_below_zero, rules.end.target) == (100, True, 3000)
    assert "each_farkle_penalty = 100\n" in rules_to_toml(rules)
    again = tmp_path / "again.toml"
    again.write_text(rules_to_toml(rules), encoding="utf-8")
    assert dataclasses.replace(load_rules(again), name=rules.name) == rules


def test_a_game_saved_before_the_penalty_existed_reads_as_without_one() -> None:
    # an older journal holds every field of its day, not each_farkle_penalty
    table = rules_to_table(load_rules("retail+three-farkle-penalty"))
    del table["turn"]["each_farkle_penalty"]
    rules = rules_from_table(table, "retail+three-farkle-penalty", "an older journal")
    assert rules == load_rules("retail+three-farkle-penalty")


# --------------------------------------------------------------------------- the game


def test_each_farkle_costs_the_penalty_but_never_below_zero() -> None:
    game = new_game("retail+farkle-penalty-500")
    bank_1000(game)  # Ann 1,000
    farkle(game)  # Bob has nothing: the penalty takes nothing
    assert scores(game) == [1000, 0]
    assert said(game) == (
        "FARKLE! Bob's turn ends with no points scored this turn; with no points the 500 penalty for a Farkle "
        "takes nothing: Bob's score stays 0."
    )
    farkle(game)  # Ann: 1,000 - 500
    assert scores(game) == [500, 0]
    assert said(game) == (
        "FARKLE! Ann's turn ends with no points scored this turn; the 500 penalty for a Farkle takes Ann's score to 500."
    )
    assert game.state.history[-1].penalty == 500
    farkle(game)  # Bob
    game.roll("1 5 2 3 4 6")
    game.keep("1")
    game.roll("2 2 3 3 4")
    game.farkle()  # Ann, with 100 this turn: lost, then 500 more
    assert scores(game) == [0, 0]
    assert said(game) == (
        "FARKLE! Ann's turn ends and the 100 points of this turn are lost; the 500 penalty for a Farkle "
        "takes Ann's score to 0."
    )


def test_below_zero_the_penalty_is_paid_in_full() -> None:
    game = new_game("retail+farkle-penalty-100+below-zero")
    farkle(game)  # Ann: 0 - 100
    farkle(game)  # Bob: 0 - 100
    farkle(game)  # Ann: -200
    assert scores(game) == [-200, -100]
    bank_1000(game)  # Bob: -100 + 1,000
    assert scores(game) == [-200, 900]
    assert [record.penalty for record in game.state.history] == [100, 100, 100, 0]


def test_a_penalty_larger_than_the_score_takes_only_what_there_is() -> None:
    game = new_game("retail+farkle-penalty-500")
    game.roll("1 5 2 3 4 6")
    game.keep("1 5")
    game.bank()  # Ann 150
    farkle(game)  # Bob
    farkle(game)  # Ann: 150 - 500 stops at 0
    assert scores(game) == [0, 0]
    assert game.state.history[-1].penalty == 150
    assert said(game).endswith("the 500 penalty for a Farkle takes only the 150 Ann had: Ann's score is now 0.")


def test_the_third_farkle_in_a_row_costs_both_penalties() -> None:
    # R: "Three Farkles in a row costs you 1,000 points", on top of the 500 each Farkle costs
    game = new_game("retail+farkle-penalty-500+three-farkle-penalty", ("Ann",))
    for _ in range(3):
        bank_1000(game)  # Ann 3,000
    farkle(game)
    farkle(game)  # 3,000 - 500 - 500
    assert scores(game) == [2000]
    farkle(game)  # the third in a row: 500 + 1,000
    assert scores(game) == [500]
    assert said(game).endswith(
        "the 1,500 penalty (500 for a Farkle, 1,000 for 3 Farkles in a row) takes Ann's score to 500."
    )
    farkle(game)  # the count starts again: 500 only, which is all there is
    assert scores(game) == [0]
    assert game.state.players[0].farkle_streak == 1


def test_undo_redo_history_edits_and_a_saved_game_carry_the_penalty(tmp_path: Path) -> None:
    game = new_game("retail+farkle-penalty-500")
    bank_1000(game)  # Ann 1,000
    bank_1000(game)  # Bob 1,000
    farkle(game)  # Ann 500
    assert scores(game) == [500, 1000]
    game.undo()  # the Farkle taken back: the roll is on the table again, the penalty gone
    assert scores(game) == [1000, 1000] and game.state.turn is not None and game.state.turn.roll == Dice.from_str(NOTHING)
    game.redo()
    assert scores(game) == [500, 1000]
    # Bob's turn, played again as a Farkle, costs him 500 and every total after follows
    edited = Game.from_events(
        with_turn_replaced(game.events, 1, [DiceRolled(Dice.from_str(NOTHING)), Farkled()])
    )
    assert [player.score for player in edited.state.players] == [500, 0]
    # and Ann's Farkle played again as a bank of 1,000 takes the penalty away
    banked = Game.from_events(
        with_turn_replaced(
            game.events, 2, [DiceRolled(Dice.from_str("1 1 1 2 3 4")), Kept(Dice.from_str("1 1 1")), Banked()]
        )
    )
    assert [player.score for player in banked.state.players] == [2000, 1000]
    path = tmp_path / "game.json"
    save_game(game, path)
    again = load_game(path)
    assert again.state == game.state and again.state.rules.turn.each_farkle_penalty == 500


# --------------------------------------------------------------------------- the target


@pytest.mark.parametrize("target", [1000, 3050, 10_000, 25_000, 1_000_000])
def test_any_multiple_of_50_from_1000_up_is_a_target(target: int) -> None:
    assert new_game("house-2009", target=target).state.target == target


def test_the_game_ends_at_its_own_target() -> None:
    game = new_game("retail", target=2000)
    bank_1000(game)  # Ann 1,000
    bank_1000(game)  # Bob 1,000
    bank_1000(game)  # Ann reaches 2,000: R "Everyone else gets one more turn"
    assert game.state.final_lap and not game.state.over
    bank_1000(game)  # Bob's last turn ties her at 2,000: the presets share a tie
    assert game.state.over and game.state.winners == (0, 1)


def test_without_a_target_the_presets_play_to_their_own() -> None:
    assert [new_game(name).state.target for name in ("retail", "pocket", "house-2009", "flip")] == [10_000] * 4
