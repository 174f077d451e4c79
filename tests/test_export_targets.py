"""Where a score sheet may be written (issue 51 item 5, issue 50 item 6): only a regular file, never
a device, a pipe or a socket, never into a game's own folder; an overwritten sheet keeps its mode, a
full disk is said to be one, and Ctrl+C leaves no file and no traceback."""

from __future__ import annotations

import errno
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.cli import main
from scorekeeper.export import ExportError, export_csv, export_html
from scorekeeper.export.writers import check_sheet_target
from scorekeeper.game import Game
from scorekeeper.game.journal import Journal
from scorekeeper.game.photos import photos_folder
from scorekeeper.rules import load_rules
from tests.test_export import EXPORTED, finished_game

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ("csv", "html", "pdf")


def export_pdf(*args: Any, **kwargs: Any) -> None:
    from scorekeeper.export import export_pdf as pdf

    pdf(*args, **kwargs)


WRITERS: dict[str, Callable[..., None]] = {"csv": export_csv, "html": export_html, "pdf": export_pdf}


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    path = tmp_path / "game.jsonl"
    sink = Journal.create(path)
    finished_game(sink.write)
    sink.close()
    return path


@pytest.fixture
def unix_socket() -> Iterator[Path]:
    """A socket file (in a short folder: socket paths are limited to about 100 characters)."""
    folder = Path(tempfile.mkdtemp(prefix="sk-"))
    path = folder / "sheet.csv"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    try:
        yield path
    finally:
        server.close()
        path.unlink(missing_ok=True)
        folder.rmdir()


@pytest.mark.parametrize("kind", FORMATS)
def test_a_sheet_never_replaces_what_is_not_a_regular_file(
    journal: Path, unix_socket: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(journal), "--format", kind, "-o", str(unix_socket)]) == 2
    err = capsys.readouterr().err
    assert f"{unix_socket}: not a regular file (a socket)" in err and "Traceback" not in err
    assert stat.S_ISSOCK(os.stat(unix_socket).st_mode), "the socket was replaced by a sheet"
    assert os.listdir(unix_socket.parent) == ["sheet.csv"]


def test_devices_pipes_and_folders_are_refused_without_being_opened(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    for target, kind in ((Path("/dev/null"), "a device"), (Path("/dev/full"), "a device"), (pipe, "a named pipe (FIFO)"), (tmp_path, "a folder")):
        with pytest.raises(ExportError, match=re.escape(f"not a regular file ({kind}); a score sheet is written only to a regular file")):
            check_sheet_target(target)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode) and stat.S_ISCHR(os.stat("/dev/full").st_mode)


@pytest.mark.parametrize("kind", FORMATS)
def test_a_sheet_is_never_written_into_a_games_own_folder(journal: Path, kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = photos_folder(journal)
    folder.mkdir()
    picture = folder / ("a" * 64 + ".jpg")
    picture.write_bytes(b"\xff\xd8 a roll")
    for target in (picture, folder / f"sheet.{kind}"):
        assert main(["export", str(journal), "--format", kind, "-o", str(target)]) == 2
        err = capsys.readouterr().err
        assert f"{target}: this folder holds the pictures of the game {journal}" in err
    assert sorted(os.listdir(folder)) == [picture.name] and picture.read_bytes() == b"\xff\xd8 a roll"


@pytest.mark.parametrize("kind", FORMATS)
def test_an_overwritten_sheet_keeps_its_mode(tmp_path: Path, kind: str) -> None:
    target = tmp_path / f"private.{kind}"
    WRITERS[kind](finished_game().events, target, "2026-01-01T09:00:00+00:00")
    yesterdays = target.read_bytes()
    target.chmod(0o600)
    WRITERS[kind](finished_game().events, target, EXPORTED)
    assert target.read_bytes() != yesterdays
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


@pytest.mark.parametrize("kind", FORMATS)
def test_a_full_disk_is_said_to_be_one_and_the_old_sheet_stays(tmp_path: Path, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / f"s.{kind}"
    WRITERS[kind](finished_game().events, target, "2026-01-01T09:00:00+00:00")
    before = target.read_bytes()

    def full(descriptor: int) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(ExportError, match=f"{target.name}: cannot write the score sheet: the disk is full"):
        WRITERS[kind](finished_game().events, target, EXPORTED)
    assert target.read_bytes() == before
    assert os.listdir(tmp_path) == [target.name], "a temporary file was left behind"


def long_journal(path: Path, turns: int) -> Path:
    sink = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=sink.write)
    for _ in range(turns):
        game.roll("2 2 3 3 4 6")
        game.farkle()
    sink.close()
    return path


@pytest.mark.slow
@pytest.mark.parametrize("after", [0.0, 0.2])
def test_ctrl_c_during_a_pdf_export_ends_with_one_line_and_leaves_no_file(tmp_path: Path, after: float) -> None:
    game = long_journal(tmp_path / "long.jsonl", 600)
    out = tmp_path / "out"
    out.mkdir()
    # Ctrl+C as at a terminal, even where the suite runs in the background (SIGINT ignored there)
    process = subprocess.Popen(
        [sys.executable, "-m", "scorekeeper", "export", str(game), "-o", str(out / "sheet.pdf")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
        env={**os.environ, "SCOREKEEPER_HOME": str(tmp_path / "home"), "QT_QPA_PLATFORM": "offscreen"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        end = time.monotonic() + 20
        while "libQt6Gui" not in Path(f"/proc/{process.pid}/maps").read_text() and time.monotonic() < end:
            time.sleep(0.02)
        time.sleep(after)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 130, (stdout, stderr)
    assert stderr.splitlines() == ["scorekeeper export: interrupted (Ctrl+C); no score sheet written"]
    assert os.listdir(out) == []
