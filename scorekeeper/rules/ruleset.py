"""The rule set: every knob the rule texts mention, as one immutable value.

A rule set has three parts: how dice score (:class:`Scoring`), how a turn
runs (:class:`TurnRules`) and how the game ends (:class:`EndRules`). Rule sets
are loaded from TOML (see :mod:`scorekeeper.rules.loading`); this module only
defines the values and how they read and print.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from scorekeeper.rules.errors import RuleFileError
from scorekeeper.safe_input import is_plain_number, quote


MAX_TARGET = 1_000_000
"""The highest target (and short target) a game may be played to."""
ANY_TARGET_FROM = 1_000
"""The lowest target a game may be played to under any rules: every multiple of 50 from here to
:data:`MAX_TARGET` is allowed, besides the targets the rules themselves offer. The card edition's
text plays shorter games ("you may decide to play to only 5,000 or 7,500 points to avoid a very
long game") and the house rules of 2009 speak of a player "who reached 5,000"; issue 54 asks for
"any multiple of 50 from 1,000 up", each preset keeping its own target when none is given."""


class GameKind(enum.Enum):
    """What the players throw: real dice, or the Farkle Flip cards."""

    DICE = "dice"
    """Six dice, read by the camera or typed."""
    CARDS = "cards"
    """The card edition: combinations are entered as points, Farkle cards are drawn."""


class FinalLap(enum.Enum):
    """What happens once a player reaches the target."""

    NONE = "none"
    """The first player to reach the target wins at once."""
    ONE_LAP = "one-lap"
    """Everyone else gets one more turn; the highest total then wins."""
    EXTEND = "extend"
    """As one-lap, but whoever beats the leader in the last lap earns everyone
    else one more turn, until nobody beats the leader."""


class Ties(enum.Enum):
    """How a tie for the highest total at the end is settled."""

    SHARED = "shared"
    """All tied players win together."""
    PLAY_OFF = "play-off"
    """The tied players each take one more turn, until one is ahead."""


@dataclass(frozen=True, order=True)
class KindValue:
    """The value of four, five or six of a kind.

    Either flat points, or a multiple of the same face's three of a kind, or
    no such combination.

    >>> KindValue.from_str("triple x2").value(triple=400)
    800
    >>> str(KindValue.from_str("1000"))
    '1000'
    >>> KindValue.from_str("none").scores
    False
    """

    points: int = 0
    """Flat points for the combination, whatever the face (0 when not flat)."""
    triple_times: int = 0
    """Multiple of the three-of-a-kind value of the same face (0 when flat)."""

    @property
    def scores(self) -> bool:
        """Whether the combination exists at all."""
        return self.points > 0 or self.triple_times > 0

    def value(self, triple: int) -> int:
        """Points for this many of a kind of a face whose three of a kind is ``triple``."""
        return self.points if self.points else triple * self.triple_times

    @classmethod
    def from_str(cls, text: str) -> KindValue:
        """Read ``"1000"``, ``"triple x2"`` or ``"none"``."""
        words = text.strip().lower().split()
        if words == ["none"]:
            return cls()
        if len(words) == 1 and is_plain_number(words[0]) and int(words[0]) > 0:
            return cls(points=int(words[0]))
        if len(words) == 2 and words[0] == "triple" and words[1][:1] == "x" and is_plain_number(words[1][1:]):
            times = int(words[1][1:])
            if times > 0:
                return cls(triple_times=times)
        raise RuleFileError(
            f"kind value {quote(text)} is not one of: points such as 1000, "
            '"triple xN" (N times the three of a kind), or "none"'
        )

    def __str__(self) -> str:
        if self.points:
            return str(self.points)
        if self.triple_times:
            return f"triple x{self.triple_times}"
        return "none"


@dataclass(frozen=True)
class Scoring:
    """What each combination is worth. A value of 0 means the combination does not exist."""

    one: int
    """Each single 1."""
    five: int
    """Each single 5."""
    three_ones: int
    """Three 1s."""
    three_of_a_kind: int
    """Three of a kind of 2-6 score the face times this."""
    four_of_a_kind: KindValue
    """Four of a kind."""
    five_of_a_kind: KindValue
    """Five of a kind."""
    six_of_a_kind: KindValue
    """Six of a kind."""
    straight: int
    """1 2 3 4 5 6 in one roll."""
    three_pairs: int
    """Three pairs in one roll."""
    four_of_a_kind_as_two_pairs: bool
    """Whether four of a kind counts as two pairs toward three pairs (3 3 3 3 4 4)."""
    four_of_a_kind_and_pair: int
    """Four of a kind and a pair of another face in one roll."""
    two_triplets: int
    """Two three-of-a-kinds of different faces in one roll."""
    wild_die: bool
    """Wild-die variant: one die of another colour (marked ``w``) counts as whatever face scores best
    when it shows a 1, a straight included; showing 2-6 it is that face."""
    spicy: bool
    """Spicy variant: each die has one face whose pips are red; a combination that holds a die showing
    its red face (marked ``r``) scores double."""

    def triple(self, face: int) -> int:
        """Points for three of a kind of ``face``.

        >>> from scorekeeper.rules import load_rules
        >>> load_rules("retail").scoring.triple(1), load_rules("pocket").scoring.triple(1)
        (1000, 300)
        """
        return self.three_ones if face == 1 else face * self.three_of_a_kind

    def of_a_kind(self, face: int, count: int) -> int:
        """Points for ``count`` (3-6) dice of ``face`` taken together; 0 if that does not score."""
        if count == 3:
            return self.triple(face)
        kind = {4: self.four_of_a_kind, 5: self.five_of_a_kind, 6: self.six_of_a_kind}[count]
        return kind.value(self.triple(face))


@dataclass(frozen=True)
class TurnRules:
    """How a turn runs."""

    hot_dice: bool
    """Scoring with all six dice lets the player roll all six again in the same turn."""
    entry_minimum: int
    """Points a player must bank in one turn to get on the board (0 = none)."""
    farkle_cards_count_toward_entry: bool
    """Whether the Farkle-card bonus counts toward the entry minimum (card edition)."""
    each_farkle_penalty: int
    """Points lost for every Farkle (0 = none); a completed streak costs ``farkle_penalty`` on top."""
    farkle_penalty: int
    """Points lost for Farkling ``farkle_penalty_streak`` turns in a row (0 = no penalty)."""
    farkle_penalty_streak: int
    """How many Farkles in a row cost the penalty; the streak then starts over."""
    penalty_below_zero: bool
    """Whether a Farkle penalty may take a banked score below zero."""
    six_of_a_kind_wins: bool
    """Keeping six of a kind wins the game on the spot."""
    instant_win_banks_turn: bool
    """Whether the winning turn (with the six of a kind) is banked before the game ends."""
    farkle_card_value: int
    """Points each held Farkle card adds when its holder next banks (card edition; 0 = none)."""
    piggyback: bool
    """After a bank that left dice to roll, the next player may roll only those dice with the banked
    points in the pot: scoring carries the pot into their turn, a Farkle loses it (dice edition)."""

    def farkle_cost(self, score: int, streak: int) -> int:
        """Points a Farkle takes off a banked ``score`` after ``streak`` Farkles in a row: the
        penalty for each Farkle, plus the streak's penalty when this Farkle completes the streak, no
        more than the score holds unless a penalty may take it below zero.

        >>> from scorekeeper.rules import load_rules
        >>> turn = load_rules("retail+farkle-penalty-500+three-farkle-penalty").turn
        >>> turn.farkle_cost(3000, 0), turn.farkle_cost(3000, 2), turn.farkle_cost(300, 2), turn.farkle_cost(-50, 0)
        (500, 1500, 300, 0)
        """
        penalty = self.each_farkle_penalty
        if self.farkle_penalty and streak + 1 >= self.farkle_penalty_streak:
            penalty += self.farkle_penalty
        return penalty if self.penalty_below_zero else min(penalty, max(score, 0))


@dataclass(frozen=True)
class EndRules:
    """How the game ends."""

    target: int
    """Banked score that ends the game (or starts the last lap)."""
    short_targets: tuple[int, ...]
    """Lower targets offered for big tables."""
    short_targets_min_players: int
    """How many players a table needs before ``short_targets`` are offered."""
    final_lap: FinalLap
    """What happens once someone reaches the target."""
    ties: Ties
    """How a tie for the win is settled."""


@dataclass(frozen=True)
class RuleSet:
    """A complete set of Farkle rules.

    >>> from scorekeeper.rules import load_rules
    >>> rules = load_rules("house-2009")
    >>> rules.name, rules.scoring.straight, rules.turn.entry_minimum
    ('house-2009', 1000, 1000)
    """

    name: str
    """Short name: a preset's name, with ``+variant`` for each variant applied."""
    title: str
    """One line saying where these rules come from."""
    kind: GameKind
    """Dice or cards."""
    scoring: Scoring
    """What combinations are worth."""
    turn: TurnRules
    """How a turn runs."""
    end: EndRules
    """How the game ends."""

    def allowed_targets(self, players: int) -> tuple[int, ...]:
        """Targets a table of ``players`` may play to.

        >>> from scorekeeper.rules import load_rules
        >>> load_rules("flip").allowed_targets(4), load_rules("flip").allowed_targets(6)
        ((10000,), (10000, 5000, 7500))
        """
        if self.end.short_targets and players >= self.end.short_targets_min_players:
            return (self.end.target, *self.end.short_targets)
        return (self.end.target,)

    def any_target(self, target: int) -> bool:
        """Whether ``target`` is one of the targets any game may be played to, whatever the rules offer.

        >>> from scorekeeper.rules import load_rules
        >>> [load_rules("retail").any_target(t) for t in (500, 1000, 3050, 3075)]
        [False, True, True, False]
        """
        return ANY_TARGET_FROM <= target <= MAX_TARGET and target % 50 == 0
