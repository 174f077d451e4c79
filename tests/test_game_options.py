"""The options of a new game (``--players``, ``--rules``, ``--variant``, ``--target``) are refused
the same way by every command that takes them, before anything starts."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.game.games_folder import default_home

ROOT = Path(__file__).resolve().parent.parent
REFUSED = "target 750 is too low"


def refusal(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    sys.stdin = io.StringIO("q\n")
    try:
        assert main(list(argv)) == 2
    finally:
        sys.stdin = sys.__stdin__
    err = capsys.readouterr().err
    command, _, message = err.partition(": ")
    assert command.startswith("scorekeeper ")
    return message


def test_every_command_refuses_a_target_the_rules_do_not_offer_the_same_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = ["--rules", "retail", "--players", "Ann,Bob", "--target", "750"]
    from_play = refusal(capsys, "play", *game)
    assert REFUSED in from_play
    assert refusal(capsys, "watch", "demo", "--game", *game) == from_play
    shot = tmp_path / "s.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--source", "demo", *game, "--screenshot", str(shot), "--after", "1"],
        capture_output=True, text=True, env=env, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 2 and done.stderr == f"scorekeeper window: {from_play}"
    assert not shot.exists() and not (default_home() / "games").exists()  # nothing started, no journal


def test_the_window_refuses_game_options_it_would_not_use(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import scorekeeper.ui.app

    def no_window(*args: object) -> int:
        raise AssertionError("the window opened")

    monkeypatch.setattr(scorekeeper.ui.app, "run_window", no_window)
    message = refusal(capsys, "--source", "demo", "--target", "10000", "--variant", "doubling")
    assert message.startswith("--variant, --target set up a game started right away: give its players too")
    journal = tmp_path / "g.jsonl"
    assert "leave out --rules" in refusal(capsys, "--resume", str(journal), "--rules", "pocket")
    assert "leave out --target" in refusal(capsys, "play", "--resume", str(journal), "--target", "0")
