"""``scorekeeper export SAVED_GAME --format csv|pdf|html -o FILE``: the score sheet, no window."""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from scorekeeper.export import FORMATS, ExportError, csv_text, html_text, load_events, score_sheet
from scorekeeper.export.writers import SHEET_FILES, check_sheet_target, write_sheet_file, written_words
from scorekeeper.game import Event

INTERRUPTED = "interrupted (Ctrl+C); no score sheet written"
"""What ``export`` says, and all it says, when Ctrl+C stops it."""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "export",
        help="write a game's score sheet as CSV, PDF or HTML",
        description="Write the score sheet of a saved game or a game journal (finished or not) "
        "as CSV, a printable PDF or HTML, without opening the window. "
        + " ".join(f"{kind.upper()}: {words}." for kind, words in SHEET_FILES.items())
        + " The HTML can be sent, opened on a phone, or kept after the game is deleted.",
    )
    parser.add_argument("saved_game", metavar="SAVED_GAME", type=Path, help="a saved game or a journal (.jsonl)")
    parser.add_argument("--format", choices=FORMATS, help="the sheet's format (default: from the -o file's ending)")
    parser.add_argument("-o", "--output", metavar="FILE", type=Path, required=True, help="where to write the sheet")
    parser.add_argument(
        "--no-photos", action="store_true", help="leave out the rolls' pictures (by default each roll the camera took shows its own)"
    )
    parser.set_defaults(run=run)


def sheet_format(output: Path, chosen: str | None) -> str:
    """The format asked for, or the one the output file's ending names."""
    if chosen is not None:
        return chosen
    ending = output.suffix.lower().lstrip(".")
    if ending in FORMATS:
        return ending
    raise ExportError(f"{output}: say which format with --format {'|'.join(FORMATS)} (the file ending does not name one)")


@contextmanager
def interrupts_held() -> Iterator[Callable[[], bool]]:
    """Within the block Ctrl+C only takes note, and the block runs to its end (Qt must not be
    interrupted in the middle of a call: that ends in a fatal error); yields whether it was pressed.
    Where Ctrl+C is ignored, or off the main thread, nothing changes."""
    pressed: list[int] = []
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        yield lambda: False
        return
    previous = signal.signal(signal.SIGINT, lambda number, frame: pressed.append(number))
    try:
        yield lambda: bool(pressed)
    finally:
        signal.signal(signal.SIGINT, previous)


def sheet_bytes(events: Sequence[Event], kind: str, journal: Path | None = None) -> bytes:
    """The score sheet of ``events`` as ``kind`` (csv, html or pdf), with the pictures of the rolls
    kept beside ``journal`` if it is given."""
    if kind == "csv":
        return csv_text(score_sheet(events, None, journal)).encode("utf-8")
    if kind == "html":
        return html_text(score_sheet(events, None, journal)).encode("utf-8")
    from scorekeeper.ui.pdf_export import pdf_bytes

    return pdf_bytes(events, None, journal)


def write_sheet(events: Sequence[Event], output: Path, kind: str, journal: Path | None = None) -> None:
    """Write the score sheet of ``events`` to ``output`` as ``kind`` (csv, html or pdf), with the
    pictures of the rolls kept beside ``journal`` if it is given; Ctrl+C while it is drawn stops it
    before anything is written (:class:`KeyboardInterrupt`)."""
    check_sheet_target(output)
    with interrupts_held() as pressed:
        data = sheet_bytes(events, kind, journal)
    if pressed():
        raise KeyboardInterrupt
    write_sheet_file(output, data)


def run(args: argparse.Namespace) -> int:
    kind = sheet_format(args.output, args.format)
    try:
        events, damage = load_events(args.saved_game)
        if damage is not None:
            print(f"scorekeeper export: warning: {damage}; the sheet shows the game up to there", file=sys.stderr)
        write_sheet(events, args.output, kind, None if args.no_photos else args.saved_game)
    except KeyboardInterrupt:
        print(f"scorekeeper export: {INTERRUPTED}", file=sys.stderr)
        return 130
    print(written_words(args.output, kind))
    return 0
