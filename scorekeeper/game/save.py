"""Saving and loading games as versioned JSON.

A save is written to a temporary file beside the target, synced, then renamed
over it, so a crash never leaves half a file. Loading reads the whole file,
checks it, and replays the log; any problem raises :class:`SaveFileError`
naming the file and leaves it untouched.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from scorekeeper.game.events import event_from_dict, event_to_dict
from scorekeeper.game.game import Game
from scorekeeper.rules import FarkleError

FORMAT = "scorekeeper-game"
VERSION = 1
"""The save format this program writes, and the newest it reads."""


class SaveFileError(FarkleError):
    """A saved game that cannot be read or written; the file is left as it was."""


def game_to_json(game: Game) -> dict[str, Any]:
    """The game as a JSON document."""
    return {"format": FORMAT, "version": VERSION, "events": [event_to_dict(event) for event in game.events]}


def game_from_json(document: Any, where: str) -> Game:
    """Read a game back from its JSON document; ``where`` names it in errors."""
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
    events = document.get("events")
    if not isinstance(events, list):
        raise SaveFileError(f"{where}: the save has no list of events")
    try:
        return Game.from_events([event_from_dict(event) for event in events])
    except FarkleError as exc:
        raise SaveFileError(f"{where}: damaged: {exc}") from None


_UMASK = os.umask(0o022)
os.umask(_UMASK)
"""The user's file-creation mask, read once at start-up (reading it means setting it, which is not
safe while other threads create files)."""


def new_file_mode() -> int:
    """The mode a new file gets under the user's umask (0644 under the usual 022): what a saved game
    or an exported sheet should have, where a temporary file renamed into place would keep 0600."""
    return 0o666 & ~_UMASK


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` all at once: readers see the old file or the new, never half.
    The file gets the user's normal mode (see :func:`new_file_mode`)."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(handle, new_file_mode())
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def save_game(game: Game, path: str | Path) -> None:
    """Write the game to ``path`` as JSON."""
    try:
        write_atomically(Path(path), json.dumps(game_to_json(game), indent=1) + "\n")
    except OSError as exc:
        raise SaveFileError(f"{path}: cannot save the game: {exc.strerror or exc}") from None


def load_game(path: str | Path) -> Game:
    """Read a game saved by :func:`save_game`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveFileError(f"{path}: no such saved game") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"{path}: cannot read the saved game: {exc}") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{path}: damaged: not valid JSON at line {exc.lineno}, column {exc.colno}") from None
    return game_from_json(document, str(path))
