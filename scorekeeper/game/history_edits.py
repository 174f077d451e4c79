"""Editing a game's history: its steps cut into turns (:func:`segments`), and a new log in which
one finished turn was played another way (:func:`with_turn_replaced`), every later step replayed
on top so all totals follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from scorekeeper.game.events import PICTURE_FIELDS, Action, Event, GameStarted, PlayerAdded, StepsInForce
from scorekeeper.game.game import Game
from scorekeeper.game.state import apply, start
from scorekeeper.rules import FarkleError, IllegalAction


@dataclass(frozen=True)
class Segment:
    """A stretch of a game's steps: one player's turn, or a player taking a seat."""

    actions: tuple[Action, ...]
    """The steps, in order."""
    turn: int | None
    """Index of the turn in the game's history (None for a seat taken, or the turn still being played)."""


def segments(events: Sequence[Event]) -> list[Segment]:
    """The game's steps cut into turns (and seats taken), in order of play.

    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("5 2 3 4 6 6"); game.keep("5"); game.bank(); game.roll("2 2 3")
    >>> [(len(s.actions), s.turn) for s in segments(game.events)]
    [(1, None), (1, None), (3, 0), (1, None)]
    """
    first = events[0]
    assert isinstance(first, GameStarted)
    state = start(first)
    found: list[Segment] = []
    turn: list[Action] = []
    for action in StepsInForce.of(events).active:
        finished = len(state.history)
        state = apply(state, action)
        if isinstance(action, PlayerAdded):
            found.append(Segment((action,), None))
            continue
        turn.append(action)
        if len(state.history) > finished:
            found.append(Segment(tuple(turn), finished))
            turn = []
    if turn:
        found.append(Segment(tuple(turn), None))
    return found


def with_turn_replaced(events: Sequence[Event], turn: int, actions: Sequence[Action]) -> list[Event]:
    """A new log in which finished turn ``turn`` was played as ``actions``; everything after is
    replayed on top, so all totals follow. Raises the game's error, naming the step, if the
    edited turn does not end a turn or a later step no longer applies.

    >>> from scorekeeper.game import Banked, DiceRolled, Kept
    >>> from scorekeeper.rules import Dice, load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("5 2 3 4 6 6"); game.keep("5"); game.bank()
    >>> game.roll("1 2 3 3 4 6"); game.keep("1"); game.bank()
    >>> fixed = [DiceRolled(Dice.from_str("1 5 2 3 4 6")), Kept(Dice.from_str("1 5")), Banked()]
    >>> [p.score for p in Game.from_events(with_turn_replaced(game.events, 0, fixed)).state.players]
    [150, 100]
    """
    first = events[0]
    assert isinstance(first, GameStarted)
    parts = segments(events)
    if not any(part.turn == turn for part in parts):
        raise IllegalAction(f"edit turn {turn + 1}: there is no such finished turn")
    rebuilt: list[Event] = [first]
    for part in parts:
        if part.turn != turn:
            rebuilt.extend(part.actions)
            continue
        state = Game.from_events(rebuilt).state
        finished = len(state.history)
        for number, action in enumerate(actions, start=1):
            if len(state.history) > finished:
                raise IllegalAction(f"edit turn {turn + 1}: the turn is over after step {number - 1}; remove the steps after it")
            try:
                state = apply(state, action)
            except FarkleError as exc:
                raise type(exc)(f"edit turn {turn + 1}, step {number}: {exc}") from None
        if len(state.history) == finished:
            raise IllegalAction(f"edit turn {turn + 1}: the turn does not end; finish it with a bank or a Farkle")
        rebuilt.extend(actions)
    try:
        Game.from_events(rebuilt)
    except FarkleError as exc:
        raise type(exc)(f"after editing turn {turn + 1}, a later step no longer fits: {exc}") from None
    return rebuilt


def carry_pictures(before: Sequence[Action], after: Sequence[Action]) -> list[Action]:
    """``after`` with each roll and correction keeping the pictures of the same step ``before`` (a roll
    of the same dice, a correction with the same faces; each used once, in order): the text shows no
    picture, and a step the edit leaves as it was must stay the step it was: a tap keeps its training
    picture (withdrawn if it is ever undone), a roll the camera took keeps its picture on the sheet.

    >>> from scorekeeper.game.events import DiceRolled, DieCorrected
    >>> from scorekeeper.rules import Dice
    >>> before = [DiceRolled(Dice.from_str("2 3 4"), "camera", "a" * 64), DieCorrected(3, 5, "tap.png")]
    >>> after = carry_pictures(before, [DiceRolled(Dice.from_str("2 3 4")), DieCorrected(3, 5), DieCorrected(3, 5)])
    >>> after[0].photo == "a" * 64, [(step.picture, step.photo) for step in after[1:]]
    (True, [('tap.png', None), (None, None)])
    """
    left = [a for a in before if type(a) in PICTURE_FIELDS]
    out: list[Action] = []
    for action in after:
        fields = PICTURE_FIELDS.get(type(action), ())
        if fields:
            bare = {name: getattr(action, name) for name in fields}
            same = next((a for a in left if type(a) is type(action) and replace(a, **bare) == action), None)
            if same is not None:
                left.remove(same)
                action = replace(action, **{name: getattr(same, name) for name in fields})
        out.append(action)
    return out
