"""Every game remembered: each player's record over all the finished games of a scorekeeper home,
head to head, and the records across them.

:func:`read_games` reads the games folder (journals and saved games, a game kept in both counted
once) and sorts what it finds into finished games, unfinished ones (counted apart) and files it
cannot count (each with a one-line note), keeping what each file holds in the home's history cache
(:data:`CACHE_FILE`) so that only new and changed files are read again; :func:`summarise` adds
the finished games up per player.
Players are one player when their names differ only in case and spaces (:func:`player_key`), or
when the players merged one name into another (:class:`Merges`, kept in ``players.json`` in the
home; nothing is ever written into a game). The command line's ``history`` and the window's
Players window both read this module. No Qt here.

>>> import tempfile
>>> from scorekeeper.game import Game, save_game
>>> from scorekeeper.rules import load_rules
>>> home = Path(tempfile.mkdtemp())
>>> game = Game.new(load_rules("retail"), ["Ann", "bob"], started_at="2026-12-05T20:15:00+00:00")
>>> game.roll("1 1 1 5 5 5"); game.keep("1 1 1 5 5 5")
>>> (home / "games").mkdir(); save_game(game, home / "games" / "evening.json")
>>> games = read_games(home)
>>> len(games.finished), len(games.unfinished)
(0, 1)
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from scorekeeper.game import Event, Game, GameState, PlayerAdded, event_to_dict
from scorekeeper.game.games_folder import games_folder, had_a_roll
from scorekeeper.game.journal import SUFFIX
from scorekeeper.game.save import game_file_kind, load_played
from scorekeeper.errors import ScorekeeperError
from scorekeeper.rules import FarkleError
from scorekeeper.safe_input import parse_json, quote, read_text
from scorekeeper.safe_output import write_atomically
from scorekeeper.stats.players import PlayerStats, state_stats

MERGES_FILE = "players.json"
"""The file in the scorekeeper home that keeps which player names were merged into which."""
MERGES_FORMAT = "scorekeeper-player-merges"
"""The format the merges file names, so that no other JSON file is taken for one."""
MAX_MERGES_BYTES = 1_000_000
"""The largest merges file read: a name merged takes about 40 bytes."""
CACHE_FILE = "history-cache.json"
"""The file in the scorekeeper home that keeps what each game file holds for the history, so that
only new and changed files are read again (deleting it only costs time)."""
CACHE_FORMAT = "scorekeeper-history-cache"
CACHE_VERSION = 1
"""The cache's format; a cache of another is read again from the games."""
MAX_CACHE_BYTES = 64_000_000
"""The largest cache read: about 1 KB a game."""
GAME_ENDINGS = (SUFFIX, ".json")
"""The endings of the files in the games folder that may hold a game (journals, saved games)."""


class HistoryError(ScorekeeperError):
    """A history that cannot be given as asked (no such player, no games under such rules), or a
    merge refused; the message says what was wrong and what to do."""


def player_key(name: str) -> str:
    """What makes two typed names the same player: the name with case and spaces set aside.

    >>> player_key(" Ann  Lee "), player_key("ANNLEE") == player_key("ann lee")
    ('annlee', True)
    """
    return "".join(name.split()).casefold()


@dataclass(frozen=True)
class PlayedGame:
    """One game as the history counts it."""

    path: Path
    """The journal or saved game it was read from."""
    started_at: str
    """When the game began, ISO 8601."""
    rules: str
    """The name of the rules it was played under (``retail``, ``retail+doubling``)."""
    names: tuple[str, ...]
    """The players' names as typed, in seat order."""
    scores: tuple[int, ...]
    """Each seat's final score."""
    winners: tuple[int, ...]
    """The seats that won (more than one where a tie was shared); none while the game is not over."""
    stats: tuple[PlayerStats, ...]
    """Each seat's statistics of the game."""

    def ahead(self, seat: int, other: int) -> bool:
        """Whether ``seat`` finished ahead of ``other``: won where the other did not, or else scored more."""
        return (seat in self.winners, self.scores[seat]) > (other in self.winners, self.scores[other])


@dataclass(frozen=True)
class Skipped:
    """A file of the games folder the history cannot count."""

    path: Path
    """The file."""
    reason: str
    """Why, in a line."""

    def __str__(self) -> str:
        return f"{self.path.name} skipped: {self.reason}"


@dataclass(frozen=True)
class GamesRead:
    """What the games folder of a home holds, sorted for the history."""

    folder: Path
    """The games folder read."""
    finished: tuple[PlayedGame, ...]
    """The finished games, oldest first."""
    unfinished: tuple[PlayedGame, ...]
    """Games played but not over (counted apart, not in the statistics), oldest first."""
    skipped: tuple[Skipped, ...]
    """Damaged journals and files that hold no game that can be read."""
    cache_note: str = ""
    """Why the history cache was set aside and rebuilt from the games (it was damaged), if it was."""


def _same_game(events: Sequence[Event]) -> str:
    """What a journal and a saved copy of one game share, as a digest: its start and its players."""
    start = json.dumps(event_to_dict(events[0]), sort_keys=True)
    players = [event.name for event in events[1:] if isinstance(event, PlayerAdded)]
    return hashlib.sha256(json.dumps([start, players]).encode("utf-8")).hexdigest()


def _game_files(folder: Path) -> list[Path]:
    """The files of ``folder`` that may hold a game: journals and saved games (or links to them),
    not the copies a recovery kept of a damaged journal (the recovered journal is the game), not
    hidden files, nothing that is not a file (a folder, a pipe)."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        name = path.name
        if name.startswith(".") or ".damaged-" in name or not name.endswith(GAME_ENDINGS) or not path.is_file():
            continue
        found.append(path)
    return sorted(found)


def _problem(path: Path, problem: object) -> str:
    """Why ``path`` cannot be read, in one line and without the file's name (the note names it)."""
    return " ".join(str(problem).split()).removeprefix(f"{path}: ")


def played_game(path: Path, state: GameState, stats: Sequence[PlayerStats]) -> PlayedGame:
    """The game of ``path`` whose state is ``state``."""
    return PlayedGame(
        path=path,
        started_at=state.started_at,
        rules=state.rules.name,
        names=tuple(player.name for player in state.players),
        scores=tuple(player.score for player in state.players),
        winners=state.winners,
        stats=tuple(stats),
    )


def _read_entry(path: Path) -> dict[str, Any]:
    """What the history keeps of the file ``path`` (its cache entry): why it is skipped, or which
    game it holds (``same``), how far it went (``rank``) and the game's numbers (None for a game
    never played)."""
    kind = game_file_kind(path)
    if kind is None:
        return {"skipped": "not a journal or a saved game"}
    try:
        events, state, damage = load_played(path)
    except (FarkleError, OSError) as exc:
        return {"skipped": _problem(path, exc)}
    if damage is not None:
        return {"skipped": f"damaged at line {damage.line} ({damage.reason}); open it in the window to recover it"}
    return _game_entry(events, state, kind == "journal")


def _game_entry(events: Sequence[Event], state: GameState, journal: bool) -> dict[str, Any]:
    """The cache entry of a game whose log is ``events`` and state ``state``, kept in a journal or
    a saved game: which game it is, how far it went and its numbers (see :func:`_read_entry`)."""
    game = None
    if state.over or had_a_roll(events):
        game = {
            "started_at": state.started_at,
            "rules": state.rules.name,
            "scores": [player.score for player in state.players],
            "winners": list(state.winners),
            "stats": [asdict(player) for player in state_stats(state)],
        }
    return {"same": _same_game(events), "rank": [len(events), journal], "game": game}


def remember_game(home: Path, path: Path, game: Game) -> None:
    """Keep the numbers of ``game``, as it stands in the file ``path`` of ``home``'s games folder (a
    journal or a saved game), in the home's history cache, so that the next history need not read
    that file. Called as a game ends; a file outside the games folder is not the history's, and a
    cache that cannot be written only costs time."""
    kind = game_file_kind(path)
    if Path(os.path.abspath(path)).parent != Path(os.path.abspath(games_folder(home))) or kind is None:
        return
    try:
        seen = path.stat()
    except OSError:
        return
    entries, _ = _load_cache(home)
    entries[path.name] = {"seen": [seen.st_size, seen.st_mtime_ns], **_game_entry(game.events, game.state, kind == "journal")}
    _save_cache(home, entries)


class CacheError(ValueError):
    """A history cache entry of the wrong shape; the message says which value and quotes it."""


_COUNTS = tuple(item.name for item in fields(PlayerStats) if item.name not in ("name", "left_on_table"))
"""The fields of :class:`PlayerStats` that are counts (whole numbers from 0 up)."""


def _count(value: Any, what: str) -> int:
    """``value`` as a count; :class:`CacheError` quoting it when it is not a whole number from 0 up."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CacheError(f"{what} is not a whole number from 0 up (got {quote(value)})")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise CacheError(f"{what} is not text (got {quote(value)})")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise CacheError(f"{what} is not a list (got {quote(value)})")
    return value


def _dict(value: Any, what: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise CacheError(f"{what} is not an object (got {quote(value)})")
    return value


def _cached_stats(value: Any, what: str) -> PlayerStats:
    """A player's statistics as a cache entry keeps them; :class:`CacheError` where they are not."""
    player = _dict(value, what)
    wanted = {item.name for item in fields(PlayerStats)}
    if set(player) != wanted:
        raise CacheError(f"{what} does not hold a player's statistics (keys {quote(sorted(player))})")
    left = player["left_on_table"]
    if left is not None and (not isinstance(left, (int, float)) or isinstance(left, bool)):
        raise CacheError(f"{what}'s left_on_table is not a number (got {quote(left)})")
    return PlayerStats(
        name=_text(player["name"], f"{what}'s name"),
        left_on_table=None if left is None else float(left),
        **{name: _count(player[name], f"{what}'s {name}") for name in _COUNTS},
    )


def _entry_game(path: Path, game: dict[str, Any]) -> PlayedGame:
    """The game a cache entry holds; :class:`CacheError` where it is not one."""
    where = f"{path.name}'s game"
    stats = tuple(_cached_stats(player, f"{where}'s player {seat + 1}") for seat, player in enumerate(_list(game.get("stats"), f"{where}'s stats")))
    scores = tuple(_count(score, f"{where}'s score") for score in _list(game.get("scores"), f"{where}'s scores"))
    winners = tuple(_count(seat, f"{where}'s winner") for seat in _list(game.get("winners"), f"{where}'s winners"))
    if not stats or len(scores) != len(stats):
        raise CacheError(f"{where} has {len(scores)} scores for {len(stats)} players")
    if any(seat >= len(stats) for seat in winners) or len(set(winners)) != len(winners):
        raise CacheError(f"{where}'s winners are not seats of its {len(stats)} players (got {quote(list(winners))})")
    return PlayedGame(
        path=path,
        started_at=_text(game.get("started_at"), f"{where}'s start"),
        rules=_text(game.get("rules"), f"{where}'s rules"),
        names=tuple(player.name for player in stats),
        scores=scores,
        winners=winners,
        stats=stats,
    )


def _load_cache(home: Path) -> tuple[dict[str, Any], str]:
    """The cache entries kept in ``home`` by file name, each checked by type, and why the cache was
    set aside if it was: none where the file is missing or of another version (silently), or
    damaged (saying so); the games are then read again."""
    path = home / CACHE_FILE
    if not os.path.lexists(path):
        return {}, ""
    try:
        data = parse_json(read_text(path, "history cache", limit=MAX_CACHE_BYTES), str(path))
        if isinstance(data, dict) and data.get("format") == CACHE_FORMAT and data.get("version") != CACHE_VERSION:
            return {}, ""
        if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT:
            raise CacheError("not a history cache")
        entries = _dict(data.get("files"), "its list of files")
        for name, entry in entries.items():
            _entry_from_cache(Path(name), _dict(entry, f"{name}'s entry"))
    except ValueError as exc:
        return {}, f"{CACHE_FILE} was damaged ({_problem(path, exc)}), so it is rebuilt from the games"
    return entries, ""


def _save_cache(home: Path, entries: dict[str, Any]) -> None:
    """Keep ``entries`` in ``home`` for the next reading; a home that cannot be written only costs time."""
    document = {"format": CACHE_FORMAT, "version": CACHE_VERSION, "files": entries}
    try:
        write_atomically(home / CACHE_FILE, json.dumps(document, separators=(",", ":"), ensure_ascii=False))
    except OSError:
        pass


def read_games(home: Path, workers: int = 1) -> GamesRead:
    """Read every game of ``home``'s games folder; nothing there is changed. What each file holds is
    kept in the home's history cache (:data:`CACHE_FILE`) under its size and time of change, so a
    file is read again only once it changes; each game's log is let go once added up, so memory
    does not grow with the games' length. ``workers`` above 1 reads many files not in the cache in
    that many processes at once (:func:`read_workers`), with the same result."""
    folder = games_folder(home)
    cached, cache_note = _load_cache(home)
    entries: dict[str, Any] = {}
    found: list[tuple[Path, dict[str, Any] | Skipped, PlayedGame | None]] = []
    to_read: list[Path] = []
    for path in _game_files(folder):
        try:
            seen = path.stat()
        except OSError as exc:
            found.append((path, Skipped(path, _problem(path, exc)), None))
            continue
        fingerprint = [seen.st_size, seen.st_mtime_ns]
        entry = cached.get(path.name)
        game = None
        if isinstance(entry, dict) and entry.get("seen") == fingerprint:
            game = _entry_from_cache(path, entry)
        else:
            entry = {"seen": fingerprint}
            to_read.append(path)
        entries[path.name] = entry
        found.append((path, entry, game))
    fresh = dict(zip(to_read, _read_entries(to_read, workers)))
    kept: dict[str, tuple[list[Any], PlayedGame | None]] = {}
    skipped: list[Skipped] = []
    for path, entry, game in found:
        if isinstance(entry, Skipped):
            skipped.append(entry)
            continue
        if path in fresh:
            entry.update(fresh[path])
            game = _entry_from_cache(path, entry)
        if "skipped" in entry:
            skipped.append(Skipped(path, str(entry["skipped"])))
            continue
        rank, same = entry["rank"], entry["same"]
        # A game saved with --save is in its journal too: count the copy that went furthest, the journal on a tie.
        if same not in kept or rank > kept[same][0]:
            kept[same] = (rank, game)
    if entries != cached:
        _save_cache(home, entries)
    games = [game for _, game in kept.values() if game is not None]
    return GamesRead(
        folder,
        _oldest_first([game for game in games if game.winners]),
        _oldest_first([game for game in games if not game.winners]),
        tuple(sorted(skipped, key=lambda s: s.path)),
        cache_note,
    )


PARALLEL_FROM = 64
"""The fewest files to read for :func:`read_games` to share them among processes: fewer are read
sooner than processes start."""


def read_workers() -> int:
    """How many processes :func:`read_games` may read in: the processors this process may run on,
    at most 4 (each holds its own copy of the program, so memory grows with them, not with the games)."""
    try:
        processors = len(os.sched_getaffinity(0))
    except AttributeError:
        processors = os.cpu_count() or 1
    return max(1, min(processors, 4))


def _read_entries(paths: list[Path], workers: int) -> Iterable[dict[str, Any]]:
    """:func:`_read_entry` of each of ``paths``, in order: in ``workers`` processes at once where
    there are many, each handed a batch of files at a time."""
    if workers <= 1 or len(paths) < PARALLEL_FROM:
        return map(_read_entry, paths)
    methods = multiprocessing.get_all_start_methods()
    # A process started by fork shares the program already loaded; spawn loads it again where there is no fork.
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with context.Pool(workers) as pool:
        return pool.map(_read_entry, paths, chunksize=max(1, min(32, len(paths) // (4 * workers))))


def _entry_from_cache(path: Path, entry: dict[str, Any]) -> PlayedGame | None:
    """The game of a cache entry (None for a file skipped or a game never played); raises
    :class:`CacheError` for an entry that is not one."""
    seen = _list(entry.get("seen"), f"{path.name}'s size and time")
    if len(seen) != 2 or not all(isinstance(part, int) and not isinstance(part, bool) for part in seen):
        raise CacheError(f"{path.name}'s size and time are not two whole numbers (got {quote(seen)})")
    if "skipped" in entry:
        _text(entry["skipped"], f"{path.name}'s reason for being skipped")
        return None
    _text(entry.get("same"), f"{path.name}'s game digest")
    rank = _list(entry.get("rank"), f"{path.name}'s rank")
    if len(rank) != 2 or not isinstance(rank[1], bool):
        raise CacheError(f"{path.name}'s rank is not a length and whether it is a journal (got {quote(rank)})")
    _count(rank[0], f"{path.name}'s length")
    if "game" not in entry:
        raise CacheError(f"{path.name}'s entry has no game")
    return None if entry["game"] is None else _entry_game(path, _dict(entry["game"], f"{path.name}'s game"))


def _oldest_first(games: list[PlayedGame]) -> tuple[PlayedGame, ...]:
    return tuple(sorted(games, key=lambda game: (game.started_at, str(game.path))))


@dataclass(frozen=True)
class Merges:
    """Player names merged into others by the players: each merged name's key (:func:`player_key`)
    and the name it now counts as."""

    into: dict[str, str] = field(default_factory=dict)
    """Merged name's key -> the name it counts as (itself never merged)."""

    def name_of(self, name: str) -> str:
        """The key of the player ``name`` counts as."""
        key = player_key(name)
        return player_key(self.into[key]) if key in self.into else key


def load_merges(home: Path) -> tuple[Merges, str]:
    """The merges kept in ``home`` (none where there is no file), and what was wrong with the file
    if it could not be used ("" if nothing): the history then counts names as typed."""
    path = home / MERGES_FILE
    if not os.path.lexists(path):
        return Merges(), ""
    try:
        data = parse_json(read_text(path, "player merges file", limit=MAX_MERGES_BYTES), str(path))
    except ValueError as exc:
        return Merges(), f"{exc}; names are counted as typed"
    merged = data.get("merged") if isinstance(data, dict) and data.get("format") == MERGES_FORMAT else None
    if not isinstance(merged, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in merged.items()):
        return Merges(), f"{path}: not a player merges file (a 'merged' table of names); names are counted as typed"
    into = {player_key(name): target for name, target in merged.items() if player_key(name) and player_key(target)}
    if any(player_key(target) in into for target in into.values()):
        return Merges(), f"{path}: a name is merged into a name that is itself merged; names are counted as typed"
    return Merges(into), ""


def _seats_by_player(game: PlayedGame, merges: Merges) -> dict[str, int]:
    """Each seat of ``game`` by the player it counts as (:meth:`Merges.name_of`). Two seats that
    would count as one player (``Mary Lou`` and ``MaryLou`` at one table, or a name merged into
    another that both played later) are two people: the first seat is that player, a later one
    counts by its name as typed."""
    seats: dict[str, int] = {}
    for seat, name in enumerate(game.names):
        key = merges.name_of(name)
        seats[f"{name.casefold()} (seat {seat + 1})" if key in seats else key] = seat
    return seats


def merge_players(home: Path, games: GamesRead, name: str, into: str) -> Merges:
    """Count the player ``name`` as ``into`` from now on, in every game, and keep that in the home's
    merges file (written whole; no game is touched). Refused, saying why, when either has played
    no finished game, when they are the same player already, or when they played in one game
    together (two seats are two people)."""
    merges, problem = load_merges(home)
    if problem:
        raise HistoryError(f"cannot merge: {problem.removesuffix('; names are counted as typed')}; fix or remove the file first")
    source, target = merges.name_of(name), merges.name_of(into)
    known = {merges.name_of(typed) for game in games.finished for typed in game.names}
    for typed, key in ((name, source), (into, target)):
        if key not in known:
            raise HistoryError(f"cannot merge: no finished game has a player named {quote(typed)}")
    if source == target:
        raise HistoryError(f"cannot merge {quote(name)} into {quote(into)}: they are already one player")
    for game in games.finished:
        seats = {merges.name_of(typed) for typed in game.names}
        if source in seats and target in seats:
            raise HistoryError(
                f"cannot merge {quote(name)} into {quote(into)}: both played in the game of {when(game.started_at)} "
                f"({game.path.name}), so they are two people"
            )
    target_name = merges.into.get(player_key(into), " ".join(into.split()))
    # Names merged into this one before now count as the other too: no name is merged into a merged name.
    into_map = {key: (target_name if player_key(value) == source else value) for key, value in merges.into.items()}
    into_map[source] = target_name
    return _save_merges(home, Merges(into_map))


def unmerge_player(home: Path, name: str) -> Merges:
    """Count the name ``name``, merged into another, as a player of its own again (and keep that);
    refused, saying why, when it is not merged."""
    merges, problem = load_merges(home)
    if problem:
        raise HistoryError(f"cannot undo the merge: {problem.removesuffix('; names are counted as typed')}; fix or remove the file first")
    key = player_key(name)
    if key not in merges.into:
        raise HistoryError(f"cannot undo the merge: {quote(name)} is not merged into another name")
    return _save_merges(home, Merges({merged: into for merged, into in merges.into.items() if merged != key}))


def _save_merges(home: Path, merges: Merges) -> Merges:
    """Keep ``merges`` in ``home``'s merges file, written whole; returns them."""
    home.mkdir(parents=True, exist_ok=True)
    document = {"format": MERGES_FORMAT, "version": 1, "merged": dict(sorted(merges.into.items()))}
    write_atomically(home / MERGES_FILE, json.dumps(document, indent=1, ensure_ascii=False) + "\n")
    return merges


@dataclass(frozen=True)
class PlayerRecord:
    """One player over every finished game counted."""

    name: str
    """The name shown: the name merged into, else the spelling typed most often (the latest on a tie)."""
    games: int
    """Finished games played."""
    wins: int
    """Games won (a shared win counts for each winner)."""
    turns: int
    """Turns finished."""
    banked: int
    """Points banked in all."""
    farkles: int
    """Turns lost to a Farkle."""
    hot_dice: int
    """Times all six dice scored and were picked up again."""
    best_turn: int
    """The most points banked in one turn."""
    longest_farkle_streak: int
    """The most Farkles in a row within a game."""
    spellings: tuple[str, ...]
    """Every name the player was typed as, sorted."""

    @property
    def win_share(self) -> float:
        """Share of the games played that were won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def points_per_turn(self) -> float:
        """Points banked per turn played, Farkles counted as 0."""
        return self.banked / self.turns if self.turns else 0.0

    @property
    def farkle_share(self) -> float:
        """Share of turns lost to a Farkle."""
        return self.farkles / self.turns if self.turns else 0.0


@dataclass(frozen=True)
class HeadToHead:
    """Two players over the finished games they played together."""

    player: str
    """The one whose side this is."""
    opponent: str
    """The other."""
    games: int
    """Finished games they both played."""
    ahead: int
    """Of those, the games :attr:`player` finished ahead of :attr:`opponent` (won, or else scored more)."""
    behind: int
    """The games :attr:`opponent` finished ahead."""


@dataclass(frozen=True)
class Record:
    """A best across the games counted, and where it was set."""

    what: str
    """Which record: ``"biggest turn"`` or ``"fastest win"``."""
    player: str
    """Who set it."""
    value: int
    """The points of the turn, or the winner's turns."""
    game: Path
    """The game it was set in."""
    started_at: str
    """When that game began, ISO 8601."""

    @property
    def amount(self) -> str:
        """The record's value in words: ``"1,250 points"``, ``"1 turn"``, ``"9 turns"``."""
        if self.what == "biggest turn":
            return f"{self.value:,} points"
        return f"{self.value:,} turn{'' if self.value == 1 else 's'}"

    def __str__(self) -> str:
        return f"{self.what}: {self.amount}, {self.player}, {when(self.started_at)} ({self.game.name})"


@dataclass(frozen=True)
class History:
    """Every finished game counted, added up."""

    games: int
    """Finished games counted (after the filters)."""
    unfinished: int
    """Unfinished games (counted apart, under the same filters): not in any other number."""
    skipped: tuple[Skipped, ...]
    """Files that could not be counted."""
    players: tuple[PlayerRecord, ...]
    """Per player, most wins first, then the better win share, then by name."""
    head_to_head: tuple[HeadToHead, ...]
    """Each pair that played together, from both sides."""
    records: tuple[Record, ...]
    """The biggest turn and the fastest win (none where no game has one)."""
    notes: tuple[str, ...] = ()
    """Anything else the reader should know (a merges file that could not be used)."""


def when(stamp: str) -> str:
    """An ISO time as the table says it: "Sat 5 Dec 2026, 20:15".

    >>> when("2026-12-05T20:15:00+00:00"), when("yesterday")
    ('Sat 5 Dec 2026, 20:15', 'yesterday')
    """
    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M}"


def _rules_matching(games: Iterable[PlayedGame], rules: str | None, refuse_none: bool = True) -> list[PlayedGame]:
    """The games played under the rules named ``rules`` (all where None); none found among some
    is refused, naming the rules they were played under, unless ``refuse_none`` is False."""
    listed = list(games)
    if rules is None:
        return listed
    chosen = [game for game in listed if game.rules.casefold() == rules.strip().casefold()]
    if not chosen and listed and refuse_none:
        played = ", ".join(sorted({game.rules for game in listed}))
        raise HistoryError(f"no finished game was played under the rules {quote(rules)}; the games here were played under {played}")
    return chosen


def spellings_of(games: Iterable[PlayedGame], merges: Merges) -> dict[str, dict[str, int]]:
    """Per player (:meth:`Merges.name_of`), how many of ``games`` each spelling was typed in, the
    spelling of the latest game last."""
    typed_as: dict[str, dict[str, int]] = {}
    for game in games:
        for key, seat in _seats_by_player(game, merges).items():
            typed = game.names[seat]
            spelled = typed_as.setdefault(key, {})
            spelled[typed] = spelled.pop(typed, 0) + 1
    return typed_as


def _shown_name(typed_as: dict[str, int], merges: Merges) -> str:
    """The name a player is shown by: the name merged into where a spelling was merged, else the
    spelling typed most often (the latest of those on a tie)."""
    for typed in typed_as:
        if player_key(typed) in merges.into:
            return merges.into[player_key(typed)]
    most = max(typed_as.values())
    return [typed for typed, times in typed_as.items() if times == most][-1]


def summarise(read: GamesRead, merges: Merges | None = None, player: str | None = None, rules: str | None = None) -> History:
    """Add up ``read``'s finished games per player (``merges`` applied), those under the rules
    named ``rules`` only (its name as ``rules list`` gives it), and only the games, the head to
    head and the records of ``player`` where one is named."""
    merges = merges or Merges()
    games = _rules_matching(read.finished, rules)
    unfinished = _rules_matching(read.unfinished, rules, refuse_none=False)
    typed_as = spellings_of(read.finished, merges)
    names = {key: _shown_name(spelled, merges) for key, spelled in typed_as.items()}
    wanted = None if player is None else merges.name_of(player)
    if wanted is not None:
        unfinished = [game for game in unfinished if wanted in _seats_by_player(game, merges)]
        everyone = sorted({names[key] for game in games for key in _seats_by_player(game, merges)}, key=str.casefold)
        games = [game for game in games if wanted in _seats_by_player(game, merges)]
        if not games:
            raise HistoryError(
                f"no finished game has a player named {quote(player)}"
                + (f"; the players are {', '.join(everyone)}" if everyone else "")
            )
    totals: dict[str, list[int]] = {}
    pairs: dict[tuple[str, str], list[int]] = {}
    biggest: Record | None = None
    fastest: Record | None = None
    for game in games:
        seats = _seats_by_player(game, merges)
        for key, seat in seats.items():
            stats = game.stats[seat]
            won = seat in game.winners
            row = totals.setdefault(key, [0] * 8)
            row[0] += 1
            row[1] += won
            row[2] += stats.turns
            row[3] += stats.banked
            row[4] += stats.farkles
            row[5] += stats.hot_dice
            row[6] = max(row[6], stats.best_turn)
            row[7] = max(row[7], stats.longest_farkle_streak)
            if wanted is not None and key != wanted:
                continue
            if stats.best_turn and (biggest is None or stats.best_turn > biggest.value):
                biggest = Record("biggest turn", key, stats.best_turn, game.path, game.started_at)
            if won and (fastest is None or stats.turns < fastest.value):
                fastest = Record("fastest win", key, stats.turns, game.path, game.started_at)
            for other, other_seat in seats.items():
                if other != key:
                    pair = pairs.setdefault((key, other), [0, 0, 0])
                    pair[0] += 1
                    pair[1] += game.ahead(seat, other_seat)
                    pair[2] += game.ahead(other_seat, seat)
    if wanted is not None:
        totals = {wanted: totals[wanted]}
    players = [
        PlayerRecord(
            names[key],
            games=row[0],
            wins=row[1],
            turns=row[2],
            banked=row[3],
            farkles=row[4],
            hot_dice=row[5],
            best_turn=row[6],
            longest_farkle_streak=row[7],
            spellings=tuple(sorted(typed_as[key], key=str.casefold)),
        )
        for key, row in totals.items()
    ]
    players.sort(key=lambda p: (-p.wins, -p.win_share, p.name.casefold()))
    head_to_head = sorted(
        (HeadToHead(names[a], names[b], *counts) for (a, b), counts in pairs.items()),
        key=lambda h: (h.player.casefold(), -h.games, h.opponent.casefold()),
    )
    records = tuple(
        Record(record.what, names[record.player], record.value, record.game, record.started_at)
        for record in (biggest, fastest)
        if record is not None
    )
    return History(len(games), len(unfinished), read.skipped, tuple(players), tuple(head_to_head), records)


def history_of(home: Path, player: str | None = None, rules: str | None = None, workers: int = 1) -> History:
    """The history of every game of ``home``, its merges applied (see :func:`summarise`); ``workers``
    as :func:`read_games` takes it."""
    merges, problem = load_merges(home)
    read = read_games(home, workers)
    return replace(summarise(read, merges, player, rules), notes=tuple(note for note in (read.cache_note, problem) if note))


@dataclass(frozen=True)
class Column:
    """A column of the players' table, as the command line and the Players window show it."""

    title: str
    """Its heading."""
    explained: str
    """What it counts, in a sentence."""
    cell: Callable[[PlayerRecord], str]
    """A player's cell, as text."""
    sort_key: Callable[[PlayerRecord], float | str]
    """What the column sorts a player by."""


PLAYER_COLUMNS = (
    Column("Player", "The name as typed most often (the latest on a tie), or the name merged into.", lambda p: p.name, lambda p: p.name.casefold()),
    Column("Games", "Finished games played.", lambda p: f"{p.games:,}", lambda p: p.games),
    Column("Wins", "Games won (a shared win counts for each winner).", lambda p: f"{p.wins:,}", lambda p: p.wins),
    Column("Win share", "Share of the games played that were won.", lambda p: f"{100 * p.win_share:.0f}%", lambda p: p.win_share),
    Column(
        "Points per turn", "Points banked per turn played, Farkles counted as 0.", lambda p: f"{p.points_per_turn:,.0f}", lambda p: p.points_per_turn
    ),
    Column("Farkle share", "Share of turns lost to a Farkle.", lambda p: f"{100 * p.farkle_share:.0f}%", lambda p: p.farkle_share),
    Column("Hot dice", "Times all six dice scored and were picked up again.", lambda p: f"{p.hot_dice:,}", lambda p: p.hot_dice),
    Column("Best turn", "The most points banked in one turn.", lambda p: f"{p.best_turn:,}", lambda p: p.best_turn),
    Column(
        "Longest Farkle streak", "The most Farkles in a row within a game.", lambda p: str(p.longest_farkle_streak), lambda p: p.longest_farkle_streak
    ),
)
"""The players' table, column by column."""


def counted_line(history: History) -> str:
    """What was counted, in a line: "12 finished games (2 unfinished not counted)".

    >>> counted_line(History(1, 0, (), (), (), ()))
    '1 finished game'
    """
    line = f"{history.games:,} finished game{'' if history.games == 1 else 's'}"
    if history.unfinished:
        line += f" ({history.unfinished:,} unfinished not counted)"
    return line


def player_dict(player: PlayerRecord) -> dict[str, object]:
    """A player's record as plain JSON values."""
    return {
        "name": player.name,
        "spellings": list(player.spellings),
        "games": player.games,
        "wins": player.wins,
        "win_share": round(player.win_share, 4),
        "turns": player.turns,
        "banked": player.banked,
        "points_per_turn": round(player.points_per_turn, 2),
        "farkles": player.farkles,
        "farkle_share": round(player.farkle_share, 4),
        "hot_dice": player.hot_dice,
        "best_turn": player.best_turn,
        "longest_farkle_streak": player.longest_farkle_streak,
    }


def history_dict(history: History) -> dict[str, object]:
    """The whole history as plain JSON values."""
    return {
        "games": history.games,
        "unfinished": history.unfinished,
        "skipped": [{"file": str(skipped.path), "reason": skipped.reason} for skipped in history.skipped],
        "players": [player_dict(player) for player in history.players],
        "head_to_head": [
            {"player": h.player, "opponent": h.opponent, "games": h.games, "ahead": h.ahead, "behind": h.behind}
            for h in history.head_to_head
        ],
        "records": [
            {"record": r.what, "player": r.player, "value": r.value, "game": str(r.game), "started_at": r.started_at}
            for r in history.records
        ],
        "notes": list(history.notes),
    }
