"""The pictures of a game's rolls, kept beside its journal and named in it by their SHA-256.

Each roll the camera took is kept as a small JPEG of the rolling area with the dice as scored
(see :mod:`scorekeeper.table_session.roll_pictures`, which draws and writes them). They live in a folder
beside the journal, ``NAME.photos/`` for ``NAME.jsonl``, each file named ``SHA256.jpg``; the
roll's event (and each tap correcting it) names the picture of the roll as it stood then, so the
roll's picture is the one its last step in force names. Pure Python: the score sheet, the phone
scoreboard and the window all find a roll's picture here.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import Dice, load_rules
>>> game = Game.new(load_rules("retail"), ["Ann"])
>>> game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", "a" * 64))
>>> game.act(DieCorrected(2, 5, photo="b" * 64)); game.keep("1 5"); game.bank()
>>> [name[:1] for name in turn_photos(game.events)[0]]
['b']
>>> photos_folder(Path("games/2026-01-01_20-00-00.jsonl"))
PosixPath('games/2026-01-01_20-00-00.photos')
"""

from __future__ import annotations

import enum
import hashlib
import os
import shutil
import stat
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scorekeeper.game.events import Action, DiceRolled, DieCorrected, Event, GameStarted, PlayerAdded, StepsInForce, is_photo_name
from scorekeeper.game.game import Game
from scorekeeper.game.games_folder import STALE_SECONDS, games_folder, is_real
from scorekeeper.game.history_edits import segments
from scorekeeper.game.journal import SUFFIX
from scorekeeper.game.lock import check_not_open_elsewhere, lock_path
from scorekeeper.safe_input import InputFileError, read_file

FOLDER_SUFFIX = ".photos"
"""How the folder of a journal's pictures is named: the journal's name with this instead of ``.jsonl``."""
PHOTO_SUFFIX = ".jpg"
"""The pictures' file ending."""
MAX_PHOTO_BYTES = 1_000_000
"""The largest roll picture read: this program keeps each under 60 KB, so a larger file at a
picture's name is not one it wrote, and is reported damaged without being read."""

__all__ = [
    "FOLDER_SUFFIX",
    "MAX_PHOTO_BYTES",
    "PHOTO_SUFFIX",
    "PhotoStatus",
    "RollPhoto",
    "delete_game",
    "last_roll_photo",
    "photo_file",
    "photos_folder",
    "read_photo",
    "roll_photo",
    "tidy_photo_folders",
    "turn_photos",
]


def photos_folder(journal: Path) -> Path:
    """The folder of the pictures of the game in ``journal`` (a damaged copy kept aside shares the
    original's folder)."""
    base = journal.name.removesuffix(SUFFIX).split(".damaged-")[0]
    return journal.with_name(base + FOLDER_SUFFIX)


def photo_file(journal: Path, name: str) -> Path:
    """Where the picture ``name`` (its SHA-256) of the game in ``journal`` is kept."""
    if not is_photo_name(name):
        raise ValueError(f"{name!r} is not a picture's name (its SHA-256 as 64 hex digits)")
    return photos_folder(journal) / (name + PHOTO_SUFFIX)


class PhotoStatus(enum.Enum):
    """Whether a roll's picture can be shown."""

    OK = "ok"
    """On disk, and its bytes are the ones its name (the SHA-256) was made of."""
    MISSING = "missing"
    """Not on disk (deleted, or the folder not copied along with the journal)."""
    DAMAGED = "damaged"
    """On disk, but its bytes no longer hash to its name, or it cannot be read."""


@dataclass(frozen=True)
class RollPhoto:
    """A roll's picture, found and checked."""

    name: str
    """The SHA-256 the journal names it by."""
    path: Path
    """Where it is (or should be) kept."""
    status: PhotoStatus
    """Whether it can be shown."""

    @property
    def shown(self) -> bool:
        """Whether the picture can be shown as it was kept."""
        return self.status is PhotoStatus.OK

    def note(self) -> str:
        """What a score sheet says in the picture's place when it cannot show it."""
        return f"picture {self.status.value} ({self.path.name})"


def read_photo(path: Path) -> bytes | None:
    """The bytes of the roll picture at ``path``; None when there is no regular file of at most
    :data:`MAX_PHOTO_BYTES` there that this user may read (a named pipe or device is not opened)."""
    try:
        return read_file(path, "roll picture", limit=MAX_PHOTO_BYTES)
    except InputFileError:
        return None


def roll_photo(journal: Path, name: str) -> RollPhoto:
    """The picture ``name`` of the game in ``journal``, checked against its SHA-256."""
    path = photo_file(journal, name)
    data = read_photo(path)
    if data is None:
        return RollPhoto(name, path, PhotoStatus.DAMAGED if os.path.lexists(path) else PhotoStatus.MISSING)
    good = hashlib.sha256(data).hexdigest() == name
    return RollPhoto(name, path, PhotoStatus.OK if good else PhotoStatus.DAMAGED)


def _roll_photos(actions: Sequence[Action]) -> list[str | None]:
    """The picture of each roll among ``actions`` (steps in force), in order: the one its last
    step naming a picture names (None: none kept)."""
    photos: list[str | None] = []
    for action in actions:
        if isinstance(action, DiceRolled):
            photos.append(action.photo)
        elif isinstance(action, DieCorrected) and photos and action.photo is not None:
            photos[-1] = action.photo
    return photos


def turn_photos(events: Sequence[Event]) -> list[tuple[str | None, ...]]:
    """For each finished turn of the game, the picture of each of its rolls (None: no picture kept)."""
    found: dict[int, tuple[str | None, ...]] = {}
    for part in segments(events):
        if part.turn is not None:
            found[part.turn] = tuple(_roll_photos(part.actions))
    return [found.get(turn, ()) for turn in range(len(Game.from_events(events).state.history))]


def last_roll_photo_name(events: Sequence[Event]) -> str | None:
    """The name of the latest roll's picture (the roll on the table now, or the last one of the
    turn just ended; a tap's picture where a tap corrected it); None when it has none (typed, or
    none kept)."""
    actions = [a for a in StepsInForce.of(events).active if not isinstance(a, (GameStarted, PlayerAdded))]
    start = max((i for i, a in enumerate(actions) if isinstance(a, DiceRolled)), default=None)
    return None if start is None else _roll_photos(actions[start:])[0]


def last_roll_photo(journal: Path, events: Sequence[Event]) -> RollPhoto | None:
    """The picture of the latest roll of the game (see :func:`last_roll_photo_name`), checked."""
    name = last_roll_photo_name(events)
    return roll_photo(journal, name) if name is not None else None


def delete_game(journal: Path) -> None:
    """Delete the game in ``journal``: its pictures first, then the journal (a delete cut off
    half-way leaves a game without pictures, never pictures without a game), then a lock a writer
    that died left on it. A game open in another process is refused (:class:`GameOpenElsewhere`)."""
    check_not_open_elsewhere(journal)
    shutil.rmtree(photos_folder(journal), ignore_errors=True)
    journal.unlink(missing_ok=True)
    lock_path(journal).unlink(missing_ok=True)


def tidy_photo_folders(home: Path) -> None:
    """Remove picture folders whose journal is gone (a game deleted by hand, or a delete cut off),
    and the temporary files of pictures whose writing a kill cut off (once they are
    :data:`~scorekeeper.game.games_folder.STALE_SECONDS` old: a window may be writing one now).

    Only real folders and files are touched: a link in the games folder or in a picture folder
    (to pictures kept on another disk, say) is left as it is, and so is whatever it points to."""
    folder = games_folder(home)
    if not folder.is_dir():
        return
    for pictures in folder.glob(f"*{FOLDER_SUFFIX}"):
        if not is_real(pictures, stat.S_ISDIR):
            continue
        if not pictures.with_name(pictures.name.removesuffix(FOLDER_SUFFIX) + SUFFIX).exists():
            shutil.rmtree(pictures, ignore_errors=True)
            continue
        for partial in pictures.glob(".*.tmp"):
            try:
                status = partial.lstat()
                if stat.S_ISREG(status.st_mode) and time.time() - status.st_mtime > STALE_SECONDS:
                    partial.unlink()
            except OSError:
                continue

