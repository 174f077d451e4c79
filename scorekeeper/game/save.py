"""Saving and loading games as versioned JSON, and telling a saved game from a journal.

A save is written whole or not at all (:func:`~scorekeeper.safe_output.write_atomically`),
so a crash never leaves half a file. Loading reads the whole file,
checks it, and replays the log; any problem raises :class:`SaveFileError`
naming the file and leaves it untouched.

:func:`game_file_kind` tells a saved game from a window's journal by the format its first
4 KB name, so a save never writes over a journal; :func:`load_events` reads the log of
either, for the readers that take both (export, serve, the fairness statistics), and
:func:`load_played` the state it leads to as well (the history).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorekeeper.game.events import Event, event_from_dict, event_to_dict
from scorekeeper.game.game import Game
from scorekeeper.game.journal import FORMAT as JOURNAL_FORMAT
from scorekeeper.game.journal import JournalDamage, no_game_error, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.game.state import GameState
from scorekeeper.rules import FarkleError
from scorekeeper.safe_input import parse_json, read_head, read_text
from scorekeeper.safe_output import write_atomically

FORMAT = "scorekeeper-game"
VERSION = 1
"""The save format this program writes, and the newest it reads."""


class SaveFileError(FarkleError):
    """A saved game that cannot be read or written; the file is left as it was."""


@dataclass(frozen=True)
class SavedGame:
    """A saved game as read back: its game, and the journal it was kept in as it was played."""

    game: Game
    """The game the save holds."""
    journal: Path | None
    """The journal that held the game when it was saved (it is written first, so it may be a step
    ahead of the save); None for a save that names none."""


def game_to_json(game: Game, journal: Path | None = None) -> dict[str, Any]:
    """The game as a JSON document, naming the ``journal`` it is kept in, if any."""
    document: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    if journal is not None:
        document["journal"] = str(journal.absolute())
    document["events"] = [event_to_dict(event) for event in game.events]
    return document


def game_from_json(document: Any, where: str) -> Game:
    """Read a game back from its JSON document; ``where`` names it in errors."""
    return saved_from_json(document, where).game


def saved_from_json(document: Any, where: str) -> SavedGame:
    """Read a saved game and the journal it names back from its JSON document; ``where`` names it in errors."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveFileError(f"{where}: not a scorekeeper saved game")
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveFileError(f"{where}: the save has no valid format version (got {version!r})")
    if version > VERSION:
        raise SaveFileError(
            f"{where}: saved by a newer scorekeeper (format version {version}; this one reads up to "
            f"{VERSION}); update scorekeeper to open it"
        )
    journal = document.get("journal")
    if journal is not None and (not isinstance(journal, str) or not journal or "\0" in journal):
        raise SaveFileError(f"{where}: the save's journal is not a file name (got {journal!r})")
    events = document.get("events")
    if not isinstance(events, list):
        raise SaveFileError(f"{where}: the save has no list of events")
    try:
        game = Game.from_events([event_from_dict(event) for event in events])
    except FarkleError as exc:
        raise SaveFileError(f"{where}: damaged: {exc}") from None
    return SavedGame(game, Path(journal) if journal is not None else None)


def _kind(head: bytes) -> str | None:
    """``"journal"`` or ``"saved game"`` as the first 4 KB of a file name its format (a journal's on
    its first line, so a save naming its journal is not taken for one), else None."""
    if JOURNAL_FORMAT.encode() in head.partition(b"\n")[0]:
        return "journal"
    return "saved game" if FORMAT.encode() in head else None


def game_file_kind(path: str | Path) -> str | None:
    """``"journal"`` or ``"saved game"`` when the file at ``path`` holds one (its first 4 KB name
    the format), else None (no such file, or something else)."""
    try:
        head = read_head(path, "game file", 4096)
    except ValueError:
        return None
    return _kind(head)


def load_events(path: str | Path) -> tuple[tuple[Event, ...], JournalDamage | None]:
    """The log of a saved game or a journal, and where a damaged journal breaks (read only)."""
    events, _, damage = load_played(path)
    return events, damage


def load_played(path: str | Path) -> tuple[tuple[Event, ...], GameState, JournalDamage | None]:
    """:func:`load_events`, with the state the log leads to as reading it worked it out (for a
    damaged journal, the state of the events before the damage): the log is replayed once."""
    path = Path(path)
    if _kind(read_head(path, "saved game or journal", 4096, JournalError)) == "journal":
        contents = read_journal(path)
        if not contents.events or contents.state is None:
            raise no_game_error(path, contents.damage)
        return contents.events, contents.state, contents.damage
    game = load_game(path)
    return game.events, game.state, None


def save_game(game: Game, path: str | Path, journal: Path | None = None) -> None:
    """Write the game to ``path`` as JSON, naming the ``journal`` it is kept in, if any; a window's
    journal there is never written over."""
    if game_file_kind(path) == "journal":
        raise SaveFileError(f"{path}: this is the window's game journal; save to another file name")
    try:
        write_atomically(Path(path), json.dumps(game_to_json(game, journal), indent=1) + "\n")
    except OSError as exc:
        raise SaveFileError(f"{path}: cannot save the game: {exc.strerror or exc}") from None


def load_game(path: str | Path) -> Game:
    """Read a game saved by :func:`save_game`."""
    return load_saved(path).game


def load_saved(path: str | Path) -> SavedGame:
    """Read a game saved by :func:`save_game`, with the journal it names."""
    text = read_text(path, "saved game", SaveFileError)
    if text.startswith("{") and JOURNAL_FORMAT in text.partition("\n")[0]:
        raise SaveFileError(
            f"{path}: this is the window's game journal, not a saved game; "
            f"go on with it in the window: scorekeeper --resume {path}"
        )
    document = parse_json(text, f"{path}: damaged", SaveFileError)
    return saved_from_json(document, str(path))
