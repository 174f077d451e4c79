"""``scorekeeper serve [GAME]``: the scoreboard of a game on the players' phones, kept up to date."""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path
from typing import Any

from scorekeeper.game.games_folder import default_home, games_folder, unfinished_games
from scorekeeper.game.save import game_file_kind
from scorekeeper.serve import LOOPBACK, Reach, ScoreServer, ServeError, network_address, reach_said
from scorekeeper.serve.address import reach_of
from scorekeeper.safe_input import MAX_FILE_BYTES, check_file
from scorekeeper.serve.server import MAX_CLIENTS
from scorekeeper.terminal import visible


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
    parser.add_argument(
        "--host",
        metavar="ADDR",
        help="the address to listen on (default: this machine's address on its network, which the phones on that "
        "network reach; 127.0.0.1: this machine only)",
    )
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


def whom_it_reaches(host: str, network: str | None, named: bool) -> str:
    """What ``serve`` says under the address: whom it reaches, what to do to reach the phones where
    it does not (``named``: the address was given with ``--host``), and how to stop."""
    said = reach_said(host, network)
    if reach_of(host, network) is Reach.NETWORK:
        return f"{said} Open it on the phones at the table. Ctrl+C stops."
    if network is None:
        how = "connect it to the phones' network (their Wi-Fi) and start serve again" + (" without --host" if named else "")
    else:
        how = f"leave --host out (or give --host {network})"
    return f"{said} To share it with the phones, {how}. Ctrl+C stops."


async def serve(game_file: Path, host: str, port: int, max_clients: int, network: str | None, named: bool) -> None:
    """Serve until cancelled (Ctrl+C), saying whom the address reaches (``network``: this machine's
    network address, None where it has none; ``named``: the address was given with ``--host``)."""
    server = ScoreServer(game_file, host, port, max_clients=max_clients)
    await server.start()
    print(visible(f"Scoreboard of {game_file} at {server.url}"), flush=True)
    print(whom_it_reaches(host, network, named), flush=True)
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
    network = network_address()
    host = args.host or network or LOOPBACK
    try:
        asyncio.run(serve(game_file, host, args.port, args.max_clients, network, named=args.host is not None))
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    return 0
