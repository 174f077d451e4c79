"""Games that never had a roll, and the games of screenshot runs, are neither offered for resume
nor followed by ``serve`` as the newest unfinished game; a screenshot run says where its journal is."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.cli.serve import game_to_follow
from scorekeeper.game.controller import GameController
from scorekeeper.game.games_folder import games_folder, unfinished_games
from scorekeeper.game.journal import read_journal
from scorekeeper.game.resume import unfinished_summaries
from scorekeeper.rules import load_rules
from scorekeeper.serve import ServeError

ROOT = Path(__file__).resolve().parent.parent


def started(home: Path, *rolls: str) -> Path:
    controller = GameController(home)
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    for roll in rolls:
        assert controller.act(lambda game: game.roll(roll))
    assert controller.journal is not None
    path = controller.journal.path
    controller.close()
    return path


def test_a_game_that_never_had_a_roll_is_not_offered_nor_followed(tmp_path: Path) -> None:
    played = started(tmp_path, "1 5 2 3 4 6")
    os.utime(played, (1, 1))
    unplayed = started(tmp_path)
    undone = started(tmp_path, "2 2 3 3 4 6")
    controller = GameController(tmp_path)
    controller.resume(undone)
    assert controller.act(lambda game: game.undo())
    controller.close()
    assert unplayed.exists() and undone.exists()
    assert unfinished_games(tmp_path) == [played]
    assert [game.path for game in unfinished_summaries(tmp_path)] == [played]
    assert game_to_follow(None, tmp_path) == played


@pytest.mark.slow
def test_a_screenshot_run_sets_its_game_aside_and_says_where_it_is(tmp_path: Path) -> None:
    home = tmp_path / "home"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SCOREKEEPER_HOME": str(home)}
    shot = tmp_path / "s.png"
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--source", "demo", "--players", "Ann,Bob", "--screenshot", str(shot), "--after", "1"],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    [journal] = games_folder(home).glob("*.jsonl")
    assert f"this run's game is in {journal}, set aside (not offered for resume)" in done.stdout
    assert read_journal(journal).shelved and unfinished_games(home) == []
    with pytest.raises(ServeError, match="no unfinished game"):
        game_to_follow(None, home)
