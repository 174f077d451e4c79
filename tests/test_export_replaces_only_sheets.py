"""Issue 61 item 5: a score sheet replaces only an older score sheet this program wrote, never
another file (notes, zeros, an empty file), and is never written through a symbolic link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.export import ExportError, export_csv
from tests.test_export import finished_game
from tests.test_export_targets import journal  # noqa: F401 - the fixture, shared

FORMATS = ("csv", "html", "pdf")
STARTS = {"csv": b"scorekeeper score sheet\r\n", "html": b"<!DOCTYPE html>", "pdf": b"%PDF-"}
NOT_SHEETS = {
    "notes": (b"a line of notes\n", "it begins 'a line of notes'"),
    "zeros": (bytes(5_000_000), "it does not begin as text"),
    "empty": (b"", "it is empty"),
    "a sheet's first line alone": (b"scorekeeper score sheet", "it begins 'scorekeeper score sheet'"),
    "another program's PDF": (b"%PDF-1.4\n1 0 obj\n<< /Creator (LibreOffice) >>\n", "it begins '%PDF-1.4'"),
}


@pytest.mark.parametrize("kind", FORMATS)
@pytest.mark.parametrize("victim", NOT_SHEETS)
def test_export_never_replaces_a_file_that_is_not_a_score_sheet(
    journal: Path, kind: str, victim: str, capsys: pytest.CaptureFixture[str]
) -> None:
    content, beginning = NOT_SHEETS[victim]
    target = journal.parent / f"notes.{kind}"
    target.write_bytes(content)
    assert main(["export", str(journal), "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"scorekeeper export: {target}: not a score sheet this program wrote ({beginning})")
    assert "choose another file name for the sheet, or delete this file first" in err and "Traceback" not in err
    assert target.read_bytes() == content
    assert sorted(os.listdir(journal.parent)) == ["game.jsonl", target.name], "nothing else was written"


@pytest.mark.parametrize("kind", FORMATS)
def test_export_is_never_written_through_a_symbolic_link(journal: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = journal.parent
    sheet = folder / f"real.{kind}"
    assert main(["export", str(journal), "-o", str(sheet)]) == 0
    before = sheet.read_bytes()
    (folder / "elsewhere").mkdir()
    links = {folder / f"to-a-sheet.{kind}": sheet, folder / f"to-nothing.{kind}": folder / "elsewhere" / f"sheet.{kind}"}
    for link, pointed in links.items():
        link.symlink_to(pointed)
    capsys.readouterr()
    for link, pointed in links.items():
        assert main(["export", str(journal), "-o", str(link)]) == 2
        err = capsys.readouterr().err
        dangling = "" if pointed.exists() else ", which does not exist"
        assert err.startswith(f"scorekeeper export: {link}: a symbolic link (to {str(pointed)!r}{dangling}), ")
        assert "never written through a link; choose another file name for the sheet, or delete the link first" in err
        assert link.is_symlink() and os.readlink(link) == str(pointed)
    assert sheet.read_bytes() == before and os.listdir(folder / "elsewhere") == []


@pytest.mark.parametrize("old", FORMATS)
@pytest.mark.parametrize("new", FORMATS)
def test_a_score_sheet_of_any_format_is_replaced_by_a_new_one(journal: Path, old: str, new: str) -> None:
    target = journal.parent / "sheet.out"
    assert main(["export", str(journal), "--format", old, "-o", str(target)]) == 0
    assert target.read_bytes().startswith(STARTS[old])
    assert main(["export", str(journal), "--format", new, "-o", str(target)]) == 0
    assert target.read_bytes().startswith(STARTS[new])


def test_the_window_and_the_writers_refuse_the_same_files(tmp_path: Path) -> None:
    target = tmp_path / "notes.csv"
    target.write_text("a line of notes\n")
    with pytest.raises(ExportError, match="notes.csv: not a score sheet this program wrote"):
        export_csv(finished_game().events, target)
    assert target.read_text() == "a line of notes\n"


def test_watch_refuses_a_sheet_file_that_is_not_a_sheet_before_the_game_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "notes.csv"
    target.write_text("a line of notes\n")
    code = main(["watch", "demo", "--unpaced", "--game", "--players", "Ann,Bob", "--sheet", str(target), "--max-frames", "5"])
    captured = capsys.readouterr()
    assert code == 2 and f"{target}: not a score sheet this program wrote" in captured.err
    assert "Ann" not in captured.out, "no game was played"
    assert target.read_text() == "a line of notes\n"
