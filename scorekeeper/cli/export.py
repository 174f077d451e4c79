"""``scorekeeper export SAVED_GAME --format csv|pdf|html -o FILE``: the score sheet, no window."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from scorekeeper.export import FORMATS, ExportError, write_sheet
from scorekeeper.game.save import load_events
from scorekeeper.export.writers import SHEET_FILES, written_words
from scorekeeper.terminal import visible

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


def run(args: argparse.Namespace) -> int:
    kind = sheet_format(args.output, args.format)
    try:
        events, damage = load_events(args.saved_game)
        if damage is not None:
            print(visible(f"scorekeeper export: warning: {damage}; the sheet shows the game up to there"), file=sys.stderr)
        write_sheet(events, args.output, kind, None if args.no_photos else args.saved_game, hold_interrupts=True)
    except KeyboardInterrupt:
        print(f"scorekeeper export: {INTERRUPTED}", file=sys.stderr)
        return 130
    print(visible(written_words(args.output, kind)))
    return 0
