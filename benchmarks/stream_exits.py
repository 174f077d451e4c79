"""How ``scorekeeper watch`` (and the window) end on a phone's MJPEG stream, run after run: exits, crashes, hangs.

    python benchmarks/stream_exits.py [--runs 10] [--python PYTHON] [--checkout DIR] [--paths end,sigint,...]

An MJPEG camera is served from 127.0.0.1 (``scorekeeper/testbed/mjpeg_camera.py``, the tests' own) and the
command is run ``--runs`` times as a process of its own (``PYTHON -m scorekeeper`` in ``--checkout``,
by default this one: another checkout measures its code against the same camera) for each way a
session ends:

- ``end``: ``watch URL --max-frames 30``, the frames' end;
- ``game``: ``watch URL --game --players Ann,Bob --max-frames 30 --sheet FILE``;
- ``sigint``: Ctrl-C (SIGINT) a second after the stream is watched;
- ``outage``: the camera cut mid-picture and away (answering 503); Ctrl-C 3 s into the outage;
- ``gone``: the camera cut mid-picture and its app closed (nothing takes connections); Ctrl-C 5 s
  into the outage (for these two, the lines printed from the cut on are counted);
- ``refused``: the camera cut, then asking for a password (401) when it comes back; Ctrl-C after
  15 s if the process has not ended by itself;
- ``window``: the window on the stream, ``--screenshot`` after 3 s (it then closes itself).

Then three checks of the address: a camera that redirects (302) to another computer
(``localhost``, a second camera there), and a password holding an ``@`` or a ``/``: is it
followed, is the password printed. Prints a row per path: the exit statuses seen and how often.
"""

from __future__ import annotations

import argparse
import collections
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.testbed.mjpeg_camera import jpegs, mjpeg_camera  # noqa: E402

PATHS = ("end", "game", "sigint", "outage", "gone", "refused", "window")


def film() -> list[bytes]:
    rng = np.random.default_rng(0)
    return jpegs([rng.integers(0, 255, (240, 320, 3), dtype=np.uint8) for _ in range(40)])


def status(code: int | None) -> str:
    """An exit status as a shell tells it: 134 for SIGABRT, 139 for SIGSEGV; 'hung' for none."""
    if code is None:
        return "hung"
    return str(128 - code) if code < 0 else str(code)


class Run:
    """One command as a process of its own, its stderr read as it comes."""

    def __init__(self, python: str, checkout: Path, args: list[str], home: Path) -> None:
        env = {**os.environ, "SCOREKEEPER_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
        self.process = subprocess.Popen(
            [python, "-m", "scorekeeper", *args], cwd=checkout, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, bufsize=1
        )
        self.lines: list[str] = []

    def wait_for(self, text: str, timeout: float) -> bool:
        """Read stderr until a line holds ``text`` (True) or the process ends or ``timeout`` passes."""
        assert self.process.stderr is not None
        os.set_blocking(self.process.stderr.fileno(), False)
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            line = self.process.stderr.readline()
            if line:
                self.lines.append(line.rstrip("\n"))
                if text in line:
                    return True
            elif self.process.poll() is not None:
                return False
            else:
                time.sleep(0.02)
        return False

    def end(self, timeout: float = 30.0) -> str:
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return "hung"
        self.wait_for("\0", 0.2)  # what is left of stderr
        return status(self.process.returncode)


def one(path: str, python: str, checkout: Path, frames: list[bytes], scratch: Path) -> tuple[str, int]:
    """One run of ``path``: its exit status, and the lines printed during an outage (outage only)."""
    with mjpeg_camera(frames, loop=True) as camera:
        if path == "window":
            run = Run(python, checkout, ["--source", camera.url, "--screenshot", str(scratch / "shot.png"), "--after", "3"], scratch)
            return run.end(60), 0
        args = ["watch", camera.url]
        if path in ("end", "game"):
            args += ["--max-frames", "30"]
        if path == "game":
            args += ["--game", "--players", "Ann,Bob", "--sheet", str(scratch / "sheet.csv")]
        if path in ("outage", "gone"):
            camera.drop_at(20, down=600)
        run = Run(python, checkout, args, scratch)
        outage = 0
        if path == "sigint" and run.wait_for("watching", 30):
            time.sleep(1.0)
            run.process.send_signal(signal.SIGINT)
        if path in ("outage", "gone") and run.wait_for("watching", 30):
            before = len(run.lines)
            if run.wait_for("stopped: reconnecting", 30):
                if path == "gone":
                    camera.stop()
                run.wait_for("\0", 3.0 if path == "outage" else 5.0)
                outage = len(run.lines) - before
                run.process.send_signal(signal.SIGINT)
        if path == "refused" and run.wait_for("watching", 30):
            camera.password = ("ann", "hunter2")
            camera.drop_at(camera.position + 5, down=0.5)
            if run.process.poll() is None:
                try:
                    run.process.wait(15)
                except subprocess.TimeoutExpired:
                    run.process.send_signal(signal.SIGINT)
        return run.end(), outage


def addresses(python: str, checkout: Path, frames: list[bytes], scratch: Path) -> list[str]:
    """The redirect and password checks, a line each."""
    rows = []
    with mjpeg_camera(frames, loop=True) as camera, mjpeg_camera(frames, loop=True) as elsewhere:
        camera.replies["/video"] = (302, {"Location": f"http://localhost:{elsewhere.port}/video"})
        run = Run(python, checkout, ["watch", camera.url, "--max-frames", "10"], scratch)
        code = run.end()
        said = " / ".join(line for line in run.lines if "localhost" in line or "another" in line)[:160]
        rows.append(f"redirect 302 to localhost: exit {code}, the other computer streamed from {elsewhere.connections} time(s); said: {said or '-'}")
    for password in ("Sup3r@SecretPW", "Kp9/Zx4@Wm7q"):
        with mjpeg_camera(frames, loop=True) as camera:
            camera.password = ("me", password)
            url = camera.url.replace("http://", f"http://me:{password}@")
            run = Run(python, checkout, ["watch", url, "--max-frames", "10"], scratch)
            code = run.end()
            printed = "\n".join(run.lines)
            leaked = [piece for piece in {password, *password.replace("/", "@").split("@")} - {""} if piece in printed]
            rows.append(f"password {password!r}: exit {code}; printed pieces of it: {leaked or 'none'}; first line: {run.lines[0][:110] if run.lines else '-'}")
    with mjpeg_camera(frames, loop=True) as camera:
        camera.password = ("me", "secret")
        run = Run(python, checkout, ["watch", camera.url, "--max-frames", "10"], scratch)
        code = run.end()
        rows.append(f"401 without a password: exit {code}; said: {run.lines[-1][:150] if run.lines else '-'}")
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--checkout", type=Path, default=ROOT)
    parser.add_argument("--paths", default=",".join(PATHS))
    args = parser.parse_args()
    frames = film()
    print(f"{args.checkout} ({args.python}), {args.runs} runs per path")
    with tempfile.TemporaryDirectory() as scratch:
        for path in args.paths.split(","):
            seen: collections.Counter[str] = collections.Counter()
            lines = []
            started = time.monotonic()
            for _ in range(args.runs):
                code, outage = one(path, args.python, args.checkout, frames, Path(scratch))
                seen[code] += 1
                lines.append(outage)
            crashes = sum(count for code, count in seen.items() if code in ("134", "139") or code.startswith("-"))
            extra = f", lines printed in the outage: {sorted(lines)}" if path in ("outage", "gone") else ""
            print(f"{path:8} runs {args.runs}, crashes {crashes}, exit statuses {dict(seen)}{extra} ({time.monotonic() - started:.0f} s)", flush=True)
        for row in addresses(args.python, args.checkout, frames, Path(scratch)):
            print(row, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
