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

from scorekeeper.coach import CoachError, Policy, policy_for, rules_key
from scorekeeper.game import Banked, Event, GameStarted, GameState, Kept, Outcome
from scorekeeper.game.state import start
from scorekeeper.stats.replay import replay, standing_actions


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


def _final_and_hot_dice(events: list[Event]) -> tuple[GameState, dict[int, int]]:
    """The state the log leads to, and per seat how many keeps made hot dice, in one replay."""
    state = start(standing_actions(events)[0])
    hot: dict[int, int] = {}
    for step in replay(events):
        state = step.after
        before, after = step.before.turn, step.after.turn
        if isinstance(step.action, Kept) and before is not None and after is not None and after.hot_dice > before.hot_dice:
            hot[before.player] = hot.get(before.player, 0) + 1
    return state, hot


def player_stats(events: Iterable[Event], policy: Policy | None = None) -> list[PlayerStats]:
    """Statistics of every player, in seat order; ``policy`` (for the game's rules) adds the coach's view."""
    return game_stats(events, policy)[1]


def game_stats(events: Iterable[Event], policy: Policy | None = None) -> tuple[GameState, list[PlayerStats]]:
    """The state the log leads to and :func:`player_stats`, from one replay of the log.

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
    state, hot = _final_and_hot_dice(listed)
    coached = policy is not None and rules_key(policy.rules) == rules_key(state.rules)
    forgone = _forgone(policy, listed) if policy is not None and coached else {}
    found = []
    for seat, player in enumerate(state.players):
        records = [record for record in state.history if record.player == seat]
        banked = [record.points for record in records if record.outcome is Outcome.BANKED]
        lost, times = forgone.get(seat, (0.0, 0))
        found.append(
            PlayerStats(
                name=player.name,
                turns=len(records),
                farkles=sum(record.outcome is Outcome.FARKLED for record in records),
                banked_turns=len(banked),
                banked=sum(banked),
                best_turn=max(banked, default=0),
                penalties=sum(record.penalty for record in records),
                left_on_table=lost if coached else None,
                banks_against_advice=times,
                hot_dice=hot.get(seat, 0),
                longest_farkle_streak=max((record.farkles_in_a_row for record in records), default=0),
            )
        )
    return state, found
