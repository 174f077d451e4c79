"""Kill -9 at random moments: every resumed game holds exactly the events that were shown.

A seeded player (tests/journal_player.py) prints each event only after the game has
taken it, and the game takes it only after the journal has synced it. So after a kill
the journal holds every event printed, plus at most the one being shown at that moment.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scorekeeper.game import event_to_dict
from scorekeeper.game.journal import open_journal

PLAYER = Path(__file__).with_name("journal_player.py")
READY = "# playing"
ROOT = PLAYER.parent.parent


def recovered_events(path: Path) -> list[dict[str, object]]:
    recovered = open_journal(path)
    recovered.journal.close()
    return [event_to_dict(event) for event in recovered.game.events]


@pytest.mark.slow
def test_a_game_killed_many_times_resumes_with_what_was_shown(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    rng = random.Random(20260101)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    known: list[dict[str, object]] = []
    kills = 0
    for _ in range(40):
        child = subprocess.Popen(
            [sys.executable, str(PLAYER), str(path), "0.004"], stdout=subprocess.PIPE, env=env, text=True
        )
        assert child.stdout is not None
        opening = []
        for line in child.stdout:
            if line.strip() == READY:
                break
            opening.append(line)
        time.sleep(rng.uniform(0.0, 0.25))
        child.send_signal(signal.SIGKILL)
        output, _ = child.communicate()
        if child.returncode == 0:
            break
        kills += 1
        output = "".join(opening) + output
        lines = output.splitlines()
        if lines and not output.endswith("\n"):
            lines.pop()
        shown = known + [json.loads(line) for line in lines]
        on_disk = recovered_events(path)
        assert on_disk[: len(shown)] == shown
        assert len(on_disk) - len(shown) in (0, 1), "more than the one event being shown was lost or added"
        known = on_disk
    assert kills >= 10, "the kills must land mid-game"
    finished = subprocess.run([sys.executable, str(PLAYER), str(path)], capture_output=True, env=env, text=True)
    assert finished.returncode == 0, finished.stderr
    final = recovered_events(path)
    assert final[: len(known)] == known
    printed = [json.loads(line) for line in finished.stdout.splitlines() if line != READY]
    assert final[len(final) - len(printed) :] == printed
    assert final[-1]["type"] == "banked"
