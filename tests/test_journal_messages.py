"""What the journal says when a file is not what it should be: each message word for word, with
the file and the line a player (or whoever helps them) must look at."""

from __future__ import annotations

import errno
import json
import os
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.game import Game
from scorekeeper.game.journal import Journal, JournalDamage, open_journal, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.game.lock import lock_path
from scorekeeper.rules import load_rules

HEADER = '{"format":"scorekeeper-journal","version":2}\n'


def started(path: Path) -> list[str]:
    """A journal of one game of two players with one roll; its lines as written (header, start, two
    players, roll)."""
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00", sink=journal.write)
    game.roll("1 1 5 2 3 4")
    journal.close()
    return path.read_text().splitlines(keepends=True)


def damage_of(path: Path, lines: list[str] | bytes) -> JournalDamage:
    path.write_bytes(lines if isinstance(lines, bytes) else "".join(lines).encode())
    damage = read_journal(path).damage
    assert damage is not None
    return damage


def test_a_line_that_is_not_json_is_named_by_its_number_and_the_parsers_words(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = started(path)
    damage = damage_of(path, [*lines, "not json\n"])
    assert (damage.line, damage.recovered) == (6, 4)
    assert damage.reason == "not a JSON line: not valid JSON at column 1 (Expecting value)"
    assert str(damage) == (
        f"{path}: the journal breaks at line 6 (not a JSON line: not valid JSON at column 1 (Expecting value)); "
        "the 4 events before it are recovered"
    )


def test_a_line_that_is_not_utf8_is_named_by_its_number_and_column(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = started(path)
    damage = damage_of(path, "".join(lines).encode() + b'{"type": "bad \xff"}\n')
    assert damage.line == 6
    assert damage.reason == "not a JSON line: not UTF-8 text (byte 0xff at column 15); save the file as UTF-8"


def test_a_last_line_cut_off_while_written_says_so(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = started(path)
    damage = damage_of(path, [*lines[:4], lines[4][:-9]])
    assert (damage.line, damage.recovered) == (5, 3)
    assert damage.reason == "the line was cut off while it was being written"


@pytest.mark.parametrize(
    "edit, line, reason",
    [
        (lambda lines: [lines[0], lines[4]], 2, "the first event of a game must be its start"),
        (lambda lines: [lines[0], lines[1], lines[1]], 3, "a second start of a game in the same journal"),
        (
            lambda lines: [*lines, '{"type":"rebuilt","events":"all of them"}\n'],
            6,
            "a rebuilt game without its list of events",
        ),
    ],
    ids=["roll-before-start", "second-start", "rebuilt-without-list"],
)
def test_a_journal_that_breaks_the_order_of_a_game_says_how_and_where(
    tmp_path: Path, edit: Any, line: int, reason: str
) -> None:
    path = tmp_path / "g.jsonl"
    damage = damage_of(path, edit(started(path)))
    assert (damage.line, damage.reason) == (line, reason)


@pytest.mark.parametrize(
    "first_line, message",
    [
        ('{"format":"scorekeeper-game"}\n', "not a scorekeeper journal (line 1 does not name the format)"),
        ("[1, 2]\n", "not a scorekeeper journal (line 1 does not name the format)"),
        ('{"format":"scorekeeper-journal"}\n', "the journal has no format version"),
        ('{"format":"scorekeeper-journal","version":"1"}\n', "the journal has no format version"),
        ('{"format":"scorekeeper-journal","version":true}\n', "the journal has no format version"),
        (
            '{"format":"scorekeeper-journal","version":3}\n',
            "written by a newer scorekeeper (journal version 3; this one reads up to 2): update scorekeeper to open it; "
            "the journal is left as it is",
        ),
        ('{"format":"scorekeeper-journal","version":0}\n', "the journal's format version 0 is none that scorekeeper writes (they start at 1)"),
    ],
)
def test_a_first_line_that_is_not_this_programs_header_is_refused_word_for_word(
    tmp_path: Path, first_line: str, message: str
) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(first_line)
    with pytest.raises(JournalError) as refused:
        read_journal(path)
    assert str(refused.value) == f"{path}: {message}"


def test_a_journal_that_is_not_there_or_is_a_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(JournalError) as missing:
        read_journal(tmp_path / "gone.jsonl")
    assert str(missing.value) == f"{tmp_path / 'gone.jsonl'}: no such journal"
    with pytest.raises(JournalError) as folder:
        read_journal(tmp_path)
    assert str(folder.value) == f"{tmp_path}: is a folder, not a journal"


def test_a_journal_holding_no_game_says_what_it_holds(tmp_path: Path) -> None:
    header_only = tmp_path / "a.jsonl"
    header_only.write_text(HEADER)
    with pytest.raises(JournalError) as refused:
        open_journal(header_only)
    assert str(refused.value) == f"{header_only}: the journal holds no game yet (only its first line); start a new game instead"
    broken = tmp_path / "b.jsonl"
    broken.write_text(HEADER + "{oops\n")
    with pytest.raises(JournalError) as refused:
        open_journal(broken)
    assert str(refused.value) == (
        f"{broken}: no game could be read from the journal: it breaks at line 2 "
        "(not a JSON line: not valid JSON at column 2 (Expecting property name enclosed in double quotes))"
    )


def test_a_recovered_journal_names_itself_and_where_the_damaged_file_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = started(path)
    path.write_text("".join(lines) + "not json\n")
    recovered = open_journal(path)
    recovered.journal.close()
    damage = recovered.damage
    assert damage is not None and damage.path == path and damage.kept_as is not None
    assert str(damage) == (
        f"{path}: the journal breaks at line 6 (not a JSON line: not valid JSON at column 1 (Expecting value)); "
        f"the 4 events before it are recovered; the damaged file is kept as {damage.kept_as}"
    )
    assert recovered.journal.path == path


def test_a_recovery_the_disk_refuses_leaves_the_damaged_journal_and_no_half_made_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.jsonl"
    lines = started(path)
    damaged = "".join(lines) + "not json\n"
    path.write_text(damaged)

    def refuse(*_: object, **__: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system")

    real_open = os.open

    def refuse_new_files(file: str | Path, flags: int, *args: Any) -> int:
        """The disk makes no new file, the game's lock file aside (which a recovery does not write)."""
        if flags & os.O_CREAT and not os.path.exists(file) and Path(file) != lock_path(path):
            refuse()
        return real_open(file, flags, *args)

    monkeypatch.setattr(os, "link", refuse)
    monkeypatch.setattr(os, "open", refuse_new_files)
    with pytest.raises(JournalError) as refused:
        open_journal(path)
    assert str(refused.value) == (
        f"{path}: damaged (not a JSON line: not valid JSON at column 1 (Expecting value)), and cannot be recovered: "
        "[Errno 30] Read-only file system"
    )
    assert path.read_text() == damaged
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl"]


def test_a_journal_is_started_in_folders_that_do_not_exist_yet_readable_and_not_executable(tmp_path: Path) -> None:
    path = tmp_path / "home" / "games" / "g.jsonl"
    old = os.umask(0o022)
    try:
        journal = Journal.create(path)
    finally:
        os.umask(old)
    journal.close()
    assert journal.path == path
    assert path.read_text() == HEADER
    assert path.stat().st_mode & 0o777 == 0o644


def test_a_journal_that_cannot_be_started_or_opened_says_where_and_why(tmp_path: Path) -> None:
    blocker = tmp_path / "games"
    blocker.write_text("a file where the games folder should be")
    with pytest.raises(JournalError) as refused:
        Journal.create(blocker / "g.jsonl")
    assert str(refused.value) == f"{blocker / 'g.jsonl'}: cannot start a journal: {blocker} is a file, not a folder"
    with pytest.raises(JournalError) as refused:
        Journal.create(blocker / "2026" / "g.jsonl")
    assert str(refused.value) == (
        f"{blocker / '2026' / 'g.jsonl'}: cannot start a journal: cannot make its folder (Not a directory)"
    )
    assert blocker.read_text() == "a file where the games folder should be"
    with pytest.raises(JournalError) as refused:
        Journal.append_to(tmp_path / "gone.jsonl")
    assert str(refused.value) == f"{tmp_path / 'gone.jsonl'}: cannot open the journal: No such file or directory"


def test_a_journal_file_the_system_will_not_create_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_open = os.open
    path = tmp_path / "g.jsonl"

    def refuse_the_journal(name: Any, *args: Any) -> int:
        if Path(name) == path:
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(name, *args)

    monkeypatch.setattr(os, "open", refuse_the_journal)
    with pytest.raises(JournalError) as refused:
        Journal.create(path)
    assert str(refused.value) == f"{path}: cannot start a journal: Permission denied"


def test_a_long_last_line_cut_off_while_written_says_so(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    lines = started(path)
    rebuilt = '{"type":"rebuilt","events":[' + ",".join(line.strip() for line in lines[1:]) + "]}\n"
    damage = damage_of(path, [*lines, rebuilt[:-10]])
    assert (damage.line, damage.reason) == (6, "the line was cut off while it was being written")


def test_a_journal_reopened_to_go_on_writes_to_its_own_file(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    started(path)
    journal = Journal.append_to(path)
    assert journal.path == path
    journal.shelve()
    journal.close()
    assert read_journal(path).shelved is True


def test_a_line_the_system_takes_in_pieces_is_written_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_write = os.write

    def a_few_bytes_at_a_time(handle: int, data: bytes) -> int:
        return real_write(handle, bytes(data[:7]))

    path = tmp_path / "g.jsonl"
    monkeypatch.setattr(os, "write", a_few_bytes_at_a_time)
    lines = started(path)
    monkeypatch.undo()
    assert [json.loads(line)["type"] for line in lines[1:]] == ["started", "player", "player", "rolled"]
    assert read_journal(path).damage is None
