"""The camera under the wild-die and spicy variants: a settled roll's marks told by the table's
colour judge, asked about where it cannot tell, set by taps, drawn, and never scored unknown."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

from scorekeeper.camera.settling import EventKind, SettleEvent
from scorekeeper.game import DiceRolled, DieCorrected, Game, Kept
from scorekeeper.game.controller import GameController
from scorekeeper.rules import Dice, load_rules
from scorekeeper.table_session import TableSession
from scorekeeper.table_session.table_colours import TableColours
from scorekeeper.vision.detections import Detections
from scorekeeper.vision.die_colours import DieColour, DieColours, decide_roll

FRAME = np.full((240, 320, 3), 90, np.uint8)


def dice(values: str, confidences: list[float] | None = None) -> Detections:
    faces = [int(v) for v in values.split()]
    boxes = [[20 + 40 * i, 50, 20 + 40 * i + 30, 80] for i in range(len(faces))]
    return Detections(np.array(boxes, np.float32), np.array(faces), np.array(confidences or [0.95] * len(faces), np.float32))


class Judge(DieColours):
    """A taught table whose colour judge gives each die (left to right) the likelihoods the test
    tells it: of being the wild die, and of red pips (None: the pips could not be measured)."""

    def __init__(self, wild: list[float | None], red: list[bool | None]) -> None:
        super().__init__()
        self.wild_said, self.red_said = wild, red

    @property
    def knows_wild(self) -> bool:
        return True

    @property
    def knows_red(self) -> bool:
        return True

    def judge(self, frame: NDArray[np.uint8], boxes: NDArray[np.float32], *, wild_in_roll: bool | None = None) -> tuple[DieColour, ...]:
        rank = np.argsort(np.argsort(boxes[:, 0]))
        wild = [self.wild_said[r] if r < len(self.wild_said) else 0.0 for r in rank]
        red = [self.red_said[r] if r < len(self.red_said) else False for r in rank]
        likely = np.array([0.5 if said is None else 0.9 if said else 0.1 for said in red])
        return decide_roll(
            np.array([0.5 if said is None else said for said in wild]), np.array([said is not None for said in wild]),
            likely, np.array([said is not None for said in red]), wild_in_roll=wild_in_roll,
        )


class Table:
    """A session on a fresh game for Ann and Bob under ``variants``, the table's colours told by ``judge``."""

    def __init__(self, folder: Path, variants: list[str], judge: DieColours | None = None) -> None:
        self.game = Game.new(load_rules("retail", variants), ["Ann", "Bob"])
        self.controller = GameController(folder, self.game)
        self.session = TableSession(self.controller, folder)
        self.session.colours = TableColours(None, judge) if judge is not None else None
        self.controller.on_changed.append(self.session.game_changed)

    def settle(self, found: Detections) -> None:
        self.session.saw(found, Detections.empty())
        self.session.table_event(SettleEvent(EventKind.SETTLED, 0, 0.0, found, found.unsure), FRAME)


def test_a_wild_die_game_asks_for_the_wild_die_until_the_table_has_learned_its_colour(tmp_path: Path) -> None:
    table = Table(tmp_path, ["wild-die"])
    table.settle(dice("1 5 2 3 4 6"))
    pending = table.session.pending
    assert pending is not None and table.game.state.turn.roll is None, "no roll is scored with the wild die unknown"
    assert pending.doubt == ["w"] * 6 and pending.waiting() == [True] * 6
    assert table.session.prompt == "The wild die is asked until the table is calibrated (Camera, Calibrate): tap it, mark it wild."
    drawing = table.session.drawing()
    assert drawing.doubt == ("w",) * 6 and drawing.unsure.all()

    table.session.correct(pending, 2, "2w")
    assert table.session.pending is None and table.session.prompt == ""
    assert table.game.state.turn.roll == Dice.from_str("1 2w 3 4 5 6")
    rolled, corrected = table.game.events[-2:]
    assert isinstance(rolled, DiceRolled) and rolled.dice == Dice.from_str("1 2 3 4 5 6"), "the camera read no wild die"
    assert isinstance(corrected, DieCorrected) and (corrected.was, corrected.now, corrected.picture) == (2, "2w", None)
    assert table.session.drawing().marks == ("", "", "w", "", "", "")


def test_wild_die_and_spicy_on_a_table_not_calibrated_ask_in_one_short_line(tmp_path: Path) -> None:
    table = Table(tmp_path, ["wild-die", "spicy"])
    table.settle(dice("4 5 2 3 4 6"))
    pending = table.session.pending
    assert pending is not None and pending.doubt == ["wr"] * 6
    prompt = table.session.prompt
    assert prompt == "Wild and red dice are asked until the table is calibrated (Camera, Calibrate): tap each (?)."
    assert len(prompt) <= 100 and prompt.count(".") + prompt.count("?)") <= 2, "one short line, not a paragraph"


def test_marks_the_judge_is_sure_of_are_read_and_a_close_call_between_two_dice_asks(tmp_path: Path) -> None:
    table = Table(tmp_path, ["wild-die", "spicy"], Judge([0.0, 0.95, 0.0, 0.0], [False, False, True, False]))
    table.settle(dice("1 5 5 3"))
    assert table.session.pending is None
    assert table.game.state.turn.roll == Dice.from_str("1 5w 5r 3"), "a sure read is taken as read"
    rolled = table.game.events[-1]
    assert isinstance(rolled, DiceRolled) and rolled.dice == Dice.from_str("1 3 5w 5r")

    close = Table(tmp_path / "close", ["wild-die", "spicy"], Judge([0.1, 0.6, 0.55, 0.0], [False, None, False, False]))
    close.settle(dice("1 3 5 2"))
    pending = close.session.pending
    assert pending is not None and pending.doubt == ["", "wr", "w", ""]
    assert close.session.prompt == (
        "Tap each flagged die (?) to confirm or correct it; the roll is taken then. "
        "Which is the wild die, the 3 or the 5? Tap it and mark it wild. Are the pips of the 3 red? Tap it and say."
    )
    close.session.correct(pending, 2, "5w")
    assert close.session.pending is pending and pending.doubt == ["", "r", "", ""], "saying the 5 is wild says the 3 is not"
    assert close.session.prompt.startswith("The 5 is a wild 5. 1 flagged die (?) left to tap")
    close.session.correct(pending, 1, "3r")
    assert close.game.state.turn.roll == Dice.from_str("1 2 3r 5w")
    steps = close.game.events[-3:]
    assert [type(step) for step in steps] == [DiceRolled, DieCorrected, DieCorrected]
    assert [(step.was, step.now) for step in steps[1:]] == [(5, "5w"), (3, "3r")]  # type: ignore[attr-defined]


def test_a_tap_saying_another_die_is_wild_takes_the_mark_off_the_first_and_undo_puts_it_back(tmp_path: Path) -> None:
    table = Table(tmp_path, ["wild-die"], Judge([0.9, 0.0, 0.0], []))
    table.settle(dice("2 3 1"))
    taken = table.session.taken
    assert taken is not None and table.game.state.turn.roll == Dice.from_str("1 2w 3")
    table.session.correct(taken, 2, "1w")
    assert table.game.state.turn.roll == Dice.from_str("1w 2 3")
    assert [(step.was, step.now) for step in table.game.events[-2:]] == [("2w", 2), (1, "1w")]  # type: ignore[attr-defined]
    assert table.session.drawing().marks == ("", "", "w")
    assert table.controller.act(lambda game: game.undo()) and table.controller.act(lambda game: game.undo())
    assert table.game.state.turn.roll == Dice.from_str("1 2w 3") and table.session.drawing().marks == ("w", "", "")


def test_once_the_wild_die_is_set_aside_no_die_of_the_next_roll_is_taken_for_it(tmp_path: Path) -> None:
    judge = Judge([0.0, 0.9, 0.0], [])
    table = Table(tmp_path, ["wild-die"], judge)
    table.settle(dice("2 1 3 4 6 6"))
    assert table.game.state.turn.roll == Dice.from_str("1w 2 3 4 6 6")
    assert table.controller.take(Kept(Dice.from_str("1w")))
    judge.wild_said = [0.0, 0.9, 0.0, 0.0, 0.0]  # the judge thinks a die looks wild; the wild die is out of play
    table.settle(dice("2 3 4 6 6"))
    assert table.game.state.turn.roll == Dice.from_str("2 3 4 6 6") and table.session.pending is None


def test_red_pips_not_learned_are_asked_for_every_die_and_a_red_face_doubles_its_combination(tmp_path: Path) -> None:
    table = Table(tmp_path, ["spicy"])
    table.settle(dice("5 2 3 4 6 6"))
    pending = table.session.pending
    assert pending is not None and pending.doubt == ["r"] * 6
    assert table.session.prompt == "Red dice are asked until the table is calibrated (Camera, Calibrate): tap each (?)."
    table.session.correct(pending, 0, "5r")
    for index, face in enumerate([2, 3, 4, 6, 6], start=1):
        assert table.game.state.turn.roll is None
        table.session.correct(pending, index, face)
    state = table.game.state
    assert state.turn.roll == Dice.from_str("2 3 4 5r 6 6")
    score = state.roll_score()
    assert score is not None and score.best is not None and score.best.points == 100, "a red 5 scores 50 doubled"


def test_the_colours_taught_are_kept_beside_the_profile_and_a_damaged_file_is_refused_with_a_note(tmp_path: Path) -> None:
    from scorekeeper.camera.demo_table import DEMO_LOOKS, DEMO_WILD_LOOKS, Choreography, render_scene

    film = Choreography(640, 480, seed=4, look=DEMO_LOOKS[0])
    film.throw([1, 2, 3, 4, 5, 6], frames=6, looks=[DEMO_LOOKS[0]] * 3 + [DEMO_WILD_LOOKS[0]] + [DEMO_LOOKS[0]] * 2, wild=3)
    image, labels = render_scene(film.scenes[-1])
    path = tmp_path / "kitchen.colours.npz"
    colours = TableColours(path)
    assert colours.learned() == "" and colours.judge() is None and colours.missing("w") == "w"
    colours.teach(image, [tuple(map(float, box)) for box in labels.boxes], list(labels.marks), "w")  # type: ignore[misc]
    assert colours.learned() == "w" and path.is_file()
    again = TableColours(path)
    assert again.learned() == "w" and again.note == ""
    told = again.judge()
    assert told is not None
    judged = told.judge(image, labels.boxes, wild_in_roll=True)
    assert [die.is_wild for die in judged] == ["w" in mark for mark in labels.marks]

    path.write_bytes(b"not a colours file")
    damaged = TableColours(path)
    assert damaged.learned() == "" and "damaged or not a die colours file" in damaged.note
    assert "this run's are not saved" in damaged.note
    damaged.teach(image, [tuple(map(float, box)) for box in labels.boxes], list(labels.marks), "w")
    assert path.read_bytes() == b"not a colours file", "a refused file is left as it is"


def test_a_die_unlike_any_taught_is_the_wild_die_when_every_other_die_surely_is_not(tmp_path: Path) -> None:
    table = Table(tmp_path, ["wild-die"], Judge([0.02, None, 0.05, 0.0, 0.1, 0.0], []))
    table.settle(dice("6 1 3 3 2 4"))
    assert table.session.pending is None and table.game.state.turn.roll == Dice.from_str("1w 2 3 3 4 6")

    doubtful = Table(tmp_path / "doubtful", ["wild-die"], Judge([0.02, None, 0.45, 0.0, 0.1, 0.0], []))
    doubtful.settle(dice("6 1 3 3 2 4"))
    pending = doubtful.session.pending
    assert pending is not None and pending.doubt == ["", "w", "w", "", "", ""], "another die that may be the wild one: ask"


def test_forgetting_the_table_forgets_the_dice_colours_it_learned_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from scorekeeper.cli import build_parser

    profile = tmp_path / "kitchen.toml"
    colours = tmp_path / "kitchen.colours.npz"
    TableColours(colours, Judge([], [])).teach(FRAME, [(20.0, 50.0, 50.0, 80.0), (60.0, 50.0, 90.0, 80.0)], ["w", ""], "w")
    assert colours.is_file()
    args = build_parser().parse_args(["table", str(profile), "--forget"])
    assert args.run(args) == 0
    assert not colours.exists() and "Forgot the dice's colours the table learned" in capsys.readouterr().out
    assert args.run(args) == 0
    assert "holds nothing to forget" in capsys.readouterr().err


def test_with_dice_not_read_the_wild_die_may_be_among_them(tmp_path: Path) -> None:
    table = Table(tmp_path, ["wild-die"], Judge([0.02, 0.3, 0.05], []))
    table.settle(dice("6 2 2"))
    assert table.game.state.turn.roll == Dice.from_str("2 2 6"), "three of six dice read: none is taken for the wild die"
    full = Table(tmp_path / "full", ["wild-die"], Judge([0.02, 0.3, 0.05, 0.0, 0.0, 0.0], []))
    full.settle(dice("6 2 2 3 4 4"))
    assert full.game.state.turn.roll == Dice.from_str("2 2w 3 4 4 6"), "all six read: one of them is the wild die"
