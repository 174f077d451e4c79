"""A whole game played from a camera or a recording, with no window: ``scorekeeper watch --game``.

The watch loop's steps go into the same :class:`~scorekeeper.table_session.session.TableSession` the
window runs; each roll it takes is scored, and the choices between rolls (which dice to keep,
bank or roll on, and under piggyback whether to take on the last bank's pot) are made by a
:class:`Chooser`: the coach's best play, or a decisions file.
A roll that farkles is a Farkle, a die read unsure is taken as read, and a roll with dice not
read is taken back to be thrown again (no one is there to tap; the game says so). Under the
wild-die or spicy variant a roll whose marks the camera cannot tell (which die is the wild one,
whether a face's pips are red) is not taken, and the dice are to be thrown again: no roll is
scored as if its marks were known when they are not.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from scorekeeper.coach import policy_for
from scorekeeper.coach.advice import Advice, advise_state
from scorekeeper.game import Action, Banked, Farkled, FreshDice, Game, GameState, Kept, Phase, Piggybacked
from scorekeeper.game.controller import GameController
from scorekeeper.camera.calibration import CalibrationProfile
from scorekeeper.camera.watch import Watcher
from scorekeeper.errors import ScorekeeperError
from scorekeeper.rules import Dice, FarkleError
from scorekeeper.safe_input import quote, read_text
from scorekeeper.table_session.assembly import CameraTable
from scorekeeper.table_session.marks import doubt_text
from scorekeeper.table_session.session import DiceOnTable, TableSession

ROLL_ON = "r"
BANK = "b"
PIGGYBACK = "p"
FRESH = "fresh"
MAX_DECISIONS_BYTES = 1_000_000
"""The largest decisions file read: a whole evening's choices take a few kilobytes."""


class DecisionsError(ScorekeeperError):
    """A decisions file that cannot be read, or that does not fit the game the camera sees."""


class Chooser(Protocol):
    """Who makes the choices between rolls."""

    def keep(self, state: GameState) -> Dice:
        """The dice to keep from the scoring roll on the table."""
        ...

    def bank(self, state: GameState) -> bool:
        """Bank now (True) or roll the dice left (False); asked only where both are allowed."""
        ...

    def piggyback(self, state: GameState) -> bool:
        """Piggyback: take on the pot of the last bank (True) or roll six fresh dice (False); asked
        only where the pot is offered."""
        ...


class CoachChooser:
    """The coach's best play (``scorekeeper coach``) for the rules in force."""

    def __init__(self, state: GameState) -> None:
        self.policy = policy_for(state.rules)

    def _advice(self, state: GameState) -> Advice:
        advice = advise_state(self.policy, state)
        if advice is None:
            raise DecisionsError(f"the coach has no advice for {state.rules.name} here")
        return advice

    def keep(self, state: GameState) -> Dice:
        best = self._advice(state).best_keep
        if best is None:
            raise DecisionsError("the coach found nothing to keep in a roll that scores")
        return best.keep

    def bank(self, state: GameState) -> bool:
        return bool(self._advice(state).bank)

    def piggyback(self, state: GameState) -> bool:
        pot = self._advice(state).pot
        if pot is None:
            raise DecisionsError("the coach has no advice on the pot here")
        return pot.take


@dataclass
class FileChooser:
    """Choices read from a decisions file, one a line, in the order they come up: after each
    scoring roll the dice kept (``1 5``, or ``k 1 5``), after each keep where banking is allowed
    ``b`` (bank) or ``r`` (roll on), and under piggyback, at the start of a turn offered the last
    bank's pot, ``p`` (piggyback) or ``fresh`` (six fresh dice). Blank lines and ``#`` comments are
    skipped."""

    lines: list[tuple[int, str]]
    """(line number, text) of the choices not made yet."""
    name: str
    """The file, for messages."""

    @classmethod
    def read(cls, path: Path) -> FileChooser:
        text = read_text(path, "decisions file", DecisionsError, limit=MAX_DECISIONS_BYTES)
        lines = [(n, line.split("#")[0].strip()) for n, line in enumerate(text.splitlines(), start=1)]
        return cls([(n, line) for n, line in lines if line], str(path))

    def _next(self, wanted: str) -> tuple[int, str]:
        if not self.lines:
            raise DecisionsError(f"{self.name}: no decision left for {wanted}; the camera game stops here")
        return self.lines.pop(0)

    def keep(self, state: GameState) -> Dice:
        roll = state.turn.roll if state.turn is not None else None
        number, line = self._next(f"the roll {roll}")
        text = line[1:].strip() if line.lower().startswith("k") else line
        try:
            return Dice.from_str(text)
        except FarkleError as exc:
            raise DecisionsError(f"{self.name}:{number}: {quote(line)} is no keep for the roll {roll} ({exc})") from None

    def bank(self, state: GameState) -> bool:
        number, line = self._next("bank or roll on")
        if line.lower() not in (BANK, ROLL_ON):
            raise DecisionsError(f"{self.name}:{number}: expected {BANK!r} (bank) or {ROLL_ON!r} (roll on), got {quote(line)}")
        return line.lower() == BANK

    def piggyback(self, state: GameState) -> bool:
        number, line = self._next("piggyback or six fresh dice")
        if line.lower() not in (PIGGYBACK, FRESH):
            raise DecisionsError(
                f"{self.name}:{number}: expected {PIGGYBACK!r} (piggyback) or {FRESH!r} (six fresh dice), got {quote(line)}"
            )
        return line.lower() == PIGGYBACK


class CameraGame:
    """Plays ``game`` from the watch loop's steps through a :class:`TableSession`."""

    def __init__(
        self,
        game: Game,
        chooser: Chooser,
        corrections: Path,
        say: Callable[[str], None],
        profile: CalibrationProfile | None = None,
        kept_beside: Path | None = None,
        colours: bool = False,
    ) -> None:
        """``say`` is told each roll, keep, bank, Farkle, question and the winner as they happen;
        ``corrections`` is the players' corrections folder, in the home the game plays from. ``profile``,
        ``kept_beside`` and ``colours``: the table's calibration, where it keeps what it learns and
        whether it tells marks by the dice's colours (see :class:`CameraTable`)."""
        self.game = game
        self.chooser = chooser
        self.say = say
        self.play = GameController(corrections.parent, game)
        self.play.on_refused.append(lambda why: say(f"Not allowed: {why}"))
        self.play.on_notice.append(say)
        self.table = CameraTable(self.play, profile or CalibrationProfile(), kept_beside, colours=colours)
        """The camera game this drives without a window."""
        self.play.on_changed.append(self.session.game_changed)
        self._asked = ""
        self._told: DiceOnTable | None = None
        self._rolling_on: tuple[int, int, int] | None = None

    @property
    def session(self) -> TableSession:
        """The table session the game is played through."""
        return self.table.session

    def run(self, watcher: Watcher, max_frames: int | None = None, turn_over: Callable[[GameState], None] | None = None) -> None:
        """Play until the game is over, the source ends, or ``max_frames``; ``turn_over`` is
        called after each finished turn (to print the scoreboard)."""
        self.table.read_by(watcher)
        for step in watcher.steps(max_frames):
            self.session.saw(step.dice, step.aside)
            for event in step.events:
                self.session.table_event(event, step.frame.image)
                finished = len(self.game.state.history)
                self._play_on()
                if self.session.prompt and self.session.prompt != self._asked:
                    self.say(self.session.prompt)
                self._asked = self.session.prompt
                if turn_over is not None and len(self.game.state.history) > finished:
                    turn_over(self.game.state)
            if self.game.state.over:
                return

    def _play_on(self) -> None:
        """Confirm flagged dice as read (a roll with marks in doubt is let go instead), then make
        every choice due until the next roll is needed."""
        pending = self.session.pending
        if pending is not None and any(pending.doubt):
            self.session.let_go()
            self.say(f"The camera cannot tell {doubt_text(pending.values, pending.doubt)}: the roll is not taken; throw the dice again.")
            return
        if pending is not None:
            flagged = [i for i, unsure in enumerate(pending.unsure) if unsure]
            self.say(f"Read unsure, taken as read: {' '.join(str(pending.token(i)) for i in flagged)}")
            for index in flagged:
                self.session.correct(pending, index, pending.token(index))
        taken, state = self.session.taken, self.game.state
        if taken is not None and taken is not self._told and state.turn is not None and state.turn.roll is not None:
            self._told = taken
            name = state.current.name if state.current is not None else ""
            self.say(f"{name} rolls {state.turn.roll}")
        state = self.game.state
        turn = state.turn
        if turn is not None and turn.roll is not None and self.session.taken is not None and state.roll_score() is None:
            # a roll with dice missing is not scored, and no one is at the table to tap them in:
            # the roll goes back, the dice are thrown again
            self.say(f"Only {len(turn.roll)} of the {turn.dice_left} dice were read: the roll is taken back; throw them again.")
            self.play.act(lambda game: game.undo())
            return
        while (action := self._choice()) is not None:
            before = len(self.game.state.history)
            if not self.play.take(action):
                return
            state = self.game.state
            if isinstance(action, Kept) and len(state.history) == before:
                self.say(f"  keeps {action.dice}: turn {state.turn.total if state.turn else 0:,}")

    def _choice(self) -> Action | None:
        """The step due now, or None while the next roll (or nothing) is awaited."""
        state = self.game.state
        turn = state.turn
        if state.over or turn is None:
            return None
        if state.phase is Phase.TO_KEEP:
            if self.session.taken is None:
                return None  # a roll typed or read elsewhere: not this camera's
            scored = state.roll_score()
            if scored is None:
                return None  # dice missing: not scored
            if scored.farkle:
                return Farkled()
            return Kept(self.chooser.keep(state))
        if state.pot_offered() is not None:
            return Piggybacked() if self.chooser.piggyback(state) else FreshDice()
        if not turn.keeps or not state.can_bank():
            return None
        if not state.can_roll():
            return Banked()
        here = (len(state.history), len(turn.rolls), len(turn.keeps))
        if here == self._rolling_on:
            return None  # chosen already: the next roll is awaited
        if self.chooser.bank(state):
            return Banked()
        self._rolling_on = here
        return None
