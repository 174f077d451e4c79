"""A game of Farkle: an append-only log of events and the state derived from it.

>>> from scorekeeper.rules import load_rules
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> game.state.players[0].score, game.state.current.name
(250, 'Bob')
>>> game.undo(); game.state.current.name
'Ann'
>>> game.redo(); game.state.players[0].score
250
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from scorekeeper.game.events import (
    Action,
    Banked,
    DiceRolled,
    DieCorrected,
    Event,
    Farkled,
    GameStarted,
    FreshDice,
    Kept,
    Piggybacked,
    PlayerAdded,
    PointsEntered,
    Redone,
    StepsInForce,
    Undone,
)
from scorekeeper.game.state import GameState, apply, check_target, refuse_missing_dice, start
from scorekeeper.rules import Dice, DieToken, IllegalAction, RuleSet

EventSink = Callable[[Event], None]
"""Called with each event after it is checked and before the game takes it: a journal
writes it to disk here, so nothing is shown that is not saved. If it raises, the
event is not taken."""


KEPT_EVERY = 32
"""A game keeps its state every this many steps in force, for undo to start from."""


def _dice(dice: Dice | str | Iterable[int]) -> Dice:
    if isinstance(dice, Dice):
        return dice
    if isinstance(dice, str):
        return Dice.from_str(dice)
    return Dice(dice)


class Game:
    """A game in progress: every change goes through the log, and :attr:`state` follows it."""

    def __init__(self, started: GameStarted, sink: EventSink | None = None) -> None:
        self._sink = sink
        self._state = start(started)
        self._log: list[Event] = []
        self._steps = StepsInForce()
        self._emit(started)
        self._kept = [self._state]
        """The state after 0, :data:`KEPT_EVERY`, twice as many... steps in force: an undo replays
        the few steps after the last of them, not the whole game (a log of many undos replays in
        time linear in its length)."""

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        players: Iterable[str] = (),
        target: int | None = None,
        started_at: str | None = None,
        sink: EventSink | None = None,
    ) -> Game:
        """Begin a game under ``rules`` with ``players`` in seat order."""
        when = started_at or datetime.now().astimezone().isoformat(timespec="seconds")
        game = cls(GameStarted(rules, rules.end.target if target is None else target, when), sink)
        for name in players:
            game.add_player(name)
        if game.state.players:
            check_target(game.state)
        return game

    @classmethod
    def from_events(cls, events: Sequence[Event], sink: EventSink | None = None) -> Game:
        """Replay a log; raises the domain error of the first event that does not apply."""
        if not events or not isinstance(events[0], GameStarted):
            raise IllegalAction("a game's log must begin with the start of the game")
        game = cls(events[0], sink=None)
        for position, event in enumerate(events[1:], start=2):
            try:
                game.take(event)
            except ValueError as exc:
                raise type(exc)(f"event {position} of the log: {exc}") from None
        game._sink = sink
        return game

    @property
    def state(self) -> GameState:
        """Everything the scoreboard shows."""
        return self._state

    @property
    def events(self) -> tuple[Event, ...]:
        """The whole log, undos and redos included."""
        return tuple(self._log)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The steps in force, in order: the log without the steps undone (and not redone).

        >>> from scorekeeper.rules import load_rules
        >>> game = Game.new(load_rules("retail"), ["Ann"])
        >>> game.roll("1 2 3 3 4 6"); game.correct(6, 5); game.undo()
        >>> [type(action).__name__ for action in game.actions]
        ['PlayerAdded', 'DiceRolled']
        """
        return tuple(self._steps.active)

    @property
    def can_undo(self) -> bool:
        """Whether there is a step to take back: one after the game's set-up (the players seated
        before the first step of play), which undo never removes."""
        return not all(isinstance(action, PlayerAdded) for action in self._steps.active)

    @property
    def can_redo(self) -> bool:
        """Whether there is a step taken back to do again."""
        return bool(self._steps.undone)

    def _emit(self, event: Event) -> None:
        if self._sink is not None:
            self._sink(event)
        self._log.append(event)

    def take(self, event: Event) -> None:
        """Take one event of a log (a step, an undo or a redo), as a saved game is replayed."""
        if isinstance(event, Undone):
            self.undo()
        elif isinstance(event, Redone):
            self.redo()
        elif isinstance(event, GameStarted):
            raise IllegalAction("the game has already started")
        else:
            self._step(event)

    def act(self, action: Action) -> None:
        """Take one new step of play, or raise and change nothing. A keep from a roll with dice
        missing is refused (``refuse_missing_dice``); a keep named without marks is written down as
        the roll's dice it names (``1 5`` from ``1w 5 3`` is ``1w 5``)."""
        if isinstance(action, Kept):
            refuse_missing_dice(self._state, f"keep {action.dice}")
            scored = self._state.roll_score()
            if scored is not None:
                action = Kept(scored.matched(action.dice))
        self._step(action)

    def _step(self, action: Action) -> None:
        state = apply(self._state, action)
        self._emit(action)
        self._state = state
        self._steps.take(action)
        self._keep_state()

    def undo(self) -> None:
        """Take back the last step."""
        if not self.can_undo:
            what = "; the players seated at the start stay (start a new game to change them)" if self._steps.active else ""
            raise IllegalAction(f"undo: there is nothing to undo{what}")
        self._emit(Undone())
        self._steps.take(Undone())
        standing = len(self._steps.active)
        del self._kept[standing // KEPT_EVERY + 1 :]
        state = self._kept[-1]
        for action in self._steps.active[(len(self._kept) - 1) * KEPT_EVERY :]:
            state = apply(state, action)
        self._state = state

    def redo(self) -> None:
        """Do again the last step taken back."""
        if not self._steps.undone:
            raise IllegalAction("redo: there is nothing to redo")
        state = apply(self._state, self._steps.undone[-1])
        self._emit(Redone())
        self._steps.take(Redone())
        self._state = state
        self._keep_state()

    def _keep_state(self) -> None:
        if len(self._steps.active) % KEPT_EVERY == 0:
            self._kept.append(self._state)

    def add_player(self, name: str) -> None:
        """Seat a new player after the others."""
        self.act(PlayerAdded(name.strip()))

    def roll(self, dice: Dice | str | Iterable[int], source: str = "typed") -> None:
        """The current player rolled these dice."""
        self.act(DiceRolled(_dice(dice), source))

    def correct(self, was: DieToken | None, now: DieToken | None) -> None:
        """A die of the roll on the table reads ``was`` but is ``now`` (None: missed, or not a die;
        a die token may carry its mark, ``"1w"``)."""
        self.act(DieCorrected(was, now))

    def keep(self, dice: Dice | str | Iterable[int]) -> None:
        """Set these scoring dice aside from the roll on the table."""
        self.act(Kept(_dice(dice)))

    def enter_points(self, points: int, note: str = "") -> None:
        """Add points by hand to the turn (a card combination, or a turn scored off camera)."""
        self.act(PointsEntered(points, note))

    def bank(self) -> None:
        """Stop and add the turn total to the score."""
        self.act(Banked())

    def farkle(self) -> None:
        """The roll on the table scores nothing (or a Farkle card was drawn)."""
        self.act(Farkled())

    def piggyback(self) -> None:
        """Piggyback variant: take on the pot the last player banked, to roll only the dice they left."""
        self.act(Piggybacked())

    def fresh_dice(self) -> None:
        """Piggyback variant: turn the pot down and roll six fresh dice."""
        self.act(FreshDice())
