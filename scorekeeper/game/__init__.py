"""The game: an append-only log of events, the state derived from it, and its files.

By module: ``events`` (the log's events); ``game`` and ``state`` (the game and the state derived
from its steps in force); ``controller`` (what every table plays through); ``commands`` (what a
typed line means); ``journal`` (the journal file and its crash recovery) and ``journal_error``;
``lock`` (one writer per game); ``games_folder`` (where games are kept, the unfinished ones);
``save`` (saved games, and telling a journal from a saved game); ``history`` and
``history_edits`` (the finished turns, and replacing one); ``photos`` (each roll's picture);
``describe`` (turns and steps in plain words); ``resume`` (the games a player can go on with).

Pure Python: nothing here imports Qt, OpenCV, onnxruntime or numpy.
"""

from scorekeeper.game.events import (
    Action,
    Banked,
    DiceRolled,
    DieCorrected,
    Event,
    EventFormatError,
    Farkled,
    FreshDice,
    GameStarted,
    Kept,
    Piggybacked,
    PlayerAdded,
    PointsEntered,
    Redone,
    StepsInForce,
    Undone,
    event_from_dict,
    event_to_dict,
    face_from_str,
    face_to_str,
)
from scorekeeper.game.describe import describe_turn, game_over
from scorekeeper.game.game import EventSink, Game
from scorekeeper.game.save import SaveFileError, game_from_json, game_to_json, load_game, save_game
from scorekeeper.game.state import GameState, Outcome, Phase, PlayerState, Pot, TurnRecord, TurnState, apply

__all__ = [
    "Action",
    "Banked",
    "DiceRolled",
    "DieCorrected",
    "Event",
    "EventFormatError",
    "EventSink",
    "Farkled",
    "FreshDice",
    "Game",
    "GameStarted",
    "GameState",
    "Kept",
    "Outcome",
    "Phase",
    "Piggybacked",
    "PlayerAdded",
    "PlayerState",
    "PointsEntered",
    "Pot",
    "Redone",
    "SaveFileError",
    "StepsInForce",
    "TurnRecord",
    "TurnState",
    "Undone",
    "apply",
    "describe_turn",
    "event_from_dict",
    "event_to_dict",
    "face_from_str",
    "face_to_str",
    "game_over",
    "game_from_json",
    "game_to_json",
    "load_game",
    "save_game",
]
