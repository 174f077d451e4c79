"""The scoreboard on the players' phones: a read-only page of a game, kept up to date from its
journal (or a saved game) as it grows. Off unless ``scorekeeper serve`` or the window's View menu
starts it. No Qt here.
"""

from scorekeeper.serve.address import LOOPBACK, NoNetwork, Reach, Sharing, network_address, reach_said
from scorekeeper.serve.background import BackgroundServer
from scorekeeper.serve.board import Board, LastRoll, Seat, board_of
from scorekeeper.serve.follow import GameFollower
from scorekeeper.serve.page import board_html, page_html
from scorekeeper.serve.server import ScoreServer, ServeError

__all__ = [
    "LOOPBACK",
    "NoNetwork",
    "Reach",
    "Sharing",
    "BackgroundServer",
    "Board",
    "GameFollower",
    "LastRoll",
    "ScoreServer",
    "Seat",
    "ServeError",
    "board_html",
    "board_of",
    "network_address",
    "page_html",
    "reach_said",
]
