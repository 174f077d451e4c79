"""The journal: written before shown, read back whole, damage reported and kept aside."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from scorekeeper.game import DieCorrected, Game, event_to_dict
from scorekeeper.game.games_folder import games_folder, new_journal_path, unfinished_games
from scorekeeper.game.journal import Journal, open_journal, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.rules import FarkleError, load_rules


def played(path: Path) -> tuple[Game, Journal]:
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00", sink=journal.write)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    game.roll("2 3 4 6 6 2")
    game.farkle()
    game.roll("5 5 2 3 4 6")
    game.undo()
    game.redo()
    return game, journal


def dicts(game: Game) -> list[dict[str, object]]:
    return [event_to_dict(event) for event in game.events]


def test_every_event_is_on_disk_when_the_game_has_taken_it(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path)
    seen: list[int] = []

    def count_lines(_: object) -> None:
        seen.append(len(path.read_text().splitlines()))

    game = Game.new(load_rules("retail"), ["Ann"], sink=lambda event: (journal.write(event), count_lines(event))[0])
    game.roll("1 2 3 4 5 5")
    assert seen == [2, 3, 4]
    assert len(game.events) == 3


def test_a_journal_reads_back_as_the_same_game(tmp_path: Path) -> None:
    game, journal = played(tmp_path / "g.jsonl")
    journal.close()
    recovered = open_journal(tmp_path / "g.jsonl")
    assert recovered.damage is None
    assert dicts(recovered.game) == dicts(game)
    assert recovered.game.state == game.state
    recovered.game.keep("5 5")
    recovered.journal.close()
    again = read_journal(tmp_path / "g.jsonl")
    assert again.damage is None and event_to_dict(again.events[-1]) == {"type": "kept", "dice": [5, 5]}


def test_a_rebuilt_game_is_appended_and_the_old_lines_stay(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = played(path)
    before = path.read_bytes()
    events = list(game.events[:5])
    rebuilt = Game.from_events(events)
    journal.rebuilt(rebuilt.events)
    journal.close()
    assert path.read_bytes().startswith(before)
    assert dicts(open_journal(path).game) == dicts(rebuilt)


def test_a_broken_line_is_reported_and_everything_before_recovered(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = played(path)
    journal.close()
    lines = path.read_text().splitlines(keepends=True)
    lines[6] = lines[6][:10] + "#garbage\n"
    damaged = "".join(lines)
    path.write_text(damaged)
    recovered = open_journal(path)
    damage = recovered.damage
    assert damage is not None and damage.line == 7 and "not a JSON line" in damage.reason
    assert damage.recovered == 5
    assert dicts(recovered.game) == dicts(game)[:5]
    assert damage.kept_as is not None and damage.kept_as.read_text() == damaged
    assert "line 7" in str(damage) and str(damage.kept_as) in str(damage)
    assert path.read_text() == "".join(lines[:6])
    recovered.game.roll("1 1 1")
    recovered.journal.close()
    assert read_journal(path).damage is None
    assert damage.kept_as.read_text() == damaged


def test_a_line_cut_off_mid_write_is_damage_at_that_line(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = played(path)
    journal.close()
    text = path.read_text()
    path.write_text(text[:-7])
    contents = read_journal(path)
    assert contents.damage is not None and "cut off" in contents.damage.reason
    assert contents.damage.line == len(text.splitlines())
    assert [event_to_dict(e) for e in contents.events] == dicts(game)[:-1]
    assert path.read_text() == text[:-7], "reading alone changes nothing"


def test_an_event_the_game_refuses_is_damage_with_the_engines_reason(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, journal = played(path)
    journal.close()
    with path.open("a") as stream:
        stream.write(json.dumps({"type": "banked", "by": {"seat": 0, "name": "Ann"}}) + "\n")
        stream.write(json.dumps({"type": "banked", "by": {"seat": 0, "name": "Ann"}}) + "\n")
    contents = read_journal(path)
    assert contents.damage is not None
    assert contents.damage.line == len(path.read_text().splitlines()) - 1
    assert "bank" in contents.damage.reason


def test_a_tap_correction_keeps_the_name_of_its_training_picture_and_older_lines_read_without(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann"], sink=journal.write)
    game.roll("1 2 3 4 6 6")
    game.act(DieCorrected(3, 5, "20261201-101500-000001.png"))
    game.act(DieCorrected(4, 2))
    journal.close()
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    ann = {"seat": 0, "name": "Ann"}
    assert lines[-2] == {"type": "corrected", "was": 3, "now": 5, "picture": "20261201-101500-000001.png", "by": ann}
    assert lines[-1] == {"type": "corrected", "was": 4, "now": 2, "by": ann}, "no picture, no field: older journals read as before"
    events = read_journal(path).events
    assert events[-2:] == (DieCorrected(3, 5, "20261201-101500-000001.png"), DieCorrected(4, 2))


@pytest.mark.parametrize("picture", ["../../etc/passwd", "sub/x.png", "a\\b.png", "", 7])
def test_a_correction_naming_anything_but_a_picture_file_is_damage(tmp_path: Path, picture: object) -> None:
    path = tmp_path / "g.jsonl"
    _, journal = played(path)
    journal.close()
    with path.open("a") as stream:
        stream.write(json.dumps({"type": "corrected", "was": 3, "now": 5, "picture": picture}) + "\n")
    contents = read_journal(path)
    assert contents.damage is not None and contents.damage.line == len(path.read_text().splitlines())
    assert "'picture' must be a file name" in contents.damage.reason and repr(picture) in contents.damage.reason


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "empty"),
        ('{"format": "scorekeeper-game"}\n', "not a scorekeeper journal"),
        ('{"format": "scorekeeper-journal", "version": 99}\n', "newer scorekeeper"),
    ],
)
def test_files_that_are_not_journals_are_refused_untouched(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(text)
    with pytest.raises(JournalError, match=message):
        open_journal(path)
    assert path.read_text() == text
    assert list(tmp_path.iterdir()) == [path]


def test_a_journal_is_never_started_over_an_existing_file(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text("precious\n")
    with pytest.raises(JournalError, match="already there"):
        Journal.create(path)
    assert path.read_text() == "precious\n"


def test_when_the_disk_refuses_the_game_does_not_take_the_step(tmp_path: Path) -> None:
    game, journal = played(tmp_path / "g.jsonl")
    journal.close()
    state = game.state
    with pytest.raises(FarkleError, match="closed"):
        game.keep("5 5")
    assert game.state == state


def fsyncs_of(path: Path, monkeypatch: pytest.MonkeyPatch, on_sync: Callable[[], object], fail: bool = False) -> list[object]:
    """Record ``on_sync()`` at each fsync of the file at ``path`` (others pass through); ``fail``: each
    such fsync fails as a full or removed disk makes it fail."""
    synced: list[object] = []
    real_fsync = os.fsync

    def recording_fsync(fd: int) -> None:
        if os.fstat(fd).st_ino == path.stat().st_ino:
            synced.append(on_sync())
            if fail:
                raise OSError(errno.EIO, os.strerror(errno.EIO))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    return synced


def test_each_event_is_synced_to_disk_once_before_the_game_takes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann"], sink=journal.write)
    # at each sync: lines in the file (the header, the start, the seat, then one per step) and events the game holds
    synced = fsyncs_of(path, monkeypatch, lambda: (len(path.read_bytes().splitlines()), len(game.events)))
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    game.undo()
    game.redo()
    assert synced == [(4, 2), (5, 3), (6, 4), (7, 5), (8, 6)]
    assert len(game.events) == 7


def test_a_failed_sync_refuses_the_step_and_leaves_the_journal_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = played(path)
    on_disk, events, state = path.read_bytes(), game.events, game.state
    failing = fsyncs_of(path, monkeypatch, lambda: "synced", fail=True)
    with pytest.raises(JournalError, match=r"cannot write the journal \(Input/output error\); the last step was not taken: make room"):
        game.keep("5 5")
    assert failing == ["synced"]
    assert game.events == events and game.state == state
    assert path.read_bytes() == on_disk, "a step refused must not be read back on resume"
    monkeypatch.undo()
    game.keep("5 5")
    journal.close()
    assert dicts(open_journal(path).game) == dicts(game)


def test_unfinished_games_are_offered_newest_first_but_not_shelved_or_finished(tmp_path: Path) -> None:
    home = tmp_path
    first = new_journal_path(home)
    assert first.parent == games_folder(home)
    played(first)[1].close()
    journal = Journal.create(new_journal_path(home))
    short = Game.new(load_rules("retail"), ["Ann"], sink=journal.write)
    while short.state.players[0].score + short.state.turn.total < 10000:
        short.roll("1 1 1 1 1 1")
        short.keep("1 1 1 1 1 1")
    short.bank()
    assert short.state.over
    journal.close()
    _, journal = played(new_journal_path(home))
    journal.shelve()
    journal.close()
    assert unfinished_games(home) == [first]
