"""What the phone page shows of a game, taken from the state the game's own code derives from its log.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank(); game.roll("5 2 3 4 6 6")
>>> board = board_of(game.events)
>>> [(seat.name, seat.score, seat.to_play) for seat in board.seats]
[('Ann', 250, False), ('Bob', 0, True)]
>>> board.last_roll
LastRoll(player='Bob', dice=(2, 3, 4, 5, 6, 6), picture=None, marks=())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper.game import Event, Game, GameState, describe_turn
from scorekeeper.game.describe import game_over, last_lap
from scorekeeper.game.photos import last_roll_photo_name
from scorekeeper.scoreboard.race import Race, score_race


@dataclass(frozen=True)
class Seat:
    """One player's line on the scoreboard."""

    name: str
    """The player's name."""
    score: int
    """Banked points."""
    to_play: bool
    """Whether it is this player's turn."""
    on_board: bool
    """Whether the player has met the entry minimum (always True when the rules have none)."""
    winner: bool
    """Whether the player won the game."""


@dataclass(frozen=True)
class LastRoll:
    """The most recent roll of the game, as corrected."""

    player: str
    """Who rolled it."""
    dice: tuple[int, ...]
    """The faces, sorted."""
    picture: str | None
    """The SHA-256 name of the roll's picture where the journal names one (see
    :func:`~scorekeeper.game.photos.last_roll_photo_name`)."""
    marks: tuple[str, ...] = ()
    """Each die's mark, aligned with :attr:`dice` ("w" the wild die, "r" red pips, "wr" both, ""
    plain); empty when no die is marked."""


@dataclass(frozen=True)
class Board:
    """Everything the phone page shows; equal boards draw the same page."""

    seats: tuple[Seat, ...]
    """Every player, in seat order."""
    to_play: str | None
    """Whose turn it is; None before there is a player and once the game is over."""
    turn_total: int
    """Points built up in the turn being played."""
    last_roll: LastRoll | None
    """The latest roll, if the game has had one (the card edition has none)."""
    last_turn: str
    """How the latest finished turn ended, in words ("" before the first)."""
    final_lap: str
    """The final lap in words while it is being played, else ""."""
    play_off: tuple[str, ...]
    """Players playing off a tie, in order (empty when there is no play-off)."""
    winner: str
    """Who won, in words, once the game is over, else ""."""
    target: int
    """The score the game is played to."""
    rules: str
    """The name of the rules in force."""
    entry_minimum: int
    """Points needed in one turn to get on the board (0: none)."""
    damaged_at: int = 0
    """The line where the game's journal breaks: the board shows the game up to there (0: the
    file reads whole)."""
    race: Race | None = None
    """The score race of the game (None: not drawn)."""


def _last_roll(state: GameState, events: Sequence[Event]) -> LastRoll | None:
    if state.turn is not None and state.turn.rolls:
        seat, dice = state.turn.player, state.turn.rolls[-1]
    elif state.history and state.history[-1].rolls:
        seat, dice = state.history[-1].player, state.history[-1].rolls[-1]
    else:
        return None
    return LastRoll(state.players[seat].name, dice.values, last_roll_photo_name(events), dice.marks if dice.marked else ())


def board_of(events: Sequence[Event]) -> Board:
    """The board of the game that ``events`` make (a game's log, as read from its journal or save)."""
    state = Game.from_events(events).state
    turn = state.turn
    current = state.current
    return Board(
        seats=tuple(
            Seat(
                name=player.name,
                score=player.score,
                to_play=turn is not None and turn.player == seat,
                on_board=player.on_board or not state.rules.turn.entry_minimum,
                winner=seat in state.winners,
            )
            for seat, player in enumerate(state.players)
        ),
        to_play=current.name if current is not None else None,
        turn_total=turn.total if turn is not None else 0,
        last_roll=_last_roll(state, events),
        last_turn=describe_turn(state.history[-1], state) if state.history else "",
        final_lap=last_lap(state) if state.final_lap else "",
        play_off=tuple(state.players[seat].name for seat in state.play_off) if not state.over else (),
        winner=game_over(state) if state.over else "",
        target=state.target,
        rules=state.rules.name,
        entry_minimum=state.rules.turn.entry_minimum,
        race=score_race(events),
    )
