"""The window's banner over the scoreboard: who won, or that the last lap is on (no Qt here).

>>> from scorekeeper.game import Game
>>> from scorekeeper.rules import load_rules
>>> banner_of(Game.new(load_rules("retail"), ["Ann", "Bob"]).state) is None
True
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorekeeper.game import GameState
from scorekeeper.game.describe import farkle_cost_text

FARKLE_SEEN = "FARKLE! Nothing in this roll scores."
"""What the Farkle banner says of a roll that scores nothing."""


class BannerKind(enum.Enum):
    """What the banner announces, which sets its colours."""

    WON = "won"
    """The game is over: the winners are named."""
    LAST_LAP = "last lap"
    """A player reached the target: everyone else has one more turn."""


@dataclass(frozen=True)
class Banner:
    """A line the window shows in large type over the scoreboard."""

    kind: BannerKind
    """What it announces."""
    text: str
    """The line itself."""


def banner_of(state: GameState | None) -> Banner | None:
    """The banner for ``state``: the winners once the game is over, the last lap while it is on;
    None for no game or a game under way."""
    if state is None:
        return None
    if state.over:
        names = " and ".join(state.players[seat].name for seat in state.winners)
        return Banner(BannerKind.WON, f"{names} win{'s' if len(state.winners) == 1 else ''} the game!")
    if state.final_lap:
        mark = state.players[state.lap_mark].name if state.lap_mark is not None else ""
        return Banner(BannerKind.LAST_LAP, f"LAST LAP: {mark} reached {state.target:,}; everyone else has one more turn")
    return None


def farkle_banner_text(state: GameState) -> str:
    """What the Farkle banner says over a roll that scores nothing, before F declares the Farkle:
    that nothing scores, and what the Farkle will take off the score under these rules, if anything.

    >>> from scorekeeper.game import Game
    >>> from scorekeeper.rules import load_rules
    >>> game = Game.new(load_rules("retail+three-farkle-penalty"), ["Ann"])
    >>> game.roll("1 5 2 3 4 6"); game.keep("1 5"); game.bank()
    >>> game.roll("2 2 3 4 6 6"); game.farkle(); game.roll("2 2 3 4 6 6"); game.farkle(); game.roll("2 2 3 4 6 6")
    >>> farkle_banner_text(game.state)
    'FARKLE! Nothing in this roll scores. Ann loses 150, all of the score (1,000 due: third Farkle in a row).'
    """
    cost = farkle_cost_text(state)
    return f"{FARKLE_SEEN} {cost}." if cost else FARKLE_SEEN
