"""The game log replayed step by step: each action with the state before and after it.

Undone steps drop out and redone ones come back, exactly as the game applies
them, so statistics count what stands on the score sheet.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from scorekeeper.game import Action, DiceRolled, Event, GameStarted, GameState, StepsInForce, apply
from scorekeeper.game.state import start
from scorekeeper.rules import Dice, IllegalAction


@dataclass(frozen=True)
class Step:
    """One action of play that stands in the log."""

    before: GameState
    """The state the action was taken in."""
    action: Action
    """What was done."""
    after: GameState
    """The state it led to."""


def standing_actions(events: Iterable[Event]) -> tuple[GameStarted, list[Action]]:
    """The start of the game and the actions that stand once undos and redos are applied."""
    listed = list(events)
    if not listed or not isinstance(listed[0], GameStarted):
        raise IllegalAction("a game's log must begin with the start of the game")
    if any(isinstance(event, GameStarted) for event in listed[1:]):
        raise IllegalAction("a game's log holds a second start of the game")
    return listed[0], StepsInForce.of(listed[1:]).active


def replay(events: Iterable[Event]) -> Iterator[Step]:
    """Every standing action of the log with the states around it."""
    started, actions = standing_actions(events)
    state = start(started)
    for action in actions:
        after = apply(state, action)
        yield Step(state, action, after)
        state = after


def final_state(events: Iterable[Event]) -> GameState:
    """The state the whole log leads to."""
    started, actions = standing_actions(events)
    state = start(started)
    for action in actions:
        state = apply(state, action)
    return state


def rolls_read(events: Iterable[Event]) -> list[tuple[Dice, str]]:
    """Every roll of the game as it stands after corrections, with where it came from ("camera", "typed")."""
    listed = list(events)
    started, actions = standing_actions(listed)
    state = final_state(listed)
    rolls = [roll for record in state.history for roll in record.rolls]
    if state.turn is not None:
        rolls += state.turn.rolls
    sources = [action.source for action in actions if isinstance(action, DiceRolled)]
    # Each roll action adds one roll to its turn and corrections only replace it, so they pair up in order.
    return list(zip(rolls, sources, strict=True))
