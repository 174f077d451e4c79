"""Table statistics: how each player plays, and whether the dice are fair; and, in
:mod:`scorekeeper.stats.history`, every finished game of a home added up per player.

Plain functions of the game log (``game.events``): undone steps do not count,
corrected dice count as corrected. No Qt here.
"""

from scorekeeper.stats.fairness import (
    ALPHA,
    FairnessTest,
    add_counts,
    chi_square_sf,
    face_counts,
    fairness,
    saved_face_counts,
)
from scorekeeper.stats.players import PlayerStats, coach_for, player_stats
from scorekeeper.stats.replay import Step, final_state, replay, rolls_read, standing_actions
from scorekeeper.stats.sheet import EXPLAINED, HEADER, NOTE, counted, fairness_line, stats_rows

__all__ = [
    "ALPHA",
    "EXPLAINED",
    "HEADER",
    "NOTE",
    "FairnessTest",
    "PlayerStats",
    "Step",
    "add_counts",
    "chi_square_sf",
    "coach_for",
    "counted",
    "face_counts",
    "fairness_line",
    "fairness",
    "final_state",
    "player_stats",
    "replay",
    "rolls_read",
    "saved_face_counts",
    "standing_actions",
    "stats_rows",
]
