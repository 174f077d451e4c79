"""The score sheet: what a finished (or current) game looks like on paper.

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-01-01T20:00:00+00:00")
>>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
>>> game.roll("2 2 3 3 4 6"); game.farkle()
>>> sheet = score_sheet(game.events, exported_at="2026-01-01T21:00:00+00:00")
>>> [(turn.player, turn.kept, turn.outcome, turn.totals) for turn in sheet.turns]
[('Ann', ('1 1 5 (250)',), 'banked', (250, 0)), ('Bob', (), 'Farkle', (250, 0))]
>>> sheet.scores, sheet.winners
((250, 0), ())
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from scorekeeper.game import Event, Game, GameState, Outcome, TurnRecord
from scorekeeper.game.describe import penalty_due, penalty_reason, took_over_text
from scorekeeper.game.photos import RollPhoto, roll_photo, turn_photos
from scorekeeper.rules import describe_rules
from scorekeeper.scoreboard.race import Race, score_race
from scorekeeper.stats import HEADER as STATS_HEADER
from scorekeeper.stats import coach_for, fairness_line, stats_rows

OUTCOME_WORDS = {
    Outcome.BANKED: "banked",
    Outcome.FARKLED: "Farkle",
    Outcome.WON: "won on the spot",
    Outcome.STUCK: "all dice scored below the entry minimum",
}
"""How each way a turn ends reads on the sheet."""


@dataclass(frozen=True)
class SheetTurn:
    """One finished turn, one line of the sheet."""

    number: int
    """Turns played so far in the game, this one included."""
    round: int
    """This player's turn count (their 1st, 2nd... turn)."""
    player: str
    """Who played it."""
    rolls: tuple[str, ...]
    """Every roll, as corrected."""
    kept: tuple[str, ...]
    """Every keep with its points, e.g. ``"1 1 5 (250)"``."""
    entered: tuple[int, ...]
    """Points entered by hand (the card edition's combinations)."""
    outcome: str
    """How the turn ended, in words: with the pot it took over and the penalty it paid, if any
    (see :func:`outcome_text`)."""
    farkle: bool
    """Whether the turn ended in a Farkle."""
    points: int
    """Points added to the score."""
    card_bonus: int
    """Of ``points``, what Farkle cards added."""
    penalty: int
    """Points taken off by the Farkle penalty."""
    totals: tuple[int, ...]
    """Every player's score after this turn, in seat order: the running totals."""
    entered_notes: tuple[str, ...] = ()
    """What each entry of :attr:`entered` was for, as the player said ("three 1s"; "" if nothing)."""
    photos: tuple[RollPhoto | None, ...] = ()
    """The picture of each roll of :attr:`rolls`, checked (None: a typed roll, or none kept);
    empty when the sheet shows no pictures."""

    def entries(self) -> tuple[str, ...]:
        """Each entry in words: ``"three 1s (1,000)"``, or ``"1,000 entered"`` when nothing was said."""
        notes = self.entered_notes or ("",) * len(self.entered)
        return tuple(f"{note} ({points:,})" if note else f"{points:,} entered" for points, note in zip(self.entered, notes))


@dataclass(frozen=True)
class ScoreSheet:
    """Everything a score sheet shows."""

    players: tuple[str, ...]
    """Names in seat order."""
    scores: tuple[int, ...]
    """Banked scores now, in seat order."""
    farkles: tuple[int, ...]
    """Farkles per player."""
    turns: tuple[SheetTurn, ...]
    """Every finished turn in order of play."""
    rules_name: str
    """The rule set's short name."""
    rules: tuple[str, ...]
    """The rules in force in plain words."""
    target: int
    """The score the game is played to."""
    winners: tuple[str, ...]
    """The winner (several for a shared win); empty while the game goes on."""
    in_progress: str
    """What the turn being played stands at, or "" when the game is over."""
    started_at: str
    """When the game began (ISO 8601)."""
    exported_at: str
    """When this sheet was made (ISO 8601)."""
    statistics: tuple[tuple[str, ...], ...] = ()
    """The table statistics, one row per player under :data:`STATS_HEADER`."""
    fairness: str = ""
    """Whether the dice read look fair, with the face counts, in one line."""
    with_photos: bool = False
    """Whether the sheet shows the rolls' pictures (a column of them, where any roll kept one)."""
    race: Race | None = None
    """The score race, drawn on the sheet (None: not drawn)."""

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.winners)


def _in_progress(state: GameState) -> str:
    turn, player = state.turn, state.current
    if turn is None or player is None:
        return ""
    roll = f", roll on the table {turn.roll}" if turn.roll is not None else ""
    return f"{player.name} is playing: {turn.total:,} this turn{roll}"


def outcome_text(record: TurnRecord, state: GameState) -> str:
    """How a finished turn ended, for its line of the sheet (and so of the history and every
    export): the outcome, the pot it took over, and the Farkle penalty it paid and why, e.g.
    ``"banked, took over Ann's 2,500"`` or ``"Farkle, 1,000 penalty (third Farkle in a row)"``."""
    words = [OUTCOME_WORDS[record.outcome]]
    took_over = took_over_text(record, state)
    if took_over:
        words.append(took_over + (" (lost)" if record.outcome is Outcome.FARKLED else ""))
    if record.penalty:
        rules = state.rules.turn
        whole = ", all of the score" if record.penalty < penalty_due(rules, record.farkles_in_a_row) else ""
        words.append(f"{record.penalty:,} penalty{whole} ({penalty_reason(rules, record.farkles_in_a_row)})")
    return ", ".join(words)


def score_sheet(events: Sequence[Event], exported_at: str | None = None, journal: Path | None = None) -> ScoreSheet:
    """The score sheet of the game these events make; with the pictures of its rolls kept beside
    ``journal`` (each checked: a missing or damaged one is said so), or none when it is None."""
    state = Game.from_events(events).state
    photos = turn_photos(events) if journal is not None else []
    names = tuple(player.name for player in state.players)
    running = [0] * len(names)
    counts = [0] * len(names)
    farkles = [0] * len(names)
    turns = []
    for number, record in enumerate(state.history, start=1):
        running[record.player] = record.score_after
        counts[record.player] += 1
        farkle = record.outcome is Outcome.FARKLED
        farkles[record.player] += farkle
        turns.append(
            SheetTurn(
                number=number,
                round=counts[record.player],
                player=names[record.player],
                rolls=tuple(str(roll) for roll in record.rolls),
                kept=tuple(f"{keep.keep} ({keep.points:,})" for keep in record.keeps),
                entered=record.entered,
                outcome=outcome_text(record, state),
                farkle=farkle,
                points=record.points,
                card_bonus=record.card_bonus,
                penalty=record.penalty,
                totals=tuple(running),
                entered_notes=record.entered_notes,
                photos=tuple(roll_photo(journal, name) if name is not None else None for name in photos[number - 1])
                if journal is not None
                else (),
            )
        )
    return ScoreSheet(
        players=names,
        scores=tuple(player.score for player in state.players),
        farkles=tuple(farkles),
        turns=tuple(turns),
        rules_name=state.rules.name,
        rules=tuple(describe_rules(state.rules, state.target)),
        target=state.target,
        winners=tuple(names[seat] for seat in state.winners),
        in_progress=_in_progress(state),
        started_at=state.started_at,
        exported_at=exported_at or datetime.now().astimezone().isoformat(timespec="seconds"),
        statistics=tuple(stats_rows(events, coach_for(events))),
        fairness=fairness_line(events),
        with_photos=any(photo is not None for turn in turns for photo in turn.photos),
        race=score_race(events),
    )
