"""The journal: every event of a game on disk before the screen shows it.

A journal is a text file of JSON lines, only ever appended to. Its first line
names the format; every other line is a game event (as
:func:`~scorekeeper.game.events.event_to_dict` writes it) or one of two
records of the journal's own:

* ``{"type": "rebuilt", "events": [...]}``: a past turn was corrected, and the
  game goes on from this whole new log (the old lines stay where they are);
* ``{"type": "shelved"}``: the players chose not to go on with the game, so it
  is not offered for resume again (it can still be opened by name).

:meth:`Journal.write` is a :data:`~scorekeeper.game.EventSink`: it writes the
line, flushes and syncs it, and only then lets the game take the event, so a
crash, a closed lid or a killed process loses nothing that was shown.

A game has one writer: :class:`GameLock` holds ``GAME.jsonl.lock`` (an ``flock`` on it, which
the system lets go of when the process ends, however it ends) for as long as a journal is open
for writing. Readers (the phones' scoreboard, the exports) take no lock.

Reading stops at the first line that cannot be taken (cut off mid-write, not
JSON, not an event, or an event the game refuses) and says which line that is;
:func:`open_journal` recovers everything before it and every later step that still
follows the rules once the bad line is left out (:func:`salvage`), keeps the damaged
file under a new name and goes on in a fresh copy of what was kept.

>>> import tempfile
>>> from scorekeeper.rules import load_rules
>>> folder = Path(tempfile.mkdtemp())
>>> journal = Journal.create(folder / "game.jsonl")
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> journal.close()
>>> recovered = open_journal(folder / "game.jsonl")
>>> recovered.game.state.players[0].score, recovered.damage is None
(250, True)
>>> recovered.journal.close()
"""

from __future__ import annotations

import fcntl
import glob
import json
import os
import stat
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from scorekeeper.game.events import (
    Action,
    Event,
    EventFormatError,
    GameStarted,
    PlayerAdded,
    StepsInForce,
    event_from_dict,
    event_to_dict,
)
from scorekeeper.game.game import Game
from scorekeeper.game.state import apply, start
from scorekeeper.rules import FarkleError, IllegalAction
from scorekeeper.safe_input import InputFileError, decode_text, parse_json, read_file
from scorekeeper.safe_output import sync_folder, write_atomically

FORMAT = "scorekeeper-journal"
VERSION = 1
"""The journal format this program writes, and the newest it reads."""
SUFFIX = ".jsonl"
"""File name ending of journals in the games folder."""
STALE_SECONDS = 60.0
"""How long a journal may hold no game before start-up removes it: a window writes the game's
first event right after creating the journal, so one that stays empty was left by a kill."""
REBUILT = "rebuilt"
SHELVED = "shelved"
LOCK_SUFFIX = ".lock"
"""Ending added to a game file's name for its lock (``GAME.jsonl.lock``)."""


class JournalError(FarkleError):
    """A journal that cannot be written or read; what is on disk is left as it was."""


@dataclass(frozen=True)
class JournalDamage:
    """Where a journal breaks, and what was done about it."""

    path: Path
    """The journal that was damaged."""
    line: int
    """The first line that could not be read (1 is the first line of the file)."""
    reason: str
    """What is wrong with that line."""
    recovered: int
    """How many events before that line were recovered."""
    kept_as: Path | None = None
    """Where the damaged file was kept, untouched; None when it was only read."""
    skipped: tuple[int, ...] = ()
    """The lines a recovery left out, as none of them can be read as a step (the damaged line
    first, unless it was kept)."""
    repaired: tuple[int, ...] = ()
    """The lines a recovery kept without the name of a picture, the one thing wrong with them."""
    kept_after: int = 0
    """How many lines after the damaged one a recovery kept, each still following the rules."""
    stopped_at: int = 0
    """The line whose step the game refuses once the lines before it are left out: a recovery keeps
    nothing from there on (0 when it went to the end of the file)."""
    stopped: str = ""
    """The game's reason for refusing the step of :attr:`stopped_at`."""
    left_out: int = 0
    """How many lines from :attr:`stopped_at` on a recovery did not keep."""

    def __str__(self) -> str:
        told = f"{self.path}: the journal breaks at line {self.line} ({self.reason}); the {self.recovered} events before it are recovered"
        if self.kept_as is None:
            return told
        if self.skipped == (self.line,) and not self.kept_after and not self.stopped_at:
            return f"{told}; the damaged file is kept as {self.kept_as}"
        if self.repaired:
            told += f"; {_lines_named(self.repaired)} kept without the name of a picture, which was not a picture's name"
        if self.skipped:
            told += f"; {_lines_named(self.skipped)} left out, as no step can be read from {'it' if len(self.skipped) == 1 else 'them'}"
        if self.kept_after:
            told += f"; {self.kept_after} of the lines after line {self.line} kept, each still following the rules"
        if self.stopped_at:
            told += (
                f"; the {self.left_out} lines from line {self.stopped_at} on are not kept, as the game refuses "
                f"line {self.stopped_at} once the lines before it are left out ({self.stopped})"
            )
        return f"{told}; the damaged file is kept as {self.kept_as}"


def _lines_named(numbers: Sequence[int]) -> str:
    """Line numbers in words: "line 7", "lines 7, 9 and 12"."""
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    return f"lines {', '.join(str(n) for n in numbers[:-1])} and {numbers[-1]}"


@dataclass(frozen=True)
class JournalContents:
    """What reading a journal found."""

    events: tuple[Event, ...]
    """The game's log as far as it could be read (what :attr:`Game.events` would be)."""
    good_bytes: int
    """Length of the readable start of the file, in bytes."""
    shelved: bool
    """Whether the players chose not to go on with this game."""
    damage: JournalDamage | None
    """Where the file breaks, if it does."""

    def game(self) -> Game:
        """The game these events make."""
        return Game.from_events(self.events)


@dataclass(frozen=True)
class LockHolder:
    """The process that holds (or last held) a game's lock, as its lock file says."""

    pid: int
    """The process's id (0 when the lock file does not say)."""
    since: str
    """When it took the lock, ISO 8601 ("" when the file does not say)."""

    def __str__(self) -> str:
        if not self.pid:
            return "another process"
        try:
            when = f" since {datetime.fromisoformat(self.since):%H:%M}"
        except ValueError:
            when = ""
        return f"process {self.pid}{when}"


UNKNOWN_HOLDER = LockHolder(0, "")
"""A holder whose lock file does not say who it is (it is being written, or was spoiled)."""


class GameOpenElsewhere(JournalError):
    """The game is open for writing in another process (or another window of this one)."""


def lock_path(game: Path) -> Path:
    """The lock file of the game file ``game``."""
    return game.with_name(game.name + LOCK_SUFFIX)


def _holder_in(handle: int) -> LockHolder | None:
    """Who the open lock file says holds it; None for an empty or unreadable file."""
    try:
        record = json.loads(os.pread(handle, 4096, 0).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict):
        return None
    pid, since = record.get("pid"), record.get("since")
    if not isinstance(pid, int) or isinstance(pid, bool):
        return None
    return LockHolder(pid, since if isinstance(since, str) else "")


def _open_elsewhere(game: Path, holder: LockHolder) -> GameOpenElsewhere:
    return GameOpenElsewhere(
        f"{game} is already open (in {holder}): go on with it there, or close it there first; "
        f"'scorekeeper serve {game}' shows it read-only meanwhile"
    )


class GameLock:
    """The one writer's hold on a game file, taken with :meth:`take` and let go of with :meth:`release`."""

    def __init__(self, game: Path, handle: int, took_over: LockHolder | None) -> None:
        self.game = game
        """The game file held."""
        self.path = lock_path(game)
        """The lock file."""
        self.took_over = took_over
        """The writer whose lock this one took over: it died without letting go (None if there was none)."""
        self._handle: int | None = handle

    @classmethod
    def take(cls, game: str | Path) -> GameLock:
        """Hold ``game`` for writing; raises :class:`GameOpenElsewhere` naming the process that holds it."""
        game = Path(game)
        path = lock_path(game)
        while True:
            try:
                handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise JournalError(f"{game}: cannot lock the game for writing: {exc.strerror or exc}") from None
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _holder_in(handle) or UNKNOWN_HOLDER
                os.close(handle)
                raise _open_elsewhere(game, holder) from None
            try:
                current = os.path.samestat(os.fstat(handle), os.stat(path))
            except OSError:
                current = False
            if current:
                break
            os.close(handle)  # a writer let go and removed the file between our open and our lock
        left = _holder_in(handle)
        mine = json.dumps({"pid": os.getpid(), "since": datetime.now().astimezone().isoformat(timespec="seconds")})
        try:
            os.ftruncate(handle, 0)
            os.pwrite(handle, mine.encode("utf-8"), 0)
        except OSError:
            pass  # the hold is the flock; without the record, another writer is told "in another process"
        return cls(game, handle, left)

    @property
    def told(self) -> str:
        """What to tell the players when the lock of a writer that died was taken over ("" if none)."""
        if self.took_over is None:
            return ""
        return f"the lock that {self.took_over} left on {self.game.name} was taken over (that process is no longer writing it)"

    def release(self) -> None:
        """Let go of the game: remove the lock file and close it."""
        if self._handle is not None:
            self.path.unlink(missing_ok=True)
            os.close(self._handle)
            self._handle = None


def game_holder(game: str | Path) -> LockHolder | None:
    """Who holds ``game`` for writing now, without taking it; None when nobody does."""
    path = lock_path(Path(game))
    try:
        # O_NONBLOCK: something other than a lock file at its name (a named pipe) must not make this wait
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return None
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return _holder_in(handle) or UNKNOWN_HOLDER
    finally:
        os.close(handle)
    return None


def check_not_open_elsewhere(game: str | Path) -> None:
    """Raise :class:`GameOpenElsewhere` when another process holds ``game`` for writing."""
    holder = game_holder(game)
    if holder is not None:
        raise _open_elsewhere(Path(game), holder)


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


class Journal:
    """An open journal, appended to one synced line at a time, its game held by a :class:`GameLock`."""

    def __init__(self, path: Path, handle: int, lock: GameLock) -> None:
        self.path = path
        """The journal's file."""
        self.lock = lock
        """This process's hold on the game, let go of by :meth:`close`."""
        self._handle: int | None = handle

    @classmethod
    def create(cls, path: str | Path) -> Journal:
        """Start a new journal at ``path``; refuses to touch a file that is already there."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise JournalError(f"{path}: cannot start a journal: {path.parent} is a file, not a folder") from None
        except OSError as exc:
            raise JournalError(f"{path}: cannot start a journal: cannot make its folder ({exc.strerror or exc})") from None
        lock = GameLock.take(path)
        try:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND, 0o644)
        except FileExistsError:
            lock.release()
            raise JournalError(f"{path}: a journal is already there; open it to go on with that game") from None
        except OSError as exc:
            lock.release()
            raise JournalError(f"{path}: cannot start a journal: {exc.strerror or exc}") from None
        journal = cls(path, handle, lock)
        try:
            journal._append(_line({"format": FORMAT, "version": VERSION}))
        except JournalError:
            journal.close()
            raise
        sync_folder(path.parent)
        return journal

    @classmethod
    def append_to(cls, path: str | Path, lock: GameLock | None = None) -> Journal:
        """Open an existing, readable journal to go on writing it (``lock``: the game already held)."""
        path = Path(path)
        lock = lock or GameLock.take(path)
        try:
            handle = os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            lock.release()
            raise JournalError(f"{path}: cannot open the journal: {exc.strerror or exc}") from None
        return cls(path, handle, lock)

    def _append(self, line: bytes) -> None:
        if self._handle is None:
            raise JournalError(f"{self.path}: the journal is closed")
        size: int | None = None
        try:
            size = os.fstat(self._handle).st_size
            written = 0
            while written < len(line):
                written += os.write(self._handle, line[written:])
            os.fsync(self._handle)
        except OSError as exc:
            if size is not None:
                self._cut_back(size)
            raise JournalError(
                f"{self.path}: cannot write the journal ({exc.strerror or exc}); the last step was not taken: "
                "make room on the disk or check that it is still there, then take the step again"
            ) from None

    def _cut_back(self, size: int) -> None:
        """Take a line that was not synced back off the file, so a refused step is not read back on resume."""
        assert self._handle is not None
        try:
            os.ftruncate(self._handle, size)
        except OSError:
            pass

    def write(self, event: Event) -> None:
        """Write one event, synced to disk (the game's sink: it runs before the game takes the event)."""
        self._append(_line(event_to_dict(event)))

    def rebuilt(self, events: Sequence[Event]) -> None:
        """Record that the game now goes on from ``events`` (a past turn was corrected)."""
        self._append(_line({"type": REBUILT, "events": [event_to_dict(event) for event in events]}))

    def shelve(self) -> None:
        """Record that the players chose not to go on with this game."""
        self._append(_line({"type": SHELVED}))

    def close(self) -> None:
        """Close the file (every line is already on disk) and let go of the game."""
        if self._handle is not None:
            os.close(self._handle)
            self._handle = None
            self.lock.release()


def _take(game: Game | None, event: Event) -> Game:
    if game is None:
        if not isinstance(event, GameStarted):
            raise EventFormatError("the first event of a game must be its start")
        return Game.from_events([event])
    if isinstance(event, GameStarted):
        raise EventFormatError("a second start of a game in the same journal")
    game.take(event)
    return game


Step = Event | tuple[Event, ...] | None
"""What one line of a journal stands for: an event, the whole new log of a rebuilt game, or None
for the players shelving the game."""


def _step_of(record: Any) -> Step:
    """The step a journal line holds; :class:`EventFormatError` when it holds none."""
    if isinstance(record, dict) and record.get("type") == SHELVED:
        return None
    if isinstance(record, dict) and record.get("type") == REBUILT:
        listed = record.get("events")
        if not isinstance(listed, list):
            raise EventFormatError("a rebuilt game without its list of events")
        return tuple(event_from_dict(item) for item in listed)
    return event_from_dict(record)


def _apply(game: Game | None, step: Step) -> Game | None:
    """The game once ``step`` is taken (raising the game's reason when it refuses it)."""
    if step is None:
        return game
    if isinstance(step, tuple):
        return Game.from_events(step)
    return _take(game, step)


def _header_problem(data: Any) -> str | None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return "not a scorekeeper journal"
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        return "the journal has no format version"
    if version > VERSION:
        return f"written by a newer scorekeeper (format version {version}; this one reads up to {VERSION})"
    return None


CUT_OFF = "the line was cut off while it was being written"
"""The reason given for a last line without its end (a writer killed, or still writing it)."""


def _lines(data: bytes) -> list[bytes]:
    """A journal's lines without their ends (the last one too when it has none)."""
    lines = data.split(b"\n")
    complete = lines[:-1]
    if lines[-1]:
        complete.append(lines[-1])
    return complete


def _record(path: Path, data: bytes, start: int, raw: bytes, number: int) -> Any:
    """The JSON of line ``number`` (starting at byte ``start``); :class:`EventFormatError` saying
    what is wrong when it is cut off or not JSON."""
    if start + len(raw) + 1 > len(data):
        raise EventFormatError(CUT_OFF)
    try:
        return parse_json(decode_text(raw, str(path), line=number), str(path), line=number)
    except InputFileError as exc:
        raise EventFormatError(f"not a JSON line: {str(exc).removeprefix(f'{path}:{number}: ')}") from None


def read_journal(path: str | Path) -> JournalContents:
    """Read a journal as far as it goes, without changing anything on disk."""
    path = Path(path)
    return _read(path, read_file(path, "journal", JournalError))


def _read(path: Path, data: bytes) -> JournalContents:
    """What the journal ``data`` read from ``path`` holds, as far as it can be read."""
    game: Game | None = None
    shelved = False
    good = 0
    number = 0
    reason = ""
    for number, raw in enumerate(_lines(data), start=1):
        end = good + len(raw) + 1
        try:
            record = _record(path, data, good, raw, number)
        except EventFormatError as exc:
            reason = str(exc)
            break
        if number == 1:
            problem = _header_problem(record)
            if problem is not None:
                if isinstance(record, dict) and record.get("format") == FORMAT:
                    raise JournalError(f"{path}: {problem}")
                raise JournalError(f"{path}: {problem} (line 1 does not name the format)")
            good = end
            continue
        try:
            step = _step_of(record)
            game = _apply(game, step)
        except FarkleError as exc:
            reason = str(exc)
            break
        shelved = shelved or step is None
        good = end
    else:
        number = 0
    if good == 0 and not reason:
        raise JournalError(f"{path}: the journal is empty")
    events = game.events if game is not None else ()
    damage = JournalDamage(path, number, reason, len(events)) if reason else None
    return JournalContents(events, good, shelved, damage)


def _without_pictures(record: Any) -> Event:
    """The event of a line whose only fault is the name of a picture (its ``photo`` or ``picture``
    field), with those fields left out; :class:`EventFormatError` when it is wrong elsewhere too."""
    if not isinstance(record, dict) or not {"photo", "picture"} & record.keys():
        raise EventFormatError("no picture's name to leave out")
    return event_from_dict({key: value for key, value in record.items() if key not in ("photo", "picture")})


@dataclass(frozen=True)
class Salvage:
    """What recovery keeps of a damaged journal: its readable start, then every later line that
    can be read and still follows the rules."""

    game: Game
    """The game the kept lines make."""
    data: bytes
    """The kept lines, as they go back on disk (each kept line as it was, a repaired one rewritten)."""
    damage: JournalDamage
    """The damage, with what was kept, repaired and left out after it."""


def salvage(path: Path, data: bytes, contents: JournalContents) -> Salvage:
    """Keep what can be kept of the damaged journal ``data`` read as ``contents``: a line that
    cannot be read as a step is left out (one whose only fault is a picture's name is kept without
    it), and every later line is replayed through the rules; the first step the game refuses once
    the lines before it are left out ends the recovery there (the damaged line itself, refused, is
    only left out)."""
    damage = contents.damage
    assert damage is not None
    game = Game.from_events(contents.events)
    kept = [data[: contents.good_bytes]]
    lines = _lines(data)
    start = contents.good_bytes
    skipped: list[int] = []
    repaired: list[int] = []
    kept_after = stopped_at = 0
    stopped = ""
    for number in range(damage.line, len(lines) + 1):
        raw = lines[number - 1]
        line_start, start = start, start + len(raw) + 1
        try:
            record = _record(path, data, line_start, raw, number)
        except EventFormatError:
            skipped.append(number)
            continue
        repair = False
        try:
            step = _step_of(record)
        except FarkleError:
            try:
                step = _without_pictures(record)
            except FarkleError:
                skipped.append(number)
                continue
            repair = True
        try:
            taken = _apply(game, step)
        except FarkleError as exc:
            if number == damage.line:
                skipped.append(number)
                continue
            stopped_at, stopped = number, str(exc)
            break
        assert taken is not None
        game = taken
        if repair:
            assert step is not None and not isinstance(step, tuple)
            repaired.append(number)
            kept.append(_line(event_to_dict(step)))
        else:
            kept.append(raw + b"\n")
        if number != damage.line:
            kept_after += 1
    left_out = len(lines) - stopped_at + 1 if stopped_at else 0
    told = JournalDamage(
        path, damage.line, damage.reason, damage.recovered,
        skipped=tuple(skipped), repaired=tuple(repaired), kept_after=kept_after, stopped_at=stopped_at, stopped=stopped, left_out=left_out,
    )
    return Salvage(game, b"".join(kept), told)


@dataclass(frozen=True)
class Recovered:
    """A journal opened to go on with its game."""

    game: Game
    """The game, writing each new event to :attr:`journal`."""
    journal: Journal
    """The journal, open for appending."""
    damage: JournalDamage | None
    """What was wrong with the file, if anything; then the damaged file was moved aside."""


def _aside_name(path: Path) -> Path:
    """Where the damaged file is kept: a name already holding this very file (a recovery cut off
    after keeping it), else a new one named by the time."""
    base = path.name.removesuffix(SUFFIX)
    for kept in path.parent.glob(f"{glob.escape(base)}.damaged-*{SUFFIX}"):
        try:
            if os.path.samefile(kept, path):
                return kept
        except OSError:
            continue
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    candidate = path.with_name(f"{base}.damaged-{stamp}{SUFFIX}")
    count = 1
    while candidate.exists():
        count += 1
        candidate = path.with_name(f"{base}.damaged-{stamp}-{count}{SUFFIX}")
    return candidate


def _recovering_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.recovering")


def _keep_aside(path: Path, aside: Path) -> None:
    """Put the damaged file under ``aside`` too, leaving ``path`` itself in place."""
    if aside.exists():
        return
    try:
        os.link(path, aside)
    except OSError:
        write_atomically(aside, path.read_bytes(), temporary=aside.with_name(f".{aside.name}.copying"))


def no_game_error(path: Path, damage: JournalDamage | None) -> JournalError:
    """The error for a journal that holds no game: only its first line, or damaged before the first event."""
    if damage is None:
        return JournalError(f"{path}: the journal holds no game yet (only its first line); start a new game instead")
    return JournalError(f"{path}: no game could be read from the journal: it breaks at line {damage.line} ({damage.reason})")


def open_journal(path: str | Path) -> Recovered:
    """Open a journal to go on with its game, recovering what :func:`salvage` keeps of a damaged
    one; the game is held for this process (:class:`GameOpenElsewhere` when another one holds it).

    A damaged file is never written over: it is kept under a new name, and the lines kept replace
    it under the original name in one rename. Each step leaves the original name holding either
    the damaged file or the recovered one, so a recovery cut off at any point is simply done again
    the next time (see :func:`finish_interrupted`).
    """
    path = Path(path)
    lock = GameLock.take(path)
    try:
        data = read_file(path, "journal", JournalError)
        contents = _read(path, data)
        if not contents.events:
            raise no_game_error(path, contents.damage)
        events = contents.events
        damage = contents.damage
        if damage is not None:
            kept = salvage(path, data, contents)
            damage = _recover(path, kept)
            events = kept.game.events
        journal = Journal.append_to(path, lock)
    except BaseException:
        lock.release()
        raise
    game = Game.from_events(events, sink=journal.write)
    return Recovered(game, journal, damage)


def _recover(path: Path, kept: Salvage) -> JournalDamage:
    """Keep the damaged file aside and put what recovery keeps of it (:func:`salvage`) in its place."""
    damage = kept.damage
    aside = _aside_name(path)
    fresh = _recovering_name(path)
    try:
        _keep_aside(path, aside)
        write_atomically(path, kept.data, temporary=fresh)
    except OSError as exc:
        raise JournalError(f"{path}: damaged ({damage.reason}), and cannot be recovered: {exc}") from None
    return replace(damage, kept_as=aside)


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


@dataclass(frozen=True)
class Segment:
    """A stretch of a game's steps: one player's turn, or a player taking a seat."""

    actions: tuple[Action, ...]
    """The steps, in order."""
    turn: int | None
    """Index of the turn in the game's history (None for a seat taken, or the turn still being played)."""


def segments(events: Sequence[Event]) -> list[Segment]:
    """The game's steps cut into turns (and seats taken), in order of play.

    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("5 2 3 4 6 6"); game.keep("5"); game.bank(); game.roll("2 2 3")
    >>> [(len(s.actions), s.turn) for s in segments(game.events)]
    [(1, None), (1, None), (3, 0), (1, None)]
    """
    first = events[0]
    assert isinstance(first, GameStarted)
    state = start(first)
    found: list[Segment] = []
    turn: list[Action] = []
    for action in StepsInForce.of(events).active:
        finished = len(state.history)
        state = apply(state, action)
        if isinstance(action, PlayerAdded):
            found.append(Segment((action,), None))
            continue
        turn.append(action)
        if len(state.history) > finished:
            found.append(Segment(tuple(turn), finished))
            turn = []
    if turn:
        found.append(Segment(tuple(turn), None))
    return found


def with_turn_replaced(events: Sequence[Event], turn: int, actions: Sequence[Action]) -> list[Event]:
    """A new log in which finished turn ``turn`` was played as ``actions``; everything after is
    replayed on top, so all totals follow. Raises the game's error, naming the step, if the
    edited turn does not end a turn or a later step no longer applies.

    >>> from scorekeeper.game import Banked, DiceRolled, Kept
    >>> from scorekeeper.rules import Dice, load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    >>> game.roll("5 2 3 4 6 6"); game.keep("5"); game.bank()
    >>> game.roll("1 2 3 3 4 6"); game.keep("1"); game.bank()
    >>> fixed = [DiceRolled(Dice.from_str("1 5 2 3 4 6")), Kept(Dice.from_str("1 5")), Banked()]
    >>> [p.score for p in Game.from_events(with_turn_replaced(game.events, 0, fixed)).state.players]
    [150, 100]
    """
    first = events[0]
    assert isinstance(first, GameStarted)
    parts = segments(events)
    if not any(part.turn == turn for part in parts):
        raise IllegalAction(f"edit turn {turn + 1}: there is no such finished turn")
    rebuilt: list[Event] = [first]
    for part in parts:
        if part.turn != turn:
            rebuilt.extend(part.actions)
            continue
        state = Game.from_events(rebuilt).state
        finished = len(state.history)
        for number, action in enumerate(actions, start=1):
            if len(state.history) > finished:
                raise IllegalAction(f"edit turn {turn + 1}: the turn is over after step {number - 1}; remove the steps after it")
            try:
                state = apply(state, action)
            except FarkleError as exc:
                raise type(exc)(f"edit turn {turn + 1}, step {number}: {exc}") from None
        if len(state.history) == finished:
            raise IllegalAction(f"edit turn {turn + 1}: the turn does not end; finish it with a bank or a Farkle")
        rebuilt.extend(actions)
    try:
        Game.from_events(rebuilt)
    except FarkleError as exc:
        raise type(exc)(f"after editing turn {turn + 1}, a later step no longer fits: {exc}") from None
    return rebuilt
