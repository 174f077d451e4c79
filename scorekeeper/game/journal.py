"""The journal: every event of a game on disk before the screen shows it; its file format and its crash recovery.

A journal is a text file of JSON lines, only ever appended to. Its first line
names the format and its version; every other line is a game event (as
:func:`~scorekeeper.game.events.event_to_dict` writes it) or one of two
records of the journal's own:

* ``{"type": "rebuilt", "events": [...]}``: a past turn was corrected, and the
  game goes on from this whole new log (the old lines stay where they are);
* ``{"type": "shelved"}``: the players chose not to go on with the game, so it
  is not offered for resume again (it can still be opened by name).

From version 2 on, each game event names the player whose turn it was when it was taken, by
seat (0 for the first) and name: ``{"type": "banked", "by": {"seat": 0, "name": "Ann"}}``; an
event taken when it is nobody's turn (the start, the first player seated, an undo once the game
is over) names none. Reading checks every event against whose turn it is, so a step whose line
before it is lost is refused rather than taken in the wrong turn (:class:`StepOutOfTurn`). A
version-1 journal (no event names a player) reads as it always has, and goes on being written
as version 1; a journal of a newer version than :data:`VERSION` is refused, and left as it is.

:meth:`Journal.write` is a :data:`~scorekeeper.game.EventSink`: it writes the
line, flushes and syncs it, and only then lets the game take the event, so a
crash, a closed lid or a killed process loses nothing that was shown.

A game has one writer: an open :class:`Journal` holds the game's
:class:`~scorekeeper.game.lock.GameLock` for as long as it is open for writing. Readers (the
phones' scoreboard, the exports) take no lock.

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

import functools
import glob
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from scorekeeper.game.events import Event, EventFormatError, GameStarted, event_from_dict, event_to_dict
from scorekeeper.game.game import Game
from scorekeeper.game.journal_error import JournalError
from scorekeeper.game.lock import GameLock
from scorekeeper.game.state import GameState
from scorekeeper.rules import FarkleError
from scorekeeper.safe_input import InputFileError, decode_text, parse_json, quote, read_file
from scorekeeper.safe_output import sync_folder, write_atomically

FORMAT = "scorekeeper-journal"
VERSION = 2
"""The journal format this program writes, and the newest it reads: 1, events name no player;
2, each game event names the player whose turn it was when it was taken."""
PLAYERS_NAMED = 2
"""The first journal version whose events name the player who took them."""
SUFFIX = ".jsonl"
"""File name ending of journals in the games folder."""
REBUILT = "rebuilt"
SHELVED = "shelved"


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


class StepOutOfTurn(JournalError):
    """A journal step names a player other than the one whose turn it is when it comes: a step
    before it is missing, and taking it would put it in the wrong turn."""


@dataclass(frozen=True)
class Actor:
    """The player a journal step names as the one who took it."""

    seat: int
    """The player's seat, 0 for the first."""
    name: str
    """The player's name as the game knows it."""

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat + 1})"


def actor_of(state: GameState) -> Actor | None:
    """The player whose turn it is in ``state``: the one a step taken now names; None when it is nobody's turn."""
    if state.turn is None:
        return None
    return Actor(state.turn.player, state.players[state.turn.player].name)


def _named(record: Any) -> Actor | None:
    """The player a version-2 line names (its ``by`` field); :class:`EventFormatError` when that is not a seat and a name."""
    if not isinstance(record, dict) or "by" not in record:
        return None
    by = record["by"]
    if isinstance(by, dict) and by.keys() == {"seat", "name"}:
        seat, name = by["seat"], by["name"]
        if isinstance(seat, int) and not isinstance(seat, bool) and seat >= 0 and isinstance(name, str):
            return Actor(seat, name)
    raise EventFormatError(f"the player who took the step, {quote(by)}, is not a seat (0 or more) and a name")


def _check_turn(game: Game | None, step: Step, named: Actor | None, version: int) -> None:
    """Refuse a game event of a journal of ``version`` whose line names a player other than the one
    whose turn it is (lines before :data:`PLAYERS_NAMED` name none; the journal's own records, a
    rebuilt game and a shelving, are no player's step; an event before the start is refused by the
    game itself)."""
    if version < PLAYERS_NAMED or step is None or isinstance(step, tuple):
        return
    if game is None and not isinstance(step, GameStarted):
        return
    due = actor_of(game.state) if game is not None else None
    if named == due:
        return
    whose = f"it is the turn of {due}" if due is not None else "it is nobody's turn"
    said = f"names {named} as the player who took it" if named is not None else "names no player"
    missing = ": a step before it is missing" if named is not None and due is not None else ""
    raise StepOutOfTurn(f"the step {said}, but {whose}{missing}")


def _record_of(event: Event, named: Actor | None) -> dict[str, Any]:
    """The journal line of ``event``, naming ``named`` as the player who took it, if anyone."""
    record = event_to_dict(event)
    if named is not None:
        record["by"] = {"seat": named.seat, "name": named.name}
    return record


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
    state: GameState | None = None
    """The state :attr:`events` lead to, as reading them worked it out; None where no event could be read."""
    version: int = VERSION
    """The format version the journal's first line names."""

    def game(self) -> Game:
        """The game these events make."""
        return Game.from_events(self.events)


def _line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":"), ensure_ascii=False) + "\n").encode("utf-8")


class Journal:
    """An open journal, appended to one synced line at a time, its game held by a :class:`GameLock`.

    A journal of version 2 or later follows the game it is written (each event, once written, is
    taken by a game of its own), to name in each line the player whose turn it is."""

    def __init__(self, path: Path, handle: int, lock: GameLock, version: int = VERSION, events: Sequence[Event] = ()) -> None:
        self.path = path
        """The journal's file."""
        self.lock = lock
        """This process's hold on the game, let go of by :meth:`close`."""
        self.version = version
        """The format version of the file, which its lines follow."""
        self._handle: int | None = handle
        self._game: Game | None = Game.from_events(events) if events and version >= PLAYERS_NAMED else None

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
        """Open an existing, readable journal to go on writing it (``lock``: the game already held),
        in its own format version; one of a newer version than this program writes is refused."""
        path = Path(path)
        lock = lock or GameLock.take(path)
        handle = cls._open(path, lock)
        try:
            contents = read_journal(path)
        except BaseException:
            os.close(handle)
            lock.release()
            raise
        return cls(path, handle, lock, contents.version, contents.events)

    @classmethod
    def _reopen(cls, path: Path, lock: GameLock, version: int, events: Sequence[Event]) -> Journal:
        """Open the journal at ``path`` of ``version``, holding the game of ``events``, to go on writing it."""
        return cls(path, cls._open(path, lock), lock, version, events)

    @staticmethod
    def _open(path: Path, lock: GameLock) -> int:
        """A handle appending to the journal at ``path`` (``lock`` let go of when there is none)."""
        try:
            return os.open(path, os.O_WRONLY | os.O_APPEND)
        except OSError as exc:
            lock.release()
            raise JournalError(f"{path}: cannot open the journal: {exc.strerror or exc}") from None

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
        """Write one event, synced to disk (the game's sink: it runs before the game takes the event),
        naming the player whose turn it is; an event the journal's game refuses is not written."""
        if self.version < PLAYERS_NAMED:
            self._append(_line(event_to_dict(event)))
            return
        before = self._game
        named = actor_of(before.state) if before is not None else None
        self._game = _take(before, event)
        try:
            self._append(_line(_record_of(event, named)))
        except JournalError:
            self._game = Game.from_events(self._game.events[:-1]) if before is not None else None
            raise

    def rebuilt(self, events: Sequence[Event]) -> None:
        """Record that the game now goes on from ``events`` (a past turn was corrected)."""
        game = Game.from_events(events) if self.version >= PLAYERS_NAMED else None
        self._append(_line({"type": REBUILT, "events": [event_to_dict(event) for event in events]}))
        self._game = game

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
    if version < 1:
        return f"the journal's format version {version} is none that scorekeeper writes (they start at 1)"
    if version > VERSION:
        return (
            f"written by a newer scorekeeper (journal version {version}; this one reads up to {VERSION}): "
            "update scorekeeper to open it; the journal is left as it is"
        )
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


SEEN_LINE_BYTES = 256
"""The longest line whose step :func:`_seen_step` remembers: the ordinary steps (a roll, a keep,
a bank), which recur within a game and from game to game; not a start or a rebuilt log."""


def _step_named(record: Any, version: int) -> tuple[Step, Actor | None]:
    """The step a journal line of ``version`` holds and the player it names (none before
    :data:`PLAYERS_NAMED`); :class:`EventFormatError` when it holds none."""
    return _step_of(record), _named(record) if version >= PLAYERS_NAMED else None


@functools.lru_cache(maxsize=4096)
def _seen_step(raw: bytes, version: int) -> tuple[Step, Actor | None] | EventFormatError:
    """The step of a whole journal line read before and the player it names (remembered, as steps
    never change), or the error that says it holds none (told again with its place by :func:`_line_step`)."""
    try:
        return _step_named(parse_json(raw.decode("utf-8"), "a journal line"), version)
    except ValueError as exc:
        return EventFormatError(str(exc))


def _line_step(path: Path, data: bytes, start: int, raw: bytes, number: int, version: int) -> tuple[Step, Actor | None]:
    """The step of line ``number`` (starting at byte ``start``) of a journal of ``version``, and the
    player it names; :class:`EventFormatError` or the game's error saying why it holds none, as
    :func:`_record` and :func:`_step_of` tell it."""
    if len(raw) <= SEEN_LINE_BYTES and start + len(raw) + 1 <= len(data):
        seen = _seen_step(raw, version)
        if not isinstance(seen, EventFormatError):
            return seen
    return _step_named(_record(path, data, start, raw, number), version)


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
    version = VERSION
    for number, raw in enumerate(_lines(data), start=1):
        end = good + len(raw) + 1
        if number == 1:
            try:
                record = _record(path, data, good, raw, number)
            except EventFormatError as exc:
                reason = str(exc)
                break
            problem = _header_problem(record)
            if problem is not None:
                if isinstance(record, dict) and record.get("format") == FORMAT:
                    raise JournalError(f"{path}: {problem}")
                raise JournalError(f"{path}: {problem} (line 1 does not name the format)")
            version = record["version"]
            good = end
            continue
        try:
            step, named = _line_step(path, data, good, raw, number, version)
            _check_turn(game, step, named, version)
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
    return JournalContents(events, good, shelved, damage, game.state if game is not None else None, version)


def _without_pictures(record: Any, version: int) -> tuple[Event, Actor | None]:
    """The event of a line whose only fault is the name of a picture (its ``photo`` or ``picture``
    field), with those fields left out, and the player it names; :class:`EventFormatError` when it
    is wrong elsewhere too."""
    if not isinstance(record, dict) or not {"photo", "picture"} & record.keys():
        raise EventFormatError("no picture's name to leave out")
    event = event_from_dict({key: value for key, value in record.items() if key not in ("photo", "picture")})
    return event, _named(record) if version >= PLAYERS_NAMED else None


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
            step, named = _step_named(record, contents.version)
        except FarkleError:
            try:
                step, named = _without_pictures(record, contents.version)
            except FarkleError:
                skipped.append(number)
                continue
            repair = True
        try:
            _check_turn(game, step, named, contents.version)
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
            kept.append(_line(_record_of(step, named)))
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
    one; the game is held for this process (:class:`~scorekeeper.game.lock.GameOpenElsewhere`
    when another one holds it).

    A damaged file is never written over: it is kept under a new name, and the lines kept replace
    it under the original name in one rename. Each step leaves the original name holding either
    the damaged file or the recovered one, so a recovery cut off at any point is simply done again
    the next time (see :func:`~scorekeeper.game.games_folder.finish_interrupted`).
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
        journal = Journal._reopen(path, lock, contents.version, events)
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
