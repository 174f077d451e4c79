"""Bad input and interrupted writes, one test per class of defect (issue 42): a clear message and
exit status 2, never a traceback; no input changed; no game overwritten or hidden; every write and
every recovery restartable."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from scorekeeper.cli import main
from tests.test_cli import run_cli
from scorekeeper.game import Game, SaveFileError, load_game, save_game
from scorekeeper.game.games_folder import unfinished_games
from scorekeeper.game.journal import FORMAT, Journal, open_journal, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.rules import IllegalAction, RuleFileError, load_rules

ROOT = Path(__file__).resolve().parent.parent
NESTED = "[" * 200_000 + "]" * 200_000
BIG_NUMBER = "9" * 5_000


def played(path: Path | None = None) -> Game:
    """A short game (written to a journal at ``path`` when given)."""
    journal = Journal.create(path) if path is not None else None
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write if journal else None)
    game.roll("1 1 5 2 3 4")
    game.keep("1 1 5")
    game.bank()
    game.roll("5 2 3 4 6 6")
    if journal is not None:
        journal.close()
    return game


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# 1. Nesting, huge numbers and bytes that are not UTF-8, wherever a file is read


@pytest.mark.parametrize(
    "text",
    [NESTED, '{"format": "scorekeeper-game", "version": ' + BIG_NUMBER + ', "events": []}', "\udcff"],
    ids=["nested", "5000-digit-version", "not-utf8"],
)
def test_a_hostile_saved_game_is_refused_clearly_by_export_and_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    path = tmp_path / "d.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    before = snapshot(tmp_path)
    for argv in (["export", str(path), "--format", "csv", "-o", str(tmp_path / "x.csv")], ["play", "--resume", str(path)]):
        status, _, err = run_cli(capsys, *argv)
        assert status == 2 and str(path) in err and len(err) < 400, err
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "line", [NESTED, '{"type": "points", "points": ' + BIG_NUMBER + "}", '"\udcff"'], ids=["nested", "5000-digits", "not-utf8"]
)
def test_a_hostile_journal_line_is_damage_at_that_line_and_the_game_before_it_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    home = tmp_path / "home"
    games = home / "games"
    games.mkdir(parents=True)
    good = games / "good.jsonl"
    played(good)
    bad = games / "bad.jsonl"
    bad.write_bytes(good.read_bytes() + line.encode("utf-8", "surrogateescape") + b"\n")
    before = bad.read_bytes()
    number = len(good.read_bytes().splitlines()) + 1
    damage = read_journal(bad).damage
    assert damage is not None and damage.line == number and len(str(damage)) < 400
    status, _, err = run_cli(capsys, "export", str(bad), "-o", str(tmp_path / "x.csv"))
    assert status == 0 and f"line {number}" in err
    assert bad.read_bytes() == before
    # the window's start-up lists both games; neither hides the other
    assert set(unfinished_games(home)) == {good, bad}


# 2. Typed commands that str.isdigit takes and int refuses, and very long ones


@pytest.mark.parametrize("typed", ["²", "p ²", BIG_NUMBER, "p " + BIG_NUMBER, "1" * 100_000, "c ² 5"])
def test_play_answers_any_typed_line_with_a_short_message(capsys: pytest.CaptureFixture[str], typed: str) -> None:
    status, out, err = run_cli(capsys, "play", "--players", "Ann,Bob", stdin=f"{typed}\n115234\n1\nb\nq\n")
    assert status == 0 and err == ""
    answer = out.splitlines()[out.splitlines().index("Ann (0), new turn: roll 6 dice and type them") + 1]
    assert len(answer) < 300, answer
    assert "Ann      " in out or " > Bob" in out  # the game went on after it: Ann banked 250
    assert " 250" in out


# 3. Writes that fail


def test_a_score_sheet_that_cannot_be_written_is_a_clear_error_in_every_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "g.json"
    save_game(played(), saved)

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    for kind in ("csv", "html", "pdf"):
        status, out, err = run_cli(capsys, "export", str(saved), "-o", str(tmp_path / f"sheet.{kind}"))
        assert status == 2 and out == "", kind
        assert f"sheet.{kind}: cannot write the score sheet: Permission denied" in err
    assert not list(tmp_path.glob("sheet*"))


# 4. A score sheet or a save never replaces a game


@pytest.mark.parametrize("kind", ["csv", "html", "pdf"])
def test_an_export_never_writes_over_a_journal_or_a_saved_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    journal = tmp_path / "g.jsonl"
    played(journal)
    saved = tmp_path / "s.json"
    save_game(played(), saved)
    before = snapshot(tmp_path)
    for source, target in ((journal, journal), (saved, saved), (journal, saved), (saved, journal)):
        status, _, err = run_cli(capsys, "export", str(source), "--format", kind, "-o", str(target))
        assert status == 2 and "holds a game" in err and "choose another file name" in err
    assert snapshot(tmp_path) == before


def test_play_never_saves_over_a_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "g.jsonl"
    played(journal)
    before = journal.read_bytes()
    status, _, err = run_cli(capsys, "play", "--players", "Ann,Bob", "--save", str(journal))
    assert status == 2 and "journal" in err
    status, out, _ = run_cli(capsys, "play", "--players", "Ann,Bob", stdin=f"save {journal}\nq\n")
    assert "Not allowed" in out and "journal" in out
    assert journal.read_bytes() == before


# 5. Recovery and atomic writes cut off at any step


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no except clause for errors catches it."""


@pytest.mark.parametrize("step", range(4), ids=["link-aside", "sync-good-part", "rename-into-place", "sync-folder"])
def test_a_recovery_cut_off_at_any_step_is_done_again_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: int
) -> None:
    home = tmp_path / "home"
    games = home / "games"
    games.mkdir(parents=True)
    path = games / "g.jsonl"
    events = played(path).events
    damaged = path.read_bytes() + b'{"type":"rolled","dice":[1,'
    path.write_bytes(damaged)
    calls = []
    for name in ("link", "fsync", "replace"):
        real = getattr(os, name)

        def cut(*args: object, _real: object = real, _name: str = name) -> object:
            calls.append(_name)
            if len(calls) > step:
                raise Killed
            return _real(*args)  # type: ignore[operator]

        monkeypatch.setattr(os, name, cut)
    with pytest.raises(Killed):
        open_journal(path)
    monkeypatch.undo()
    # the next start: the game is offered, opens whole, and only the damaged file is kept aside
    assert unfinished_games(home) == [path]
    recovered = open_journal(path)
    recovered.journal.close()
    assert recovered.game.events == events
    names = sorted(p.name for p in games.iterdir())
    assert len(names) == 2 and names[1] == "g.jsonl" and names[0].startswith("g.damaged-"), names
    assert (games / names[0]).read_bytes() == damaged


def test_a_recovery_an_older_scorekeeper_left_half_done_is_finished(tmp_path: Path) -> None:
    home = tmp_path / "home"
    games = home / "games"
    games.mkdir(parents=True)
    path = games / "g.jsonl"
    events = played(path).events
    # the old order: the damaged file renamed aside first, killed before the good part took its name
    path.rename(games / "g.damaged-20260101-200000.jsonl")
    (games / ".g.jsonl.recovering").write_bytes((games / "g.damaged-20260101-200000.jsonl").read_bytes())
    assert unfinished_games(home) == [path]
    assert read_journal(path).events == events
    assert not list(games.glob(".*"))


def test_play_save_writes_the_file_before_the_first_scoreboard_and_clears_killed_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "g.json"
    left = [tmp_path / ".g.json.k1ll3d__.tmp", tmp_path / ".g.json.0ther___.tmp"]
    for stray in left:
        stray.write_text("half a save")

    class Stdin(io.StringIO):
        def readline(self, *args: object) -> str:
            assert load_game(saved).state.players[0].name == "Ann"
            assert not any(stray.exists() for stray in left)
            return super().readline()

    sys.stdin = Stdin("q\n")
    try:
        assert main(["play", "--players", "Ann,Bob", "--save", str(saved)]) == 0
    finally:
        sys.stdin = sys.__stdin__
    assert "go on with --resume" in capsys.readouterr().out


# 6. Giant images are refused from their header, before any decode


def test_a_giant_image_is_refused_from_its_header_without_decoding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.camera.sources import ImageFolderSource
    from scorekeeper.evaluation.dataset import DatasetError, load_dataset
    from scorekeeper.vision.images import ImageError, load_frame

    (tmp_path / "images").mkdir()
    giant = tmp_path / "images" / "giant.png"
    # a real PNG header claiming 20000 x 20000 grey pixels (400 M): what decoding would allocate
    small = cv2.imencode(".png", np.zeros((8, 8), np.uint8))[1].tobytes()
    giant.write_bytes(small[:16] + (20000).to_bytes(4, "big") * 2 + small[24:])

    def no_decode(*args: object) -> None:
        raise AssertionError("decoded a giant image")

    monkeypatch.setattr(cv2, "imdecode", no_decode)
    monkeypatch.setattr(cv2, "imread", no_decode)
    with pytest.raises(ImageError, match="20000x20000"):
        load_frame(giant)
    with pytest.raises(DatasetError, match=f"{giant}: image too big: 20000x20000"):
        load_dataset(tmp_path)
    with ImageFolderSource(tmp_path / "images") as source:
        assert source.read() is None and source.skipped == [giant]


# 7. The window with a journal it cannot resume, or a screenshot it cannot save


@pytest.mark.parametrize(
    "content",
    [b"", bytes(range(256)), b'{"format":"scorekeeper-journal","version":9}\n', b'{"format":"scorekeeper-journal","version":1}\n', None],
    ids=["empty", "binary", "newer", "header-only", "missing"],
)
def test_the_window_refuses_an_unresumable_journal_before_it_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, content: bytes | None
) -> None:
    import scorekeeper.ui.app

    def no_window(*args: object) -> int:
        raise AssertionError("the window opened")

    monkeypatch.setattr(scorekeeper.ui.app, "run_window", no_window)
    path = tmp_path / "g.jsonl"
    if content is not None:
        path.write_bytes(content)
    status, _, err = run_cli(capsys, "--resume", str(path), "--screenshot", str(tmp_path / "s.png"), "--after", "1")
    assert status == 2 and str(path) in err and "None" not in err


@pytest.mark.slow
def test_a_screenshot_that_cannot_be_saved_says_so(tmp_path: Path) -> None:
    shot = tmp_path / "no folder" / "s.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SCOREKEEPER_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--source", "demo", "--screenshot", str(shot), "--after", "1"],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 2 and f"cannot save the screenshot to {shot}" in done.stderr


@pytest.mark.slow
def test_the_window_resumes_a_game_whose_journal_ends_in_hostile_nesting(tmp_path: Path) -> None:
    journal = tmp_path / "g.jsonl"
    played(journal)
    damaged = journal.read_bytes() + NESTED.encode() + b"\n"
    journal.write_bytes(damaged)
    shot = tmp_path / "s.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "SCOREKEEPER_HOME": str(tmp_path / "home")}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "--source", "demo", "--resume", str(journal), "--screenshot", str(shot), "--after", "1"],
        capture_output=True, text=True, env=env, timeout=120, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.is_file()
    [aside] = tmp_path.glob("g.damaged-*.jsonl")
    assert aside.read_bytes() == damaged and read_journal(journal).damage is None


# 8. Names, points and rule values bounded to what a game can use


def test_a_huge_player_name_is_refused_typed_and_read_from_a_file(tmp_path: Path) -> None:
    with pytest.raises(IllegalAction, match="too long"):
        Game.new(load_rules("retail"), ["Ann", "B" * 50_000_000])
    saved = tmp_path / "g.json"
    save_game(played(), saved)
    document = json.loads(saved.read_text())
    document["events"][1]["name"] = "A" * 1_000_000
    saved.write_text(json.dumps(document))
    with pytest.raises(SaveFileError, match="too long") as caught:
        load_game(saved)
    assert len(str(caught.value)) < 600


def test_a_huge_note_or_roll_source_is_refused() -> None:
    cards = Game.new(load_rules("flip"), ["Ann", "Bob"])
    with pytest.raises(IllegalAction, match="too long"):
        cards.enter_points(400, "n" * 10_000)
    dice = Game.new(load_rules("retail"), ["Ann", "Bob"])
    with pytest.raises(IllegalAction, match="longer than 40"):
        dice.roll("1 2 3 4 5 6", source="s" * 10_000)


def test_the_new_game_dialog_takes_names_no_longer_than_the_game_does(qtbot: Any) -> None:
    from scorekeeper.game.state import MAX_NAME_LENGTH
    from scorekeeper.ui.new_game import NewGameDialog

    dialog = NewGameDialog(())
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.name, "N" * (MAX_NAME_LENGTH + 10))
    dialog.add_player()
    assert dialog.names() == ("N" * MAX_NAME_LENGTH,)
    Game.new(load_rules("retail"), list(dialog.names()))


@pytest.mark.parametrize(
    "line",
    ["[turn]\nentry_minimum = 100000000", '[scoring]\nfour_of_a_kind = "triple x99999999999999999999"',
     "[scoring]\nstraight = 1000000", "[turn]\nfarkle_penalty_streak = 1000", "[scoring]\none = " + BIG_NUMBER,
     "[end]\ntarget = 5000\n[turn]\nentry_minimum = 10000", "a = " + "[" * 5000 + "]" * 5000,
     "[end]\ntarget = 1000050", 'title = "' + "T" * 50_000 + '"'],
)
def test_a_rules_file_with_values_no_game_can_use_is_refused(tmp_path: Path, line: str) -> None:
    path = tmp_path / "ours.toml"
    path.write_text(line + "\n")
    with pytest.raises(RuleFileError) as caught:
        load_rules(path)
    assert str(path) in str(caught.value) and len(str(caught.value)) < 400


def test_the_coach_cache_keeps_a_bounded_number_of_policies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from scorekeeper.coach import cache

    folder = tmp_path / "coach"
    folder.mkdir()
    for index in range(cache.MAX_FILES + 5):
        (folder / f"policy-{index:032x}.npz").write_bytes(b"x" * 100)
        os.utime(folder / f"policy-{index:032x}.npz", (index, index))
    (folder / ".policy-killed.npz.abc.tmp").write_bytes(b"half")
    cache._prune(folder)
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == [f"policy-{index:032x}.npz" for index in range(5, cache.MAX_FILES + 5)]
    monkeypatch.setattr(cache, "MAX_BYTES", 250)
    cache._prune(folder)
    assert len(list(folder.iterdir())) == 2


# 9. Label files and data set folders


@pytest.mark.parametrize(
    "labels",
    ["2 nan 0.5 0.1 0.1", "2 0.5 inf 0.1 0.1", "2 -0.5 0.5 0.1 0.1", "2 0.5 0.5 -0.1 0.1", "2 0.5 0.5 0.1 1e400"],
)
def test_a_label_outside_the_image_names_its_file_and_line(tmp_path: Path, labels: str) -> None:
    from scorekeeper.evaluation.dataset import DatasetError, load_dataset

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((20, 20, 3), np.uint8))
    (tmp_path / "labels" / "a.txt").write_text(f"0 0.5 0.5 0.2 0.2\n{labels}\n")
    with pytest.raises(DatasetError, match=f"{tmp_path / 'labels' / 'a.txt'}:2: "):
        load_dataset(tmp_path)


def test_evaluate_names_the_file_of_unreadable_labels_and_splits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((20, 20, 3), np.uint8))
    label = tmp_path / "labels" / "a.txt"
    label.mkdir()
    status, _, err = run_cli(capsys, "evaluate", str(tmp_path))
    assert status == 2 and f"{label}: is a folder" in err
    label.rmdir()
    label.write_bytes(b"0 0.5 0.5 0.2 0.2\n1 0.5 \xff 0.1 0.1\n")
    status, _, err = run_cli(capsys, "evaluate", str(tmp_path))
    assert status == 2 and f"{label}:2: not UTF-8" in err
    label.write_text("0 0.5 0.5 0.2 0.2\n")
    split = tmp_path / "split.csv"
    split.write_bytes(b"stem,split\na,t\xe9st\n")
    status, _, err = run_cli(capsys, "evaluate", str(tmp_path), "--split", str(split), "test")
    assert status == 2 and f"{split}:2: not UTF-8" in err


# 10. Messages that say what is wrong and what to do, briefly


def test_play_resume_goes_on_with_a_window_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "g.jsonl"
    played(journal)
    status, out, _ = run_cli(capsys, "play", "--resume", str(journal), stdin="5\nb\n")
    assert status == 0 and f"go on with it: scorekeeper play --resume {journal}" in out
    assert [p.score for p in read_journal(journal).game().state.players] == [250, 50]


def test_a_journal_with_only_its_header_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "g.jsonl"
    journal.write_text(json.dumps({"format": FORMAT, "version": 1}) + "\n")
    with pytest.raises(JournalError, match="holds no game yet"):
        open_journal(journal)
    status, _, err = run_cli(capsys, "export", str(journal), "-o", str(tmp_path / "x.csv"))
    assert status == 2 and "holds no game yet" in err and "None" not in err


def test_watch_says_a_folder_is_not_a_video_and_a_file_not_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "a.png"
    photo.write_bytes(b"")
    status, _, err = run_cli(capsys, "watch", f"video:{tmp_path}")
    assert status == 2 and "is a folder, not a video file" in err and f"images:{tmp_path}" in err
    status, _, err = run_cli(capsys, "watch", f"images:{photo}")
    assert status == 2 and "is a file, not a folder of photos" in err


def test_a_damaged_event_is_quoted_briefly(tmp_path: Path) -> None:
    saved = tmp_path / "g.json"
    save_game(played(), saved)
    document = json.loads(saved.read_text())
    document["events"][0]["target"] = "ten thousand"
    saved.write_text(json.dumps(document))
    with pytest.raises(SaveFileError, match="field 'target'") as caught:
        load_game(saved)
    assert len(str(caught.value)) < 300


def test_a_long_bad_roll_is_quoted_briefly(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run_cli(capsys, "score", "--rules", "retail", "1" * 100_000)
    assert status == 2 and "100,000 dice" in err and len(err) < 300


def test_a_model_of_the_wrong_kind_is_refused_when_it_loads(tmp_path: Path) -> None:
    from scorekeeper.vision.reader import FINDER_FILE, MANIFEST_FILE, PIPS_FILE, UNSURE_LINE_FILE, ModelError, OnnxDiceReader, default_model_dir, sha256_of

    for name in (FINDER_FILE, PIPS_FILE, MANIFEST_FILE, UNSURE_LINE_FILE):
        shutil.copy(default_model_dir() / name, tmp_path / name)
    manifest = json.loads((tmp_path / MANIFEST_FILE).read_text())
    manifest["pips"] = {"file": FINDER_FILE, "sha256": sha256_of(tmp_path / FINDER_FILE)}
    (tmp_path / MANIFEST_FILE).write_text(json.dumps(manifest))
    with pytest.raises(ModelError, match="not the kind expected there: it takes frame, where this one must take 'crops'"):
        OnnxDiceReader(tmp_path)
