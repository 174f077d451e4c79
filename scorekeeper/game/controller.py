"""The game at a table: every step goes through here, into the journal, then to whoever listens.

A :class:`GameController` owns the game and its journal, takes steps (refusals said, not
raised), and tells its listeners, plain callables, when the game moved on, what was refused, what
to tell the table and that a game ended. The window listens through Qt signals (``ui/controller.py``); the
camera game from the command line and the tests listen directly.

>>> from scorekeeper.rules import load_rules
>>> told: list[str] = []
>>> controller = GameController(Path("home"), Game.new(load_rules("retail"), ["Ann"]))
>>> controller.on_notice.append(told.append)
>>> controller.act(lambda game: game.roll("1 5 2 3 4 6")), controller.act(lambda game: game.keep("5 5"))
(True, False)
>>> controller.act(lambda game: game.keep("1 5")), controller.act(lambda game: game.bank()), told
(True, True, ['Ann banks 150: now 150.'])
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from scorekeeper.game.describe import describe_step, describe_turn, game_over
from scorekeeper.game.events import Action, Event, Redone, Undone
from scorekeeper.game.game import Game
from scorekeeper.game.games_folder import new_journal_path
from scorekeeper.game.history_edits import with_turn_replaced
from scorekeeper.game.journal import Journal, JournalDamage, open_journal
from scorekeeper.game.state import GameState
from scorekeeper.rules import FarkleError, RuleSet, game_headline


class GameController:
    """Owns the game and its journal. Views call its methods and redraw when told the game changed."""

    def __init__(self, home: Path, game: Game | None = None) -> None:
        """``game``: a game to go on with that no journal keeps (the camera game from the command line)."""
        self.home = home
        """The folder holding the games' journals."""
        self.game_number = 0
        """How many games have been put on the table (started, resumed, rebuilt by an edit, or set):
        a value that names the game on the table, for what applies to that game only."""
        self._game: Game | None = None
        self.game = game
        self.journal: Journal | None = None
        """Its journal, if it keeps one."""
        self.on_changed: list[Callable[[], None]] = []
        """Called when the game moved on (or was replaced): redraw from :attr:`state`."""
        self.on_refused: list[Callable[[str], None]] = []
        """Called with the reason when the engine (or the disk) refused a step; nothing changed."""
        self.on_notice: list[Callable[[str], None]] = []
        """Called with something to tell the table: a turn ended, the game was won, resumed or recovered."""
        self.on_done: list[Callable[[str], None]] = []
        """Called with a line confirming each step taken, undone or redone that did not just end a
        turn (a roll, a keep, a tap's correction, an undo): what happened, for the status line."""
        self.on_game_over: list[Callable[[Path, Game], None]] = []
        """Called with the journal's path and the game when a game kept in a journal has just been won
        (the window keeps its numbers in the history cache)."""

    @property
    def game(self) -> Game | None:
        """The game on the table, if one is started."""
        return self._game

    @game.setter
    def game(self, game: Game | None) -> None:
        self._game = game
        self.game_number += 1

    def _changed(self) -> None:
        for listener in list(self.on_changed):
            listener()

    def _refused(self, why: str) -> None:
        for listener in list(self.on_refused):
            listener(why)

    def _notice(self, text: str) -> None:
        for listener in list(self.on_notice):
            listener(text)

    def _done(self, text: str) -> None:
        for listener in list(self.on_done):
            listener(text)

    @property
    def state(self) -> GameState | None:
        """The game's state, or None before a game is started."""
        return self.game.state if self.game is not None else None

    def start(self, rules: RuleSet, players: Sequence[str], target: int | None = None) -> bool:
        """Begin a new game with its own journal; False (and the reason told) if it cannot start."""
        try:
            journal = Journal.create(new_journal_path(self.home))
        except FarkleError as exc:
            self._refused(f"Cannot keep a journal, so the game cannot start safely: {exc}")
            return False
        try:
            game = Game.new(rules, players, target=target, sink=journal.write)
        except FarkleError as exc:
            journal.close()
            journal.path.unlink(missing_ok=True)
            self._refused(str(exc))
            return False
        self._replace(game, journal)
        self._notice(f"New game: {', '.join(p.name for p in game.state.players)}. {game_headline(rules, game.state.target)}.")
        return True

    def resume(self, path: Path) -> JournalDamage | None:
        """Go on with the game in the journal at ``path``; reports damage it recovered from."""
        try:
            recovered = open_journal(path)
        except FarkleError as exc:
            self._refused(str(exc))
            raise
        self._replace(recovered.game, recovered.journal)
        took_over = f" ({recovered.journal.lock.told})" if recovered.journal.lock.told else ""
        if recovered.damage is not None:
            self._notice(f"The journal was damaged: {recovered.damage}.{took_over}")
        else:
            self._notice(f"Resumed the game from {path.name}{took_over}.")
        return recovered.damage

    def _replace(self, game: Game, journal: Journal) -> None:
        if self.journal is not None:
            self.journal.close()
        self.game, self.journal = game, journal
        self._changed()

    def shelve(self, path: Path) -> None:
        """Mark an unfinished game as not to be offered for resume again."""
        journal = Journal.append_to(path)
        try:
            journal.shelve()
        finally:
            journal.close()

    def act(self, step: Callable[[Game], None]) -> bool:
        """Take one step; on refusal say why and change nothing."""
        if self.game is None:
            self._refused("Start a game first (Game > New game).")
            return False
        before, logged, actions = self.game.state, len(self.game.events), self.game.actions
        finished = len(before.history)
        try:
            step(self.game)
        except FarkleError as exc:
            self._refused(str(exc))
            return False
        state = self.game.state
        for record in state.history[finished:]:
            self._notice(describe_turn(record, state))
        if state.over and len(state.history) > finished:
            self._notice(game_over(state))
            if self.journal is not None:
                for ended in list(self.on_game_over):
                    ended(self.journal.path, self.game)
        events = self.game.events[logged:]
        if len(events) == 1 and (len(state.history) <= finished or isinstance(events[0], Redone)):
            event = events[0]
            action = actions[-1] if isinstance(event, Undone) else self.game.actions[-1]
            self._done(describe_step(event, action, before, state))
        self._changed()
        return True

    def take(self, action: Action) -> bool:
        """Take one action of play."""
        return self.act(lambda game: game.act(action))

    def edit_turn(self, turn: int, actions: Sequence[Action]) -> bool:
        """Play finished turn ``turn`` again as ``actions``: every total after it follows."""
        if self.game is None or self.journal is None:
            return False
        try:
            events = with_turn_replaced(self.game.events, turn, actions)
            game = Game.from_events(events)
            self.journal.rebuilt(game.events)
        except FarkleError as exc:
            self._refused(str(exc))
            return False
        self.game = Game.from_events(game.events, sink=self.journal.write)
        self._notice(f"Turn {turn + 1} corrected; every total after it is worked out again.")
        self._changed()
        return True

    @property
    def events(self) -> tuple[Event, ...]:
        """The game's log (empty before a game starts)."""
        return self.game.events if self.game is not None else ()

    def close(self) -> None:
        """Close the journal (everything in it is already on disk)."""
        if self.journal is not None:
            self.journal.close()
            self.journal = None
