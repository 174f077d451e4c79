"""Undo and redo mean one thing everywhere: the game, its journal and the statistics read a log's
undos and redos alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper.game import Game, GameStarted, PlayerAdded, Undone
from scorekeeper.game.journal import Journal, open_journal
from scorekeeper.rules import IllegalAction, load_rules
from scorekeeper.stats import standing_actions


def played(sink: Journal | None = None) -> Game:
    """A game with steps undone, redone, and undone then overtaken by a new step."""
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=sink.write if sink is not None else None)
    game.roll("1 5 2 3 4 6")
    game.keep("1")
    game.undo()
    game.undo()
    game.redo()  # the roll is back, the keep of 1 stays taken back
    game.keep("1 5")
    game.bank()
    game.roll("2 2 3 4 6 6")
    game.undo()
    game.roll("2 2 3 4 6 3")  # a new step: the undone roll can no longer be redone
    return game


def test_the_game_its_journal_and_the_statistics_stand_on_the_same_steps(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path / "game.jsonl")
    game = played(journal)
    journal.close()
    assert not game.can_redo
    kept = [str(getattr(action, "dice", "")) for action in game.actions]
    assert kept == ["", "", "1 2 3 4 5 6", "1 5", "", "2 2 3 3 4 6"], "the first keep and the first 2 2 3 4 6 6 are gone"
    started, actions = standing_actions(game.events)
    assert isinstance(started, GameStarted) and tuple(actions) == game.actions
    recovered = open_journal(tmp_path / "game.jsonl")
    assert recovered.game.actions == game.actions and recovered.game.state == game.state
    recovered.journal.close()


def test_an_undo_with_nothing_to_undo_is_no_log_anywhere() -> None:
    game = Game.new(load_rules("retail"))
    log = [*game.events, PlayerAdded("Ann"), Undone(), Undone()]
    with pytest.raises(IllegalAction, match="nothing to undo"):
        standing_actions(log)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        Game.from_events(log)
