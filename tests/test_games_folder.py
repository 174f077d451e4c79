"""The list of games to resume and the journals' names: the newest game first, every unfinished
game found whatever else lies in the folder, journals a killed start left empty tidied away."""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path

import pytest

import scorekeeper.game.games_folder as games_folder_module
from scorekeeper.game import Game
from scorekeeper.game.games_folder import STALE_SECONDS, default_home, games_folder, new_journal_path, unfinished_games
from scorekeeper.game.journal import Journal
from scorekeeper.rules import load_rules

HEADER = '{"format":"scorekeeper-journal","version":1}\n'


def game_in(path: Path, *, last_change: float, shelve: bool = False) -> Path:
    """An unfinished game of one roll at ``path``, last written ``last_change`` seconds since the epoch."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.roll("1 1 5 2 3 4")
    if shelve:
        journal.shelve()
    journal.close()
    os.utime(path, (last_change, last_change))
    return path


def finished_game_in(path: Path) -> Path:
    """A game Ann has won with six 1s a roll (3,000 points each under the retail chart's six of a kind)."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann"], sink=journal.write)
    while (turn := game.state.turn) is None or turn.total < 10000:
        game.roll("1 1 1 1 1 1")
        game.keep("1 1 1 1 1 1")
    game.bank()
    journal.close()
    assert game.state.over
    return path


def aged(path: Path, text: str, seconds: float) -> Path:
    path.write_text(text)
    os.utime(path, (time.time() - seconds,) * 2)
    return path


def test_games_are_offered_newest_first_by_their_last_step_not_by_name(tmp_path: Path) -> None:
    folder = games_folder(tmp_path)
    now = time.time()
    middle = game_in(folder / "a.jsonl", last_change=now - 3600)
    newest = game_in(folder / "b.jsonl", last_change=now - 60)
    oldest = game_in(folder / "c.jsonl", last_change=now - 86400)
    assert unfinished_games(tmp_path) == [newest, middle, oldest]
    os.utime(oldest, (now, now))
    assert unfinished_games(tmp_path) == [oldest, newest, middle]


def test_every_unfinished_game_is_found_whatever_else_lies_among_them(tmp_path: Path) -> None:
    folder = games_folder(tmp_path)
    now = time.time()
    games = [game_in(folder / f"{name}.jsonl", last_change=now - index) for index, name in enumerate("bdfhkm")]
    others = [
        aged(folder / "a.jsonl", "not a journal\n", 10),
        aged(folder / "c.jsonl", HEADER, 10),
        game_in(folder / "e.jsonl", last_change=now - 10, shelve=True),
        finished_game_in(folder / "i.jsonl"),
        aged(folder / "g.damaged-20260101-120000.jsonl", HEADER + "{oops\n", 10),
        aged(folder / "j.jsonl", "", 10),
        aged(folder / "l.jsonl", HEADER + "{oops\n", 10),
    ]
    damaged = game_in(folder / "n.jsonl", last_change=now - 20)
    with damaged.open("a") as stream:
        stream.write("{oops\n")
    os.utime(damaged, (now - 20, now - 20))
    for tidy in (False, True):
        assert unfinished_games(tmp_path, tidy=tidy) == [*games, damaged]
    assert all(path.exists() for path in others), "nothing young enough to be a window's new game is removed"


@pytest.mark.parametrize("tidy", [True, False])
def test_journals_a_killed_start_left_empty_are_removed_once_stale_and_only_when_tidying(tmp_path: Path, tidy: bool) -> None:
    folder = games_folder(tmp_path)
    folder.mkdir()
    old = STALE_SECONDS + 5
    no_bytes = aged(folder / "a.jsonl", "", old)
    header_only = aged(folder / "b.jsonl", HEADER, old)
    just_created = aged(folder / "c.jsonl", HEADER, STALE_SECONDS - 20)
    not_a_journal = aged(folder / "d.jsonl", "a player's notes\n", old)
    broken_before_any_event = aged(folder / "e.jsonl", HEADER + "{oops\n", old)
    game = game_in(folder / "f.jsonl", last_change=time.time() - old)
    assert unfinished_games(tmp_path, tidy=tidy) == [game]
    kept = {just_created, not_a_journal, broken_before_any_event, game}
    removed = {no_bytes, header_only}
    assert {path for path in kept | removed if path.exists()} == (kept if tidy else kept | removed)


def test_a_home_without_a_games_folder_has_no_games_to_resume(tmp_path: Path) -> None:
    assert unfinished_games(tmp_path) == []
    assert not games_folder(tmp_path).exists()


class _Frozen(datetime):
    @classmethod
    def now(cls, tz: object = None) -> _Frozen:
        return cls(2026, 3, 7, 21, 5, 9)


def test_journals_are_named_by_the_local_time_they_start_and_never_share_a_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(games_folder_module, "datetime", _Frozen)
    names = []
    for _ in range(4):
        path = new_journal_path(tmp_path)
        Journal.create(path).close()
        names.append(path.relative_to(tmp_path).as_posix())
    assert names == [
        "games/2026-03-07_21-05-09.jsonl",
        "games/2026-03-07_21-05-09-2.jsonl",
        "games/2026-03-07_21-05-09-3.jsonl",
        "games/2026-03-07_21-05-09-4.jsonl",
    ]


def test_games_live_in_the_home_the_environment_names_else_the_users_data_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "ann"))
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "club"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_home() == tmp_path / "club"
    monkeypatch.setenv("SCOREKEEPER_HOME", "")
    assert default_home() == tmp_path / "data" / "scorekeeper"
    monkeypatch.delenv("SCOREKEEPER_HOME")
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_home() == tmp_path / "ann" / ".local" / "share" / "scorekeeper"
