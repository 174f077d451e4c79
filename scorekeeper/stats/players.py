"""How each player has played: turns, Farkles, points, and points left on the table.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> game.roll("2 3 4 6 6 2"); game.farkle()
>>> ann, bob = player_stats(game.events)
>>> ann.turns, ann.best_turn, bob.farkles, bob.farkle_rate
(1, 250, 1, 1.0)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from scorekeeper.game import Banked, Event, GameStarted, GameState, Outcome
from scorekeeper.game.state import TurnRecord
from scorekeeper.stats.replay import final_state, replay

if TYPE_CHECKING:
    # The coach (and numpy under it) is imported only where a coach is asked for: the history needs none.
    from scorekeeper.coach import Policy


@dataclass(frozen=True)
class PlayerStats:
    """One player's game so far (finished turns only)."""

    name: str
    """The player's name."""
    turns: int
    """Turns finished."""
    farkles: int
    """Turns lost to a Farkle."""
    banked_turns: int
    """Turns that banked points."""
    banked: int
    """Points banked in all (Farkle-card bonus included, penalties not taken off)."""
    best_turn: int
    """The most points banked in one turn."""
    penalties: int
    """Points lost to the Farkle penalty."""
    left_on_table: float | None
    """Expected points given up by banking when the coach said roll; None without a coach."""
    banks_against_advice: int
    """How many banks the coach would have rolled on instead."""
    hot_dice: int = 0
    """How many times all six dice scored and were picked up again (the turn being played included)."""
    longest_farkle_streak: int = 0
    """The most Farkles in a row."""

    @property
    def farkle_rate(self) -> float:
        """Share of turns lost to a Farkle."""
        return self.farkles / self.turns if self.turns else 0.0

    @property
    def average_turn(self) -> float:
        """Points of the average banked turn."""
        return self.banked / self.banked_turns if self.banked_turns else 0.0

    @property
    def banked_per_turn(self) -> float:
        """Points banked per turn played, Farkles included: what the coach's points per turn compare with."""
        return self.banked / self.turns if self.turns else 0.0


def coach_for(events: Iterable[Event]) -> Policy | None:
    """The coach for the rules of the game whose log this is (solved on first use, then cached);
    None for the card edition, which the coach cannot advise.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> coach_for(Game.new(load_rules("flip"), ["Ann"]).events) is None
    True
    """
    from scorekeeper.coach import CoachError, policy_for

    started = next(iter(events), None)
    if not isinstance(started, GameStarted):
        return None
    try:
        return policy_for(started.rules)
    except CoachError:
        return None


def _forgone(policy: Policy, events: Iterable[Event]) -> dict[int, tuple[float, int]]:
    """Per seat: expected points given up by banking against the coach's advice, and how often."""
    lost: dict[int, tuple[float, int]] = {}
    for step in replay(events):
        before = step.before
        turn, player = before.turn, before.current
        if not isinstance(step.action, Banked) or turn is None or player is None:
            continue
        # The last lap plays for the win, not for points; hand-entered points have no dice to judge.
        if before.final_lap or before.play_off or turn.entered or turn.dice_left == 0:
            continue
        rolled = policy.roll_value(turn.total, turn.dice_left, player.on_board, player.farkle_streak, player.score)
        if rolled > turn.total:
            points, times = lost.get(turn.player, (0.0, 0))
            lost[turn.player] = (points + rolled - turn.total, times + 1)
    return lost


def player_stats(events: Iterable[Event], policy: Policy | None = None) -> list[PlayerStats]:
    """Statistics of every player, in seat order; ``policy`` (for the game's rules) adds the coach's view."""
    return game_stats(events, policy)[1]


def game_stats(events: Iterable[Event], policy: Policy | None = None) -> tuple[GameState, list[PlayerStats]]:
    """The state the log leads to and :func:`player_stats`, from one replay of the log (one more
    for the coach's view).

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("1 1 1 5 5 5"); game.keep("1 1 1 5 5 5"); game.roll("2 2 3 3 4 6"); game.farkle()
    >>> game.roll("2 3 4 4 6 6"); game.farkle(); game.roll("2 3 4 4 6 6"); game.farkle()
    >>> state, (ann, bob) = game_stats(game.events)
    >>> state.players[1].name, ann.hot_dice, ann.farkles, ann.longest_farkle_streak, bob.longest_farkle_streak
    ('Bob', 1, 2, 2, 1)
    """
    listed = list(events)
    state = final_state(listed)
    if policy is None:
        return state, state_stats(state)
    from scorekeeper.coach import rules_key

    coached = rules_key(policy.rules) == rules_key(state.rules)
    return state, state_stats(state, _forgone(policy, listed) if coached else None)


def state_stats(state: GameState, forgone: dict[int, tuple[float, int]] | None = None) -> list[PlayerStats]:
    """Every player's statistics, in seat order, from the state a game's log leads to (its turns
    and the turn being played); ``forgone`` adds the coach's view (what :func:`_forgone` finds).

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("1 1 1 5 5 5"); game.keep("1 1 1 5 5 5"); game.roll("1 2 3 3 4 6")
    >>> [(player.name, player.turns, player.hot_dice) for player in state_stats(game.state)]
    [('Ann', 0, 1), ('Bob', 0, 0)]
    """
    records: list[list[TurnRecord]] = [[] for _ in state.players]
    for record in state.history:
        records[record.player].append(record)
    found = []
    for seat, player in enumerate(state.players):
        played = records[seat]
        banked = [record.points for record in played if record.outcome is Outcome.BANKED]
        lost, times = (forgone or {}).get(seat, (0.0, 0))
        playing = state.turn.hot_dice if state.turn is not None and state.turn.player == seat else 0
        found.append(
            PlayerStats(
                name=player.name,
                turns=len(played),
                farkles=sum(record.outcome is Outcome.FARKLED for record in played),
                banked_turns=len(banked),
                banked=sum(banked),
                best_turn=max(banked, default=0),
                penalties=sum(record.penalty for record in played),
                left_on_table=None if forgone is None else lost,
                banks_against_advice=times,
                hot_dice=sum(record.hot_dice for record in played) + playing,
                longest_farkle_streak=max((record.farkles_in_a_row for record in played), default=0),
            )
        )
    return found
