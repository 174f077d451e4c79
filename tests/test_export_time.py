"""Export time linear in the journal's length (issue 51 item 7): replaying a log takes each step a
bounded number of times, however many undos it holds (and a finished turn shares the turns before
it instead of copying them: see :mod:`scorekeeper.game.history`). The times themselves, 1k to 64k events, are measured by ``benchmarks/export_time.py``."""

from __future__ import annotations

import pytest

import scorekeeper.game.game as game_module
from scorekeeper.game import Event, Game, GameState
from scorekeeper.game.events import Action
from scorekeeper.rules import load_rules


def log_with_undos(turns: int) -> tuple[Event, ...]:
    """A game of ``turns`` short turns, a keep undone and done again in each."""
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    for _ in range(turns):
        game.roll("1 2 3 4 6 6")
        game.keep("1")
        game.undo()
        game.redo()
        game.roll("2 3 4 6 6")
        game.farkle()
    return game.events


def test_replaying_a_log_applies_each_step_a_bounded_number_of_times_however_many_undos_it_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    applied: list[Action] = []
    real = game_module.apply

    def counted(state: GameState, action: Action) -> GameState:
        applied.append(action)
        return real(state, action)

    per_event = []
    for turns in (200, 800):
        events = log_with_undos(turns)
        monkeypatch.setattr(game_module, "apply", counted)
        applied.clear()
        replayed = Game.from_events(events)
        monkeypatch.undo()
        assert replayed.state == Game.from_events(events).state
        per_event.append(len(applied) / len(events))
    assert per_event[1] < per_event[0] * 1.2, f"steps applied per event: {per_event[0]:.1f} for 200 turns, {per_event[1]:.1f} for 800"


def test_the_history_grows_by_a_turn_and_a_turn_played_again_after_an_undo_leaves_the_old_one_alone() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    game.roll("2 2 3 3 4 6")
    game.farkle()
    before = game.state.history
    game.roll("2 2 3 3 4 6")
    game.farkle()
    after = game.state.history
    assert list(after) == [*before, after[-1]] and len(before) == 1
    assert after[:1] == tuple(before) and before == (before[0],)
    game.undo()
    game.undo()
    game.roll("1 2 3 4 6 6")
    game.keep("1")
    game.bank()
    assert len(game.state.history) == 2 and game.state.history[-1].points == 100
    assert list(before) == [game.state.history[0]], "a turn played again after an undo leaves the history it grew from as it was"
