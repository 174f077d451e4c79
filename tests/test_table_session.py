"""The table session without Qt: taking a roll, what it asks, taps and their pictures, what is
drawn, and the dice the game expects."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

import scorekeeper
from scorekeeper.game import Banked, DiceRolled, DieCorrected, Farkled, Game, Kept, Piggybacked, Pot
from scorekeeper.game.controller import GameController
from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.rules import Dice, load_rules
from scorekeeper.table_session import TableSession
from scorekeeper.table_session.session import DieOnTable, TableDice, TableDiceError
from scorekeeper.table_session.tap_pictures import pictures_named
from scorekeeper.vision.corrections import load_corrections, withdrawn_states
from scorekeeper.vision.detections import Detections

FRAME = np.full((240, 320, 3), 90, np.uint8)


def dice(values: str, confidences: list[float] | None = None, x0: float = 20) -> Detections:
    faces = [int(v) for v in values.split()]
    boxes = [[x0 + 40 * i, 50, x0 + 40 * i + 30, 80] for i in range(len(faces))]
    return Detections(np.array(boxes, np.float32), np.array(faces), np.array(confidences or [0.95] * len(faces), np.float32))


def event(kind: EventKind, found: Detections | None = None) -> SettleEvent:
    found = found if found is not None else Detections.empty()
    return SettleEvent(kind, 0, 0.0, found, found.unsure)


class Table:
    """A session on a fresh retail game for Ann and Bob, recording what it tells."""

    def __init__(self, folder: Path) -> None:
        self.game = Game.new(load_rules("retail"), ["Ann", "Bob"])
        self.expected: list[int | None] = []
        self.changes = 0
        self.controller = GameController(folder, self.game)
        self.session = TableSession(self.controller, folder, on_change=self.changed, on_expect=self.expected.append)
        self.controller.on_changed.append(self.session.game_changed)

    def changed(self) -> None:
        self.changes += 1

    def settle(self, found: Detections, aside: Detections | None = None) -> None:
        self.session.saw(found, aside if aside is not None else Detections.empty())
        self.session.table_event(event(EventKind.SETTLED, found), FRAME)

    def step(self, act: object) -> None:
        """A step of play made elsewhere (the turn panel, the keyboard)."""
        assert self.controller.take(act)  # type: ignore[arg-type]


def test_a_sure_roll_is_taken_and_drawn_frozen_until_its_dice_move(tmp_path: Path) -> None:
    table = Table(tmp_path)
    assert table.session.expected == 6
    table.settle(dice("1 5 2 3 4 6"))
    assert table.game.state.turn.roll == Dice.from_str("1 2 3 4 5 6")
    drawing = table.session.drawing()
    assert drawing.frozen and drawing.caption == "Roll taken: 1 2 3 4 5 6" and len(drawing.dice) == 6
    assert drawing.scoring.tolist() == [True] * 6, "a straight scores every die"
    assert table.session.tappable() is table.session.taken

    # a hand sweeps the dice away: the roll stays the game's, but the boxes drawn are the live finds
    table.session.saw(dice("2 2"), Detections.empty())
    table.session.table_event(event(EventKind.MOVING, dice("2 2")), FRAME)
    drawing = table.session.drawing()
    assert not drawing.frozen and drawing.dice.roll() == [2, 2] and "has been moved" in drawing.caption
    assert table.session.tappable() is None
    table.session.tap_refused()
    assert "c WAS NOW" in table.session.prompt


def test_an_unsure_die_waits_for_a_tap_and_the_tap_goes_into_the_game_with_its_picture(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.settle(dice("2 3 4", [0.95, 0.2, 0.95]))
    pending = table.session.pending
    assert pending is not None and pending.unsure == [False, True, False]
    assert table.game.state.turn.roll is None and "Tap each flagged die" in table.session.prompt
    assert table.session.drawing().frozen and table.session.drawing().unsure.tolist() == [False, True, False]

    table.session.correct(pending, 1, 5)
    assert table.game.state.turn.roll == Dice.from_str("2 4 5") and table.session.pending is None
    rolled, corrected = table.game.events[-2:]
    assert isinstance(rolled, DiceRolled) and rolled.dice == Dice.from_str("2 3 4") and rolled.source == "camera"
    assert isinstance(corrected, DieCorrected) and (corrected.was, corrected.now) == (3, 5)
    assert [(c.was, c.value) for c in load_corrections(tmp_path).corrections] == [(3, 5)]
    assert table.session.prompt == ""

    # undone in the game: the picture leaves training and the die drawn shows its read again
    assert table.controller.act(lambda game: game.undo())
    assert load_corrections(tmp_path).corrections == () and sorted(table.session.taken.values) == [2, 3, 4]
    assert table.controller.act(lambda game: game.redo())
    assert [(c.was, c.value) for c in load_corrections(tmp_path).corrections] == [(3, 5)]
    assert sorted(table.session.taken.values) == [2, 4, 5]


def test_each_tap_says_what_it_did(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.settle(dice("2 3 4 6", [0.2, 0.2, 0.95, 0.2]))
    pending = table.session.pending
    assert pending is not None
    table.session.correct(pending, 1, 5)
    assert table.session.prompt == "The 3 is a 5. 2 flagged dice (?) left to tap; the roll is taken then."
    table.session.correct(pending, 0, 2)
    assert table.session.prompt == "The 2 stays a 2, as read. 1 flagged die (?) left to tap; the roll is taken then."
    table.session.correct(pending, 3, None)
    assert table.game.state.turn.roll == Dice.from_str("2 4 5") and table.session.prompt == ""
    taken = table.session.taken
    assert taken is not None
    table.session.correct(taken, taken.values.index(4), 4)
    assert table.session.prompt == "The 4 stays a 4, as read: nothing changed."


def test_a_tap_on_the_roll_taken_corrects_it_and_a_missed_die_is_added(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.settle(dice("2 3 4"))
    taken = table.session.taken
    assert taken is not None
    table.session.add_missed(taken, 250, 150, 5)
    assert table.game.state.turn.roll == Dice.from_str("2 3 4 5") and len(taken.values) == 4
    table.session.correct(taken, taken.values.index(3), None)
    assert table.game.state.turn.roll == Dice.from_str("2 4 5") and taken.values == [2, 4, 5]


def test_a_roll_with_dice_missing_is_drawn_unscored_and_a_new_throw_is_told_it_waits(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.settle(dice("1 5 3"))  # 3 of the 6 dice read
    taken = table.session.taken
    assert taken is not None and table.game.state.turn.roll == Dice.from_str("1 3 5")
    assert table.game.state.roll_score() is None
    assert table.session.drawing().scoring.tolist() == [False] * 3, "a roll with dice missing is not scored"
    table.settle(dice("1 5 3 2 2 6"))
    assert table.session.prompt == (
        "The roll on the table waits for 3 dice not read: tap each in where it lies, or undo the roll with Z and throw again."
    )
    for x, face in ((150, 2), (190, 2), (230, 6)):
        table.session.add_missed(taken, x, 65, face)
    assert table.game.state.turn.roll == Dice.from_str("1 2 2 3 5 6")
    assert table.session.drawing().scoring.tolist() == [True, True, False, False, False, False], "the 1 and the 5"


def test_too_many_dice_are_asked_about_until_the_table_or_the_game_moves_on(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.step(DiceRolled(Dice.from_str("1 5 2 3 4 6")))
    table.step(Kept(Dice.from_str("1 5")))
    assert table.session.expected == 4
    table.settle(dice("1 5 2 2 3 6"))
    assert "6 dice in the rolling area, but Ann has 4 to roll" in table.session.prompt
    assert table.game.state.turn.roll is None, "nothing is taken"
    table.session.table_event(event(EventKind.MOVING, dice("2 2 3 6")), FRAME)
    assert table.session.prompt == "", "the kept dice were moved: the question no longer applies"

    table.settle(dice("1 5 2 2 3 6"))
    assert table.session.prompt
    table.step(DiceRolled(Dice.from_str("2 2 3 6")))  # typed instead
    assert table.session.prompt == "", "the game moved on: the question no longer applies"


def test_the_dice_set_aside_are_checked_against_the_keeps_the_game_has_out_of_play(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.step(DiceRolled(Dice.from_str("1 1 2 3 4 6")))
    table.step(Kept(Dice.from_str("1 1")))
    table.settle(dice("3 4 5 6"), aside=dice("1 2", x0=260))
    assert "set aside show 1 2" in table.session.prompt and "keeps were 1 1" in table.session.prompt

    # hot dice: all six scored and picked up again, so nothing is out of play any more
    table = Table(tmp_path)
    table.step(DiceRolled(Dice.from_str("1 1 1 5 5 5")))
    table.step(Kept(Dice.from_str("1 1 1 5 5 5")))
    assert table.game.state.turn.set_aside == () and table.session.expected == 6
    table.settle(dice("2 3 4 6 6 2"), aside=dice("1", x0=280))
    assert "keeps were none" in table.session.prompt


def test_the_dice_expected_follow_the_game_and_an_undone_roll_is_expected_again(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.settle(dice("2 3 4 6 6 2"))  # a Farkle
    assert table.expected == [0]
    assert table.controller.act(lambda game: game.undo())
    assert table.expected == [0, 6], "the roll was taken back: the same six dice are thrown again"
    table.session.game_changed()
    assert table.expected == [0, 6], "nothing changed: nothing is asked again"
    table.step(DiceRolled(Dice.from_str("2 3 4 6 6 2")))
    assert table.controller.act(lambda game: game.farkle())
    assert table.expected == [0, 6, 0, 6] and table.game.state.current.name == "Bob"


def test_the_roll_is_drawn_while_its_dice_lie_where_they_were_read_and_the_live_finds_once_they_do_not(tmp_path: Path) -> None:
    table = Table(tmp_path)
    roll = dice("1 5 2 3 4 6")
    table.settle(roll)
    none = Detections.empty()
    table.session.saw(roll[1:], none)  # a die missed in one frame
    table.session.saw(roll, none)
    assert table.session.drawing().frozen
    for _ in range(3):  # a hand sweeps the first die away, before the dice count as moving
        table.session.saw(roll[1:], none)
    assert not table.session.drawing().frozen and table.session.tappable() is None
    table.session.saw(roll, none)  # it was only covered: the roll lies as read again
    assert table.session.drawing().frozen and table.session.tappable() is table.session.taken


def test_a_roll_the_game_moves_on_from_is_confirmed_and_an_undone_one_is_not(tmp_path: Path) -> None:
    table = Table(tmp_path)
    confirmed: list[tuple[list[int], list[tuple[float, float, float, float]]]] = []
    table.session.on_confirmed = lambda dice: confirmed.append((list(dice.values), list(dice.tapped_away)))
    table.settle(dice("2 3 4 6 6 1"))
    taken = table.session.taken
    assert taken is not None and confirmed == []
    table.session.correct(taken, taken.values.index(3), None)
    table.session.add_missed(taken, 300, 65, 3)  # the die the camera missed: the roll is whole again
    table.session.correct(taken, taken.values.index(4), 5)
    assert confirmed == [], "taps alone confirm nothing: the game has not moved on"
    table.step(Kept(Dice.from_str("1 5")))
    assert len(confirmed) == 1
    values, away = confirmed[0]
    assert sorted(values) == [1, 2, 3, 5, 6, 6], "the dice as the taps left them"
    assert away == [(60.0, 50.0, 90.0, 80.0)], "the 3 tapped away is taught as no die"

    # the next roll taken, then undone: it taught nothing
    table.settle(dice("2 2 3 3"))
    assert table.session.taken is not None
    assert table.controller.act(lambda game: game.undo())
    assert len(confirmed) == 1


def test_a_tap_the_game_refuses_teaches_the_reader_nothing(tmp_path: Path) -> None:
    table = Table(tmp_path)
    table.settle(dice("1 2 3 4 5 6"))
    taken = table.session.taken
    assert taken is not None
    # a seventh die where six are in play: the game refuses it, and its crop must not train the reader
    table.session.add_missed(taken, 290, 150, 5)
    assert table.game.state.turn.roll == Dice.from_str("1 2 3 4 5 6") and len(taken.values) == 6
    assert load_corrections(tmp_path).corrections == ()
    # a tap the game takes still teaches it
    table.session.correct(taken, taken.values.index(3), 2)
    assert [(c.was, c.value) for c in load_corrections(tmp_path).corrections] == [(3, 2)]


def assert_index_follows(folder: Path, game: Game | None) -> None:
    """The corrections folder's index withdraws exactly the pictures ``game``'s steps in force do not name."""
    assert game is not None
    states = withdrawn_states(folder)
    counted = pictures_named(game.actions)
    assert states == {name: name not in counted for name in states}


def test_the_pictures_that_count_follow_the_steps_in_force_through_undo_redo_a_resume_and_a_history_edit(tmp_path: Path) -> None:
    folder, home = tmp_path / "corrections", tmp_path / "home"
    controller = GameController(home)
    session = TableSession(controller, folder)
    controller.on_changed.append(session.game_changed)
    assert controller.start(load_rules("retail"), ["Ann", "Bob"])
    roll = dice("2 3 4 4 6 6", [0.95, 0.2, 0.95, 0.95, 0.95, 0.95])
    session.saw(roll, Detections.empty())
    session.table_event(event(EventKind.SETTLED, roll), FRAME)
    assert session.pending is not None
    session.correct(session.pending, 1, 5)
    taken = session.taken
    assert taken is not None
    session.correct(taken, taken.values.index(4), 6)
    assert controller.state is not None and controller.state.turn is not None
    assert controller.state.turn.roll == Dice.from_str("2 4 5 6 6 6") and len(withdrawn_states(folder)) == 2
    assert_index_follows(folder, controller.game)

    for step, drawn in (("undo", [2, 4, 4, 5, 6, 6]), ("undo", [2, 3, 4, 4, 6, 6]), ("redo", [2, 4, 4, 5, 6, 6])):
        assert controller.act(lambda game: getattr(game, step)())
        assert_index_follows(folder, controller.game)
        assert sorted(taken.values) == drawn, f"the dice drawn after the {step}"
    assert [(c.was, c.value) for c in load_corrections(folder).corrections] == [(3, 5)]
    assert controller.journal is not None
    journal = controller.journal.path
    controller.close()

    # a fresh session on the resumed journal: the tap still undone stays withdrawn, and follows a redo
    again = GameController(home)
    fresh = TableSession(again, folder)
    again.on_changed.append(fresh.game_changed)
    assert again.resume(journal) is None
    assert_index_follows(folder, again.game)
    assert again.act(lambda game: game.redo())
    assert_index_follows(folder, again.game)
    assert [(c.was, c.value) for c in load_corrections(folder).corrections] == [(3, 5), (4, 6)]

    # a history edit that deletes both taps: neither counts any more
    assert again.take(Kept(Dice.from_str("5"))) and again.take(Banked())
    assert again.edit_turn(0, [DiceRolled(Dice.from_str("2 3 4 4 6 6")), Farkled()])
    assert_index_follows(folder, again.game)
    assert load_corrections(folder).corrections == ()
    again.close()


def test_no_module_follows_the_game_by_object_identity() -> None:
    """Which pictures count and which taps are drawn follow from the game's steps in force, never
    from weak references or sets and maps of ``id()``."""
    found: list[str] = []
    for path in sorted(Path(scorekeeper.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [alias.name for alias in node.names] if isinstance(node, (ast.Import, ast.ImportFrom)) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names.append(node.module)
            if any(name.split(".")[0] == "weakref" for name in names):
                found.append(f"{path.name}: {ast.unparse(node)}")
            keys: list[ast.expr] = []
            if isinstance(node, (ast.SetComp, ast.ListComp, ast.GeneratorExp)):
                keys = [node.elt]
            elif isinstance(node, ast.DictComp):
                keys = [node.key]
            elif isinstance(node, ast.Compare) and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
                keys = [node.left]
            if any(isinstance(key, ast.Call) and isinstance(key.func, ast.Name) and key.func.id == "id" for key in keys):
                found.append(f"{path.name}: {ast.unparse(node)}")
    assert found == []


def test_a_question_goes_when_a_game_is_put_on_the_table_even_the_same_game_object(tmp_path: Path) -> None:
    """What applies to a game is keyed on the controller's number for it, not on the game object's
    ``id()`` (which a later game may reuse)."""
    table = Table(tmp_path)
    table.step(DiceRolled(Dice.from_str("1 5 2 3 4 6")))
    table.step(Kept(Dice.from_str("1 5")))
    table.settle(dice("1 5 2 2 3 6"))
    assert "6 dice in the rolling area" in table.session.prompt
    table.controller.game = table.game
    table.session.game_changed()
    assert table.session.prompt == "", "a game put on the table again is a new game to the session"


def test_the_table_session_calls_no_id() -> None:
    """No module of the table session tells games or dice apart by ``id()``."""
    folder = Path(scorekeeper.__file__).parent / "table_session"
    calls = [
        f"{path.name}: {ast.unparse(node)}"
        for path in sorted(folder.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id"
    ]
    assert calls == []


def test_dice_on_the_table_are_a_frozen_value_a_tap_replaces() -> None:
    found = dice("2 3 4", [0.95, 0.5, 0.95])
    read = TableDice.from_detections(found, [False, True, False], ["", "w", ""], ["", "", "r"])
    assert [(die.value, die.mark, die.unsure, die.doubt) for die in read.dice] == [(2, "", False, ""), (3, "w", True, ""), (4, "", False, "r")]
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.dice[0].value = 5  # type: ignore[misc]
    box = read.dice[1].box
    tapped = read.showing(box, "5")
    assert [die.value for die in tapped.dice] == [2, 5, 4] and [die.value for die in read.dice] == [2, 3, 4], "the dice before the tap stay as they were"
    assert tapped.dice[1].mark == "" and tapped.dice[1].unsure, "the face and mark change; the flag waits for the confirmation"
    assert [die.value for die in read.showing(box, None).dice] == [2, 4], "no die there"
    assert read.showing((1.0, 2.0, 3.0, 4.0), "6").dice[-1] == DieOnTable((1.0, 2.0, 3.0, 4.0), 6), "a missed die tapped in"
    assert not read.confirmed(box).dice[1].unsure and read.told("r").dice[2].doubt == "" and not any(die.unsure or die.doubt for die in read.settled().dice)


def test_dice_on_the_table_refuse_flags_that_do_not_go_one_to_a_die() -> None:
    with pytest.raises(TableDiceError, match=r"\[True\], \[''\] and \[''\] for 2 dice"):
        TableDice.from_detections(dice("2 3"), [True], [""], [""])


def test_a_pot_offered_waits_for_the_choice_through_a_resume_and_a_throw_with_dice_missing_never_answers_it(tmp_path: Path) -> None:
    playing = GameController(tmp_path)
    assert playing.start(load_rules("retail", ["piggyback"]), ["Ann", "Bob"])
    for step in (DiceRolled(Dice.from_str("1 1 1 2 3 4")), Kept(Dice.from_str("1 1 1")), Banked()):
        assert playing.take(step)
    assert playing.journal is not None
    journal = playing.journal.path
    playing.close()

    resumed = GameController(tmp_path)
    expected: list[int | None] = []
    session = TableSession(resumed, tmp_path / "corrections", on_expect=expected.append)
    resumed.on_changed.append(session.game_changed)
    resumed.resume(journal)
    state = resumed.state
    assert state is not None and state.pot_offered() == Pot(3, 1000, 0)
    assert session.expected == 0 and expected[-1] == 0, "no throw is asked while Bob chooses"

    session.saw(dice("5 2"), Detections.empty())
    session.table_event(event(EventKind.SETTLED, dice("5 2")), FRAME)
    state = resumed.state
    assert state is not None and state.turn is not None and state.turn.roll is None and state.pot_offered() == Pot(3, 1000, 0)
    assert session.prompt == "2 of 6 dice read while Bob is offered the pot of 1,000 with 3 dice: choose piggyback or fresh dice first, then throw."

    assert resumed.take(Piggybacked())
    assert session.expected == 3 and expected[-1] == 3
    session.saw(dice("5 2 2"), Detections.empty())
    session.table_event(event(EventKind.SETTLED, dice("5 2 2")), FRAME)
    state = resumed.state
    assert state is not None and state.turn is not None and state.turn.roll == Dice.from_str("5 2 2")


def test_a_roll_let_go_asks_for_the_dice_again(tmp_path: Path) -> None:
    # watch --game lets go of a roll no one is there to tap: the table is asked to throw again
    table = Table(tmp_path)
    table.settle(dice("2 3 4 6 6 1", [0.95, 0.2, 0.95, 0.95, 0.95, 0.95]))
    assert table.session.pending is not None and table.expected == []
    table.session.let_go()
    assert table.session.pending is None and not table.session.prompt
    assert table.expected == [6] and table.game.state.turn.roll is None
