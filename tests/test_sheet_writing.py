"""One home for writing a score sheet: :func:`scorekeeper.export.write.write_sheet` picks the writer by
format for the window's Export menu and ``scorekeeper export`` alike, and the Qt PDF writer lives in
export (loaded only for a PDF), not in the UI."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

import scorekeeper.export.write as write
from scorekeeper.cli import main
from scorekeeper.export import ExportError, sheet_bytes
from scorekeeper.game import Event, save_game
from scorekeeper.rules import load_rules
from tests.test_ui_window import window_on

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The formats drawn through the one writer, in order."""
    kinds: list[str] = []
    real = write.sheet_bytes

    def recording(events: Sequence[Event], kind: str, exported_at: str | None = None, journal: Path | None = None) -> bytes:
        kinds.append(kind)
        return real(events, kind, exported_at, journal)

    monkeypatch.setattr(write, "sheet_bytes", recording)
    return kinds


def test_the_window_and_the_command_line_write_every_format_through_one_writer(
    qtbot: QtBot, tmp_path: Path, capsys: pytest.CaptureFixture[str], drawn: list[str]
) -> None:
    window = window_on(qtbot, tmp_path, None)
    window.controller.start(load_rules("retail"), ["Ann", "Bob"])
    window.turn_panel.submit("115234")
    window.turn_panel.submit("115")
    window.turn_panel.command("bank")
    for kind in ("csv", "html", "pdf"):
        assert window.games.export_sheet(tmp_path / f"window.{kind}", kind)
    assert window.controller.game is not None
    saved = tmp_path / "game.json"
    save_game(window.controller.game, saved)
    window.close()
    for kind in ("csv", "html", "pdf"):
        assert main(["export", str(saved), "-o", str(tmp_path / f"cli.{kind}")]) == 0
    assert drawn == ["csv", "html", "pdf"] * 2
    capsys.readouterr()
    assert (tmp_path / "window.csv").read_text().count("Ann") == (tmp_path / "cli.csv").read_text().count("Ann") > 0


def test_a_format_there_is_no_writer_for_is_refused_by_name() -> None:
    with pytest.raises(ExportError, match=r"score sheet format 'odt': the formats are csv, html, pdf"):
        sheet_bytes([], "odt")


def test_the_pdf_writer_lives_in_export_not_in_the_ui() -> None:
    assert (PACKAGE / "export" / "pdf.py").is_file()
    assert not (PACKAGE / "ui" / "pdf_export.py").exists()
    choosers = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if 'kind == "pdf"' in path.read_text(encoding="utf-8") or '"pdf": export_pdf' in path.read_text(encoding="utf-8")
    )
    assert choosers == ["export/write.py"]
