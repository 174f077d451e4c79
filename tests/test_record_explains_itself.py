"""The record explains itself (issue 61 item 6): a pot taken over is named in the history, every
export and on the phone page, and the Farkle penalty is said before F (on the Farkle banner and in
the coach's hint) and named in the record after it.

The penalty is the variant three-farkle-penalty, from farkle-rules-and-scoring.txt: "Three Farkles
in a row costs you 1,000 points."
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from pytestqt.qtbot import QtBot
from PySide6.QtCore import Qt

from scorekeeper.coach.advice import advise_state
from scorekeeper.coach.policy import Policy
from scorekeeper.export import csv_text, export_pdf, html_text, score_sheet
from scorekeeper.game import Game
from scorekeeper.rules import load_rules
from scorekeeper.scoreboard.banner import farkle_banner_text
from scorekeeper.serve.board import board_of
from scorekeeper.serve.page import board_html
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.history import HistoryModel
from scorekeeper.ui.turn_panel import TurnPanel, turn_notes
from tests.pdf_pages import read_pdf

EXPORTED = "2026-01-01T21:00:00+00:00"
RULES = ("retail", ["piggyback", "three-farkle-penalty"])
"""Piggyback, and 1,000 off for three Farkles in a row."""
TOOK_OVER = "banked, took over Ann's 2,500"
"""How Bob's turn on Ann's pot ends, on its line of the record."""
PENALTY = "Farkle, 1,000 penalty (third Farkle in a row)"
"""How Bob's third Farkle in a row ends, on its line of the record."""


def ann_banks_2500_leaving_3(game: Game) -> None:
    game.roll("1 1 1 2 3 4"); game.keep("1 1 1")  # 1,000, 3 dice left
    game.roll("1 1 1"); game.keep("1 1 1")  # 2,000, hot dice
    game.roll("5 5 5 2 3 4"); game.keep("5 5 5")  # 2,500, 3 dice left
    game.bank()


def piggybacked(game: Game) -> None:
    """The issue's game: Bob piggybacks Ann's 2,500 and banks 50 more."""
    ann_banks_2500_leaving_3(game)
    game.piggyback()
    game.roll("2 3 5"); game.keep("5"); game.bank()


def up_to_bobs_third_farkle(game: Game) -> None:
    """Then Ann and Bob Farkle on six fresh dice, until Bob's third Farkle in a row is on the table."""
    piggybacked(game)
    for _ in range(2):
        game.roll("2 2 3 4 6 6"); game.farkle()  # Ann
        game.roll("2 2 3 4 6 6"); game.farkle()  # Bob
    game.roll("2 2 3 4 6 6"); game.farkle()  # Ann
    game.roll("2 2 3 4 6 6")  # Bob's third in a row, not yet declared


def history_row(model: HistoryModel, row: int) -> list[str]:
    return [model.data(model.index(row, column)) for column in range(model.columnCount())]


def test_the_pot_taken_over_is_named_in_the_history_and_every_export(qtbot: QtBot, tmp_path: Path) -> None:
    # issue 61: "the history, CSV, HTML and PDF show `2 3 5 | 5 (50) | banked | 2,550`, with no word of the 2,500 taken over"
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules(*RULES), ["Ann", "Bob"])
    assert controller.game is not None
    piggybacked(controller.game)
    controller.changed.emit()
    model = HistoryModel(controller)
    assert history_row(model, 1) == ["2", "Bob", "2 3 5", "5 (50)", TOOK_OVER, "2,550", "2,550"]
    assert history_row(model, 0)[4] == "banked"

    events = controller.game.events
    rows = list(csv.reader(io.StringIO(csv_text(score_sheet(events, EXPORTED)))))
    bob = next(row for row in rows if row[:2] == ["2", "Bob"])
    assert (bob[3], bob[4], bob[6], bob[7]) == ("2 3 5", "5 (50)", TOOK_OVER, "2550")

    page = html_text(score_sheet(events, EXPORTED))
    assert "<td>5 (50)</td><td class=\"wraps\">banked, took over Ann&#x27;s 2,500</td>" in page

    export_pdf(events, tmp_path / "s.pdf", EXPORTED)
    _, lines = read_pdf(tmp_path / "s.pdf")
    assert "took over Ann's 2,500" in " ".join(lines)


def test_the_phone_page_names_whose_pot_was_taken_over() -> None:
    game = Game.new(load_rules(*RULES), ["Ann", "Bob"])
    piggybacked(game)
    board = board_of(game.events)
    assert board.last_turn == "Bob banks 2,550 (2,500 of it piggybacked from Ann): now 2,550."
    assert "2,500 of it piggybacked from Ann" in board_html(board)


def test_a_pot_lost_on_a_farkle_says_whose_it_was() -> None:
    game = Game.new(load_rules(*RULES), ["Ann", "Bob"])
    ann_banks_2500_leaving_3(game)
    game.piggyback()
    game.roll("2 3 4"); game.farkle()
    assert score_sheet(game.events, EXPORTED).turns[1].outcome == "Farkle, took over Ann's 2,500 (lost)"
    assert board_of(game.events).last_turn == (
        "FARKLE! Bob's turn ends and the 2,500 points of this turn (2,500 piggybacked from Ann) are lost; "
        "Bob's score stays 0."
    )


def test_the_penalty_is_said_on_the_farkle_banner_and_by_the_coach_before_f() -> None:
    # issue 61: "The Farkle banner and the coach say nothing of the 500-point penalty before F"
    rules = load_rules(*RULES)
    game = Game.new(rules, ["Ann", "Bob"])
    up_to_bobs_third_farkle(game)
    state = game.state
    assert farkle_banner_text(state) == (
        "FARKLE! Nothing in this roll scores. Bob loses 1,000 (third Farkle in a row)."
    )
    advice = advise_state(Policy.solve(rules), state)
    assert advice is not None and advice.farkled
    assert str(advice) == "Farkle: no die scores; the turn's 0 is lost and 1,000 comes off the score (third Farkle in a row)."


def test_a_farkle_that_costs_nothing_says_only_that_nothing_scores() -> None:
    game = Game.new(load_rules(*RULES), ["Ann", "Bob"])
    piggybacked(game)
    game.roll("2 2 3 4 6 6")
    assert farkle_banner_text(game.state) == "FARKLE! Nothing in this roll scores."
    advice = advise_state(Policy.solve(load_rules(*RULES)), game.state)
    assert advice is not None and str(advice) == "Farkle: no die scores; the turn's 0 is lost."


def test_the_penalty_is_named_in_the_record(qtbot: QtBot, tmp_path: Path) -> None:
    # issue 61: "the history then shows "Farkle (-500)""
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules(*RULES), ["Ann", "Bob"])
    assert controller.game is not None
    up_to_bobs_third_farkle(controller.game)
    controller.game.farkle()
    controller.changed.emit()
    model = HistoryModel(controller)
    last = model.rowCount() - 1
    assert history_row(model, last)[1:] == ["Bob", "2 2 3 4 6 6", "", PENALTY, "-1,000", "1,550"]
    assert history_row(model, last - 2)[4] == "Farkle", "a Farkle that costs nothing says nothing of a penalty"
    rows = list(csv.reader(io.StringIO(csv_text(score_sheet(controller.game.events, EXPORTED)))))
    assert [row[6] for row in rows if row[:2] == [str(last + 1), "Bob"]] == [PENALTY]
    assert PENALTY in html_text(score_sheet(controller.game.events, EXPORTED))


def test_the_turn_panel_shows_the_penalty_on_its_farkle_banner(qtbot: QtBot, tmp_path: Path) -> None:
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules(*RULES), ["Ann", "Bob"])
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    assert controller.game is not None
    up_to_bobs_third_farkle(controller.game)
    controller.changed.emit()
    assert panel.farkle.text() == "FARKLE! Nothing in this roll scores. Bob loses 1,000 (third Farkle in a row)."
    qtbot.keyClick(panel.entry, Qt.Key.Key_F)
    assert controller.game.state.players[1].score == 1550


def test_the_piggyback_offer_and_the_last_lap_read_as_one_line() -> None:
    # issue 61: "…or roll six fresh dice.; LAST LAP: Bob leads with 3,200" (a sentence joined with ".;")
    game = Game.new(load_rules(*RULES), ["Ann", "Bob"], target=2500)
    ann_banks_2500_leaving_3(game)
    notes = turn_notes(game.state)
    assert notes == "Bob may piggyback on Ann's 2,500 with the 3 dice left, or roll six fresh dice; LAST LAP: Ann leads with 2,500"
    assert ".;" not in notes


def test_the_pot_taken_on_and_the_entry_shortfall_start_the_line_with_a_capital() -> None:
    # issue 61, seen under Xvfb: "the 2,500 piggybacked is banked once you score; ..." under Bob's headline
    game = Game.new(load_rules(*RULES), ["Ann", "Bob"], target=5000)
    ann_banks_2500_leaving_3(game)
    game.piggyback()
    assert turn_notes(game.state) == "The 2,500 piggybacked is banked once you score; a Farkle loses it all"
    entry = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    entry.roll("1 2 3 4 6 6"); entry.keep("1")
    assert turn_notes(entry.state) == "Needs 900 more this turn to get on the board (1,000)"
