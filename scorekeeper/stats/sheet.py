"""The statistics as rows for the exported score sheet (plain text cells, no Qt)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from scorekeeper.game import Event
from scorekeeper.stats.fairness import face_counts, fairness
from scorekeeper.stats.players import player_stats

if TYPE_CHECKING:
    from scorekeeper.coach import Policy

HEADER = ("Player", "Turns", "Farkles", "Farkle rate", "Average turn", "Best turn", "Banked per turn",
          "Left on the table")
"""Column titles of :func:`stats_rows`."""

EXPLAINED = (
    "",
    "Turns finished.",
    "Turns lost to a Farkle.",
    "Share of turns lost to a Farkle.",
    "The points of the average turn that was banked (Farkled turns left out).",
    "The most points banked in one turn.",
    "All points banked divided by every turn played, Farkles counted as 0: the coach's points per turn compare with this.",
    "The points the coach expected from rolling on, less the points banked, added up over the banks where "
    "it would have rolled on (how many in brackets); - when the coach cannot advise these rules.",
)
"""What each column of :data:`HEADER` means, in a sentence."""

NOTE = " ".join(f"{title}: {what[0].lower()}{what[1:]}" for title, what in zip(HEADER[4:], EXPLAINED[4:]) if title != "Best turn")
"""The columns that need explaining, explained, for under the table."""


def stats_rows(events: Iterable[Event], policy: Policy | None = None) -> list[tuple[str, ...]]:
    """One row of cells per player, under :data:`HEADER`.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"])
    >>> game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()
    >>> stats_rows(game.events)
    [('Ann', '1', '0', '0%', '250', '250', '250', '-')]
    >>> from scorekeeper.coach import policy_for
    >>> game.roll("1 2 3 4 6 6"); game.keep("1"); game.bank()
    >>> stats_rows(game.events, policy_for(load_rules("retail")))[0][-1]
    '350 (2 banks)'
    """
    rows: list[tuple[str, ...]] = []
    for stats in player_stats(events, policy):
        times = stats.banks_against_advice
        banks = f" ({times} bank{'s' if times != 1 else ''})" if times else ""
        left = "-" if stats.left_on_table is None else f"{stats.left_on_table:,.0f}{banks}"
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


def counted(events: Iterable[Event]) -> str:
    """Which dice the fairness test counts, in words.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail"), ["Ann"])
    >>> game.roll("1 1 5 2 3 4", source="camera"); game.keep("1 1 5"); game.roll("2 3 4")
    >>> counted(game.events)
    'Counted: 9 dice, 6 read by the camera and 3 typed (typed includes the dice of turns put right in the history), each as corrected.'
    """
    listed = list(events)
    camera, typed = sum(face_counts(listed, "camera")), sum(face_counts(listed, "typed"))
    return (
        f"Counted: {camera + typed} dice, {camera} read by the camera and {typed} typed "
        "(typed includes the dice of turns put right in the history), each as corrected."
    )


def fairness_line(events: Iterable[Event]) -> str:
    """The dice-fairness result of a game in one line, with the face counts and which dice were counted."""
    listed = list(events)
    counts = face_counts(listed)
    faces = ", ".join(f"{face}: {count}" for face, count in enumerate(counts, start=1))
    return f"Dice faces read ({faces}); {fairness(counts)}. {counted(listed)}"
