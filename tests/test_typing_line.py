"""One typed language: the window's typing line reads every line as ``play`` does (options, the
piggyback choice's words, corrections, keeps, letters), and a line not read whole is refused saying
what was read of it, nothing taken."""

from __future__ import annotations

import io
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from scorekeeper.cli.play import Session
from scorekeeper.game import DiceRolled, DieCorrected, Game
from scorekeeper.game.controller import GameController as PlainController
from scorekeeper.rules import Dice, load_rules
from scorekeeper.ui.controller import GameController
from scorekeeper.ui.turn_panel import TurnPanel
from scorekeeper.ui.typing_line import TypingLine

WILD_ROLL = "1 1 1 1w 5 5"
"""Under the wild die, option 1 keeps the whole roll: four 1s (the wild one with them) and two 5s."""


def typing_line(rules: str, variants: list[str]) -> tuple[TypingLine, list[str]]:
    """The model over a game of Ann and Bob, and what the game refused, in order."""
    controller = PlainController(Path("home"), Game.new(load_rules(rules, variants), ["Ann", "Bob"]))
    refused: list[str] = []
    controller.on_refused.append(refused.append)
    return TypingLine(controller), refused


def offered_pot(line: TypingLine) -> None:
    """Ann banks three 1s with 3 dice left: Bob is offered her 1,000."""
    for typed in ("1 1 1 2 3 4", "k 1 1 1", "b"):
        assert line.enter(typed)


def panel_of(qtbot: QtBot, tmp_path: Path, variants: list[str]) -> TurnPanel:
    controller = GameController(tmp_path / "home")
    assert controller.start(load_rules("retail", variants), ["Ann", "Bob"])
    panel = TurnPanel(controller)
    qtbot.addWidget(panel)
    return panel


def type_line(qtbot: QtBot, panel: TurnPanel, text: str) -> None:
    qtbot.keyClicks(panel.entry, text)
    qtbot.keyClick(panel.entry, Qt.Key.Key_Return)


def test_o1_keeps_the_first_option_as_play_does() -> None:
    line, refused = typing_line("retail", ["wild-die"])
    assert line.enter(WILD_ROLL) and line.enter("o1"), refused
    state = line.controller.state
    assert state is not None and state.turn is not None and state.turn.total == 2500
    session = Session(Game.new(load_rules("retail", ["wild-die"]), ["Ann", "Bob"]), io.StringIO(), None)
    session.step(WILD_ROLL)
    session.step("o1")
    assert session.game.state.turn is not None and session.game.state.turn.total == 2500


def test_pig_and_fresh_answer_the_offer() -> None:
    line, refused = typing_line("retail", ["piggyback"])
    offered_pot(line)
    assert not line.takes_key("", "f"), "F starts 'fresh' while the pot is offered"
    assert line.enter("pig"), refused
    state = line.controller.state
    assert state is not None and state.turn is not None and (state.turn.total, state.turn.dice_left) == (1000, 3)
    line, refused = typing_line("retail", ["piggyback"])
    offered_pot(line)
    assert line.enter("fresh"), refused
    state = line.controller.state
    assert state is not None and state.turn is not None and (state.turn.total, state.turn.dice_left, state.turn.offer) == (0, 6, None)


def test_f_is_still_the_farkle_key_where_no_pot_is_offered() -> None:
    line, _ = typing_line("retail", ["piggyback"])
    assert line.takes_key("", "f") and line.takes_key("115", "b") and not line.takes_key("pigg", "y")


def test_a_line_read_in_part_is_refused_saying_what_was_read_and_nothing_is_taken() -> None:
    line, refused = typing_line("retail", [])
    assert line.enter("1 1 5 2 3 4")
    before = line.controller.events
    for typed, read, left in (("k 1 x", "keep 1", "'x'"), ("115x", "the dice 1 1 5", "'x'"), ("o1 2", "option 1", "'2'"), ("b now", "bank", "'now'")):
        assert not line.enter(typed)
        assert refused[-1] == f"'{typed}': read {read}, then {left} is not understood; nothing was taken"
        assert line.controller.events == before


def test_play_refuses_a_line_read_in_part_in_the_same_words() -> None:
    out = io.StringIO()
    session = Session(Game.new(load_rules("retail"), ["Ann", "Bob"]), out, None)
    session.step("1 1 5 2 3 4")
    before = session.game.events
    session.step("k 1 x")
    session.step("b now")
    assert out.getvalue().splitlines()[-2:] == [
        "Not allowed: 'k 1 x': read keep 1, then 'x' is not understood; nothing was taken",
        "Not allowed: 'b now': read bank, then 'now' is not understood; nothing was taken",
    ]
    assert session.game.events == before


def test_the_window_takes_o1_typed(qtbot: QtBot, tmp_path: Path) -> None:
    panel = panel_of(qtbot, tmp_path, ["wild-die"])
    type_line(qtbot, panel, WILD_ROLL)
    type_line(qtbot, panel, "o1")
    state = panel.controller.state
    assert state is not None and state.turn is not None and state.turn.total == 2500, panel.message.text()
    assert panel.entry.text() == "" and "keeps 1 1 1 1w 5 5 for 2,500" in panel.message.text()


def test_the_window_takes_fresh_and_pig_typed(qtbot: QtBot, tmp_path: Path) -> None:
    for word, dice_left in (("fresh", 6), ("pig", 3)):
        panel = panel_of(qtbot, tmp_path / word, ["piggyback"])
        for typed in ("111234", "111"):
            type_line(qtbot, panel, typed)
        qtbot.keyClick(panel.entry, Qt.Key.Key_B)
        qtbot.keyClicks(panel.entry, word)
        assert panel.entry.text() == word
        qtbot.keyClick(panel.entry, Qt.Key.Key_Return)
        state = panel.controller.state
        assert state is not None and state.turn is not None and state.turn.dice_left == dice_left, panel.message.text()
        assert state.pot_offered() is None and panel.entry.text() == ""


def test_the_window_shows_a_line_read_in_part_and_keeps_it(qtbot: QtBot, tmp_path: Path) -> None:
    panel = panel_of(qtbot, tmp_path, [])
    type_line(qtbot, panel, "115234")
    before = panel.controller.events
    type_line(qtbot, panel, "k 1 x")
    assert panel.message.text() == "Not allowed: 'k 1 x': read keep 1, then 'x' is not understood; nothing was taken"
    assert panel.entry.text() == "k 1 x" and panel.controller.events == before


def test_dice_typed_over_a_camera_roll_with_dice_missing_replace_it_and_say_so() -> None:
    line, refused = typing_line("retail", [])
    told: list[str] = []
    line.controller.on_notice.append(told.append)
    assert line.controller.take(DiceRolled(Dice.from_str("2 3 4 6"), "camera"))
    assert line.controller.take(DieCorrected(None, "3"))  # a missed die tapped in: 5 of 6 now
    assert not line.enter("2 3 5 2 3 4 4"), "seven dice are no roll of six"
    state = line.controller.state
    assert state is not None and state.turn is not None and state.turn.roll == Dice.from_str("2 3 4 6 3")
    assert line.enter("2 3 5 2 3 4"), refused
    state = line.controller.state
    assert state is not None and state.turn is not None and state.turn.roll == Dice.from_str("2 3 5 2 3 4")
    assert state.turn.rolls == (Dice.from_str("2 3 5 2 3 4"),)
    assert told == ["Typed roll 2 2 3 3 4 5 replaces the camera's roll (5 of 6 dice read)."]
    rolls = [event for event in line.controller.events if isinstance(event, DiceRolled)]
    assert [roll.source for roll in rolls] == ["camera", "typed"], "the camera's roll stays in the log, undone"


def test_a_keep_typed_over_a_camera_roll_with_dice_missing_is_still_refused() -> None:
    line, refused = typing_line("retail", [])
    assert line.controller.take(DiceRolled(Dice.from_str("1 3 4 6"), "camera"))
    before = line.controller.events
    assert not line.enter("k 1")
    assert refused and line.controller.events == before


def test_the_window_takes_a_typed_roll_over_a_camera_roll_with_dice_missing(qtbot: QtBot, tmp_path: Path) -> None:
    panel = panel_of(qtbot, tmp_path, [])
    assert panel.controller.take(DiceRolled(Dice.from_str("2 3 4 6"), "camera"))
    type_line(qtbot, panel, "2 3 5")
    assert "Not allowed: keep 2 3 5" in panel.message.text(), "fewer dice than were thrown are no roll of them"
    state = panel.controller.state
    assert state is not None and state.turn is not None and state.turn.roll == Dice.from_str("2 3 4 6")
    panel.entry.clear()
    with qtbot.waitSignal(panel.controller.notice) as told:
        type_line(qtbot, panel, "2 3 5 1 4 6")
    assert told.args == ["Typed roll 1 2 3 4 5 6 replaces the camera's roll (4 of 6 dice read)."]
    assert panel.entry.text() == ""
    state = panel.controller.state
    assert state is not None and state.turn is not None and state.turn.roll == Dice.from_str("2 3 5 1 4 6")


def test_a_whole_roll_typed_over_the_cameras_whole_roll_says_how_to_replace_it() -> None:
    line, refused = typing_line("retail", [])
    assert line.controller.take(DiceRolled(Dice.from_str("1 1 2 2 4 4"), "camera"))
    before = line.controller.events
    assert not line.enter("1 2 2 3 4 6")
    assert refused == [
        "keep '1 2 2 3 4 6' is not in the roll '1 1 2 2 4 4': the camera's roll 1 1 2 2 4 4 is on the table; "
        "to replace it, z takes it back, then type the roll"
    ]
    assert line.controller.events == before
    assert line.enter("z") and line.enter("1 2 2 3 4 6"), refused[1:]


def test_a_short_or_kept_line_over_the_cameras_roll_is_refused_as_a_keep() -> None:
    line, refused = typing_line("retail", [])
    assert line.controller.take(DiceRolled(Dice.from_str("1 2 3 3 4 6"), "camera"))
    assert not line.enter("1 5") and not line.enter("6 4 3 3 2 1")
    assert len(refused) == 2 and not any("to replace it" in said for said in refused), refused


def test_the_window_selects_a_refused_line_so_typing_replaces_it(qtbot: QtBot, tmp_path: Path) -> None:
    panel = panel_of(qtbot, tmp_path, [])
    assert panel.controller.take(DiceRolled(Dice.from_str("1 1 2 2 4 4"), "camera"))
    type_line(qtbot, panel, "1 2 2 3 4 6")
    assert "z takes it back, then type the roll" in panel.message.text()
    assert panel.entry.text() == "1 2 2 3 4 6" and panel.entry.selectedText() == "1 2 2 3 4 6"
    qtbot.keyClicks(panel.entry, "1 1")
    assert panel.entry.text() == "1 1"
