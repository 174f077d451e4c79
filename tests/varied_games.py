"""A scorekeeper home of many seeded random games under every kind of rules the game knows, for
tests that check the history's numbers stay the same however the games are read.

:func:`make_varied_home` plays each game through the game API with seeded random dice and a
player who also undoes, redoes, corrects dice, enters points by hand and piggybacks now and then.
The rules cover the presets (retail, house-2009 where six of a kind wins on the spot, pocket, the
card edition flip) and the variants that change how a game goes (piggyback, Farkle penalties,
an entry minimum, an extended last lap, play-offs on a tie). Most games are kept as journals as
the window writes them; some are saved games, one is both, some journals hold a rebuilt log (a
past turn corrected) or end shelved, a few games are unfinished (one in the middle of a turn
that has had hot dice), two are ties (shared, and played off) and one journal is damaged.
"""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from pathlib import Path
from typing import Any

from scorekeeper.game import Game, save_game
from scorekeeper.game.games_folder import games_folder
from scorekeeper.game.journal import Journal
from scorekeeper.rules import Dice, GameKind, RuleSet, load_rules, most_points, score_roll
from scorekeeper.stats.history import PlayedGame, history_dict, read_games, summarise

RULES: tuple[tuple[str, dict[str, dict[str, str]]], ...] = (
    ("retail", {}),
    ("house-2009", {}),
    ("pocket", {}),
    ("flip", {}),
    ("retail+piggyback", {}),
    ("retail+three-farkle-penalty+farkle-penalty-100", {}),
    ("retail+entry-500+below-zero+farkle-penalty-50", {}),
    ("house-2009+extend-final-lap+doubling", {}),
    ("retail", {"end": {"ties": "play-off"}}),
)
"""Each rule set played, by name, with overrides laid over it."""
NAMES = ("Ann", "ann", "Bob", "BOB", "Cy", "Dee", "Mary Lou", "marylou", "Zed")
"""The players drawn from, some typed two ways."""


def _rules(number: int) -> RuleSet:
    name, overrides = RULES[number % len(RULES)]
    return load_rules(name, overrides=overrides or None)


def _names(rng: random.Random) -> list[str]:
    names: list[str] = []
    while len(names) < rng.randint(2, 4):
        name = rng.choice(NAMES)
        if name.casefold() not in (taken.casefold() for taken in names):
            names.append(name)
    return names


def _dice_step(game: Game, rng: random.Random) -> None:
    """One step of a dice game by a player who keeps the best most of the time."""
    state = game.state
    turn = state.turn
    assert turn is not None
    if state.pot_offered() is not None:
        if rng.random() < 0.6:
            game.piggyback()
        else:
            game.fresh_dice()
        return
    if turn.roll is None:
        if turn.total > turn.pot and state.can_bank() and (turn.total >= 300 or turn.dice_left <= 2 or rng.random() < 0.2):
            game.bank()
        elif turn.dice_left == 0:
            game.bank()
        elif rng.random() < 0.03:
            game.enter_points(50 * rng.randint(1, 6), "off camera")
        elif turn.dice_left == 6 and rng.random() < 0.01:
            game.roll(Dice([rng.randint(1, 6)] * 6))
        else:
            game.roll(Dice([rng.randint(1, 6) for _ in range(turn.dice_left)]))
        return
    if rng.random() < 0.05:
        was = rng.choice(turn.roll.values)
        game.correct(was, rng.choice([face for face in range(1, 7) if face != was]))
        return
    scored = score_roll(state.rules, turn.roll)
    if scored.farkle:
        game.farkle()
    else:
        options = scored.options
        game.keep((scored.best or options[0]).keep if rng.random() < 0.7 else rng.choice(options).keep)


def _card_step(game: Game, rng: random.Random) -> None:
    """One draw of the card edition: a Farkle card, or a combination's points entered."""
    state = game.state
    turn = state.turn
    assert turn is not None
    if turn.total and state.can_bank() and rng.random() < 0.5:
        game.bank()
    elif rng.random() < 0.2:
        game.farkle()
    else:
        game.enter_points(50 * rng.randint(1, most_points(state.rules.scoring) // 250))


def play(game: Game, rng: random.Random, steps: int) -> None:
    """Play ``game`` on for at most ``steps`` steps (to its end if sooner), undoing and redoing now and then."""
    for _ in range(steps):
        if game.state.over:
            return
        chance = rng.random()
        if chance < 0.04 and game.can_undo:
            game.undo()
        elif chance < 0.1 and game.can_redo:
            game.redo()
        elif game.state.rules.kind is GameKind.DICE:
            _dice_step(game, rng)
        else:
            _card_step(game, rng)


def play_tie(game: Game) -> None:
    """Two players each bank 1,000 to a target of 1,000: a tie, shared or played off (the first
    Farkles, the second banks 100)."""
    for _ in range(2):
        game.roll("1 1 1 2 3 4"); game.keep("1 1 1"); game.bank()
    if not game.state.over:
        game.roll("2 2 3 4 6 6"); game.farkle()
        game.roll("1 2 2 3 4 6"); game.keep("1"); game.bank()


def make_varied_home(home: Path, count: int = 60, seed: int = 53) -> list[Path]:
    """Fill ``home``'s games folder with ``count`` varied games and a damaged journal; returns the files."""
    rng = random.Random(seed)
    folder = games_folder(home)
    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for number in range(count):
        rules = _rules(number)
        started_at = f"2026-{1 + number % 12:02d}-{1 + number % 28:02d}T{18 + number % 5}:{number % 60:02d}:00+00:00"
        target = rng.choice([rules.end.target, 2000, 3000]) if rules.kind is GameKind.DICE else None
        finished = number % 10 != 7
        steps = 100_000 if finished else rng.randint(5, 60)
        if number % 6 == 5:
            game = Game.new(rules, _names(rng), target=target, started_at=started_at)
            play(game, rng, steps)
            path = folder / f"saved-{number:03d}.json"
            save_game(game, path)
            made.append(path)
            continue
        journal = Journal.create(folder / f"game-{number:03d}.jsonl")
        try:
            game = Game.new(rules, _names(rng), target=target, started_at=started_at, sink=journal.write)
            if number % 9 == 4:
                play(game, rng, 40)
                kept = game.events[: len(game.events) * 2 // 3]
                journal.rebuilt(kept)
                game = Game.from_events(kept, sink=journal.write)
            play(game, rng, steps)
            if number % 11 == 3:
                journal.shelve()
        finally:
            journal.close()
        made.append(journal.path)
        if number == 12:
            save_game(game, folder / "game-012-saved.json")
            made.append(folder / "game-012-saved.json")
    for rules in (load_rules("retail"), load_rules("retail", overrides={"end": {"ties": "play-off"}})):
        game = Game.new(rules, ["Dee", "Cy"], target=1000, started_at=f"2026-12-0{len(made) % 9 + 1}T21:00:00+00:00")
        play_tie(game)
        path = folder / f"tie-{len(made)}.json"
        save_game(game, path)
        made.append(path)
    # Stopped in the middle of a turn that has had hot dice.
    game = Game.new(load_rules("retail"), ["Ann", "Zed"], started_at="2026-12-10T21:00:00+00:00")
    game.roll("1 1 1 5 5 5"); game.keep("1 1 1 5 5 5"); game.roll("1 2 2 3 4 6")
    path = folder / "hot-dice-unfinished.json"
    save_game(game, path)
    made.append(path)
    damaged = folder / "game-000.jsonl"
    with damaged.open("ab") as spoiled:
        spoiled.write(json.dumps({"type": "kept", "dice": [2, 3]}).encode() + b"\n")
    return made



def history_snapshot(home: Path, workers: int = 1) -> dict[str, Any]:
    """Everything the history reads from ``home`` (in ``workers`` processes) as plain JSON values,
    files by name: each game counted (finished and unfinished, every statistic of every seat), the
    files skipped and why, and the whole history added up."""

    def game(played: PlayedGame) -> dict[str, Any]:
        return {
            "file": played.path.name,
            "started_at": played.started_at,
            "rules": played.rules,
            "names": list(played.names),
            "scores": list(played.scores),
            "winners": list(played.winners),
            "stats": [asdict(stats) for stats in played.stats],
        }

    read = read_games(home, workers)
    added_up: dict[str, Any] = history_dict(summarise(read))
    added_up["skipped"] = [{"file": Path(skipped["file"]).name, "reason": skipped["reason"]} for skipped in added_up["skipped"]]
    added_up["records"] = [{**record, "game": Path(record["game"]).name} for record in added_up["records"]]
    return {
        "finished": [game(played) for played in read.finished],
        "unfinished": [game(played) for played in read.unfinished],
        "skipped": [str(skipped) for skipped in read.skipped],
        "history": added_up,
    }
