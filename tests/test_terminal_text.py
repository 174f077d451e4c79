"""Names, rules titles and notes from files reach the terminal with their control characters made
visible (an escape sequence is shown, not acted on), and ordinary Unicode names as they are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.game import Game, save_game
from scorekeeper.game.games_folder import games_folder
from scorekeeper.rules import load_rules, rules_to_toml
from scorekeeper.stats.history import CACHE_FILE, history_of
from scorekeeper.terminal import visible
from tests.history_games import make_home
from tests.test_cli import run_cli as run

CLEAR = "\x1b[2J"
TITLE_SET = "\x1b]0;pwned\x07"



def no_control(text: str) -> bool:
    return not any(ord(c) < 0x20 and c != "\n" or 0x7F <= ord(c) < 0xA0 for c in text)


def test_control_characters_are_written_out_and_other_characters_kept() -> None:
    assert visible("\x1b[2J") == "\\x1b[2J"
    assert visible("a\rb\tc\x07d\x7fe\x9bf\x00") == "a\\rb\\tc\\x07d\\x7fe\\x9bf\\x00"
    assert visible("Zoë, 山田, Ñandú 🎲\nnext line") == "Zoë, 山田, Ñandú 🎲\nnext line"


def test_play_shows_a_name_holding_an_escape_sequence_and_keeps_accents_and_cjk(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "play", "--players", f"{CLEAR}Eve,Zoë,山田", stdin="1 1 5 2 3 4\nk 1 1 5\nb\nq\n")
    assert status == 0 and no_control(out)
    assert "\\x1b[2JEve banks 250: now 250." in out and " Zoë " in out and " 山田 " in out


def test_play_resumed_from_a_save_shows_its_names_and_rules_title_made_visible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules_file = tmp_path / "odd.toml"
    rules_file.write_text(rules_to_toml(load_rules("retail")).replace('title = "', 'title = "\\u001b]0;pwned\\u0007', 1), encoding="utf-8")
    status, out, _ = run(capsys, "rules", "show", str(rules_file))
    assert status == 0 and no_control(out) and out.startswith("\\x1b]0;pwned\\x07")
    game = Game.new(load_rules(str(rules_file)), [f"Ann{CLEAR}", "Bob\rZed"])
    saved = tmp_path / "g.json"
    save_game(game, saved)
    status, out, _ = run(capsys, "play", "--resume", str(saved), stdin="q\n")
    assert status == 0 and no_control(out)
    assert out.startswith("\\x1b]0;pwned\\x07") and "Ann\\x1b[2J" in out and "Bob\\rZed" in out


def test_history_shows_names_and_the_caches_notes_made_visible(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("SCOREKEEPER_HOME", str(home))
    make_home(home)
    game = Game.new(load_rules("retail"), [f"Mal{CLEAR}", "Zoë"], started_at="2026-11-06T20:00:00+00:00", target=1000)
    game.roll("1 1 1 1 1 1")
    game.keep("1 1 1 1 1 1")
    game.bank()
    game.roll("2 3 4 6 2 3")
    game.farkle()
    assert game.state.over
    save_game(game, games_folder(home) / "g6.json")
    history_of(home)
    cache = json.loads((home / CACHE_FILE).read_text(encoding="utf-8"))
    cache["files"]["g4.jsonl"]["skipped"] = f"{TITLE_SET}{CLEAR}spoiled"
    (home / CACHE_FILE).write_text(json.dumps(cache), encoding="utf-8")
    status, out, err = run(capsys, "history")
    assert status == 0 and no_control(out) and no_control(err)
    assert "g4.jsonl skipped: \\x1b]0;pwned\\x07\\x1b[2Jspoiled" in err
    assert "Mal\\x1b[2J" in out and "Zoë" in out


def test_an_error_naming_a_file_shows_its_name_made_visible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "export", str(tmp_path / f"game{CLEAR}.json"), "-o", str(tmp_path / "sheet.csv"))
    assert status == 2 and no_control(err) and "game\\x1b[2J.json" in err
