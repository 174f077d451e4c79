"""Writing whole files safely: a reader, or the next start after a crash, finds the old file or
the new one, never half of one.

Every writer of a whole file goes through :func:`write_atomically`: the new contents go to a
temporary file beside the target, are synced to disk, renamed over the target, and the folder is
synced so the new name itself survives a crash; the temporary file is removed when anything fails
(or the write is interrupted), and those a killed earlier write left are removed first. A file
replaced keeps its mode; a new one gets the user's normal mode (:func:`new_file_mode`). Appending
to a file (the game's journal, the corrections index) is not done here. Nothing here reads a
user's file (that is :mod:`scorekeeper.safe_input`).
"""

from __future__ import annotations

import glob
import os
import stat
import tempfile
from pathlib import Path

_UMASK = os.umask(0o022)
os.umask(_UMASK)
"""The user's file-creation mask, read once at start-up (reading it means setting it, which is not
safe while other threads create files)."""


def new_file_mode() -> int:
    """The mode a new file gets under the user's umask (0644 under the usual 022): what a saved game
    or an exported sheet should have, where a temporary file renamed into place would keep 0600."""
    return 0o666 & ~_UMASK


def sync_folder(folder: Path) -> None:
    """Make a new or renamed file's name itself durable (where the system allows)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def clear_leftovers(path: Path) -> None:
    """Remove the temporary files (``.NAME.RANDOM.tmp``) that writes of ``path`` killed midway left
    beside it; only for a writer that holds ``path`` (no other write of it can be under way)."""
    path = Path(path)
    for stale in path.parent.glob(f".{glob.escape(path.name)}.*.tmp"):
        if stale.is_symlink() or not stale.is_dir():
            try:
                stale.unlink(missing_ok=True)
            except OSError:
                continue


def write_atomically(path: Path, text: str | bytes, temporary: Path | None = None) -> None:
    """Replace ``path`` with ``text`` (UTF-8) or bytes all at once: readers see the old file or the
    new, never half. A file replaced keeps its mode; a new one gets the user's normal mode.

    The temporary file is ``.NAME.RANDOM.tmp`` beside ``path``, and those a killed earlier write of
    ``path`` left behind are removed first. ``temporary`` names it instead, for a writer whose
    crash recovery looks for that name (the journal's recovery); it must be beside ``path``.
    """
    path = Path(path)
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = new_file_mode()
    if temporary is None:
        clear_leftovers(path)
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        temporary = Path(name)
    else:
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), mode)
            stream.write(text.encode("utf-8") if isinstance(text, str) else text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    sync_folder(path.parent)
