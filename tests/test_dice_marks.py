"""A die with a mark (issue 54's wild die and red pips): how it reads and writes as text and as a game's
events, how marked dice sort, count and come out of a roll, and that a game whose rules have no use
for a mark refuses it saying which variant would take it."""

from __future__ import annotations

import pytest

from scorekeeper.game import DieCorrected, Game, face_from_str, face_to_str
from scorekeeper.game.commands import Correction, is_dice, parse_correction, parse_dice, parse_line
from scorekeeper.rules import Dice, FarkleError, IllegalRoll, load_rules, read_die


def test_marks_read_after_their_face_and_write_back_sorted_by_face_then_mark() -> None:
    dice = Dice.from_str("1w 1 5r 3")
    assert dice.values == (1, 1, 3, 5)
    assert dice.marks == ("", "w", "", "r")
    assert str(dice) == "1 1w 3 5r"
    assert Dice.from_str(str(dice)) == dice
    assert Dice.from_str("5R1W1,3") == dice
    assert str(Dice.from_str("2 1rw 2r 2")) == "1wr 2 2 2r"


def test_a_plain_roll_prints_and_compares_exactly_as_before() -> None:
    dice = Dice.from_str("615")
    assert repr(dice) == "Dice(values=(1, 5, 6))"
    assert str(dice) == "1 5 6"
    assert dice.marks == ("", "", "")
    assert dice == Dice([6, 5, 1]) == Dice([1, 5, 6], ["", "", ""])
    assert dice.tokens() == [1, 5, 6]


def test_counts_go_by_face_and_taking_dice_out_goes_by_face_and_mark() -> None:
    roll = Dice.from_str("1w 1 5r 5 3")
    assert roll.counts() == (2, 0, 1, 0, 2, 0)
    assert roll.contains(Dice.from_str("1 5r"))
    assert roll.contains(Dice.from_str("1w 1"))
    assert not roll.contains(Dice.from_str("1 1"))
    assert not roll.contains(Dice.from_str("5r 5r"))
    assert roll.without(Dice.from_str("1w 5")) == Dice.from_str("1 3 5r")
    with pytest.raises(ValueError):
        roll.without(Dice.from_str("3r"))


@pytest.mark.parametrize(
    "text, message",
    [
        ("1w 3w", "'1w 3w' has more than one wild die; mark only the die of the other colour with w"),
        ("w1 3", "mark w in 'w1 3' follows no die or repeats; write it right after the die's face, e.g. 1w for the wild die showing 1 or 5r for a 5 with red pips"),
        ("1rr", "mark r in '1rr' follows no die or repeats; write it right after the die's face, e.g. 1w for the wild die showing 1 or 5r for a 5 with red pips"),
        ("1x", "die x in '1x' is not a face of a die (1-6)"),
    ],
)
def test_a_badly_marked_roll_is_refused_saying_what_to_write(text: str, message: str) -> None:
    with pytest.raises(IllegalRoll) as refused:
        Dice.from_str(text)
    assert str(refused.value) == message


def test_a_mark_that_is_no_mark_is_refused_quoting_it() -> None:
    with pytest.raises(IllegalRoll) as refused:
        Dice([1, 2], ["", "x"])
    assert str(refused.value) == "mark 'x' in ['', 'x'] is not a die's mark (w: the wild die, r: red pips)"
    with pytest.raises(IllegalRoll, match="2 dice but 1 marks"):
        Dice([1, 2], ["w"])
    assert read_die("5rw") == (5, "wr")


def test_typed_lines_carry_the_marks() -> None:
    assert is_dice("1w 5r 3") and not is_dice("w 1") and not is_dice("rules")
    assert parse_dice("1w5r3") == Dice([1, 3, 5], ["w", "", "r"])
    assert parse_line("c 1 1w") == Correction(1, "1w")
    assert parse_correction("c5r5") == Correction("5r", 5)
    assert parse_correction("c - 1wr") == Correction(None, "1wr")
    assert face_from_str("6r") == "6r" and face_to_str("6r") == "6r" and face_from_str("4") == 4
    with pytest.raises(FarkleError) as refused:
        face_from_str("5q")
    assert str(refused.value) == "'5q' is not a face of a die (1-6) with its marks (w: the wild die, r: red pips), or '-'"


def _game() -> Game:
    return Game.new(load_rules("retail"), ["Ann"])


@pytest.mark.parametrize(
    "roll, message",
    [
        ("1w 5 2 3 4 4", "roll 1w 2 3 4 4 5: '1w': this game plays without a wild die; add the variant wild-die"),
        ("1 5r 2 3 4 4", "roll 1 2 3 4 4 5r: '5r': this game plays without red-pip faces; add the variant spicy"),
    ],
)
def test_a_game_without_the_variant_refuses_a_marked_roll_naming_the_variant(roll: str, message: str) -> None:
    game = _game()
    with pytest.raises(IllegalRoll) as refused:
        game.roll(roll)
    assert str(refused.value) == message
    assert game.state.turn is not None and game.state.turn.roll is None


def test_a_game_without_the_variant_refuses_a_correction_that_marks_a_die() -> None:
    game = _game()
    game.roll("1 5 2 3 4 4")
    with pytest.raises(IllegalRoll) as refused:
        game.act(DieCorrected(1, "1w"))
    assert str(refused.value) == "correct die 1 to 1w: '1w': this game plays without a wild die; add the variant wild-die"
    assert game.state.turn is not None and str(game.state.turn.roll) == "1 2 3 4 4 5"
