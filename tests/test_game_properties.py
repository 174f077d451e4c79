"""Random games played against a model of the rules (hypothesis stateful testing).

The machine plays random but legal games under each preset and some variants, and checks
every step against its own model of the game, written from the rule texts in
``shared/rules/`` (R = farkle-rules-and-scoring.txt, H = farkle-house-rules-2009.txt,
F = farkle-flip-card-game.txt):

* a keep is worth what the independent brute-force scorer ``tests/farkle_oracle.py`` says;
  a roll with no legal keep is a Farkle;
* banked scores change only by a bank (turn total + 100 per held Farkle card, F), by the
  three-Farkle penalty (R) and by a penalty for each Farkle (issue 54's house rule, on top of R's
  on the third in a row), clamped at 0 (the presets' reading) unless below-zero says otherwise;
* a turn total is never negative, a Farkle loses it, all six dice scoring gives six again (R);
* reaching the target starts the last lap; everyone else gets one more turn, then the highest
  total wins (R) and ties are shared (the presets' default); six of a kind wins on the spot
  under house-2009 (H) without scoring;
* piggyback (issue 54's house rule: "once a player banks, the next player may roll only the dice
  the previous player left, and on scoring adds the previous turn's points to their own turn; a
  Farkle loses the whole accumulated pot"): after a bank with dice left the next player may take
  the pot on (those dice, those points, banked only after scoring) or roll six fresh dice;
* the wild die and red pips (issue 54: "one die of a different colour counts as any face when it
  shows a 1"; "a scoring combination that includes a red face scores double"): rolls carry marked
  dice, a keep is worth what the oracle's scorer of marked dice says, and six of a kind made with
  the wild 1 wins where six of a kind wins;
* undo restores exactly the state before the step, redo the state after it; a saved and
  reloaded game equals the original; a refused action changes neither state nor log.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from farkle_oracle import oracle_score, oracle_score_marked
from scorekeeper.game import Game, load_game, save_game
from scorekeeper.rules import (
    Dice,
    FinalLap,
    GameKind,
    GameOver,
    IllegalAction,
    IllegalBank,
    IllegalKeep,
    IllegalRoll,
    RuleSet,
    Ties,
    die_token,
    load_rules,
)

STARTED_AT = "2026-01-01T20:00:00+00:00"
SETTINGS = settings(
    max_examples=20,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
# Saves are synced to disk; a memory-backed folder, where there is one, keeps that quick.
_FAST_TEMP = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
MOVES_PER_TURN = 12
"""The most steps play_turn takes (a turn may go on longer; the next rule carries on)."""
# Points a card combination can be worth: multiples of 50 up to R's "Six of a kind 3,000".
CARD_POINTS = st.sampled_from(list(range(50, 3050, 50)))


@dataclass(frozen=True)
class Config:
    rules: RuleSet
    oracle: tuple[str, tuple[str, ...]] | None
    """The oracle's name for the scoring chart (None: the card edition, no dice)."""
    players: tuple[int, int] = (2, 4)
    target: int | None = None


def _config(
    preset: str,
    variants: tuple[str, ...] = (),
    oracle: tuple[str, tuple[str, ...]] | None = None,
    overrides: dict[str, dict[str, Any]] | None = None,
    players: tuple[int, int] = (2, 4),
    target: int | None = None,
) -> Config:
    rules = load_rules(preset, variants=list(variants), overrides=overrides)
    return Config(rules, oracle, players, target)


Die = tuple[int, str]


@dataclass
class Model:
    """What the board should show, worked out from the rules and the steps taken."""

    scores: list[int]
    on_board: list[bool]
    streak: list[int]
    cards: list[int]
    seat: int | None = 0
    total: int = 0
    dice_left: int = 6
    roll: tuple[Die, ...] | None = None
    """The dice on the table, sorted, each its face and mark ("" plain, "w" the wild die, "r" red pips)."""
    lap_mark: int | None = None
    winners: tuple[int, ...] = ()
    turns: int = 0
    offer: tuple[int, int] | None = None
    """Piggyback: (dice, points) the last bank left the player on turn to take on, before rolling."""
    pot: int = 0
    """Piggyback: points taken on this turn."""

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def clone(self) -> Model:
        return replace(
            self,
            scores=list(self.scores),
            on_board=list(self.on_board),
            streak=list(self.streak),
            cards=list(self.cards),
        )


@dataclass
class Step:
    before: Any
    before_model: Model
    after: Any = None
    after_model: Model | None = None


class FarkleGame(RuleBasedStateMachine):
    CONFIG: Config

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp(prefix="farkle-props-", dir=_FAST_TEMP))
        self.game: Game | None = None
        self.undo_stack: list[Step] = []
        self.redo_stack: list[Step] = []
        self.saves = 0

    def teardown(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------------ helpers

    @property
    def ruleset(self) -> RuleSet:
        return self.CONFIG.rules

    @property
    def cards(self) -> bool:
        return self.ruleset.kind is GameKind.CARDS

    @property
    def g(self) -> Game:
        assert self.game is not None
        return self.game

    @property
    def marking(self) -> tuple[str, ...]:
        """The variants that mark dice in these rules."""
        scoring = self.ruleset.scoring
        return (("wild-die",) if scoring.wild_die else ()) + (("spicy",) if scoring.spicy else ())

    def options(self) -> dict[tuple[Die, ...], int]:
        """Legal keeps of the roll on the table and their points, by the oracle."""
        assert self.CONFIG.oracle is not None and self.model.roll is not None
        name, variants = self.CONFIG.oracle
        if self.marking:
            return dict(oracle_score_marked(name, (*variants, *self.marking), self.model.roll).options)
        faces = tuple(face for face, _ in self.model.roll)
        return {tuple((face, "") for face in keep): points for keep, points in oracle_score(name, variants, faces).options}

    def wins(self, keep: tuple[Die, ...]) -> bool:
        # H: "6 of any number equals WINS the game" (the keep of all six dice claims it); the wild 1
        # stands for the others' face (issue 54).
        faces = {face for face, mark in keep if not ("w" in mark and face == 1)}
        return self.ruleset.turn.six_of_a_kind_wins and len(keep) == 6 and len(faces) <= 1

    def bonus(self) -> int:
        assert self.model.seat is not None
        return self.model.cards[self.model.seat] * self.ruleset.turn.farkle_card_value

    def can_bank(self) -> bool:
        m = self.model
        if m.over or m.roll is not None or m.total <= 0:
            return False
        assert m.seat is not None
        if m.total <= m.pot:
            return False  # a pot taken on is banked only after scoring
        if m.on_board[m.seat]:
            return True
        counted = m.total + (self.bonus() if self.ruleset.turn.farkle_cards_count_toward_entry else 0)
        return counted >= self.ruleset.turn.entry_minimum

    def do(self, action: Callable[[], None], update: Callable[[Model], None]) -> None:
        """Take a legal step, check the engine took it, and follow it in the model."""
        step = Step(self.g.state, self.model.clone())
        events = len(self.g.events)
        action()
        assert len(self.g.events) == events + 1
        update(self.model)
        step.after, step.after_model = self.g.state, self.model.clone()
        self.undo_stack.append(step)
        self.redo_stack.clear()
        assert not self.g.can_redo

    def end_turn(self, m: Model, banked: bool) -> None:
        """Pass the dice, or end the game (R: one more turn for everyone else, then the highest total)."""
        assert m.seat is not None
        seat, players = m.seat, len(m.scores)
        m.turns += 1
        if banked and m.scores[seat] >= self.g.state.target and m.lap_mark is None:
            m.lap_mark = seat
        following = (seat + 1) % players
        left = (m.dice_left, m.total) if banked and self.ruleset.turn.piggyback else None
        m.total, m.dice_left, m.roll, m.pot, m.offer = 0, 6, None, 0, None
        if banked and m.lap_mark == seat:
            event("the last lap began")
        if m.lap_mark is not None and following == m.lap_mark:
            event("the game ended after the last lap")
            best = max(m.scores)
            m.winners = tuple(i for i, score in enumerate(m.scores) if score == best)
            m.seat = None
        else:
            m.seat = following
            # a turn that scored every die without hot dice leaves none (every config here has hot dice)
            if left is not None:
                m.offer = left

    def farkled(self, m: Model) -> None:
        assert m.seat is not None
        seat = m.seat
        if self.cards:
            m.cards[seat] += 1  # F: a drawn Farkle card is held until its holder banks
        m.streak[seat] += 1
        turn = self.ruleset.turn
        due = turn.each_farkle_penalty  # issue 54: "a penalty for each Farkle (... e.g. -100 or -500)"
        if turn.farkle_penalty and m.streak[seat] >= turn.farkle_penalty_streak:
            # R: "Three Farkles in a row costs you 1,000 points"
            event("the Farkle penalty was paid")
            due += turn.farkle_penalty
            m.streak[seat] = 0
        if not turn.penalty_below_zero:
            due = min(due, max(m.scores[seat], 0))  # never below 0 (the presets' default)
        if m.scores[seat] - due < 0:
            event("a penalty took a score below zero")
        m.scores[seat] -= due
        self.end_turn(m, banked=False)

    def refused(self, action: Callable[[], None], error: type[Exception]) -> None:
        before_state, before_events = self.g.state, self.g.events
        try:
            action()
        except error as exc:
            assert type(exc) is error, f"{type(exc).__name__}: {exc}"
        else:
            raise AssertionError(f"the engine took an action it should refuse ({error.__name__})")
        assert self.g.state == before_state
        assert self.g.events == before_events

    # ------------------------------------------------------------------ start

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        low, high = self.CONFIG.players
        count = data.draw(st.integers(low, high), label="players")
        names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"][:count]
        config = self.CONFIG
        assert config.rules.end.final_lap is FinalLap.ONE_LAP and config.rules.end.ties is Ties.SHARED
        assert not config.rules.turn.instant_win_banks_turn
        assert config.rules.turn.hot_dice or self.cards
        self.game = Game.new(config.rules, names, target=config.target, started_at=STARTED_AT)
        self.model = Model(
            scores=[0] * count, on_board=[False] * count, streak=[0] * count, cards=[0] * count
        )

    # ------------------------------------------------------------------ legal steps

    def roll(self, data: st.DataObject) -> None:
        left = self.model.dice_left
        # Mostly every die in play; sometimes fewer (the camera missed some).
        size = data.draw(st.sampled_from([left, left, left, *range(1, left + 1)]), label="dice rolled")
        code = data.draw(st.integers(0, 6**size - 1), label="faces")  # one draw for all the dice
        faces = [code // 6**i % 6 + 1 for i in range(size)]
        marks = [""] * size
        if "spicy" in self.marking:
            reds = data.draw(st.integers(0, 2**size - 1), label="red faces")
            marks = ["r" if reds >> i & 1 else "" for i in range(size)]
        if "wild-die" in self.marking:
            wild = data.draw(st.integers(-1, size - 1), label="the wild die")  # -1: not rolled
            if wild >= 0:
                faces[wild] = data.draw(st.sampled_from([1, 1, 1, 2, 3, 4, 5, 6]), label="the wild die's face")
                marks[wild] = "w" + marks[wild]
                event("the wild die rolled a 1" if faces[wild] == 1 else "the wild die rolled")
        dice = Dice(faces, marks)

        def update(m: Model) -> None:
            m.roll = tuple(sorted(zip(faces, marks)))
            m.offer = None  # a roll turns the pot down

        self.do(lambda: self.g.roll(dice), update)

    def correct(self, data: st.DataObject) -> None:
        roll = self.model.roll
        assert roll is not None
        choices: list[tuple[Die | None, Die | None]] = []
        if len(roll) < self.model.dice_left:
            choices += [(None, (now, "")) for now in range(1, 7)]
        choices += [(was, (now, was[1])) for was in sorted(set(roll)) for now in range(1, 7) if now != was[0]]
        if "spicy" in self.marking:  # a red face said to be plain, or a plain one red
            choices += [(was, (was[0], was[1].replace("r", "") if "r" in was[1] else was[1] + "r")) for was in sorted(set(roll))]
        if "wild-die" in self.marking and not any("w" in mark for _, mark in roll):  # a die said to be the wild one
            choices += [(was, (was[0], "w" + was[1])) for was in sorted(set(roll))]
        if len(roll) > 1:
            choices += [(was, None) for was in sorted(set(roll))]
        was, now = data.draw(st.sampled_from(choices), label="correction")

        def update(m: Model) -> None:
            dice = list(roll)
            if was is not None:
                dice.remove(was)
            if now is not None:
                dice.append(now)
            m.roll = tuple(sorted(dice))

        self.do(lambda: self.g.correct(_token(was), _token(now)), update)

    def keep(self, data: st.DataObject) -> None:
        options = self.options()
        keep = data.draw(st.sampled_from(sorted(options, key=lambda k: (-options[k], k))), label="keep")
        points = options[keep]

        def update(m: Model) -> None:
            assert m.seat is not None
            m.roll = None
            if self.wins(keep):
                # The win comes before any scoring (house-2009 preset): nothing is banked.
                event("six of a kind won the game")
                m.turns += 1
                m.winners, m.seat, m.total = (m.seat,), None, 0
                return
            m.total += points
            m.dice_left -= len(keep)
            if m.dice_left == 0:
                event("hot dice")
                m.dice_left = 6  # R: hot dice

        self.do(lambda: self.g.keep(Dice.from_dice(keep)), update)

    def farkle(self) -> None:
        self.do(self.g.farkle, self.farkled)

    def enter_points(self, data: st.DataObject) -> None:
        points = data.draw(CARD_POINTS, label="card points")

        def update(m: Model) -> None:
            m.total += points

        self.do(lambda: self.g.enter_points(points), update)

    def piggyback(self) -> None:
        def update(m: Model) -> None:
            assert m.offer is not None
            event("piggybacked")
            (m.dice_left, m.total), m.pot, m.offer = m.offer, m.offer[1], None

        self.do(self.g.piggyback, update)

    def fresh_dice(self) -> None:
        def update(m: Model) -> None:
            m.offer = None

        self.do(self.g.fresh_dice, update)

    def bank(self) -> None:
        def update(m: Model) -> None:
            assert m.seat is not None
            seat = m.seat
            # R: "bank: stop and add the turn's points to your score"; F: +100 per held card.
            if self.bonus():
                event("Farkle cards were banked")
            m.scores[seat] += m.total + self.bonus()
            m.cards[seat] = 0
            m.streak[seat] = 0
            m.on_board[seat] = True
            self.end_turn(m, banked=True)

        self.do(self.g.bank, update)

    def one_step(self, data: st.DataObject) -> None:
        """One legal step, chosen at random among those the rules allow now."""
        m = self.model
        assert not m.over
        moves: list[str]
        if self.cards:
            moves = ["points", "points", "points", "farkle"] + ["bank"] * 2 * self.can_bank()
        elif m.offer is not None:
            moves = ["piggyback", "piggyback", "fresh", "roll"]
        elif m.roll is None:
            moves = ["roll", "roll"] + ["bank"] * self.can_bank()
        elif len(m.roll) < m.dice_left:
            moves = ["correct"]  # a roll with dice missing is not scored: they must be read before a keep or a Farkle
        elif self.options():
            moves = ["keep", "keep", "keep", "keep", "correct"]
        else:
            moves = ["farkle", "farkle", "farkle", "correct"]
        move = data.draw(st.sampled_from(moves), label="move")
        if move == "roll":
            self.roll(data)
        elif move == "correct":
            self.correct(data)
        elif move == "keep":
            self.keep(data)
        elif move == "farkle":
            self.farkle()
        elif move == "points":
            self.enter_points(data)
        elif move == "piggyback":
            self.piggyback()
        elif move == "fresh":
            self.fresh_dice()
        else:
            self.bank()

    @precondition(lambda self: self.game is not None and not self.model.over)
    @rule(data=st.data())
    def play_step(self, data: st.DataObject) -> None:
        self.one_step(data)

    @precondition(lambda self: self.game is not None and not self.model.over)
    @rule(data=st.data())
    def play_turn(self, data: st.DataObject) -> None:
        """Play on until the turn ends (every step on the undo stack of its own)."""
        turns = self.model.turns
        for _ in range(MOVES_PER_TURN):
            if self.model.over or self.model.turns != turns:
                break
            self.one_step(data)
            self.check_board()

    @precondition(lambda self: self.game is not None and not self.model.over)
    @rule(data=st.data())
    def play_round(self, data: st.DataObject) -> None:
        """Play on until every player has had a turn (or the game is over)."""
        turns = self.model.turns + len(self.model.scores)
        for _ in range(MOVES_PER_TURN * len(self.model.scores)):
            if self.model.over or self.model.turns >= turns:
                break
            self.one_step(data)
            self.check_board()

    # ------------------------------------------------------------------ undo, redo, save

    @precondition(lambda self: self.game is not None and bool(self.undo_stack))
    @rule()
    def undo(self) -> None:
        step = self.undo_stack.pop()
        self.g.undo()
        assert self.g.state == step.before
        self.model = step.before_model.clone()
        self.redo_stack.append(step)
        assert self.g.can_redo

    @precondition(lambda self: self.game is not None and bool(self.redo_stack))
    @rule()
    def redo(self) -> None:
        step = self.redo_stack.pop()
        self.g.redo()
        assert self.g.state == step.after
        assert step.after_model is not None
        self.model = step.after_model.clone()
        self.undo_stack.append(step)
        assert self.g.can_redo == bool(self.redo_stack)

    @precondition(lambda self: self.game is not None)
    @rule()
    def save_and_reload(self) -> None:
        self.saves += 1
        path = self.folder / f"game-{self.saves}.json"
        save_game(self.g, path)
        loaded = load_game(path)
        assert loaded.state == self.g.state
        assert loaded.events == self.g.events
        assert (loaded.can_undo, loaded.can_redo) == (self.g.can_undo, self.g.can_redo)
        self.game = loaded  # play on with the reloaded game: its undo and redo must still work

    # ------------------------------------------------------------------ refused actions

    @precondition(lambda self: self.game is not None)
    @rule(data=st.data())
    def refused_action(self, data: st.DataObject) -> None:
        g, m = self.g, self.model
        tries: list[tuple[str, Callable[[], None], type[Exception]]] = []
        if m.over:
            tries += [
                ("roll", lambda: g.roll([1, 2]), GameOver),
                ("keep", lambda: g.keep([1]), GameOver),
                ("bank", g.bank, GameOver),
                ("farkle", g.farkle, GameOver),
                ("points", lambda: g.enter_points(100), GameOver),
                ("correct", lambda: g.correct(1, 2), GameOver),
                ("player", lambda: g.add_player("Zed"), GameOver),
            ]
        elif self.cards:
            tries += [
                ("roll", lambda: g.roll([1, 5]), IllegalAction),
                ("keep", lambda: g.keep([1]), IllegalAction),
                ("correct", lambda: g.correct(1, 5), IllegalAction),
                ("points 0", lambda: g.enter_points(0), IllegalAction),
                ("points 75", lambda: g.enter_points(75), IllegalAction),
                ("points -50", lambda: g.enter_points(-50), IllegalAction),
            ]
            if not self.can_bank():
                tries.append(("bank", g.bank, IllegalBank))
        elif m.roll is not None:
            roll = m.roll
            options = self.options()
            # a roll with dice missing is not scored: any keep is refused for that before the keep is weighed
            missing = len(roll) < m.dice_left
            bad_keep: type[Exception] = IllegalAction if missing else IllegalKeep
            tries += [
                ("roll again", lambda: g.roll([5]), IllegalAction),
                ("bank", g.bank, IllegalBank),
                ("points", lambda: g.enter_points(100), IllegalAction),
                ("same face", lambda: g.correct(_token(roll[0]), _token(roll[0])), IllegalAction),
            ]
            absent = [face for face in range(1, 7) if face not in {face for face, _ in roll}]
            if absent:
                tries.append(("keep absent", lambda: g.keep([absent[0]]), bad_keep))
                tries.append(("correct absent", lambda: g.correct(absent[0], _token(roll[0])), IllegalRoll))
            plain = [die for die in roll if "w" not in die[1]]
            # a keep of plain faces may take the wild die where it shows that face: one more than
            # every die showing it is too many
            showing = sum(1 for face, _ in roll if plain and face == plain[0][0])
            if plain and showing < 6:
                extra = Dice.from_dice([plain[0]] * (showing + 1))
                tries.append(("keep too many", lambda: g.keep(extra), bad_keep))
            dead = [
                keep
                for n in range(1, len(roll) + 1)
                for keep in _sub_multisets(roll, n)
                if keep not in options
            ]
            if dead:
                bad = data.draw(st.sampled_from(dead), label="keep that does not score")
                tries.append(("keep dead", lambda: g.keep(Dice.from_dice(bad)), bad_keep))
            if missing:
                tries.append(("farkle missing dice", g.farkle, IllegalAction))
                if options:
                    scoring = data.draw(st.sampled_from(sorted(options)), label="keep from a roll with dice missing")
                    tries.append(("keep missing dice", lambda: g.keep(Dice.from_dice(scoring)), IllegalAction))
            elif options:
                tries.append(("farkle scoring roll", g.farkle, IllegalAction))
            if len(roll) == m.dice_left:
                tries.append(("add a die", lambda: g.correct(None, 2), IllegalRoll))
        else:
            left = m.dice_left
            tries += [
                ("keep no roll", lambda: g.keep([1]), IllegalAction),
                ("farkle no roll", g.farkle, IllegalAction),
                ("correct no roll", lambda: g.correct(1, 2), IllegalAction),
                ("too many dice", lambda: g.roll([2] * (left + 1)), IllegalRoll),
                ("die 7", lambda: g.roll([7] + [2] * (left - 1)), IllegalRoll),
                ("die 0", lambda: g.roll([0]), IllegalRoll),
                ("no dice", lambda: g.roll([]), IllegalRoll),
                ("points 30", lambda: g.enter_points(30), IllegalAction),
            ]
            if m.offer is None:
                tries += [("piggyback", g.piggyback, IllegalAction), ("fresh dice", g.fresh_dice, IllegalAction)]
            if not self.can_bank():
                tries.append(("bank", g.bank, IllegalBank))
        what, action, error = data.draw(st.sampled_from(tries), label="refused action")
        event(f"refused: {what}")
        self.refused(action, error)

    # ------------------------------------------------------------------ invariants

    @invariant()
    def board_matches_the_model(self) -> None:
        if self.game is not None:
            self.check_board()

    def check_board(self) -> None:
        state, m = self.g.state, self.model
        assert [p.score for p in state.players] == m.scores
        assert [p.on_board for p in state.players] == m.on_board
        assert [p.farkle_streak for p in state.players] == m.streak
        assert [p.farkle_cards for p in state.players] == m.cards
        assert state.lap_mark == m.lap_mark
        assert state.play_off == ()
        assert state.winners == m.winners
        assert state.over == m.over
        assert len(state.history) == m.turns
        if m.over:
            assert state.turn is None
            return
        turn = state.turn
        assert turn is not None
        assert turn.player == m.seat
        assert turn.total == m.total
        assert turn.dice_left == m.dice_left
        assert (None if turn.roll is None else turn.roll.dice) == m.roll
        assert turn.pot == m.pot
        assert (None if turn.offer is None else (turn.offer.dice, turn.offer.points)) == m.offer

    @invariant()
    def totals_and_scores_never_negative(self) -> None:
        if self.game is None:
            return
        state = self.g.state
        if state.turn is not None:
            assert state.turn.total >= 0
        if not self.ruleset.turn.penalty_below_zero:
            assert all(p.score >= 0 for p in state.players)
        assert all(record.points >= 0 and record.penalty >= 0 for record in state.history)

    @invariant()
    def scores_are_the_sum_of_banks_and_penalties(self) -> None:
        if self.game is None:
            return
        state = self.g.state
        for seat, player in enumerate(state.players):
            records = [r for r in state.history if r.player == seat]
            assert player.score == sum(r.points - r.penalty for r in records)
            if records:
                assert records[-1].score_after == player.score


def _sub_multisets(roll: tuple[Die, ...], size: int) -> set[tuple[Die, ...]]:
    from itertools import combinations

    return set(combinations(roll, size))


def _token(die: Die | None) -> int | str | None:
    """A die of the model as the game's corrections take it: its token (``5``, ``"1w"``)."""
    return None if die is None else die_token(*die)


CONFIGS: dict[str, Config] = {
    "Retail": _config("retail", oracle=("retail", ())),
    "Pocket": _config("pocket", oracle=("pocket", ())),
    "House2009": _config("house-2009", oracle=("house-2009", ())),
    "Flip": _config("flip"),
    "RetailDoubling": _config("retail", ("doubling",), oracle=("retail", ("doubling",))),
    "RetailPenalty": _config("retail", ("three-farkle-penalty",), oracle=("retail", ()), players=(2, 3)),
    "RetailEntry500": _config("retail", ("entry-500",), oracle=("retail", ())),
    "House2009Penalty": _config(
        "house-2009", ("three-farkle-penalty",), oracle=("house-2009", ()), players=(2, 3)
    ),
    "FlipPenalty": _config("flip", ("three-farkle-penalty",), players=(2, 3)),
    # issue 54: a penalty for each Farkle, with R's three in a row, and one that may go below zero
    "RetailEachFarkle": _config(
        "retail", ("farkle-penalty-500", "three-farkle-penalty"), oracle=("retail", ()), players=(2, 3)
    ),
    "RetailEachFarkleBelowZero": _config(
        "retail", ("farkle-penalty-100", "below-zero"), oracle=("retail", ()), players=(2, 3), target=3050
    ),
    # issue 54: piggyback, alone and with a penalty for each Farkle
    "RetailPiggyback": _config("retail", ("piggyback",), oracle=("retail", ()), players=(2, 3)),
    "House2009PiggybackPenalty": _config(
        "house-2009", ("piggyback", "farkle-penalty-100"), oracle=("house-2009", ()), players=(2, 3), target=3000
    ),
    # issue 54: the wild die and spicy, alone, together, and where six of a kind wins
    "RetailWildDie": _config("retail", ("wild-die",), oracle=("retail", ()), players=(2, 3)),
    "RetailSpicy": _config("retail", ("spicy",), oracle=("retail", ()), players=(2, 3)),
    "PocketWildSpicyPiggyback": _config(
        "pocket", ("wild-die", "spicy", "piggyback"), oracle=("pocket", ()), players=(2, 3), target=3000
    ),
    "House2009WildDie": _config("house-2009", ("wild-die",), oracle=("house-2009", ()), players=(2, 3)),
    # Low targets, so that random games reach the last lap and the end of the game.
    "RetailShortGame": _config("retail", oracle=("retail", ()), overrides={"end": {"target": 1000}}),
    "FlipSixPlayers": _config("flip", players=(6, 6), target=5000),
}

for _name, _config_value in CONFIGS.items():
    _machine = type(f"{_name}Game", (FarkleGame,), {"CONFIG": _config_value})
    _case = _machine.TestCase
    _case.settings = SETTINGS
    globals()[f"Test{_name}"] = _case

del _name, _config_value, _machine, _case
