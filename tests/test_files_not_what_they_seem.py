"""Files that are not what they seem (issue 51, items 6 and 12): a named pipe, a device, a file far
larger than its kind ever is, a link that loops, a folder under a file's name. Each is refused at
once, unread, with a message that says what the file is and what to do, and the command exits 2."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from scorekeeper.evaluation.dataset import DatasetError, load_dataset, read_label_fixes
from scorekeeper.export.writers import embedded
from scorekeeper.game import DiceRolled, Game
from scorekeeper.game.journal import Journal
from scorekeeper.game.photos import MAX_PHOTO_BYTES, PhotoStatus, RollPhoto, photo_file, roll_photo
from scorekeeper.camera.sources import SourceError, open_source
from scorekeeper.rules import Dice, RuleFileError, load_rules, rules_to_toml
from scorekeeper.safe_input import InputFileError, read_file
from scorekeeper.table_session.camera_game import MAX_DECISIONS_BYTES, DecisionsError, FileChooser
from scorekeeper.vision.images import MAX_IMAGE_BYTES, ImageError, load_frame
from scorekeeper.vision.reader import ModelError, ModelFiles, default_model_dir

ROOT = Path(__file__).resolve().parent.parent
PROMPTLY = 60
"""Seconds a refused command may take, start-up included (it takes a few on a loaded machine)."""
UNREAD = 20_000_000
"""Bytes a refusal may allocate: far less than the oversized files it refuses."""

FORMS = {
    "score --rules": (("score", "--rules", "{f}", "1", "5"), ".toml"),
    "rules show": (("rules", "show", "{f}"), ".toml"),
    "coach --rules": (("coach", "--rules", "{f}"), ".toml"),
    "export": (("export", "{f}", "-o", "{d}/sheet.csv"), ".jsonl"),
    "play --resume": (("play", "--resume", "{f}"), ".jsonl"),
    "serve": (("serve", "{f}", "--host", "127.0.0.1"), ".jsonl"),
    "watch --decisions": (("watch", "--game", "--players", "Ann,Bob", "--decisions", "{f}", "demo", "--max-frames", "2"), ".txt"),
    "watch --calibration": (("watch", "--calibration", "{f}", "demo", "--max-frames", "2"), ".toml"),
    "watch video:": (("watch", "video:{f}"), ".avi"),
    "read": (("read", "{f}"), ".png"),
    "table": (("table", "{f}"), ".table.npz"),
}
"""Every command form that reads a file the user names: its arguments, with ``{f}`` for the file and
``{d}`` for a folder to write in, and the ending such a file has."""


def refused(form: str) -> int:
    """The exit status of a refusal: ``read`` goes on with the other photos and exits 1, the rest 2."""
    return 1 if form == "read" else 2


def scorekeeper(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *args], capture_output=True, text=True, timeout=PROMPTLY, stdin=subprocess.DEVNULL, cwd=ROOT
    )


def command(form: str, file: Path, folder: Path) -> list[str]:
    return [part.replace("{f}", str(file)).replace("{d}", str(folder)) for part in FORMS[form][0]]


@pytest.mark.slow
@pytest.mark.parametrize("form", sorted(FORMS))
def test_a_named_pipe_is_refused_at_once_by_every_command(tmp_path: Path, form: str) -> None:
    pipe = tmp_path / ("pipe" + FORMS[form][1])
    os.mkfifo(pipe)
    result = scorekeeper(*command(form, pipe, tmp_path))  # opening the pipe would wait for a writer past the timeout
    assert result.returncode == refused(form), result.stderr
    assert f"{pipe}: a named pipe (FIFO), not a" in result.stderr and "regular file" in result.stderr, result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("form", ["score --rules", "export", "watch --decisions", "read", "watch video:", "serve"])
def test_a_device_is_refused_unread(tmp_path: Path, form: str) -> None:
    result = scorekeeper(*command(form, Path("/dev/zero"), tmp_path))
    assert result.returncode == refused(form), result.stderr
    assert "/dev/zero: a device, not a" in result.stderr, result.stderr


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on disk."""
    path.touch()
    os.truncate(path, size)
    return path


def allocated_while(action: object) -> int:
    """The most bytes allocated at once while ``action()`` ran."""
    tracemalloc.start()
    try:
        try:
            action()  # type: ignore[operator]
        except ValueError:
            pass
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_an_oversized_picture_is_refused_from_its_size_unread(tmp_path: Path) -> None:
    big = sparse(tmp_path / "huge.png", MAX_IMAGE_BYTES + 40_000_000)
    with pytest.raises(ImageError, match=f"too big for a picture .*at most {MAX_IMAGE_BYTES:,}"):
        load_frame(big)
    assert allocated_while(lambda: load_frame(big)) < UNREAD


def test_an_oversized_decisions_file_is_refused_unread(tmp_path: Path) -> None:
    big = sparse(tmp_path / "choices.txt", 300_000_000)
    with pytest.raises(DecisionsError, match=f"too big for a decisions file .*at most {MAX_DECISIONS_BYTES:,}"):
        FileChooser.read(big)
    assert allocated_while(lambda: FileChooser.read(big)) < UNREAD
    with pytest.raises(DecisionsError, match="/dev/zero: a device, not a decisions file"):
        FileChooser.read(Path("/dev/zero"))


def game_with_a_picture(folder: Path) -> tuple[Path, str]:
    path = folder / "g.jsonl"
    journal = Journal.create(path)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], sink=journal.write)
    name = "a" * 64
    game.act(DiceRolled(Dice.from_str("1 1 5 2 3 4"), "camera", name))
    journal.close()
    photo_file(path, name).parent.mkdir()
    return path, name


def test_an_oversized_or_piped_roll_picture_is_damaged_and_left_unread(tmp_path: Path) -> None:
    journal, name = game_with_a_picture(tmp_path)
    picture = sparse(photo_file(journal, name), 300_000_000)
    assert roll_photo(journal, name).status is PhotoStatus.DAMAGED
    assert allocated_while(lambda: roll_photo(journal, name)) < UNREAD
    picture.unlink()
    os.mkfifo(picture)
    assert roll_photo(journal, name).status is PhotoStatus.DAMAGED  # opening the pipe would wait for ever
    picture.unlink()
    assert roll_photo(journal, name).status is PhotoStatus.MISSING
    sparse(picture, MAX_PHOTO_BYTES + 1)
    assert roll_photo(journal, name).status is PhotoStatus.DAMAGED


def test_a_roll_picture_swapped_for_a_pipe_or_a_huge_file_is_not_read_into_a_sheet(tmp_path: Path) -> None:
    journal, name = game_with_a_picture(tmp_path)
    picture = photo_file(journal, name)
    checked = RollPhoto(name, picture, PhotoStatus.OK)  # as it was when the sheet was laid out
    os.mkfifo(picture)
    assert embedded(checked) == (replace(checked, status=PhotoStatus.DAMAGED), None)  # opening the pipe would wait for ever
    picture.unlink()
    sparse(picture, 300_000_000)
    assert embedded(checked) == (replace(checked, status=PhotoStatus.DAMAGED), None)
    assert allocated_while(lambda: embedded(checked)) < UNREAD
    picture.unlink()
    assert embedded(checked) == (replace(checked, status=PhotoStatus.MISSING), None)
    picture.symlink_to(tmp_path / "gone.jpg")
    assert embedded(checked) == (replace(checked, status=PhotoStatus.MISSING), None)


def test_a_label_fixes_file_that_is_a_pipe_or_huge_is_refused_unread(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    with pytest.raises(DatasetError, match="cannot read label fixes: .*named pipe"):
        read_label_fixes(pipe)
    huge = sparse(tmp_path / "huge.csv", 300_000_000)
    with pytest.raises(DatasetError, match="cannot read label fixes: .*too big"):
        read_label_fixes(huge)
    assert allocated_while(lambda: read_label_fixes(huge)) < UNREAD


# Item 12: messages that say what is wrong


def test_a_rules_file_saved_with_a_byte_order_mark_reads_as_without_it(tmp_path: Path) -> None:
    text = rules_to_toml(load_rules("house-2009"))
    (tmp_path / "plain").mkdir()
    (tmp_path / "marked").mkdir()
    plain, marked = tmp_path / "plain" / "ours.toml", tmp_path / "marked" / "ours.toml"
    plain.write_text(text, encoding="utf-8")
    marked.write_text(text, encoding="utf-8-sig")
    assert marked.read_bytes().startswith(b"\xef\xbb\xbf")
    assert load_rules(str(marked)) == load_rules(str(plain))


def test_a_split_file_that_names_none_of_the_photos_says_so(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "kitchen-1.png"), np.zeros((40, 60, 3), np.uint8))
    (tmp_path / "split.csv").write_text("stem,split\nIMG_0001,test\nIMG_0002,test\n", encoding="utf-8")
    with pytest.raises(DatasetError) as refused:
        load_dataset(tmp_path, split="test")
    message = str(refused.value)
    assert "none of the 2 images" in message and "'IMG_0001'" in message and "'kitchen-1'" in message
    assert str(tmp_path / "split.csv") in message


def write_video(path: Path) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25.0, (160, 120))
    for shade in range(3):
        writer.write(np.full((120, 160, 3), shade * 40, np.uint8))
    writer.release()
    return path


def test_a_video_this_user_may_not_read_says_permission_denied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    video = write_video(tmp_path / "clip.avi")
    video.chmod(0)
    if os.geteuid() == 0:
        # root reads any file whatever its mode: stand in for the kernel's refusal of everyone else
        real_access = os.access
        monkeypatch.setattr(os, "access", lambda path, mode, **kw: Path(path) != video and real_access(path, mode, **kw))
    with pytest.raises(SourceError, match="permission denied: this user may not read the video file"):
        open_source(f"video:{video}")


def test_a_permission_refused_at_open_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.toml"
    path.write_text("", encoding="utf-8")

    def refuse(*args: object, **kwargs: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(InputFileError, match="permission denied: this user may not read the rules file; give it read permission"):
        read_file(path, "rules file")


def test_a_folder_named_like_the_model_manifest_is_called_a_folder(tmp_path: Path) -> None:
    for name in ("finder.onnx", "pips.onnx"):
        (tmp_path / name).write_bytes((default_model_dir() / name).read_bytes())
    (tmp_path / "manifest.json").mkdir()
    with pytest.raises(ModelError, match="manifest.json: is a folder, not a model manifest"):
        ModelFiles.load(tmp_path)


@pytest.mark.parametrize("kind", ["pipe", "device"])
def test_a_pipe_or_device_given_as_a_picture_is_called_what_it_is(tmp_path: Path, kind: str) -> None:
    path = Path("/dev/zero") if kind == "device" else tmp_path / "photo.png"
    if kind == "pipe":
        os.mkfifo(path)
    with pytest.raises(ImageError) as refused:
        load_frame(path)
    assert str(refused.value).startswith("a named pipe (FIFO), not a picture" if kind == "pipe" else "a device, not a picture")


def test_a_loop_of_links_is_called_a_loop(tmp_path: Path) -> None:
    first, second = tmp_path / "a.toml", tmp_path / "b.toml"
    first.symlink_to(second)
    second.symlink_to(first)
    loop = "a loop of symbolic links"
    with pytest.raises(RuleFileError, match=loop):
        load_rules(str(first))
    with pytest.raises(SourceError, match=loop):
        open_source(f"video:{first}")
    with pytest.raises(SourceError, match=loop):
        open_source(f"images:{first}")
    with pytest.raises(ImageError, match=loop):
        load_frame(first)


def test_a_link_to_nothing_says_where_it_points(tmp_path: Path) -> None:
    link = tmp_path / "clip.avi"
    link.symlink_to(tmp_path / "moved-away.avi")
    with pytest.raises(SourceError, match="a symbolic link to '.*moved-away.avi', which does not exist"):
        open_source(f"video:{link}")
