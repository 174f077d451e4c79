"""The phone page: the board drawn as HTML, and the page's own files (HTML, CSS, JavaScript) shipped
in the package's ``assets`` folder.

The server draws the board here for the first response (readable without JavaScript) and for every
update it streams; the page's script only puts each update in place.

>>> from scorekeeper.serve.board import Board, Seat
>>> board = Board((Seat("Ann <3", 250, True, True, False),), "Ann <3", 300, None, "", "", (), "", 10000, "retail", 500)
>>> "Ann &lt;3" in board_html(board), "<3" in board_html(board)
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from importlib import resources
from string import Template

from scorekeeper.game.describe import die_text
from scorekeeper.rules import die_token
from scorekeeper.scoreboard.race_svg import race_svg
from scorekeeper.serve.board import Board, LastRoll

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
"""The Unicode dice, one to six."""
PHONE_RACE = (360, 300, 13)
"""The score race's width, height and type size on the page, in the SVG's units (the page scales it to
the phone's width)."""


@dataclass(frozen=True)
class Asset:
    """One file of the page, as it is sent."""

    body: bytes
    """The file's bytes."""
    content_type: str
    """Its media type, with the character set for text."""


def _read(name: str) -> str:
    return (resources.files("scorekeeper.serve") / "assets" / name).read_text(encoding="utf-8")


def assets() -> dict[str, Asset]:
    """The page's style sheet, script and icon by the name the page asks for them."""
    return {
        "style.css": Asset(_read("style.css").encode("utf-8"), "text/css; charset=utf-8"),
        "board.js": Asset(_read("board.js").encode("utf-8"), "text/javascript; charset=utf-8"),
        "icon.svg": Asset(_read("icon.svg").encode("utf-8"), "image/svg+xml"),
    }


def picture_url(name: str) -> str:
    """Where the page asks for the roll picture named ``name`` (relative to the page)."""
    return f"roll/{name}.jpg"


def _roll_html(roll: LastRoll) -> str:
    faces = "".join(
        f'<span class="{" ".join(["die", *(["wild"] if "w" in mark else []), *(["red"] if "r" in mark else [])])}" '
        f'title="{die_text(die_token(value, mark))}">{DIE_FACES[value - 1]}<span class="pips">{die_token(value, mark)}</span></span>'
        for value, mark in zip(roll.dice, roll.marks or ("",) * len(roll.dice))
    )
    picture = ""
    if roll.picture is not None:
        picture = f'<img class="roll-picture" src="{picture_url(roll.picture)}" alt="The roll as the camera saw it">'
    return (
        f'<section class="roll" id="last-roll"><h2>Last roll: {escape(roll.player)}</h2>'
        f'<p class="dice">{faces}</p>{picture}</section>'
    )


def _banner(board: Board) -> str:
    if board.winner:
        return f'<p class="banner winner" id="winner">{escape(board.winner)}</p>'
    if board.final_lap:
        return f'<p class="banner final-lap" id="final-lap">{escape(board.final_lap)}</p>'
    if board.play_off:
        return f'<p class="banner final-lap" id="play-off">Play-off: {escape(", ".join(board.play_off))}</p>'
    return ""


def _seat_rows(board: Board) -> str:
    rows = []
    for seat in board.seats:
        classes = " ".join(name for name, on in (("to-play", seat.to_play), ("winner", seat.winner)) if on)
        attributes = f' class="{classes}"' if classes else ""
        notes = "".join(
            f'<span class="note">{text}</span>'
            for text, on in (("to play", seat.to_play), ("winner", seat.winner), ("not on the board", not seat.on_board))
            if on
        )
        rows.append(f'<tr{attributes}><td class="name">{escape(seat.name)}{notes}</td><td class="score">{seat.score:,}</td></tr>')
    return "".join(rows)


def board_html(board: Board) -> str:
    """The board as the HTML that fills the page's ``<main>``; every name from the game is escaped."""
    parts = []
    if board.damaged_at:
        parts.append(
            f'<p class="banner damaged" id="damaged" role="alert">This game\'s journal is damaged at line '
            f"{board.damaged_at:,}; the scores shown are up to there.</p>"
        )
    parts.append(_banner(board))
    if board.seats:
        parts.append(
            '<table class="scores" id="scores"><thead><tr><th>Player</th><th>Score</th></tr></thead>'
            f"<tbody>{_seat_rows(board)}</tbody></table>"
        )
    else:
        parts.append('<p class="waiting">Waiting for the players to sit down.</p>')
    if board.to_play is not None:
        parts.append(
            f'<section class="turn" id="turn"><h2>{escape(board.to_play)} to play</h2>'
            f'<p class="total">Turn total <strong id="turn-total">{board.turn_total:,}</strong></p></section>'
        )
    if board.last_roll is not None:
        parts.append(_roll_html(board.last_roll))
    if board.last_turn:
        parts.append(f'<p class="last-turn">Last turn: <span id="last-turn">{escape(board.last_turn)}</span></p>')
    if board.race is not None and board.race.turns:
        parts.append(f'<section class="race" id="race"><h2>Score race</h2>{race_svg(board.race, *PHONE_RACE)}</section>')
    entry = f" · {board.entry_minimum:,} to get on the board" if board.entry_minimum else ""
    parts.append(f'<p class="rules">Playing to {board.target:,} · {escape(board.rules)} rules{entry}</p>')
    return "".join(parts)


def page_html(board: Board) -> str:
    """The whole page, the board drawn in it."""
    return Template(_read("page.html")).substitute(board=board_html(board))
