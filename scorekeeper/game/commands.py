"""Typed commands: what a line typed at the table means, for the window's dice line and ``play``.

Digits are dice (a roll, or with a roll on the table the dice to keep), with or without spaces or
commas, each followed by its marks if it has any (``w`` the wild die, ``r`` red pips: ``1w 5r 3``);
``c`` corrects a misread die, written ``c 3 5`` or ``c35`` alike (``c - 5`` adds a missed 5,
``c 4 -`` says the 4 is not a die). The single letters of :data:`STEPS` bank, call the Farkle, undo
and redo: keys in the window, commands in ``play``. After a bank that left dice (the piggyback
variant), the words of :data:`CHOICES` take on the pot (``pig``) or turn it down (``fresh``); a roll
typed instead turns it down too. ``o1`` keeps an option of the roll, ``k 115`` keeps dice, ``p 400``
enters a card combination's points. :func:`parse_line` reads a line whole or refuses it saying what
it read (:class:`TypedLineError`). Plain Python: both front ends parse here.

:data:`STEP_TABLE` is what each named step does to the game and why it is refused; the turn editor's
grammar (:func:`step_text`, :func:`parse_step`) writes and reads a finished turn's steps one a line.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from scorekeeper.game.events import (
    Action,
    Banked,
    DiceRolled,
    DieCorrected,
    Farkled,
    FreshDice,
    Kept,
    Piggybacked,
    PointsEntered,
    face_from_str,
    face_to_str,
)
from scorekeeper.game.game import Game
from scorekeeper.game.state import GameState
from scorekeeper.rules import Dice, DieToken, FarkleError, GameKind, IllegalKeep, RuleSet
from scorekeeper.safe_input import is_plain_number, quote

STEPS = {"b": "bank", "f": "farkle", "z": "undo", "u": "undo", "y": "redo"}
"""Single letters (either case) and the step each one takes."""
CHOICES = {"pig": "piggyback", "piggyback": "piggyback", "fresh": "fresh dice"}
"""Words (either case) for the piggyback variant's choice, and the step each one takes: roll only
the dice the last player left with their points in the pot, or six fresh dice."""
DICE_CHARACTERS = "123456 ,wrWR"
"""What a line of typed dice is made of: faces, their mark letters, spaces and commas."""
LINE_CHARACTERS = frozenset("0123456789-, " + "".join(word + word.upper() for word in ("ckopwr", *CHOICES)))
"""Every character a line typed for the turn may hold: digits, dashes, spaces, commas and the
letters of its words (the keys' letters aside: they are keys)."""
FACE_CHARACTERS = "123456- ,wrWR"
"""What may follow the ``c`` of a correction typed without a space (``c35``, ``c4-``, ``c11w``)."""


@dataclass(frozen=True)
class Correction:
    """A correction typed: a die of the roll on the table is really another face."""

    was: DieToken | None
    """The die read, with its mark if it had one (None: a die that was not read at all)."""
    now: DieToken | None
    """The die it really is, with its mark (None: it is not a die)."""

    def take(self, game: Game) -> None:
        """Correct the die on the table, or raise why not."""
        game.correct(self.was, self.now)


def is_correction(line: str) -> bool:
    """Whether ``line`` is a correction: ``c`` as a word of its own, or ``c`` followed by faces.

    >>> is_correction("c 3 5"), is_correction("C35"), is_correction("c4-"), is_correction("cheese")
    (True, True, True, False)
    """
    text = line.strip()
    return text[:1] in ("c", "C") and (not text[1:2].strip() or all(char in FACE_CHARACTERS for char in text[1:]))


def parse_correction(line: str) -> Correction:
    """``c 3 5`` / ``c35`` / ``c - 5`` / ``c4-``: the die read and the die it really is, each with its
    marks if it has any (``c 1 1w``: the 1 is the wild die).

    >>> parse_correction("c35") == parse_correction("c 3 5") == Correction(3, 5)
    True
    >>> parse_correction("c - 5"), parse_correction("C4-"), parse_correction("c11w")
    (Correction(was=None, now=5), Correction(was=4, now=None), Correction(was=1, now='1w'))
    """
    words = line.strip()[1:].replace(",", " ").split()
    if len(words) == 2:
        return Correction(face_from_str(words[0]), face_from_str(words[1]))
    dice = _dice_words("".join(words))
    if len(dice) != 2:
        raise FarkleError(
            f"correction {quote(line.strip())}: type c, the face read and the real face, "
            "e.g. c35 or c 3 5 (- for a missed die or not a die; 1w for the wild die, 5r for red pips)"
        )
    return Correction(face_from_str(dice[0]), face_from_str(dice[1]))


def _dice_words(text: str) -> list[str]:
    """``"11w-"`` as its dice: ``["1", "1w", "-"]`` (a mark letter goes with the die before it)."""
    dice: list[str] = []
    for char in text:
        if char.lower() in ("w", "r") and dice and dice[-1] != "-":
            dice[-1] += char
        else:
            dice.append(char)
    return dice


def is_dice(line: str) -> bool:
    """Whether ``line`` is typed dice: digits 1-6 with their mark letters, spaces and commas.

    >>> is_dice("115 234"), is_dice("1,5"), is_dice("1w 5r 3"), is_dice("o1"), is_dice("  "), is_dice("r")
    (True, True, True, False, False, False)
    """
    text = line.strip()
    return text[:1] in "123456" and bool(text) and all(char in DICE_CHARACTERS for char in text)


def parse_dice(line: str) -> Dice:
    """Typed dice, with or without spaces or commas, each followed by its marks if any.

    >>> str(parse_dice("115 234")), str(parse_dice("1w 5r 3"))
    ('1 1 2 3 4 5', '1w 3 5r')
    """
    if not is_dice(line):
        raise FarkleError(
            f"{quote(line)}: type the dice as digits 1-6, e.g. 115234 (with w after the wild die, r after a red-pip face: 1w 5r 3)"
        )
    return Dice.from_str(line)


def parse_choice(line: str) -> str | None:
    """The piggyback choice a line names (a value of :data:`CHOICES`), or None when it names none.

    >>> parse_choice("pig"), parse_choice(" Fresh "), parse_choice("115")
    ('piggyback', 'fresh dice', None)
    """
    return CHOICES.get(line.strip().lower())


@dataclass(frozen=True)
class StepCommand:
    """A step named by its letter or word (``b``, ``pig``): taken as :data:`STEP_TABLE` says."""

    name: str
    """The step's name, a key of :data:`STEP_TABLE`."""

    def take(self, game: Game) -> None:
        """Take the step, or raise why it is refused."""
        take_step(game, self.name)

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class DiceCommand:
    """Dice typed: with a roll on the table the dice to keep from it, else the roll."""

    dice: Dice
    """The dice, with their marks."""
    keep: bool = False
    """Typed after ``k``: a keep, whether or not a roll is on the table."""

    def take(self, game: Game) -> None:
        """Keep the dice, or roll them when no roll is on the table (and ``k`` was not typed). A roll
        typed with fewer dice than are in play is refused as a typo: a die the camera missed is the
        camera's, not the keyboard's. A whole roll typed over a roll on the table that it does not
        keep from is refused saying how to replace that roll."""
        turn = game.state.turn
        if self.keep:
            game.keep(self.dice)
            return
        if turn is not None and turn.roll is not None:
            try:
                game.keep(self.dice)
            except IllegalKeep as error:
                faces_kept = Dice(turn.roll.values).contains(Dice(self.dice.values))
                if len(self.dice) != len(turn.roll) or faces_kept or game.state.missing_dice():
                    raise
                whose = "the camera's roll" if _last_roll_source(game) == "camera" else "the roll"
                raise IllegalKeep(
                    f"{error}: {whose} {turn.roll} is on the table; to replace it, z takes it back, then type the roll"
                ) from error
            return
        why = short_roll(game.state, self.dice)
        if why is not None:
            raise FarkleError(why)
        game.roll(self.dice)

    def __str__(self) -> str:
        return f"keep {self.dice}" if self.keep else f"the dice {self.dice}"


def _last_roll_source(game: Game) -> str | None:
    """Where the last roll of the game's steps came from ("typed" or "camera"); None before any."""
    roll = next((action for action in reversed(game.actions) if isinstance(action, DiceRolled)), None)
    return None if roll is None else roll.source


def _count(dice: int) -> str:
    return f"{dice} {'die' if dice == 1 else 'dice'}"


def short_roll(state: GameState, dice: Dice) -> str | None:
    """Why ``dice`` typed as a roll are refused where fewer are typed than are in play, saying what to
    type (all of them, ``pig`` first where a pot is offered, or an undo where
    fewer should be in play); None where the count is not short (the game checks the rest).

    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"])
    >>> short_roll(game.state, Dice.from_str("1 5 3"))
    'roll 1 3 5: 3 dice typed, 6 in play: type all 6, or z to undo the last step if fewer should be in play'
    """
    turn = state.turn
    if turn is None or turn.roll is not None or not 0 < len(dice) < turn.dice_left:
        return None
    why = f"roll {dice}: {_count(len(dice))} typed, {turn.dice_left} in play: type all {turn.dice_left}"
    pot = state.pot_offered()
    if pot is not None:
        return f"{why}, or 'pig' first to roll only the {_count(pot.dice)} left with the {pot.points:,} banked"
    return f"{why}, or z to undo the last step if fewer should be in play"


@dataclass(frozen=True)
class OptionCommand:
    """``o1``, ``o 2``: keep that option of the roll on the table (``o1`` scores the most)."""

    number: str
    """The option's number as typed."""

    def take(self, game: Game) -> None:
        """Keep the option, or raise why there is none such."""
        state = game.state
        scored = state.roll_score()
        if scored is None:
            if state.turn is not None and state.turn.roll is not None:
                missing = state.missing_dice()
                raise FarkleError(
                    f"keep option {quote(self.number)}: {missing} {'die' if missing == 1 else 'dice'} of the roll not read; "
                    "'c - FACE' adds a missed die"
                )
            raise FarkleError(f"keep option {quote(self.number)}: there is no roll on the table; type the dice you rolled")
        if not is_plain_number(self.number) or not 1 <= int(self.number) <= len(scored.options):
            raise FarkleError(f"keep option {quote(self.number)}: the options of this roll are o1 to o{len(scored.options)}")
        game.keep(scored.options[int(self.number) - 1].keep)

    def __str__(self) -> str:
        return f"option {self.number}"


@dataclass(frozen=True)
class PointsCommand:
    """``p 400 three 4s``: points entered by hand in the card game, with what they were for."""

    points: int
    """The points."""
    note: str = ""
    """What they were for: the rest of the line."""

    def take(self, game: Game) -> None:
        """Enter the points, or raise why not (with dice, the dice are typed instead)."""
        if game.state.rules.kind is GameKind.DICE:
            raise FarkleError("points: 'p' is for the card game; with dice, type the dice you rolled and keep them")
        game.enter_points(self.points, self.note)

    def __str__(self) -> str:
        return f"{self.points} points"


Command = StepCommand | DiceCommand | OptionCommand | PointsCommand | Correction
"""A line typed for the turn, understood whole: each takes itself on the game (``command.take(game)``)."""

LINE_HELP = (
    "type the dice (115234), k and the dice to keep (k 115), o1 for an option, c 3 5 to correct a die, "
    "pig or fresh for the pot, b to bank, f for a Farkle, z or y to undo or redo"
)
"""What a typed line may be, in one line, for a line that is not one."""


class TypedLineError(FarkleError):
    """A typed line that is not read whole: nothing of it is taken."""

    def __init__(self, line: str, understood: str, rest: str) -> None:
        self.understood = understood
        """What was read of the line, in words ("" when nothing was)."""
        if understood:
            text = f"{quote(line)}: read {understood}, then {quote(rest)} is not understood; nothing was taken"
        else:
            text = f"{quote(line)} is not understood: {LINE_HELP}"
        super().__init__(text)


def _read_dice(text: str) -> tuple[str, str]:
    """``text`` cut where it stops being dice: the dice (faces, their mark letters, spaces and commas)
    and what follows.

    >>> _read_dice("115 x"), _read_dice("1w 5r 3"), _read_dice("1 w")
    (('115', 'x'), ('1w 5r 3', ''), ('1', 'w'))
    """
    end = 0
    for at, char in enumerate(text):
        marks = char in "wrWR" and at > 0 and text[at - 1] in "123456wrWR"
        if not (char in "123456 ," or marks):
            break
        end = at + 1
    return text[:end].strip(), text[end:].strip()


def _dice_after(line: str, word: str, rest: str, keep: bool) -> DiceCommand:
    """The dice of ``rest`` (what follows ``word`` in ``line``), read whole or refused."""
    dice, left = _read_dice(rest)
    if not dice and rest:
        raise TypedLineError(line, word, rest)
    command = DiceCommand(parse_dice(dice) if dice else Dice([]), keep)
    if left:
        raise TypedLineError(line, str(command), left)
    return command


def parse_line(line: str) -> Command:
    """A line typed for the turn, read whole (the window's typing line and ``play`` alike), or
    :class:`TypedLineError` saying what was read of it.

    >>> parse_line("o1"), parse_line("pig"), parse_line("k 1 5"), parse_line("B")
    (OptionCommand(number='1'), StepCommand(name='piggyback'), DiceCommand(dice=Dice(values=(1, 5)), keep=True), StepCommand(name='bank'))
    >>> parse_line("k 1 x")
    Traceback (most recent call last):
    ...
    scorekeeper.game.commands.TypedLineError: 'k 1 x': read keep 1, then 'x' is not understood; nothing was taken
    """
    text = line.strip()
    if is_correction(text):
        return parse_correction(text)
    words = text.split()
    first = words[0].lower() if words else ""
    rest = text[len(first):].strip()
    name = STEPS.get(first) or parse_choice(first)
    if name is not None:
        if rest:
            raise TypedLineError(text, name, rest)
        return StepCommand(name)
    if first == "k":
        return _dice_after(text, "k", rest, keep=True)
    if first == "o" and rest or first[:1] == "o" and first[1:].isdigit():
        number, left = (first[1:], rest) if first[1:] else (words[1], " ".join(words[2:]))
        if left:
            raise TypedLineError(text, str(OptionCommand(number)), left)
        return OptionCommand(number)
    if first == "p":
        if not words[1:] or not is_plain_number(words[1]):
            raise FarkleError("points: type 'p POINTS', e.g. 'p 400'")
        return PointsCommand(int(words[1]), " ".join(words[2:]))
    if text[:1] in tuple("123456"):
        return _dice_after(text, "", text, keep=False)
    raise TypedLineError(text, "", text)


def typing_hint(rules: RuleSet) -> str:
    """What the typing line suggests before anything is typed: the marks too, where the rules use them.

    >>> from scorekeeper.rules import load_rules
    >>> typing_hint(load_rules("retail")), typing_hint(load_rules("retail+wild-die+spicy"))
    ('type the dice, e.g. 115234, then Enter', 'type the dice, e.g. 1w 1 5r 2 3 4 (w: the wild die, r: red pips), then Enter')
    """
    marks = [word for used, word in ((rules.scoring.wild_die, "w: the wild die"), (rules.scoring.spicy, "r: red pips")) if used]
    if not marks:
        return "type the dice, e.g. 115234, then Enter"
    example = " ".join(("1w" if rules.scoring.wild_die else "1", "1", "5r" if rules.scoring.spicy else "5", "2 3 4"))
    return f"type the dice, e.g. {example} ({', '.join(marks)}), then Enter"


@dataclass(frozen=True)
class Step:
    """A step of the turn named by a key, a button or a typed word: what it does and when it is refused."""

    name: str
    """The step's name, as :data:`STEPS` and :data:`CHOICES` give it ("bank", "fresh dice")."""
    take: Callable[[Game], None]
    """The game's method that takes it."""
    refused: Callable[[GameState], str | None]
    """Why the step is refused before the game is asked (None: the game says, if it refuses)."""


def _why_no_bank(state: GameState) -> str | None:
    """Why a bank is refused where the game's own reason would mislead: a Farkle on the table.

    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"])
    >>> game.roll("2 2 3 3 4 6"); _why_no_bank(game.state)
    "bank: the roll 2 2 3 3 4 6 scores nothing, so there is no turn to bank: 'f' passes the dice"
    """
    scored = state.roll_score()
    if scored is not None and scored.farkle and state.turn is not None:
        return f"bank: the roll {state.turn.roll} scores nothing, so there is no turn to bank: 'f' passes the dice"
    return None


def _never(state: GameState) -> None:
    """No reason of its own: the game says why, if it refuses."""


STEP_TABLE = {
    step.name: step
    for step in (
        Step("bank", Game.bank, _why_no_bank),
        Step("farkle", Game.farkle, _never),
        Step("undo", Game.undo, _never),
        Step("redo", Game.redo, _never),
        Step("piggyback", Game.piggyback, _never),
        Step("fresh dice", Game.fresh_dice, _never),
    )
}
"""Every step :data:`STEPS` and :data:`CHOICES` name, by name: the panels and ``play`` take them here."""


def take_step(game: Game, name: str) -> None:
    """Take the step ``name`` (a key of :data:`STEP_TABLE`), or raise why it is refused and change nothing.

    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"])
    >>> game.roll("1 2 3 4 6 6"); take_step(game, "undo"); game.state.turn.roll is None
    True
    """
    step = STEP_TABLE[name]
    why = step.refused(game.state)
    if why is not None:
        raise FarkleError(why)
    step.take(game)


A = TypeVar("A", bound=Action)

STEP_HELP = (
    "One step a line: roll 1 1 5 2 3 4 / keep 1 1 5 / correct 3 5 (- for a missed die or not a die) / "
    "points 400 / bank / farkle / piggyback or fresh (first in a turn offered the last bank's pot)"
)
"""The turn editor's grammar in one line, for the editor to show."""


@dataclass(frozen=True)
class EditorStep(Generic[A]):
    """A kind of step in the turn editor: its word, and how its line reads and writes."""

    word: str
    """The line's first word ("keep")."""
    kind: type[A]
    """The step it stands for."""
    read: Callable[[list[str]], A | None]
    """The step from the line's other words (None: they do not fit the word)."""
    write: Callable[[A], str]
    """The line's other words for the step ("" for none)."""


def _no_words(step: Callable[[], A]) -> Callable[[list[str]], A | None]:
    """The reader of a word that takes no others (``bank``)."""
    return lambda rest: None if rest else step()


def _points(rest: list[str]) -> PointsEntered | None:
    return PointsEntered(int(rest[0]), " ".join(rest[1:])) if rest and rest[0].isdigit() else None


def _correction(rest: list[str]) -> DieCorrected | None:
    return DieCorrected(face_from_str(rest[0]), face_from_str(rest[1])) if len(rest) == 2 else None


EDITOR_STEPS: tuple[EditorStep[Any], ...] = (
    EditorStep("roll", DiceRolled, lambda rest: DiceRolled(Dice.from_str(" ".join(rest)), "typed"), lambda a: str(a.dice)),
    EditorStep("keep", Kept, lambda rest: Kept(Dice.from_str(" ".join(rest))), lambda a: str(a.dice)),
    EditorStep("correct", DieCorrected, _correction, lambda a: f"{face_to_str(a.was)} {face_to_str(a.now)}"),
    EditorStep("points", PointsEntered, _points, lambda a: f"{a.points}" + (f" {a.note}" if a.note else "")),
    EditorStep("bank", Banked, _no_words(Banked), lambda a: ""),
    EditorStep("farkle", Farkled, _no_words(Farkled), lambda a: ""),
    EditorStep("piggyback", Piggybacked, _no_words(Piggybacked), lambda a: ""),
    EditorStep("fresh", FreshDice, _no_words(FreshDice), lambda a: ""),
)
"""Every step a turn is made of, as the turn editor writes and reads it."""


def step_text(action: Action) -> str:
    """A step of a turn as one line of the turn editor.

    >>> step_text(Kept(Dice.from_str("1 1 5"))), step_text(Banked())
    ('keep 1 1 5', 'bank')
    """
    step = next((step for step in EDITOR_STEPS if type(action) is step.kind), None)
    if step is None:
        raise FarkleError(f"{action!r} is not a step of a turn")
    return " ".join(part for part in (step.word, step.write(action)) if part)


def parse_step(line: str) -> Action:
    """One line of the turn editor as a step.

    >>> parse_step("correct - 5")
    DieCorrected(was=None, now=5, picture=None, photo=None)
    """
    words = line.split()
    kind, rest = words[0].lower(), words[1:]
    step = next((step for step in EDITOR_STEPS if step.word == kind), None)
    try:
        action: Action | None = step.read(rest) if step is not None else None
    except ValueError as exc:
        raise FarkleError(f"step {line!r}: {exc}") from None
    if action is None:
        raise FarkleError(f"step {line!r} is not one of: {STEP_HELP}")
    return action


def parse_steps(text: str) -> list[Action]:
    """Every non-empty line of the editor as a step."""
    return [parse_step(line) for line in text.splitlines() if line.strip()]
