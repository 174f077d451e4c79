"""``play --save FILE`` never replaces a file that is not this game's save, keeps the mode of the
save it replaces, and never leaves half a file."""

from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.game import Game, SaveFileError, load_game, save_game
from scorekeeper.game.games_folder import default_home, games_folder
from scorekeeper.game.save import game_file_kind, load_saved
from scorekeeper.rules import load_rules


def play(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str, str]:
    sys.stdin = io.StringIO(stdin)
    try:
        status = main(["play", *argv])
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return status, out, err


def yesterday(path: Path) -> bytes:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-12-05T20:00:00+00:00")
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    save_game(game, path)
    return path.read_bytes()


def test_save_refuses_the_save_of_another_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "yesterday.json"
    before = yesterday(saved)
    status, out, err = play(capsys, "--players", "Cy,Di", "--save", str(saved), stdin="q\n")
    assert status == 2 and out == ""
    assert f"{saved}: the save of another game, so it is left as it is" in err
    assert f"'scorekeeper play --resume {saved}'" in err
    assert saved.read_bytes() == before


def test_save_refuses_a_file_that_is_no_game_and_keeps_its_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("private\n")
    notes.chmod(0o600)
    status, _, err = play(capsys, "--players", "Cy,Di", "--save", str(notes), stdin="q\n")
    assert status == 2 and "not a saved game, so it is left as it is" in err
    _, out, _ = play(capsys, "--players", "Cy,Di", stdin=f"save {notes}\nq\n")
    assert "Not allowed" in out and "left as it is" in out
    assert notes.read_text() == "private\n" and stat.S_IMODE(notes.stat().st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["notes.txt"]  # no temporary file left beside it


def test_save_in_a_folder_that_is_not_there_is_refused_saying_so_but_the_homes_games_folder_is_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("SCOREKEEPER_HOME", str(home))
    typo = tmp_path / "nowhere" / "tonight.json"
    status, out, err = play(capsys, "--players", "Cy,Di", "--save", str(typo), stdin="q\n")
    assert status == 2 and out == ""
    assert f"{typo}: {typo.parent} does not exist, so nothing was saved: make the folder first" in err
    assert not typo.parent.exists() and not home.exists()
    _, out, _ = play(capsys, "--players", "Cy,Di", stdin=f"save {typo}\nq\n")
    assert f"{typo.parent} does not exist" in out and not typo.parent.exists()
    in_home = home / "games" / "tonight.json"
    status, out, _ = play(capsys, "--players", "Cy,Di", "--save", str(in_home), stdin="111234\nk 111\nb\nq\n")
    assert status == 0 and f"The game is saved in {in_home}" in out
    assert load_game(in_home).state.players[0].score == 1000


def test_the_save_of_this_game_is_replaced_keeping_its_mode(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "ours.json"
    yesterday(saved)
    saved.chmod(0o600)
    status, out, _ = play(capsys, "--resume", str(saved), stdin="5 2 3 4 6 6\nk 5\nb\n")
    assert status == 0 and "Bob banks 50: now 50." in out
    assert [p.score for p in load_game(saved).state.players] == [250, 50]
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    copy = tmp_path / "copy.json"
    _, out, _ = play(capsys, "--resume", str(saved), stdin=f"save {copy}\n5 2 3 4 6 6\nk 5\nb\nsave {copy}\n")
    assert out.count(f"Saved to {copy}.") == 2 and [p.score for p in load_game(copy).state.players] == [300, 50]


def test_save_beside_a_resumed_journal_is_checked_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    play(capsys, "--players", "Ann,Bob", stdin="1 5 2 3 4 6\nk 1 5\nb\n")
    [journal] = Path(os.environ["SCOREKEEPER_HOME"], "games").glob("*.jsonl")
    other = tmp_path / "yesterday.json"
    before = yesterday(other)
    status, _, err = play(capsys, "--resume", str(journal), "--save", str(other), stdin="q\n")
    assert status == 2 and "the save of another game" in err and other.read_bytes() == before


def test_a_save_names_its_journal_even_where_its_path_reads_like_a_journals_format(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "g.json"
    status, _, _ = play(capsys, "--players", "Ann,Bob", "--save", str(saved), stdin="1 5 2 3 4 6\nk 1 5\nb\n")
    [journal] = games_folder(default_home()).glob("*.jsonl")
    assert status == 0 and load_saved(saved).journal == journal.absolute()
    odd = tmp_path / "scorekeeper-journal" / "evening.jsonl"
    save_game(load_game(saved), saved, odd)
    assert game_file_kind(saved) == "saved game" and load_saved(saved).journal == odd


@pytest.mark.parametrize("named", [5, "", ["a.jsonl"], "a\0b.jsonl"])
def test_a_save_whose_journal_is_not_a_file_name_is_refused_quoting_it(tmp_path: Path, named: object) -> None:
    saved = tmp_path / "g.json"
    yesterday(saved)
    document = json.loads(saved.read_text())
    document["journal"] = named
    saved.write_text(json.dumps(document))
    with pytest.raises(SaveFileError, match=re.escape(f"the save's journal is not a file name (got {named!r})")):
        load_saved(saved)


def test_opening_a_save_clears_the_temporary_files_a_killed_save_left_even_when_it_cannot_be_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "g.json"
    saved.write_text('{"format": "scorekeeper-game", "version": 1, "events": [', encoding="utf-8")
    left = tmp_path / ".g.json.k1ll3d.tmp"
    left.write_text('{"format": "scorekeeper-game", "version": 1, "events": []}', encoding="utf-8")
    status, _, err = play(capsys, "--resume", str(saved))
    assert status == 2 and "damaged" in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["g.json"]
