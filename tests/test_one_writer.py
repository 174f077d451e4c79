"""One writer per game: a second window or ``play`` on a game open elsewhere is refused, a lock
left by a writer that died is taken over, and readers go on reading."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.cli.serve import game_to_follow
from scorekeeper.game import Game
from scorekeeper.game.controller import GameController
from scorekeeper.game.games_folder import games_folder
from scorekeeper.game.journal import Journal, open_journal, read_journal
from scorekeeper.game.lock import GameOpenElsewhere, lock_path
from scorekeeper.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent


def played(path: Path) -> Journal:
    """A journal of a game in play, still open for writing."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    return journal


def test_a_game_open_for_writing_cannot_be_opened_again(tmp_path: Path) -> None:
    journal = played(tmp_path / "g.jsonl")
    before = journal.path.read_bytes()
    with pytest.raises(GameOpenElsewhere, match=rf"g\.jsonl is already open \(in process {os.getpid()} since \d\d:\d\d\)"):
        open_journal(journal.path)
    with pytest.raises(GameOpenElsewhere):
        GameController(tmp_path).shelve(journal.path)
    assert journal.path.read_bytes() == before
    journal.close()
    assert not lock_path(journal.path).exists()
    again = open_journal(journal.path)
    assert again.game.state.players[0].score == 250 and again.journal.lock.took_over is None
    again.journal.close()


def test_readers_go_on_while_the_game_is_open(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = played(tmp_path / "g.jsonl")
    assert read_journal(journal.path).game().state.players[0].score == 250
    assert main(["export", str(journal.path), "--format", "csv", "-o", str(tmp_path / "g.csv")]) == 0
    assert "Ann" in (tmp_path / "g.csv").read_text()
    assert game_to_follow(journal.path, tmp_path) == journal.path  # what serve follows
    journal.close()


def cli(*argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *argv], input=stdin, capture_output=True, text=True, env=env, timeout=60, cwd=ROOT
    )


def test_a_second_window_on_an_open_game_says_so_and_exits(tmp_path: Path) -> None:
    journal = played(tmp_path / "g.jsonl")
    before = journal.path.read_bytes()
    try:
        done = cli("--source", "demo", "--resume", str(journal.path), "--screenshot", str(tmp_path / "s.png"), "--after", "1")
    finally:
        journal.close()
    assert done.returncode == 2, done.stderr
    assert f"{journal.path} is already open (in process {os.getpid()} since" in done.stderr
    assert not (tmp_path / "s.png").exists() and journal.path.read_bytes() == before


def test_play_on_a_game_open_elsewhere_says_so_and_exits(tmp_path: Path) -> None:
    journal = played(tmp_path / "g.jsonl")
    before = journal.path.read_bytes()
    try:
        done = cli("play", "--resume", str(journal.path), stdin="1 5 2 3 4 6\n")
    finally:
        journal.close()
    assert done.returncode == 2
    assert f"{journal.path} is already open (in process {os.getpid()} since" in done.stderr
    assert journal.path.read_bytes() == before


def test_the_lock_of_a_writer_that_was_killed_is_taken_over_and_said(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    played(path).close()
    writer = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from scorekeeper.game.journal import open_journal; "
         "open_journal(sys.argv[1]); print('open', flush=True); time.sleep(60)", str(path)],
        stdout=subprocess.PIPE, text=True, cwd=ROOT,
    )
    assert writer.stdout is not None and writer.stdout.readline() == "open\n"
    with pytest.raises(GameOpenElsewhere, match=f"in process {writer.pid} since"):
        open_journal(path)
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=10)
    assert lock_path(path).exists()  # a kill -9 leaves the file, not the hold on it
    told: list[str] = []
    controller = GameController(tmp_path)
    controller.on_notice.append(told.append)
    controller.resume(path)
    assert re.search(rf"the lock that process {writer.pid} since \d\d:\d\d left on g\.jsonl was taken over", told[0])
    assert controller.state is not None and controller.state.players[0].score == 250
    controller.close()
    assert not lock_path(path).exists()


def test_a_game_open_elsewhere_is_not_deleted(tmp_path: Path) -> None:
    from scorekeeper.game.photos import delete_game

    journal = played(tmp_path / "g.jsonl")
    with pytest.raises(GameOpenElsewhere, match="is already open"):
        delete_game(journal.path)
    assert read_journal(journal.path).game().state.players[0].score == 250
    journal.close()
    lock_path(journal.path).write_text('{"pid": 1, "since": ""}')  # as a killed writer leaves it
    delete_game(journal.path)
    assert list(tmp_path.iterdir()) == []


def test_play_takes_over_the_lock_of_a_dead_writer_and_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    path = tmp_path / "g.jsonl"
    played(path).close()
    lock_path(path).write_text('{"pid": 4194304, "since": "2026-12-05T21:04:00+00:00"}')  # as a kill -9 leaves it
    sys.stdin = io.StringIO("q\n")
    try:
        assert main(["play", "--resume", str(path)]) == 0
    finally:
        sys.stdin = sys.__stdin__
    out = capsys.readouterr().out
    assert "The lock that process 4194304 since 21:04 left on g.jsonl was taken over" in out
    assert not lock_path(path).exists()


def test_the_resume_offer_says_which_game_is_open_elsewhere(tmp_path: Path) -> None:
    from scorekeeper.game.resume import unfinished_summaries

    journal = played(games_folder(tmp_path) / "g.jsonl")
    journal.path.with_name("h.jsonl").write_bytes(journal.path.read_bytes())
    offered = {game.path.name: str(game) for game in unfinished_summaries(tmp_path)}
    assert re.search(rf" · open in process {os.getpid()} since \d\d:\d\d$", offered["g.jsonl"])
    assert "open in" not in offered["h.jsonl"]
    journal.close()
    assert all("open in" not in str(game) for game in unfinished_summaries(tmp_path))


def test_tidying_removes_an_empty_journal_with_its_stale_lock_but_never_one_held(tmp_path: Path) -> None:
    import time

    from scorekeeper.game.games_folder import STALE_SECONDS, unfinished_games

    folder = games_folder(tmp_path)
    killed = Journal.create(folder / "killed.jsonl")
    killed.close()
    lock_path(killed.path).write_text('{"pid": 4194304, "since": ""}')  # as a start killed before its first event leaves it
    held = Journal.create(folder / "held.jsonl")  # a writer that hangs before its first event
    for path in (killed.path, held.path):
        os.utime(path, (time.time() - STALE_SECONDS - 5,) * 2)
    assert unfinished_games(tmp_path) == []
    assert sorted(p.name for p in folder.iterdir()) == ["held.jsonl", "held.jsonl.lock"]
    held.close()
