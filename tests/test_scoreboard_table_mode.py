"""Table mode's board and sizes, without Qt: what the big scoreboard says, and that names and scores
are never under a twelfth of the screen's height, the roll and the turn total large, the camera small."""

from __future__ import annotations

import pytest

from scorekeeper.game import Game
from scorekeeper.rules import load_rules
from scorekeeper.scoreboard.table_mode import table_board, table_layout


def test_the_board_says_whose_turn_the_roll_and_the_turn_total() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob", "Cy"])
    board = table_board(game.state)
    assert board.headline == "Ann's turn" and board.roll == "" and board.roll_note == "roll 6 dice" and board.turn_total == "0"
    game.roll("1 1 5 2 3 4")
    board = table_board(game.state)
    assert board.roll == "1 1 2 3 4 5" and board.roll_note == "keep 1 1 5 for 250", "the dice that score, named"
    game.keep("1 1 5")
    game.roll("5 5 5")
    assert table_board(game.state).roll_note == "keep 5 5 5 for 500"
    game.undo()
    game.roll("3")  # a late die taken as the roll: 1 of the 3 dice left
    board = table_board(game.state)
    assert board.roll == "3" and board.roll_note == "2 of 3 dice not read: tap them in", "no Farkle"
    game.undo()
    game.bank()
    game.roll("2 2 3 3 4 6")
    board = table_board(game.state)
    assert board.headline == "Bob's turn" and board.roll_note == "FARKLE!" and board.turn_total == "0"
    assert [(line.name, line.score, line.current, line.mark) for line in board.lines] == [
        ("Ann", "250", False, ""),
        ("Bob", "0", True, "to play"),
        ("Cy", "0", False, ""),
    ]


def test_the_board_says_the_last_lap_and_the_winner() -> None:
    game = Game.new(load_rules("retail"), ["Ann", "Bob"])
    for _ in range(6):
        game.roll("1 1 1 1 1 1")
        game.keep("1 1 1 1 1 1")
        game.bank()
        if game.state.final_lap or game.state.over:
            break
        game.roll("2 2 3 3 4 6")
        game.farkle()
    assert game.state.final_lap
    assert table_board(game.state).banner.startswith("LAST LAP: Ann reached 10,000")
    game.roll("2 2 3 3 4 6")
    game.farkle()
    board = table_board(game.state)
    assert game.state.over and board.banner == "Ann wins the game!" and board.roll == "" and board.turn_total == ""
    assert [line.winner for line in board.lines] == [True, False]
    assert table_board(None).lines == () and "New game" in table_board(None).headline


@pytest.mark.parametrize("width, height", [(1920, 1080), (1280, 720), (1366, 768), (1280, 1024), (3840, 2160), (800, 800)])
@pytest.mark.parametrize("players", [1, 2, 4, 6, 8, 10, 16])
def test_names_and_scores_are_never_under_a_twelfth_of_the_screen(width: int, height: int, players: int) -> None:
    layout = table_layout(width, height, players, longest=len("Christopher") + 4 + len("10,000"))
    assert layout.name_px >= height / 12
    rows = -(-players // layout.columns)
    assert rows * layout.name_px * 1.2 <= height * 0.9 or rows == 1, "the rows fit the screen's height"
    assert layout.roll_px >= height / 12 and layout.headline_px >= height / 12, "the roll and the turn total are large"
    assert layout.camera[0] <= width / 3 and layout.camera[1] <= height / 3, "the camera view is small"


def test_few_players_get_bigger_type_and_many_share_columns() -> None:
    few, many = table_layout(1920, 1080, 2), table_layout(1920, 1080, 14)
    assert few.name_px > many.name_px and few.columns == 1 and many.columns >= 2
