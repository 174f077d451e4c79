"""A scorekeeper home with a few real games played through the game API, whose statistics the
history tests work out by hand.

- ``g1`` (retail, Sun 1 Nov 2026): Ann banks 250, 50 and then 12,000 (four hot dice of six 1s);
  Bob Farkles every turn (three in a row). Ann wins in 3 turns, 12,300 to 0. A saved copy of it
  sits in the games folder as well (one game, counted once).
- ``g2`` (house-2009, Mon 2 Nov): BOB keeps a 5 and Farkles; Mary Lou banks 1,000; ann Farkles;
  BOB throws six 3s and wins on the spot in 2 turns.
- ``g3`` (retail, Tue 3 Nov): marylou banks 150 and the game stops there: unfinished.
- ``g4``: a finished game whose journal is then spoiled at its last line: damaged.
- ``g0``: a game whose players were seated and nothing more: not counted at all.

``play_g5`` (house-2009, Fri 6 Nov, Robert and Ann), added by the tests of merging: Robert throws
six 4s and wins on the spot in his first turn.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from scorekeeper.game import Game, save_game
from scorekeeper.game.games_folder import games_folder
from scorekeeper.game.journal import Journal
from scorekeeper.rules import load_rules


def journal_game(home: Path, name: str, rules: str, players: list[str], started_at: str, play: Callable[[Game], None]) -> Path:
    """A game played by ``play`` and kept in the journal ``name``.jsonl of ``home``'s games folder."""
    journal = Journal.create(games_folder(home) / f"{name}.jsonl")
    try:
        game = Game.new(load_rules(rules), players, started_at=started_at, sink=journal.write)
        play(game)
    finally:
        journal.close()
    return journal.path


def play_g1(game: Game) -> None:
    game.roll("1 1 5 2 3 4"); game.keep("1 1 5"); game.bank()  # Ann 250
    game.roll("2 3 4 6 6 2"); game.farkle()  # Bob
    game.roll("5 2 3 4 6 6"); game.keep("5"); game.bank()  # Ann 50
    game.roll("2 3 4 6 6 3"); game.farkle()  # Bob
    for _ in range(4):  # Ann: six 1s four times, hot dice each time
        game.roll("1 1 1 1 1 1"); game.keep("1 1 1 1 1 1")
    game.bank()  # Ann 12,000: the last lap
    game.roll("2 2 3 4 6 6"); game.farkle()  # Bob's last turn


def play_g2(game: Game) -> None:
    game.roll("5 2 3 4 6 6"); game.keep("5"); game.roll("2 3 4 6 6"); game.farkle()  # BOB
    game.roll("1 1 1 2 3 4"); game.keep("1 1 1"); game.bank()  # Mary Lou 1,000
    game.roll("2 3 4 6 6 2"); game.farkle()  # ann
    game.roll("3 3 3 3 3 3"); game.keep("3 3 3 3 3 3")  # BOB wins on the spot


def play_g5(game: Game) -> None:
    game.roll("4 4 4 4 4 4"); game.keep("4 4 4 4 4 4")  # Robert wins on the spot in his first turn


def play_g3(game: Game) -> None:
    game.roll("1 5 2 3 4 6"); game.keep("1 5"); game.bank()


def make_home(home: Path) -> Path:
    """Fill ``home`` with the games above; returns the journal of g1."""
    g1 = journal_game(home, "g1", "retail", ["Ann", "Bob"], "2026-11-01T20:00:00+00:00", play_g1)
    game = Game.new(load_rules("retail"), ["Ann", "Bob"], started_at="2026-11-01T20:00:00+00:00")
    play_g1(game)
    save_game(game, games_folder(home) / "g1-saved.json")
    journal_game(home, "g2", "house-2009", ["BOB", "Mary Lou", "ann"], "2026-11-02T20:00:00+00:00", play_g2)
    journal_game(home, "g3", "retail", ["marylou", "Ann"], "2026-11-03T20:00:00+00:00", play_g3)
    g4 = journal_game(home, "g4", "retail", ["Ann", "Zed"], "2026-11-04T20:00:00+00:00", play_g1)
    with g4.open("ab") as spoiled:
        spoiled.write(b'{"type": "rolled", "dice": [1, 2\n')
    journal_game(home, "g0", "retail", ["Ann", "Bob"], "2026-11-05T20:00:00+00:00", lambda game: None)
    return g1
