"""``scorekeeper play``: a whole game in the terminal, dice typed by hand.

Every step goes through the game log, so undo, redo and saving work exactly as
they will in the window, and into a journal in the scorekeeper home from the
first step on, as the window's do: Ctrl+C, a closed terminal or a crash loses
nothing, and the window and ``play --resume`` each go on with the other's games.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from scorekeeper.cli.options import add_penalty_option, add_rules_options, game_from_args, game_options_given
from scorekeeper.game import Game, GameState, SaveFileError, describe_turn, load_game, save_game
from scorekeeper.game.commands import TypedLineError, parse_line
from scorekeeper.game.describe import describe_step, game_over, last_lap, piggyback_offer_text
from scorekeeper.game.events import Action, Redone, Undone
from scorekeeper.game.games_folder import default_home, games_folder, new_journal_path, unfinished_games
from scorekeeper.game.journal import Journal, Recovered, open_journal, read_journal
from scorekeeper.game.journal_error import JournalError
from scorekeeper.game.lock import GameLock
from scorekeeper.game.save import SavedGame, game_file_kind, load_saved
from scorekeeper.errors import ScorekeeperError, UsageError
from scorekeeper.rules import FarkleError, GameKind, KeepOption, RollScore, describe_rules, game_headline
from scorekeeper.safe_input import quote, what_it_is, why_unreadable
from scorekeeper.safe_output import clear_leftovers
from scorekeeper.terminal import visible

HELP = """\
Commands:
  115346        type the dice you rolled (digits, spaces optional)
  115           with a roll on the table: keep these dice (k 115 too)
  o1, o2, ...   keep that option of the roll on the table (o1 scores the most)
  c 3 5, c35    correct a misread die: the 3 is really a 5 (c - 5: add a missed 5; c 4 -: not a die)
  1w 5r 2 3     wild-die and spicy variants: w after the wild die's face, r after a face with red pips
                (c 1 1w: that 1 is the wild die); a keep typed without marks takes plain dice first
  f             Farkle: pass the dice (the roll scores nothing; in the card game: a Farkle card was drawn)
  p 400         the card game: enter a combination's points
  b             bank the turn
  pig / fresh   piggyback variant, after a bank that left dice: roll only those dice with the banked
                points in the turn (a Farkle loses them all), or six fresh dice (typing a roll also does)
  u or z / y    undo / redo
  s             scoreboard
  rules         the rules in force
  save FILE     save the game to FILE too (a new file, or an earlier save of this game)
  q             quit (the game is kept in its journal: go on with --resume)"""


def add_parser(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play a game in the terminal with typed dice",
        description="Play a whole game in the terminal: type the dice, keep, roll again or bank.",
    )
    add_rules_options(parser)
    add_penalty_option(parser)
    parser.add_argument("--players", metavar="NAMES", help="comma-separated names in seat order, e.g. Ann,Bob")
    parser.add_argument("--target", type=int, help="play to this score: any multiple of 50 from 1,000 up (default: the rules' own target)")
    parser.add_argument(
        "--save", metavar="FILE", type=Path, help="save the game to FILE after every step too (a new file, or a save of this game)"
    )
    parser.add_argument("--resume", metavar="FILE", type=Path, help="go on with a game: its journal, or a game saved with --save")
    parser.set_defaults(run=run)


def scoreboard(state: GameState) -> list[str]:
    """The scoreboard as lines of text."""
    entry = state.rules.turn.entry_minimum
    lines = []
    for seat, player in enumerate(state.players):
        marker = ">" if state.turn is not None and state.turn.player == seat else " "
        notes = []
        if not player.on_board and entry:
            notes.append(f"not on the board ({entry:,} to enter)")
        if player.farkle_streak and state.rules.kind is GameKind.DICE:
            notes.append(f"{player.farkle_streak} Farkle{'s' if player.farkle_streak > 1 else ''} in a row")
        if player.farkle_cards:
            notes.append(f"{player.farkle_cards} Farkle card{'s' if player.farkle_cards > 1 else ''}")
        if seat in state.winners:
            notes.append("WINNER")
        lines.append(f" {marker} {player.name:12} {player.score:>7,}  {'; '.join(notes)}".rstrip())
    if state.final_lap and state.lap_mark is not None:
        lines.append(last_lap(state))
    if state.play_off:
        lines.append("Play-off: " + ", ".join(state.players[seat].name for seat in state.play_off))
    return lines


def _dice(count: int) -> str:
    return f"{count} {'die' if count == 1 else 'dice'}"


def _option_text(state: GameState, option: KeepOption, scored: RollScore) -> str:
    if option is scored.winning_keep:
        if state.rules.turn.instant_win_banks_turn:
            return f"{option.keep}: banks the turn and WINS THE GAME"
        return f"{option.keep}: WINS THE GAME (scores nothing)"
    return f"{option.keep} for {option.points:,}"


def prompt(state: GameState) -> str:
    """What the current player can do, as one line."""
    turn, player = state.turn, state.current
    if turn is None or player is None:
        return "The game is over."
    scored = state.roll_score()
    if turn.roll is not None and scored is None:
        return (
            f"{turn.roll} [{_dice(state.missing_dice())} not read]: not scored until {'it is' if state.missing_dice() == 1 else 'they are'} "
            "added: 'c - FACE' adds a missed die, 'u' takes the roll back to throw again."
        )
    if scored is not None:
        if scored.farkle:
            return f"{turn.roll}: FARKLE, nothing scores: 'f' passes the dice ('c WAS NOW' first corrects a misread die)."
        shown = scored.options[:6]
        win = scored.winning_keep
        if win is not None and win not in shown:
            shown = (*shown[:5], win)
        options = "  ".join(
            f"o{scored.options.index(option) + 1}) {_option_text(state, option, scored)}" for option in shown
        )
        more = f"  (+{len(scored.options) - len(shown)} more)" if len(scored.options) > len(shown) else ""
        return f"{turn.roll}: type the dice to keep, or  {options}{more}"
    total = f"turn {turn.total:,}" if turn.total else "new turn"
    if turn.pot:
        total += f" ({turn.pot:,} piggybacked, lost on a Farkle)"
    if state.rules.kind is GameKind.CARDS:
        return f"{player.name} ({player.score:,}), {total}: 'p POINTS' for a combination, 'f' for a Farkle card, 'b' to bank"
    if state.pot_offered() is not None:
        return f"{piggyback_offer_text(state)} Type 'pig' to piggyback, or 'fresh' (or the six dice rolled)."
    bank = ", or 'b' to bank" if state.can_bank() else ""
    shortfall = state.entry_shortfall()
    need = f" ({shortfall:,} more to get on the board)" if shortfall and turn.total else ""
    if turn.dice_left == 0:
        return f"{player.name} ({player.score:,}), {total}: all dice scored; 'b' to bank{need}"
    return f"{player.name} ({player.score:,}), {total}{need}: roll {_dice(turn.dice_left)} and type {'it' if turn.dice_left == 1 else 'them'}{bank}"


class Session:
    """Reads commands, applies them to the game, prints what changed."""

    def __init__(self, game: Game, out: TextIO, save_to: Path | None, journal: Path | None = None) -> None:
        self.game = game
        self.out = out
        self.save_to = save_to
        """Where the game is also saved after every step (``--save``), if anywhere."""
        self.journal = journal
        """The journal the game is kept in, which its saves name, if any."""

    def say(self, text: str) -> None:
        """Print ``text`` for the players, its control characters made visible (:func:`visible`)."""
        print(visible(text), file=self.out)

    def step(self, line: str) -> bool:
        """Apply one command; False when the player quits. The terminal's own words (scoreboard,
        rules, save, help, quit) are read here, every line for the turn by the game's grammar
        (:func:`~scorekeeper.game.commands.parse_line`), as the window reads it."""
        words = line.split()
        if not words:
            line = "f" if self._farkle_showing() else "s"
            words = [line]
        command, rest = words[0].lower(), words[1:]
        state_before, logged, actions = self.game.state, len(self.game.events), self.game.actions
        handlers: dict[str, Callable[[], None]] = {
            "s": lambda: self.say("\n".join(scoreboard(self.game.state))),
            "rules": lambda: self.say("\n".join(describe_rules(self.game.state.rules))),
            "save": lambda: self._save(rest),
            "help": lambda: self.say(HELP),
            "?": lambda: self.say(HELP),
        }
        if command in ("q", "quit", "exit"):
            return False
        try:
            if command in handlers:
                handlers[command]()
            else:
                parse_line(line).take(self.game)
        except TypedLineError as exc:
            if exc.understood:
                self.say(f"Not allowed: {exc}")
            else:
                self.say(f"Unknown command {quote(line.strip())}; type 'help' for the commands.")
            return True
        except ScorekeeperError as exc:
            self.say(f"Not allowed: {exc}")
            return True
        self._say_undone(state_before, logged, actions)
        self._after(state_before)
        return True

    def _say_undone(self, before: GameState, logged: int, actions: tuple[Action, ...]) -> None:
        """Say what an undo or a redo took back or took again, in the window's words
        (:func:`~scorekeeper.game.describe.describe_step`); ``before``, ``logged`` and ``actions``:
        the game's state, length of log and steps in force before the line was taken."""
        events = self.game.events[logged:]
        if len(events) != 1 or not isinstance(events[0], (Undone, Redone)):
            return
        action = actions[-1] if isinstance(events[0], Undone) else self.game.actions[-1]
        self.say(describe_step(events[0], action, before, self.game.state))

    def _farkle_showing(self) -> bool:
        scored = self.game.state.roll_score()
        return scored is not None and scored.farkle

    def _save(self, rest: list[str]) -> None:
        if len(rest) != 1:
            raise UsageError("save: type 'save FILE'")
        check_save_target(Path(rest[0]), self.game)
        save_game(self.game, rest[0], self.journal)
        self.say(f"Saved to {rest[0]}.")

    def _after(self, before: GameState) -> None:
        state = self.game.state
        if self.save_to is not None:
            save_game(self.game, self.save_to, self.journal)
        turn = state.turn
        if (
            turn is not None
            and before.turn is not None
            and turn.player == before.turn.player
            and turn.hot_dice > before.turn.hot_dice
        ):
            self.say(f"Hot dice! All six scored: {state.players[turn.player].name} rolls all six again (turn {turn.total:,}).")
        for record in state.history[len(before.history) :]:
            self.say(describe_turn(record, state))
        if len(state.history) != len(before.history):
            self.say("\n".join(scoreboard(state)))
        if state.over:
            self.say(game_over(state))

    def run(self, lines: TextIO, interactive: bool, notes: Sequence[str] = ()) -> None:
        """Play until the game ends, the players quit or the input ends; ``notes`` are said after the title."""
        rules, target = self.game.state.rules, self.game.state.target
        self.say(f"{game_headline(rules, target)}. Type 'help' for the commands.")
        for note in notes:
            self.say(f"{note[:1].upper()}{note[1:]}.")
        self.say("\n".join(scoreboard(self.game.state)))
        if self.game.state.over:
            self.say(game_over(self.game.state))
        while not self.game.state.over:
            self.say(prompt(self.game.state))
            if interactive:
                print("> ", end="", file=self.out, flush=True)
            line = lines.readline()
            if not line or not self.step(line):
                break


def check_save_target(path: Path, game: Game) -> None:
    """Refuse to save ``game`` over a file that is not a save of this very game (same start), or in
    a folder that is not there (the scorekeeper home's games folder is made if need be)."""
    folder = path.parent
    if not folder.is_dir():
        if os.path.abspath(folder) != os.path.abspath(games_folder(default_home())) or folder.exists():
            there = "is not a folder" if folder.exists() else "does not exist"
            raise SaveFileError(f"{path}: {folder} {there}, so nothing was saved: make the folder first, or save in one that is there")
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise SaveFileError(f"{path}: cannot make the games folder {folder}: {exc.strerror or exc}") from None
    if not path.exists() and not path.is_symlink():
        return
    try:
        kind = what_it_is(os.stat(path).st_mode)
    except OSError as exc:
        raise SaveFileError(why_unreadable(path, "saved game", exc)) from None
    if kind is not None:
        raise SaveFileError(f"{path}: {kind}, not a file a game can be saved in, so it is left as it is: save to a new file name")
    kind = game_file_kind(path)
    if kind == "saved game":
        try:
            if load_game(path).events[0] == game.events[0]:
                return
        except FarkleError:
            pass
    if kind is None:
        raise SaveFileError(f"{path}: already there and not a saved game, so it is left as it is: save to a new file name")
    what = "a game's journal" if kind == "journal" else "the save of another game"
    raise SaveFileError(
        f"{path}: {what}, so it is left as it is: go on with that game with "
        f"'scorekeeper play --resume {path}', or save this one to a new file name"
    )


def kept_words(path: Path) -> str:
    """Where a game not over is kept, and how to go on with it."""
    return f"The game is kept in {path}; go on with it: scorekeeper play --resume {path}"


def _journal_of(game: Game) -> tuple[Game, Journal] | None:
    """The unfinished journal in the scorekeeper home that holds exactly ``game`` (a game saved with
    ``--save`` was kept in both), opened to go on in it; None when there is none."""
    for path in unfinished_games(default_home(), tidy=False):
        try:
            if read_journal(path).events == game.events:
                recovered = open_journal(path)
                return recovered.game, recovered.journal
        except FarkleError:
            continue
    return None


def _journal_named(saved: SavedGame) -> Recovered | None:
    """The journal a save names, opened to go on in it, when it holds the same game and every step
    of the save (it is written before the save, so after a kill it may hold one step more); None
    when there is no such journal."""
    if saved.journal is None or game_file_kind(saved.journal) != "journal":
        return None
    try:
        contents = read_journal(saved.journal)
    except FarkleError:
        return None
    events = saved.game.events
    if contents.events[:1] != events[:1] or (contents.damage is not None and contents.events[: len(events)] != events):
        return None
    return open_journal(saved.journal)


def journal_for(game: Game) -> tuple[Game, Journal]:
    """A new journal in the scorekeeper home holding ``game`` so far, and the game writing to it."""
    journal = Journal.create(new_journal_path(default_home()))
    try:
        for event in game.events:
            journal.write(event)
    except BaseException:
        journal.close()
        journal.path.unlink(missing_ok=True)
        raise
    return Game.from_events(game.events, sink=journal.write), journal


def run(args: argparse.Namespace) -> int:
    if args.resume is not None:
        given = game_options_given(args)
        if given:
            raise UsageError(
                f"--resume goes on with the saved game's own rules and players; leave out {', '.join(given)}"
            )
    resumed = game_file_kind(args.resume) if args.resume is not None else None
    finished = _finished_game(args.resume, resumed) if args.resume is not None else None
    if finished is not None:
        _tidy_after_a_kill(args.resume, resumed)
        _show_finished(finished, args.resume)
        return 0
    save_to: Path | None = args.save or (args.resume if resumed == "saved game" else None)
    locks: list[GameLock] = []
    journal: Journal | None = None
    try:
        if resumed == "journal":
            recovered = open_journal(args.resume)
            game, journal = recovered.game, recovered.journal
            notes = [str(recovered.damage)] if recovered.damage is not None else []
        elif args.resume is not None:
            locks.append(GameLock.take(args.resume))
            clear_leftovers(args.resume)
            saved = load_saved(args.resume)
            kept = _journal_named(saved)
            game, journal = (kept.game, kept.journal) if kept is not None else (saved.game, None)
            notes = [str(kept.damage)] if kept is not None and kept.damage is not None else []
            if kept is not None and kept.game.events != saved.game.events:
                notes.append(f"{kept.journal.path} held steps the save did not yet hold: the game goes on from there")
        else:
            game = game_from_args(args)
            notes = []
        if args.save is not None and args.save != args.resume:
            check_save_target(args.save, game)
            locks.append(GameLock.take(args.save))
            clear_leftovers(args.save)
        if journal is None:
            game, journal = _journal_of(game) or journal_for(game)
        notes += [lock.told for lock in (*locks, journal.lock) if lock.told]
        notes.append(f"each step is kept in {journal.path}")
        return _play(game, journal, save_to, notes)
    finally:
        if journal is not None:
            journal.close()
        for lock in locks:
            lock.release()


def finished_words(path: Path) -> str:
    """What a finished game kept in ``path`` offers: its score sheet and the history of every game."""
    return f"Its score sheet: scorekeeper export {path} -o sheet.html; every finished game added up: scorekeeper history"


def _finished_game(path: Path, kind: str | None) -> Game | None:
    """The game in ``path`` (a journal or a saved game), read without writing anything, when it is
    over; None when it is not, or cannot be read whole (going on with it recovers it or says why)."""
    try:
        if kind == "journal":
            contents = read_journal(path)
            game = contents.game() if contents.damage is None else None
        else:
            game = load_saved(path).game
    except FarkleError:
        return None
    return game if game is not None and game.state.over else None


def _tidy_after_a_kill(path: Path, kind: str | None) -> None:
    """Remove what a process killed while it wrote the finished game in ``path`` left behind (its
    lock files, a save's half-written copies), where no other process has the game open."""
    files = [path]
    if kind == "saved game":
        journal = load_saved(path).journal
        if journal is not None and journal.exists():
            files.append(journal)
    for file in files:
        try:
            lock = GameLock.take(file)
        except JournalError:
            continue
        try:
            clear_leftovers(file)
        finally:
            lock.release()


def _show_finished(game: Game, path: Path) -> None:
    """Say that the game in ``path`` is over and how it ended, writing nothing: it has no step left."""
    state = game.state
    lines = [
        f"{game_headline(state.rules, state.target)}: this game is over, so it is not played on and nothing is written.",
        *scoreboard(state),
        game_over(state),
        f"{finished_words(path)}.",
    ]
    print(visible("\n".join(lines)))


def _play(game: Game, journal: Journal, save_to: Path | None, notes: list[str]) -> int:
    """Play ``game`` at the terminal until it ends, the players quit, the input ends or Ctrl+C."""
    if save_to is not None:
        save_game(game, save_to, journal.path)
    session = Session(game, sys.stdout, save_to, journal.path)
    try:
        session.run(sys.stdin, interactive=sys.stdin.isatty(), notes=notes)
    except KeyboardInterrupt:
        print(visible(f"\nStopped. {kept_words(journal.path)}"), file=sys.stderr, flush=True)
        return 130
    if not game.state.over:
        print(visible(f"{kept_words(journal.path)}."))
    if save_to is not None:
        save_game(game, save_to, journal.path)
        go_on = "" if game.state.over else f"; go on with --resume {save_to}"
        print(visible(f"The game is saved in {save_to}{go_on}."))
    if game.state.over:
        print(visible(f"{finished_words(save_to or journal.path)}."))
        from scorekeeper.stats.history import remember_game

        for path in (journal.path, save_to):
            if path is not None:
                remember_game(default_home(), path, game)
    return 0
