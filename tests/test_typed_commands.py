"""One grammar of typed commands: the window's dice line and ``play`` both parse with
:mod:`scorekeeper.game.commands`, so each takes what the other takes (``c35`` and ``c 3 5``, Z to undo)
and refuses a bad line with the same words."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.cli.play import Session
from scorekeeper.game import Game
from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.turn_panel import TurnPanel

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
CORRECTIONS = ["c35", "c 3 5", "C3 5", "c 35", "c3,5"]
"""One correction (the 3 is really a 5) in each way it may be typed."""
ROLL = Dice.from_str("1 1 5 2 3 4")
CORRECTED = Dice.from_str("1 1 5 2 5 4")


def play_session() -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    return Session(Game.new(load_rules("retail", ["entry-500"]), ["Ann", "Bob"]), out, None), out


def window_panel(qtbot: QtBot, tmp_path: Path) -> TurnPanel:
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules("retail", ["entry-500"]), ["Ann", "Bob"])
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    return panel


def type_line(qtbot: QtBot, panel: TurnPanel, text: str) -> None:
    panel.entry.clear()
    qtbot.keyClicks(panel.entry, text)
    qtbot.keyClick(panel.entry, Qt.Key.Key_Return)


@pytest.mark.parametrize("typed", CORRECTIONS)
def test_play_takes_a_correction_typed_either_way(typed: str) -> None:
    session, out = play_session()
    session.step("1 1 5 2 3 4")
    session.step(typed)
    assert session.game.state.turn is not None and session.game.state.turn.roll == CORRECTED, out.getvalue()


@pytest.mark.parametrize("typed", CORRECTIONS)
def test_the_window_takes_a_correction_typed_either_way(qtbot: QtBot, tmp_path: Path, typed: str) -> None:
    panel = window_panel(qtbot, tmp_path)
    type_line(qtbot, panel, "115234")
    type_line(qtbot, panel, typed)
    state = panel.controller.state
    assert state is not None and state.turn is not None and state.turn.roll == CORRECTED, panel.message.text()
    assert panel.entry.text() == ""


def test_play_undoes_with_z_as_the_window_does() -> None:
    session, _ = play_session()
    session.step("1 1 5 2 3 4")
    session.step("z")
    assert session.game.state.turn is not None and session.game.state.turn.roll is None
    session.step("Y")
    assert session.game.state.turn is not None and session.game.state.turn.roll == ROLL


@pytest.mark.parametrize("typed", ["c3", "c 3 5 5", "c"])
def test_a_bad_correction_is_refused_in_the_same_words_in_both(qtbot: QtBot, tmp_path: Path, typed: str) -> None:
    session, out = play_session()
    session.step("1 1 5 2 3 4")
    session.step(typed)
    panel = window_panel(qtbot, tmp_path)
    type_line(qtbot, panel, "115234")
    type_line(qtbot, panel, typed)
    said = out.getvalue().splitlines()[-1]
    assert said.startswith("Not allowed: correction ") and "e.g. c35 or c 3 5" in said
    assert panel.message.text() == said
    assert session.game.state.turn is not None and session.game.state.turn.roll == ROLL


def test_a_word_that_starts_with_c_is_still_an_unknown_command_in_play() -> None:
    session, out = play_session()
    session.step("cheese")
    assert out.getvalue().strip() == "Unknown command 'cheese'; type 'help' for the commands."


def test_the_typed_grammar_has_one_home() -> None:
    homes = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        for name in ("def parse_correction", "def parse_dice", '"123456 ,"', "Key_Z")
        if name in path.read_text(encoding="utf-8")
    }
    assert homes == {"game/commands.py"}


def test_a_roll_typed_short_is_refused_as_a_typo_in_the_same_words_in_both(qtbot: QtBot, tmp_path: Path) -> None:
    session, out = play_session()
    panel = window_panel(qtbot, tmp_path)
    for typed in ("1 5", "1 5 2 3 4 6", "k 1", "2 2 3"):
        session.step(typed)
        type_line(qtbot, panel, typed)
    said = out.getvalue().splitlines()[-1]
    assert said == "Not allowed: roll 2 2 3: 3 dice typed, 5 in play: type all 5, or z to undo the last step if fewer should be in play"
    assert panel.message.text() == said and panel.entry.text() == "2 2 3", "nothing taken, the line left to mend"
    for state in (session.game.state, panel.controller.state):
        assert state is not None and state.turn is not None and state.turn.roll is None and state.turn.dice_left == 5
    assert "Not allowed: roll 1 5: 2 dice typed, 6 in play: type all 6" in out.getvalue()


def test_a_roll_typed_short_where_the_pot_is_offered_points_to_pig() -> None:
    out = io.StringIO()
    session = Session(Game.new(load_rules("retail", ["piggyback"]), ["Ann", "Bob"]), out, None)
    for typed in ("1 5 2 3 4 6", "k 1 5", "b", "2 3"):
        session.step(typed)
    assert out.getvalue().splitlines()[-1] == (
        "Not allowed: roll 2 3: 2 dice typed, 6 in play: type all 6, or 'pig' first to roll only the 4 dice left with the 150 banked"
    )
    session.step("2 3 4 6")
    assert out.getvalue().splitlines()[-1].startswith("Not allowed: roll 2 3 4 6: 4 dice typed, 6 in play: type all 6, or 'pig' first")
    session.step("pig")
    session.step("2 3 4 6")
    assert session.game.state.turn is not None and session.game.state.turn.roll == Dice.from_str("2 3 4 6")
