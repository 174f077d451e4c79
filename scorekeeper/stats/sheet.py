"""The statistics as rows for the exported score sheet (plain text cells, no Qt)."""

from __future__ import annotations

from collections.abc import Iterable

from scorekeeper.coach import Policy
from scorekeeper.game import Event
from scorekeeper.stats.fairness import face_counts, fairness
from scorekeeper.stats.players import player_stats

HEADER = ("Player", "Turns", "Farkles", "Farkle rate", "Average turn", "Best turn", "Banked per turn",
          "Left on the table")
"""Column titles of :func:`stats_rows`."""


def stats_rows(events: Iterable[Event], policy: Policy | None = None) -> list[tuple[str, ...]]:
    """One row of cells per player, under :data:`HEADER`.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"])
    >>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
    >>> stats_rows(game.events)
    [('Ann', '1', '0', '0%', '250', '250', '250', '-')]
    """
    rows: list[tuple[str, ...]] = []
    for stats in player_stats(events, policy):
        left = "-" if stats.left_on_table is None else f"{stats.left_on_table:,.0f}"
        rows.append((
            stats.name,
            str(stats.turns),
            str(stats.farkles),
            f"{100 * stats.farkle_rate:.0f}%",
            f"{stats.average_turn:,.0f}",
            f"{stats.best_turn:,}",
            f"{stats.banked_per_turn:,.0f}",
            left,
        ))
    return rows


def fairness_line(events: Iterable[Event]) -> str:
    """The dice-fairness result of a game in one line, with the face counts."""
    counts = face_counts(events)
    faces = ", ".join(f"{face}: {count}" for face, count in enumerate(counts, start=1))
    return f"Dice faces read ({faces}); {fairness(counts)}"
