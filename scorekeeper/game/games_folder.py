"""The games folder: where a scorekeeper home keeps its journals, what a new one is named, which
games are offered for resume, and the start-up tidying of what a killed process left there.

The home is ``$SCOREKEEPER_HOME``, else the user's data folder (:func:`default_home`); its
journals live in ``HOME/games/`` (:func:`games_folder`), named by the time they start
(:func:`new_journal_path`).
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from scorekeeper.game.events import Event, PlayerAdded, StepsInForce
from scorekeeper.game.journal import SUFFIX, JournalContents, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.game.lock import game_holder, lock_path
from scorekeeper.rules import FarkleError
from scorekeeper.safe_output import sync_folder

STALE_SECONDS = 60.0
"""How long a journal may hold no game before start-up removes it: a window writes the game's
first event right after creating the journal, so one that stays empty was left by a kill."""


def is_real(path: Path, kind: Callable[[int], bool] = stat.S_ISREG) -> bool:
    """Whether ``path`` itself (not a link's target) is there and of ``kind`` (a regular file by
    default): tidying touches nothing else, so it never leaves the folder it tidies."""
    try:
        return kind(path.lstat().st_mode)
    except OSError:
        return False


def finish_interrupted(folder: Path) -> None:
    """Tidy what a killed recovery left in ``folder``: a recovered copy whose journal is gone (left
    by an older scorekeeper, which moved the damaged file first) takes the journal's name; any
    other is dropped (the journal is still there and is recovered again when opened), and so is a
    half-made copy of a damaged file. Links are left alone (:func:`is_real`)."""
    for copy in folder.glob(f".*{SUFFIX}.copying"):
        if is_real(copy):
            copy.unlink(missing_ok=True)
    for fresh in folder.glob(f".*{SUFFIX}.recovering"):
        journal = fresh.with_name(fresh.name.removeprefix(".").removesuffix(".recovering"))
        if not is_real(fresh):
            continue
        try:
            if os.path.lexists(journal):
                fresh.unlink()
            else:
                os.replace(fresh, journal)
        except OSError:
            continue
    sync_folder(folder)


def _drop_if_left_empty(path: Path, contents: JournalContents | None) -> None:
    """Remove a journal that a start killed before the game's first event left holding nothing
    (no byte, or the format line alone), once it has stayed so for :data:`STALE_SECONDS` and no
    writer holds it, with the lock the killed start left; a link is left alone (:func:`is_real`)."""
    if not is_real(path):
        return
    try:
        size, changed = path.stat().st_size, path.stat().st_mtime
    except OSError:
        return
    empty = size == 0 if contents is None else contents.damage is None and not contents.events
    if empty and time.time() - changed > STALE_SECONDS and game_holder(path) is None:
        path.unlink(missing_ok=True)
        lock_path(path).unlink(missing_ok=True)


def games_folder(home: Path) -> Path:
    """Where the journals of a scorekeeper home folder live."""
    return home / "games"


def new_journal_path(home: Path) -> Path:
    """A fresh journal name in the games folder, named by the time."""
    folder = games_folder(home)
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    candidate = folder / f"{stamp}{SUFFIX}"
    count = 1
    while candidate.exists():
        count += 1
        candidate = folder / f"{stamp}-{count}{SUFFIX}"
    return candidate


def had_a_roll(events: Sequence[Event]) -> bool:
    """Whether a game's log holds a step of play in force beyond seating its players: a game that
    never had one (a start left at once, a screenshot run) is not worth going on with."""
    return any(not isinstance(action, PlayerAdded) for action in StepsInForce.of(events).active)


def unfinished_games(home: Path, tidy: bool = True) -> list[Path]:
    """Journals of games not over, not shelved and played (:func:`had_a_roll`), newest first
    (damaged ones included).

    As the window's start-up, it also tidies the folder: it finishes or drops what a killed
    recovery left (:func:`finish_interrupted`) and removes journals left holding no game.
    ``tidy=False`` only reads, for a program that watches games a window may be playing.
    """
    folder = games_folder(home)
    if not folder.is_dir():
        return []
    if tidy:
        finish_interrupted(folder)
    found = []
    for path in folder.glob(f"*{SUFFIX}"):
        if ".damaged-" in path.name:
            continue
        try:
            contents = read_journal(path)
        except JournalError:
            if tidy:
                _drop_if_left_empty(path, None)
            continue
        if not contents.events:
            if tidy:
                _drop_if_left_empty(path, contents)
            continue
        if contents.shelved or not had_a_roll(contents.events):
            continue
        try:
            if contents.game().state.over:
                continue
        except FarkleError:
            continue
        found.append(path)
    return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)


def default_home() -> Path:
    """The folder for journals and corrections: ``$SCOREKEEPER_HOME``, else the user's data folder."""
    if os.environ.get("SCOREKEEPER_HOME"):
        return Path(os.environ["SCOREKEEPER_HOME"])
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "scorekeeper"
