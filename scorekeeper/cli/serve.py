"""``scorekeeper serve [GAME]``: the scoreboard of a game on the players' phones, kept up to date."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import Any

from scorekeeper.game.journal import default_home, games_folder, unfinished_games
from scorekeeper.game.save import game_file_kind
from scorekeeper.serve import ScoreServer, ServeError, lan_address
from scorekeeper.safe_input import MAX_FILE_BYTES, check_file
from scorekeeper.serve.server import MAX_CLIENTS


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "serve",
        help="show a game's scoreboard on the players' phones",
        description="Serve a read-only page of a game's scoreboard to the phones at the table, updated as the "
        "game goes on. Prints the page's address (with its secret token); Ctrl+C stops.",
    )
    parser.add_argument(
        "game",
        metavar="GAME",
        nargs="?",
        type=Path,
        help="a game journal (.jsonl) or a game saved by 'play --save' (default: the newest unfinished game)",
    )
    parser.add_argument("--host", metavar="ADDR", help="the address to listen on (default: this machine's address on the local network)")
    parser.add_argument("--port", metavar="P", type=int, default=0, help="the port to listen on (default: any free one)")
    parser.add_argument(
        "--max-clients",
        metavar="N",
        type=int,
        default=MAX_CLIENTS,
        help=f"pages following the game at once (default {MAX_CLIENTS}); page loads are never turned away for them",
    )
    parser.set_defaults(run=run)


def game_to_follow(named: Path | None, home: Path) -> Path:
    """The file ``serve`` follows: the one named, else the newest unfinished game of ``home``."""
    if named is not None:
        if not os.path.lexists(named):
            raise ServeError(f"{named}: no such file; name a game journal (.jsonl) or a game saved by 'play --save'")
        check_file(named, "game journal or saved game", ServeError, MAX_FILE_BYTES)
        if game_file_kind(named) is None:
            raise ServeError(f"{named}: not a scorekeeper journal or saved game")
        return named
    found = unfinished_games(home, tidy=False)
    if not found:
        raise ServeError(
            f"no unfinished game in {games_folder(home)}; name the game to show: scorekeeper serve GAME"
        )
    return found[0]


async def serve(game_file: Path, host: str, port: int, max_clients: int) -> None:
    """Serve until cancelled (Ctrl+C)."""
    server = ScoreServer(game_file, host, port, max_clients=max_clients)
    await server.start()
    print(f"Scoreboard of {game_file} at {server.url}", flush=True)
    print("Open that address on the phones at the table (same network). Ctrl+C stops.", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await server.stop()


def run(args: argparse.Namespace) -> int:
    if not 0 <= args.port <= 65535:
        raise ServeError(f"--port {args.port}: give a port from 1 to 65535, or 0 for any free one")
    if args.max_clients < 1:
        raise ServeError(f"--max-clients {args.max_clients}: at least 1")
    game_file = game_to_follow(args.game, default_home())
    try:
        asyncio.run(serve(game_file, args.host or lan_address(), args.port, args.max_clients))
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    return 0
