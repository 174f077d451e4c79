"""The game behind the window: every step goes through here, into the journal, then onto the screen."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from scorekeeper.game import Action, Event, Game, GameState, describe_turn
from scorekeeper.game.journal import Journal, JournalDamage, new_journal_path, open_journal, with_turn_replaced
from scorekeeper.rules import FarkleError, RuleSet


class GameController(QObject):
    """Owns the game and its journal. Views call its methods and redraw on :attr:`changed`."""

    changed = Signal()
    """The game moved on (or was replaced): redraw from :attr:`state`."""
    refused = Signal(str)
    """The engine (or the disk) refused a step; nothing changed. The reason, for the screen."""
    notice = Signal(str)
    """Something to tell the table: a turn ended, a game was resumed or recovered."""

    def __init__(self, home: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.home = home
        """The folder holding the games' journals."""
        self.game: Game | None = None
        self.journal: Journal | None = None

    @property
    def state(self) -> GameState | None:
        """The game's state, or None before a game is started."""
        return self.game.state if self.game is not None else None

    def start(self, rules: RuleSet, players: Sequence[str], target: int | None = None) -> bool:
        """Begin a new game with its own journal; False (and :attr:`refused`) if it cannot start."""
        try:
            journal = Journal.create(new_journal_path(self.home))
        except FarkleError as exc:
            self.refused.emit(f"Cannot keep a journal, so the game cannot start safely: {exc}")
            return False
        try:
            game = Game.new(rules, players, target=target, sink=journal.write)
        except FarkleError as exc:
            journal.close()
            journal.path.unlink(missing_ok=True)
            self.refused.emit(str(exc))
            return False
        self._replace(game, journal)
        self.notice.emit(f"New game: {', '.join(p.name for p in game.state.players)}. {rules.title}.")
        return True

    def resume(self, path: Path) -> JournalDamage | None:
        """Go on with the game in the journal at ``path``; reports damage it recovered from."""
        try:
            recovered = open_journal(path)
        except FarkleError as exc:
            self.refused.emit(str(exc))
            raise
        self._replace(recovered.game, recovered.journal)
        if recovered.damage is not None:
            self.notice.emit(f"The journal was damaged: {recovered.damage}.")
        else:
            self.notice.emit(f"Resumed the game from {path.name}.")
        return recovered.damage

    def _replace(self, game: Game, journal: Journal) -> None:
        if self.journal is not None:
            self.journal.close()
        self.game, self.journal = game, journal
        self.changed.emit()

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
            self.refused.emit("Start a game first (Game > New game).")
            return False
        finished = len(self.game.state.history)
        try:
            step(self.game)
        except FarkleError as exc:
            self.refused.emit(str(exc))
            return False
        state = self.game.state
        for record in state.history[finished:]:
            self.notice.emit(describe_turn(record, state))
        if state.over and len(state.history) > finished:
            names = " and ".join(state.players[seat].name for seat in state.winners)
            self.notice.emit(f"Game over: {names} win{'s' if len(state.winners) == 1 else ''}!")
        self.changed.emit()
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
            self.refused.emit(str(exc))
            return False
        self.game = Game.from_events(game.events, sink=self.journal.write)
        self.notice.emit(f"Turn {turn + 1} corrected; every total after it is worked out again.")
        self.changed.emit()
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
