"""The unfinished games a player can go on with, as the window's resume offer lists them.

>>> import tempfile
>>> from scorekeeper.game.games_folder import new_journal_path
>>> from scorekeeper.game.journal import Journal
>>> from scorekeeper.rules import load_rules
>>> home = Path(tempfile.mkdtemp())
>>> journal = Journal.create(new_journal_path(home))
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-12-05T20:15:00+00:00", sink=journal.write)
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> journal.close()
>>> print(unfinished_summaries(home)[0])
Sat 5 Dec 2026, 20:15 · Ann 250, Bob 0 · Bob to play · retail
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from scorekeeper.game.game import Game
from scorekeeper.game.games_folder import unfinished_games
from scorekeeper.game.journal import read_journal
from scorekeeper.game.lock import game_holder
from scorekeeper.game.photos import tidy_photo_folders
from scorekeeper.rules import FarkleError


@dataclass(frozen=True)
class UnfinishedGame:
    """One game of the resume offer: where it is and what the table needs to recognise it."""

    path: Path
    """The game's journal."""
    started_at: str
    """When the game began, ISO 8601 (empty when the journal cannot be read)."""
    scores: tuple[tuple[str, int], ...]
    """Each player's name and banked score, in seat order."""
    to_play: str
    """Whose turn it is ("" when unknown)."""
    rules: str
    """The name of the rules in force."""
    problem: str = ""
    """Why the journal cannot be read, if it cannot; then only its name is known."""
    open_in: str = ""
    """The process that has the game open for writing now ("process N since HH:MM"), if one has."""

    def __str__(self) -> str:
        if self.problem:
            return f"{self.path.name} (cannot be read: {self.problem})"
        scores = ", ".join(f"{name} {score:,}" for name, score in self.scores)
        elsewhere = f" · open in {self.open_in}" if self.open_in else ""
        return f"{_when(self.started_at)} · {scores} · {self.to_play} to play · {self.rules}{elsewhere}"


def _when(stamp: str) -> str:
    """An ISO time as the table says it: "Sat 5 Dec 2026, 20:15"."""
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M}"


def summarise(path: Path) -> UnfinishedGame:
    """What the resume offer shows of the journal at ``path``."""
    try:
        state = Game.from_events(read_journal(path).events).state
    except FarkleError as exc:
        return UnfinishedGame(path, "", (), "", "", problem=str(exc))
    current = state.current
    holder = game_holder(path)
    return UnfinishedGame(
        path,
        state.started_at,
        tuple((player.name, player.score) for player in state.players),
        current.name if current is not None else "",
        state.rules.name,
        open_in=str(holder) if holder is not None else "",
    )


def unfinished_summaries(home: Path) -> list[UnfinishedGame]:
    """Every unfinished game of ``home``'s games folder, the one played last first (the folder is
    tidied first: see :func:`unfinished_games`, and picture folders whose game is gone are removed)."""
    found = unfinished_games(home)
    tidy_photo_folders(home)
    return [summarise(path) for path in found]
