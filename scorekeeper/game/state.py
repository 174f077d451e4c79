"""The state of a game, derived step by step from its events.

:func:`apply` is the whole of the game's rules of play: it takes a state and
one action and returns the next state, or raises a domain error that names the
action and why, leaving the state as it was (states are immutable).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from scorekeeper.game.events import (
    Action,
    Banked,
    DiceRolled,
    DieCorrected,
    Farkled,
    FreshDice,
    GameStarted,
    Kept,
    Piggybacked,
    PlayerAdded,
    PointsEntered,
)
from scorekeeper.rules import (
    ANY_TARGET_FROM,
    MAX_TARGET,
    Dice,
    FinalLap,
    GameKind,
    GameOver,
    IllegalAction,
    IllegalBank,
    IllegalRoll,
    KeepOption,
    RollScore,
    most_points,
    RuleSet,
    Ties,
    check_marks,
    read_die,
    score_roll,
)
from scorekeeper.game.history import TurnHistory
from scorekeeper.rules.loading import MAX_POINTS
from scorekeeper.safe_input import quote

ALL_DICE = 6
MAX_NAME_LENGTH = 40
"""The longest player name taken, typed or read from a file (a scoreboard shows about 12 characters);
also the longest name of where a roll came from."""
MAX_NOTE_LENGTH = 200
"""The longest note on points entered by hand (the history shows it)."""


class Phase(enum.Enum):
    """Where the current turn stands."""

    TO_ROLL = "to roll"
    """No roll on the table: roll (or bank, once something is kept)."""
    TO_KEEP = "to keep"
    """A roll is on the table: keep scoring dice, or call the Farkle."""
    OVER = "over"
    """The game has ended."""


class Outcome(enum.Enum):
    """How a turn ended."""

    BANKED = "banked"
    FARKLED = "farkled"
    WON = "won"
    """Six of a kind won the game on the spot."""
    STUCK = "stuck"
    """All dice scored with no hot dice, below the entry minimum: nothing banked."""


@dataclass(frozen=True)
class PlayerState:
    """One seat at the table."""

    name: str
    """The name on the scoreboard."""
    score: int = 0
    """Banked points."""
    on_board: bool = False
    """Whether the player has banked once (and so met the entry minimum)."""
    farkle_streak: int = 0
    """Farkles in a row since the player last banked or paid the penalty."""
    farkle_cards: int = 0
    """Farkle cards held, worth points at the next bank (card edition)."""


@dataclass(frozen=True)
class Pot:
    """Piggyback variant: what a bank left for the next player to take on."""

    dice: int
    """Dice the banker had left to roll (six after hot dice)."""
    points: int
    """The points banked, which the next player adds to their turn by piggybacking."""
    banker: int
    """Seat of the player who banked them."""
    wild_aside: bool = False
    """Wild-die variant: the banker had set the wild die aside, so it is not among the dice left."""


@dataclass(frozen=True)
class TurnState:
    """The turn being played."""

    player: int
    """Seat of the player whose turn it is."""
    total: int = 0
    """Points built up this turn, lost on a Farkle."""
    dice_left: int = ALL_DICE
    """Dice the player rolls next."""
    roll: Dice | None = None
    """The roll on the table, if any."""
    rolls: tuple[Dice, ...] = ()
    """Every roll of the turn so far, as corrected."""
    keeps: tuple[KeepOption, ...] = ()
    """Every keep of the turn so far."""
    entered: tuple[int, ...] = ()
    """Points entered by hand this turn."""
    entered_notes: tuple[str, ...] = ()
    """What each entry of :attr:`entered` was for, as the player said ("three 1s"; "" if nothing)."""
    hot_dice: int = 0
    """How many times this turn all six dice scored and were picked up again."""
    offer: Pot | None = None
    """Piggyback variant: the pot the player may still take on or turn down (before the first roll)."""
    pot: int = 0
    """Piggyback variant: points taken on from the last player's bank, part of :attr:`total`."""
    wild_aside: bool = False
    """Wild-die variant: the wild die lies among the dice set aside (kept since the dice were last
    all picked up, or by the banker whose dice were taken on), so it is not among the dice to roll."""

    @property
    def set_aside(self) -> tuple[int, ...]:
        """The dice kept and lying out of play now, sorted: the keeps since the dice were last all
        picked up (hot dice), which are the dice not left to roll.

        >>> from scorekeeper.rules import load_rules, score_roll
        >>> keep = score_roll(load_rules("retail"), Dice.from_str("1 5 2 3 4 6")).option_for(Dice.from_str("1 5"))
        >>> TurnState(0, dice_left=4, keeps=(keep,)).set_aside, TurnState(0, dice_left=6, keeps=(keep,)).set_aside
        ((1, 5), ())
        """
        out: list[int] = []
        for option in reversed(self.keeps):
            if len(out) + len(option.keep) > ALL_DICE - self.dice_left:
                break
            out.extend(option.keep.values)
        return tuple(sorted(out))


@dataclass(frozen=True)
class TurnRecord:
    """A finished turn, for the score sheet."""

    player: int
    """Seat of the player."""
    rolls: tuple[Dice, ...]
    """Every roll, as corrected."""
    keeps: tuple[KeepOption, ...]
    """Every keep and its points."""
    entered: tuple[int, ...]
    """Points entered by hand."""
    outcome: Outcome
    """How the turn ended."""
    points: int
    """Points added to the score (0 unless banked), Farkle-card bonus included."""
    card_bonus: int
    """Of ``points``, what held Farkle cards added."""
    penalty: int
    """Points taken off by the Farkle penalty."""
    score_after: int
    """The player's score once the turn was over."""
    farkles_in_a_row: int = 0
    """For a Farkle: how many Farkles in a row it makes for the player, this one included."""
    entered_notes: tuple[str, ...] = ()
    """What each entry of :attr:`entered` was for ("" where the player said nothing)."""
    pot: int = 0
    """Piggyback variant: points the turn took on from the last player's bank (banked with the
    turn, or lost with it on a Farkle)."""
    hot_dice: int = 0
    """How many times in the turn all six dice scored and were picked up again."""


@dataclass(frozen=True)
class GameState:
    """Everything the scoreboard shows, derived from the log."""

    rules: RuleSet
    """The rules in force."""
    target: int
    """The score that ends the game or starts the last lap."""
    started_at: str
    """When the game began."""
    players: tuple[PlayerState, ...] = ()
    """Seats in order of play."""
    turn: TurnState | None = None
    """The turn being played; None before there is a player, or once the game is over."""
    history: TurnHistory[TurnRecord] = field(default_factory=TurnHistory)
    """Every finished turn (sharing its records with the history of the state before)."""
    lap_mark: int | None = None
    """In the last lap: the seat whose score set the mark; the lap ends when play comes back to it."""
    play_off: tuple[int, ...] = ()
    """Seats playing off a tie, in order."""
    winners: tuple[int, ...] = ()
    """Seats of the winners, once the game is over."""

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return bool(self.winners)

    @property
    def phase(self) -> Phase:
        """Where the current turn stands."""
        if self.over:
            return Phase.OVER
        return Phase.TO_KEEP if self.turn is not None and self.turn.roll is not None else Phase.TO_ROLL

    @property
    def final_lap(self) -> bool:
        """Whether someone has reached the target and the last lap is being played."""
        return self.lap_mark is not None and not self.over

    @property
    def current(self) -> PlayerState | None:
        """The player whose turn it is."""
        return None if self.turn is None else self.players[self.turn.player]

    def roll_score(self) -> RollScore | None:
        """The scoring of the roll on the table; None when there is none, or while it shows fewer
        dice than were thrown (:meth:`missing_dice`): such a roll is not scored, neither kept from
        nor a Farkle, until the missing dice are added."""
        if self.turn is None or self.turn.roll is None or self.missing_dice():
            return None
        return score_roll(self.rules, self.turn.roll)

    def missing_dice(self) -> int:
        """Dice in play that the roll on the table does not show (the camera missed them)."""
        if self.turn is None or self.turn.roll is None:
            return 0
        return self.turn.dice_left - len(self.turn.roll)

    def bank_value(self) -> tuple[int, int]:
        """What banking now would add: (turn total, Farkle-card bonus)."""
        if self.turn is None:
            return 0, 0
        player = self.players[self.turn.player]
        return self.turn.total, player.farkle_cards * self.rules.turn.farkle_card_value

    def entry_shortfall(self) -> int:
        """Points the current player still needs this turn to get on the board (0 when banking is allowed)."""
        player = self.current
        if player is None or player.on_board:
            return 0
        total, bonus = self.bank_value()
        counted = total + (bonus if self.rules.turn.farkle_cards_count_toward_entry else 0)
        return max(0, self.rules.turn.entry_minimum - counted)

    def can_bank(self) -> bool:
        """Whether a bank would be accepted now (a pot taken on is banked only once the player scored)."""
        return (
            self.phase is Phase.TO_ROLL
            and self.turn is not None
            and self.turn.total > self.turn.pot
            and (self.entry_shortfall() == 0 or self.stuck())
        )

    def pot_offered(self) -> Pot | None:
        """Piggyback variant: the pot the current player may take on now, before rolling (None: no choice)."""
        return self.turn.offer if self.turn is not None and not self.over else None

    def can_roll(self) -> bool:
        """Whether a dice roll would be accepted now."""
        return (
            self.rules.kind is GameKind.DICE
            and self.phase is Phase.TO_ROLL
            and self.turn is not None
            and self.turn.dice_left > 0
        )

    def stuck(self) -> bool:
        """All dice scored with no hot dice, below the entry minimum: the turn can only end empty."""
        return self.turn is not None and self.turn.dice_left == 0 and self.entry_shortfall() > 0

    def leaders(self) -> tuple[int, ...]:
        """Seats with the highest score."""
        if not self.players:
            return ()
        best = max(player.score for player in self.players)
        return tuple(seat for seat, player in enumerate(self.players) if player.score == best)


_State = TypeVar("_State", GameState, TurnState, PlayerState)


def replace(state: _State, /, **changes: Any) -> _State:
    """``state`` with ``changes`` made, as :func:`dataclasses.replace` makes it, for this module's
    states alone (each field set by ``__init__``, none worked out in a ``__post_init__``): a replay
    makes a few of them each step, so this copies the fields at once instead of one by one.

    >>> replace(PlayerState("Ann"), score=250)
    PlayerState(name='Ann', score=250, on_board=False, farkle_streak=0, farkle_cards=0)
    >>> replace(PlayerState("Ann"), scores=250)
    Traceback (most recent call last):
    ...
    TypeError: PlayerState has no field 'scores'
    """
    if not changes.keys() <= state.__dict__.keys():
        raise TypeError(f"{type(state).__name__} has no field {min(changes.keys() - state.__dict__.keys())!r}")
    changed = object.__new__(type(state))
    changed.__dict__.update(state.__dict__, **changes)
    return changed


def start(event: GameStarted) -> GameState:
    """The state of a game that has just begun: played to any multiple of 50 from
    :data:`~scorekeeper.rules.ANY_TARGET_FROM` up, or to a target its rules offer."""
    rules, target = event.rules, event.target
    if target <= 0:
        raise IllegalAction(
            f"target {target:,}: a game is played to more than 0 points; play to a multiple of 50 such as {rules.end.target:,}"
        )
    if target % 50:
        below = target - target % 50
        near = f"{below:,} or {below + 50:,}" if below else f"{rules.end.target:,}"
        raise IllegalAction(f"target {target:,}: not a multiple of 50; play to a multiple of 50 such as {near}")
    if target not in (rules.end.target, *rules.end.short_targets) and not rules.any_target(target):
        raise IllegalAction(
            f"target {target:,} is too {'low' if target < ANY_TARGET_FROM else 'high'}: play to a multiple of 50 "
            f"from {ANY_TARGET_FROM:,} to {MAX_TARGET:,}, or leave it out for the rules' own {rules.end.target:,}"
        )
    return GameState(rules=rules, target=target, started_at=event.started_at)


def _who(state: GameState) -> str:
    player = state.current
    return player.name if player is not None else "nobody"


def check_target(state: GameState) -> None:
    """Refuse a short target the table is too small for, where it is not a target any game may be
    played to (a rules file's short target under 1,000).

    farkle-flip-card-game.txt: "If playing with six or more players, you may
    decide to play to only 5,000 or 7,500 points".
    """
    allowed = state.rules.allowed_targets(len(state.players))
    if state.target not in allowed and not state.rules.any_target(state.target):
        raise IllegalAction(
            f"target {state.target:,} is offered only to tables of {state.rules.end.short_targets_min_players} "
            f"or more players; this table has {len(state.players)}. Play to {state.rules.end.target:,}"
        )


def _in_play(state: GameState, action: str) -> TurnState:
    """The current turn, after checking that ``action`` can be taken at all."""
    if state.over:
        names = " and ".join(state.players[seat].name for seat in state.winners)
        raise GameOver(f"{action}: the game is over ({names} won)")
    if state.turn is None:
        raise IllegalAction(f"{action}: there are no players yet; add a player first")
    check_target(state)
    return state.turn


def _set_player(state: GameState, seat: int, player: PlayerState) -> tuple[PlayerState, ...]:
    return state.players[:seat] + (player,) + state.players[seat + 1 :]


def _add_player(state: GameState, action: PlayerAdded) -> GameState:
    name = action.name.strip()
    if len(name) > MAX_NAME_LENGTH:
        raise IllegalAction(
            f"add player {quote(name)}: a name of {len(name):,} characters is too long (at most {MAX_NAME_LENGTH})"
        )
    if state.over:
        raise GameOver(f"add player {name!r}: the game is over")
    if not name:
        raise IllegalAction("add player: the name is empty")
    if any(player.name.casefold() == name.casefold() for player in state.players):
        raise IllegalAction(f"add player {name!r}: there is already a player of that name")
    if state.lap_mark is not None:
        raise IllegalAction(f"add player {name!r}: the last lap has begun")
    players = (*state.players, PlayerState(name))
    turn = state.turn if state.turn is not None else TurnState(player=0)
    return replace(state, players=players, turn=turn)


def _dice_turn(state: GameState, what: str) -> TurnState:
    """The current turn, after checking that the game is played with dice."""
    turn = _in_play(state, what)
    if state.rules.kind is not GameKind.DICE:
        raise IllegalAction(f"{what}: the card edition has no dice; enter the combination's points")
    return turn


def _roll(state: GameState, action: DiceRolled) -> GameState:
    what = f"roll {action.dice}"
    if len(action.source) > MAX_NAME_LENGTH:
        raise IllegalAction(f"{what}: the source {quote(action.source)} is longer than {MAX_NAME_LENGTH} characters")
    turn = _dice_turn(state, what)
    if turn.roll is not None:
        raise IllegalAction(f"{what}: the roll {turn.roll} is still on the table; keep dice from it first")
    if turn.dice_left == 0:
        raise IllegalAction(f"{what}: no dice are left to roll; bank the turn")
    if not len(action.dice):
        raise IllegalRoll(f"{what}: a roll needs at least one die")
    if len(action.dice) > turn.dice_left:
        raise IllegalRoll(f"{what}: {len(action.dice)} dice, but {_who(state)} has only {turn.dice_left} to roll")
    _check_marks(state, action.dice, what)
    return replace(state, turn=replace(turn, roll=action.dice, rolls=(*turn.rolls, action.dice), offer=None))


def _check_marks(state: GameState, dice: Dice, what: str) -> None:
    try:
        check_marks(state.rules, dice)
    except IllegalRoll as exc:
        raise IllegalRoll(f"{what}: {exc}") from None


def _correction_words(action: DieCorrected) -> str:
    if action.was is None:
        return f"add a missed {action.now}"
    if action.now is None:
        return f"take out the {action.was} (not a die)"
    return f"correct die {action.was} to {action.now}"


def _correct(state: GameState, action: DieCorrected) -> GameState:
    what = _correction_words(action)
    turn = _dice_turn(state, what)
    if turn.roll is None:
        raise IllegalAction(f"{what}: there is no roll on the table to correct")
    if action.was == action.now:
        raise IllegalAction(f"{what}: the correction changes nothing")
    dice = list(turn.roll.dice)
    if action.was is not None:
        was = read_die(action.was)
        if was not in dice:
            raise IllegalRoll(f"{what}: there is no {action.was} in the roll {turn.roll}")
        dice.remove(was)
    if action.now is not None:
        dice.append(read_die(action.now))
    corrected = Dice((face for face, _ in dice), (mark for _, mark in dice))
    if not len(corrected):
        raise IllegalRoll(f"{what}: that would leave no dice in the roll")
    if len(corrected) > turn.dice_left:
        raise IllegalRoll(f"{what}: {len(corrected)} dice, but only {turn.dice_left} are in play")
    _check_marks(state, corrected, what)
    return replace(state, turn=replace(turn, roll=corrected, rolls=(*turn.rolls[:-1], corrected)))


def refuse_missing_dice(state: GameState, what: str) -> None:
    """Refuse ``what`` while the roll on the table shows fewer dice than were thrown: a roll is
    scored only whole."""
    turn = state.turn
    if state.missing_dice() and turn is not None and turn.roll is not None:
        raise IllegalAction(
            f"{what}: only {len(turn.roll)} of the {turn.dice_left} dice thrown were read, and a roll is scored only whole; "
            "add the missing dice first (tap each in the camera view, or type c - FACE), or undo the roll and throw again"
        )


def _keep(state: GameState, action: Kept) -> GameState:
    """A keep from the roll on the table. One from a roll with dice missing is refused as a new
    step (``Game.act``), and still taken from a game's log written before that rule."""
    what = f"keep {action.dice}"
    turn = _dice_turn(state, what)
    if turn.roll is None:
        raise IllegalAction(f"{what}: there is no roll on the table; roll first")
    scored = score_roll(state.rules, turn.roll)
    option = scored.option_for(action.dice)
    keeps, total = (*turn.keeps, option), turn.total + option.points
    if scored.wins and len(option.keep) == ALL_DICE:
        return _instant_win(state, replace(turn, roll=None, keeps=keeps, total=total))
    dice_left = turn.dice_left - len(option.keep)
    hot = dice_left == 0 and state.rules.turn.hot_dice
    aside = (turn.wild_aside or any("w" in mark for mark in option.keep.marks)) and not hot
    turn = replace(
        turn, roll=None, keeps=keeps, total=total, dice_left=ALL_DICE if hot else dice_left, hot_dice=turn.hot_dice + hot, wild_aside=aside
    )
    return replace(state, turn=turn)


def _enter_points(state: GameState, action: PointsEntered) -> GameState:
    what = f"enter {action.points:,} points"
    turn = _in_play(state, what)
    if turn.roll is not None:
        raise IllegalAction(f"{what}: the roll {turn.roll} is on the table; keep dice from it first")
    if action.points <= 0 or action.points % 50:
        raise IllegalAction(f"{what}: points must be above 0 and a multiple of 50, as every Farkle score is")
    if action.points > MAX_POINTS:
        raise IllegalAction(f"{what}: at most {MAX_POINTS:,} points can be entered at once")
    if len(action.note) > MAX_NOTE_LENGTH:
        raise IllegalAction(f"{what}: a note of {len(action.note):,} characters is too long (at most {MAX_NOTE_LENGTH})")
    most = most_points(state.rules.scoring)
    if state.rules.kind is GameKind.CARDS and action.points > most:
        raise IllegalAction(
            f"{what}: no combination of the chart is worth more than {most:,}; enter each combination on its own"
        )
    entered = (*turn.entered, action.points)
    notes = (*turn.entered_notes, action.note)
    turn = replace(turn, total=turn.total + action.points, entered=entered, entered_notes=notes, offer=None)
    return replace(state, turn=turn)


def _offer(state: GameState, what: str) -> tuple[TurnState, Pot]:
    """The current turn and the pot it is offered, after checking that the choice ``what`` can be made now."""
    turn = _dice_turn(state, what)
    offer = turn.offer
    if offer is None:
        if not state.rules.turn.piggyback:
            raise IllegalAction(f"{what}: these rules have no piggyback (the variant piggyback)")
        if turn.pot:
            raise IllegalAction(f"{what}: {_who(state)} has already piggybacked this turn")
        if turn.rolls or turn.entered:
            raise IllegalAction(f"{what}: the choice is made before the turn's first roll")
        raise IllegalAction(f"{what}: there is no pot to piggyback on; the last turn did not end in a bank with dice left")
    return turn, offer


def _piggyback(state: GameState, action: Piggybacked) -> GameState:
    """Take on the pot offered: roll only the dice the banker left, the banked points in the turn."""
    turn, offer = _offer(state, "piggyback")
    return replace(
        state,
        turn=replace(turn, offer=None, pot=offer.points, total=offer.points, dice_left=offer.dice, wild_aside=offer.wild_aside),
    )


def _fresh_dice(state: GameState, action: FreshDice) -> GameState:
    """Turn the pot offered down for six fresh dice."""
    turn, _ = _offer(state, "fresh dice")
    return replace(state, turn=replace(turn, offer=None))


def _bank(state: GameState, action: Banked) -> GameState:
    turn = _in_play(state, "bank")
    if turn.roll is not None:
        raise IllegalBank(f"bank: the roll {turn.roll} is on the table; keep dice from it first")
    if turn.total == 0:
        raise IllegalBank("bank: nothing scored this turn yet")
    if turn.total == turn.pot:
        raise IllegalBank(
            f"bank: the {turn.pot:,} piggybacked is banked only once {state.players[turn.player].name} scores; "
            f"roll the {turn.dice_left} {'die' if turn.dice_left == 1 else 'dice'}"
        )
    shortfall = state.entry_shortfall()
    player = state.players[turn.player]
    if shortfall and not state.stuck():
        raise IllegalBank(
            f"bank {turn.total}: {player.name} needs {state.rules.turn.entry_minimum:,} in one turn "
            f"to get on the board, {shortfall:,} more; {'draw' if state.rules.kind is GameKind.CARDS else 'roll'} again"
        )
    if shortfall:
        return _end_turn(state, Outcome.STUCK, player, points=0, bonus=0)
    total, bonus = state.bank_value()
    banked = replace(player, score=player.score + total + bonus, on_board=True, farkle_streak=0, farkle_cards=0)
    return _end_turn(state, Outcome.BANKED, banked, points=total + bonus, bonus=bonus)


def _farkle(state: GameState, action: Farkled) -> GameState:
    turn = _in_play(state, "Farkle")
    player = state.players[turn.player]
    rules = state.rules
    if rules.kind is GameKind.DICE:
        if turn.roll is None:
            raise IllegalAction("Farkle: there is no roll on the table")
        refuse_missing_dice(state, "Farkle")
        scored = score_roll(rules, turn.roll)
        if not scored.farkle:
            raise IllegalAction(f"Farkle: the roll {turn.roll} scores ({scored.best}); it is not a Farkle")
    else:
        player = replace(player, farkle_cards=player.farkle_cards + 1)
    in_a_row = player.farkle_streak + 1
    penalty, streak = rules.turn.farkle_cost(player.score, player.farkle_streak), in_a_row
    if rules.turn.farkle_penalty and streak >= rules.turn.farkle_penalty_streak:
        streak = 0
    player = replace(player, score=player.score - penalty, farkle_streak=streak)
    return _end_turn(state, Outcome.FARKLED, player, points=0, bonus=0, penalty=penalty, in_a_row=in_a_row)


def _instant_win(state: GameState, turn: TurnState) -> GameState:
    player = state.players[turn.player]
    points = turn.total if state.rules.turn.instant_win_banks_turn else 0
    player = replace(player, score=player.score + points, on_board=player.on_board or points > 0)
    record = _record(turn, Outcome.WON, player, points, 0, 0)
    return replace(
        state,
        players=_set_player(state, turn.player, player),
        history=state.history.plus(record),
        turn=None,
        winners=(turn.player,),
    )


def _record(
    turn: TurnState, outcome: Outcome, player: PlayerState, points: int, bonus: int, penalty: int, in_a_row: int = 0
) -> TurnRecord:
    return TurnRecord(
        player=turn.player,
        rolls=turn.rolls,
        keeps=turn.keeps,
        entered=turn.entered,
        outcome=outcome,
        points=points,
        card_bonus=bonus,
        penalty=penalty,
        score_after=player.score,
        farkles_in_a_row=in_a_row,
        entered_notes=turn.entered_notes,
        pot=turn.pot,
        hot_dice=turn.hot_dice,
    )


def _end_turn(
    state: GameState,
    outcome: Outcome,
    player: PlayerState,
    points: int,
    bonus: int,
    penalty: int = 0,
    in_a_row: int = 0,
) -> GameState:
    """Record the turn, then settle the last lap and pass the dice (with a pot to piggyback on
    after a bank that left dice, where the rules have piggyback)."""
    assert state.turn is not None
    seat = state.turn.player
    offer = _pot_left(state, outcome)
    players = _set_player(state, seat, player)
    history = state.history.plus(_record(state.turn, outcome, player, points, bonus, penalty, in_a_row))
    rules = state.rules
    lap_mark = state.lap_mark
    if outcome is Outcome.BANKED and player.score >= state.target and not state.play_off:
        if rules.end.final_lap is FinalLap.NONE:
            return replace(state, players=players, history=history, turn=None, winners=(seat,))
        best_other = max((p.score for i, p in enumerate(players) if i != seat), default=0)
        if lap_mark is None or (rules.end.final_lap is FinalLap.EXTEND and player.score > best_other):
            lap_mark = seat
    following = (seat + 1) % len(players)
    if not state.play_off and following != lap_mark:
        # The common case, in one step: the dice pass on, with the pot (if any) for the next player.
        turn = TurnState(player=following, offer=offer if following != seat else None)
        return replace(state, players=players, history=history, lap_mark=lap_mark, turn=turn)
    state = replace(state, players=players, history=history, lap_mark=lap_mark)
    state = _next_in_play_off(state, seat) if state.play_off else _settle(state, tuple(range(len(players))))
    if offer is not None and state.turn is not None and state.turn.player != seat:
        state = replace(state, turn=replace(state.turn, offer=offer))
    return state


def _pot_left(state: GameState, outcome: Outcome) -> Pot | None:
    """What the turn being banked leaves the next player to piggyback on: its dice left to roll and
    its points, where the rules have piggyback. A turn with points entered by hand leaves none (the
    dice it left are not known), nor does one that scored every die without hot dice."""
    turn = state.turn
    if outcome is not Outcome.BANKED or turn is None or not state.rules.turn.piggyback:
        return None
    if turn.entered or turn.dice_left == 0 or state.rules.kind is not GameKind.DICE:
        return None
    return Pot(dice=turn.dice_left, points=turn.total, banker=turn.player, wild_aside=turn.wild_aside)


def _settle(state: GameState, contenders: tuple[int, ...]) -> GameState:
    """End the game among ``contenders``, or start a play-off if they tie and the rules say so."""
    best = max(state.players[seat].score for seat in contenders)
    tied = tuple(seat for seat in contenders if state.players[seat].score == best)
    if len(tied) > 1 and state.rules.end.ties is Ties.PLAY_OFF:
        return replace(state, play_off=tied, turn=TurnState(player=tied[0]))
    return replace(state, turn=None, play_off=(), winners=tied)


def _next_in_play_off(state: GameState, seat: int) -> GameState:
    order = state.play_off
    position = order.index(seat)
    if position + 1 < len(order):
        return replace(state, turn=TurnState(player=order[position + 1]))
    return _settle(state, order)


_RULES: dict[type[Any], Callable[[GameState, Any], GameState]] = {
    PlayerAdded: _add_player,
    DiceRolled: _roll,
    DieCorrected: _correct,
    Kept: _keep,
    PointsEntered: _enter_points,
    Banked: _bank,
    Farkled: _farkle,
    Piggybacked: _piggyback,
    FreshDice: _fresh_dice,
}
"""What each step of play does to the game, by the step's type."""


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; raises a domain error and changes nothing if it is not allowed.

    >>> from scorekeeper.rules import load_rules
    >>> state = start(GameStarted(load_rules("retail"), 10000, "2026-01-01T20:00:00+00:00"))
    >>> state = apply(state, PlayerAdded("Ann"))
    >>> state = apply(state, DiceRolled(Dice.from_str("1 1 5 2 3 4")))
    >>> state = apply(state, Kept(Dice.from_str("1 1 5")))
    >>> state.turn.total, state.turn.dice_left
    (250, 3)
    >>> apply(state, Kept(Dice.from_str("5")))
    Traceback (most recent call last):
    ...
    scorekeeper.rules.errors.IllegalAction: keep 5: there is no roll on the table; roll first
    """
    rule = _RULES.get(type(action))
    if rule is not None:
        return rule(state, action)
    raise IllegalAction(f"{action!r} is not a step of play")
