"""Kills ``scorekeeper play --save``, the window's journal writer and the phones' scoreboard server
with SIGKILL, many times over.

Run as a script by tests/test_kill_soak.py (a fresh process, so that forking is safe): it loads
scorekeeper once, then forks a child for each run, which runs the real code (``cli.main(["play",
...])``, or a seeded game written through :class:`Journal`), and kills it at a random moment.
After each kill it checks, as the next start sees them, what is on disk against what the child
had shown, then starts the next child where the game stopped (``play`` from its save, which must
go on from every step shown or journaled, leaving one journal and no lock file). The journal writer's rolls keep a
picture each, as the camera's do (a kill often lands inside a picture's write); every picture a
journal names must be whole on disk, and no picture may be seen half-written under its name.

A scoreboard server (:class:`ScoreServer`, forked too) follows the journal all along and is itself
killed now and then while it reads, then started again. After each kill of the writer its page
must come to show the board of what the journal holds (the damage notice included, for a torn
line), and the picture it offers must be whole; after a recovery, the recovered game without the
notice. Prints one JSON line of counts.
Usage: python kill_soak.py FOLDER PLAY_KILLS JOURNAL_KILLS SEED
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import json
import os
import random
import re
import signal
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from journal_player import PLAYERS, take_next_step  # noqa: E402

from scorekeeper.cli import main  # noqa: E402
from scorekeeper.cli.play import Session, prompt  # noqa: E402
from scorekeeper.game import DiceRolled, Event, Game, event_to_dict, load_game  # noqa: E402
from scorekeeper.game.games_folder import STALE_SECONDS, games_folder, had_a_roll, unfinished_games  # noqa: E402
from scorekeeper.game.journal import Journal, open_journal, read_journal  # noqa: E402
from scorekeeper.game.journal_error import JournalError  # noqa: E402
from scorekeeper.game.lock import lock_path  # noqa: E402
from scorekeeper.game.photos import PHOTO_SUFFIX, PhotoStatus, photos_folder, roll_photo, tidy_photo_folders  # noqa: E402
from scorekeeper.rules import load_rules  # noqa: E402
from scorekeeper.serve import ScoreServer, board_of  # noqa: E402
from scorekeeper.serve.page import board_html, picture_url  # noqa: E402
from scorekeeper.table_session.roll_pictures import write_photo  # noqa: E402

PICTURE_BYTES = 40_000
"""Size of each roll's stand-in picture: as big as a real one, so a kill can land mid-write."""

STARTED_AT = "2026-01-01T20:00:00+00:00"
OPENING = len(Game.new(load_rules("retail"), list(PLAYERS)).events)
"""How many events a new game of the soak holds before its first step."""

SERVER_KILL_SHARE = 0.2
"""Share of the writer's runs during which the scoreboard server is killed too."""
SERVER_CHECK_SHARE = 0.35
"""Share of the kills of the writer after which the server's page is checked (always after one
that left the journal torn: the page must then say it is damaged, and stop saying so once the
next start has recovered it)."""
BOARD_SECONDS = 3.0
"""How long the server's page may take to show what the journal holds (it looks every 0.1 s, and
calls a torn last line damage once it has stayed so for 0.5 s)."""


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


def journals_of(home: Path, start: Event) -> list[Path]:
    """The journals in ``home``'s games folder that hold a step of the game begun by ``start``
    (not one a kill cut off before it held more than the start)."""
    found = []
    for path in games_folder(home).glob("*.jsonl"):
        try:
            events = read_journal(path).events
        except JournalError:
            continue
        if events[:1] == (start,) and len(events) > OPENING:
            found.append(path)
    return found


def count_left_over(save: Path, home: Path, counts: dict[str, int]) -> None:
    """Count the journals of the game of ``save`` beyond its one, and the lock files left on them
    and on the save, once nothing plays it."""
    if save.exists():
        kept_in = journals_of(home, load_game(save).events[0])
        counts["journals_left_over"] += max(0, len(kept_in) - 1)
        counts["locks_left"] += sum(lock_path(path).exists() for path in (*kept_in, save))


def resume_after_kill(save: Path, home: Path, logs: list[list[dict[str, object]]], shown: int, counts: dict[str, int]) -> int | None:
    """``play --resume SAVE`` after a kill, quitting at once: it must go on from every step shown
    and every step its journal holds (written before the save, so maybe one step ahead), and leave
    none of the temporary files a killed save left. The steps it went on from; None when the save
    cannot be loaded."""
    try:
        start = load_game(save).events[0]
        behind = len(load_game(save).events)
    except (ValueError, OSError):
        counts["unloadable_saves"] += 1
        return None
    journaled = max((len(read_journal(path).events) for path in journals_of(home, start)), default=0)
    counts["saves_behind_their_journal"] += journaled > behind
    left = set(save.parent.glob(f".{save.name}.*.tmp"))
    counts["kills_leaving_a_temporary_save"] += bool(left)
    pid, out = fork(lambda: main(["play", "--resume", str(save)]), b"q\n")
    kill_and_read(pid, out, None)
    counts["resumes_from_the_save"] += 1
    counts["stray_after_start"] += len(left & set(save.parent.glob(f".{save.name}.*.tmp")))
    try:
        on_disk = [event_to_dict(event) for event in load_game(save).events]
    except (ValueError, OSError):
        counts["unloadable_saves"] += 1
        return None
    on_disk[0]["started_at"] = STARTED_AT
    steps = len(on_disk) - len(logs[0])
    counts["resume_steps_lost"] += (steps >= len(logs) or on_disk != logs[steps]) + max(0, journaled - len(logs[0]) - steps, shown - steps)
    return steps


def soak_play(folder: Path, kills_wanted: int, rng: random.Random) -> dict[str, int]:
    """``play --save``: after each kill the save loads and holds every step shown; resuming from
    the save then goes on from every step shown or journaled, leaves none of the temporary files a
    killed write left, and each finished game leaves one journal and no lock file."""
    counts = {
        "play_kills": 0, "play_steps_shown": 0, "play_steps_lost": 0, "unloadable_saves": 0, "stray_after_start": 0,
        "resumes_from_the_save": 0, "saves_behind_their_journal": 0, "resume_steps_lost": 0, "kills_leaving_a_temporary_save": 0,
        "journals_left_over": 0, "locks_left": 0,
    }
    folder.mkdir(parents=True)
    home = folder.parent / "play-home"
    os.environ["SCOREKEEPER_HOME"] = str(home)
    games = 0
    while counts["play_kills"] < kills_wanted:
        games += 1
        commands, logs, prompts = play_commands(rng.randrange(1 << 30))
        save = folder / f"game{games}.json"
        seen = 0
        while True:
            if save.exists():
                resumed = resume_after_kill(save, home, logs, seen, counts)
                if resumed is None:
                    break
                consumed = resumed
            else:
                consumed = 0
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
            seen = max(seen, consumed + shown)
            if not killed:
                break
            counts["play_kills"] += 1
            if counts["play_kills"] >= kills_wanted:
                break
        if not killed:
            count_left_over(save, home, counts)
    if save.exists():
        pid, out = fork(lambda: main(["play", "--resume", str(save)]), b"q\n")
        kill_and_read(pid, out, None)
        if killed:
            count_left_over(save, home, counts)
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


def server_child(path: Path) -> Callable[[], int]:
    """The phones' scoreboard server following ``path``, printing its address once it listens."""

    def run() -> int:
        async def serve() -> None:
            server = ScoreServer(path, "127.0.0.1", 0)
            await server.start()
            print(server.url, flush=True)
            await asyncio.Event().wait()

        asyncio.run(serve())
        return 0

    return run


class Server:
    """A forked scoreboard server on the soak's journal: started, asked, killed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.pid = 0
        self.url = ""
        self._out = -1

    def start(self) -> bool:
        """Start a server (whether it came up and printed its address)."""
        self.pid, self._out = fork(server_child(self.path), b"")
        printed = b""
        while not printed.endswith(b"\n"):
            chunk = os.read(self._out, 4096)
            if not chunk:
                break
            printed += chunk
        found = re.search(r"http://\S+/", printed.decode("utf-8", "replace"))
        self.url = found.group(0) if found else ""
        if not self.url:
            self.kill()
        return bool(self.url)

    def kill(self) -> None:
        """SIGKILL the server (wherever it is: reading the journal, answering, waiting)."""
        if self.pid:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
            os.close(self._out)
        self.pid, self.url = 0, ""

    def get(self, path: str) -> bytes | None:
        """The body of the server's answer for ``path`` (under its token); None for any other status."""
        try:
            with urllib.request.urlopen(self.url + path, timeout=5) as answer:
                body: bytes = answer.read()
                return body
        except (urllib.error.URLError, OSError):
            return None

    def shows(self, want: str, picture: str | None) -> tuple[bool, bool]:
        """Whether the page comes to show the board ``want`` within :data:`BOARD_SECONDS`, and
        whether the picture it offers (``picture``, the one the journal names) is whole."""
        deadline = time.monotonic() + BOARD_SECONDS
        shown = False
        while not shown and time.monotonic() < deadline:
            page = (self.get("") or b"").decode("utf-8", "replace")
            found = re.search(r'<main id="board">(.*)</main>', page, re.S)
            shown = found is not None and found.group(1) == want
            if not shown:
                time.sleep(0.02)
        if picture is None:
            return shown, True
        body = self.get(picture_url(picture))
        return shown, body is not None and hashlib.sha256(body).hexdigest() == picture


def board_wanted(path: Path) -> tuple[str, str | None]:
    """The board the server should show of the journal at ``path`` as it is now (up to a damaged
    line, saying where it is), and the picture of its last roll."""
    contents = read_journal(path)
    board = board_of(contents.events)
    board = replace(board, damaged_at=contents.damage.line if contents.damage is not None else 0)
    return board_html(board), board.last_roll.picture if board.last_roll is not None else None


def half_written_pictures(path: Path) -> int:
    """Pictures under their final name whose bytes are not the ones the name was made of."""
    found = 0
    for picture in photos_folder(path).glob(f"*{PHOTO_SUFFIX}"):
        found += hashlib.sha256(picture.read_bytes()).hexdigest() != picture.stem
    return found


def soak_journal(folder: Path, kills_wanted: int, rng: random.Random) -> dict[str, int]:
    """The journal writer, and its recovery from a torn last line: after each kill the next start
    (the games listed, then the game opened) holds every event shown, keeps each damaged file
    once, and leaves no file of a recovery cut off; the scoreboard server, killed now and then,
    shows each time what the journal holds."""
    counts = {"journal_kills": 0, "journal_events_shown": 0, "journal_events_lost": 0, "damaged_lines_written": 0, "kills_inside_recovery": 0, "killed_before_the_first_event": 0, "hidden_games": 0, "stray_after_start": 0, "pictures_named": 0, "pictures_not_whole": 0, "picture_writes_cut_off": 0, "pictures_half_written": 0, "server_kills": 0, "server_starts_failed": 0, "boards_checked": 0, "damage_shown": 0, "boards_not_shown": 0, "pictures_served_not_whole": 0}
    home = folder / "home"
    games = home / "games"
    games.mkdir(parents=True)
    path = games / "game.jsonl"
    server = Server(path)

    def check_server() -> None:
        """The server (started again if it was killed) shows what the journal holds now."""
        if not server.pid and not server.start():
            counts["server_starts_failed"] += 1
            return
        want, picture = board_wanted(path)
        shown, whole = server.shows(want, picture)
        counts["boards_checked"] += 1
        counts["damage_shown"] += shown and 'id="damaged"' in want
        counts["boards_not_shown"] += not shown
        counts["pictures_served_not_whole"] += not whole
    try:
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
            if server.pid and rng.random() < SERVER_KILL_SHARE:  # while it reads the journal being written
                first = rng.uniform(0.0, wait)
                time.sleep(first)
                server.kill()
                counts["server_kills"] += 1
                wait -= first
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
            counts["pictures_half_written"] += half_written_pictures(path)
            torn = read_journal(path).damage is not None
            if torn or rng.random() < SERVER_CHECK_SHARE:
                check_server()
            listed = unfinished_games(home)
            for partial in photos_folder(path).glob(".*.tmp"):  # as a later start finds a killed write's file
                os.utime(partial, (time.time() - STALE_SECONDS - 1,) * 2)
                counts["picture_writes_cut_off"] += 1
            tidy_photo_folders(home)
            counts["stray_after_start"] += len(list(photos_folder(path).glob(".*")))
            recovered = open_journal(path)
            recovered.journal.close()
            if torn:  # the notice goes once the next start has recovered the journal
                check_server()
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
    finally:
        server.kill()  # whatever went wrong, no server is left running
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
