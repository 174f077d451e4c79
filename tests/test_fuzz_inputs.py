"""Fuzz every reader of files with damaged, nested, huge and non-UTF-8 versions of real files, and
every command form that takes a file with targets that are not files of its kind.

Each reader must either read the file or raise a ``ValueError`` (every error of the project is
one) whose message names the file and stays short, and must leave the file as it was. A damaged
journal opened to go on with is the one exception that writes: it is then kept aside byte for
byte, and the game before the damage goes on under its name. A named pipe, a device, a 2 GB sparse
file, a folder, a loop of links or a link to nothing is refused at once, unread, saying what it is
(``tests/bad_targets.py``).
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.cli import main
from scorekeeper.game import Game, load_game, save_game
from scorekeeper.game.journal import Journal, open_journal, read_journal
from scorekeeper.rules import load_rules, rules_to_toml
from tests.bad_targets import FORMS, SAYS, summary, try_all

EXAMPLES = 60
FUZZ = settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
MAX_MESSAGE = 600
"""The longest error message, not counting the file names in it."""


def game() -> Game:
    played = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00")
    for roll, keep in (("1 1 5 2 3 4", "1 1 5"), ("5 2 3 4 6 6", "5")):
        played.roll(roll)
        played.keep(keep)
        played.bank()
    played.roll("2 2 2 3 4 6")
    return played


def journal_bytes(folder: Path) -> bytes:
    path = folder / "seed.jsonl"
    if not path.exists():
        journal = Journal.create(path)
        for event in game().events:
            journal.write(event)
        journal.close()
    return path.read_bytes()


def save_bytes(folder: Path) -> bytes:
    path = folder / "seed.json"
    if not path.exists():
        save_game(game(), path)
    return path.read_bytes()


@st.composite
def damaged(draw: st.DrawFn, original: bytes) -> bytes:
    """``original`` cut, overwritten, or with something hostile put in at a random place."""
    at = draw(st.integers(0, len(original)))
    kind = draw(st.sampled_from(["cut", "bytes", "nested", "digits", "not-utf8", "long-line", "junk"]))
    if kind == "cut":
        return original[:at]
    if kind == "bytes":
        return original[:at] + draw(st.binary(min_size=1, max_size=16)) + original[at + draw(st.integers(0, 16)) :]
    if kind == "nested":
        depth = draw(st.sampled_from([33, 1_000, 100_000]))
        opener, closer = draw(st.sampled_from([(b"[", b"]"), (b'{"a":', b"}")]))
        return original[:at] + opener * depth + b"1" + closer * depth + original[at:]
    if kind == "digits":
        return original[:at] + b"9" * draw(st.sampled_from([21, 4_301, 100_000])) + original[at:]
    if kind == "not-utf8":
        return original[:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) + original[at:]
    if kind == "long-line":
        return original[:at] + b"x" * 2_000_000 + original[at:]
    return draw(st.binary(max_size=200))


def assert_short(message: str, path: Path | None) -> None:
    """``message`` names ``path`` (a file, or the folder of the file at fault) and says the rest briefly."""
    if path is not None:
        assert str(path) in message, message[:MAX_MESSAGE]
        message = message.replace(str(path), "")
    assert len(message) < MAX_MESSAGE, message[:MAX_MESSAGE]


def check(path: Path, content: bytes, read: Callable[[Path], Any], named: Path | None = None, says_where: bool = True) -> None:
    """``read`` either reads ``path`` or raises a short ValueError naming ``named`` (``path`` unless
    given; nothing when the reader leaves that to its callers); the file stays as it was."""
    path.write_bytes(content)
    try:
        read(path)
    except ValueError as exc:
        assert_short(str(exc), (named or path) if says_where else None)
    assert path.read_bytes() == content


def run_cli(*argv: str) -> tuple[int, str]:
    stdin, stderr = sys.stdin, sys.stderr
    sys.stdin, sys.stderr = io.StringIO("q\n"), io.StringIO()
    try:
        status = main(list(argv))
        return status, sys.stderr.getvalue()
    finally:
        sys.stdin, sys.stderr = stdin, stderr


@FUZZ
@given(data=st.data())
def test_saved_games(tmp_path: Path, data: st.DataObject) -> None:
    content = data.draw(damaged(save_bytes(tmp_path)))
    check(tmp_path / "game.json", content, load_game)


@FUZZ
@given(data=st.data())
def test_journals_read(tmp_path: Path, data: st.DataObject) -> None:
    content = data.draw(damaged(journal_bytes(tmp_path)))
    check(tmp_path / "game.jsonl", content, read_journal)


@FUZZ
@given(data=st.data())
def test_journals_opened_keep_the_damaged_file_byte_for_byte(tmp_path: Path, data: st.DataObject) -> None:
    content = data.draw(damaged(journal_bytes(tmp_path)))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "game.jsonl"
    path.write_bytes(content)
    try:
        recovered = open_journal(path)
    except ValueError as exc:
        assert_short(str(exc), path)
        assert path.read_bytes() == content and len(list(folder.iterdir())) == 1
        return
    recovered.journal.close()
    if recovered.damage is None:
        assert path.read_bytes() == content
    else:
        damage = recovered.damage
        assert damage.kept_as is not None and damage.kept_as.read_bytes() == content
        lines = content.split(b"\n")
        if not lines[-1]:
            lines.pop()
        last = damage.stopped_at - 1 if damage.stopped_at else len(lines)
        taken = [*range(1, damage.line), *(n for n in range(damage.line, last + 1) if n not in damage.skipped)]
        kept = path.read_bytes().split(b"\n")
        assert kept.pop() == b"" and len(kept) == len(taken), "whole lines only, one for each line kept"
        assert all(line == lines[n - 1] for line, n in zip(kept, taken) if n not in damage.repaired), "each as it was"
        assert read_journal(path).damage is None and read_journal(path).events == recovered.game.events
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]


@FUZZ
@given(data=st.data(), saved=st.booleans())
def test_export_and_play_resume(tmp_path: Path, data: st.DataObject, saved: bool) -> None:
    content = data.draw(damaged(save_bytes(tmp_path) if saved else journal_bytes(tmp_path)))
    path = tmp_path / ("game.json" if saved else "game.jsonl")
    path.write_bytes(content)
    for argv in (["export", str(path), "--format", "csv", "-o", str(tmp_path / "sheet.csv")], ["play", "--resume", str(path)]):
        before = path.read_bytes()
        status, err = run_cli(*argv)
        assert status in (0, 2)
        if status == 2:
            assert_short(err, path)
            assert path.read_bytes() == before


@FUZZ
@given(data=st.data())
def test_rule_files(tmp_path: Path, data: st.DataObject) -> None:
    original = rules_to_toml(load_rules("house-2009")).encode()
    check(tmp_path / "ours.toml", data.draw(damaged(original)), load_rules)


@FUZZ
@given(data=st.data())
def test_calibration_profiles(tmp_path: Path, data: st.DataObject) -> None:
    from scorekeeper.camera.calibration import load_profile

    toml = data.draw(st.booleans())
    original = (Path(__file__).parent.parent / "calibration" / "default.toml").read_bytes()
    if not toml:
        original = json.dumps({"settle_frames": 10, "confidence": 0.6}).encode()
    check(tmp_path / ("profile.toml" if toml else "profile.json"), data.draw(damaged(original)), load_profile)


@FUZZ
@given(data=st.data())
def test_label_and_split_files(tmp_path: Path, data: st.DataObject) -> None:
    from scorekeeper.evaluation.dataset import load_dataset

    (tmp_path / "images").mkdir(exist_ok=True)
    (tmp_path / "labels").mkdir(exist_ok=True)
    cv2.imwrite(str(tmp_path / "images" / "a.png"), np.zeros((40, 60, 3), np.uint8))
    labels = data.draw(damaged(b"0 0.5 0.5 0.2 0.2\n5 0.25 0.75 0.1 0.1\n"))
    split = data.draw(damaged(b"stem,split\na,test\n"))
    (tmp_path / "split.csv").write_bytes(split)
    check(tmp_path / "labels" / "a.txt", labels, lambda _: load_dataset(tmp_path, split="test"), named=tmp_path)
    assert (tmp_path / "split.csv").read_bytes() == split


@FUZZ
@given(data=st.data())
def test_corrections_index(tmp_path: Path, data: st.DataObject) -> None:
    from scorekeeper.vision.corrections import INDEX, load_corrections

    record = {"file": "a.png", "box": [1, 1, 9, 9], "size": [20, 20], "was": 3, "now": 5}
    original = (json.dumps(record) + "\n").encode()
    folder = tmp_path / "corrections"
    folder.mkdir(exist_ok=True)
    check(folder / INDEX, data.draw(damaged(original)), lambda _: load_corrections(folder))


@FUZZ
@given(data=st.data(), suffix=st.sampled_from([".png", ".jpg", ".bmp", ".webp", ".tiff"]))
def test_images(tmp_path: Path, data: st.DataObject, suffix: str) -> None:
    from scorekeeper.vision.images import load_frame

    original = cv2.imencode(suffix, np.full((24, 32, 3), 128, np.uint8))[1].tobytes()
    content = data.draw(damaged(original))
    if data.draw(st.booleans()) and len(content) > 30:
        # claim a giant size in the header's first size fields, as a hostile file would
        at = data.draw(st.integers(12, 26))
        content = content[:at] + b"\x7f\xff\xff\xff" + content[at + 4 :]
    # load_frame says what is wrong; its caller (``scorekeeper read``) puts the file name before it
    check(tmp_path / f"photo{suffix}", content, load_frame, says_where=False)


@FUZZ
@given(data=st.data())
def test_the_model_manifest(tmp_path: Path, data: st.DataObject) -> None:
    from scorekeeper.vision.reader import MANIFEST_FILE, ModelFiles, default_model_dir

    original = (default_model_dir() / MANIFEST_FILE).read_bytes()
    check(tmp_path / MANIFEST_FILE, data.draw(damaged(original)), lambda _: ModelFiles.load(tmp_path), named=tmp_path)


def test_the_seed_files_read_whole(tmp_path: Path) -> None:
    """What the fuzz tests see is the damage alone: the files they start from are good."""
    save_bytes(tmp_path)
    journal_bytes(tmp_path)
    assert load_game(tmp_path / "seed.json").events == game().events
    assert read_journal(tmp_path / "seed.jsonl").events == game().events


@pytest.mark.parametrize("form", list(FORMS))
def test_every_command_refuses_a_target_that_is_not_a_file_of_its_kind(form: str) -> None:
    runs = try_all([form])
    assert len(runs) == len(SAYS)
    assert all(ran.outcome == "clear" for ran in runs), summary(runs)


def test_a_pdf_export_run_off_the_main_thread_leaves_the_qt_application_in_the_main_thread() -> None:
    # in a process of its own, where no Qt application has been started yet
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from bad_targets import try_all\n"
        "from PySide6.QtCore import QThread\n"
        "from PySide6.QtWidgets import QApplication\n"
        "runs = try_all(['export -o pdf'], ['sparse'])\n"
        "app = QApplication.instance()\n"
        "print(len(runs), app is not None and app.thread() is QThread.currentThread())\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "True"]
