"""The score race (issue 53, item 1): every player's banked score after every turn, drawn from the
game's steps in force: the model worked out by hand from a played game, redrawn on undo and on a
corrected turn; its SVG (the phone page and the HTML sheet) read back as XML; the PDF's page of it
read back as vectors; the window's panel and table mode driven with pytest-qt."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

from pytestqt.qtbot import QtBot

from scorekeeper.export.write import sheet_bytes
from scorekeeper.game import Game, PointsEntered, Banked
from scorekeeper.game.history_edits import with_turn_replaced
from scorekeeper.rules import load_rules
from scorekeeper.scoreboard.race import SEAT_COLOURS, score_race
from scorekeeper.scoreboard.race_svg import race_svg
from scorekeeper.serve import board_of
from scorekeeper.serve.page import board_html, page_html
from tests.test_ui_keys_and_resume import open_window

SVG = "{http://www.w3.org/2000/svg}"


def played() -> Game:
    """A game of house rules (1,000 to get on the board, one last lap), played to its end.

    Turn 1, Ann: 1 1 5 kept (250), under the entry minimum, rolls on: 2 3 4, Farkle. Ann 0.
    Turn 2, Bob: 5,000 entered, banked. Bob 5,000.
    Turn 3, Ann: 1,500 entered, banked. Ann 1,500.
    Turn 4, Bob: 5,000 entered, banked. Bob 10,000: the last lap begins after turn 4.
    Turn 5, Ann: 2 2 3 3 4 6, Farkle. Ann 1,500; play comes back to Bob: Bob wins.
    """
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.roll("2 3 4")
    game.farkle()
    for points in (5000, 1500, 5000):
        game.enter_points(points)
        game.bank()
    game.roll("2 2 3 3 4 6")
    game.farkle()
    return game


def test_the_race_of_a_played_game_worked_out_by_hand() -> None:
    game = played()
    race = score_race(game.events)
    ann, bob = race.lines
    assert (ann.name, ann.scores, ann.farkles, ann.winner) == ("Ann", (0, 0, 0, 1500, 1500, 1500), (1, 5), False)
    assert (bob.name, bob.scores, bob.farkles, bob.winner) == ("Bob", (0, 0, 5000, 5000, 10000, 10000), (), True)
    assert (race.turns, race.target, race.entry_minimum, race.lap_from, race.last_turn) == (5, 10000, 1000, 4, 5)
    assert race.lowest == 0 and race.highest == 10000
    assert race.score_ticks == (0, 2000, 4000, 6000, 8000, 10000)
    assert race.turn_ticks == (0, 1, 2, 3, 4, 5)
    assert ann.colour != bob.colour


def test_undo_and_a_corrected_turn_redraw_the_race() -> None:
    game = played()
    game.undo()
    game.undo()
    race = score_race(game.events)
    ann, bob = race.lines
    assert race.turns == 4 and ann.scores == (0, 0, 0, 1500, 1500) and ann.farkles == (1,)
    assert race.lap_from == 4 and race.last_turn == 5, "the last lap is on: the chart runs to the turn that ends it"
    assert not bob.winner
    fixed = with_turn_replaced(game.events, 2, [PointsEntered(2000), Banked()])
    ann, bob = score_race(fixed).lines
    assert ann.scores == (0, 0, 0, 2000, 2000) and bob.scores == (0, 0, 5000, 5000, 10000)


def test_before_the_first_turn_the_race_runs_flat_at_0_up_to_the_target() -> None:
    race = score_race(Game.new(load_rules("retail"), ["Ann", "Bob"]).events)
    assert race.turns == 0 and race.lowest == 0 and race.highest == 10000 and race.lap_from is None
    assert [line.scores for line in race.lines] == [(0,), (0,)]


def parsed(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def points(polyline: ET.Element) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in (pair.split(",") for pair in polyline.attrib["points"].split())]


def test_the_svg_parses_and_has_one_polyline_per_player_through_the_scores() -> None:
    race = score_race(played().events)
    root = parsed(race_svg(race, 640, 360, 14))
    lines = root.findall(f"{SVG}polyline")
    assert [line.attrib["data-player"] for line in lines] == ["Ann", "Bob"]
    assert [line.attrib["stroke"] for line in lines] == list(SEAT_COLOURS[:2])
    ann, bob = (points(line) for line in lines)
    assert len(ann) == len(bob) == 6
    xs = [x for x, _ in ann]
    assert xs == [x for x, _ in bob] and all(b > a for a, b in zip(xs, xs[1:]))
    steps = [b - a for a, b in zip(xs, xs[1:])]
    assert max(steps) - min(steps) < 0.2, "the turns are evenly spaced"
    scores = {0: ann[0][1], 1500: ann[3][1], 5000: bob[2][1], 10000: bob[4][1]}
    per_point = (scores[0] - scores[10000]) / 10000
    assert per_point > 0, "higher scores are drawn higher"
    for score, y in scores.items():
        assert abs(scores[0] - score * per_point - y) < 0.2, f"{score} is drawn in proportion"
    rules = [line for line in root.findall(f"{SVG}line") if line.attrib["y1"] == line.attrib["y2"]]
    target = [line for line in rules if abs(float(line.attrib["y1"]) - scores[10000]) < 0.2 and line.attrib["stroke"] != "#cccccc"]
    entry = [line for line in rules if "stroke-dasharray" in line.attrib]
    assert target, "the target is ruled across"
    assert len(entry) == 1 and abs(float(entry[0].attrib["y1"]) - (scores[0] - 1000 * per_point)) < 0.2
    shade = [rect for rect in root.findall(f"{SVG}rect") if rect.attrib["fill"] != "#ffffff"]
    assert len(shade) == 1 and abs(float(shade[0].attrib["x"]) - xs[4]) < 0.2, "the last lap is shaded from turn 4"
    assert abs(float(shade[0].attrib["x"]) + float(shade[0].attrib["width"]) - xs[5]) < 0.2, "...to the end"
    crosses = root.findall(f"{SVG}path[@class='farkle']")
    assert len(crosses) == 2 and all(cross.attrib["stroke"] == SEAT_COLOURS[0] for cross in crosses)
    texts = [text.text for text in root.iter(f"{SVG}text")]
    assert "Bob (winner)" in texts and "target 10,000" in texts and "on the board: 1,000" in texts


def test_the_phone_page_draws_the_race_within_its_security_policy() -> None:
    game = played()
    board = board_of(game.events)
    html = board_html(board)
    section = re.search(r'<section class="race" id="race"><h2>Score race</h2>(<svg.*?</svg>)</section>', html, re.S)
    assert section is not None
    root = parsed(section.group(1))
    assert len(root.findall(f"{SVG}polyline")) == 2
    for element in root.iter():
        assert element.tag not in (SVG + "script", SVG + "style", SVG + "image", SVG + "foreignObject", SVG + "a")
        assert not [name for name in element.attrib if name == "style" or name.startswith("on") or name.endswith("href")]
    assert "<script" not in html and " style=" not in html
    assert html.count("<svg") == 1 and '<script src="board.js" defer></script>' in page_html(board)


def test_a_game_with_no_turn_finished_draws_no_race_on_the_page() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    assert "<svg" not in board_html(board_of(game.events))


def test_the_html_sheet_holds_the_race_as_svg() -> None:
    html = sheet_bytes(played().events, "html").decode("utf-8")
    found = re.search(r"<h2>Score race</h2><p class=\"race\">(<svg.*?</svg>)</p>", html, re.S)
    assert found is not None
    assert [line.attrib["data-player"] for line in parsed(found.group(1)).findall(f"{SVG}polyline")] == ["Ann", "Bob"]
    assert html.index("Score race") < html.index("<h2>Turns</h2>")


def content_streams(pdf: bytes) -> list[bytes]:
    """The pages' drawing instructions, in page order (Qt's writer compresses each)."""
    found = []
    for match in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            data = zlib.decompress(match.group(1))
        except zlib.error:
            continue
        if data.startswith(b"/GSa gs"):
            found.append(data)
    return found


def stroked_in(colour: str, page: bytes) -> bool:
    """Whether ``page`` sets ``colour`` (``#rrggbb``) as the colour lines are stroked in."""
    wanted = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    for found in re.finditer(rb"([\d.]+) ([\d.]+) ([\d.]+) SCN", page):
        if all(abs(float(value) - share) < 0.002 for value, share in zip(found.groups(), wanted)):
            return True
    return False


def page_texts(path: Path) -> list[str]:
    """Each page's text, as a PDF reader sees it."""
    from PySide6.QtPdf import QPdfDocument

    from scorekeeper.export.pdf import ensure_gui

    ensure_gui()
    document = QPdfDocument()
    assert document.load(str(path)) == QPdfDocument.Error.None_
    texts = [document.getAllText(page).text() for page in range(document.pageCount())]
    document.close()
    return texts


def test_the_pdf_draws_the_race_as_vectors_under_the_scores(tmp_path: Path) -> None:
    pdf = sheet_bytes(played().events, "pdf", "2026-12-06T21:00:00+00:00")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    texts = page_texts(path)
    pages = content_streams(pdf)
    assert len(pages) == len(texts) >= 1
    first = texts[0]
    assert first.index("Bob (winner) 10,000") < first.index("Score race") < first.index("Turns"), "under the scores, over the turns"
    assert "target 10,000" in first and "on the board: 1,000" in first and "final lap" in first
    for colour in SEAT_COLOURS[:2]:
        assert stroked_in(colour, pages[0]), f"a line is stroked in {colour}"
    assert len(re.findall(rb" l\n", pages[0])) >= 2 * 5, "each player's line is drawn as line segments"
    assert b" Do\n" not in pages[0], "no picture is placed on the page: the chart is vector"
    assert not any(stroked_in(SEAT_COLOURS[0], page) for page in pages[1:]), "drawn once"


def test_a_long_game_keeps_its_race_whole_on_the_first_page(tmp_path: Path) -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob", "Cy"])
    for _ in range(20):
        for _seat in range(3):
            game.roll("2 2 3 3 4 6")
            game.farkle()
    pdf = sheet_bytes(game.events, "pdf")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(pdf)
    texts = page_texts(path)
    pages = content_streams(pdf)
    assert len(pages) == len(texts) >= 2
    assert "Score race" in texts[0] and "turns" in texts[0].split("Score race")[1]
    assert all("Score race" not in text for text in texts[1:])
    assert all(stroked_in(colour, pages[0]) for colour in SEAT_COLOURS[:3])


def test_the_window_shows_the_race_beside_the_history_and_follows_the_game(qtbot: QtBot, tmp_path: Path) -> None:
    window = open_window(qtbot, tmp_path)
    view = window.race
    assert window.race_dock.isVisible() and window.race_dock.widget() is view
    assert view.race is None
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert view.race is not None and view.race.turns == 0
    controller.act(lambda game: game.roll("1 1 5 2 3 4"))
    controller.act(lambda game: game.keep("1 1 5"))
    assert view.race.turns == 0
    controller.act(lambda game: game.bank())
    assert [line.scores for line in view.race.lines] == [(0, 250), (0, 0)]
    assert view.accessibleDescription() == "Score race after 1 turn, to 10,000: Ann 250, Bob 0."
    drawing = view.drawing()
    assert drawing is not None and len([part for part in drawing.parts if type(part).__name__ == "Trace"]) == 2
    image = view.grab().toImage()
    colour = image.pixelColor
    blue = SEAT_COLOURS[0]
    assert any(colour(x, y).name() == blue for x in range(0, image.width(), 2) for y in range(0, image.height(), 2)), "Ann's line is painted"
    controller.act(lambda game: game.undo())
    assert view.race.turns == 0, "an undo redraws the race"
    controller.act(lambda game: game.bank())
    controller.edit_turn(0, [PointsEntered(400), Banked()])
    assert [line.scores for line in view.race.lines] == [(0, 400), (0, 0)], "a corrected turn redraws the race"
    window.close()


def test_table_mode_shows_the_race_large_once_the_game_is_over(qtbot: QtBot, tmp_path: Path) -> None:
    from tests.test_ui_table_mode import table_mode_on

    window = open_window(qtbot, tmp_path)
    controller = window.controller
    controller.start(load_rules("retail"), ["Ann", "Bob"])
    table_mode_on(qtbot, window)
    race = window.table_view.race
    assert not race.isVisible(), "no race while the game is played"
    for points in (5000, 5000, 5000, 4000):
        controller.take(PointsEntered(points))
        controller.take(Banked())
    assert controller.state is not None and controller.state.over
    qtbot.waitUntil(race.isVisible, timeout=5000)
    screen = window.screen().geometry()
    assert race.width() >= screen.width() / 3 and race.height() >= screen.height() / 4, "drawn large"
    assert race.race is not None and race.race.lap_from == 3 and race.race.lines[0].winner, "Ann reached 10,000 in turn 3 and won"
    window.close()
