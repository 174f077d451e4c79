"""The score sheet with its evidence: each roll's picture beside its line in the PDF and HTML, its
file named in the CSV, left out on request, and a missing or damaged picture said, never fatal."""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import re
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.export import csv_text, export_csv, export_html, html_text, score_sheet
from scorekeeper.export.writers import TURN_COLUMNS
from scorekeeper.game import DiceRolled
from scorekeeper.game.photos import PhotoStatus, photo_file, photos_folder
from scorekeeper.rules import Dice
from scorekeeper.table_session import TableSession
from scorekeeper.table_session.roll_pictures import write_photo
from tests.camera_rolls import JournalPlay, camera_turn, load_scene
from tests.pdf_pages import A4_POINTS, read_pdf

EXPORTED = "2026-01-01T21:00:00+00:00"


@pytest.fixture
def played(tmp_path: Path) -> JournalPlay:
    """Two camera turns and a typed one, written to a journal with the rolls' pictures."""
    frame, found = load_scene()
    play = JournalPlay(tmp_path / "home")
    session = TableSession(play, tmp_path / "corrections")
    camera_turn(play, session, frame, found)
    camera_turn(play, session, frame[:, ::-1].copy(), found)
    assert play.game is not None
    play.game.roll("2 2 3 3 4 6")
    play.game.farkle()
    assert len(play.lines_naming) == 2
    return play


def journal_of(play: JournalPlay) -> Path:
    assert play.journal is not None
    return play.journal.path


def csv_turns(text: str) -> list[dict[str, str]]:
    rows = list(csv.reader(io.StringIO(text)))
    start = next(i for i, row in enumerate(rows) if row[:1] == ["turn"])
    end = rows.index([], start)
    return [dict(zip(rows[start], row)) for row in rows[start + 1 : end]]


def test_the_csv_names_each_rolls_picture_and_says_when_one_is_missing_or_damaged(played: JournalPlay) -> None:
    assert played.game is not None
    journal = journal_of(played)
    (first, _), (second, _) = played.lines_naming
    turns = csv_turns(csv_text(score_sheet(played.game.events, EXPORTED, journal)))
    assert [t["pictures"] for t in turns] == [str(photo_file(journal, first)), str(photo_file(journal, second)), "-"]
    photo_file(journal, first).unlink()
    photo_file(journal, second).write_bytes(b"overwritten")
    turns = csv_turns(csv_text(score_sheet(played.game.events, EXPORTED, journal)))
    assert turns[0]["pictures"] == f"picture missing ({first}.jpg)"
    assert turns[1]["pictures"] == f"picture damaged ({second}.jpg)"
    assert "pictures" not in csv_turns(csv_text(score_sheet(played.game.events, EXPORTED)))[0], "no journal, no pictures"
    text = csv_text(score_sheet(played.game.events, EXPORTED, journal))
    header = next(row for row in csv.reader(io.StringIO(text)) if row[:1] == ["turn"])
    assert header[len(TURN_COLUMNS)] == "pictures" and header[-2:] == ["total Ann", "total Bob"], "the totals stay the last columns"


EMBEDDED = re.compile(r'<img class="roll" tabindex="0" src="data:image/jpeg;base64,([A-Za-z0-9+/=]+)" width="\d+"')


def test_the_html_is_one_file_with_the_pictures_inside_that_outlives_the_game(played: JournalPlay, tmp_path: Path) -> None:
    from scorekeeper.game.photos import delete_game

    assert played.game is not None
    journal = journal_of(played)
    export_html(played.game.events, tmp_path / "s.html", EXPORTED, journal=journal)
    page = (tmp_path / "s.html").read_text()
    assert "file:" not in page and str(photos_folder(journal)) not in page
    kept = [photo_file(journal, name).read_bytes() for name, _ in played.lines_naming]
    assert [base64.b64decode(data) for data in EMBEDDED.findall(page)] == kept, "each roll's picture, as the game kept it"
    assert "<th>Pictures</th>" in page
    assert played.journal is not None
    played.journal.close()
    delete_game(journal)
    assert not photos_folder(journal).exists() and not journal.exists()
    page = (tmp_path / "s.html").read_text()
    assert [hashlib.sha256(base64.b64decode(data)).hexdigest() for data in EMBEDDED.findall(page)] == [name for name, _ in played.lines_naming]
    assert "picture missing" in html_text(score_sheet(played.game.events, EXPORTED, journal)), "a new export says the pictures are gone"


def test_a_picture_that_is_no_jpeg_or_goes_missing_is_said_in_the_html(played: JournalPlay) -> None:
    assert played.game is not None
    journal = journal_of(played)
    (first, _), (second, _) = played.lines_naming
    sheet = score_sheet(played.game.events, EXPORTED, journal)
    photo_file(journal, first).unlink()
    page = html_text(sheet)
    assert "<img" in page and "roll 1: picture missing" in page, "a picture gone between the check and the page is said missing"
    play = JournalPlay(journal.parent / "other")
    assert play.game is not None and play.journal is not None
    name = write_photo(play.journal.path, b"these bytes hash to their name but are no JPEG")
    play.game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", name))
    play.game.keep("1")
    play.game.bank()
    page = html_text(score_sheet(play.game.events, EXPORTED, play.journal.path))
    assert "<img" not in page and "roll 1: picture damaged" in page


def test_export_says_the_html_is_one_file_with_the_pictures_inside(played: JournalPlay, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(journal_of(played)), "-o", str(tmp_path / "s.html")]) == 0
    said = capsys.readouterr().out
    size = (tmp_path / "s.html").stat().st_size
    assert "self-contained" in said and "pictures inside" in said and f"{round(size / 1000)} KB" in said, said
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    help_text = " ".join(capsys.readouterr().out.split()).replace("- ", "-")
    assert "HTML: one self-contained HTML file, the pictures inside" in help_text


def test_the_pdf_prints_each_rolls_picture_beside_its_line(played: JournalPlay, tmp_path: Path) -> None:
    from scorekeeper.export import export_pdf

    assert played.game is not None
    export_pdf(played.game.events, tmp_path / "s.pdf", EXPORTED, journal=journal_of(played))
    sizes, lines = read_pdf(tmp_path / "s.pdf")
    assert sizes[0] == pytest.approx(A4_POINTS[::-1], abs=1), "a sheet with pictures is printed in landscape"
    assert any("Pictures" in line for line in lines)
    assert (tmp_path / "s.pdf").read_bytes().count(b"/Subtype /Image") == 2
    export_pdf(played.game.events, tmp_path / "plain.pdf", EXPORTED)
    sizes, _ = read_pdf(tmp_path / "plain.pdf")
    assert sizes[0] == pytest.approx(A4_POINTS, abs=1) and b"/Subtype /Image" not in (tmp_path / "plain.pdf").read_bytes()


def test_the_pdf_links_no_picture_to_a_file_on_this_computer(played: JournalPlay, tmp_path: Path) -> None:
    # issue 61: "the PDF links each picture to a `file://` path" (it should not): the pictures are in the PDF
    from scorekeeper.export import export_pdf

    assert played.game is not None
    printed = html_text(score_sheet(played.game.events, EXPORTED, journal_of(played)), embed=False)
    assert printed.count("<img ") == 2
    assert "file:" not in printed and "<a " not in printed and str(journal_of(played).parent) not in printed
    export_pdf(played.game.events, tmp_path / "s.pdf", EXPORTED, journal=journal_of(played))
    data = (tmp_path / "s.pdf").read_bytes()
    assert data.count(b"/Subtype /Image") == 2, "each picture is still printed"
    assert b"file:" not in data and b"/URI" not in data and str(journal_of(played).parent).encode() not in data


def test_a_picture_qt_cannot_read_is_said_damaged_in_the_pdf(tmp_path: Path) -> None:
    from scorekeeper.export import export_pdf

    play = JournalPlay(tmp_path)
    assert play.game is not None
    name = write_photo(journal_of(play), b"these bytes hash to their name but are no JPEG")
    play.game.act(DiceRolled(Dice.from_str("1 2 3 4 6 6"), "camera", name))
    play.game.keep("1")
    play.game.bank()
    export_pdf(play.game.events, tmp_path / "s.pdf", EXPORTED, journal=journal_of(play))
    _, lines = read_pdf(tmp_path / "s.pdf")
    assert "roll 1: picture damaged" in " ".join(lines)
    assert b"/Subtype /Image" not in (tmp_path / "s.pdf").read_bytes()


def test_a_missing_picture_folder_never_stops_an_export(played: JournalPlay, tmp_path: Path) -> None:
    from scorekeeper.export import export_pdf

    assert played.game is not None
    journal = journal_of(played)
    for picture in photos_folder(journal).iterdir():
        picture.unlink()
    photos_folder(journal).rmdir()
    export_csv(played.game.events, tmp_path / "s.csv", EXPORTED, journal=journal)
    export_html(played.game.events, tmp_path / "s.html", EXPORTED, journal=journal)
    export_pdf(played.game.events, tmp_path / "s.pdf", EXPORTED, journal=journal)
    assert "picture missing" in (tmp_path / "s.csv").read_text()
    assert "picture missing" in " ".join(read_pdf(tmp_path / "s.pdf")[1])
    sheet = score_sheet(played.game.events, EXPORTED, journal)
    assert [p.status for t in sheet.turns for p in t.photos if p is not None] == [PhotoStatus.MISSING] * 2


def test_export_shows_the_pictures_unless_told_no_photos(played: JournalPlay, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = journal_of(played)
    assert main(["export", str(journal), "-o", str(tmp_path / "with.html")]) == 0
    assert main(["export", str(journal), "--no-photos", "-o", str(tmp_path / "without.html")]) == 0
    assert main(["export", str(journal), "--no-photos", "-o", str(tmp_path / "without.csv")]) == 0
    capsys.readouterr()
    assert (tmp_path / "with.html").read_text().count("<img") == 2
    assert "<img" not in (tmp_path / "without.html").read_text() and "Pictures" not in (tmp_path / "without.html").read_text()
    assert "pictures" not in (tmp_path / "without.csv").read_text()
