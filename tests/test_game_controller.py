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
    assert heard.said == ["changed", "notice: New game: Ann, Bob. Farkle: the retail chart (retail), played to 10,000."]
    assert controller.take(DiceRolled(Dice.from_str("1 5 2 3 4 6")))
    assert controller.take(Kept(Dice.from_str("1 5")))
    assert controller.act(lambda game: game.bank())
    assert heard.said[2:] == ["changed", "changed", "notice: Ann banks 150: now 150.", "changed"]
    events = len(controller.events)
    assert on_disk[-1] == events and len(read_journal(controller.journal.path).events) == events  # type: ignore[union-attr]


def test_the_new_game_notice_names_the_target_and_what_a_farkle_costs(tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    heard = Heard(controller)
    assert controller.start(load_rules("retail+farkle-penalty-100"), ["Ann", "Bob"], target=3000)
    assert heard.said[-1] == (
        "notice: New game: Ann, Bob. Farkle: the retail chart (retail+farkle-penalty-100), "
        "played to 3,000; each Farkle costs 100."
    )


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


def test_each_step_undo_and_redo_is_confirmed_in_words_a_turn_end_by_its_notice(tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    done: list[str] = []
    notices: list[str] = []
    controller.on_done.append(done.append)
    controller.on_notice.append(notices.append)
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    steps = [
        (lambda game: game.roll("1 5 2 3 4 6"), "Ann rolls 1 2 3 4 5 6."),
        (lambda game: game.keep("1 5"), "Ann keeps 1 5 for 150: 150 this turn, 4 dice to roll."),
        (lambda game: game.undo(), "Undone: Ann's keep of 1 5 for 150. Now Ann's roll 1 2 3 4 5 6 is on the table, 0 this turn."),
        (lambda game: game.redo(), "Redone: Ann's keep of 1 5 for 150. Now Ann's turn: 150 this turn, 4 dice to roll."),
        (lambda game: game.roll("1 2 4"), "Ann rolls 1 2 4: 3 of the 4 dice read, the roll waits for the 1 die missing."),
        (lambda game: game.correct(None, 6), "Added the missed 6. The roll is now 1 2 4 6."),
        (lambda game: game.correct(4, 5), "Corrected: the 4 is a 5. The roll is now 1 2 5 6."),
        (lambda game: game.undo(), "Undone: the tap or correction (the 4 is a 5). Now Ann's roll 1 2 4 6 is on the table, 150 this turn."),
        (lambda game: game.redo(), "Redone: the tap or correction (the 4 is a 5). Now Ann's roll 1 2 5 6 is on the table, 150 this turn."),
        (lambda game: game.keep("1 5"), "Ann keeps 1 5 for 150: 300 this turn, 2 dice to roll."),
    ]
    for step, line in steps:
        assert controller.act(step)
        assert done[-1] == line
    told = len(done)
    assert controller.act(lambda game: game.bank())
    assert len(done) == told and notices[-1] == "Ann banks 300: now 300.", "a turn's end is told once, by its notice"
    assert controller.act(lambda game: game.undo())
    assert done[-1] == "Undone: Ann's bank of 300. Now Ann's turn: 300 this turn, 2 dice to roll."
    assert controller.act(lambda game: game.redo())
    assert notices[-1] == "Ann banks 300: now 300."
    assert done[-1] == "Redone: Ann's bank of 300. Now Bob's turn: 0 this turn, 6 dice to roll."
    assert controller.act(lambda game: game.roll("1 2 3 4 5 6"))
    assert controller.act(lambda game: game.keep("1 2 3 4 5 6"))
    assert done[-1] == "Bob keeps 1 2 3 4 5 6 for 1,500: 1,500 this turn, hot dice: all 6 dice to roll again."
    assert controller.act(lambda game: game.roll("2 2 3 3 4 6"))
    assert controller.act(lambda game: game.farkle())
    assert notices[-1] == "FARKLE! Bob's turn ends and the 1,500 points of this turn are lost; Bob's score stays 0."
    assert not controller.act(lambda game: game.keep("5"))
    assert done[-1] == "Bob rolls 2 2 3 3 4 6.", "a refused step confirms nothing"


def test_undo_and_redo_of_the_keep_that_won_name_the_winner(tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    done: list[str] = []
    controller.on_done.append(done.append)
    assert controller.start(load_rules("house-2009"), ["Ann", "Bob"])
    assert controller.act(lambda game: game.roll("4 4 4 4 4 4"))
    assert controller.act(lambda game: game.keep("4 4 4 4 4 4"))  # H: six of a kind wins on the spot
    assert controller.act(lambda game: game.undo())
    assert done[-1] == "Undone: Ann's keep of 4 4 4 4 4 4. Now Ann's roll 4 4 4 4 4 4 is on the table, 0 this turn."
    assert controller.act(lambda game: game.redo())
    assert done[-1] == "Redone: Ann's keep of 4 4 4 4 4 4. Game over: Ann wins!"


def test_listeners_are_told_the_journal_and_the_game_as_a_game_is_won(tmp_path: Path) -> None:
    controller = GameController(tmp_path)
    ended: list[tuple[Path, bool]] = []
    controller.on_game_over.append(lambda path, game: ended.append((path, game.state.over)))
    assert controller.start(load_rules("house-2009"), ["Ann", "Bob"])
    assert controller.act(lambda game: game.roll("4 4 4 4 4 4"))
    assert ended == [], "not before the game ends"
    assert controller.act(lambda game: game.keep("4 4 4 4 4 4"))  # H: six of a kind wins on the spot
    assert controller.journal is not None
    assert ended == [(controller.journal.path, True)]


def test_a_game_no_journal_keeps_tells_no_one_it_ended(tmp_path: Path) -> None:
    controller = GameController(tmp_path, Game.new(load_rules("house-2009"), ["Ann", "Bob"]))
    ended: list[Path] = []
    controller.on_game_over.append(lambda path, game: ended.append(path))
    assert controller.act(lambda game: game.roll("4 4 4 4 4 4"))
    assert controller.act(lambda game: game.keep("4 4 4 4 4 4"))
    assert controller.state is not None and controller.state.over and ended == []


def test_each_game_put_on_the_table_gets_a_number_of_its_own(tmp_path: Path) -> None:
    play = GameController(tmp_path)
    numbers = [play.game_number]
    play.start(load_rules("retail"), ["Ann", "Bob"])
    numbers.append(play.game_number)
    play.take(DiceRolled(Dice.from_str("1 5 2 3 4 6")))
    play.take(Kept(Dice.from_str("1 5")))
    play.take(Banked())
    assert play.game_number == numbers[-1], "steps of play keep the game's number"
    assert play.edit_turn(0, [DiceRolled(Dice.from_str("1 1 1 2 3 4")), Kept(Dice.from_str("1 1 1")), Banked()])
    numbers.append(play.game_number)
    assert play.journal is not None
    path = play.journal.path
    play.close()
    assert play.resume(path) is None
    numbers.append(play.game_number)
    assert len(set(numbers)) == len(numbers), "a start, a history edit and a resume each put a new game on the table"
