"""``scorekeeper play`` keeps a journal in the scorekeeper home from its first step: Ctrl+C, a
closed terminal or a crash loses nothing, and the window and ``play --resume`` each go on with
the other's games."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.game.controller import GameController
from scorekeeper.game.games_folder import default_home, games_folder
from scorekeeper.game import load_game
from scorekeeper.game.journal import open_journal, read_journal
from scorekeeper.game.lock import lock_path
from scorekeeper.game.resume import unfinished_summaries
from scorekeeper.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent


def interrupted(home: Path, how: signal.Signals) -> tuple[int, str]:
    """``play`` with a roll and a keep typed, then ``how`` sent once it shows the next prompt:
    the exit status and what it wrote to stderr."""
    env = {**os.environ, "SCOREKEEPER_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    # Ctrl+C and a closed terminal as at a terminal, even where the suite runs in the background
    # or under nohup (SIGINT or SIGHUP ignored there, and so in every child)
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "play", "--players", "Ann,Bob"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
        preexec_fn=lambda: (signal.signal(signal.SIGINT, signal.SIG_DFL), signal.signal(signal.SIGHUP, signal.SIG_DFL)),
    )
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("1 1 5 2 3 4\nk 1 1 5\n")
        process.stdin.flush()
        for line in process.stdout:
            if line.startswith("Ann (0), turn 250: roll 3 dice"):
                break
        process.send_signal(how)
        _, err = process.communicate(timeout=15)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    return process.returncode, err


def test_ctrl_c_ends_play_with_one_line_and_loses_nothing(tmp_path: Path) -> None:
    home = tmp_path / "home"
    status, err = interrupted(home, signal.SIGINT)
    assert status == 130
    [journal] = games_folder(home).glob("*.jsonl")
    assert err.strip() == f"Stopped. The game is kept in {journal}; go on with it: scorekeeper play --resume {journal}"
    state = read_journal(journal).game().state
    assert state.turn is not None and state.turn.total == 250 and state.turn.dice_left == 3


def test_a_closed_terminal_loses_nothing_and_its_lock_is_taken_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    status, _ = interrupted(home, signal.SIGHUP)
    assert status == -signal.SIGHUP
    [journal] = games_folder(home).glob("*.jsonl")
    monkeypatch.setenv("SCOREKEEPER_HOME", str(home))
    status, out = play(capsys, "--resume", str(journal), stdin="2 3 5\nk 5\nb\n")
    assert status == 0 and "left on " + journal.name + " was taken over" in out and "Ann banks 300: now 300." in out


def play(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str) -> tuple[int, str]:
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(["play", *argv])
    finally:
        sys.stdin = sys.__stdin__
    return status, capsys.readouterr().out


def test_the_window_goes_on_with_a_game_of_play(capsys: pytest.CaptureFixture[str]) -> None:
    home = default_home()
    status, _ = play(capsys, "--players", "Ann,Bob", stdin="1 1 5 2 3 4\nk 1 1 5\nb\n2 2 3 3 4 6\n")
    assert status == 0
    [offered] = unfinished_summaries(home)
    assert offered.scores == (("Ann", 250), ("Bob", 0)) and offered.to_play == "Bob"
    controller = GameController(home)
    controller.resume(offered.path)
    assert controller.act(lambda game: game.farkle())
    controller.close()
    state = read_journal(offered.path).game().state
    assert state.current is not None and state.current.name == "Ann" and len(state.history) == 2


def test_play_goes_on_with_a_game_of_the_window(capsys: pytest.CaptureFixture[str]) -> None:
    home = default_home()
    controller = GameController(home)
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert controller.act(lambda game: game.roll("1 5 2 3 4 6"))
    assert controller.journal is not None
    path = controller.journal.path
    controller.close()
    status, out = play(capsys, "--resume", str(path), stdin="k 1 5\nb\n")
    assert status == 0 and "Ann banks 150: now 150." in out
    assert [p.score for p in read_journal(path).game().state.players] == [150, 0]
    assert list(games_folder(home).glob("*.jsonl")) == [path]


def test_resuming_a_save_goes_on_in_the_journal_of_the_same_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    play(capsys, "--players", "Ann,Bob", "--save", str(saved), stdin="1 5 2 3 4 6\nk 1 5\nb\n")
    [journal] = games_folder(default_home()).glob("*.jsonl")
    status, _ = play(capsys, "--resume", str(saved), stdin="5 2 3 4 6 6\nk 5\nb\n")
    assert status == 0 and list(games_folder(default_home()).glob("*.jsonl")) == [journal]
    assert [p.score for p in read_journal(journal).game().state.players] == [150, 50]
    journal.unlink()  # a save whose journal is gone gets a new one, holding the whole game
    status, _ = play(capsys, "--resume", str(saved), stdin="q\n")
    [again] = games_folder(default_home()).glob("*.jsonl")
    assert status == 0 and [p.score for p in read_journal(again).game().state.players] == [150, 50]


def test_resuming_a_save_a_kill_left_a_step_behind_keeps_that_step_in_the_one_journal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    saved = tmp_path / "g.json"
    play(capsys, "--players", "Ann,Bob", "--save", str(saved), stdin="1 5 2 3 4 6\nk 1 5\nb\n")
    [journal] = games_folder(default_home()).glob("*.jsonl")
    # a kill between the journal's write and the save's: the journal holds a roll the save does not,
    # and the killed writer's lock file and half-written save are left behind
    recovered = open_journal(journal)
    recovered.game.roll("5 5 2 3 4 6")
    recovered.journal.close()
    lock_path(journal).write_text('{"pid": 999999, "since": "2026-12-06T20:00:00+00:00"}')
    lock_path(saved).write_text('{"pid": 999999, "since": "2026-12-06T20:00:00+00:00"}')
    (tmp_path / ".g.json.k1ll3d.tmp").write_text('{"format": "scorekeeper-ga')
    status, out = play(capsys, "--resume", str(saved), stdin="k 5 5\nb\n")
    assert status == 0 and "Bob banks 100: now 100." in out
    assert list(games_folder(default_home()).glob("*.jsonl")) == [journal]
    assert [p.score for p in read_journal(journal).game().state.players] == [150, 100]
    assert [p.score for p in load_game(saved).state.players] == [150, 100]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json"]
    assert list(games_folder(default_home()).glob("*.lock")) == []
