"""The history read fast and the same: every number of varied games as it was before the reading
was made faster (``tests/varied_history.json``, written by the reading before), each game
replayed once, ``history`` importing only what it needs, and a game's numbers kept in the
history cache as it ends."""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import scorekeeper.game.state as state_module
from scorekeeper.cli import COMMANDS, build_parser, main
from scorekeeper.game import Game, GameState, save_game
from scorekeeper.rules import load_rules
from scorekeeper.game.games_folder import default_home, games_folder
from scorekeeper.stats import history
from scorekeeper.stats.history import CACHE_FILE, history_dict, read_games, summarise
from scorekeeper.ui.controller import GameController
from tests.history_games import journal_game, play_g1, play_g2
from tests.varied_games import history_snapshot, make_varied_home

BEFORE = Path(__file__).with_name("varied_history.json")
"""What the history read from :func:`make_varied_home`'s games before the reading was made faster."""


@pytest.mark.parametrize("workers", [1, 2])
def test_every_number_of_varied_games_is_as_it_was_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    make_varied_home(tmp_path)
    before = json.loads(BEFORE.read_text(encoding="utf-8"))
    contexts: list[str] = []
    real_context = multiprocessing.get_context

    def context(method: str | None = None) -> Any:
        contexts.append(str(method))
        return real_context(method)

    monkeypatch.setattr(multiprocessing, "get_context", context)
    monkeypatch.setattr(history, "PARALLEL_FROM", 2)
    cold = history_snapshot(tmp_path, workers)
    assert len(contexts) == (workers > 1)
    assert (tmp_path / CACHE_FILE).is_file()
    warm = history_snapshot(tmp_path, workers)
    assert len(contexts) == (workers > 1)  # nothing to read again
    # Compared part by part first, so that a difference is told where it is.
    for part in ("skipped", "unfinished", "finished", "history"):
        assert cold[part] == before[part], part
        assert warm[part] == before[part], part
    assert len(before["finished"]) == 55 and len(before["unfinished"]) == 7 and len(before["skipped"]) == 1


def counted_steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every step of play the game's rules apply from now on, wherever they are called from."""
    real = state_module.apply
    calls = [0]

    def counting(state: GameState, action: Any) -> GameState:
        calls[0] += 1
        return real(state, action)

    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("scorekeeper") and getattr(module, "apply", None) is real:
            monkeypatch.setattr(module, "apply", counting)
    return calls


def test_each_game_is_replayed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal = journal_game(tmp_path, "g1", "retail", ["Ann", "Bob"], "2026-11-01T20:00:00+00:00", play_g1)
    game = Game.new(load_rules("house-2009"), ["Cy", "Dee"], started_at="2026-11-02T20:00:00+00:00")
    play_g2(game)
    save_game(game, games_folder(tmp_path) / "g2.json")
    # The log of g1 is its format line, its start and then only steps in force (no undo).
    g1_steps = len(journal.read_text(encoding="utf-8").splitlines()) - 2
    steps = counted_steps(monkeypatch)
    games = read_games(tmp_path)
    assert [played.path.name for played in games.finished] == ["g1.jsonl", "g2.json"]
    assert steps[0] == g1_steps + len(game.actions)


def test_history_imports_only_what_it_needs(tmp_path: Path) -> None:
    shown = "import sys; from scorekeeper.cli import main; main(['history']); print(' '.join(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", shown], env={**os.environ, "SCOREKEEPER_HOME": str(tmp_path)}, capture_output=True, text=True, check=True
    )
    loaded = set(done.stdout.splitlines()[-1].split())
    assert "scorekeeper.stats.history" in loaded
    assert not loaded & {"numpy", "cv2", "onnxruntime", "PySide6", "aiohttp"}
    others = {f"scorekeeper.cli.{module}" for command, module in COMMANDS.items() if command not in ("history", "window")}
    assert not loaded & others


def test_every_command_is_still_on_the_command_line() -> None:
    commands = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    assert list(commands.choices) == list(COMMANDS)
    # Each named alone builds the same parser for it as the whole command line does.
    for command in COMMANDS:
        alone = next(action for action in build_parser(command)._actions if isinstance(action, argparse._SubParsersAction))
        assert list(alone.choices) == [command]
        assert alone.choices[command].format_help() == commands.choices[command].format_help()


def cold_and_warm(home: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict[str, object], dict[str, object], int]:
    """The history of ``home`` from its cache as it stands (and how many steps of play that read
    replayed), then read again with no cache at all."""
    steps = counted_steps(monkeypatch)
    warm = history_dict(summarise(read_games(home)))
    replayed = steps[0]
    (home / CACHE_FILE).unlink()
    return warm, history_dict(summarise(read_games(home))), replayed


def test_a_game_finished_in_the_window_is_in_the_history_cache_as_it_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    home = default_home()
    controller = GameController(home)
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert controller.act(lambda game: game.roll("1 1 5 2 3 4"))
    assert controller.act(lambda game: game.undo())
    assert not (home / CACHE_FILE).exists()  # not before the game ends
    assert controller.act(play_g1)
    assert controller.state is not None and controller.state.over
    controller.close()
    warm, cold, replayed = cold_and_warm(home, monkeypatch)
    assert replayed == 0 and warm == cold and warm["games"] == 1


def test_a_game_finished_in_play_is_in_the_history_cache_as_it_ends(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    home = default_home()
    games_folder(home).mkdir(parents=True)
    saved = games_folder(home) / "kept.json"  # a save in the games folder counts too (once, with its journal)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1 1 1 2 3 4\nk 1 1 1\nb\n2 2 3 3 4 6\nf\n"))
    assert main(["play", "--players", "Ann,Bob", "--target", "1000", "--save", str(saved)]) == 0
    assert "Game over: Ann wins!" in capsys.readouterr().out
    cached = json.loads((home / CACHE_FILE).read_text(encoding="utf-8"))["files"]
    assert sorted(cached) == sorted(path.name for path in games_folder(home).iterdir())
    warm, cold, replayed = cold_and_warm(home, monkeypatch)
    assert replayed == 0 and warm == cold and warm["games"] == 1
