"""``scorekeeper history [--json] [--player NAME] [--rules NAME]``: every finished game of the
scorekeeper home added up per player, head to head, and the records across them.

The numbers come from :mod:`scorekeeper.stats.history`, which the window's Players window reads too.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from scorekeeper.terminal import visible


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "history",
        help="every finished game added up: per player, head to head, and the records",
        description="Add up every finished game of the scorekeeper home (its journals and the games saved "
        "in its games folder): per player, games, wins, win share, points per turn, Farkle share, hot dice, "
        "best turn and longest Farkle streak; head to head; and the biggest turn and the fastest win with "
        "the game each comes from. Unfinished games are counted apart; a damaged journal is left out with "
        "a note naming it. Names are matched as typed, case and spaces aside (the Players window merges one "
        "name into another). Nothing is written into the games; what each file holds is kept in the home's "
        "history-cache.json, so only new and changed files are read again (many new files are read on up to 4 "
        "processors at once).",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object")
    parser.add_argument("--player", metavar="NAME", help="only the games of this player, and only their row, head to head and records")
    parser.add_argument(
        "--rules", metavar="NAME", help="only the games played under these rules, by name as 'rules list' gives it (retail, retail+doubling)"
    )
    parser.set_defaults(run=run)


def _table(rows: Sequence[tuple[str, ...]], names: int = 1) -> list[str]:
    """Rows as aligned columns: the first ``names`` (names) to the left, the rest (numbers) to the
    right, each cell's control characters made visible (:func:`visible`)."""
    rows = [tuple(visible(cell) for cell in row) for row in rows]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    return [
        "  ".join(cell.ljust(width) if column < names else cell.rjust(width) for column, (cell, width) in enumerate(zip(row, widths))).rstrip()
        for row in rows
    ]


def run(args: argparse.Namespace) -> int:
    from scorekeeper.game.games_folder import default_home, games_folder
    from scorekeeper.stats.history import PLAYER_COLUMNS, counted_line, history_dict, history_of, read_workers

    home = default_home()
    history = history_of(home, args.player, args.rules, workers=read_workers())
    for note in (*history.notes, *map(str, history.skipped)):
        print(visible(f"scorekeeper history: {note}"), file=sys.stderr)
    if args.json:
        print(json.dumps({"folder": str(games_folder(home)), **history_dict(history)}))
        return 0
    print(visible(f"{counted_line(history)} in {games_folder(home)}"))
    if not history.players:
        print("Nothing to add up yet: a game counts here once it is over.")
        return 0
    print()
    header = tuple(column.title for column in PLAYER_COLUMNS)
    print("\n".join(_table([header, *(tuple(column.cell(player) for column in PLAYER_COLUMNS) for player in history.players)])))
    if history.head_to_head:
        print("\nHead to head (finished ahead, in the games played together)")
        rows: list[tuple[str, ...]] = [("Player", "Opponent", "Games", "Ahead", "Behind")]
        rows += [(h.player, h.opponent, f"{h.games:,}", f"{h.ahead:,}", f"{h.behind:,}") for h in history.head_to_head]
        print("\n".join(_table(rows, names=2)))
    if history.records:
        print("\nRecords")
        for record in history.records:
            print(visible(f"  {record}"))
    return 0
