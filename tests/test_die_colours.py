"""Issue 54: the wild die and red pips told by their colours, learned from a teaching roll's taps
(vision/die_colours.py), on rendered throws and on real photos recoloured."""

from __future__ import annotations

import io
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from conftest import shared_data_folder
from scorekeeper.evaluation.dataset import load_dataset, with_label_fixes
from scorekeeper.camera.demo_table import DemoTable
from scorekeeper.evaluation.die_colours import RED_LAB, WILD_LAB, light_die_dark_pips, marked_photo, measure, photo_rolls, recoloured, settled_rolls, teach
from scorekeeper.synthetic.die import DieLook, DiePose
from scorekeeper.synthetic.render import render
from scorekeeper.synthetic.scene import Scene
from scorekeeper.synthetic.table import TableLook
from scorekeeper.vision.die_colours import (
    ColourJudge,
    DieColour,
    DieColours,
    DieColoursFileError,
    colours_file_for,
    decide_roll,
    die_features,
)
from scorekeeper.vision.detections import Detections

WHITE = DieLook(body=(238, 238, 236), pips=(25, 25, 25), corner=0.18)
BLUE = DieLook(body=(190, 90, 30), pips=(240, 240, 240), corner=0.18)
SPOTS = [(70, 70), (190, 60), (320, 80), (90, 200), (220, 190), (340, 210)]


def throw(values: list[int], wild: int | None, red_faces: list[int], *, seed: int = 1, light: str = "daylight", exposure: float = 1.0, turn: float = 0.0) -> tuple[np.ndarray, Detections]:
    """Six dice or fewer at ``SPOTS``: die ``wild`` the blue wild die, die i's red face ``red_faces[i]``."""
    dice = tuple(
        DiePose(x, y, 46, 17 + 31 * i + turn, value, replace(BLUE if i == wild else WHITE, red_face=red_faces[i]), wild=i == wild)
        for i, ((x, y), value) in enumerate(zip(SPOTS, values))
    )
    scene = Scene(400, 270, dice, TableLook(kind="felt", color=(52, 105, 38), color2=(40, 80, 30), seed=seed), light=light, exposure=exposure, seed=seed)
    return render(scene)


def taught() -> DieColours:
    """Taught from one throw: the wild die tapped, and the one red face."""
    image, labels = throw([1, 5, 3, 2, 6, 4], wild=2, red_faces=[2, 3, 1, 4, 6, 1])
    assert labels.marks == ("", "", "w", "", "r", "")
    colours = DieColours()
    colours.learn(image, labels.boxes, 2, [4])
    return colours


@pytest.mark.parametrize(
    ("values", "wild", "light", "exposure"),
    [([4, 4, 2, 6, 1, 5], 0, "daylight", 1.0), ([3, 1, 1, 5, 2, 6], 5, "warm", 0.85), ([6, 5, 4, 3, 2, 1], 3, "daylight", 1.25), ([2, 2, 3], 1, "dim", 1.1)],
)
def test_one_taught_throw_tells_the_wild_die_and_red_pips_in_other_throws(values: list[int], wild: int, light: str, exposure: float) -> None:
    colours = taught()
    red_faces = [value if i in (0, 2, 5) else value % 6 + 1 for i, value in enumerate(values)]  # dice 0, 2 and 5 show their red face
    image, labels = throw(values, wild, red_faces, seed=9, light=light, exposure=exposure, turn=40)
    judged = colours.judge(image, labels.boxes)
    assert [die.mark for die in judged] == list(labels.marks)
    assert all(die.sure for die in judged)
    assert [die.mark for die in colours.judge(image, labels.boxes, wild_in_roll=True)] == list(labels.marks)


def test_a_roll_without_the_wild_die_has_none() -> None:
    image, labels = throw([4, 4, 2, 6], None, [1, 1, 1, 1], seed=4)
    judged = taught().judge(image, labels.boxes)
    assert [die.mark for die in judged] == ["", "", "", ""] and all(die.sure for die in judged)
    told = taught().judge(image, labels.boxes, wild_in_roll=False)
    assert not any(die.is_wild for die in told) and all(die.wild_sure for die in told)


def test_what_was_never_taught_is_unsure() -> None:
    image, labels = throw([4, 4, 2], 1, [4, 1, 1])
    judged = DieColours().judge(image, labels.boxes)
    assert not any(die.wild_sure or die.red_sure for die in judged)
    assert {die.wild for die in judged} == {0.5} and {die.red for die in judged} == {0.5}
    wild_only = DieColours()
    first, first_labels = throw([1, 5, 3], 2, [2, 2, 2])
    wild_only.learn(first, first_labels.boxes, 2, None)
    assert wild_only.knows_wild and not wild_only.knows_red
    judged = wild_only.judge(image, labels.boxes)
    assert [die.is_wild for die in judged] == [False, True, False] and all(die.wild_sure and not die.red_sure for die in judged)


def test_a_die_of_a_colour_never_taught_is_not_taken_for_either() -> None:
    colours = taught()
    purple = DieLook(body=(40, 160, 40), pips=(240, 240, 240), corner=0.18)  # a green die from another set
    image, labels = render(
        Scene(400, 270, (DiePose(70, 70, 46, 10, 3, WHITE), DiePose(220, 190, 46, 50, 4, purple)), TableLook(kind="felt", color=(52, 105, 38), seed=1), seed=1)
    )
    judged = colours.judge(image, labels.boxes)
    assert judged[0].wild_sure and not judged[0].is_wild
    assert not judged[1].wild_sure


def test_the_roll_is_unsure_of_the_wild_die_when_two_dice_are_close() -> None:
    known = np.ones(4, bool)
    plain = np.full(4, 0.1)
    judged = decide_roll(np.array([0.8, 0.1, 0.75, 0.05]), known, plain, known)
    assert [die.is_wild for die in judged] == [True, False, False, False]
    assert [die.wild_sure for die in judged] == [False, True, False, True]
    assert all(die.red_sure and not die.is_red for die in judged)
    # one die stands out and the rest are plainly not wild: sure
    judged = decide_roll(np.array([0.8, 0.1, 0.2, 0.05]), known, plain, known)
    assert [die.mark for die in judged] == ["w", "", "", ""] and all(die.wild_sure for die in judged)
    # likelier wild than not, but not by the margin: the likeliest is taken and asked about
    judged = decide_roll(np.array([0.55, 0.1, 0.2, 0.05]), known, plain, known)
    assert [die.is_wild for die in judged] == [True, False, False, False] and not judged[0].wild_sure and judged[1].wild_sure
    # told the wild die is among them, the likeliest is it even below even, where the rest are plainly not
    judged = decide_roll(np.array([0.45, 0.1, 0.2, 0.05]), known, plain, known, wild_in_roll=True)
    assert [die.mark for die in judged] == ["w", "", "", ""] and all(die.wild_sure for die in judged)
    # a die that cannot be told makes the roll unsure, and is never the sure wild die
    judged = decide_roll(np.array([0.1, 0.5, 0.2, 0.05]), np.array([True, False, True, True]), plain, known)
    assert [(die.is_wild, die.wild_sure) for die in judged] == [(False, True), (False, False), (False, True), (False, True)]
    # red pips: sure only beyond the margin either way, and only where told
    judged = decide_roll(plain, known, np.array([0.9, 0.55, 0.3, 0.5]), np.array([True, True, True, False]))
    assert [(die.is_red, die.red_sure) for die in judged] == [(True, True), (True, False), (False, True), (False, False)]
    with pytest.raises(ValueError, match="one likelihood of each kind per die, got 4, 4, 3 and 4"):
        decide_roll(plain, known, plain[:3], known)


def test_results_and_taps_are_checked() -> None:
    with pytest.raises(ValueError, match="wild likelihood must be a number 0-1, got 1.5"):
        DieColour(1.5, 0.0, True, False, True, True)
    image, labels = throw([1, 2], 0, [1, 1])
    with pytest.raises(ValueError, match="one of the 2 dice tapped, got index 2"):
        DieColours().learn(image, labels.boxes, 2, [])
    with pytest.raises(ValueError, match="among the 2 dice tapped, got indices \\[0, 5\\]"):
        DieColours().learn(image, labels.boxes, 0, [5, 0])


class FakeJudge:
    """A judge that says the first die is the wild one, sure."""

    def judge(self, frame: np.ndarray, boxes: np.ndarray, *, wild_in_roll: bool | None = None) -> tuple[DieColour, ...]:
        return tuple(DieColour(1.0 if i == 0 else 0.0, 0.0, i == 0, False, True, True) for i in range(len(boxes)))


def test_a_fake_judge_stands_in_for_the_learned_one() -> None:
    judges: list[ColourJudge] = [FakeJudge(), taught()]
    image, labels = throw([3, 1], 0, [1, 1])
    assert [[die.mark for die in judge.judge(image, labels.boxes)] for judge in judges] == [["w", ""], ["w", "r"]]


def test_die_colours_are_kept_beside_the_profile_and_read_back(tmp_path: Path) -> None:
    colours = taught()
    path = colours_file_for(tmp_path / "kitchen.toml")
    assert path.name == "kitchen.colours.npz"
    colours.save(path)
    again = DieColours.load(path)
    assert np.array_equal(again.wild, colours.wild) and np.array_equal(again.table, colours.table) and np.allclose(again.bodies, colours.bodies) and np.allclose(again.pips, colours.pips, equal_nan=True)
    image, labels = throw([4, 4, 2, 6, 1, 5], 0, [4, 1, 1, 1, 1, 1], seed=3)
    assert again.judge(image, labels.boxes) == colours.judge(image, labels.boxes)


def npz(**arrays: object) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()


GOOD = {"format": np.array(1), "bodies": np.zeros((2, 3)), "wild": np.array([1, 0], np.int8), "pips": np.zeros((2, 3)), "red": np.array([0, -1], np.int8), "table": np.ones(3)}


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not a zip at all", "is damaged or not a die colours file"),
        (npz(**{**GOOD, "format": np.array(7)}), "is of format 7; this scorekeeper reads format 1"),
        (npz(**{k: v for k, v in GOOD.items() if k != "pips"}), "lacks pips: it is not a die colours file"),
        (npz(**{**GOOD, "bodies": np.zeros((3, 3))}), "holds arrays of shapes \\(3, 3\\), \\(2,\\), \\(2, 3\\), \\(2,\\) and \\(3,\\)"),
        (npz(**{**GOOD, "red": np.array([0, 4], np.int8)}), "holds labels other than -1, 0 and 1"),
        (npz(**{**GOOD, "bodies": np.array([[0, 0, np.nan], [0, 0, 0]])}), "holds colours that are not numbers"),
        (npz(**{**GOOD, "wild": np.array(["a", "b"])}), "holds colours that are not numbers"),
        (npz(**{**GOOD, "bodies": np.array([[object()] * 3] * 2, dtype=object)}), "is damaged or not a die colours file"),
    ],
)
def test_a_bad_die_colours_file_is_refused_saying_what_to_do(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "kitchen.colours.npz"
    path.write_bytes(content)
    with pytest.raises(DieColoursFileError, match=message) as caught:
        DieColours.load(path)
    assert str(path) in str(caught.value) and "teaching step" in str(caught.value)


def test_a_missing_die_colours_file_says_how_to_learn_them(tmp_path: Path) -> None:
    with pytest.raises(DieColoursFileError, match="does not exist; tap the wild die"):
        DieColours.load(tmp_path / "none.colours.npz")


def test_recolouring_paints_a_white_die_blue_and_its_pips_red_and_picks_only_white_dice() -> None:
    red_die = DieLook(body=(40, 40, 200), pips=(240, 240, 240), corner=0.15)
    image, labels = render(Scene(400, 270, (DiePose(100, 100, 60, 10, 5, WHITE), DiePose(260, 150, 60, 30, 5, red_die)), TableLook(kind="felt", seed=2), seed=2))
    assert [light_die_dark_pips(image, box) for box in labels.boxes] == [True, False]
    painted = recoloured(image, labels.boxes[0], body=WILD_LAB, pips=RED_LAB)
    assert np.array_equal(painted[:, 200:], image[:, 200:])  # nothing else touched
    bodies, pips = die_features(painted, labels.boxes[:1])
    before_bodies, before_pips = die_features(image, labels.boxes[:1])
    assert bodies[0][2] < -30 and abs(before_bodies[0][2]) < 5  # blue (b below zero) where it was white
    assert pips[0][1] > 30 and abs(before_pips[0][1]) < 5  # red pips (a above zero) where they were black


def test_recoloured_real_dice_are_told_after_one_taught_photo() -> None:
    folder = shared_data_folder("byler_d6", "images", "labels", "split.csv")
    items = with_label_fixes(load_dataset(folder), folder)[0][:150]
    rolls = photo_rolls(items, seed=54)
    assert len(rolls) >= 12 and any(roll.red for roll in rolls)
    teacher = marked_photo(next(item for item in items if item.path.stem == rolls[0].name), np.random.default_rng(1), teaching=True)
    assert teacher is not None and teacher.wild is not None and teacher.red
    result = measure(teach(teacher), rolls[1:])
    assert result.wild.wrong == 0 and result.wild.right >= 0.9 * result.wild.total
    assert result.red.wrong <= 0.02 * result.red.total and result.red.right >= 0.85 * result.red.total
    assert result.red_faces.right >= 0.6 * result.red_faces.total


def test_demo_throws_are_told_after_one_taught_throw() -> None:
    table = DemoTable(480, 360, seed=3, realtime=False, wild=True, spicy=True)
    frames = []
    for _ in range(4):
        table.expect(6)  # the game asks for the next throw; the dice lie until it does
        frames += [table.read() for _ in range(160)]
    film = settled_rolls((frame.image, frame.truth) for frame in frames if frame is not None and frame.truth is not None)
    teacher = next(roll for roll in film if roll.wild is not None and roll.red and len(roll.labels) == 6)
    result = measure(teach(teacher), [roll for roll in film if roll is not teacher])
    assert result.wild.total >= 3 and result.wild.right == result.wild.total
    assert result.red.wrong == 0 and result.red.right >= 0.9 * result.red.total
