"""Whole camera games on the demo table under the wild-die and spicy variants (``watch demo --game
--variant ...``): the table learns the dice's colours from a teaching throw, and each roll's marks
are read from the picture, asked about (the roll thrown again) where they cannot be told, and
never taken wrong."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from numpy.typing import NDArray

import scorekeeper.camera.demo_table as demo_table
from scorekeeper.camera.calibration import default_profile, save_profile
from scorekeeper.cli import build_parser
from scorekeeper.cli.watch import run as watch
from scorekeeper.game import DiceRolled, DieCorrected
from scorekeeper.synthetic.scene import Scene
from scorekeeper.vision.detections import Detections
from scorekeeper.testbed.marked_games import play_marked_demo


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["wild-die", "spicy"])
def test_a_whole_game_on_the_demo_table_reads_the_marks_and_asks_rather_than_guess(variant: str, tmp_path: Path) -> None:
    game, tally, said, throws = play_marked_demo(variant, seed=1, home=tmp_path, target=4000, size=(480, 360))
    assert game.state.over, said[-5:]
    assert 1 <= throws <= 8
    assert tally.wrong == 0, tally.wrong_rolls
    assert tally.right >= 3 * tally.asked and tally.right >= 10, tally.line()
    letter = "w" if variant == "wild-die" else "r"
    rolled = [event.dice for event in game.events if isinstance(event, DiceRolled)]
    assert any(letter in mark for dice in rolled for mark in dice.marks), "marks read by the camera are in the game"
    assert not any(isinstance(event, DieCorrected) for event in game.events), "no one tapped"
    asked = [line for line in said if line.startswith("The camera cannot tell")]
    assert len(asked) == tally.asked and all(line.endswith("the roll is not taken; throw the dice again.") for line in asked)


class LatestLabels:
    """Reads each frame as the demo table labelled the scene it rendered last (the faces are not what is tested)."""

    latest = Detections.empty()

    def read(self, frame: NDArray[np.uint8], dice: int | None = None) -> Detections:
        return LatestLabels.latest


@pytest.mark.slow
def test_watch_plays_the_demo_table_with_a_wild_die_taught_from_a_teaching_throw(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    render = demo_table.render_scene

    def rendered(scene: Scene) -> tuple[NDArray[np.uint8], Detections]:
        image, labels = render(scene)
        LatestLabels.latest = labels
        return image, labels

    monkeypatch.setattr(demo_table, "render_scene", rendered)
    profile = tmp_path / "demo.toml"
    save_profile(replace(default_profile(), resolution=(480, 360)), profile)
    args = ["watch", "demo:2", "--unpaced", "--calibration", str(profile), "--game", "--variant", "wild-die", "--players", "Ann,Bob", "--max-frames", "600"]
    assert watch(build_parser().parse_args(args), reader=LatestLabels()) == 0
    out = capsys.readouterr().out
    assert re.search(r"Taught the table the dice's colours from \d teaching throws?: Dice colours: the table tells the wild die's colour", out), out
    assert re.search(r"(Ann|Bob) rolls [1-6 ]*[1-6]w", out), out
    assert (tmp_path / "demo.colours.npz").is_file(), "kept beside the profile"

    assert watch(build_parser().parse_args([*args[:-1], "20"]), reader=LatestLabels()) == 0
    out = capsys.readouterr().out
    assert "Taught" not in out and "The table tells the dice's marks with what it learned: Dice colours: the table tells the wild die's colour" in out


def test_watch_refuses_a_marked_game_on_a_camera_whose_table_never_learned_the_colours(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import cv2

    photos = tmp_path / "photos"
    photos.mkdir()
    cv2.imwrite(str(photos / "a.png"), np.full((120, 160, 3), 80, np.uint8))
    decisions = tmp_path / "decisions.txt"
    decisions.write_text("1\nb\n")
    args = ["watch", f"images:{photos}", "--game", "--variant", "spicy", "--players", "Ann,Bob", "--decisions", str(decisions)]
    assert watch(build_parser().parse_args(args), reader=LatestLabels()) == 2
    err = capsys.readouterr().err
    assert "the table has not learned what red pips look like" in err and "teach it in the window (Camera, Calibrate" in err
    args = ["watch", f"images:{photos}", "--game", "--variant", "wild-die", "--players", "Ann,Bob"]
    assert watch(build_parser().parse_args(args), reader=LatestLabels()) == 2
    assert "the table has not learned the wild die's colour" in capsys.readouterr().err


def test_watch_under_spicy_asks_for_a_decisions_file_since_the_coach_cannot_advise(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["watch", "demo", "--game", "--variant", "spicy", "--players", "Ann,Bob"]
    assert watch(build_parser().parse_args(args), reader=LatestLabels()) == 2
    err = capsys.readouterr().err
    assert "The coach cannot advise under spicy" in err and "Give the choices between rolls with --decisions FILE." in err
