"""The events a game is made of, and how each reads and writes as JSON.

The game is an append-only log of these; everything on the scoreboard is
derived from it (see :mod:`scorekeeper.game.state`).

>>> event = Kept(Dice.from_str("1 1 5"))
>>> event_to_dict(event)
{'type': 'kept', 'dice': [1, 1, 5]}
>>> event_from_dict({'type': 'kept', 'dice': [1, 1, 5]}) == event
True

A marked die (the wild die, a face with red pips) is written as its token, a string such as ``"1w"``,
in the same list; a plain die stays an int, so a game of plain dice reads and writes as it always has.

>>> event_to_dict(DiceRolled(Dice.from_str("1w 5r 3")))
{'type': 'rolled', 'dice': ['1w', 3, '5r'], 'source': 'typed'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from scorekeeper.rules import Dice, DieToken, FarkleError, IllegalAction, IllegalRoll, RuleSet, die_token, read_die, rules_from_table, rules_to_table
from scorekeeper.safe_input import quote


@dataclass(frozen=True)
class GameStarted:
    """The first event of every game: the rules and the target."""

    TYPE: ClassVar[str] = "started"
    rules: RuleSet
    """The rules in force, whole, so a saved game reads the same forever."""
    target: int
    """The score that ends the game (or starts the last lap)."""
    started_at: str
    """When the game began, ISO 8601 with the time zone."""


@dataclass(frozen=True)
class PlayerAdded:
    """A player takes the next seat."""

    TYPE: ClassVar[str] = "player"
    name: str
    """The player's name as shown on the scoreboard."""


@dataclass(frozen=True)
class DiceRolled:
    """The dice the current player rolled, as seen by the camera or typed."""

    TYPE: ClassVar[str] = "rolled"
    dice: Dice
    """The faces rolled."""
    source: str = "typed"
    """Where the roll came from: "typed" or "camera"."""
    photo: str | None = None
    """SHA-256 (hex) of the picture of the roll as the camera read it, kept beside the journal
    (:mod:`scorekeeper.game.photos`); None for a typed roll or when no pictures are kept."""


@dataclass(frozen=True)
class DieCorrected:
    """A die of the roll on the table was misread and is put right."""

    TYPE: ClassVar[str] = "corrected"
    was: DieToken | None
    """The die that was read (its face, with its mark if it has one: ``"1w"``); None when the camera
    missed the die."""
    now: DieToken | None
    """The die it really is (its face, with its mark: a tap may say it is the wild die, or that its
    pips are red); None when what was read is not a die."""
    picture: str | None = None
    """File name of the tapped die's picture kept for training in the corrections folder, if one
    was: whether this step is in force (or undone) decides whether the reader learns from it, in
    this session or in a resumed one."""
    photo: str | None = None
    """SHA-256 (hex) of the picture of the whole roll with this correction made (and marked), kept
    beside the journal like :attr:`DiceRolled.photo`; None when the tap kept none."""


def face_from_str(text: str) -> DieToken | None:
    """A die typed for a correction: a face 1-6 with its mark letters if any (``1w``, ``5r``), or
    ``-`` for none (a missed die, or not a die).

    >>> face_from_str("5"), face_from_str("1w"), face_from_str("-")
    (5, '1w', None)
    """
    if text == "-":
        return None
    try:
        return die_token(*read_die(text))
    except IllegalRoll:
        raise FarkleError(
            f"{quote(text)} is not a face of a die (1-6) with its marks (w: the wild die, r: red pips), or '-'"
        ) from None


def face_to_str(face: DieToken | None) -> str:
    """The inverse of :func:`face_from_str`."""
    return "-" if face is None else str(face)


@dataclass(frozen=True)
class Kept:
    """The player sets aside scoring dice from the roll on the table."""

    TYPE: ClassVar[str] = "kept"
    dice: Dice
    """The dice set aside."""


@dataclass(frozen=True)
class PointsEntered:
    """Points entered by hand: a card combination, or a turn scored without the camera."""

    TYPE: ClassVar[str] = "points"
    points: int
    """Points added to the turn total."""
    note: str = ""
    """What the points were for, as the player said ("three 4s")."""


@dataclass(frozen=True)
class Banked:
    """The player stops and adds the turn total to their score."""

    TYPE: ClassVar[str] = "banked"


@dataclass(frozen=True)
class Farkled:
    """The roll on the table scores nothing (or a Farkle card was drawn): the turn is lost."""

    TYPE: ClassVar[str] = "farkled"


@dataclass(frozen=True)
class Piggybacked:
    """Piggyback variant: the player takes on the pot the last player banked, to roll only the
    dice that player left (how many, and the points, follow from the game's steps before)."""

    TYPE: ClassVar[str] = "piggybacked"


@dataclass(frozen=True)
class FreshDice:
    """Piggyback variant: the player turns down the pot the last player banked and rolls six fresh dice."""

    TYPE: ClassVar[str] = "fresh"


@dataclass(frozen=True)
class Undone:
    """The last step that was not undone is taken back."""

    TYPE: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Redone:
    """The last step taken back is done again."""

    TYPE: ClassVar[str] = "redo"


PICTURE_FIELDS: dict[type[Any], tuple[str, ...]] = {DiceRolled: ("source", "photo"), DieCorrected: ("picture", "photo")}
"""The steps that carry pictures, and the fields that say where they came from: what a step typed
again in the turn editor cannot say, and keeps from the step it was."""

Action = PlayerAdded | DiceRolled | DieCorrected | Kept | PointsEntered | Banked | Farkled | Piggybacked | FreshDice
"""A step of play: what undo takes back."""
Event = GameStarted | Action | Undone | Redone
"""Anything in the log."""



@dataclass
class StepsInForce:
    """Which steps of a log stand once its undos and redos are worked out: the one place that says
    what undo and redo mean (the game, the journal and the statistics all go by it).

    >>> steps = StepsInForce.of([PlayerAdded("Ann"), Banked(), Undone(), Farkled(), Undone(), Redone()])
    >>> steps.active, steps.undone
    ([PlayerAdded(name='Ann'), Farkled()], [])
    """

    active: list[Action] = field(default_factory=list)
    """The steps in force, in order."""
    undone: list[Action] = field(default_factory=list)
    """The steps taken back and not done again since, the next to redo last."""

    @classmethod
    def of(cls, events: Iterable[Event]) -> StepsInForce:
        """The steps a log stands for (its start is no step)."""
        steps = cls()
        for event in events:
            if not isinstance(event, GameStarted):
                steps.take(event)
        return steps

    def take(self, event: Action | Undone | Redone) -> None:
        """Follow one more event: an undo takes back the last step in force, a redo does again the
        last one taken back, and any other step makes what was taken back stay so."""
        if isinstance(event, Undone):
            if not self.active:
                raise IllegalAction("undo: there is nothing to undo")
            self.undone.append(self.active.pop())
        elif isinstance(event, Redone):
            if not self.undone:
                raise IllegalAction("redo: there is nothing to redo")
            self.active.append(self.undone.pop())
        else:
            self.active.append(event)
            self.undone.clear()


EVENT_TYPES: dict[str, type[Any]] = {
    cls.TYPE: cls
    for cls in (
        GameStarted, PlayerAdded, DiceRolled, DieCorrected, Kept, PointsEntered, Banked, Farkled, Piggybacked, FreshDice,
        Undone, Redone,
    )
}


class EventFormatError(FarkleError):
    """An event in a saved game or journal cannot be read."""


def event_to_dict(event: Event) -> dict[str, Any]:
    """The event as plain JSON values."""
    data: dict[str, Any] = {"type": event.TYPE}
    if isinstance(event, GameStarted):
        data.update(rules=rules_to_table(event.rules), target=event.target, started_at=event.started_at)
    elif isinstance(event, PlayerAdded):
        data["name"] = event.name
    elif isinstance(event, DiceRolled):
        data.update(dice=event.dice.tokens(), source=event.source)
        if event.photo is not None:
            data["photo"] = event.photo
    elif isinstance(event, DieCorrected):
        data.update(was=event.was, now=event.now)
        if event.picture is not None:
            data["picture"] = event.picture
        if event.photo is not None:
            data["photo"] = event.photo
    elif isinstance(event, Kept):
        data["dice"] = event.dice.tokens()
    elif isinstance(event, PointsEntered):
        data.update(points=event.points, note=event.note)
    return data


def _field(data: dict[str, Any], name: str, kind: type[Any] | tuple[type[Any], ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is int):
        raise EventFormatError(f"event {quote(data)}: field {name!r} is missing or of the wrong type")
    return value


def _face(data: dict[str, Any], name: str) -> DieToken | None:
    value = data.get(name)
    if value is None or _is_token(value):
        return value
    raise EventFormatError(
        f"event {quote(data)}: field {name!r} must be a face 1-6, a face with its marks such as '1w' or '5r', or null"
    )


def _is_token(value: object) -> bool:
    """Whether ``value`` is a die token as the events write it: an int 1-6, or a marked die's string."""
    try:
        face, mark = read_die(value)
    except IllegalRoll:
        return False
    return die_token(face, mark) == value


def _dice(data: dict[str, Any]) -> Dice:
    tokens = _field(data, "dice", list)
    if all(isinstance(token, int) for token in tokens):
        return Dice(tokens)
    odd = next((token for token in tokens if not isinstance(token, int) and not _is_token(token)), None)
    if odd is not None:
        raise EventFormatError(
            f"event {quote(data)}: die {quote(odd)} in field 'dice' is not a face 1-6 or a face with its marks such as '1w' or '5r'"
        )
    return Dice.from_tokens(tokens)


def _picture(data: dict[str, Any]) -> str | None:
    value = data.get("picture")
    if value is not None and (not isinstance(value, str) or not value or "/" in value or "\\" in value or value in (".", "..")):
        raise EventFormatError(f"event {quote(data)}: field 'picture' must be a file name (no folder) or absent")
    return value


def _photo(data: dict[str, Any]) -> str | None:
    value = data.get("photo")
    if value is not None and not (isinstance(value, str) and is_photo_name(value)):
        raise EventFormatError(f"event {quote(data)}: field 'photo' must be a picture's SHA-256 (64 hex digits) or absent")
    return value


def is_photo_name(text: str) -> bool:
    """Whether ``text`` names a roll's picture: its SHA-256 as 64 lower-case hex digits.

    >>> is_photo_name("0" * 64), is_photo_name("../x.jpg")
    (True, False)
    """
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def event_from_dict(data: Any) -> Event:
    """Read an event back; :class:`EventFormatError` if it is not one."""
    if not isinstance(data, dict) or data.get("type") not in EVENT_TYPES:
        raise EventFormatError(f"not a game event: {quote(data)}; known types: {', '.join(EVENT_TYPES)}")
    kind = data["type"]
    try:
        if kind == GameStarted.TYPE:
            table = _field(data, "rules", dict)
            rules = rules_from_table(table, str(table.get("name", "saved")), "the saved game's rules")
            return GameStarted(rules, _field(data, "target", int), _field(data, "started_at", str))
        if kind == PlayerAdded.TYPE:
            return PlayerAdded(_field(data, "name", str))
        if kind == DiceRolled.TYPE:
            return DiceRolled(_dice(data), str(data.get("source", "typed")), _photo(data))
        if kind == DieCorrected.TYPE:
            return DieCorrected(_face(data, "was"), _face(data, "now"), _picture(data), _photo(data))
        if kind == Kept.TYPE:
            return Kept(_dice(data))
        if kind == PointsEntered.TYPE:
            return PointsEntered(_field(data, "points", int), str(data.get("note", "")))
    except EventFormatError:
        raise
    except FarkleError as exc:
        raise EventFormatError(f"event {quote(data)}: {exc}") from None
    event: Event = EVENT_TYPES[kind]()
    return event
