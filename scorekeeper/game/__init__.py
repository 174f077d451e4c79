"""The game: an append-only log of events, the state derived from it, saving and loading.

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
    GameStarted,
    Kept,
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
from scorekeeper.game.state import GameState, Outcome, Phase, PlayerState, TurnRecord, TurnState, apply

__all__ = [
    "Action",
    "Banked",
    "DiceRolled",
    "DieCorrected",
    "Event",
    "EventFormatError",
    "EventSink",
    "Farkled",
    "Game",
    "GameStarted",
    "GameState",
    "Kept",
    "Outcome",
    "Phase",
    "PlayerAdded",
    "PlayerState",
    "PointsEntered",
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
