"""Editing a finished turn from the history: an edit that cannot stand is refused with what to do,
and the game's log is left as it was."""

from __future__ import annotations

import pytest

from scorekeeper.game import Banked, DiceRolled, Game, Kept
from scorekeeper.game.history_edits import with_turn_replaced
from scorekeeper.rules import Dice, FarkleError, GameOver, load_rules


def two_turns() -> Game:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00")
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()  # Ann 50
    game.roll("1 2 3 3 4 6")
    game.keep("1")
    game.bank()  # Bob 100
    return game


def roll(text: str) -> DiceRolled:
    return DiceRolled(Dice.from_str(text))


def keep(text: str) -> Kept:
    return Kept(Dice.from_str(text))


@pytest.mark.parametrize(
    "turn, actions, message",
    [
        (5, [roll("1 5 2 3 4 6"), keep("1 5"), Banked()], "edit turn 6: there is no such finished turn"),
        (0, [roll("1 5 2 3 4 6"), keep("1 5")], "edit turn 1: the turn does not end; finish it with a bank or a Farkle"),
        (0, [roll("1 5 2 3 4 6"), keep("1 5"), Banked(), roll("5 2 3 4 6 6")], "edit turn 1: the turn is over after step 3; remove the steps after it"),
        (0, [roll("1 5 2 3 4 6"), keep("2"), Banked()], "edit turn 1, step 2: "),
    ],
)
def test_an_edit_that_cannot_stand_is_refused_and_the_log_kept(turn: int, actions: list[object], message: str) -> None:
    game = two_turns()
    before = game.events
    with pytest.raises(FarkleError) as caught:
        with_turn_replaced(game.events, turn, actions)  # type: ignore[arg-type]
    assert str(caught.value).startswith(message) if message.endswith(": ") else str(caught.value) == message
    assert game.events == before


def test_an_edit_that_stands_changes_that_turn_and_every_total_after_it() -> None:
    game = two_turns()
    fixed = with_turn_replaced(game.events, 0, [roll("1 5 2 3 4 6"), keep("1 5"), Banked()])
    assert [p.score for p in Game.from_events(fixed).state.players] == [150, 100]  # R: 100 + 50; Bob's 100 as before


def test_an_edit_after_which_a_later_step_no_longer_fits_is_refused_naming_it() -> None:
    # H: "6 of any number equals WINS the game": had Ann's first turn been six 4s, Bob's turn after it
    # could not have been played
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00")
    game.roll("1 2 3 4 5 6")
    game.keep("1 2 3 4 5 6")
    game.bank()
    game.roll("2 2 3 3 4 6")
    game.farkle()
    with pytest.raises(FarkleError) as caught:
        with_turn_replaced(game.events, 0, [roll("4 4 4 4 4 4"), keep("4 4 4 4 4 4")])
    assert type(caught.value) is GameOver  # event 6: the start, two players, the two edited steps, then the roll
    assert str(caught.value) == "after editing turn 1, a later step no longer fits: event 6 of the log: roll 2 2 3 3 4 6: the game is over (Ann won)"
