"""A damaged journal's copy kept aside: where hard links are refused, and when a second recovery
comes within the same second as the first. The damaged bytes are the evidence of what happened:
never lost, never written over."""

from __future__ import annotations

import errno
import os
from datetime import datetime
from pathlib import Path

import pytest

from scorekeeper.game import Game
from scorekeeper.game import journal as journal_module
from scorekeeper.game.journal import Journal, open_journal, read_journal
from scorekeeper.rules import load_rules


def damaged_game(path: Path) -> bytes:
    """A journal of a short game whose last line was cut off mid-write; its bytes."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00", sink=journal.write)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    journal.close()
    with open(path, "ab") as stream:
        stream.write(b'{"type":"rolled","dice":[1,')
    return path.read_bytes()


class FrozenClock(datetime):
    """``datetime`` whose ``now`` is always the same second."""

    @classmethod
    def now(cls, tz: object = None) -> FrozenClock:
        return cls(2026, 12, 5, 21, 30, 0)


def test_where_hard_links_are_refused_the_damaged_journal_is_kept_as_a_whole_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(source: object, target: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(journal_module.os, "link", refused)
    path = tmp_path / "g.jsonl"
    damaged = damaged_game(path)
    recovered = open_journal(path)
    recovered.journal.close()
    damage = recovered.damage
    # the format line, then the start, two players, a roll, a keep and a bank: the cut line is the 8th
    assert damage is not None and damage.path == path and damage.line == 8 and damage.recovered == 6
    assert damage.kept_as is not None and damage.kept_as.read_bytes() == damaged
    assert damage.kept_as.name.startswith("g.damaged-") and damage.kept_as.suffix == ".jsonl"
    assert not os.path.samefile(damage.kept_as, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([path.name, damage.kept_as.name]), "no half-written copy left"
    assert read_journal(path).damage is None and len(read_journal(path).events) == 6


def test_two_recoveries_in_the_same_second_keep_both_damaged_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(journal_module, "datetime", FrozenClock)
    path = tmp_path / "g.jsonl"
    first = damaged_game(path)
    kept_first = open_journal(path)
    kept_first.journal.close()
    with open(path, "ab") as stream:
        stream.write(b'{"type":"banked"')
    second = path.read_bytes()
    kept_second = open_journal(path)
    kept_second.journal.close()
    assert kept_first.damage is not None and kept_second.damage is not None
    one, two = kept_first.damage.kept_as, kept_second.damage.kept_as
    assert one is not None and two is not None
    assert one.name == "g.damaged-20261205-213000.jsonl"
    assert two.name == "g.damaged-20261205-213000-2.jsonl"
    assert one.read_bytes() == first and two.read_bytes() == second
    assert f"the damaged file is kept as {two}" in str(kept_second.damage)
