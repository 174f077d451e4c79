"""Journal version 2: each step names the player whose turn it was, recovery refuses a step for the
wrong player rather than take it in the wrong turn, a version-1 journal reads (and goes on) as it
always has, and a journal of a newer version is refused and left as it is."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest

from scorekeeper.game import Banked, DiceRolled, Game, Kept, event_to_dict
from scorekeeper.game.journal import Journal, StepOutOfTurn, open_journal, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.rules import Dice, FarkleError, load_rules

V1_JOURNAL = Path(__file__).with_name("journal_v1.jsonl")
"""A journal written by scorekeeper before version 2 (three players, hot dice, a Farkle, an undo and
a redo, a correction, points entered, a rebuilt game, and a turn on the table)."""
V1_READ = Path(__file__).with_name("journal_v1_read.json")
"""What that scorekeeper's reader made of :data:`V1_JOURNAL`."""

ANN, BOB, CY = ({"seat": 0, "name": "Ann"}, {"seat": 1, "name": "Bob"}, {"seat": 2, "name": "Cy"})


def lines_of(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def new_game(path: Path, players: tuple[str, ...] = ("Ann", "Bob")) -> tuple[Game, Journal]:
    journal = Journal.create(path)
    return Game.new(load_rules("retail"), players, started_at="2026-12-06T20:00:00+00:00", sink=journal.write), journal


def test_each_step_names_the_player_whose_turn_it_was_also_after_a_resume(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = new_game(path, ("Ann", "Bob", "Cy"))
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    game.undo()
    game.redo()
    game.roll("2 3 4 6 6 2")
    game.farkle()
    journal.close()
    recovered = open_journal(path)
    assert recovered.damage is None
    recovered.game.roll("5 5 2 3 4 6")
    recovered.game.keep("5")
    recovered.journal.close()

    lines = lines_of(path)
    assert lines[0] == {"format": "scorekeeper-journal", "version": 2}
    assert [(line["type"], line.get("by")) for line in lines[1:]] == [
        ("started", None),
        ("player", None),
        ("player", ANN),
        ("player", ANN),
        ("rolled", ANN),
        ("kept", ANN),
        ("banked", ANN),
        ("undo", BOB),
        ("redo", ANN),
        ("rolled", BOB),
        ("farkled", BOB),
        ("rolled", CY),
        ("kept", CY),
    ]


def hot_dice_then_bank(path: Path) -> list[str]:
    """Ann rolls hot dice, keeps all six and banks; Bob rolls and keeps a 1: the journal's lines."""
    game, journal = new_game(path)
    game.roll("1 1 1 5 5 5")
    game.keep("1 1 1 5 5 5")
    game.bank()
    game.roll("1 2 3 4 6 6")
    game.keep("1")
    journal.close()
    lines = path.read_text().splitlines(keepends=True)
    assert [json.loads(line).get("type") for line in lines[4:]] == ["rolled", "kept", "banked", "rolled", "kept"]
    return lines


def test_a_bank_lost_after_hot_dice_does_not_put_the_next_players_roll_in_the_same_turn(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = hot_dice_then_bank(path)
    lines[6] = '{"type":"banked","by":{"se\x00\n'
    damaged = "".join(lines)
    path.write_text(damaged)

    recovered = open_journal(path)
    damage = recovered.damage
    assert damage is not None and damage.kept_as is not None
    assert (damage.line, damage.skipped, damage.kept_after, damage.stopped_at, damage.left_out) == (7, (7,), 0, 8, 2)
    assert (
        "the 2 lines from line 8 on are not kept, as the game refuses line 8 once the lines before it are left out "
        "(the step names Bob (seat 2) as the player who took it, but it is the turn of Ann (seat 1): a step before it is missing)"
    ) in str(damage)
    state = recovered.game.state
    assert state.current is not None and state.current.name == "Ann", "the roll is not Ann's"
    assert state.turn is not None and (state.turn.total, state.turn.dice_left, state.turn.roll) == (2500, 6, None)
    assert [player.score for player in state.players] == [0, 0], "the lost bank is not made up"
    assert isinstance(recovered.game.events[-1], Kept)
    assert path.read_text() == "".join(lines[:6])
    assert damage.kept_as.read_text() == damaged

    recovered.game.bank()
    recovered.journal.close()
    assert read_journal(path).game().state.players[0].score == 2500
    assert lines_of(path)[-1] == {"type": "banked", "by": ANN}


def test_a_bank_missing_after_hot_dice_is_named_where_the_next_players_roll_comes(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = hot_dice_then_bank(path)
    path.write_text("".join([*lines[:6], *lines[7:]]))
    contents = read_journal(path)
    assert contents.damage is not None
    assert str(contents.damage) == (
        f"{path}: the journal breaks at line 7 (the step names Bob (seat 2) as the player who took it, but it is the "
        "turn of Ann (seat 1): a step before it is missing); the 5 events before it are recovered"
    )
    assert contents.events[-1] == Kept(Dice.from_str("1 1 1 5 5 5"))


@pytest.mark.parametrize(
    "by, told",
    [
        (None, "the step names no player, but it is the turn of Ann (seat 1)"),
        (
            {"seat": 1, "name": "Ann"},
            "the step names Ann (seat 2) as the player who took it, but it is the turn of Ann (seat 1): a step before it is missing",
        ),
        (
            {"seat": 0, "name": "Anne"},
            "the step names Anne (seat 1) as the player who took it, but it is the turn of Ann (seat 1): a step before it is missing",
        ),
        ({"seat": -1, "name": "Ann"}, "the player who took the step, {'seat': -1, 'name': 'Ann'}, is not a seat (0 or more) and a name"),
        ("Ann", "the player who took the step, 'Ann', is not a seat (0 or more) and a name"),
    ],
)
def test_a_step_that_does_not_name_the_player_whose_turn_it_is_is_refused_where_it_is(
    tmp_path: Path, by: object, told: str
) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = new_game(path)
    game.roll("1 1 5 2 3 4")
    journal.close()
    keep: dict[str, object] = {"type": "kept", "dice": [1, 1, 5]}
    if by is not None:
        keep["by"] = by
    with path.open("a") as stream:
        stream.write(json.dumps(keep) + "\n")
    contents = read_journal(path)
    assert contents.damage is not None and contents.damage.line == 6
    assert contents.damage.reason == told
    assert isinstance(contents.events[-1], DiceRolled)


def test_a_step_naming_a_player_when_it_is_nobodys_turn_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, journal = new_game(path, ())
    journal.close()
    with path.open("a") as stream:
        stream.write(json.dumps({"type": "player", "name": "Ann", "by": ANN}) + "\n")
    contents = read_journal(path)
    assert contents.damage is not None and contents.damage.line == 3
    assert contents.damage.reason == "the step names Ann (seat 1) as the player who took it, but it is nobody's turn"


def test_the_error_of_a_step_out_of_turn_is_the_journals() -> None:
    assert issubclass(StepOutOfTurn, JournalError)


def test_a_version_1_journal_reads_as_it_always_has(tmp_path: Path) -> None:
    before = json.loads(V1_READ.read_text())
    contents = read_journal(V1_JOURNAL)
    assert contents.version == 1
    assert (contents.damage, contents.shelved, contents.good_bytes) == (None, False, V1_JOURNAL.stat().st_size)
    assert [event_to_dict(event) for event in contents.events] == before["events"]
    state = contents.game().state
    assert [(player.name, player.score) for player in state.players] == [("Ann", 3150), ("Bob", 300), ("Cy", 300)]
    assert [[player.name, player.score] for player in state.players] == before["scores"]
    assert state.current is not None and state.current.name == "Cy" == before["to_play"]
    assert state.turn is not None and state.turn.total == 100 == before["turn_total"]


def test_a_version_1_journal_goes_on_as_version_1(tmp_path: Path) -> None:
    path = tmp_path / "old.jsonl"
    shutil.copyfile(V1_JOURNAL, path)
    recovered = open_journal(path)
    assert recovered.damage is None and recovered.journal.version == 1
    recovered.game.bank()
    recovered.game.roll("2 2 3 3 4 6")
    recovered.journal.close()
    assert path.read_text() == V1_JOURNAL.read_text() + '{"type":"banked"}\n{"type":"rolled","dice":[2,2,3,3,4,6],"source":"typed"}\n'
    contents = read_journal(path)
    assert contents.version == 1 and contents.damage is None
    assert contents.game().state.players[2].score == 400


def test_a_journal_of_a_newer_version_is_refused_naming_both_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = new_game(path)
    game.roll("1 1 5 2 3 4")
    journal.close()
    lines = path.read_text().splitlines(keepends=True)
    lines[0] = '{"format":"scorekeeper-journal","version":3,"more":"steps this one cannot read"}\n'
    newer = "".join(lines) + '{"type":"kept","dice":[1,1,5],"by":{"seat":0,"name":"Ann"},"why":"a field version 3 means"}\n'
    path.write_text(newer)
    told = (
        f"{path}: written by a newer scorekeeper (journal version 3; this one reads up to 2): update scorekeeper "
        "to open it; the journal is left as it is"
    )
    for opening in (read_journal, open_journal, Journal.append_to):
        with pytest.raises(JournalError) as refused:
            opening(path)
        assert str(refused.value) == told
    assert path.read_text() == newer
    assert sorted(entry.name for entry in tmp_path.iterdir()) == ["g.jsonl"], "nothing kept aside, nothing half-written"


def test_a_step_the_disk_refuses_leaves_the_journal_naming_the_right_player_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = new_game(path)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    real_fsync = os.fsync
    failures = [OSError(errno.ENOSPC, "No space left on device")]

    def full_once(handle: int) -> None:
        if failures:
            raise failures.pop()
        real_fsync(handle)

    monkeypatch.setattr(os, "fsync", full_once)
    with pytest.raises(JournalError, match="No space left on device"):
        game.bank()
    assert game.state.current is not None and game.state.current.name == "Ann"
    game.bank()
    game.roll("2 3 4 6 6 2")
    journal.close()
    assert [(line["type"], line.get("by")) for line in lines_of(path)[6:]] == [("banked", ANN), ("rolled", BOB)]


def test_a_step_the_journals_game_refuses_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = new_game(path)
    before = path.read_text()
    with pytest.raises(FarkleError, match="bank"):
        journal.write(Banked())
    journal.close()
    assert path.read_text() == before and game.state.players[0].score == 0


def test_a_rebuilt_game_is_followed_by_steps_naming_its_players(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, journal = new_game(path)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    fixed = Game.from_events(game.events[:-1])
    fixed.enter_points(50, "a 5 missed")
    fixed.bank()
    fixed.roll("1 5 2 3 4 6")
    journal.rebuilt(fixed.events)
    game = Game.from_events(fixed.events, sink=journal.write)
    game.keep("1 5")
    journal.close()
    assert lines_of(path)[-1] == {"type": "kept", "dice": [1, 5], "by": BOB}
    contents = read_journal(path)
    assert contents.damage is None and contents.game().state.players[0].score == 300
