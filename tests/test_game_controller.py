"""The game controller without a window: steps into the journal, refusals and notices told to
plain callbacks, a resumed game, a corrected turn."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.game import Banked, DiceRolled, Game, Kept
from scorekeeper.game.controller import GameController
from scorekeeper.game.journal import read_journal
from scorekeeper.rules import Dice, load_rules


class Heard:
    """What a controller told its listeners, in order."""

    def __init__(self, controller: GameController) -> None:
        self.said: list[str] = []
        controller.on_changed.append(lambda: self.said.append("changed"))
        controller.on_refused.append(lambda why: self.said.append(f"refused: {why}"))
        controller.on_notice.append(lambda text: self.said.append(f"notice: {text}"))


def test_a_game_is_started_with_its_journal_and_each_step_is_on_disk_before_listeners_hear(tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    heard = Heard(controller)
    on_disk: list[int] = []
    controller.on_changed.insert(0, lambda: on_disk.append(len(read_journal(controller.journal.path).events)))  # type: ignore[union-attr]
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    assert heard.said == ["changed", "notice: New game: Ann, Bob. Farkle: the retail chart."]
    assert controller.take(DiceRolled(Dice.from_str("1 5 2 3 4 6")))
    assert controller.take(Kept(Dice.from_str("1 5")))
    assert controller.act(lambda game: game.bank())
    assert heard.said[2:] == ["changed", "changed", "notice: Ann banks 150: now 150.", "changed"]
    events = len(controller.events)
    assert on_disk[-1] == events and len(read_journal(controller.journal.path).events) == events  # type: ignore[union-attr]


def test_a_refused_step_is_told_with_its_reason_and_changes_nothing(tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    heard = Heard(controller)
    assert not controller.act(lambda game: game.bank())
    assert heard.said == ["refused: Start a game first (Game > New game)."]
    controller.start(load_rules("retail"), ["Ann"])
    before, heard.said = controller.events, []
    assert not controller.take(Kept(Dice.from_str("5")))
    assert controller.events == before
    assert len(heard.said) == 1 and heard.said[0].startswith("refused: ") and "roll" in heard.said[0]


def test_a_game_won_is_told_with_its_winner(tmp_path: Path) -> None:
    game = Game.new(load_rules("house-2009"), ["Ann", "Bob"])
    controller = GameController(tmp_path, game)
    heard = Heard(controller)
    assert controller.journal is None, "a game handed over is kept in no journal"
    controller.take(DiceRolled(Dice.from_str("4 4 4 4 4 4")))
    controller.take(Kept(Dice.from_str("4 4 4 4 4 4")))
    notices = [text for text in heard.said if text.startswith("notice")]
    assert notices == ["notice: Six of a kind! Ann wins the game on the spot.", "notice: Game over: Ann wins!"]
    assert controller.act(lambda game: game.undo()) and controller.state is not None and not controller.state.over
    assert controller.act(lambda game: game.redo())
    assert [text for text in heard.said if text.startswith("notice")] == notices * 2, "the win redone is told again"


def test_a_game_resumed_and_a_turn_corrected_go_on_in_the_same_journal(tmp_path: Path) -> None:
    first = GameController(tmp_path)
    first.start(load_rules("retail"), ["Ann", "Bob"])
    first.take(DiceRolled(Dice.from_str("1 5 2 3 4 6")))
    first.take(Kept(Dice.from_str("1 5")))
    first.take(Banked())
    assert first.journal is not None
    path = first.journal.path
    first.close()

    second = GameController(tmp_path)
    heard = Heard(second)
    assert second.resume(path) is None
    assert heard.said == ["changed", f"notice: Resumed the game from {path.name}."]
    assert second.state is not None and second.state.players[0].score == 150
    assert second.edit_turn(0, [DiceRolled(Dice.from_str("1 1 1 2 3 4")), Kept(Dice.from_str("1 1 1")), Banked()])
    assert heard.said[-2:] == ["notice: Turn 1 corrected; every total after it is worked out again.", "changed"]
    assert second.state.players[0].score == 1000
    assert Game.from_events(read_journal(path).events).state.players[0].score == 1000, "the correction is on disk"
