"""A whole game played through ``scorekeeper watch ADDRESS --game`` from a phone's MJPEG stream served on
127.0.0.1, the stream dropped mid-roll and brought back: the game ends as the same game typed into ``play``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scorekeeper.camera.demo_table import render_scene
from scorekeeper.cli import build_parser
from scorekeeper.cli.play import Session
from scorekeeper.cli.watch import run as watch
from scorekeeper.export import csv_text, score_sheet
from scorekeeper.game import Game
from scorekeeper.rules import load_rules
from scorekeeper.testbed.films import FilmReader
from scorekeeper.testbed.mjpeg_camera import as_streamed, jpegs, mjpeg_camera
from tests.test_table_camera_game import coached_game, film_of, sheet_rows

THROW, REST, EMPTY = 10, 30, 18
"""Frames of each roll in the film: thrown, at rest (a second), picked up."""


@pytest.mark.slow
def test_a_whole_game_through_a_phone_stream_with_a_drop_mid_roll_ends_right(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    rules_file = tmp_path / "short.toml"
    rules_file.write_text('base = "retail"\ntitle = "Farkle to 1,500"\n[end]\ntarget = 1500\n')
    rules = load_rules(str(rules_file))
    rolls, typed = coached_game(seed=5, max_rolls=40, rules=rules)
    scenes = film_of(rolls, seed=5, rest=REST, empty=EMPTY).drain()
    rendered = [render_scene(scene) for scene in scenes]
    frames = jpegs([image for image, _ in rendered])
    reader = FilmReader(scenes, [labels for _, labels in rendered], seed=4).by_images(as_streamed(frames))
    middle = len(rolls) // 2
    sheet = tmp_path / "camera.csv"
    with mjpeg_camera(frames) as camera:
        # cut mid-picture 8 frames into the middle roll's rest; the phone's app is away for 2 s
        camera.drop_at(5 + middle * (THROW + REST + EMPTY) + THROW + 8, down=2.0)
        args = ["watch", camera.url, "--game", "--rules", str(rules_file), "--players", "Ann,Bob", "--sheet", str(sheet)]
        assert watch(build_parser().parse_args(args), reader=reader) == 0
    assert camera.cut and camera.connections == 2, "the stream was dropped once and opened again"
    out, err = capsys.readouterr()
    assert "stopped: reconnecting by itself" in err and "is back" in err
    assert "The recording ended before the game did." not in out

    played = Game.new(rules, ["Ann", "Bob"])
    Session(played, io.StringIO(), None).run(io.StringIO("\n".join(typed) + "\n"), interactive=False)
    assert played.state.over
    assert sheet_rows(sheet.read_text()) == sheet_rows(csv_text(score_sheet(played.events)))
