"""Saved games refused word for word where they cannot be read or written, and the resume offer's
line for each unfinished game as the table reads it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.game import EventSink, Game, SaveFileError, load_game, save_game
from scorekeeper.game.journal import Journal
from scorekeeper.game.resume import UnfinishedGame, summarise
from scorekeeper.game.save import game_file_kind
from scorekeeper.rules import load_rules


def two_player_game(sink: EventSink | None = None) -> Game:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-12-05T20:15:00+00:00", sink=sink)
    game.roll("1 1 1 5 2 3")
    game.keep("1 1 1 5")
    game.roll("1 5")
    game.keep("1 5")
    game.bank()
    return game


@pytest.mark.parametrize(
    "document, message",
    [
        ({"format": "scorekeeper-notes", "version": 1}, "not a scorekeeper saved game"),
        ({"format": "scorekeeper-game"}, "the save has no valid format version (got None)"),
        ({"format": "scorekeeper-game", "version": "1"}, "the save has no valid format version (got '1')"),
        ({"format": "scorekeeper-game", "version": True}, "the save has no valid format version (got True)"),
        ({"format": "scorekeeper-game", "version": 0}, "the save has no valid format version (got 0)"),
        (
            {"format": "scorekeeper-game", "version": 2},
            "saved by a newer scorekeeper (format version 2; this one reads up to 1); update scorekeeper to open it",
        ),
        ({"format": "scorekeeper-game", "version": 1, "events": None}, "the save has no list of events"),
        (
            {"format": "scorekeeper-game", "version": 1, "events": [{"type": "banked"}]},
            "damaged: a game's log must begin with the start of the game",
        ),
    ],
)
def test_a_save_that_cannot_be_read_is_refused_word_for_word(tmp_path: Path, document: object, message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document))
    with pytest.raises(SaveFileError) as refused:
        load_game(path)
    assert str(refused.value) == f"{path}: {message}"


def test_a_journal_opened_as_a_saved_game_says_how_to_go_on_with_it(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path)
    two_player_game(journal.write)
    journal.close()
    before = path.read_bytes()
    with pytest.raises(SaveFileError) as refused:
        load_game(path)
    assert str(refused.value) == (
        f"{path}: this is the window's game journal, not a saved game; "
        f"go on with it in the window: scorekeeper --resume {path}"
    )
    with pytest.raises(SaveFileError) as refused:
        save_game(two_player_game(), path)
    assert str(refused.value) == f"{path}: this is the window's game journal; save to another file name"
    assert path.read_bytes() == before


def test_a_save_into_a_folder_that_is_not_there_says_why(tmp_path: Path) -> None:
    path = tmp_path / "no-such-folder" / "game.json"
    with pytest.raises(SaveFileError) as refused:
        save_game(two_player_game(), path)
    assert str(refused.value) == f"{path}: cannot save the game: No such file or directory"
    assert list(tmp_path.iterdir()) == []


def test_a_file_is_told_a_journal_a_saved_game_or_neither_by_its_start(tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    save_game(two_player_game(), saved)
    journal = tmp_path / "g.jsonl"
    Journal.create(journal).close()
    other = tmp_path / "notes.txt"
    other.write_text("scorekeeper notes: Ann 250\n")
    kinds = [game_file_kind(path) for path in (saved, journal, other, tmp_path / "gone.json", tmp_path)]
    assert kinds == ["saved game", "journal", None, None, None]


def test_the_resume_offer_names_the_start_the_scores_whose_turn_and_the_rules(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path)
    game = two_player_game(journal.write)
    game.roll("2 3 4 6 6 2")
    game.farkle()
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()
    journal.close()
    summary = summarise(path)
    # Ann: 1 1 1 + 5 = 1,050, then 1 + 5 = 150, banked 1,200; Bob farkles; Ann banks a 5: 1,250.
    assert summary == UnfinishedGame(path, "2026-12-05T20:15:00+00:00", (("Ann", 1250), ("Bob", 0)), "Bob", "retail")
    assert str(summary) == "Sat 5 Dec 2026, 20:15 · Ann 1,250, Bob 0 · Bob to play · retail"


def test_a_journal_the_offer_cannot_read_is_listed_by_name_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('{"format":"scorekeeper-game"}\n')
    summary = summarise(path)
    assert (summary.started_at, summary.scores, summary.to_play, summary.rules) == ("", (), "", "")
    assert str(summary) == f"g.jsonl (cannot be read: {path}: not a scorekeeper journal (line 1 does not name the format))"


@pytest.mark.parametrize(
    "started_at, shown",
    [
        ("2026-02-28T09:05:00+01:00", "Sat 28 Feb 2026, 09:05"),
        ("2027-01-01T00:00:00", "Fri 1 Jan 2027, 00:00"),
        ("last Tuesday", "last Tuesday"),
    ],
)
def test_the_offer_says_when_a_game_began_as_the_table_says_it(started_at: str, shown: str) -> None:
    summary = UnfinishedGame(Path("g.jsonl"), started_at, (("Ann", 50),), "Ann", "house-2009")
    assert str(summary) == f"{shown} · Ann 50 · Ann to play · house-2009"
