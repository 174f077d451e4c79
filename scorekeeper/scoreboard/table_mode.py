"""Table mode: the scoreboard filling the screen, read from three metres away (no Qt here).

:func:`table_board` says what the board shows (every player's name and score, whose turn, the roll
on the table and the turn total, the last lap or the winner); :func:`table_layout` says how big
each part is drawn on a screen of a given size: names and scores never below a twelfth of the
screen's height, the roll and the turn total large, the camera view small. The window's table
mode view (:mod:`scorekeeper.ui.table_mode`) draws exactly this.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5")
>>> board = table_board(game.state)
>>> [(line.name, line.score, line.current) for line in board.lines], board.headline, board.turn_total
([('Ann', '0', True), ('Bob', '0', False)], "Ann's turn", '250')
>>> layout = table_layout(1920, 1080, 4)
>>> layout.name_px >= 1080 / 12, layout.roll_px >= 1080 / 12, layout.camera
(True, True, (576, 302))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scorekeeper.game import GameState
from scorekeeper.rules import GameKind

LEAST_SHARE = 12
"""Names and scores are at least 1/LEAST_SHARE of the screen's height (the issue's three metres)."""
MOST_SHARE = 7
"""...and at most 1/MOST_SHARE, however few players there are."""
BOARD_HEIGHT = 0.86
"""Share of the screen's height the players' rows may fill (the rest: margins and the heading)."""
LINE = 1.2
"""A row's height over its type's size (line spacing and padding)."""
BOARD_WIDTH = 0.6
"""Share of the screen's width the players' rows take; the roll, the turn total and the camera the rest."""
ROLL_CHARACTERS = 11
"""Characters of the longest roll shown, six dice with spaces ("1 1 5 2 3 4")."""
CHARACTER = 0.62
"""A character's width over its type's size (digits of a sans-serif face, about)."""
CAMERA = (0.3, 0.28)
"""The camera view's share of the screen's width and height: small, but a die can still be tapped."""


@dataclass(frozen=True)
class BoardLine:
    """One player's row on the big board."""

    name: str
    """The player's name."""
    score: str
    """Banked score, with thousands separators."""
    mark: str
    """A word on the player's state: "to play", "WINNER", "not on the board" or ""."""
    current: bool
    """Whether it is this player's turn."""
    winner: bool
    """Whether this player won."""


@dataclass(frozen=True)
class TableBoard:
    """Everything table mode shows, as text."""

    lines: tuple[BoardLine, ...]
    """The players in seat order."""
    headline: str
    """Whose turn it is, or who won, or that no game is on."""
    roll: str
    """The dice on the table ("" when none)."""
    roll_note: str
    """What the roll means now: "FARKLE!", "roll 4 dice", "keep 1 1 5 for 250" (the dice that score,
    the most points first), "5 of 6 dice not read: tap them in"... ("" when nothing)."""
    turn_total: str
    """The turn total ("1,250"; "" when no turn is on)."""
    banner: str
    """The last lap, the play-off or the win, in a line ("" when none)."""


def _mark(state: GameState, seat: int) -> str:
    player = state.players[seat]
    if seat in state.winners:
        return "WINNER"
    if state.turn is not None and state.turn.player == seat:
        return "to play"
    if state.rules.turn.entry_minimum and not player.on_board:
        return "not on the board"
    return ""


def table_board(state: GameState | None) -> TableBoard:
    """What the big board shows for ``state`` (None: no game yet)."""
    if state is None:
        return TableBoard((), "No game yet: Game > New game", "", "", "", "")
    lines = tuple(
        BoardLine(
            player.name,
            f"{player.score:,}",
            _mark(state, seat),
            state.turn is not None and state.turn.player == seat,
            seat in state.winners,
        )
        for seat, player in enumerate(state.players)
    )
    turn, current = state.turn, state.current
    banner = ""
    if state.over:
        names = " and ".join(state.players[seat].name for seat in state.winners)
        banner = f"{names} win{'s' if len(state.winners) == 1 else ''} the game!"
    elif state.play_off:
        banner = "PLAY-OFF: " + ", ".join(state.players[seat].name for seat in state.play_off)
    elif state.final_lap and state.lap_mark is not None:
        banner = f"LAST LAP: {state.players[state.lap_mark].name} reached {state.target:,}"
    if turn is None or current is None:
        return TableBoard(lines, "Game over" if state.over else "", "", "", "", banner)
    roll = str(turn.roll) if turn.roll is not None else ""
    scored = state.roll_score()
    if turn.roll is not None and scored is None:
        note = f"{state.missing_dice()} of {turn.dice_left} dice not read: tap them in"
    elif scored is not None and scored.best is None:
        note = "FARKLE!"
    elif scored is not None and scored.best is not None:
        best = scored.best
        note = f"keep {best.keep}: WINS THE GAME" if best is scored.winning_keep else f"keep {best.keep} for {best.points:,}"
    elif state.rules.kind is GameKind.DICE and state.can_roll():
        note = f"roll {turn.dice_left} dice"
    else:
        note = ""
    return TableBoard(lines, f"{current.name}'s turn", roll, note, f"{turn.total:,}", banner)


@dataclass(frozen=True)
class TableLayout:
    """How big each part of table mode is drawn, pixels."""

    name_px: int
    """Type size of the players' names and scores (at least the screen's height / 12)."""
    columns: int
    """Columns of player rows (more than one only where the rows would not fit one column)."""
    roll_px: int
    """Type size of the roll on the table and of the turn total."""
    headline_px: int
    """Type size of whose turn it is."""
    note_px: int
    """Type size of the small lines: the roll's note, the banner, the typed line, the keys."""
    camera: tuple[int, int]
    """The camera view's width and height."""


def table_layout(width: int, height: int, players: int, longest: int = 12, headline: int = 14) -> TableLayout:
    """The sizes of table mode on a screen of ``width`` x ``height`` pixels with ``players`` players,
    whose longest row (name, a gap and score) is ``longest`` characters, and whose turn it is said
    in ``headline`` characters. The rows take as many
    columns as give them the biggest type that fits both ways, never below a twelfth of the height
    (a name too long for that is cut short by the view).

    >>> table_layout(1920, 1080, 12).columns, table_layout(1920, 1080, 12).name_px >= 90
    (2, True)
    """
    least = math.ceil(height / LEAST_SHARE)
    best = (0, 1)
    for columns in range(1, max(1, players) + 1):
        rows = math.ceil(max(1, players) / columns)
        tall = math.floor(height * BOARD_HEIGHT / (rows * LINE))
        wide = math.floor(width * BOARD_WIDTH / columns * 0.9 / (max(1, longest) * CHARACTER))
        size = min(height // MOST_SHARE, tall, wide)
        if tall >= least and size > best[0]:
            best = (size, columns)
    name_px, columns = max(least, best[0]), best[1]
    side = width * (1 - BOARD_WIDTH)
    roll_px = max(least, min(height // 5, math.floor(side * 0.9 / (ROLL_CHARACTERS * CHARACTER))))
    headline_px = max(least, min(height // 9, math.floor(side * 0.9 / (max(1, headline) * CHARACTER))))
    return TableLayout(
        name_px=name_px,
        columns=columns,
        roll_px=roll_px,
        headline_px=headline_px,
        note_px=max(12, height // 30),
        camera=(round(width * CAMERA[0]), round(height * CAMERA[1])),
    )
