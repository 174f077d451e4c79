"""Start-up tidying stays inside the games folder: a link there (to a picture folder, a journal, a
temporary file) is never followed, and nothing it points to is removed or changed."""

from __future__ import annotations

import os
import time
from pathlib import Path

from scorekeeper.game import DiceRolled, Game
from scorekeeper.game.games_folder import STALE_SECONDS, games_folder
from scorekeeper.game.journal import Journal
from scorekeeper.game.resume import unfinished_summaries
from scorekeeper.rules import Dice, load_rules

HEADER = '{"format":"scorekeeper-journal","version":1}\n'


def stale(path: Path, text: str) -> Path:
    """``path`` holding ``text``, last changed well before start-up would tidy it."""
    path.write_text(text, encoding="utf-8")
    os.utime(path, (time.time() - STALE_SECONDS - 5,) * 2, follow_symlinks=False)
    return path


def test_start_up_tidying_follows_no_link_out_of_the_games_folder(tmp_path: Path) -> None:
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    folder = games_folder(home)
    folder.mkdir(parents=True)
    elsewhere.mkdir()
    journal = Journal.create(folder / "h.jsonl")
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6")))
    journal.close()
    (folder / "h.photos").symlink_to(elsewhere, target_is_directory=True)
    draft = stale(elsewhere / ".draft.tmp", "a file of the player's own")
    gone = tmp_path / "gone-pictures"
    gone.mkdir()
    (gone / "kept.jpg").write_bytes(b"a picture of the player's own")
    (folder / "gone.photos").symlink_to(gone, target_is_directory=True)
    notes = stale(elsewhere / "notes.jsonl", "")
    (folder / "notes.jsonl").symlink_to(notes)
    header = stale(elsewhere / "header.jsonl", HEADER)
    (folder / "header.jsonl").symlink_to(header)
    os.utime(folder / "notes.jsonl", (time.time() - STALE_SECONDS - 5,) * 2, follow_symlinks=False)
    os.utime(folder / "header.jsonl", (time.time() - STALE_SECONDS - 5,) * 2, follow_symlinks=False)

    assert [found.path for found in unfinished_summaries(home)] == [journal.path]

    assert draft.read_text(encoding="utf-8") == "a file of the player's own"
    assert (gone / "kept.jpg").read_bytes() == b"a picture of the player's own"
    assert notes.exists() and header.read_text(encoding="utf-8") == HEADER
    assert sorted(p.name for p in elsewhere.iterdir()) == [".draft.tmp", "header.jsonl", "notes.jsonl"]
    links = ("h.photos", "gone.photos", "notes.jsonl", "header.jsonl")
    assert all((folder / name).is_symlink() for name in links), "a link a person put there is theirs to remove"


def test_tidying_still_clears_what_scorekeeper_left_in_a_real_picture_folder(tmp_path: Path) -> None:
    folder = games_folder(tmp_path)
    journal = Journal.create(folder / "h.jsonl")
    Game.new(load_rules("retail"), ["Ann"], sink=journal.write).act(DiceRolled(Dice.from_str("1 2 3 4 6 6")))
    journal.close()
    pictures = folder / "h.photos"
    pictures.mkdir()
    left = stale(pictures / ".0123456789abcdef.x.tmp", "half a picture, its writer killed")
    outside = stale(tmp_path / "outside.tmp", "not scorekeeper's")
    (pictures / ".fedcba9876543210.y.tmp").symlink_to(outside)
    os.utime(pictures / ".fedcba9876543210.y.tmp", (time.time() - STALE_SECONDS - 5,) * 2, follow_symlinks=False)
    unfinished_summaries(tmp_path)
    assert not left.exists()
    assert outside.read_text(encoding="utf-8") == "not scorekeeper's"
