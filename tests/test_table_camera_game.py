"""A whole game from a recording with no window (``scorekeeper watch --game``): the same score
sheet as the same game typed into ``play``."""

from __future__ import annotations

import argparse
import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from scorekeeper.cli import build_parser
from scorekeeper.cli.play import Session
from scorekeeper.cli.watch import run as watch
from scorekeeper.export import csv_text, score_sheet
from scorekeeper.game import Game
from scorekeeper.game.games_folder import unfinished_games
from scorekeeper.game.journal import read_journal
from scorekeeper.stats.history import CACHE_FILE, history_of
from scorekeeper.export.writers import size_in_words
from scorekeeper.camera.demo_table import Choreography
from scorekeeper.rules import Dice, RuleSet, load_rules
from scorekeeper.table_session.camera_game import CoachChooser
from scorekeeper.testbed.films import FilmReader, write_video


def coached_game(seed: int, max_rolls: int, rules: RuleSet | None = None) -> tuple[list[list[int]], list[str]]:
    """Rolls of a whole game for Ann and Bob (retail unless ``rules`` say otherwise) played by the
    coach, and the same game as the lines typed into ``play``."""
    rng = np.random.default_rng(seed)
    game = Game.new(rules or load_rules("retail"), ["Ann", "Bob"])
    coach = CoachChooser(game.state)
    rolls: list[list[int]] = []
    typed: list[str] = []
    while not game.state.over and len(rolls) < max_rolls:
        state = game.state
        assert state.turn is not None
        roll = [int(v) for v in rng.integers(1, 7, state.turn.dice_left)]
        rolls.append(roll)
        typed.append(" ".join(map(str, roll)))
        game.roll(roll)
        scored = game.state.roll_score()
        assert scored is not None
        if scored.farkle:
            game.farkle()
            typed.append("f")
            continue
        keep = coach.keep(game.state)
        game.keep(keep)
        typed.append(f"k {keep}")
        state = game.state
        if state.can_bank() and (not state.can_roll() or coach.bank(state)):
            game.bank()
            typed.append("b")
    assert game.state.over, "the seed's game ends within max_rolls"
    return rolls, typed


def film_of(rolls: list[list[int]], seed: int, rest: int = 16, empty: int = 16) -> Choreography:
    """Each roll thrown onto the table, at rest for ``rest`` frames (half a second), then picked up."""
    film = Choreography(320, 240, seed=seed)
    film.empty(5)
    for roll in rolls:
        film.throw(roll, frames=10)
        film.rest(rest)
        film.empty(empty)
    return film


COUNTED = re.compile(r"Counted: (\d+) dice, (\d+) read by the camera and (\d+) typed")
"""The statistics' note of where the dice faces came from: the camera's game and the typed one differ there alone."""


def sheet_rows(text: str) -> list[str]:
    """The CSV sheet without its two time stamps, and without saying whether its dice were read or typed."""
    return [COUNTED.sub(r"Counted: \1 dice", line) for line in text.splitlines() if not line.startswith(("started,", "exported,"))]


def read_and_typed(text: str) -> tuple[int, int, int]:
    """The dice faces the sheet's statistics count: all of them, read by the camera, typed."""
    found = COUNTED.search(text)
    assert found is not None, text
    total, read, typed = (int(group) for group in found.groups())
    return total, read, typed


@pytest.mark.slow
def test_a_whole_game_from_a_recording_ends_with_the_sheet_of_the_same_game_typed_into_play(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    rolls, typed = coached_game(seed=11, max_rolls=200)
    film = film_of(rolls, seed=11)
    scenes = film.drain()
    video = tmp_path / "game.avi"
    labels = write_video(scenes, video)
    reader = FilmReader(scenes, labels, seed=3).by_picture(video)

    sheet = tmp_path / "camera.csv"
    args = ["watch", f"video:{video}", "--game", "--rules", "retail", "--players", "Ann,Bob", "--sheet", str(sheet)]
    assert watch(build_parser().parse_args(args), reader=reader) == 0

    played = Game.new(load_rules("retail"), ["Ann", "Bob"])
    Session(played, io.StringIO(), None).run(io.StringIO("\n".join(typed) + "\n"), interactive=False)
    assert played.state.over
    typed_sheet = csv_text(score_sheet(played.events))
    assert sheet_rows(sheet.read_text()) == sheet_rows(typed_sheet)
    total, read, typed_dice = read_and_typed(sheet.read_text())
    assert total > 0 and (read, typed_dice) == (total, 0)
    assert read_and_typed(typed_sheet) == (total, 0, total)



def test_a_decisions_file_makes_the_choices_and_a_bad_line_says_where(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    scenes = film_of([[1, 5, 2, 3, 4, 6], [2, 2, 3, 3], [4, 4, 6, 6, 2, 3]], seed=5).drain()
    video = tmp_path / "turns.avi"
    labels = write_video(scenes, video)
    decisions = tmp_path / "decisions.txt"
    decisions.write_text("# Ann keeps the 1 and the 5, and rolls on\nk 1 5\nr\n")
    args = ["watch", f"video:{video}", "--game", "--players", "Ann,Bob", "--decisions", str(decisions)]
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2).by_picture(video)) == 0
    out = capsys.readouterr().out
    assert "Ann rolls 1 2 3 4 5 6" in out and "keeps 1 5: turn 150" in out
    assert "Ann rolls 2 2 3 3" in out and "FARKLE! Ann's turn ends" in out
    assert "Bob rolls 2 3 4 4 6 6" in out and "The recording ended before the game did." in out

    decisions.write_text("k 1 5\nmaybe\n")
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2).by_picture(video)) == 2
    assert f"{decisions}:2: expected 'b' (bank) or 'r' (roll on), got 'maybe'" in capsys.readouterr().err


def test_a_camera_game_is_kept_in_a_journal_and_a_won_one_in_the_history_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("SCOREKEEPER_HOME", str(home))
    scenes = film_of([[6, 6, 6, 6, 6, 6]], seed=5).drain()
    video = tmp_path / "six-sixes.avi"
    labels = write_video(scenes, video)
    decisions = tmp_path / "decisions.txt"
    decisions.write_text("k 6 6 6 6 6 6\n")
    sheet = tmp_path / "sheet.html"
    args = ["watch", f"video:{video}", "--game", "--rules", "house-2009", "--players", "Ann,Bob", "--decisions", str(decisions), "--sheet", str(sheet)]
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2).by_picture(video)) == 0
    out = capsys.readouterr().out
    assert out.startswith("House rules of 2009: 1,000 to get on the board, six of a kind wins (house-2009), played to 10,000, from the camera: Ann, Bob.\n")
    assert "Game over: Ann wins!" in out and "The game is kept" not in out
    assert out.rstrip().endswith(f"Score sheet written to {sheet}: one self-contained HTML file, the pictures inside ({size_in_words(sheet.stat().st_size)}).")
    [journal] = (home / "games").glob("*.jsonl")
    assert read_journal(journal).game().state.winners == (0,)
    cached = json.loads((home / CACHE_FILE).read_text())["files"]
    assert list(cached) == [journal.name] and cached[journal.name]["game"]["winners"] == [0]
    assert history_of(home).games == 1


def test_a_camera_game_not_over_is_kept_to_go_on_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("SCOREKEEPER_HOME", str(home))
    scenes = film_of([[1, 5, 2, 3, 4, 6]], seed=5).drain()
    video = tmp_path / "one-roll.avi"
    labels = write_video(scenes, video)
    args = ["watch", f"video:{video}", "--game", "--players", "Ann,Bob"]
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2).by_picture(video)) == 0
    out = capsys.readouterr().out
    [journal] = (home / "games").glob("*.jsonl")
    assert out.rstrip().endswith(f"The game is kept in {journal}; go on with it: scorekeeper play --resume {journal}.")
    assert unfinished_games(home) == [journal]
    assert read_journal(journal).game().state.turn.rolls == (Dice.from_str("1 2 3 4 5 6"),)


def test_game_options_without_a_game_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert watch(build_parser().parse_args(["watch", "demo", "--players", "Ann,Bob"])) == 2
    assert "add --game" in capsys.readouterr().err
    assert watch(build_parser().parse_args(["watch", "demo", "--game"])) == 2
    assert "no players" in capsys.readouterr().err


def test_a_roll_with_a_die_not_read_is_taken_back_to_be_thrown_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    scenes = film_of([[1, 5, 2, 3, 4, 6], [1, 5, 2, 3, 4, 6]], seed=6).drain()
    video = tmp_path / "missed.avi"
    labels = write_video(scenes, video)
    first_roll = len(scenes) // 2
    # the reader never sees one die of the first throw
    labels = [label[1:] if i < first_roll and len(label) == 6 else label for i, label in enumerate(labels)]
    args = ["watch", f"video:{video}", "--game", "--players", "Ann,Bob", "--decisions", str(tmp_path / "d.txt")]
    (tmp_path / "d.txt").write_text("k 1 5\nb\n")
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2, miss=0.0).by_picture(video)) == 0
    out = capsys.readouterr().out
    assert "Only 5 of the 6 dice were read: the roll is taken back; throw them again." in out
    assert "Ann banks 150: now 150." in out


def test_under_piggyback_the_decisions_file_takes_the_pot_or_fresh_dice(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 54: "the camera game offers" the piggyback choice; worked out by hand (retail: three 1s 1,000, a 5 50)
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    scenes = film_of([[1, 1, 1, 2, 3, 4], [5, 2, 3], [2, 2, 3, 3, 4, 6]], seed=7).drain()
    video = tmp_path / "pot.avi"
    labels = write_video(scenes, video)
    decisions = tmp_path / "decisions.txt"
    # Ann banks three 1s with 3 dice left; Bob piggybacks on them, keeps a 5 and banks; Ann turns his pot down
    decisions.write_text("k 1 1 1\nb\np\nk 5\nb\nfresh\n")
    args = ["watch", f"video:{video}", "--game", "--variant", "piggyback", "--players", "Ann,Bob", "--decisions", str(decisions)]
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2).by_picture(video)) == 0
    out = capsys.readouterr().out
    assert "Ann banks 1,000: now 1,000." in out
    assert "Bob rolls 2 3 5" in out and "Bob banks 1,050 (1,000 of it piggybacked from Ann): now 1,050." in out
    assert "Ann rolls 2 2 3 3 4 6" in out and "FARKLE! Ann's turn ends with no points scored this turn" in out

    decisions.write_text("k 1 1 1\nb\nmaybe\n")
    assert watch(build_parser().parse_args(args), reader=FilmReader(scenes, labels, seed=2).by_picture(video)) == 2
    assert f"{decisions}:3: expected 'p' (piggyback) or 'fresh' (six fresh dice), got 'maybe'" in capsys.readouterr().err


def test_under_piggyback_the_coach_chooses_for_the_camera_game() -> None:
    game = Game.new(load_rules("retail+piggyback"), ["Ann", "Bob"])
    game.roll("1 1 1 2 3 4")
    game.keep("1 1 1")
    game.bank()  # 1,000 on 3 dice: 13 rolls in 18 keep it (test_piggyback_coach), worth more than six fresh dice
    assert CoachChooser(game.state).piggyback(game.state) is True
    game.fresh_dice()
    game.roll("5 2 3 4 6 6")
    game.keep("5")
    game.bank()  # 50 on 5 dice: less than six fresh dice
    assert CoachChooser(game.state).piggyback(game.state) is False
