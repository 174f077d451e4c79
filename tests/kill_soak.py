"""Kills ``scorekeeper play --save`` and the window's journal writer with SIGKILL, many times over.

Run as a script by tests/test_kill_soak.py (a fresh process, so that forking is safe): it loads
scorekeeper once, then forks a child for each run, which runs the real code (``cli.main(["play",
...])``, or a seeded game written through :class:`Journal`), and kills it at a random moment.
After each kill it checks, as the next start sees them, what is on disk against what the child
had shown, then starts the next child where the game stopped. The journal writer's rolls keep a
picture each, as the camera's do; every picture a journal names must be whole on disk. Prints one
JSON line of counts.
Usage: python kill_soak.py FOLDER PLAY_KILLS JOURNAL_KILLS SEED
"""

from __future__ import annotations

import io
import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from journal_player import PLAYERS, take_next_step  # noqa: E402

from scorekeeper.cli import main  # noqa: E402
from scorekeeper.cli.play import Session, prompt  # noqa: E402
from scorekeeper.game import DiceRolled, Game, event_to_dict, load_game  # noqa: E402
from scorekeeper.game.journal import (  # noqa: E402
    STALE_SECONDS,
    Journal,
    JournalError,
    had_a_roll,
    open_journal,
    read_journal,
    unfinished_games,
)
from scorekeeper.game.photos import PhotoStatus, photos_folder, roll_photo, tidy_photo_folders  # noqa: E402
from scorekeeper.rules import load_rules  # noqa: E402
from scorekeeper.table.roll_pictures import write_photo  # noqa: E402

PICTURE_BYTES = 40_000
"""Size of each roll's stand-in picture: as big as a real one, so a kill can land mid-write."""

STARTED_AT = "2026-01-01T20:00:00+00:00"


def fork(child: Callable[[], int], stdin: bytes) -> tuple[int, int]:
    """Run ``child`` in a forked process reading ``stdin``; its pid and the read end of its stdout."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.dup2(in_read, 0)
        os.dup2(out_write, 1)
        for fd in (in_read, in_write, out_read, out_write):
            os.close(fd)
        sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False))
        sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), line_buffering=True)
        try:
            status = child()
        except BaseException:
            status = 70
        sys.stdout.flush()
        os._exit(status)
    os.close(in_read)
    os.close(out_write)
    os.write(in_write, stdin)
    os.close(in_write)
    return pid, out_read


def kill_and_read(pid: int, out: int, after: float | None) -> tuple[bool, str]:
    """Kill the child ``after`` seconds unless it ended (None: let it end); whether it was killed,
    and what it printed."""
    killed = reaped = False
    if after is not None:
        time.sleep(after)
        reaped = os.waitpid(pid, os.WNOHANG) != (0, 0)
        if not reaped:
            os.kill(pid, signal.SIGKILL)
            killed = True
    chunks = []
    while chunk := os.read(out, 65536):
        chunks.append(chunk)
    os.close(out)
    if not reaped:
        os.waitpid(pid, 0)
    return killed, b"".join(chunks).decode("utf-8", "replace")


def delay(rng: random.Random) -> float:
    """When to kill: often during start-up and the first writes, mostly later, mid-game."""
    return rng.uniform(0.0, 0.02) if rng.random() < 0.3 else rng.uniform(0.02, 0.15)


def play_commands(seed: int) -> tuple[list[str], list[list[dict[str, object]]], set[str]]:
    """A seeded game typed as ``play`` commands, each adding one event: the commands, the log
    after each, and every prompt ``play`` shows along the way."""
    rng = random.Random(seed)
    game = Game.new(load_rules("retail"), list(PLAYERS), started_at=STARTED_AT)
    session = Session(game, io.StringIO(), None)
    commands: list[str] = []
    logs = [[event_to_dict(event) for event in game.events]]
    prompts = {prompt(game.state)}
    while not game.state.over:
        state = game.state
        scored = state.roll_score()
        assert state.turn is not None
        if scored is not None:
            command = "f" if scored.farkle else "o1"
        elif state.can_bank() and (not state.can_roll() or rng.random() < 0.35):
            command = "b"
        else:
            command = "".join(str(rng.randint(1, 6)) for _ in range(state.turn.dice_left))
        before = len(game.events)
        session.step(command)
        assert len(game.events) == before + 1, command
        commands.append(command)
        logs.append([event_to_dict(event) for event in game.events])
        prompts.add(prompt(game.state))
    return commands, logs, prompts


def soak_play(folder: Path, kills_wanted: int, rng: random.Random) -> dict[str, int]:
    """``play --save``: after each kill the save loads, holds every step shown, and the next start
    leaves none of the temporary files a killed write left."""
    counts = {"play_kills": 0, "play_steps_shown": 0, "play_steps_lost": 0, "unloadable_saves": 0, "stray_after_start": 0}
    folder.mkdir(parents=True)
    games = 0
    while counts["play_kills"] < kills_wanted:
        games += 1
        commands, logs, prompts = play_commands(rng.randrange(1 << 30))
        save = folder / f"game{games}.json"
        while True:
            consumed = len(load_game(save).events) - len(logs[0]) if save.exists() else 0
            argv = ["play", "--resume", str(save)] if save.exists() else ["play", "--players", ",".join(PLAYERS), "--save", str(save)]
            before = set(folder.glob(f".{save.name}.*.tmp"))
            stdin = "".join(line + "\n" for line in commands[consumed:]) + "q\n"
            pid, out = fork(lambda: main(argv), stdin.encode())
            killed, printed = kill_and_read(pid, out, delay(rng))
            shown = max(0, sum(line in prompts for line in printed.splitlines()) - 1)
            if not save.exists() and not printed:
                counts["play_kills"] += killed
                if counts["play_kills"] >= kills_wanted:
                    break
                continue
            try:
                on_disk = [event_to_dict(event) for event in load_game(save).events]
                on_disk[0]["started_at"] = STARTED_AT
            except (ValueError, OSError):
                counts["unloadable_saves"] += 1
                break
            if printed and before & set(folder.glob(f".{save.name}.*.tmp")):
                counts["stray_after_start"] += 1
            steps = len(on_disk) - len(logs[0])
            if on_disk != logs[steps]:
                counts["play_steps_lost"] += 1
            counts["play_steps_lost"] += max(0, consumed + shown - steps)
            counts["play_steps_shown"] += shown
            if not killed:
                break
            counts["play_kills"] += 1
            if counts["play_kills"] >= kills_wanted:
                break
    if save.exists():
        pid, out = fork(lambda: main(["play", "--resume", str(save)]), b"q\n")
        kill_and_read(pid, out, None)
    counts["stray_after_start"] += len([p for p in folder.iterdir() if p.name.startswith(".")])
    return counts


def holds_no_game(path: Path) -> bool:
    """Whether ``path`` is a journal with no game in it: no byte, or the format line alone."""
    try:
        contents = read_journal(path)
    except JournalError:
        return path.stat().st_size == 0
    return not contents.events and contents.damage is None


def journal_child(path: Path) -> Callable[[], int]:
    def run() -> int:
        if path.exists():
            game = open_journal(path).game
        else:
            game = Game.new(load_rules("retail"), PLAYERS, target=10000, started_at=STARTED_AT, sink=Journal.create(path).write)
            for event in game.events:
                print(json.dumps(event_to_dict(event)))

        def pictured(roll: DiceRolled) -> DiceRolled:
            """The roll as the camera took it, its picture (seeded by the game's length) kept first."""
            picture = random.Random(len(game.events)).randbytes(PICTURE_BYTES)
            return replace(roll, source="camera", photo=write_photo(path, picture))

        while not game.state.over:
            shown = len(game.events)
            take_next_step(game, pictured)
            for event in game.events[shown:]:
                print(json.dumps(event_to_dict(event)))
        return 0

    return run


def soak_journal(folder: Path, kills_wanted: int, rng: random.Random) -> dict[str, int]:
    """The journal writer, and its recovery from a torn last line: after each kill the next start
    (the games listed, then the game opened) holds every event shown, keeps each damaged file
    once, and leaves no file of a recovery cut off."""
    counts = {"journal_kills": 0, "journal_events_shown": 0, "journal_events_lost": 0, "damaged_lines_written": 0, "kills_inside_recovery": 0, "killed_before_the_first_event": 0, "hidden_games": 0, "stray_after_start": 0, "pictures_named": 0, "pictures_not_whole": 0, "picture_writes_cut_off": 0}
    home = folder / "home"
    games = home / "games"
    games.mkdir(parents=True)
    path = games / "game.jsonl"
    known: list[dict[str, object]] = []
    damaged = 0
    finished_games = 0
    while counts["journal_kills"] < kills_wanted:
        wait = delay(rng)
        if path.exists() and rng.random() < 0.3:
            wait = rng.uniform(0.0, 0.008)  # aimed at the recovery the child starts with
            with open(path, "ab") as stream:
                stream.write(b'{"type":"rolled","dice":[1,')
            counts["damaged_lines_written"] += 1
            damaged += 1
        pid, out = fork(journal_child(path), b"")
        killed, printed = kill_and_read(pid, out, wait)
        lines = printed.splitlines()
        if lines and not printed.endswith("\n"):
            lines.pop()
        shown = known + [json.loads(line) for line in lines]
        linked = any(os.path.samefile(aside, path) for aside in games.glob(f"{path.stem}.damaged-*.jsonl"))
        counts["kills_inside_recovery"] += killed and (linked or path.with_name(f".{path.name}.recovering").exists())
        if not path.exists():  # killed before the journal was made: nothing shown, nothing to find
            counts["journal_events_lost"] += len(shown)
            counts["journal_kills"] += killed
            continue
        if holds_no_game(path):
            # killed between creating the journal and writing the game's start: nothing was shown,
            # and once it has stayed empty a while, start-up removes it
            counts["journal_events_lost"] += len(shown)
            os.utime(path, (time.time() - STALE_SECONDS - 1,) * 2)
            unfinished_games(home)
            counts["stray_after_start"] += path.exists()
            counts["journal_kills"] += killed
            counts["killed_before_the_first_event"] += 1
            path.unlink(missing_ok=True)
            continue
        listed = unfinished_games(home)
        for partial in photos_folder(path).glob(".*.tmp"):  # as a later start finds a killed write's file
            os.utime(partial, (time.time() - STALE_SECONDS - 1,) * 2)
            counts["picture_writes_cut_off"] += 1
        tidy_photo_folders(home)
        counts["stray_after_start"] += len(list(photos_folder(path).glob(".*")))
        recovered = open_journal(path)
        recovered.journal.close()
        named = {event.photo for event in recovered.game.events if isinstance(event, DiceRolled) and event.photo is not None}
        counts["pictures_named"] += len(named)
        counts["pictures_not_whole"] += sum(roll_photo(path, name).status is not PhotoStatus.OK for name in named)
        on_disk = [event_to_dict(event) for event in recovered.game.events]
        counts["journal_events_lost"] += sum(1 for a, b in zip(on_disk, shown) if a != b) + max(0, len(shown) - len(on_disk))
        counts["journal_events_shown"] += len(shown) - len(known)
        hidden = [p.name for p in games.iterdir() if p.name.startswith(".")]
        asides = len(list(games.glob(f"{path.stem}.damaged-*.jsonl")))
        counts["stray_after_start"] += len(hidden) + abs(asides - damaged)
        if path not in listed and not recovered.game.state.over and had_a_roll(recovered.game.events):
            counts["hidden_games"] += 1
        known = on_disk
        if not killed:  # the game ended: put it and its damaged copies away, and start the next
            finished_games += 1
            done = folder / "done" / f"{path.stem}-{finished_games}"
            done.mkdir(parents=True)
            for finished in games.glob(f"{path.stem}.*"):
                finished.rename(done / finished.name)
            known = []
            damaged = 0
            continue
        counts["journal_kills"] += 1
    return counts


def main_soak() -> int:
    folder = Path(sys.argv[1])
    play_kills, journal_kills, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    started = time.monotonic()
    counts = {**soak_play(folder / "play", play_kills, rng), "seconds_play": 0}
    counts["seconds_play"] = round(time.monotonic() - started)
    journal = soak_journal(folder / "journal", journal_kills, rng)
    counts["stray_after_start"] += journal.pop("stray_after_start")
    counts.update(journal)
    counts["seconds"] = round(time.monotonic() - started)
    print(json.dumps(counts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main_soak())
