"""kill -9 soak: ``play --save`` (resumed from its save after each kill), the journal writer (with
its recovery and the roll pictures it writes) and the phones' scoreboard server reading the
journal, killed at random points.

tests/kill_soak.py forks each run from one process that loaded scorekeeper once, so the 300
kills of the writers (and the server's, among them) take about a minute and a half on 2 cores;
see its docstring for what is checked after each.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SOAK = Path(__file__).with_name("kill_soak.py")
PLAY_KILLS = 200
JOURNAL_KILLS = 100


@pytest.mark.slow
def test_no_shown_step_is_lost_and_no_stray_file_is_left_over_300_kills(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(SOAK.parent.parent)}
    done = subprocess.run(
        [sys.executable, str(SOAK), str(tmp_path), str(PLAY_KILLS), str(JOURNAL_KILLS), "20261205"],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout)
    assert counts["play_kills"] == PLAY_KILLS and counts["journal_kills"] == JOURNAL_KILLS, counts
    assert counts["play_steps_shown"] > 0 and counts["journal_events_shown"] > 0, counts  # kills land mid-game
    assert counts["resumes_from_the_save"] > counts["saves_behind_their_journal"] > 0, counts  # kills land between the two writes
    assert counts["kills_leaving_a_temporary_save"] > 0, counts  # and inside a save's write
    assert counts["damaged_lines_written"] > 0, counts
    assert counts["pictures_named"] > 0 and counts["picture_writes_cut_off"] > 0, counts  # kills land inside a picture's write
    assert counts["server_kills"] > 0 and counts["boards_checked"] > counts["damage_shown"] > 0, counts
    lost = (
        "play_steps_lost", "journal_events_lost", "unloadable_saves", "hidden_games", "stray_after_start", "pictures_not_whole",
        "pictures_half_written", "server_starts_failed", "boards_not_shown", "pictures_served_not_whole",
        "resume_steps_lost", "journals_left_over", "locks_left",
    )
    assert {key: counts[key] for key in lost} == dict.fromkeys(lost, 0), counts
