"""The terminal game's keys: dice typed after a roll keep those dice, options are picked with a
prefix, a Farkle says that 'f' passes, and numbers are written one way."""

from __future__ import annotations

import io
import re
import sys

import pytest

from scorekeeper.cli import main
from scorekeeper.game.games_folder import default_home, games_folder
from scorekeeper.game.journal import read_journal


def play(capsys: pytest.CaptureFixture[str], stdin: str) -> str:
    sys.stdin = io.StringIO(stdin)
    try:
        assert main(["play", "--players", "Ann,Bob"]) == 0
    finally:
        sys.stdin = sys.__stdin__
    return capsys.readouterr().out


def turn_total(capsys: pytest.CaptureFixture[str], stdin: str) -> int:
    for journal in games_folder(default_home()).glob("*.jsonl"):
        journal.unlink()
    play(capsys, stdin)
    [journal] = games_folder(default_home()).glob("*.jsonl")
    turn = read_journal(journal).game().state.turn
    assert turn is not None
    return turn.total


def test_a_digit_after_a_roll_keeps_that_die_not_an_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert turn_total(capsys, "1 1 5 2 3 4\n1\n") == 100  # the die 1, not option 1 (1 1 5 for 250)
    assert turn_total(capsys, "1 1 5 2 3 4\n115\n") == 250
    assert turn_total(capsys, "1 1 5 2 3 4\no1\n") == 250
    assert turn_total(capsys, "1 1 5 2 3 4\no 2\n") == 200


def test_options_are_shown_with_their_prefix_and_numbers_one_way(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "1 1 1 1 1 1\no9\n")
    assert "o1) 1 1 1 1 1 1 for 3,000" in out
    assert "Not allowed: keep option '9': the options of this roll are o1 to o" in out
    shown = "\n".join(line for line in out.splitlines() if str(default_home()) not in line)
    assert not re.search(r"\b\d{4,}\b", shown)  # every number of 1,000 up has its comma


def test_a_farkle_says_f_passes_and_b_there_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "2 2 3 3 4 6\nb\n")
    assert "2 2 3 3 4 6: FARKLE, nothing scores: 'f' passes the dice" in out
    assert "Not allowed: bank: the roll 2 2 3 3 4 6 scores nothing, so there is no turn to bank: 'f' passes the dice" in out
    assert "keep dice from it first" not in out


def test_help_lists_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    out = play(capsys, "help\n")
    assert "o1, o2, ...   keep that option of the roll on the table" in out
    assert "with a roll on the table: keep these dice" in out
