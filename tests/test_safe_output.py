"""Writing whole files: one helper (:mod:`scorekeeper.safe_output`) does it, and every writer of
the program goes through it."""

from __future__ import annotations

import ast
import os
import stat
from collections import Counter
from pathlib import Path

import pytest

from scorekeeper.safe_output import clear_leftovers, new_file_mode, write_atomically

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

WRITING_CALLS = {
    "os.replace", "os.rename", "os.fsync", "tempfile.mkstemp", "tempfile.NamedTemporaryFile",
    "shutil.copyfile", "shutil.copy", "shutil.copy2", "shutil.move", "cv2.imwrite", "np.save", "np.savez",
    "np.savez_compressed", "onnx.save",
}
"""Calls that write (or rename into place) a file's contents by themselves."""
WRITING_METHODS = {"write_text", "write_bytes", "rename", "replace", "tofile"}
"""Methods of a path (or array) that write or rename a whole file."""

ALLOWED = {
    ("game/journal.py", "open"): (2, "the journal is created empty and appended to"),
    ("game/journal.py", "os.fsync"): (1, "each journal line is appended and synced on its own, not a whole file"),
    ("game/lock.py", "open"): (1, "the lock file is only locked, and names its holder"),
    ("game/games_folder.py", "os.replace"): (1, "tidying renames a recovered copy an older scorekeeper left into its journal's name"),
    ("vision/corrections.py", "open"): (1, "the corrections index is appended to a line at a time"),
    ("vision/corrections.py", "os.fsync"): (1, "the corrections index is appended to a line at a time"),
    ("cli/__init__.py", "open"): (1, "the null device, where a closed stdout goes"),
    ("coach/cache.py", "np.savez"): (1, "into memory; the file is written by write_atomically"),
    ("vision/table_memory.py", "np.savez_compressed"): (1, "into memory; the file is written by write_atomically"),
    ("vision/die_colours.py", "np.savez_compressed"): (1, "into memory; the file is written by write_atomically"),
}
"""Writing calls outside :mod:`scorekeeper.safe_output`: how many of each a file makes, and why
they are not a whole-file write the helper should do."""


def call_name(node: ast.Call) -> str | None:
    """``module.function`` for a writing call through a module name, ``.method`` for a writing
    method (``.replace`` only with the one argument a path's takes: ``str.replace`` takes two)."""
    function = node.func
    if not isinstance(function, ast.Attribute):
        return None
    if isinstance(function.value, ast.Name) and f"{function.value.id}.{function.attr}" in WRITING_CALLS:
        return f"{function.value.id}.{function.attr}"
    if function.attr == "replace" and (len(node.args) != 1 or node.keywords):
        return None
    return f".{function.attr}" if function.attr in WRITING_METHODS else None


def saves_a_path(node: ast.Call) -> bool:
    """Whether ``node`` is a ``.save(...)`` given a file's name (Qt's ``QPixmap.save(str(path))``, which
    writes the file in place): Qt's ``fileName``, or first a ``str(...)``, an f-string or a string constant."""
    function = node.func
    if not isinstance(function, ast.Attribute) or function.attr != "save":
        return False
    if any(k.arg == "fileName" for k in node.keywords):
        return True
    return any(
        isinstance(arg, ast.JoinedStr)
        or (isinstance(arg, ast.Constant) and isinstance(arg.value, str))
        or (isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "str")
        for arg in node.args[:1]
    )


def opens_for_writing(node: ast.Call) -> bool:
    """Whether ``node`` is ``open(...)`` (or ``os.open``) asking to write."""
    function = node.func
    if isinstance(function, ast.Name) and function.id == "open":
        modes = [node.args[1]] if len(node.args) > 1 else [k.value for k in node.keywords if k.arg == "mode"]
        return any(isinstance(m, ast.Constant) and isinstance(m.value, str) and set(m.value) & set("wax+") for m in modes)
    if isinstance(function, ast.Attribute) and isinstance(function.value, ast.Name) and f"{function.value.id}.{function.attr}" == "os.open":
        flags = ast.unparse(node.args[1]) if len(node.args) > 1 else ""
        return any(flag in flags for flag in ("O_WRONLY", "O_RDWR", "O_CREAT", "O_APPEND"))
    return False


def writes_in(source: str) -> list[str]:
    """The writing calls in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = call_name(node) or ("open" if opens_for_writing(node) else ".save" if saves_a_path(node) else None)
            if name is not None:
                found.append(name)
    return found


def program_writes() -> Counter[tuple[str, str]]:
    writes: Counter[tuple[str, str]] = Counter()
    for path in sorted(PACKAGE.rglob("*.py")):
        where = str(path.relative_to(PACKAGE))
        if where == "safe_output.py":
            continue
        for name in writes_in(path.read_text(encoding="utf-8")):
            writes[where, name] += 1
    return writes


def test_every_writer_of_a_whole_file_goes_through_safe_output() -> None:
    stray = {key: count for key, count in program_writes().items() if count > ALLOWED.get(key, (0, ""))[0]}
    assert not stray, f"write through scorekeeper.safe_output.write_atomically instead: {stray}"


def test_the_allowed_exceptions_are_still_there() -> None:
    writes = program_writes()
    assert {key: writes[key] for key in ALLOWED} == {key: count for key, (count, _) in ALLOWED.items()}, "drop an exception the code no longer needs"


def test_the_check_catches_each_way_of_writing_a_file() -> None:
    source = """
import os, tempfile, cv2
import numpy as np
handle, name = tempfile.mkstemp(dir=folder)
with open(temporary, "w", encoding="utf-8") as out:
    out.write(text)
    os.fsync(out.fileno())
os.replace(temporary, path)
(folder / "README.md").write_text(text)
tmp.write_bytes(data)
cv2.imwrite(str(path), image)
np.savez(stream, **arrays)
handle = os.open(path, os.O_WRONLY | os.O_CREAT)
saved = window.grab().save(str(screenshot.path))
image.save(f"{stem}.png", "PNG")
picture.save(fileName=name + ".jpg")
"""
    assert sorted(writes_in(source)) == sorted(
        ["tempfile.mkstemp", "open", "os.fsync", "os.replace", ".write_text", ".write_bytes", "cv2.imwrite", "np.savez", "open", ".save", ".save", ".save"]
    )
    assert writes_in("text = name.replace('-', '_')\nkept = replace(kept, damage=None)\nwith open(path) as f: f.read()\n") == []
    assert writes_in("painter.save()\npicture.save(buffer, 'PNG')\nself.learner.save(self.path)\n") == [], "a painter's state, into memory, or the program's own savers"


# --- what the helper does -----------------------------------------------------------------------------


def test_a_file_is_replaced_whole_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text("old\n")
    target.chmod(0o600)
    write_atomically(target, "new ✓\n")
    assert target.read_text(encoding="utf-8") == "new ✓\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    write_atomically(target, b"\x00bytes")
    assert target.read_bytes() == b"\x00bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_new_file_gets_the_users_normal_mode(tmp_path: Path) -> None:
    target = tmp_path / "new.json"
    write_atomically(target, "{}\n")
    assert stat.S_IMODE(target.stat().st_mode) == new_file_mode()
    assert new_file_mode() & 0o044, "under the usual umask others may read it (a temporary file is 0600)"


def test_temporary_files_a_killed_write_left_are_removed_first(tmp_path: Path) -> None:
    target = tmp_path / "g.json"
    left = [tmp_path / ".g.json.k1ll3d__.tmp", tmp_path / ".g.json.0ther___.tmp"]
    others = [tmp_path / ".h.json.k1ll3d__.tmp", tmp_path / "g.json.tmp"]
    for stray in left + others:
        stray.write_text("half a file")
    write_atomically(target, "whole\n")
    assert not any(stray.exists() for stray in left)
    assert all(other.exists() for other in others), "only the temporary files of this very target go"


def test_a_failed_write_leaves_the_old_file_and_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "profile.toml"
    target.write_text("old\n")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space left"):
        write_atomically(target, "new\n")
    monkeypatch.undo()
    assert target.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["profile.toml"]


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "cache.npz"
    named = tmp_path / ".cache.npz.recovering"

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    for temporary in (None, named):
        with pytest.raises(KeyboardInterrupt):
            write_atomically(target, b"data", temporary=temporary)
        assert list(tmp_path.iterdir()) == []


def test_the_file_then_its_folder_are_synced_before_it_returns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "README.md"
    synced: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def recording_fsync(fd: int) -> None:
        synced.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real_fsync(fd)

    def recording_replace(source: str | Path, destination: str | Path) -> None:
        synced.append("renamed")
        real_replace(source, destination)

    monkeypatch.setattr(os, "fsync", recording_fsync)
    monkeypatch.setattr(os, "replace", recording_replace)
    write_atomically(target, "# model card\n")
    assert synced == ["file", "renamed", "folder"]


def test_a_named_temporary_file_is_used_and_renamed_into_place(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "g.jsonl"
    target.write_text("damaged")
    target.chmod(0o640)
    named = tmp_path / ".g.jsonl.recovering"
    renamed: list[tuple[str, str]] = []
    real_replace = os.replace

    def recording_replace(source: str | Path, destination: str | Path) -> None:
        renamed.append((Path(source).name, Path(destination).name))
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", recording_replace)
    write_atomically(target, "recovered\n", temporary=named)
    assert renamed == [(".g.jsonl.recovering", "g.jsonl")]
    assert target.read_text() == "recovered\n" and not named.exists()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_clearing_leftovers_removes_only_the_temporary_files_of_that_file(tmp_path: Path) -> None:
    target = tmp_path / "game.json"
    for name in (".game.json.abc123.tmp", ".game.json.x.tmp", ".other.json.abc123.tmp", "game.json.abc123.tmp", "game.json"):
        (tmp_path / name).write_text("{")
    (tmp_path / ".game.json.folder.tmp").mkdir()
    clear_leftovers(target)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".game.json.folder.tmp", ".other.json.abc123.tmp", "game.json", "game.json.abc123.tmp"]
