"""Recovery on resume keeps every step after a bad line that still follows the rules: the bad line is
left out (or kept without a picture's name, when that is all that is wrong with it), the rest is
replayed through the rules, and a step the game then refuses ends the recovery there. The damaged
file is kept whole, and the message says what was kept and what was left out."""

from __future__ import annotations

import json
from pathlib import Path

from scorekeeper.game import DiceRolled, Game, event_to_dict
from scorekeeper.game.journal import Journal, open_journal, read_journal
from scorekeeper.rules import Dice, load_rules

PICTURES = [f"{n:064x}" for n in range(1, 6)]


def eighteen_lines(path: Path) -> tuple[list[str], list[dict[str, object]]]:
    """A journal of 18 lines (the format line, the start, two players, 14 steps), camera rolls
    naming their pictures; its lines and the game's log as dicts."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00", sink=journal.write)

    def roll(faces: str, picture: str) -> None:
        game.act(DiceRolled(Dice.from_str(faces), "camera", picture))

    roll("1 1 5 2 3 4", PICTURES[0])
    game.keep("1 1 5")
    game.bank()
    roll("2 3 4 6 6 2", PICTURES[1])
    game.farkle()
    roll("5 5 2 3 4 6", PICTURES[2])
    game.keep("5 5")
    roll("1 2 3 4", PICTURES[3])
    game.keep("1")
    game.bank()
    roll("1 5 2 3 4 6", PICTURES[4])
    game.keep("1 5")
    game.undo()
    game.redo()
    journal.close()
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 18
    return lines, [event_to_dict(event) for event in game.events]


def test_a_roll_naming_a_path_as_its_picture_is_kept_without_it_and_every_line_after_it_too(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines, log = eighteen_lines(path)
    assert json.loads(lines[7])["photo"] == PICTURES[1]
    lines[7] = lines[7].replace(PICTURES[1], "../../etc/passwd")
    damaged = "".join(lines)
    path.write_text(damaged)

    recovered = open_journal(path)
    recovered.journal.close()
    damage = recovered.damage
    assert damage is not None and damage.kept_as is not None
    assert (damage.line, damage.repaired, damage.skipped, damage.kept_after, damage.stopped_at) == (8, (8,), (), 10, 0)
    without_picture = {key: value for key, value in log[6].items() if key != "photo"}
    expected = [*log[:6], without_picture, *log[7:]]
    assert [event_to_dict(event) for event in recovered.game.events] == expected
    assert [event_to_dict(event) for event in read_journal(path).events] == expected
    assert read_journal(path).damage is None
    kept = path.read_text().splitlines(keepends=True)
    assert len(kept) == 18 and kept[:7] == lines[:7] and kept[8:] == lines[8:], "every line but the bad one as it was"
    assert json.loads(kept[7])["by"] == {"seat": 1, "name": "Bob"}, "the repaired line still names who rolled"
    assert damage.kept_as.read_text() == damaged, "the damaged file is kept whole"
    assert str(damage).startswith(f"{path}: the journal breaks at line 8 (event {{'type': 'rolled', ")
    assert str(damage).endswith(
        "field 'photo' must be a picture's SHA-256 (64 hex digits) or absent); "
        "the 6 events before it are recovered; line 8 kept without the name of a picture, which was not a picture's name; "
        f"10 of the lines after line 8 kept, each still following the rules; the damaged file is kept as {damage.kept_as}"
    )


def test_a_stray_line_is_left_out_and_the_game_goes_on_from_every_line_after_it(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines, log = eighteen_lines(path)
    path.write_text("".join([*lines[:9], "#garbage\n", *lines[9:15], '{"type":"rolled"}\n', *lines[15:]]))

    recovered = open_journal(path)
    damage = recovered.damage
    assert damage is not None and damage.kept_as is not None
    assert (damage.line, damage.skipped, damage.kept_after, damage.stopped_at) == (10, (10, 17), 9, 0)
    assert [event_to_dict(event) for event in recovered.game.events] == log
    recovered.game.bank()
    recovered.journal.close()
    assert path.read_text() == "".join(lines) + '{"type":"banked","by":{"seat":1,"name":"Bob"}}\n'
    assert "lines 10 and 17 left out, as no step can be read from them; 9 of the lines after line 10 kept" in str(damage)


def test_steps_the_game_refuses_once_the_bad_line_is_left_out_end_the_recovery_there(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines, log = eighteen_lines(path)
    lines[6] = '{"type":"bank' + "\x00\n"
    damaged = "".join(lines)
    path.write_text(damaged)

    recovered = open_journal(path)
    recovered.journal.close()
    damage = recovered.damage
    assert damage is not None and damage.kept_as is not None
    assert (damage.line, damage.skipped, damage.kept_after, damage.stopped_at, damage.left_out) == (7, (7,), 0, 8, 11)
    assert [event_to_dict(event) for event in recovered.game.events] == log[:5]
    assert path.read_text() == "".join(lines[:6])
    assert damage.kept_as.read_text() == damaged
    assert damage.stopped == (
        "the step names Bob (seat 2) as the player who took it, but it is the turn of Ann (seat 1): a step before it is missing"
    )
    assert "line 7 left out" in str(damage)
    assert "the 11 lines from line 8 on are not kept, as the game refuses line 8 once the lines before it are left out" in str(damage)


def test_a_bad_line_after_which_nothing_follows_the_rules_recovers_as_before(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines, log = eighteen_lines(path)
    path.write_text("".join(lines) + '{"type":"rolled","dice":[1,')
    recovered = open_journal(path)
    recovered.journal.close()
    assert recovered.damage is not None and recovered.damage.skipped == (19,)
    assert [event_to_dict(event) for event in recovered.game.events] == log
    assert path.read_text() == "".join(lines)
