"""Each kind of game event as the journal and saved games hold it: read back field for field, and
every malformed line refused with a message that quotes it and names the field."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.game import (
    Banked,
    DiceRolled,
    DieCorrected,
    EventFormatError,
    Farkled,
    GameStarted,
    Kept,
    PlayerAdded,
    PointsEntered,
    Redone,
    Undone,
    event_from_dict,
    event_to_dict,
)
from scorekeeper.rules import Dice, load_rules

PHOTO = "ab" * 32
KNOWN = "started, player, rolled, corrected, kept, points, banked, farkled, piggybacked, fresh, undo, redo"


@pytest.mark.parametrize(
    "line, event",
    [
        ({"type": "player", "name": "Zoë"}, PlayerAdded("Zoë")),
        ({"type": "rolled", "dice": [6, 1, 5], "source": "camera", "photo": PHOTO}, DiceRolled(Dice([1, 5, 6]), "camera", PHOTO)),
        ({"type": "rolled", "dice": [2, 2]}, DiceRolled(Dice([2, 2]), "typed", None)),
        ({"type": "corrected", "was": 3, "now": 5, "picture": "tap-1.png", "photo": PHOTO}, DieCorrected(3, 5, "tap-1.png", PHOTO)),
        ({"type": "corrected", "was": None, "now": 4}, DieCorrected(None, 4, None, None)),
        ({"type": "corrected", "was": 2}, DieCorrected(2, None, None, None)),
        ({"type": "kept", "dice": [5, 1]}, Kept(Dice([1, 5]))),
        ({"type": "rolled", "dice": [3, "1w", "5r"]}, DiceRolled(Dice([1, 3, 5], ["w", "", "r"]), "typed", None)),
        ({"type": "kept", "dice": ["1wr", 5]}, Kept(Dice([1, 5], ["wr", ""]))),
        ({"type": "corrected", "was": 1, "now": "1w"}, DieCorrected(1, "1w", None, None)),
        ({"type": "corrected", "was": "5r", "now": None}, DieCorrected("5r", None, None, None)),
        ({"type": "points", "points": 350, "note": "the card"}, PointsEntered(350, "the card")),
        ({"type": "points", "points": -500}, PointsEntered(-500, "")),
        ({"type": "banked"}, Banked()),
        ({"type": "farkled"}, Farkled()),
        ({"type": "undo"}, Undone()),
        ({"type": "redo"}, Redone()),
    ],
)
def test_each_kind_of_line_reads_back_as_its_event(line: dict[str, Any], event: object) -> None:
    assert event_from_dict(line) == event


def test_a_start_reads_back_with_its_whole_rules_target_and_time() -> None:
    rules = load_rules("house-2009")
    line = {**event_to_dict(GameStarted(rules, 5000, "2026-12-05T20:15:00+01:00")), "target": 7500}
    event = event_from_dict(line)
    assert event == GameStarted(rules, 7500, "2026-12-05T20:15:00+01:00")


@pytest.mark.parametrize(
    "line, message",
    [
        ([1, 2], f"not a game event: [1, 2]; known types: {KNOWN}"),
        ({"type": "rolls"}, f"not a game event: {{'type': 'rolls'}}; known types: {KNOWN}"),
        ({"dice": [1]}, f"not a game event: {{'dice': [1]}}; known types: {KNOWN}"),
        ({"type": "player"}, "event {'type': 'player'}: field 'name' is missing or of the wrong type"),
        ({"type": "player", "name": 7}, "event {'type': 'player', 'name': 7}: field 'name' is missing or of the wrong type"),
        ({"type": "rolled", "dice": "1 2 3"}, "event {'type': 'rolled', 'dice': '1 2 3'}: field 'dice' is missing or of the wrong type"),
        ({"type": "kept", "dice": None}, "event {'type': 'kept', 'dice': None}: field 'dice' is missing or of the wrong type"),
        ({"type": "points", "points": True}, "event {'type': 'points', 'points': True}: field 'points' is missing or of the wrong type"),
        ({"type": "points", "points": 2.5}, "event {'type': 'points', 'points': 2.5}: field 'points' is missing or of the wrong type"),
        ({"type": "corrected", "was": "3", "now": 5}, "event {'type': 'corrected', 'was': '3', 'now': 5}: field 'was' must be a face 1-6, a face with its marks such as '1w' or '5r', or null"),
        ({"type": "corrected", "was": 3, "now": True}, "event {'type': 'corrected', 'was': 3, 'now': True}: field 'now' must be a face 1-6, a face with its marks such as '1w' or '5r', or null"),
        ({"type": "corrected", "was": "1W", "now": 5}, "event {'type': 'corrected', 'was': '1W', 'now': 5}: field 'was' must be a face 1-6, a face with its marks such as '1w' or '5r', or null"),
        ({"type": "rolled", "dice": [1, "5"]}, "event {'type': 'rolled', 'dice': [1, '5']}: die '5' in field 'dice' is not a face 1-6 or a face with its marks such as '1w' or '5r'"),
        ({"type": "kept", "dice": ["5x"]}, "event {'type': 'kept', 'dice': ['5x']}: die '5x' in field 'dice' is not a face 1-6 or a face with its marks such as '1w' or '5r'"),
    ],
)
def test_a_malformed_line_is_refused_quoting_it_and_naming_the_field(line: Any, message: str) -> None:
    with pytest.raises(EventFormatError) as refused:
        event_from_dict(line)
    assert str(refused.value) == message


@pytest.mark.parametrize("picture", ["", "a/b.png", "a\\b.png", ".", "..", 5])
def test_a_correction_whose_picture_is_not_a_plain_file_name_is_refused(picture: object) -> None:
    line = {"type": "corrected", "was": 3, "now": 5, "picture": picture}
    with pytest.raises(EventFormatError) as refused:
        event_from_dict(line)
    assert str(refused.value) == f"event {line!r}: field 'picture' must be a file name (no folder) or absent"


@pytest.mark.parametrize("kind", ["rolled", "corrected"])
@pytest.mark.parametrize("photo", ["AB" * 32, "ab" * 31, "ab" * 32 + "c", "../" + "a" * 61, 7])
def test_a_roll_picture_that_is_not_a_sha256_name_is_refused(kind: str, photo: object) -> None:
    line: dict[str, Any] = {"type": kind, "dice": [1, 2], "photo": photo} if kind == "rolled" else {"type": kind, "was": 1, "now": 2, "photo": photo}
    with pytest.raises(EventFormatError) as refused:
        event_from_dict(line)
    message = str(refused.value)
    assert message.startswith(f"event {{'type': '{kind}', ")
    assert message.endswith(": field 'photo' must be a picture's SHA-256 (64 hex digits) or absent")


@pytest.mark.parametrize("field, value", [("rules", None), ("target", None), ("target", "10000"), ("started_at", 1)])
def test_a_start_missing_a_field_is_refused_naming_it(field: str, value: object) -> None:
    line = {**event_to_dict(GameStarted(load_rules("retail"), 10000, "2026-12-05T20:15:00+00:00")), field: value}
    with pytest.raises(EventFormatError) as refused:
        event_from_dict(line)
    assert str(refused.value).endswith(f": field {field!r} is missing or of the wrong type")


def test_dice_no_game_can_roll_are_refused_quoting_the_line() -> None:
    line = {"type": "rolled", "dice": [1, 7]}
    with pytest.raises(EventFormatError) as refused:
        event_from_dict(line)
    assert str(refused.value).startswith("event {'type': 'rolled', 'dice': [1, 7]}: ")
    assert "7" in str(refused.value).removeprefix("event {'type': 'rolled', 'dice': [1, 7]}: ")


@pytest.mark.parametrize(
    "event, line",
    [
        (DiceRolled(Dice.from_str("1w 5r 3 1")), {"type": "rolled", "dice": [1, "1w", 3, "5r"], "source": "typed"}),
        (Kept(Dice.from_str("5 5r")), {"type": "kept", "dice": [5, "5r"]}),
        (DieCorrected(2, "5r"), {"type": "corrected", "was": 2, "now": "5r"}),
        (DiceRolled(Dice.from_str("6 1 5")), {"type": "rolled", "dice": [1, 5, 6], "source": "typed"}),
    ],
)
def test_a_marked_die_is_written_as_its_token_and_a_plain_die_as_an_int(event: Any, line: dict[str, Any]) -> None:
    assert event_to_dict(event) == line
    assert event_from_dict(line) == event


def test_two_wild_dice_in_one_roll_are_refused_quoting_the_line() -> None:
    line = {"type": "rolled", "dice": ["1w", "3w"]}
    with pytest.raises(EventFormatError) as refused:
        event_from_dict(line)
    assert str(refused.value) == f"event {line!r}: '1w 3w' has more than one wild die; mark only the die of the other colour with w"
