"""No command writes outside the data folder, the output it was given and the bounded coach cache.

Each command runs as a user would run it, with the home, XDG and temporary folders pointed into
a fresh folder; afterwards every file in it must be one of those. (onnxruntime alone used to
leave ~/.cache/Microsoft/DeveloperTools on every read.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.coach.cache import MAX_BYTES, MAX_FILES

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_images"
PHOTO = sorted((SAMPLES / "images").iterdir())[0]


@pytest.mark.slow
def test_commands_write_only_their_data_folder_their_output_and_the_coach_cache(tmp_path: Path) -> None:
    root, cwd, out = tmp_path / "root", tmp_path / "cwd", tmp_path / "root" / "out"
    for folder in (root / "home", root / "tmp", cwd, out):
        folder.mkdir(parents=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("SCOREKEEPER_", "XDG_"))}
    env.update(
        HOME=str(root / "home"), TMPDIR=str(root / "tmp"), QT_QPA_PLATFORM="offscreen",
        XDG_DATA_HOME=str(root / "data"), XDG_CACHE_HOME=str(root / "cache"), XDG_CONFIG_HOME=str(root / "config"),
        XDG_STATE_HOME=str(root / "state"), XDG_RUNTIME_DIR=str(root / "run"),
    )
    commands: list[tuple[list[str], str]] = [
        (["score", "--rules", "retail", "1", "1", "5"], ""),
        (["rules", "show", "house-2009"], ""),
        (["play", "--players", "Ann,Bob", "--save", str(out / "g.json")], "115234\no1\nb\nsave " + str(out / "h.json") + "\nq\n"),
        (["coach", "--rules", "retail"], ""),
        (["export", str(out / "g.json"), "-o", str(out / "sheet.csv")], ""),
        (["export", str(out / "g.json"), "-o", str(out / "sheet.pdf")], ""),
        (["read", str(PHOTO)], ""),
        (["watch", f"images:{SAMPLES / 'images'}", "--max-frames", "20"], ""),
        (["evaluate", str(SAMPLES)], ""),
        (["--source", "demo", "--players", "Ann,Bob", "--screenshot", str(out / "shot.png"), "--after", "1"], ""),
    ]
    for argv, stdin in commands:
        done = subprocess.run(
            [sys.executable, "-m", "scorekeeper", *argv], input=stdin, capture_output=True, text=True,
            env=env, cwd=cwd, timeout=300,
        )
        assert done.returncode == 0, (argv, done.stderr[-2000:])
    written = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    outputs = sorted(str(p.relative_to(root)) for p in out.iterdir())
    assert outputs == ["out/g.json", "out/h.json", "out/sheet.csv", "out/sheet.pdf", "out/shot.png"]
    journals = [name for name in written if name.startswith("data/scorekeeper/games/") and name.endswith(".jsonl")]
    cache = [name for name in written if name.startswith("cache/scorekeeper/coach/policy-") and name.endswith(".npz")]
    assert len(journals) == 2 and 1 <= len(cache) <= MAX_FILES  # the game of play, and of the screenshot
    assert sum((root / name).stat().st_size for name in cache) <= MAX_BYTES
    assert written == sorted(outputs + journals + cache)
    assert list(cwd.iterdir()) == []
