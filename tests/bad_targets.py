"""Every command form that takes a file, given something that is not a file of its kind: a named
pipe, a device, a sparse file far larger than any limit, a folder, a loop of links, a link to
nothing. Each run goes in-process with a watchdog; its outcome is one of

* ``clear``: refused (exit 1 or 2) within the time, with a message that names the target and says
  what it is ("named pipe", "device", "too big", "folder", "loop", "symbolic link"), no traceback;
* ``traceback``: an exception escaped, or a traceback was printed;
* ``hang``: still running after :data:`WAIT` seconds (a pipe's reader is then let go);
* ``unclear``: refused, or let through, without saying what is wrong with the target.

``tests/test_fuzz_inputs.py`` asserts every run is clear. Run as a script
(``python tests/bad_targets.py``), it prints the count of each outcome: the figures of issue 51's
closing note, for whatever ``scorekeeper`` is first on the path.
"""

from __future__ import annotations

import io
import os
import stat
import sys
import tempfile
import threading
import traceback
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

WAIT = 30.0
"""Seconds a refusal may take before the run counts as a hang (start-up of the reader included)."""
SPARSE_BYTES = 2**31
"""The oversized target: 2 GB, as in the issue, taking no room on disk."""

FORMS: dict[str, tuple[str, ...]] = {
    "score --rules": ("score", "--rules", "{t}", "1", "5"),
    "rules show": ("rules", "show", "{t}"),
    "coach --rules": ("coach", "--rules", "{t}"),
    "export": ("export", "{t}", "--format", "csv", "-o", "{d}/sheet.csv"),
    "export -o csv": ("export", "{g}", "--format", "csv", "-o", "{t}"),
    "export -o html": ("export", "{g}", "--format", "html", "-o", "{t}"),
    "export -o pdf": ("export", "{g}", "--format", "pdf", "-o", "{t}"),
    "play --resume": ("play", "--resume", "{t}"),
    "play --save": ("play", "--players", "Ann,Bob", "--save", "{t}"),
    "serve": ("serve", "{t}", "--host", "127.0.0.1", "--port", "0"),
    "watch --decisions": ("watch", "--game", "--players", "Ann,Bob", "--decisions", "{t}", "demo", "--max-frames", "2", "--unpaced"),
    "watch --calibration": ("watch", "--calibration", "{t}", "demo", "--max-frames", "2", "--unpaced"),
    "watch video:": ("watch", "video:{t}"),
    "watch images:": ("watch", "images:{t}"),
    "read": ("read", "{t}"),
    "read --profile": ("read", "--profile", "{t}", "{p}"),
    "read --model": ("read", "--model", "{t}", "{p}"),
    "table": ("table", "{t}"),
    "evaluate": ("evaluate", "{t}"),
    "evaluate --split": ("evaluate", "{s}", "--split", "{t}", "test"),
}
"""Each command form: its arguments, ``{t}`` the target, ``{g}`` a good saved game, ``{p}`` a good
photo, ``{s}`` a good labelled folder and ``{d}`` a folder to write in."""

FOLDERS = {"watch images:", "read --model", "evaluate"}
"""The forms whose target is a folder: a regular file there (the oversized one) is clearly refused
as a file."""
OUTPUTS = {"export -o csv", "export -o html", "export -o pdf", "play --save"}
"""The forms whose target is written, not read: a regular file there (the oversized one, the far
end of a link to nothing) may be written as ``-o`` says; everything else is refused."""

SAYS = {
    "pipe": ("named pipe", "(a pipe)"),
    "zero": ("device",),
    "null": ("device",),
    "full": ("device",),
    "sparse": ("too big",),
    "folder": ("folder",),
    "loop": ("loop of symbolic links", "symbolic links"),
    "dangling": ("symbolic link to", "does not exist", "no such"),
}
"""What a clear message says about each kind of target (any one of these)."""

DEVICES = {"zero": (1, 5), "null": (1, 3), "full": (1, 7)}
"""The devices tried, by their major and minor numbers (as /dev/zero, /dev/null, /dev/full)."""


@dataclass(frozen=True)
class Ran:
    """One run of a command form on a target."""

    form: str
    """The command form."""
    target: str
    """The kind of target (a key of :data:`SAYS`)."""
    outcome: str
    """clear, traceback, hang or unclear."""
    status: object
    """The exit status (None for a hang or an exception)."""
    message: str
    """What it printed on stderr (the traceback, for one)."""


def device(path: Path, name: str) -> Path:
    """A device node like /dev/``name`` at ``path`` where this user may make one (root), so that
    nothing done to it can touch the system's; else the system's own."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(*DEVICES[name]))
        return path
    except OSError:
        return Path("/dev") / name


def make_target(kind: str, folder: Path, ending: str) -> Path:
    """A fresh target of ``kind`` in ``folder``, named with ``ending``."""
    path = folder / f"target-{kind}{ending}"
    if kind == "pipe":
        os.mkfifo(path)
    elif kind in DEVICES:
        return device(path, kind)
    elif kind == "sparse":
        path.touch()
        os.truncate(path, SPARSE_BYTES)
    elif kind == "folder":
        path.mkdir()
    elif kind == "loop":
        other = folder / f"other-{kind}{ending}"
        path.symlink_to(other)
        other.symlink_to(path)
    elif kind == "dangling":
        path.symlink_to(folder / f"gone{ending}")
    return path


ENDINGS = {
    "score --rules": ".toml", "rules show": ".toml", "coach --rules": ".toml", "watch --calibration": ".toml",
    "read --profile": ".table.npz", "table": ".table.npz", "export": ".jsonl", "play --resume": ".jsonl", "serve": ".jsonl", "export -o csv": ".csv",
    "export -o html": ".html", "export -o pdf": ".pdf", "play --save": ".json", "watch --decisions": ".txt",
    "watch video:": ".avi", "read": ".png", "evaluate --split": ".csv",
}
"""The ending a file of each form's kind has (none: a folder's or a model folder's name)."""


def seeds(folder: Path) -> dict[str, Path]:
    """The good files the forms need beside their target."""
    import cv2
    import numpy as np

    from scorekeeper.game import Game, save_game
    from scorekeeper.rules import load_rules

    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00")
    game.roll("1 1 5 2 3 4")
    save_game(game, folder / "good.json")
    cv2.imwrite(str(folder / "good.png"), np.full((48, 64, 3), 90, np.uint8))
    (folder / "set" / "images").mkdir(parents=True)
    (folder / "set" / "labels").mkdir()
    cv2.imwrite(str(folder / "set" / "images" / "a.png"), np.full((48, 64, 3), 90, np.uint8))
    return {"{g}": folder / "good.json", "{p}": folder / "good.png", "{s}": folder / "set", "{d}": folder}


def _unstick(path: Path) -> None:
    """Let a reader waiting on the pipe ``path`` go: open its other end and close it at once."""
    try:
        if stat.S_ISFIFO(os.lstat(path).st_mode):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def run(argv: list[str], pipe: Path | None) -> tuple[object, str, str | None, bool]:
    """``scorekeeper ARGV`` in-process with "q" on stdin: its status, stderr, the traceback of an
    exception that escaped it, and whether it was still running after :data:`WAIT` seconds."""
    from scorekeeper.cli import main

    got: dict[str, object] = {}

    def go() -> None:
        try:
            got["status"] = main(argv)
        except SystemExit as exc:
            got["status"] = exc.code
        except BaseException:  # noqa: BLE001 - what escaped is the finding
            got["error"] = traceback.format_exc()

    streams = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = io.StringIO("q\n"), io.StringIO(), io.StringIO()
    err = sys.stderr
    try:
        worker = threading.Thread(target=go, daemon=True)
        worker.start()
        worker.join(WAIT)
        hung = worker.is_alive()
        if hung and pipe is not None:
            _unstick(pipe)
            worker.join(5)
    finally:
        sys.stdin, sys.stdout, sys.stderr = streams
    error = got.get("error")
    return got.get("status"), err.getvalue(), error if isinstance(error, str) else None, hung


def judge(form: str, kind: str, target: Path, status: object, message: str, error: str | None, hung: bool) -> str:
    """The outcome of one run (see the module's docstring)."""
    if hung:
        return "hang"
    if error is not None or "Traceback (most recent call last)" in message:
        return "traceback"
    names = str(target) in message
    if form in OUTPUTS and kind in ("sparse", "dangling"):
        return "clear" if status == 0 or (status in (1, 2) and names) else "unclear"
    phrases = ("a file, not a", "is a file") if form in FOLDERS and kind == "sparse" else SAYS[kind]
    if form == "watch video:" and kind == "sparse":
        phrases = ("cannot be read as a video",)  # a video has no size limit: 2 GB of zeros is no video
    says = any(phrase in message for phrase in phrases)
    return "clear" if status in (1, 2) and names and says else "unclear"


def try_all(forms: list[str] | None = None, kinds: list[str] | None = None) -> list[Ran]:
    """Every form of ``forms`` (default all) on every target of ``kinds`` (default all), each on a
    fresh target in a fresh folder."""
    done = []
    if "export -o pdf" in (forms or FORMS):
        # The PDF writer starts a Qt application where there is none; started by the command's
        # worker thread, it would live in that thread, and a window opened later in this process
        # (the next test's) would hang. Started here, it lives in the main thread.
        from scorekeeper.export.pdf import ensure_gui

        ensure_gui()
    for form in forms or list(FORMS):
        for kind in kinds or list(SAYS):
            with tempfile.TemporaryDirectory(prefix="bad-target-") as name:
                folder = Path(name)
                given = seeds(folder)
                target = make_target(kind, folder, ENDINGS.get(form, ""))
                argv = [part.replace("{t}", str(target)) for part in FORMS[form]]
                for key, path in given.items():
                    argv = [part.replace(key, str(path)) for part in argv]
                status, message, error, hung = run(argv, target if kind == "pipe" else None)
                outcome = judge(form, kind, target, status, message, error, hung)
                done.append(Ran(form, kind, outcome, status, (error or message).strip()))
    return done


def summary(runs: list[Ran]) -> str:
    """The count of runs, forms and each outcome, then each run that was not clear."""
    counts = Counter(ran.outcome for ran in runs)
    lines = [
        f"{len(runs)} runs over {len({ran.form for ran in runs})} command forms: "
        + ", ".join(f"{counts[name]} {name}" for name in ("clear", "traceback", "hang", "unclear"))
    ]
    lines += [f"  {ran.outcome}: {ran.form} <- {ran.target}: {ran.message.splitlines()[-1][:160] if ran.message else '(nothing)'}"
              for ran in runs if ran.outcome != "clear"]
    return "\n".join(lines)


def _limit_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("SCOREKEEPER_HOME", tempfile.mkdtemp(prefix="bad-target-home-"))
    _limit_memory()
    print(summary(try_all(sys.argv[1:] or None)), flush=True)
    os._exit(0)  # a reader still hung on a device would keep the process alive
