"""Issue 54, item 2: piggyback ("stealing the bank").

No rule text in ``/work/shared/rules/`` has it (the retail text's "a big last turn can steal it" is
the last lap's). The issue, from the farklescorekeeper app: "once a player banks, the next player
may roll only the dice the previous player left, and on scoring adds the previous turn's points to
their own turn; a Farkle loses the whole accumulated pot." Where the issue leaves a choice, the
variant's own description says which (variants.toml): after hot dice the dice left are all six; the
pot counts toward the entry minimum; it is banked only once the new player scores. Every score below
is worked out by hand (R = farkle-rules-and-scoring.txt: three 1s 1,000, three 5s 500, three 6s
600, each 1 100, each 5 50, straight 1,500, two triplets 2,500; H = the house rules of 2009, 1,000
to get on the board).
"""

from __future__ import annotations

import dataclasses
import io
import sys
from pathlib import Path

import pytest

from scorekeeper.game import (
    FreshDice,
    Game,
    Piggybacked,
    Pot,
    describe_turn,
    event_from_dict,
    event_to_dict,
    load_game,
)
from scorekeeper.game.commands import parse_choice
from scorekeeper.game.describe import piggyback_offer_text
from scorekeeper.game.events import Banked, DiceRolled, Kept
from scorekeeper.game.history_edits import with_turn_replaced
from scorekeeper.game.journal import Journal, open_journal
from scorekeeper.rules import (
    Dice,
    IllegalAction,
    IllegalBank,
    IllegalRoll,
    RuleFileError,
    describe_rules,
    load_rules,
    rules_from_table,
    rules_to_table,
    rules_to_toml,
    variant_names,
)

STARTED_AT = "2026-01-01T20:00:00+00:00"


def new_game(rules: str = "retail+piggyback", players: tuple[str, ...] = ("Ann", "Bob"), target: int | None = None) -> Game:
    return Game.new(load_rules(rules), players, target=target, started_at=STARTED_AT)


def bank_1000_leaving_3(game: Game) -> None:
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")  # R: "Three 1s ... 1,000"; 3 dice left
    game.bank()


def scores(game: Game) -> list[int]:
    return [player.score for player in game.state.players]


def said(game: Game) -> str:
    return describe_turn(game.state.history[-1], game.state)


# --------------------------------------------------------------------------- the rules


def test_piggyback_is_a_variant_said_in_plain_words() -> None:
    assert variant_names()["piggyback"] == (
        "Piggyback: after a bank with dice left, the next player may roll those dice for the banked points too"
    )
    rules = load_rules("retail+piggyback")
    assert rules.turn == dataclasses.replace(load_rules("retail").turn, piggyback=True)
    assert (
        "Piggyback: after a bank that left dice to roll, the next player may roll only those dice; scoring with "
        "them adds the banked points to the turn, a Farkle loses them all (or roll six fresh dice)."
    ) in describe_rules(rules)
    assert not [line for line in describe_rules(load_rules("retail")) if "iggyback" in line]


def test_a_rules_file_sets_piggyback_and_an_older_journal_reads_as_without_it(tmp_path: Path) -> None:
    path = tmp_path / "ours.toml"
    path.write_text("base = 'house-2009'\n[turn]\npiggyback = true\n", encoding="utf-8")
    rules = load_rules(path)
    assert rules.turn.piggyback and rules.turn.entry_minimum == 1000
    assert "piggyback = true\n" in rules_to_toml(rules)
    table = rules_to_table(load_rules("retail"))
    del table["turn"]["piggyback"]
    assert rules_from_table(table, "retail", "an older journal") == load_rules("retail")


def test_the_card_edition_has_no_dice_to_piggyback_on() -> None:
    with pytest.raises(RuleFileError) as caught:
        load_rules("flip", ["piggyback"])
    assert "[turn] piggyback needs kind = 'dice'" in str(caught.value)


# --------------------------------------------------------------------------- the game


def test_scoring_on_the_dice_left_carries_the_pot_into_the_turn() -> None:
    game = new_game()
    bank_1000_leaving_3(game)
    assert game.state.pot_offered() == Pot(dice=3, points=1000, banker=0)
    assert piggyback_offer_text(game.state) == "Bob may piggyback on Ann's 1,000 with the 3 dice left, or roll six fresh dice."
    game.piggyback()
    turn = game.state.turn
    assert turn is not None and (turn.total, turn.pot, turn.dice_left, turn.offer) == (1000, 1000, 3, None)
    game.roll("5 2 3")
    game.keep("5")  # 1,000 + 50, 2 dice left
    game.bank()
    assert scores(game) == [1000, 1050]
    assert game.state.history[-1].pot == 1000
    assert said(game) == "Bob banks 1,050 (1,000 of it piggybacked from Ann): now 1,050."
    # Bob's bank left 2 dice and 1,050 (the pot and his 50 together) for Ann in turn
    assert game.state.pot_offered() == Pot(dice=2, points=1050, banker=1)


def test_a_farkle_loses_the_whole_pot() -> None:
    game = new_game()
    bank_1000_leaving_3(game)
    game.piggyback()
    game.roll("5 2 3")
    game.keep("5")
    game.roll("2 3")
    game.farkle()
    assert scores(game) == [1000, 0]
    assert said(game) == (
        "FARKLE! Bob's turn ends and the 1,050 points of this turn (1,000 piggybacked from Ann) are lost; Bob's score stays 0."
    )
    assert game.state.pot_offered() is None  # a Farkle leaves nothing to piggyback on


def test_the_pot_is_banked_only_once_the_player_scores() -> None:
    game = new_game()
    bank_1000_leaving_3(game)
    game.piggyback()
    with pytest.raises(IllegalAction, match="Bob has already piggybacked this turn"):
        game.piggyback()
    assert not game.state.can_bank()
    with pytest.raises(IllegalBank) as caught:
        game.bank()
    assert str(caught.value) == "bank: the 1,000 piggybacked is banked only once Bob scores; roll the 3 dice"


def test_the_choice_is_offered_only_right_after_a_bank_with_dice_left() -> None:
    game = new_game()
    with pytest.raises(IllegalAction, match="there is no pot to piggyback on"):
        game.piggyback()  # the first turn of the game
    bank_1000_leaving_3(game)
    game.roll("1 2 3 4 6 6")  # Bob rolls six fresh dice: the pot is turned down
    assert game.state.pot_offered() is None
    with pytest.raises(IllegalAction, match="the choice is made before the turn's first roll"):
        game.piggyback()
    game.keep("1")
    game.roll("2 3 4 6 6")
    game.farkle()
    assert game.state.pot_offered() is None  # after a Farkle
    bank_1000_leaving_3(game)
    game.fresh_dice()
    assert game.state.pot_offered() is None and game.state.turn is not None and game.state.turn.dice_left == 6
    with pytest.raises(IllegalAction, match="there is no pot to piggyback on"):
        game.fresh_dice()
    plain = new_game("retail")
    bank_1000_leaving_3(plain)
    with pytest.raises(IllegalAction) as caught:
        plain.piggyback()
    assert str(caught.value) == "piggyback: these rules have no piggyback (the variant piggyback)"


def test_after_hot_dice_the_pot_is_on_six_dice_and_with_none_left_there_is_no_pot() -> None:
    game = new_game()
    game.roll("1 1 1 5 5 5")
    game.keep("1 1 1 5 5 5")  # R: two triplets 2,500, hot dice: all six again
    game.bank()
    assert game.state.pot_offered() == Pot(dice=6, points=2500, banker=0)
    no_hot = Game.new(
        load_rules("retail", ["piggyback"], overrides={"turn": {"hot_dice": False}}), ["Ann", "Bob"], started_at=STARTED_AT
    )
    no_hot.roll("1 1 1 5 5 5")
    no_hot.keep("1 1 1 5 5 5")
    no_hot.bank()
    assert no_hot.state.pot_offered() is None  # every die scored and none came back: none left to roll


def test_the_pot_counts_toward_getting_on_the_board() -> None:
    game = new_game("house-2009+piggyback")  # H: "Each player must score 1000 points in one turn"
    bank_1000_leaving_3(game)
    game.piggyback()
    game.roll("5 2 3")
    game.keep("5")
    assert game.state.entry_shortfall() == 0  # 1,000 piggybacked + 50 of his own
    game.bank()
    assert scores(game) == [1000, 1050] and game.state.players[1].on_board


def test_undo_and_redo_go_through_the_choice() -> None:
    game = new_game()
    bank_1000_leaving_3(game)
    offered = game.state
    game.piggyback()
    taken = game.state
    game.undo()
    assert game.state == offered and game.state.pot_offered() == Pot(3, 1000, 0)
    game.redo()
    assert game.state == taken
    game.roll("5 2 3")
    game.keep("5")
    game.bank()
    game.undo()  # Bob's bank
    game.undo()  # his keep
    game.undo()  # his roll
    game.undo()  # the piggyback
    assert game.state == offered
    game.fresh_dice()
    assert game.state.turn is not None and (game.state.turn.total, game.state.turn.dice_left) == (0, 6)


def test_the_choice_reads_and_writes_as_an_event() -> None:
    for event, data in ((Piggybacked(), {"type": "piggybacked"}), (FreshDice(), {"type": "fresh"})):
        assert event_to_dict(event) == data
        assert event_from_dict(data) == event


def test_a_resumed_game_goes_on_with_the_choice_and_the_pot(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "game.jsonl")
    game = Game.new(load_rules("retail+piggyback"), ["Ann", "Bob"], started_at=STARTED_AT, sink=journal.write)
    bank_1000_leaving_3(game)
    journal.close()
    recovered = open_journal(tmp_path / "game.jsonl")
    try:
        assert recovered.game.state == game.state and recovered.game.state.pot_offered() == Pot(3, 1000, 0)
        recovered.game.piggyback()
        recovered.game.roll("1 2 3")
        recovered.game.keep("1")
        recovered.game.bank()
    finally:
        recovered.journal.close()
    again = open_journal(tmp_path / "game.jsonl")
    try:
        assert scores(again.game) == [1000, 1100]
    finally:
        again.journal.close()


def test_a_history_edit_of_the_bank_carries_into_the_piggyback() -> None:
    game = new_game()
    bank_1000_leaving_3(game)
    game.piggyback()
    game.roll("5 2 3")
    game.keep("5")
    game.bank()
    # Ann's turn really was three 5s (R: 500), still with 3 dice left: Bob's pot was 500
    fixed = [DiceRolled(Dice.from_str("5 5 5 2 3 4")), Kept(Dice.from_str("5 5 5")), Banked()]
    edited = Game.from_events(with_turn_replaced(game.events, 0, fixed))
    assert scores(edited) == [500, 550]
    # and if she really kept four dice, the pot she left was on 2 dice, not the 3 Bob rolled
    four = [DiceRolled(Dice.from_str("1 1 1 5 3 4")), Kept(Dice.from_str("1 1 1 5")), Banked()]
    with pytest.raises(IllegalRoll) as caught:
        with_turn_replaced(game.events, 0, four)
    assert "a later step no longer fits: event 8 of the log: roll 2 3 5: 3 dice, but Bob has only 2 to roll" in str(caught.value)


def test_the_typed_words_for_the_choice() -> None:
    assert [parse_choice(word) for word in ("pig", "PIGGYBACK", " fresh ", "f", "b")] == [
        "piggyback", "piggyback", "fresh dice", None, None
    ]


# --------------------------------------------------------------------------- whole typed games


def play(capsys: pytest.CaptureFixture[str], tmp_path: Path, turns: list[tuple[str, ...]], *options: str) -> tuple[Game, str]:
    from scorekeeper.cli import main

    saved = tmp_path / "game.json"
    sys.stdin = io.StringIO("\n".join(step for turn in turns for step in turn) + "\n")
    try:
        status = main(["play", *options, "--players", "Ann,Bob", "--save", str(saved)])
    finally:
        sys.stdin = sys.__stdin__
    assert status == 0
    return load_game(saved), capsys.readouterr().out


# retail + piggyback, to 3,000
PIGGYBACK_GAME = [
    ("111234", "111", "b"),  # Ann 1,000, 3 dice left
    ("pig", "155", "155", "b"),  # Bob: 1,000 + 200 (hot dice, 6 left): 1,200
    ("pig", "223346", "f"),  # Ann on Bob's 1,200 with six dice: Farkle, all lost: 1,000
    ("666234", "666", "b"),  # Bob 600 (no pot after a Farkle): 1,800, 3 dice left
    ("fresh", "555234", "555", "123", "1", "b"),  # Ann 500 + 100: 1,600, 2 dice left
    ("pig", "15", "15", "111555", "111555", "b"),  # Bob: 600 + 150 + 2,500 (two triplets): 3,250: 5,050, the last lap
    ("pig", "111222", "111222", "b"),  # Ann's last turn on Bob's 3,250: + 2,500 = 5,750: 7,350
]


def test_a_whole_typed_game_with_piggyback_ends_with_the_totals_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, out = play(capsys, tmp_path, PIGGYBACK_GAME, "--variant", "piggyback", "--target", "3000")
    history = game.state.history
    assert [record.score_after for record in history] == [1000, 1200, 1000, 1800, 1600, 5050, 7350]
    assert [record.pot for record in history] == [0, 1000, 1200, 0, 0, 600, 3250]
    assert scores(game) == [7350, 5050] and game.state.winners == (0,)
    assert (
        "Bob may piggyback on Ann's 1,000 with the 3 dice left, or roll six fresh dice. "
        "Type 'pig' to piggyback, or 'fresh' (or the six dice rolled)."
    ) in out
    assert "Bob (0), turn 1,000 (1,000 piggybacked, lost on a Farkle): roll 3 dice and type them\n" in out
    assert "FARKLE! Ann's turn ends and the 1,200 points of this turn (1,200 piggybacked from Bob) are lost" in out
    assert "Ann banks 5,750 (3,250 of it piggybacked from Bob): now 7,350." in out
    assert "Game over: Ann wins!" in out


# retail + piggyback + each Farkle 100, to 2,000
PIGGYBACK_PENALTY_GAME = [
    ("111234", "111", "b"),  # Ann 1,000, 3 dice left
    ("pig", "234", "f"),  # Bob on 1,000 with 3 dice: Farkle, the pot lost; the 100 penalty takes nothing: 0
    ("555234", "555", "b"),  # Ann 500: 1,500, 3 dice left
    ("pig", "156", "15", "b"),  # Bob: 500 + 150: 650, 1 die left
    ("pig", "2", "f"),  # Ann on 650 with 1 die: Farkle, 100 off: 1,400
    ("123456", "123456", "b"),  # Bob: straight 1,500 (hot dice): 2,150, the last lap
    ("223346", "f"),  # Ann rolls six fresh dice instead of the pot: Farkle, 100 off: 1,300
]


def test_a_whole_typed_game_with_piggyback_and_a_farkle_penalty_ends_with_the_totals_worked_out_by_hand(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    game, out = play(
        capsys, tmp_path, PIGGYBACK_PENALTY_GAME, "--variant", "piggyback", "--farkle-penalty", "-100", "--target", "2000"
    )
    history = game.state.history
    assert [record.score_after for record in history] == [1000, 0, 1500, 650, 1400, 2150, 1300]
    assert [record.penalty for record in history] == [0, 0, 0, 0, 100, 0, 100]
    assert [record.pot for record in history] == [0, 1000, 0, 500, 650, 0, 0]
    assert scores(game) == [1300, 2150] and game.state.winners == (1,)
    assert (
        "FARKLE! Ann's turn ends and the 650 points of this turn (650 piggybacked from Bob) are lost; "
        "the 100 penalty for a Farkle takes Ann's score to 1,400."
    ) in out
    assert "Game over: Bob wins!" in out
