"""The printed score sheet's pages (issue 50 item 13): a turn's row and its pictures stay on one page,
the closing sections are never cut, and a turn too tall for a page at full size prints its pictures
side by side. Each roll's picture here is one solid colour of its own, so the rendered pages say
where each picture went."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.export import score_sheet
from scorekeeper.game import DiceRolled
from scorekeeper.rules import Dice
from scorekeeper.table_session.roll_pictures import write_photo
from tests.camera_rolls import JournalPlay

EXPORTED = "2026-01-01T21:00:00+00:00"
NOT_SCORING = "2 3 4 6 6"
"""The dice beside a lone 1 in each roll: only the 1 scores, so each roll keeps one die."""
TURN_ROLLS = (1, 3, 2, 1, 3, 6, 1, 2, 3, 1, 2)
"""How many camera rolls each turn takes: enough turns for several pages, one turn (six rolls)
taller than a page with its pictures one below another."""


def colours(count: int) -> list[tuple[int, int, int]]:
    """``count`` saturated colours far apart, as RGB."""
    hsv = np.array([[[round(k * 180 / count), 255, 230] for k in range(count)]], dtype=np.uint8)
    return [tuple(int(v) for v in rgb) for rgb in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0]]  # type: ignore[misc]


def picture_game(tmp_path: Path, turn_rolls: tuple[int, ...] = TURN_ROLLS) -> tuple[JournalPlay, list[list[tuple[int, int, int]]]]:
    """Ann and Bob play turns of ``turn_rolls`` camera rolls each, each roll a solid colour picture
    (640x480); each turn's colours, in order."""
    play = JournalPlay(tmp_path)
    game = play.game
    assert game is not None and play.journal is not None
    palette = iter(colours(sum(turn_rolls)))
    turns = []
    for rolls in turn_rolls:
        turn = []
        for number in range(rolls):
            colour = next(palette)
            frame = np.zeros((480, 640, 3), np.uint8)
            frame[:] = colour[::-1]
            ok, jpeg = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 95])
            assert ok
            dice = 6 - number % 6
            name = write_photo(play.journal.path, jpeg.tobytes())
            game.act(DiceRolled(Dice.from_str(" ".join(["1", *NOT_SCORING.split()[: dice - 1]])), "camera", name))
            game.keep("1")
            turn.append(colour)
        game.bank()
        turns.append(turn)
    return play, turns


def rendered_pages(path: Path) -> list[tuple[list[str], np.ndarray]]:
    """Each page of the PDF as its text lines and its picture (RGB, one pixel a point)."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QImage
    from PySide6.QtPdf import QPdfDocument

    from scorekeeper.export.pdf import ensure_gui

    ensure_gui()
    document = QPdfDocument()
    assert document.load(str(path)) == QPdfDocument.Error.None_
    pages = []
    for page in range(document.pageCount()):
        size = document.pagePointSize(page).toSize()
        image = document.render(page, QSize(size.width(), size.height())).convertToFormat(QImage.Format.Format_RGB888)
        pixels = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine())
        rgb = pixels[:, : image.width() * 3].reshape(image.height(), image.width(), 3).copy()
        lines = [line.strip() for line in document.getAllText(page).text().replace("\xa0", " ").splitlines()]
        pages.append((lines, rgb))
    document.close()
    return pages


def colour_area(rgb: np.ndarray, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``rgb`` are ``colour`` (give or take what JPEG and smoothing change)."""
    return int((np.abs(rgb.astype(int) - np.array(colour)).max(axis=2) <= 12).sum())


def test_a_turns_row_and_its_pictures_stay_on_one_page(tmp_path: Path) -> None:
    from scorekeeper.export import export_pdf

    play, turns = picture_game(tmp_path)
    assert play.game is not None and play.journal is not None
    export_pdf(play.game.events, tmp_path / "s.pdf", EXPORTED, journal=play.journal.path)
    pages = rendered_pages(tmp_path / "s.pdf")
    assert len(pages) > 3, "the game is long enough for several pages"
    for number, turn in enumerate(turns, start=1):
        player = "Ann" if number % 2 else "Bob"
        starts = [i for i, (lines, _) in enumerate(pages) if any(re.match(rf"{number} {player} 1\b", line) for line in lines)]
        assert len(starts) == 1, f"turn {number}'s row starts on pages {starts}"
        for roll, colour in enumerate(turn, start=1):
            areas = [colour_area(rgb, colour) for _, rgb in pages]
            assert areas[starts[0]] > 2000, f"turn {number} roll {roll}: its picture is not on its row's page ({areas})"
            assert sum(areas) - areas[starts[0]] < 0.01 * areas[starts[0]], f"turn {number} roll {roll}: the picture is cut across pages ({areas})"
    for index, (lines, _) in enumerate(pages):
        for at, line in enumerate(lines[:-1]):
            if line.startswith("# Player Rolls Pictures"):
                assert re.match(r"\d+ (Ann|Bob) 1\b", lines[at + 1]), f"page {index + 1} goes on with a turn cut from the page before: {lines[at + 1]!r}"


@pytest.mark.parametrize("turns", [1, 3, 7, 10])
def test_the_statistics_and_the_rules_are_never_cut_across_pages(tmp_path: Path, turns: int) -> None:
    """(Before pages were planned, one turn cut the statistics, seven and ten the rules.)"""
    from scorekeeper.export import export_pdf

    play, _ = picture_game(tmp_path, TURN_ROLLS[:turns])
    assert play.game is not None and play.journal is not None
    export_pdf(play.game.events, tmp_path / "s.pdf", EXPORTED, journal=play.journal.path)
    sheet = score_sheet(play.game.events, EXPORTED)
    texts = [" ".join(lines) for lines, _ in rendered_pages(tmp_path / "s.pdf")]
    for first, last in (("Statistics Player Turns", sheet.fairness[:40]), ("Rules in force", sheet.rules[-1][-40:])):
        pages = [i for i, text in enumerate(texts) if first in text], [i for i, text in enumerate(texts) if last in text]
        assert pages[0] and pages[0] == pages[1], f"{first!r} begins on pages {pages[0]} and ends on pages {pages[1]}"


@pytest.mark.parametrize("rolls", [4, 6])
def test_a_turn_too_tall_for_a_page_prints_its_pictures_side_by_side(tmp_path: Path, rolls: int) -> None:
    from scorekeeper.export.writers import PageBreaks, html_text

    play = JournalPlay(tmp_path)
    assert play.game is not None and play.journal is not None
    for number in range(rolls):
        ok, jpeg = cv2.imencode(".jpg", np.full((480, 640, 3), 40 * number, np.uint8))
        name = write_photo(play.journal.path, jpeg.tobytes())
        play.game.act(DiceRolled(Dice.from_str(" ".join(["1", *NOT_SCORING.split()[: 5 - number % 6]])), "camera", name))
        play.game.keep("1")
    play.game.bank()
    sheet = score_sheet(play.game.events, EXPORTED, play.journal.path)
    page = html_text(sheet, 240, PageBreaks(pictures_across={0: 2}))
    cell = page[page.index("<img") : page.rindex("<img")]
    assert cell.count("<br>") == (rolls + 1) // 2 - 1, "two pictures to a line"
    assert re.findall(r'width="(\d+)"', cell) == [str((240 - 4) // 2)] * (rolls - 1)
